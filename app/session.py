"""One `autodiff eval` run, as data: bind values, evaluate the program, run the backward passes.

The CLI turns options into an `EvalRequest`, calls `run_eval`, and renders the `EvalResult`; it does no
arithmetic of its own. The graph of a result is exported here too, iteratively, as plain records.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from autodiff import engine
from autodiff.app.notices import program_warnings
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError, UnknownNameError, UsageError
from autodiff.grammar.interpreter import Evaluation, Interpreter, constant, kind, literal_tensor
from autodiff.grammar.syntax import Program, parse

CACHED_PROGRAM_CHARS = 20_000  # longer programs are parsed each time (a few hundred short ones are kept)


@functools.lru_cache(maxsize=512)
def _remembered(text: str) -> Program:
    return parse(text)


def parsed(text: str) -> Program:
    """parse(text), remembered for the last 512 short programs (a batch of lines repeats them; a tree is
    immutable, so sharing it is safe)."""
    return _remembered(text) if len(text) <= CACHED_PROGRAM_CHARS else parse(text)


def forget_parsed() -> None:
    """Empty the memory of parsed programs (tests count the parses)."""
    _remembered.cache_clear()


def as_tensor(value: Any, what: str, fields: tuple[str, ...] = ()) -> Tensor:
    """A value as a fresh tensor of the default dtype (numbers and lists are floats)."""
    if isinstance(value, Tensor):
        return engine.tensor(value.numpy(force=True), dtype=engine.get_default_dtype())
    if isinstance(value, np.ndarray):
        return engine.tensor(value, dtype=engine.get_default_dtype())
    if isinstance(value, (int, float, list, tuple)) and not isinstance(value, bool):
        return literal_tensor(value)
    raise BadValueError(f"{what} must be a number, a list of numbers or a tensor, not {type(value).__name__}",
                        fields=fields)


# Binding and Pass compare by their fields (named tuples); a request and a result by identity, with a short repr.


class Binding(NamedTuple):
    """A name bound before the program runs: a leaf that requires grad (a variable) or not (a constant)."""

    name: str
    value: Any  # a Tensor, a numpy array, a number or a list
    requires_grad: bool


class EvalRequest:
    """What to run: the program, its bindings and the backward passes, with what each pass keeps."""

    __slots__ = (
        "backend",
        "backward",
        "bindings",
        "detect_anomaly",
        "grad_tensor",
        "keep",
        "observe",
        "order",
        "parsed",
        "program",
        "repeat",
        "retain_grad",
        "retain_graph",
        "wrt",
        "zero_grad",
    )

    def __init__(self, program: str, bindings: list[Binding] | None = None, grad_tensor: Any = None,
                 retain_graph: bool = False, backward: list[str] | None = None, repeat: int = 1,
                 zero_grad: bool = False, retain_grad: list[str] | None = None, order: int = 1,
                 wrt: str | None = None, detect_anomaly: bool = False, observe: Callable[..., None] | None = None,
                 parsed: Program | None = None, keep: Callable[[np.ndarray], Any] | None = None,
                 backend: Any = None) -> None:
        self.program = program
        self.bindings = [] if bindings is None else bindings
        self.grad_tensor = grad_tensor
        self.retain_graph = retain_graph
        self.backward = [] if backward is None else backward  # the tensors backward starts from ("": the root)
        self.repeat = repeat
        self.zero_grad = zero_grad
        self.retain_grad = [] if retain_grad is None else retain_grad
        self.order = order
        self.wrt = wrt  # the leaf of the derivative (order N: d^N root / d wrt^N); None: the only leaf
        self.detect_anomaly = detect_anomaly
        # Receives every backward step (engine.observe); its start_pass(), if any, is called before
        # each backward call (the explanation of a pass uses both).
        self.observe = observe
        self.parsed = parsed  # the program already parsed (a batch parses it once for every line)
        # What each backward pass keeps of a gradient for the report (text output keeps only what it prints, so
        # that 500 repeated passes on a large tensor does not hold 500 copies); None: a full copy, and the copies
        # of all passes together are bounded by the element limit, checked before the first pass.
        self.keep = keep
        self.backend = backend  # the interpreter's backend (None: the engine's; app.realroots' in calculus commands)

    def rebound(self, bindings: list[Binding]) -> EvalRequest:
        """The same request with other bindings and no observer (a batch line run again in another dtype)."""
        import copy

        request = copy.copy(self)
        request.bindings, request.observe = bindings, None
        return request

    def __repr__(self) -> str:
        return f"EvalRequest(program={self.program!r}, bindings={self.bindings!r})"


class Pass(NamedTuple):
    """One backward call: which tensor it started from and every named leaf's .grad after it."""

    root: str | None
    grads: dict[str, Any]  # np.ndarray | None, or what EvalRequest.keep kept of it
    order: int | None = None  # which derivative this pass computed (EvalRequest.order)


