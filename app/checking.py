"""`autodiff check`: the user's own derivatives against autograd's, at the bound point and at points drawn
around it (or drawn afresh from each VALUE), by torch.allclose's rule in float64 (app/comparison.py); a
wrong first derivative of a scalar program gets its likely mistake named (app/mistakes.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.comparison import (
    UNBOUND,
    Comparison,
    Program,
    Variable,
    compare,
    compare_each,
    free_names,
    fresh_seed,
    gradients,
    nothing_to_compare,
    second,
    tolerances,
)
from autodiff.app.sampling import Sampling
from autodiff.app.session import bind
from autodiff.app.textbook.realroots import BACKEND
from autodiff.app.together import Lanes, run_together, together_key, vector_run
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, ParseError, ShapeError, UnknownNameError, UsageError
from autodiff.grammar.interpreter import Evaluation

MAX_SAMPLES = 10_000  # check's points, each a run of the program


class Expectation:
    """The user's derivative of the root with respect to NAME; `label` names it in messages (a front end may
    give its own words, e.g. its option's)."""

    def __init__(self, name: str, text: str, label: str = "") -> None:
        self.name = name
        self.text = text
        self.label = label or f"{name}={text}"


class CheckRequest:
    """What to check: the program, its variables, the expectations, and where and how closely."""

    def __init__(self, program: str, variables: list[Variable], expectations: list[Expectation],
                 dtype: str = "float32", samples: int | None = None, seed: int | None = None,
                 rtol: float | None = None, atol: float | None = None, order: int = 1) -> None:
        self.program = program
        self.variables = variables
        self.expectations = expectations
        self.dtype = dtype
        self.samples = samples  # None: at the bound values
        self.seed = seed
        self.rtol = rtol
        self.atol = atol
        self.order = order  # 2: the expectations are second derivatives (of the sum of the gradient, per element)


class Worst:
    """Where an expectation is furthest from autograd: the point, both values there, the element."""

    def __init__(self, point: dict[str, np.ndarray], expected: np.ndarray, autograd: np.ndarray,
                 index: tuple[int, ...], sample: int, abs_error: float, rel_error: float) -> None:
        self.point = point
        self.expected = expected
        self.autograd = autograd
        self.index = index  # the element of the gradient (empty for a scalar)
        self.sample = sample  # 1-based; 1 when the check is at the bound point only
        self.abs_error = abs_error
        self.rel_error = rel_error


class CheckResult:
    """One expectation's verdict: its largest errors, where they are, and the likely mistake."""

    def __init__(self, name: str, text: str, ok: bool, max_abs_error: float, max_rel_error: float, worst: Worst,
                 shape: tuple[int, ...], mistake: str | None = None) -> None:
        self.name = name
        self.text = text
        self.ok = ok
        self.max_abs_error = max_abs_error
        self.max_rel_error = max_rel_error
        self.worst = worst
        self.shape = shape
        self.mistake = mistake  # the likely mistake, when the derivative is wrong and it is recognisable


class CheckReport:
    """Every expectation's verdict, with the points checked and the settings used."""

    def __init__(self, ok: bool, checks: list[CheckResult], samples: int, seed: int | None, dtype: str, rtol: float,
                 atol: float, root_shape: tuple[int, ...], notes: list[str] | None = None,
                 points: list[dict[str, np.ndarray]] | None = None, order: int = 1) -> None:
        self.ok = ok
        self.checks = checks
        self.samples = samples
        self.seed = seed
        self.dtype = dtype
        self.rtol = rtol
        self.atol = atol
        self.root_shape = root_shape
        self.notes = [] if notes is None else notes
        self.points = [] if points is None else points  # every point checked, in order
        self.order = order


class _Derivative:
    """An expectation's EXPR, parsed once, evaluated in float64 at each point."""

    def __init__(self, expectation: Expectation, bound: list[str]) -> None:
        self.name, self.text, self.bound = expectation.name, expectation.text, bound
        self.what = expectation.label
        try:
            self.program = Program(expectation.text, BACKEND)  # run by its tape, where it has one
        except ParseError as error:
            error.message = f"{self.what}: {error.message}"
            error.details["summary"] = f"{self.what}: {error.details.get('summary', '')}"
            raise

    def value(self, point: dict[str, np.ndarray]) -> np.ndarray:
        try:
            with engine.settings(default_dtype="float64"), engine.no_grad():
                names = {n: engine.tensor(v, dtype="float64") for n, v in point.items()}
                value = self.program.tape_root(names)
                if value is None:
                    evaluator, tree = self.program.evaluator, self.program.tree
                    evaluator.names = names
                    value = evaluator.run(tree, Evaluation(tree)).root
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
        return np.asarray(value.numpy(force=True), dtype=np.float64)


