"""Checking gradients: a user's own derivative against autograd (`autodiff check`), autograd against
central finite differences (`autodiff gradcheck`).

All the arithmetic of those commands lives here; the CLI only renders the reports. Every comparison
is in float64 and follows torch.allclose: a value passes when |value - reference| <= atol + rtol *
|reference|, where the reference is autograd's gradient (check) or the finite differences (gradcheck).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.session import (
    Binding,
    as_tensor,
    bind,
    constant,
    parsed,
    root_tensor,
)
from autodiff.engine import Tensor
from autodiff.engine.errors import (
    AutodiffError,
    BadValueError,
    LimitError,
    ParseError,
    ShapeError,
    UnknownNameError,
    UsageError,
)
from autodiff.grammar.interpreter import Evaluation, Interpreter

# torch.allclose's defaults, for float64; float32 rounds at about 6e-8, so its defaults are looser
# (the atol of torch.testing.assert_close for float32, and a relative tolerance that float32 arithmetic
# on a few terms comfortably meets).
TOLERANCES = {"float64": (1e-5, 1e-8), "float32": (1e-4, 1e-5)}

# PyTorch's gradcheck defaults.
GRADCHECK_EPS = 1e-6
GRADCHECK_ATOL = 1e-5
GRADCHECK_RTOL = 1e-3
MAX_SAMPLES = 10_000  # check's points, each a run of the program
MAX_PERTURBATIONS = 10_000  # leaf elements gradcheck perturbs (two evaluations each) unless raised
FULL_JACOBIAN_UP_TO = 32  # outputs; a larger root is compared through a fixed random projection
PROJECTION_SEED = 0  # the projection vector's seed: the same program gives the same check


def fresh_seed() -> int:
    """A seed for points nobody seeded, reported so the same points can be drawn again (os.urandom: the
    secrets module costs start-up)."""
    import os

    return int.from_bytes(os.urandom(4), "little") % 2**31


def default_tolerances(dtype: str) -> tuple[float, float]:
    """(rtol, atol) for a check in this dtype."""
    return TOLERANCES.get(dtype, TOLERANCES["float32"])


# ---------------------------------------------------------------------------- values and programs
@dataclass
class Variable:
    """A bound name: a VALUE text of the language (evaluated again for every sample) or fixed values."""

    name: str
    text: str | None = None
    values: np.ndarray | None = None  # from @PATH: the same at every sample
    requires_grad: bool = True

    def draw(self) -> Any:
        if self.values is not None:
            return self.values
        return constant(self.text or "", f"the value of {self.name}")


@contextmanager
def default_dtype(dtype: str) -> Iterator[None]:
    """The engine's default dtype for the duration (numbers and lists become tensors of it)."""
    previous = engine.get_default_dtype()
    engine.set_default_dtype(dtype)
    try:
        yield
    finally:
        engine.set_default_dtype(previous)


class _Program:
    """A program parsed once and run again with new values bound to its variables."""

    def __init__(self, text: str) -> None:
        self.tree = parsed(text)
        self.evaluator = Interpreter()

    def run(self, bindings: list[Binding]) -> tuple[Tensor, dict[str, Tensor], Evaluation]:
        """(root, the bound leaves, the evaluation); the leaves are this run's own fresh tensors."""
        leaves = bind(bindings)
        self.evaluator.names = dict(leaves)
        evaluation = self.evaluator.run(self.tree, Evaluation(self.tree))
        return root_tensor(evaluation), leaves, evaluation


def _gradients(root: Tensor, inputs: list[Tensor], grad_output: np.ndarray | None,
               retain_graph: bool = False) -> list[np.ndarray]:
    """d(root . grad_output)/d(input) for each input; zeros where the root does not depend on it."""
    if not inputs:
        return []
    if not root.requires_grad:
        return [np.zeros(t.shape, dtype=t.dtype) for t in inputs]
    gradient = None if grad_output is None else engine.tensor(grad_output, dtype=root.dtype)
    grads = engine.grad(root, inputs, grad_outputs=gradient, retain_graph=retain_graph, allow_unused=True)
    return [np.zeros(t.shape, dtype=t.dtype) if g is None else np.array(g.data, copy=True)
            for t, g in zip(inputs, grads)]


