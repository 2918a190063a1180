"""`autodiff gradcheck`: autograd's Jacobian (or a projection of it) against central finite differences, in
float64, as PyTorch's gradcheck does (app/comparison.py compares them)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from autodiff import engine
from autodiff.app.comparison import (
    Program,
    Variable,
    compare,
    fresh_seed,
    gradients,
    nothing_to_compare,
    tolerances,
)
from autodiff.app.session import Binding, bind
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, LimitError, UsageError

# PyTorch's gradcheck defaults.
GRADCHECK_EPS = 1e-6
GRADCHECK_ATOL = 1e-5
GRADCHECK_RTOL = 1e-3
MAX_PERTURBATIONS = 10_000  # leaf elements gradcheck perturbs (two evaluations each) unless raised
FULL_JACOBIAN_UP_TO = 32  # outputs; a larger root is compared through a fixed random projection
PROJECTION_SEED = 0  # the projection vector's seed: the same program gives the same check


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
    variables = _validate(request)
    with engine.settings(default_dtype="float64"), np.errstate(all="ignore"):
        run = _Runs(request)
        root, leaves = run()
        root_shape, outputs = tuple(root.shape), int(root.numel())
        _defined(root, "at the point", run.arrays)
        nothing_to_compare([(v.name, run.arrays[v.name].size) for v in variables] + [("the result", outputs)])
        method, directions = _directions(root_shape, outputs)
        analytical = _analytical(root, [leaves[v.name] for v in variables], variables, directions, run.arrays)
        projection = None if method == "gradient" else np.stack([d.reshape(-1) for d in directions])
        numerical = {v.name: _numerical(run, v.name, root_shape, projection, request.eps) for v in variables}
    leaf_checks = [_leaf_check(v.name, run.arrays[v.name].shape, analytical[v.name], numerical[v.name], method,
                               root_shape, request) for v in variables]
    report = GradcheckReport(all(c.ok for c in leaf_checks), leaf_checks, method, root_shape, root.dtype.name,
                             request.eps, request.atol, request.rtol, run.evaluations)
    if root.dtype != np.float64:
        report.notes.append(f"the program's result is {root.dtype.name} (an explicit dtype in the program): finite "
                            "differences in it are unreliable")
    constants = [v.name for v in request.variables if not v.requires_grad]
    if constants:
        report.notes.append("constants are not perturbed: " + ", ".join(constants))
    return report


def _validate(request: GradcheckRequest) -> list[Variable]:
    """The variables to perturb, after checking the request's settings."""
    if not request.eps > 0 or math.isinf(request.eps):
        raise UsageError(f"{{eps}} must be a positive number, got {request.eps}", fields=("eps",))
    tolerances("float64", request.rtol, request.atol)
    if request.max_perturbations < 1:
        raise UsageError(f"{{max_perturbations}} must be positive, got {request.max_perturbations}",
                         fields=("max_perturbations",))
    variables = [v for v in request.variables if v.requires_grad]
    if not variables:
        raise UsageError("gradcheck needs at least one variable to differentiate: bind one with NAME=VALUE or "
                         "{variables} NAME=VALUE", fields=("variables",))
    return variables


class _Runs:
    """The program, run again on the current (perturbed) leaf values; each run sees the same random numbers."""

    def __init__(self, request: GradcheckRequest) -> None:
        if request.seed is not None:
            engine.manual_seed(request.seed)
        values = {v.name: v.draw() for v in request.variables}
        self.seed = request.seed if request.seed is not None else fresh_seed()
        self.program = Program(request.program)
        self.variables = request.variables
        # Bind once to get each leaf's float64 values (a VALUE may be a number, a list or a tensor).
        self.arrays = {name: np.array(t.numpy(force=True), dtype=np.float64, order="C") for name, t in
                       bind([Binding(v.name, values[v.name], v.requires_grad) for v in request.variables]).items()}
        self.evaluations = 0
        perturbed = [v for v in request.variables if v.requires_grad]
        total = sum(self.arrays[v.name].size for v in perturbed)
        if total > request.max_perturbations:
            sizes = ", ".join(f"{v.name}: {self.arrays[v.name].size:,}" for v in perturbed)
            raise LimitError(f"gradcheck would perturb {total:,} elements ({sizes}), over the limit of "
                             f"{request.max_perturbations:,}",
                             hint="raise {max_perturbations} (each element costs two evaluations of the program)",
                             reason="perturbations", fields=("max_perturbations",))

    def __call__(self) -> tuple[Tensor, dict[str, Tensor]]:
        engine.manual_seed(self.seed)
        self.evaluations += 1
        root, leaves, _ = self.program.run([Binding(v.name, self.arrays[v.name], v.requires_grad)
                                            for v in self.variables])
        return root, leaves