class PreparedCheck:
    """A check up to its runs: the request checked, the seed drawn and set, the expectations and the program
    parsed, and, where one vectorised run can answer it (an elementwise program of plain-number variables,
    several samples), every point drawn (`stacked`)."""

    def __init__(self, request: CheckRequest, tolerance: tuple[float, float], seed: int | None, samples: int,
                 variables: dict[str, Variable], derivatives: list[_Derivative], program: Program, vector: bool,
                 sampling: Sampling, stacked: dict[str, np.ndarray] | None = None) -> None:
        self.request = request
        self.tolerance = tolerance
        self.seed = seed
        self.samples = samples
        self.variables = variables
        self.derivatives = derivatives
        self.program = program
        self.vector = vector  # the points run as one vector (else point by point)
        self.sampling = sampling
        self.stacked = stacked  # each variable's values at every point, when drawn already


def check_derivatives(request: CheckRequest) -> CheckReport:
    """Compare each expectation with autograd's gradient at the bound values or at random samples."""
    return finish_check(prepare_check(request))


def prepare_check(request: CheckRequest) -> PreparedCheck:
    """check_derivatives up to its runs (the points of plain-number variables drawn already)."""
    rtol, atol = tolerances(request.dtype, request.rtol, request.atol)
    variables = {v.name: v for v in request.variables}
    _validate(request, variables)
    seed = request.seed
    if request.samples is not None and request.samples > 1 and seed is None:
        seed = fresh_seed()  # reported, so the same points can be drawn again
    samples = request.samples or 1
    derivatives = [_Derivative(e, list(variables)) for e in request.expectations]
    with engine.settings(default_dtype=request.dtype), np.errstate(all="ignore"):
        if seed is not None:
            engine.manual_seed(seed)
        program = Program(request.program, BACKEND)  # a calculus command: x**(1/3) is the real root
        vector = samples > 1 and program.elementwise(variables) and \
            all(d.program.elementwise(variables) for d in derivatives)
        prepared = PreparedCheck(request, (rtol, atol), seed, samples, variables, derivatives, program, vector,
                                 Sampling(variables))
        if vector:
            prepared.stacked = prepared.sampling.stacked(samples)  # plain numbers: no leaf bound for each point
    return prepared


def finish_check(prepared: PreparedCheck, lanes: Lanes | None = None) -> CheckReport:
    """The check's report: its runs (or `lanes`, what they gave, from run_together), its comparisons, the
    mistakes named, the notes."""
    request, derivatives, samples, seed = prepared.request, prepared.derivatives, prepared.samples, prepared.seed
    states: list[dict[str, Any]] = [{} for _ in derivatives]
    sampling = prepared.sampling
    with engine.settings(default_dtype=request.dtype), np.errstate(all="ignore"):
        undefined = None
        if prepared.vector:
            undefined = _all_at_once(prepared, states, lanes)
            if undefined is None:  # not a vector's work after all: point by point, from the same seed
                engine.manual_seed(seed)
                sampling, states = Sampling(prepared.variables), [{} for _ in derivatives]
        if undefined is None:
            undefined = _point_by_point(prepared.program, sampling, samples, derivatives, states, request.order,
                                        prepared.tolerance)
    if undefined and not sampling.points:
        raise BadValueError(f"the program is not defined at {where(undefined[0])} (its value there is nan): "
                            "there is no derivative to check", hint="give a point where it is defined",
                            reason="undefined")
    checks = [_result(d, s) for d, s in zip(derivatives, states)]
    _diagnose(checks, states, request)
    report = CheckReport(all(c.ok for c in checks), checks, samples, seed if samples > 1 else request.seed,
                         request.dtype, *prepared.tolerance, sampling.root_shape, points=sampling.points,
                         order=request.order)
    if undefined:
        more = f" and {len(undefined) - 1:,} more point(s)" if len(undefined) > 1 else ""
        report.notes.append(f"not checked at {where(undefined[0])}{more}: the program is not defined there")
    _notes(report, sampling)
    return report