def _second(root: Tensor, inputs: list[Tensor], grad_output: np.ndarray | None) -> list[np.ndarray]:
    """d/dx of the sum of d(root)/dx, for each input x: the elementwise second derivative."""
    out = []
    gradient = None if grad_output is None else engine.tensor(grad_output, dtype=root.dtype)
    for t in inputs:
        if not root.requires_grad:
            out.append(np.zeros(t.shape, dtype=t.dtype))
            continue
        with engine.enable_grad():
            (first,) = engine.grad(root, [t], grad_outputs=gradient, retain_graph=True, create_graph=True,
                                   allow_unused=True)
        if first is None or not first.requires_grad:
            out.append(np.zeros(t.shape, dtype=t.dtype))
            continue
        (second,) = engine.grad(first.sum(), [t], retain_graph=True, allow_unused=True)
        out.append(np.zeros(t.shape, dtype=t.dtype) if second is None else np.array(second.data, copy=True))
    return out


# ---------------------------------------------------------------------------- comparison
@dataclass
class Comparison:
    """An elementwise comparison of values with a reference, by torch.allclose's rule."""

    ok: bool
    max_abs_error: float
    max_rel_error: float
    worst: int  # flat index of the worst element: the largest error out of tolerance, else the largest
    worst_error: float  # its absolute error


def compare(values: np.ndarray, reference: np.ndarray, rtol: float, atol: float) -> Comparison:
    """Compare in float64. nan matches nan and an infinity matches the same infinity; any other
    non-finite pair is an infinite error. The relative error counts only the elements whose reference
    is larger than atol (the smaller ones are judged by atol alone)."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    r = np.asarray(reference, dtype=np.float64).reshape(-1)
    if v.size == 0:
        return Comparison(True, 0.0, 0.0, 0, 0.0)
    finite = np.isfinite(v) & np.isfinite(r)
    same_special = (np.isnan(v) & np.isnan(r)) | (np.isinf(v) & (v == r))
    with np.errstate(all="ignore"):
        error = np.where(finite, np.abs(v - r), np.where(same_special, 0.0, np.inf))
        allowed = atol + rtol * np.where(finite, np.abs(r), 0.0)
        badness = np.where(error == 0, 0.0, np.where(allowed > 0, error / allowed, np.inf))
        large = (np.abs(r) > atol) | ~finite
        relative = np.where(large & (error > 0), error / np.where(finite, np.abs(r), 1.0), 0.0)
        relative = np.where(~finite & (error > 0), np.inf, relative)
    failing = badness > 1.0
    # the worst element: the largest error among those out of tolerance, else the largest error
    worst = int(np.argmax(np.where(failing, error, -1.0))) if failing.any() else int(np.argmax(error))
    return Comparison(
        ok=not failing.any(),
        max_abs_error=float(error.max()),
        max_rel_error=float(relative.max()),
        worst=worst,
        worst_error=float(error[worst]),
    )


# ---------------------------------------------------------------------------- autodiff check
@dataclass
class Expectation:
    """`--expect NAME=EXPR`: the user's derivative of the root with respect to NAME."""

    name: str
    text: str


@dataclass
class CheckRequest:
    program: str
    variables: list[Variable]
    expectations: list[Expectation]
    dtype: str = "float32"
    samples: int | None = None  # None: at the bound values
    seed: int | None = None
    rtol: float | None = None
    atol: float | None = None
    order: int = 1  # 2: the expectations are second derivatives (of the sum of the gradient, per element)