class EvalResult:
    """What a run produced: the evaluation, its root, each backward pass and the leaves' final .grad."""

    __slots__ = ("evaluation", "grads", "passes", "root", "skipped_backward", "targets", "warnings")

    def __init__(self, evaluation: Evaluation, root: Tensor, passes: list[Pass], grads: dict[str, np.ndarray | None],
                 skipped_backward: str | None = None, targets: list[Tensor] | None = None) -> None:
        self.evaluation = evaluation
        self.root = root
        self.passes = passes
        self.grads = grads
        self.skipped_backward = skipped_backward  # why no backward ran (the root needs no grad)
        self.targets = [] if targets is None else targets  # the tensors backward started from
        self.warnings: list[str] = []  # what the engine warned of while the program ran (program_warnings)

    def __repr__(self) -> str:
        return f"EvalResult(root={self.root!r}, passes={self.passes!r}, grads={self.grads!r})"


def bind(bindings: list[Binding]) -> dict[str, Tensor]:
    """Tensors for the bindings: fresh leaves of the default dtype, requiring grad for the variables."""
    names: dict[str, Tensor] = {}
    for b in bindings:
        t = as_tensor(b.value, f"the value of {b.name}")
        if b.requires_grad:
            t.requires_grad_(True)
        names[b.name] = t
    return names


def evaluate(request: EvalRequest) -> tuple[Interpreter, Evaluation]:
    """Parse and run the program with the bindings in place."""
    program = request.parsed if request.parsed is not None else parsed(request.program)
    interpreter = Interpreter(request.backend)
    interpreter.names.update(bind(request.bindings))
    evaluation = interpreter.run(program, Evaluation(program))
    return interpreter, evaluation


def named_tensors(evaluation: Evaluation) -> dict[str, Tensor]:
    return {name: v for name, v in evaluation.names.items() if isinstance(v, Tensor)}


def leaves(evaluation: Evaluation) -> dict[str, Tensor]:
    """The named tensors whose .grad backward fills: leaves that require grad, and retained non-leaves."""
    return {name: t for name, t in named_tensors(evaluation).items()
            if t.requires_grad and (t.is_leaf or t.retains_grad)}


def grads_of(tensors: dict[str, Tensor]) -> dict[str, np.ndarray | None]:
    """A copy of each tensor's .grad values (None where it has none)."""
    return {name: None if t.grad is None else t.grad.numpy(force=True).copy() for name, t in tensors.items()}


def root_tensor(evaluation: Evaluation) -> Tensor:
    root = evaluation.root
    if isinstance(root, int) and not isinstance(root, bool) and abs(root) >= 2**63:
        root = float(root) if abs(root) < 2**1024 else math.copysign(math.inf, root)  # as the language's numbers
    if isinstance(root, list) or (isinstance(root, (int, float)) and not isinstance(root, bool)):
        root = literal_tensor(root)
    if not isinstance(root, Tensor):
        stmt = evaluation.root_statement
        if stmt is None:
            raise BadValueError("the program is empty (no statements, only blanks or comments): give the "
                                "expression to differentiate, e.g. 'x**2'", reason="root")
        named = kind(root)
        named = {"builtin_function_or_method": "built-in function", "type": "type (a class)"}.get(named, named)
        what = "nothing" if root is None else f"{'an' if named[0] in 'aeiou' else 'a'} {named}"
        raise BadValueError(
            f"the program's last statement gives {what}, not a tensor: end the program with the expression "
            "to differentiate", line=stmt.line if stmt else None, column=stmt.column if stmt else None,
            reason="root")
    return root


def run_eval(request: EvalRequest) -> EvalResult:
    """Evaluate the program and run the requested backward passes; the engine's warnings go to the result."""
    caught: list[str] = []
    with program_warnings(caught):
        result = _run_eval(request)
    result.warnings = caught
    return result