def _validate(request: CheckRequest, variables: dict[str, Variable]) -> None:
    if request.samples is not None and request.samples < 1:
        raise UsageError(f"{{samples}} must be at least 1, got {request.samples}", fields=("samples",))
    if request.samples is not None and request.samples > MAX_SAMPLES:  # each is a run: 10**9 is a hang
        raise UsageError(f"{{samples}} must be at most {MAX_SAMPLES:,}, got {request.samples:,}", fields=("samples",))
    if request.order not in (1, 2):
        raise UsageError(f"{{order}} must be 1 or 2 for check, got {request.order}", fields=("order",))
    if not request.expectations:
        raise UsageError("give at least one {expectations} NAME=EXPR (your derivative of the program with respect "
                         "to NAME)", fields=("expectations",))
    for expectation in request.expectations:
        _check_target(expectation.name, variables)
    names = [e.name for e in request.expectations]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise UsageError(f"{{expectations}} {twice}=...: given twice; give one derivative per variable",
                         fields=("expectations",))


def _point_by_point(program: Program, sampling: Sampling, samples: int, derivatives: list[_Derivative],
                    states: list[dict[str, Any]], order: int, tolerance: tuple[float, float]
                    ) -> list[dict[str, np.ndarray]]:
    """Run the program at each sample point in turn and fold each comparison in; the points where it is not
    defined."""
    undefined: list[dict[str, np.ndarray]] = []
    for sample in range(1, samples + 1):
        root, leaves, _ = program.run(sampling.bindings(sample))
        if root.numel() == 1 and np.isnan(root.numpy(force=True)).all():
            # outside the function's domain (log(x) at x < 0, any x = nan): no derivative there, no verdict
            if sample == 1 or not sampling.fixed:
                undefined.append(sampling.seen(root, leaves, checked=False))
            continue
        point = sampling.seen(root, leaves)
        _compare_at(root, leaves, point, sample, derivatives, states, order, tolerance)
    return undefined


def _all_at_once(prepared: PreparedCheck, states: list[dict[str, Any]], lanes: Lanes | None
                 ) -> list[dict[str, np.ndarray]] | None:
    """_point_by_point's work for an elementwise program (app.elementwise) of scalar variables: the points are
    drawn in the same order, then the program, its derivatives and the expectations run once on vectors of
    every point (unless `lanes` gives what that run gave), and each point is folded in as before (the same
    numbers, element by element). None, with nothing folded in, when the points or the run are not those of a
    vector (then the caller goes point by point)."""
    sampling, samples = prepared.sampling, prepared.samples
    stacked = prepared.stacked if prepared.stacked is not None else _drawn(sampling, samples)
    if stacked is None:
        return None
    lanes = lanes or vector_run(prepared.program, prepared.derivatives, prepared.variables, stacked, samples,
                                prepared.request.order)
    if lanes is None:
        return None
    judged = lanes.judged or [compare_each(e, g, *prepared.tolerance) for e, g in zip(lanes.expected, lanes.grads)]
    undefined: list[dict[str, np.ndarray]] = []
    for i in range(samples):
        point = {n: np.array(v[i], copy=True) for n, v in stacked.items()}
        sampling.root_shape = ()
        if np.isnan(lanes.values[i]):
            if i == 0 or not sampling.fixed:
                undefined.append(point)
            continue
        sampling.points.append(point)
        for e, g, comparisons, state in zip(lanes.expected, lanes.grads, judged, states):
            _record(state, i + 1, point, np.array(e[i]), np.array(g[i], copy=True), *prepared.tolerance,
                    comparisons[i])
    return undefined


def _drawn(sampling: Sampling, samples: int) -> dict[str, np.ndarray] | None:
    """Each variable's values at every sample, drawn point by point (Sampling.bindings) and stacked; None when a
    value is not a scalar."""
    drawn: list[dict[str, Tensor]] = []
    for sample in range(1, samples + 1):
        leaves = bind(sampling.bindings(sample))
        if any(t.ndim != 0 for t in leaves.values()):
            return None
        if sample == 1:
            sampling.first = {n: np.array(t.numpy(force=True), copy=True).astype(np.float64) for n, t in leaves.items()}
        drawn.append(leaves)
    return {n: np.stack([leaves[n].numpy(force=True) for leaves in drawn]) for n in drawn[0]}


def _compare_at(root: Tensor, leaves: dict[str, Tensor], point: dict[str, np.ndarray], sample: int,
                derivatives: list[_Derivative], states: list[dict[str, Any]], order: int,
                tolerance: tuple[float, float]) -> None:
    """Each expectation against autograd's derivative at one point."""
    ones = None if root.numpy(force=True).size == 1 else np.ones(root.shape)
    targets = [leaves[d.name] for d in derivatives]
    nothing_to_compare([(d.name, t.numel()) for d, t in zip(derivatives, targets)] + [("the result", root.numel())])
    grads = gradients(root, targets, ones) if order == 1 else second(root, targets, ones)
    for derivative, grad, state in zip(derivatives, grads, states):
        expected = _shaped(derivative.value(point), grad.shape, derivative)
        _record(state, sample, point, expected, grad, *tolerance)