@dataclass
class Worst:
    """Where an expectation is furthest from autograd: the point, both values there, the element."""

    point: dict[str, np.ndarray]
    expected: np.ndarray
    autograd: np.ndarray
    index: tuple[int, ...]  # the element of the gradient (empty for a scalar)
    sample: int  # 1-based; 1 without --samples
    abs_error: float
    rel_error: float


@dataclass
class CheckResult:
    name: str
    text: str
    ok: bool
    max_abs_error: float
    max_rel_error: float
    worst: Worst
    shape: tuple[int, ...]
    mistake: str | None = None  # the likely mistake, when the derivative is wrong and it is recognisable


@dataclass
class CheckReport:
    ok: bool
    checks: list[CheckResult]
    samples: int
    seed: int | None
    dtype: str
    rtol: float
    atol: float
    root_shape: tuple[int, ...]
    notes: list[str] = field(default_factory=list)
    points: list[dict[str, np.ndarray]] = field(default_factory=list)  # every point checked, in order
    order: int = 1


class _Derivative:
    """An expectation's EXPR, parsed once, evaluated in float64 at each point."""

    def __init__(self, expectation: Expectation, bound: list[str]) -> None:
        self.name, self.text, self.bound = expectation.name, expectation.text, bound
        self.what = f"--expect {expectation.name}={expectation.text}"
        try:
            self.tree = parsed(expectation.text)
        except ParseError as error:
            error.message = f"{self.what}: {error.message}"
            error.details["summary"] = f"{self.what}: {error.details.get('summary', '')}"
            raise
        self.evaluator = Interpreter()

    def value(self, point: dict[str, np.ndarray]) -> np.ndarray:
        try:
            with default_dtype("float64"), engine.no_grad():
                self.evaluator.names = {n: engine.tensor(v, dtype="float64") for n, v in point.items()}
                evaluation = self.evaluator.run(self.tree, Evaluation(self.tree))
                value = evaluation.root
                if isinstance(value, (int, float, list)) and not isinstance(value, bool):
                    value = engine.tensor(value, dtype="float64")
        except UnknownNameError as error:
            listed = ", ".join(self.bound)
            error.message = f"{self.what}: {error.message}"
            error.hint = f"a derivative can use the bound variables ({listed}), numbers and the built-ins"
            raise
        except AutodiffError as error:
            error.message = f"{self.what}: {error.message}"
            raise
        if not isinstance(value, Tensor):
            what = "nothing" if value is None else f"a {type(value).__name__}"
            raise BadValueError(f"{self.what}: the derivative gives {what}, not a number or tensor",
                                reason="expectation")
        return np.asarray(value.data, dtype=np.float64)


