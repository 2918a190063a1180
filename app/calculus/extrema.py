"""`autodiff critical` in one variable, put together: the numeric search (app.critical) and SymPy's exact
solutions (app.critical_exact) merged into one list of classified points, flat pieces, and the absolute
extrema on a closed interval. Every decimal is autograd's; an exact form is attached where SymPy gave one."""

from __future__ import annotations

import math
from typing import Any

from autodiff.app.calculus import critical as C
from autodiff.app.calculus.pointwise import Function, number


class Extremum:
    def __init__(self, x: float, value: float, exact: str | None = None, exact_value: str | None = None) -> None:
        self.x = x
        self.value = value
        self.exact = exact
        self.exact_value = exact_value


class Critical:
    def __init__(self, variables: list[str], box: dict[str, tuple[float, float]], given: bool, order: int,
                 points: list[Any] | None = None, flats: list[C.Flat] | None = None,
                 absolute: dict[str, list[Extremum]] | None = None, method: list[str] | None = None,
                 notes: list[str] | None = None, general: str | None = None, chart: list[Any] | None = None,
                 constraint: str | None = None, constrained: list[Any] | None = None) -> None:
        self.variables = variables
        self.box = box
        self.given = given  # the interval was given (else the default one)
        self.order = order
        self.points = [] if points is None else points  # critical.Point (one variable) or critical_nd.PointND
        self.flats = [] if flats is None else flats
        self.absolute = {} if absolute is None else absolute
        self.method = [] if method is None else method
        self.notes = [] if notes is None else notes
        self.general = general
        self.chart = [] if chart is None else chart  # app.signchart.Piece: where f' (f'') keeps its sign
        self.constraint = constraint  # several variables: g = c (or g <= c), as read
        # app.lagrange.Constrained: grad f = lambda grad g there
        self.constrained = [] if constrained is None else constrained


def one_variable(fn: Function, program: str, k: int, interval: tuple[float, float] | None,
                 texts: dict[str, str], interval_texts: tuple[str, str] | None, points: int,
                 exact: bool = True) -> Critical:
    """The critical (k = 1) or inflection (k = 2) points of fn on the interval (default [-10, 10])."""
    name = fn.variables[0]
    a, b = interval or C.DEFAULT_INTERVAL
    C.check_grid(a, b, points)
    result = Critical([name], {name: (a, b)}, interval is not None, k)
    found = C.search(fn, k, a, b, points)
    result.notes += found.notes
    result.flats = found.flats
    solutions = _exact(program, name, k, texts, interval, interval_texts, result) if exact else None
    exact_points = [] if solutions is None else [*solutions.points, *solutions.singular]
    decimals = [(_decimal(p), p) for p in exact_points]
    decimals = [(x, p) for x, p in decimals if math.isfinite(x) and (interval is None or a <= x <= b)]
    candidates = _merge([(x, None) for x in found.candidates] + decimals, found.step)
    if interval is not None:  # the ends are not critical points (they are in the absolute extrema)
        inside = [(x, e) for x, e in candidates if a + 1e-12 * (b - a) < x < b - 1e-12 * (b - a)]
        if len(inside) < len(candidates):
            result.notes.append(f"{C.prime(k)} is 0 or not defined at an end of the interval too; the ends are not "
                                "counted" + (" (they are in the absolute extrema)" if k == 1 else ""))
        candidates = inside
    result.points = _classified(fn, k, candidates, found, result, solutions)
    if solutions is not None and solutions.note == "zero everywhere":
        result.flats = [C.Flat(a, b)]
    result.method.append(f"numbers: autograd (float64) on a grid of {points:,} points over [{number(a)}, {number(b)}], "
                         f"every sign change of {C.prime(k)} then refined by Newton's method")
    if k == 1 and interval is not None:
        _absolute(fn, result, interval_texts, solutions)
    from autodiff.app.calculus.signchart import chart

    result.chart = chart(fn, k, a, b, [p.x for p in result.points] + [f.start for f in result.flats] +
                         [f.stop for f in result.flats])
    return result


def _decimal(p: Any) -> float:
    from autodiff.app.symbolic import exact as X

    return X.decimal(p)