def _notes(report: CheckReport, sampling: Sampling) -> None:
    root_shape = report.root_shape
    if len(root_shape) and math.prod(root_shape) != 1:
        report.notes.append(f"the program's result has shape {root_shape}: its derivative is taken of the sum "
                            "of its elements (for an elementwise program, the elementwise derivative)")
    if sampling.fixed:
        name = sampling.fixed[0]
        shape = sampling.first[name].shape
        rand = f"rand({', '.join(str(n) for n in shape)})" if shape else "rand()"
        report.notes.append(f"{', '.join(sampling.fixed)}: a fixed value, so the first point is that value and the "
                            f"others are around it ({name} times -1, 1/4 and -3, then random points near {name}); "
                            f"to choose the points, bind a random value, e.g. {name}='{rand}*4-2' for points in "
                            "[-2, 2)")


def where(point: dict[str, np.ndarray]) -> str:
    """A point in words: x = nan, y = 2 (a tensor by its shape)."""
    return ", ".join(f"{name} = {float(v.reshape(-1)[0]):.10g}" if v.size == 1 else f"{name} (shape {v.shape})"
                     for name, v in point.items())


def _check_target(name: str, variables: dict[str, Variable]) -> None:
    variable = variables.get(name)
    bound = [n for n, v in variables.items() if v.requires_grad]
    if variable is None:
        import difflib

        close = difflib.get_close_matches(name, list(variables), n=1)
        known = ", ".join(bound) or "none"
        raise UnknownNameError(
            f"{{expectations}} {name}=...: {name!r} is not a bound variable"
            + (f"; did you mean {close[0]!r}?" if close else f" (bound variables: {known})"),
            hint=f"bind it, e.g. {name}=1.5 or {{variables}} {name}='randn()', and differentiate with respect to it",
            reason="unknown_name", name=name, fields=("expectations", "variables"))
    if not variable.requires_grad:
        raise UsageError(f"{{expectations}} {name}=...: {name} is bound with {{constants}}, so it has no "
                         f"gradient; bind it with {{variables}} {name}=VALUE (or {name}=VALUE) to check a derivative "
                         "with respect to it", fields=("expectations", "constants", "variables"))


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


def _record(state: dict[str, Any], sample: int, point: dict[str, np.ndarray], expected: np.ndarray,
            grad: np.ndarray, rtol: float, atol: float, result: Comparison | None = None) -> None:
    """Fold one point's comparison into an expectation's running worst case (`result`: the comparison, when
    it is known already)."""
    result = compare(expected, grad, rtol, atol) if result is None else result
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
        single = result if grad.size == 1 else compare(np.array(e), np.array(a), rtol, atol)
        state["key"] = key
        state["worst"] = Worst(point, np.array(expected, dtype=np.float64), np.array(grad, copy=True), index,
                               sample, single.max_abs_error, single.max_rel_error)


def _diagnose(checks: list[CheckResult], states: list[dict[str, Any]], request: CheckRequest) -> None:
    """Name the likely mistake of each wrong derivative of a scalar program (app.mistakes)."""
    for check, state in zip(checks, states):
        values = state.get("values", [])
        if check.ok or not values or any(np.size(e) != 1 or np.size(g) != 1 for e, g, _ in values):
            continue
        if any(np.size(v) != 1 for _, _, p in values for v in p.values()):
            continue
        from autodiff.app.mistakes import diagnose

        points = [{n: float(np.asarray(v).reshape(-1)[0]) for n, v in p.items()} for _, _, p in values]
        check.mistake = diagnose(request.program, check.name, [float(np.asarray(e).reshape(-1)[0]) for e, _, _ in
                                 values], [float(np.asarray(g).reshape(-1)[0]) for _, g, _ in values], points,
                                 request.order)


def _result(derivative: _Derivative, state: dict[str, Any]) -> CheckResult:
    return CheckResult(derivative.name, derivative.text, state["ok"], state["max_abs"], state["max_rel"],
                       state["worst"], tuple(state["shape"]))


__all__ = ["UNBOUND", "CheckReport", "CheckRequest", "CheckResult", "Expectation", "Lanes", "PreparedCheck", "Worst",
           "check_derivatives", "finish_check", "free_names", "prepare_check", "run_together", "together_key",
           "vector_run"]