def check_derivatives(request: CheckRequest) -> CheckReport:
    """Compare each expectation with autograd's gradient at the bound values or at random samples."""
    rtol, atol = _tolerances(request.dtype, request.rtol, request.atol)
    if request.samples is not None and request.samples < 1:
        raise UsageError(f"--samples must be at least 1, got {request.samples}")
    if request.samples is not None and request.samples > MAX_SAMPLES:  # each is a run: 10**9 is a hang
        raise UsageError(f"--samples must be at most {MAX_SAMPLES:,}, got {request.samples:,}")
    if request.order not in (1, 2):
        raise UsageError(f"--order must be 1 or 2 for check, got {request.order}")
    if not request.expectations:
        raise UsageError("give at least one --expect NAME=EXPR (your derivative of the program with respect "
                         "to NAME)")
    variables = {v.name: v for v in request.variables}
    for expectation in request.expectations:
        _check_target(expectation.name, variables)
    names = [e.name for e in request.expectations]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise UsageError(f"--expect {twice}=...: given twice; give one derivative per variable")
    seed = request.seed
    if request.samples is not None and request.samples > 1 and seed is None:
        seed = fresh_seed()  # reported, so the same points can be drawn again
    samples = request.samples or 1
    bound = list(variables)
    derivatives = [_Derivative(e, bound) for e in request.expectations]
    with default_dtype(request.dtype), np.errstate(all="ignore"):
        if seed is not None:
            engine.manual_seed(seed)
        program = _Program(request.program)
        states: list[dict[str, Any]] = [{} for _ in derivatives]
        first: dict[str, np.ndarray] = {}
        fixed: list[str] = []  # variables whose VALUE gives the same point every time
        root_shape: tuple[int, ...] = ()
        points: list[dict[str, np.ndarray]] = []
        for sample in range(1, samples + 1):
            bindings = []
            for v in variables.values():
                value = v.draw()
                if sample > 1 and v.requires_grad:
                    drawn = np.asarray(as_tensor(value, f"the value of {v.name}").data, dtype=np.float64)
                    if v.name in fixed or (sample == 2 and np.array_equal(drawn, first[v.name], equal_nan=True)):
                        # A fixed VALUE (x=1.2) would check the same point N times: sample around it instead,
                        # so a derivative that agrees only at that point is still caught.
                        if v.name not in fixed:
                            fixed.append(v.name)
                        value = _around(first[v.name], sample, drawn.shape)
                bindings.append(Binding(v.name, value, v.requires_grad))
            root, leaves, _ = program.run(bindings)
            if sample > 1 and fixed and root.data.size == 1 and not np.isfinite(root.data).all():
                continue  # a point drawn around a fixed value outside the function's domain (log(x) at x < 0)
            root_shape = tuple(root.shape)
            point = {name: np.array(t.data, copy=True) for name, t in leaves.items()}
            points.append(point)
            first = first or {name: values.astype(np.float64) for name, values in point.items()}
            ones = None if root.data.size == 1 else np.ones(root.shape)
            targets = [leaves[d.name] for d in derivatives]
            _nothing_to_compare([(d.name, t.numel()) for d, t in zip(derivatives, targets)] +
                                [("the result", root.numel())])
            grads = _gradients(root, targets, ones) if request.order == 1 else _second(root, targets, ones)
            for derivative, grad, state in zip(derivatives, grads, states):
                expected = derivative.value(point)
                expected = _shaped(expected, grad.shape, derivative)
                _record(state, sample, point, expected, grad, rtol, atol)
    checks = [_result(d, s) for d, s in zip(derivatives, states)]
    _diagnose(checks, states, request)
    report = CheckReport(all(c.ok for c in checks), checks, samples, seed if samples > 1 else request.seed,
                         request.dtype, rtol, atol, root_shape, points=points, order=request.order)
    if len(root_shape) and math.prod(root_shape) != 1:
        report.notes.append(f"the program's result has shape {root_shape}: its derivative is taken of the sum "
                            "of its elements (for an elementwise program, the elementwise derivative)")
    if fixed:
        which = ", ".join(fixed)
        report.notes.append(f"{which}: a fixed value, so sample 1 is that point and the others are drawn around it "
                            "(-x, x/4, -3x, then x + randn()); "
                            f"bind e.g. {fixed[0]}='rand(3)*4-2' to choose the distribution")
    return report


_SPREAD = (-1.0, 0.25, -3.0)  # samples 2, 3 and 4 around a fixed value: its mirror, smaller, larger and negative


def _around(value: np.ndarray, sample: int, shape: tuple[int, ...]) -> np.ndarray:
    """The sample-th point around a fixed value: -value, value/4, -3*value (both signs and several magnitudes,
    so 1/abs(x) for d/dx log(abs(x)) is caught with any seed), then value + randn()."""
    if 2 <= sample <= 1 + len(_SPREAD) and np.any(value != 0):
        return value * _SPREAD[sample - 2]
    return value + engine.randn(*shape, dtype="float64").data