def _run_eval(request: EvalRequest) -> EvalResult:
    if request.repeat < 1:
        raise UsageError(f"{{repeat}} must be at least 1, got {request.repeat}", fields=("repeat",))
    if request.order < 1:
        raise UsageError(f"{{order}} must be at least 1, got {request.order}", fields=("order",))
    for setting, value in (("repeat", request.repeat), ("order", request.order)):
        if value > MAX_LOOP:  # every pass is run and reported: 10**9 of them is a hang, not an answer
            raise UsageError(f"{{{setting}}} must be at most {MAX_LOOP:,}, got {value:,}", fields=(setting,))
    passes = request.repeat * max(1, len(request.backward))
    if passes > MAX_LOOP:  # 10,000 x 10,000 passes: refused before any work
        raise UsageError(f"{{backward}} x {{repeat}} gives {passes:,} backward passes, over the limit of "
                         f"{MAX_LOOP:,}", fields=("backward", "repeat"))
    if (request.order > 1 or request.wrt) and (request.backward or request.repeat > 1):
        setting = "order" if request.order > 1 else "wrt"
        raise UsageError(f"{{{setting}}} cannot be combined with {{backward}} or {{repeat}}",
                         fields=(setting, "backward", "repeat"))
    # Every run starts with recording on, as a fresh process does, whatever an earlier run in this process
    # (an earlier batch line) switched off with torch.set_grad_enabled(False).
    with engine.detect_anomaly(request.detect_anomaly), engine.enable_grad():
        _, evaluation = evaluate(request)
        root = root_tensor(evaluation)
        names = named_tensors(evaluation)
        for name in request.retain_grad:
            _named(names, name, "retain_grad").retain_grad()
        gradient = None if request.grad_tensor is None else as_tensor(request.grad_tensor, "{grad_tensor}",
                                                                       ("grad_tensor",))
        if request.order > 1 or request.wrt:
            return _higher_order(request, evaluation, root, gradient)
        if not any(request.backward) and not root.requires_grad:
            return EvalResult(evaluation, root, [], grads_of(names), skipped_backward=ROOT_NEEDS_NO_GRAD)
        targets = [(evaluation.root_name, root) if name == "" else (name, _named(names, name, "backward"))
                   for name in request.backward] or [(evaluation.root_name, root)]  # "": the root
        if request.keep is None:
            _check_kept(leaves(evaluation), request.repeat * len(targets))
        passes = []
        with engine.observe(request.observe) if request.observe is not None else contextlib.nullcontext():
            for _ in range(request.repeat):
                for name, target in targets:
                    if request.zero_grad:
                        for leaf in leaves(evaluation).values():
                            if leaf.grad is not None:
                                leaf.grad.zero_()
                    start_pass = getattr(request.observe, "start_pass", None)
                    if start_pass is not None:
                        start_pass()
                    target.backward(gradient, retain_graph=request.retain_graph or None)
                    passes.append(Pass(name, _kept(leaves(evaluation), request.keep)))
        return EvalResult(evaluation, root, passes, grads_of(named_tensors(evaluation)),
                          targets=[t for _, t in targets])


def _kept(tensors: dict[str, Tensor], keep: Callable[[np.ndarray], Any] | None) -> dict[str, Any]:
    """What a pass keeps of each tensor's .grad: a copy (grads_of), or keep() of it."""
    if keep is None:
        return grads_of(tensors)
    return {name: None if t.grad is None else keep(t.grad.numpy(force=True)) for name, t in tensors.items()}


def _check_kept(tensors: dict[str, Tensor], passes: int) -> None:
    """Every pass keeps a copy of every gradient: refuse, before the first pass, more copies in all than
    the element limit (the first pass's are always allowed)."""
    limit = engine.get_max_elements()
    each = sum(t.numel() for t in tensors.values())
    if limit is None or passes < 2 or passes * each <= max(limit, each):
        return
    raise LimitError(f"{passes:,} backward passes would keep {passes * each:,} gradient values for the report "
                     f"({each:,} a pass), over the limit of {limit:,}",
                     hint="fewer passes, a smaller tensor, or raise the element limit", reason="kept_passes")


class OrderGuard:
    """What keeps {order} N bounded, for eval, table, plot and the calculus commands alike: each derivative's
    graph can multiply the last (x**x: by 3.5 an order), so derivative k is not differentiated again when the
    next graph, grown as much as this one did, would pass the budget (MAX_DERIVATIVE_NODES, or 4 times the
    program's graph if larger), or its arrays would not fit in the memory left under the cap."""

    def __init__(self, root: Tensor, wanted: int) -> None:
        self.wanted = wanted
        self.size = engine.graph_size(root)
        self.budget = max(MAX_DERIVATIVE_NODES, 4 * self.size)
        self.held = engine.graph_bytes(root)  # the arrays the graph keeps: each order's memory is predicted from them

    def check(self, derivative: Tensor, order: int, parent: int | None = None) -> int:
        """Refuse to differentiate `derivative` (of order `order`, from a graph of `parent` nodes: by default
        the last one checked) again when the next graph would be too large; its node count otherwise."""
        previous = self.size if parent is None else parent
        size = engine.graph_size(derivative, self.budget)
        if size * max(1.0, size / max(previous, 1)) > self.budget:
            raise LimitError(f"{{order}} {self.wanted}: the graph grows too fast with the order (derivative "
                             f"{order} has {size:,} nodes; the limit for the next is {self.budget:,})",
                             hint=f"ask for {{order}} {order} or less", reason="order", fields=("order",))
        self.held = _check_next_order_memory(self.wanted, order, self.held, engine.graph_bytes(derivative))
        self.size = size
        return size


