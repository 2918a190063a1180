"""What `check` and `gradcheck` share: bound variables drawn again for every point, a program parsed once and
run again with new values, autograd's first and second derivatives, and the elementwise comparison of
torch.allclose (in float64: a value passes when |value - reference| <= atol + rtol * |reference|)."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.literals import plain_number
from autodiff.app.session import Binding, bind, constant, parsed, root_tensor
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, UnknownNameError, UsageError
from autodiff.grammar.interpreter import EngineBackend, Evaluation, Interpreter, Tape, compile_elementwise
from autodiff.grammar.syntax import elementwise, formula_shape, is_number

# torch.allclose's defaults, for float64; float32 rounds at about 6e-8, so its defaults are looser
# (the atol of torch.testing.assert_close for float32, and a relative tolerance that float32 arithmetic
# on a few terms comfortably meets).
TOLERANCES = {"float64": (1e-5, 1e-8), "float32": (1e-4, 1e-5)}


def fresh_seed() -> int:
    """A seed for points nobody seeded, reported so the same points can be drawn again (os.urandom: the
    secrets module costs start-up)."""
    import os

    return int.from_bytes(os.urandom(4), "little") % 2**31


def default_tolerances(dtype: str) -> tuple[float, float]:
    """(rtol, atol) for a check in this dtype."""
    return TOLERANCES.get(dtype, TOLERANCES["float32"])


def tolerances(dtype: str, rtol: float | None, atol: float | None) -> tuple[float, float]:
    """The tolerances asked for (or the dtype's defaults), checked."""
    default_rtol, default_atol = default_tolerances(dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    for setting, value in (("rtol", rtol), ("atol", atol)):
        if not value >= 0 or math.isinf(value):
            raise UsageError(f"{{{setting}}} must be a finite number >= 0, got {value}", fields=(setting,))
    return rtol, atol


def nothing_to_compare(sizes: list[tuple[str, int]]) -> None:
    """An empty tensor has no derivative to compare: say so rather than report a vacuous success."""
    for name, size in sizes:
        if size == 0:
            raise BadValueError(f"{name} has no elements, so there is no derivative to compare",
                                hint="bind a value with at least one element", reason="empty")


class Variable:
    """A bound name: a VALUE text of the language (evaluated again for every sample) or fixed values."""

    def __init__(self, name: str, text: str | None = None, values: np.ndarray | None = None,
                 requires_grad: bool = True) -> None:
        self.name = name
        self.text = text
        self.values = values  # from @PATH: the same at every sample
        self.requires_grad = requires_grad

    def draw(self) -> Any:
        if self.values is not None:
            return self.values
        number = _plain_number(self.text or "")
        return constant(self.text or "", f"the value of {self.name}") if number is None else number

    def number(self) -> int | float | None:
        """The value when VALUE is one number as written (the same at every draw), else None."""
        return None if self.values is not None else _plain_number(self.text or "")


@functools.lru_cache(maxsize=1024)
def _plain_number(text: str) -> float | int | None:
    """The value of a VALUE that is a number as written (1.5, -3, 2e-3): the same at every draw, so worked out
    once (a check draws its values again at every sample); None for anything else (rand(), a list, a typo)."""
    plain = plain_number(text)  # a number as repr() writes it (a batch line's values): no parse needed
    if plain is not None:
        return plain
    try:
        program = parsed(text)
    except AutodiffError:
        return None
    return constant(text, "") if is_number(program) else None


UNBOUND = "rand()*4-2"  # the VALUE of a variable the command line leaves unbound: random points in [-2, 2)


def free_names(program: str, bound: list[Variable], most: int = 16) -> list[str]:
    """The names the program uses that nothing binds (its free variables), in the order it meets them: the
    program is run with each name found bound to a number, until it runs; a run that fails otherwise ends
    the search with what was found (the check itself then reports the failure)."""
    from autodiff.app.session import EvalRequest, evaluate

    names: list[str] = []
    with np.errstate(all="ignore"):
        values = [Binding(v.name, v.draw(), v.requires_grad) for v in bound]
        for _ in range(most):
            try:
                evaluate(EvalRequest(program, values + [Binding(n, 0.5, True) for n in names]))
            except UnknownNameError as error:
                if error.reason != "unbound_name" or error.details.get("name") in names:
                    return names
                names.append(str(error.details.get("name")))
            except AutodiffError:
                return names
            else:
                return names
    return names


class Program:
    """A program parsed once and run again with new values bound to its variables. A formula of plain arithmetic
    whose shape (grammar's formula_shape: its tokens but its numbers) was seen before is not parsed at all: its runs
    go by the tape of the first program of that shape with this one's numbers (the same steps the interpreter
    would take), and it is parsed only if something asks for its tree."""

    def __init__(self, text: str, backend: Any = None, tree: Any = None) -> None:
        self.text, self.backend = text, backend
        self.tapes: dict[tuple[str, ...], Tape | None] = {}
        self.numbers: list[Any] | None = None  # a formula's numbers (as its tape pushes them), for its shape's tapes
        self.written: list[str] = []  # and as written
        self.shape: Shape | None = None
        self._tree = tree if tree is not None else self._known_shape(text)
        self._evaluator: Interpreter | None = None

    def _known_shape(self, text: str) -> Any:
        """The program's tree (None when its shape is known: then the tree is parsed only if asked for)."""
        found = formula_shape(text)
        if found is None:
            return parsed(text)
        key, numbers = found
        shape, tree = _SHAPES.get(key), None
        if shape is None:
            tree = parsed(text)
            if len(_SHAPES) >= MOST_SHAPES:
                _SHAPES.clear()
            shape = _SHAPES[key] = Shape(key, tree)
        self.shape = shape
        self.numbers = [EngineBackend.number(value, written) for value, written in numbers]
        self.written = [written for _, written in numbers]
        return tree

    @property
    def tree(self) -> Any:
        if self._tree is None:
            self._tree = parsed(self.text)
        return self._tree

    @property
    def evaluator(self) -> Interpreter:
        if self._evaluator is None:
            self._evaluator = Interpreter(self.backend)  # None: the engine's
        return self._evaluator

    @classmethod
    def parsed_as(cls, tree: Any, backend: Any = None) -> Program:
        """The program of a tree parsed already."""
        return cls("", backend, tree)

    def elementwise(self, variables: Any) -> bool:
        """grammar's elementwise() of the program's tree (of its shape's: numbers do not change the answer)."""
        return self.shape.elementwise(tuple(variables)) if self.shape is not None else \
            elementwise(self.tree, variables)

    def run(self, bindings: list[Binding]) -> tuple[Tensor, dict[str, Tensor], Evaluation]:
        """(root, the bound leaves, the evaluation); the leaves are this run's own fresh tensors."""
        leaves = bind(bindings)
        self.evaluator.names = dict(leaves)
        evaluation = self.evaluator.run(self.tree, Evaluation(self.tree))
        return root_tensor(evaluation), leaves, evaluation

    def run_root(self, bindings: list[Binding]) -> tuple[Tensor, dict[str, Tensor]]:
        """run()'s root and leaves, by the program's tape when it is elementwise in the bound names (the same engine
        calls, without the interpreter's walk: grammar/interpreter/tape.py), else by run()."""
        leaves = bind(bindings)
        root = self.tape_root(leaves)
        if root is not None:
            return root, leaves
        root, leaves, _ = self.run(bindings)
        return root, leaves

    def tape_root(self, names: dict[str, Any]) -> Tensor | None:
        """The root of the program's run by its tape with these names bound (None: it has no tape with them, the
        run failed, or its root is not a tensor; the interpreter's run then says what it is)."""
        key = tuple(names)
        if key not in self.tapes:
            if self.shape is not None:
                tape = self.shape.tape(key, self.backend)
                self.tapes[key] = None if tape is None else tape.renumbered(self.numbers or [])
            else:
                self.tapes[key] = compile_elementwise(self.tree, key, self.backend) if elementwise(self.tree, key) \
                    else None
        tape = self.tapes[key]
        if tape is None:
            return None
        try:
            root, _ = tape.run(dict(names))
        except Exception:  # the interpreter's run says what went wrong
            return None
        return root if isinstance(root, Tensor) else None


class Shape:
    """What the formulas of one shape share: the shape (formula_shape's), the first one's tree, whether it is
    elementwise in some names, its tapes (by the names bound and the backend), and what others work out of it
    (`memo`: app/together.py's lanes)."""

    __slots__ = ("admits", "key", "memo", "tapes", "tree")

    def __init__(self, key: tuple, tree: Any) -> None:
        self.key, self.tree = key, tree
        self.memo: dict[Any, Any] = {}
        self.admits: dict[tuple[str, ...], bool] = {}
        self.tapes: dict[tuple[tuple[str, ...], Any], Tape | None] = {}

    def elementwise(self, names: tuple[str, ...]) -> bool:
        if names not in self.admits:
            self.admits[names] = elementwise(self.tree, names)
        return self.admits[names]

    def tape(self, names: tuple[str, ...], backend: Any) -> Tape | None:
        key = (names, backend)
        if key not in self.tapes:
            self.tapes[key] = compile_elementwise(self.tree, names, backend) if self.elementwise(names) else None
        return self.tapes[key]


MOST_SHAPES = 4096  # shapes remembered (a batch's programs come from a few dozen)
_SHAPES: dict[tuple, Shape] = {}


def gradients(root: Tensor, inputs: list[Tensor], grad_output: np.ndarray | None,
               retain_graph: bool = False) -> list[np.ndarray]:
    """d(root . grad_output)/d(input) for each input; zeros where the root does not depend on it."""
    if not inputs:
        return []
    if not root.requires_grad:
        return [np.zeros(t.shape, dtype=t.dtype) for t in inputs]
    gradient = None if grad_output is None else engine.tensor(grad_output, dtype=root.dtype)
    grads = engine.grad(root, inputs, grad_outputs=gradient, retain_graph=retain_graph, allow_unused=True)
    return [np.zeros(t.shape, dtype=t.dtype) if g is None else np.array(g.numpy(force=True), copy=True)
            for t, g in zip(inputs, grads)]


def second(root: Tensor, inputs: list[Tensor], grad_output: np.ndarray | None) -> list[np.ndarray]:
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
        out.append(np.zeros(t.shape, dtype=t.dtype) if second is None else second.numpy(force=True).copy())
    return out


class Comparison:
    """An elementwise comparison of values with a reference, by torch.allclose's rule."""

    def __init__(self, ok: bool, max_abs_error: float, max_rel_error: float, worst: int, worst_error: float) -> None:
        self.ok = ok
        self.max_abs_error = max_abs_error
        self.max_rel_error = max_rel_error
        self.worst = worst  # flat index of the worst element: the largest error out of tolerance, else the largest
        self.worst_error = worst_error  # its absolute error

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Comparison) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # compared by value, so not hashable


def compare(values: np.ndarray, reference: np.ndarray, rtol: float, atol: float) -> Comparison:
    """Compare in float64. nan matches nan and an infinity matches the same infinity; any other
    non-finite pair is an infinite error. The relative error counts only the elements whose reference
    is larger than atol (the smaller ones are judged by atol alone)."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    r = np.asarray(reference, dtype=np.float64).reshape(-1)
    if v.size == 0:
        return Comparison(True, 0.0, 0.0, 0, 0.0)
    error, relative, failing = _errors(v, r, rtol, atol)
    # the worst element: the largest error among those out of tolerance, else the largest error
    worst = int(np.argmax(np.where(failing, error, -1.0))) if failing.any() else int(np.argmax(error))
    return Comparison(
        ok=not failing.any(),
        max_abs_error=float(error.max()),
        max_rel_error=float(relative.max()),
        worst=worst,
        worst_error=float(error[worst]),
    )


def compare_each(values: np.ndarray, reference: np.ndarray, rtol: float, atol: float) -> list[Comparison]:
    """compare(values[i], reference[i]) for every i of two 1-d arrays of the same size, computed at once
    (the same elementwise steps, so each is what compare gives for the pair alone)."""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    r = np.asarray(reference, dtype=np.float64).reshape(-1)
    if v.size <= FEW:
        return [_compare_floats(a, b, rtol, atol) for a, b in zip(v.tolist(), r.tolist())]
    error, relative, failing = _errors(v, r, rtol, atol)
    return [Comparison(not bad, e, rel, 0, e)
            for bad, e, rel in zip(failing.tolist(), error.tolist(), relative.tolist())]


FEW = 64  # compare_each compares fewer values than this on Python floats (numpy's calls cost more than the work)


def _compare_floats(v: float, r: float, rtol: float, atol: float) -> Comparison:
    """compare_each's comparison of one pair: _errors' steps on Python floats (each an IEEE operation, as numpy's
    are, so the same numbers)."""
    finite = math.isfinite(v) and math.isfinite(r)
    if finite:
        error = abs(v - r)
        magnitude = abs(r)
        allowed = atol + rtol * magnitude
    else:
        same_special = (math.isnan(v) and math.isnan(r)) or (math.isinf(v) and v == r)
        error = 0.0 if same_special else math.inf
        magnitude, allowed = 1.0, atol + rtol * 0.0
    badness = 0.0 if error == 0 else (error / allowed if allowed > 0 else math.inf)
    if not finite:
        relative = math.inf if error > 0 else 0.0
    else:
        relative = error / magnitude if abs(r) > atol and error > 0 else 0.0
    return Comparison(not badness > 1.0, error, relative, 0, error)


def _errors(v: np.ndarray, r: np.ndarray, rtol: float, atol: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each element's absolute and relative error, and whether it is out of tolerance."""
    finite = np.isfinite(v) & np.isfinite(r)
    same_special = (np.isnan(v) & np.isnan(r)) | (np.isinf(v) & (v == r))
    with np.errstate(all="ignore"):
        error = np.where(finite, np.abs(v - r), np.where(same_special, 0.0, np.inf))
        allowed = atol + rtol * np.where(finite, np.abs(r), 0.0)
        badness = np.where(error == 0, 0.0, np.where(allowed > 0, error / allowed, np.inf))
        large = (np.abs(r) > atol) | ~finite
        relative = np.where(large & (error > 0), error / np.where(finite, np.abs(r), 1.0), 0.0)
        relative = np.where(~finite & (error > 0), np.inf, relative)
    return error, relative, badness > 1.0