def _tolerances(dtype: str, rtol: float | None, atol: float | None) -> tuple[float, float]:
    default_rtol, default_atol = default_tolerances(dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    for option, value in (("--rtol", rtol), ("--atol", atol)):
        if not value >= 0 or math.isinf(value):
            raise UsageError(f"{option} must be a finite number >= 0, got {value}")
    return rtol, atol


def _check_target(name: str, variables: dict[str, Variable]) -> None:
    variable = variables.get(name)
    bound = [n for n, v in variables.items() if v.requires_grad]
    if variable is None:
        import difflib

        close = difflib.get_close_matches(name, list(variables), n=1)
        known = ", ".join(bound) or "none"
        raise UnknownNameError(
            f"--expect {name}=...: {name!r} is not a bound variable"
            + (f"; did you mean {close[0]!r}?" if close else f" (bound variables: {known})"),
            hint=f"bind it, e.g. {name}=1.5 or --var {name}='randn()', and differentiate with respect to it",
            reason="unknown_name", name=name)
    if not variable.requires_grad:
        raise UsageError(f"--expect {name}=...: {name} is bound with --const, so it has no gradient; bind it with "
                         f"--var {name}=VALUE (or {name}=VALUE) to check a derivative with respect to it")


def _shaped(expected: np.ndarray, shape: tuple[int, ...], derivative: _Derivative) -> np.ndarray:
    """The expectation in the gradient's shape: the same shape, or one number for every element."""
    if expected.shape == shape:
        return expected
    if expected.ndim == 0:
        return np.broadcast_to(expected, shape)
    raise ShapeError(
        f"{derivative.what}: your derivative has shape {expected.shape}, but {derivative.name} (and so the "
        f"gradient with respect to it) has shape {shape}",
        hint="the derivative must give one value per element of the variable (or one number for all of them)",
        reason="expectation_shape", shapes=(expected.shape, shape))


def _nothing_to_compare(sizes: list[tuple[str, int]]) -> None:
    """An empty tensor has no derivative to compare: say so rather than report a vacuous success."""
    for name, size in sizes:
        if size == 0:
            raise BadValueError(f"{name} has no elements, so there is no derivative to compare",
                                hint="bind a value with at least one element", reason="empty")


def _record(state: dict[str, Any], sample: int, point: dict[str, np.ndarray], expected: np.ndarray,
            grad: np.ndarray, rtol: float, atol: float) -> None:
    """Fold one point's comparison into an expectation's running worst case."""
    result = compare(expected, grad, rtol, atol)
    if grad.size == 1 and len(state.setdefault("values", [])) < 64:  # for naming a mistake (app.mistakes)
        state["values"].append((np.array(expected, copy=True), np.array(grad, copy=True), point))
    state["ok"] = state.get("ok", True) and result.ok
    state["max_abs"] = max(state.get("max_abs", 0.0), result.max_abs_error)
    state["max_rel"] = max(state.get("max_rel", 0.0), result.max_rel_error)
    state["shape"] = grad.shape
    key = (not result.ok, result.worst_error)
    if "worst" not in state or key > state["key"]:
        index = tuple(int(i) for i in np.unravel_index(result.worst, grad.shape)) if grad.ndim else ()
        e, a = float(expected.reshape(-1)[result.worst]), float(grad.reshape(-1)[result.worst])
        single = compare(np.array(e), np.array(a), rtol, atol)
        state["key"] = key
        state["worst"] = Worst(point, np.array(expected, dtype=np.float64), np.array(grad, copy=True), index,
                               sample, single.max_abs_error, single.max_rel_error)


def _diagnose(checks: list[CheckResult], states: list[dict[str, Any]], request: CheckRequest) -> None:
    """Name the likely mistake of each wrong first derivative of a scalar program (app.mistakes)."""
    if request.order != 1:
        return
    for check, state in zip(checks, states):
        values = state.get("values", [])
        if check.ok or not values or any(np.size(e) != 1 or np.size(g) != 1 for e, g, _ in values):
            continue
        if any(np.size(v) != 1 for _, _, p in values for v in p.values()):
            continue
        from autodiff.app.mistakes import diagnose

        points = [{n: float(np.asarray(v).reshape(-1)[0]) for n, v in p.items()} for _, _, p in values]
        check.mistake = diagnose(request.program, check.name, [float(np.asarray(e).reshape(-1)[0]) for e, _, _ in
                                 values], [float(np.asarray(g).reshape(-1)[0]) for _, g, _ in values], points)


def _result(derivative: _Derivative, state: dict[str, Any]) -> CheckResult:
    return CheckResult(derivative.name, derivative.text, state["ok"], state["max_abs"], state["max_rel"],
                       state["worst"], tuple(state["shape"]))


# ---------------------------------------------------------------------------- autodiff gradcheck
@dataclass
class GradcheckRequest:
    program: str
    variables: list[Variable]
    eps: float = GRADCHECK_EPS
    atol: float = GRADCHECK_ATOL
    rtol: float = GRADCHECK_RTOL
    max_perturbations: int = MAX_PERTURBATIONS
    seed: int | None = None


@dataclass
class LeafCheck:
    """One leaf's agreement: the largest errors and the entry of the Jacobian furthest off."""

    name: str
    shape: tuple[int, ...]
    ok: bool
    max_abs_error: float
    max_rel_error: float
    index: tuple[int, ...]  # the leaf element of the worst entry
    output: tuple[int, ...] | None  # the output element of the worst entry (None: scalar root or projection)
    autograd: float
    numerical: float


@dataclass
class GradcheckReport:
    ok: bool
    leaves: list[LeafCheck]
    method: str  # "gradient" (scalar root), "jacobian" (every output) or "projection"
    root_shape: tuple[int, ...]
    root_dtype: str
    eps: float
    atol: float
    rtol: float
    evaluations: int
    notes: list[str] = field(default_factory=list)


def gradcheck(request: GradcheckRequest) -> GradcheckReport:
    """Autograd's Jacobian (or its projection) against central finite differences, in float64.

    Every element of every leaf is perturbed by +eps and -eps and the program evaluated again; a program
    that draws random numbers is reseeded before every evaluation, so each one sees the same numbers.
    """
    if not request.eps > 0 or math.isinf(request.eps):
        raise UsageError(f"--eps must be a positive number, got {request.eps}")
    _tolerances("float64", request.rtol, request.atol)
    if request.max_perturbations < 1:
        raise UsageError(f"--max-perturbations must be positive, got {request.max_perturbations}")
    variables = [v for v in request.variables if v.requires_grad]
    if not variables:
        raise UsageError("gradcheck needs at least one variable to differentiate: bind one with NAME=VALUE or "
                         "--var NAME=VALUE")
    with default_dtype("float64"), np.errstate(all="ignore"):
        if request.seed is not None:
            engine.manual_seed(request.seed)
        values = {v.name: v.draw() for v in request.variables}
        constants = [v for v in request.variables if not v.requires_grad]
        program_seed = request.seed if request.seed is not None else fresh_seed()
        program = _Program(request.program)
        # Bind once to get each leaf's float64 values (a VALUE may be a number, a list or a tensor).
        arrays = {name: np.array(t.data, dtype=np.float64, order="C") for name, t in
                  bind([Binding(v.name, values[v.name], v.requires_grad) for v in request.variables]).items()}
        total = sum(arrays[v.name].size for v in variables)
        if total > request.max_perturbations:
            sizes = ", ".join(f"{v.name}: {arrays[v.name].size:,}" for v in variables)
            raise LimitError(f"gradcheck would perturb {total:,} elements ({sizes}), over the limit of "
                             f"{request.max_perturbations:,}",
                             hint="raise --max-perturbations (each element costs two evaluations of the program)",
                             reason="perturbations")

        def run() -> tuple[Tensor, dict[str, Tensor]]:
            engine.manual_seed(program_seed)
            bindings = [Binding(v.name, arrays[v.name], v.requires_grad) for v in request.variables]
            root, leaves, _ = program.run(bindings)
            return root, leaves

        root, leaves = run()
        root_shape, outputs = tuple(root.shape), int(root.data.size)
        _nothing_to_compare([(v.name, arrays[v.name].size) for v in variables] + [("the result", outputs)])
        targets = [leaves[v.name] for v in variables]
        if outputs == 1:
            method, directions = "gradient", [None]
        elif outputs <= FULL_JACOBIAN_UP_TO:
            method = "jacobian"
            directions = [np.eye(outputs)[i].reshape(root_shape) for i in range(outputs)]
        else:
            method = "projection"
            directions = [np.random.default_rng(PROJECTION_SEED).standard_normal(root_shape)]
        # analytical: one backward pass per direction; rows are directions, columns the leaf's elements
        analytical = {v.name: np.empty((len(directions), arrays[v.name].size)) for v in variables}
        for row, direction in enumerate(directions):
            grads = _gradients(root, targets, direction, retain_graph=True)
            for v, g in zip(variables, grads):
                analytical[v.name][row] = np.asarray(g, dtype=np.float64).reshape(-1)
        numerical = {v.name: np.empty_like(analytical[v.name]) for v in variables}
        projection = None if method == "gradient" else np.stack([d.reshape(-1) for d in directions])
        evaluations = 1
        for v in variables:
            work = arrays[v.name].reshape(-1)  # a view: writing it perturbs arrays[v.name]
            for j in range(work.size):
                original = work[j]
                work[j] = original + request.eps
                plus = _output(run()[0], root_shape, program)
                work[j] = original - request.eps
                minus = _output(run()[0], root_shape, program)
                work[j] = original
                evaluations += 2
                column = (plus - minus) / (2 * request.eps)
                numerical[v.name][:, j] = column if projection is None else projection @ column
    leaf_checks = [_leaf_check(v.name, arrays[v.name].shape, analytical[v.name], numerical[v.name], method,
                               root_shape, request) for v in variables]
    report = GradcheckReport(all(c.ok for c in leaf_checks), leaf_checks, method, root_shape, root.dtype.name,
                             request.eps, request.atol, request.rtol, evaluations)
    if root.dtype != np.float64:
        report.notes.append(f"the program's result is {root.dtype.name} (an explicit dtype in the program): finite "
                            "differences in it are unreliable")
    if constants:
        report.notes.append("constants (--const) are not perturbed: " + ", ".join(v.name for v in constants))
    return report


def _output(root: Tensor, shape: tuple[int, ...], program: _Program) -> np.ndarray:
    if tuple(root.shape) != shape:
        raise BadValueError(f"the program's result changed shape from {shape} to {tuple(root.shape)} when a "
                            "variable was perturbed; gradcheck needs a fixed shape", reason="gradcheck")
    return np.asarray(root.data, dtype=np.float64).reshape(-1)


def _leaf_check(name: str, shape: tuple[int, ...], analytical: np.ndarray, numerical: np.ndarray, method: str,
                root_shape: tuple[int, ...], request: GradcheckRequest) -> LeafCheck:
    result = compare(analytical, numerical, request.rtol, request.atol)
    if analytical.size == 0:
        return LeafCheck(name, shape, True, 0.0, 0.0, (), None, 0.0, 0.0)
    row, column = divmod(result.worst, analytical.shape[1])
    index = tuple(int(i) for i in np.unravel_index(column, shape)) if shape else ()
    output = tuple(int(i) for i in np.unravel_index(row, root_shape)) if method == "jacobian" else None
    return LeafCheck(name, shape, result.ok, result.max_abs_error, result.max_rel_error, index, output,
                     float(analytical[row, column]), float(numerical[row, column]))


__all__ = ["CheckReport", "CheckRequest", "CheckResult", "Comparison", "Expectation", "GradcheckReport",
           "GradcheckRequest", "LeafCheck", "Variable", "Worst", "check_derivatives", "compare",
           "default_tolerances", "gradcheck"]