def _directions(root_shape: tuple[int, ...], outputs: int) -> tuple[str, list[np.ndarray | None]]:
    """How the Jacobian is compared, and the output directions to pull back."""
    if outputs == 1:
        return "gradient", [None]
    if outputs <= FULL_JACOBIAN_UP_TO:
        return "jacobian", [np.eye(outputs)[i].reshape(root_shape) for i in range(outputs)]
    return "projection", [np.random.default_rng(PROJECTION_SEED).standard_normal(root_shape)]


def _analytical(root: Tensor, targets: list[Tensor], variables: list[Variable], directions: list[np.ndarray | None],
                arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One backward pass per direction; rows are directions, columns the leaf's elements."""
    analytical = {v.name: np.empty((len(directions), arrays[v.name].size)) for v in variables}
    for row, direction in enumerate(directions):
        grads = gradients(root, targets, direction, retain_graph=True)
        for v, g in zip(variables, grads):
            analytical[v.name][row] = np.asarray(g, dtype=np.float64).reshape(-1)
    return analytical


def _numerical(run: _Runs, name: str, root_shape: tuple[int, ...], projection: np.ndarray | None,
               eps: float) -> np.ndarray:
    """Central differences of every output (or of the projection) for each element of the leaf NAME."""
    work = run.arrays[name].reshape(-1)  # a view: writing it perturbs run.arrays[name]
    columns = []
    for j in range(work.size):
        original = work[j]
        work[j] = original + eps
        plus = _output(run()[0], root_shape)
        work[j] = original - eps
        minus = _output(run()[0], root_shape)
        work[j] = original
        if not (np.isfinite(plus).all() and np.isfinite(minus).all()):
            element = f"{name}[{j}]" if run.arrays[name].size > 1 else name
            raise BadValueError(f"the program is not defined on both sides of the point ({element} + {eps:g} or "
                                f"{element} - {eps:g} gives a value that is not a finite number): finite differences "
                                "need it on both sides, so there is nothing to compare",
                                hint="give a point inside the program's domain", reason="undefined")
        column = (plus - minus) / (2 * eps)
        columns.append(column if projection is None else projection @ column)
    return np.stack(columns, axis=1) if columns else np.empty((1 if projection is None else len(projection), 0))


def _defined(root: Tensor, where: str, arrays: dict[str, np.ndarray]) -> None:
    """A program that is not a finite number at the point has no derivative there: an error, not a verdict."""
    if np.isfinite(np.asarray(root.numpy(force=True), dtype=np.float64)).all():
        return
    point = ", ".join(f"{n} = {float(a.reshape(-1)[0]):.10g}" if a.size == 1 else f"{n} (shape {a.shape})"
                      for n, a in arrays.items())
    raise BadValueError(f"the program is not defined {where} ({point}: its value there is not a finite number): "
                        "there is no derivative to compare", hint="give a point where the program is defined",
                        reason="undefined")


def _output(root: Tensor, shape: tuple[int, ...]) -> np.ndarray:
    if tuple(root.shape) != shape:
        raise BadValueError(f"the program's result changed shape from {shape} to {tuple(root.shape)} when a "
                            "variable was perturbed; gradcheck needs a fixed shape", reason="gradcheck")
    return np.asarray(root.numpy(force=True), dtype=np.float64).reshape(-1)


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


__all__ = ["GradcheckReport", "GradcheckRequest", "LeafCheck", "gradcheck"]