def _exact(program: str, name: str, k: int, texts: dict[str, str], interval: tuple[float, float] | None,
           interval_texts: tuple[str, str] | None, result: Critical) -> Any:
    from autodiff.app.calculus.critical_exact import one_variable as solve
    from autodiff.app.symbolic import exact as X

    bounds = None
    if interval is not None:
        ends = [X.exact_number(t) for t in interval_texts] if interval_texts else [None, None]
        bounds = tuple(e if e is not None else X.sympy_float(v) for e, v in zip(ends, interval))
    solutions = solve(program, name, k, texts, bounds)
    equation = f"{C.prime(k)}({name}) = 0"
    if solutions.complete:
        result.method.insert(0, f"exact: {equation} solved by SymPy" + ("" if interval else " over all the reals"))
    elif solutions.general is not None:
        result.general = f"{equation} at {name} = {solutions.general}"
        result.method.insert(0, f"exact: {equation} solved by SymPy: infinitely many solutions; those in the interval "
                             "are listed")
    else:
        result.notes.append(f"no exact solution of {equation}: {solutions.note}")
    return solutions


def _merge(candidates: list[tuple[float, Any]], step: float) -> list[tuple[float, Any]]:
    """One entry per point: candidates within 1e-7 (relative) are the same point, the exact one preferred."""
    out: list[tuple[float, Any]] = []
    for x, exact in sorted(candidates, key=lambda c: c[0]):
        if out and abs(x - out[-1][0]) <= 1e-7 * max(1.0, abs(x)):
            if exact is not None and out[-1][1] is None:
                out[-1] = (x, exact)
            continue
        out.append((x, exact))
    return [(0.0 if abs(x) <= 1e-13 * max(1.0, step) and e is None else x, e) for x, e in out]


def _classified(fn: Function, k: int, candidates: list[tuple[float, Any]], found: C.Search, result: Critical,
                solutions: Any) -> list[C.Point]:
    from autodiff.app.calculus.critical_exact import exact_text

    points = []
    xs = [x for x, _ in candidates]
    for i, (x, exact) in enumerate(candidates):
        gaps = [abs(x - xs[j]) for j in (i - 1, i + 1) if 0 <= j < len(xs)]
        h = max(min([found.step / 4, *(g / 4 for g in gaps)]), 1e-9 * max(1.0, abs(x)))
        point = C.classify(fn, k, x, h, found.scale, result.notes)
        if point is None:
            continue
        if exact is not None:
            point.exact = exact_text(exact)
            point.exact_value = _exact_value(solutions, fn.variables[0], exact)
        points.append(point)
    return points


def _exact_value(solutions: Any, name: str, p: Any) -> str | None:
    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X

    if solutions is None or solutions.expr is None:
        return None
    value = X.at(solutions.expr, {name: p}, seconds=1.0)
    return None if isinstance(value, X.TimedOut) or value is None else exact_text(value)


def _absolute(fn: Function, result: Critical, interval_texts: tuple[str, str] | None, solutions: Any) -> None:
    """The largest and smallest values on the closed interval: among the critical points and the ends."""
    from autodiff.app.symbolic import exact as X

    name = fn.variables[0]
    a, b = result.box[name]
    candidates = [Extremum(p.x, p.value, p.exact, p.exact_value) for p in result.points]
    candidates += [Extremum(f.start, fn.value({name: f.start})) for f in result.flats]
    for end, text in zip((a, b), interval_texts or (None, None)):
        value = fn.value({name: end})
        exact = X.exact_number(text) if text else None
        shown = _exact_value(solutions, name, exact) if exact is not None else None
        candidates.append(Extremum(end, value, None if exact is None else text.strip(), shown))
    values = [c.value for c in candidates]
    if not all(math.isfinite(v) for v in values) or _undefined_inside(fn, a, b):
        result.notes.append(f"f is not defined (or not finite) somewhere on [{number(a)}, {number(b)}]: no absolute "
                            "extrema claimed")
        return
    for kind, best in (("maximum", max(values)), ("minimum", min(values))):
        tie = 1e-12 * max(1.0, abs(best))
        result.absolute[kind] = _unique([c for c in candidates if abs(c.value - best) <= tie])


def _unique(extrema: list[Extremum]) -> list[Extremum]:
    out: list[Extremum] = []
    for e in sorted(extrema, key=lambda e: e.x):
        if not out or abs(e.x - out[-1].x) > 1e-9 * max(1.0, abs(e.x)):
            out.append(e)
    return out


def _undefined_inside(fn: Function, a: float, b: float) -> bool:
    import numpy as np

    values = fn.batch(np.linspace(a, b, 1001), 0)[0]
    return not bool(np.isfinite(values).all())


__all__ = ["Critical", "Extremum", "one_variable"]