def _check_next_order_memory(wanted: int, order: int, before: int, now: int) -> int:
    """Refuse the next derivative when its graph would not fit in the memory left under the process's cap:
    it keeps the current graph's arrays and adds new ones, as many as the last order added times its
    growth (at least as many as the graph holds). Returns what the graph holds now."""
    from autodiff.engine.kernels.allocator import room

    growth = max(1.0, now / max(before, 1))
    need = int(now * growth)
    left = room()
    if left is not None and need > left:
        raise LimitError(f"{{order}} {wanted}: derivative {order + 1} would need about {need >> 20:,} MiB more for "
                         f"its graph (the saved values grew {growth:.1f} times with the last order, to "
                         f"{now >> 20:,} MiB), and {max(left, 0) >> 20:,} MiB are left under the memory cap",
                         hint=f"ask for {{order}} {order} or less, or raise AUTODIFF_MAX_MEMORY", reason="order",
                         fields=("order",))
    return now


def _named(names: dict[str, Tensor], name: str, field: str) -> Tensor:
    tensor = names.get(name)
    if tensor is None:
        import difflib

        close = difflib.get_close_matches(name, list(names), n=1)
        known = ", ".join(names) or "none"
        raise UnknownNameError(f"{{{field}}} {name}: no tensor named {name!r} in the program"
                               + (f"; did you mean {close[0]!r}?" if close else f" (named tensors: {known})"),
                               reason="unknown_name", name=name, fields=(field,))
    return tensor


def _higher_order(request: EvalRequest, evaluation: Evaluation, root: Tensor, gradient: Tensor | None
                  ) -> EvalResult:
    """d^N root / dx^N: differentiate with create_graph, then the sum of the gradient again, N-1 times."""
    candidates = {name: t for name, t in named_tensors(evaluation).items() if t.is_leaf and t.requires_grad}
    if request.wrt is not None:
        if request.wrt not in candidates:
            listed = ", ".join(candidates) or "none"
            raise UsageError(f"{{wrt}} {request.wrt}: not a leaf that requires grad (the program's: {listed})",
                             fields=("wrt",))
        candidates = {request.wrt: candidates[request.wrt]}
    if len(candidates) != 1:
        listed = ", ".join(candidates) or "none"
        first = next(iter(candidates), "x")
        raise UsageError(f"{{order}} needs exactly one leaf that requires grad; the program has {len(candidates)} "
                         f"({listed}): pick one with {{wrt}}, e.g. {{wrt}} {first}", fields=("order", "wrt"))
    (name, x), = candidates.items()
    passes = []
    current, grad_output = root, gradient
    derivative: Tensor | None = None
    guard = OrderGuard(root, request.order)
    for order in range(1, request.order + 1):
        if current.requires_grad:
            (derivative,) = engine.grad(current, x, grad_outputs=grad_output, create_graph=True,
                                        allow_unused=True)
        else:
            derivative = None
        if derivative is None:  # no longer depends on x: every further derivative is zero
            derivative = engine.zeros_like(x)
        passes.append(Pass(evaluation.root_name, {name: np.array(derivative.numpy(force=True), copy=True)}, order))
        current, grad_output = derivative.sum(), None
        if order < request.order:
            guard.check(current, order)
    x.grad = derivative.detach()
    grads = grads_of(named_tensors(evaluation))
    return EvalResult(evaluation, root, passes, grads)


MAX_LOOP = 10_000  # repeated passes, and the order of a derivative
MAX_DERIVATIVE_NODES = 200_000  # the graph a higher order differentiates next (at least 4 times the program's)
ROOT_NEEDS_NO_GRAD = "the root does not require grad"  # why no backward pass ran


__all__ = ["AutodiffError", "Binding", "EvalRequest", "EvalResult", "OrderGuard", "Pass", "as_tensor", "constant",
           "root_tensor", "run_eval"]
