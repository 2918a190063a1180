"""`autodiff critical` in two or more variables: the points where the gradient is 0, classified by the Hessian
(D = f_xx f_yy - f_xy^2 in two variables, the eigenvalues beyond): minimum, maximum, saddle, or test
inconclusive (a zero eigenvalue).

SymPy solves grad f = 0 exactly where it can (app.critical_exact, bounded in time). The numbers come from
autograd (float64): Newton's method on grad f = 0 (the Hessian from a second backward pass) started from a grid
of points in the box, all starts at once (one vectorized evaluation per step when the program is elementwise),
bounded in steps; the points it converges to inside the box, without repeats."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autodiff.app.calculus.critical import DEFAULT_INTERVAL
from autodiff.app.calculus.extrema import Critical
from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import UsageError

STARTS = 400  # Newton starts in all (a grid of STARTS ** (1/n) a side)
MAX_STARTS = 20_000
STEPS = 100
MAX_FOUND = 200


@dataclass
class PointND:
    at: dict[str, float]
    value: float
    kind: str  # minimum, maximum, saddle, inconclusive
    test: str
    hessian: list[list[float]] = field(default_factory=list)
    eigenvalues: list[float] = field(default_factory=list)
    discriminant: float | None = None
    exact: dict[str, str] | None = None
    exact_value: str | None = None


def several_variables(fn: Function, program: str, intervals: dict[str, tuple[float, float]], texts: dict[str, str],
                      starts: int | None, exact: bool = True) -> Critical:
    """The critical points of fn in the box (each variable's interval, default [-10, 10])."""
    names = fn.variables
    box = {n: intervals.get(n, DEFAULT_INTERVAL) for n in names}
    result = Critical(names, box, all(n in intervals for n in names), 1)
    count = starts or STARTS
    if not 1 <= count <= MAX_STARTS:
        raise UsageError(f"{{points}} must be between 1 and {MAX_STARTS:,}, got {count}", fields=("points",))
    side = max(2, round(count ** (1 / len(names))))
    found, notes = _newton(fn, box, side)
    result.notes += notes
    solutions = _exact(program, names, texts, box, intervals, result) if exact else None
    if result.given:  # the edges of a given box are not interior points
        low, high = np.array([a for a, _ in box.values()]), np.array([b for _, b in box.values()])
        margin = 1e-9 * (high - low)
        inside = [p for p in found if ((p > low + margin) & (p < high - margin)).all()]
        if len(inside) < len(found):
            result.notes.append("grad f = 0 on the edge of the box too; the edges are not counted (interior points "
                                "only)")
        found = inside
    if result.general is not None and found:
        result.notes.append(f"the numeric search converged to {len(found)} points on it (not listed: they are not "
                            "isolated)")
        found = []
    candidates = [(p, None) for p in found]
    for values in [] if solutions is None else solutions.points:
        from autodiff.app.symbolic import exact as X

        candidates.append((np.array([X.decimal(values[n]) for n in names]), values))
    merged = _distinct(candidates)
    extra = sum(1 for _, e in merged if e is None)
    if solutions is not None and solutions.complete and extra:
        result.notes.append(f"the numeric search found {extra} point{'s' * (extra != 1)} SymPy's solve did not give "
                            "(shown without an exact form)")
    result.points = _classified(fn, merged, solutions)
    if result.given and len(names) == 2 and result.general is None:  # a closed rectangle: its absolute extrema
        from autodiff.app.calculus.extrema_nd import on_rectangle

        result.absolute, notes = on_rectangle(fn, box, [(p.at, p.value) for p in result.points])
        result.notes += notes
    result.method.append(f"numbers: autograd (float64): Newton's method on grad f = 0 from a grid of "
                         f"{side}^{len(names)} = {side ** len(names):,} starts in the box, at most {STEPS} steps each; "
                         "classified by the Hessian")
    return result


def _grid(box: dict[str, tuple[float, float]], side: int) -> np.ndarray:
    axes = [np.linspace(a, b, side) for a, b in box.values()]
    return np.stack([g.reshape(-1) for g in np.meshgrid(*axes, indexing="ij")], axis=1)


def _newton(fn: Function, box: dict[str, tuple[float, float]], side: int) -> tuple[list[np.ndarray], list[str]]:
    """Newton on grad f = 0 from every start at once; the converged points inside the box."""
    x = _grid(box, side)
    low = np.array([a for a, _ in box.values()])
    high = np.array([b for _, b in box.values()])
    width = high - low
    active = np.ones(len(x), dtype=bool)
    done = np.zeros(len(x), dtype=bool)
    with np.errstate(all="ignore"):
        for _ in range(STEPS):
            index = np.flatnonzero(active & ~done)
            if not len(index):
                break
            _, g, h = fn.gradient_hessian(x[index])
            step = np.full(g.shape, np.nan)
            finite = np.isfinite(h).all(axis=(1, 2)) & np.isfinite(g).all(axis=1)  # LAPACK's SVD fails on nan
            step[finite] = -np.einsum("mij,mj->mi", np.linalg.pinv(h[finite]), g[finite])
            bad = ~np.isfinite(step).all(axis=1)
            step[bad] = 0.0
            longest = np.abs(step / width).max(axis=1, initial=0.0)
            step *= np.minimum(1.0, 0.5 / np.maximum(longest, 1e-300))[:, None]  # at most half the box a step
            x[index] += step
            size = np.abs(step).max(axis=1, initial=0.0)
            done[index] = (size <= 1e-13 * np.maximum(1.0, np.abs(x[index]).max(axis=1))) & ~bad
            outside = ((x[index] < low - 0.1 * width) | (x[index] > high + 0.1 * width)).any(axis=1)
            active[index[outside | bad]] = False
    keep = active & ((x >= low - 1e-9 * width) & (x <= high + 1e-9 * width)).all(axis=1)
    if not keep.any():
        return [], []
    values, g, _ = fn.gradient_hessian(x[keep])
    scale = max(1.0, float(np.nanmax(np.abs(g))) if g.size else 1.0)
    ok = np.isfinite(values) & (np.abs(g).max(axis=1) <= 1e-8 * scale)
    return [np.clip(p, low, high) for p in x[keep][ok]], []


def _exact(program: str, names: list[str], texts: dict[str, str], box: dict[str, tuple[float, float]],
           intervals: dict[str, tuple[float, float]], result: Critical) -> Any:
    from autodiff.app.calculus.critical_exact import several_variables as solve

    solutions = solve(program, names, texts, intervals or None)
    if solutions.complete:
        count = len(solutions.points)
        result.method.insert(0, f"exact: SymPy's solve of grad f = 0 gives {count} point{'s' * (count != 1)}"
                             + ("" if intervals else " (over all the reals)"))
    elif solutions.general is not None:
        result.general = solutions.general
        result.method.insert(0, "exact: grad f = 0 solved by SymPy: not isolated points")
    else:
        result.notes.append(f"no exact solution of grad f = 0: {solutions.note}")
    return solutions


def _distinct(candidates: list[tuple[np.ndarray, Any]]) -> list[tuple[np.ndarray, Any]]:
    """One entry per point (within 1e-6, relative), the exact one preferred; at most MAX_FOUND."""
    out: list[tuple[np.ndarray, Any]] = []
    for p, exact in sorted(candidates, key=lambda c: (c[1] is None, tuple(c[0]))):
        same = [i for i, (q, _) in enumerate(out) if np.abs(p - q).max() <= 1e-6 * max(1.0, float(np.abs(p).max()))]
        if not same:
            out.append((p, exact))
        if len(out) >= MAX_FOUND:
            break
    return sorted(out, key=lambda c: tuple(c[0]))


def _classified(fn: Function, candidates: list[tuple[np.ndarray, Any]], solutions: Any) -> list[PointND]:
    from autodiff.app.calculus.critical_exact import exact_text

    points = []
    for p, exact in candidates:
        at = {n: float(v) for n, v in zip(fn.variables, p)}
        f, _, h = fn.gradient_hessian(p.reshape(1, -1))
        point = classify(at, float(f[0]), h[0])
        if exact is not None:
            point.exact = {n: exact_text(v) or number(float(p[i])) for i, (n, v) in enumerate(exact.items())}
            point.exact_value = _value(solutions, exact)
        points.append(point)
    return points


def _value(solutions: Any, values: dict[str, Any]) -> str | None:
    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X

    if solutions is None or solutions.expr is None:
        return None
    value = X.at(solutions.expr, values, seconds=1.0)
    return None if isinstance(value, X.TimedOut) or value is None else exact_text(value)


def classify(at: dict[str, float], value: float, hessian: np.ndarray) -> PointND:
    """The second-derivative test: the Hessian's eigenvalues (and D in two variables)."""
    eigenvalues = np.linalg.eigvalsh(hessian) if np.isfinite(hessian).all() else np.full(len(at), math.nan)
    tol = 1e-8 * max(1.0, float(np.abs(eigenvalues).max())) if np.isfinite(eigenvalues).all() else 0.0
    positive, negative = int((eigenvalues > tol).sum()), int((eigenvalues < -tol).sum())
    if not np.isfinite(eigenvalues).all():
        kind, why = "inconclusive", "the Hessian is not defined here"
    elif positive and negative:
        kind, why = "saddle", "eigenvalues of both signs"
    elif positive == len(at):
        kind, why = "minimum", "all eigenvalues > 0"
    elif negative == len(at):
        kind, why = "maximum", "all eigenvalues < 0"
    else:
        kind, why = "inconclusive", "an eigenvalue is 0: the second-derivative test says nothing"
    point = PointND(at, value, kind, why, hessian.tolist(), eigenvalues.tolist())
    if len(at) == 2:
        (a, b), (_, c) = hessian
        d = float(a * c - b * b)
        point.discriminant = d
        first = next(iter(at))
        point.test = _two(d, float(a), kind, f"f_{first}{first}") if math.isfinite(d) else why
    return point


def _two(d: float, fxx: float, kind: str, label: str) -> str:
    """The textbook's D test, in its words."""
    if kind == "saddle":
        return f"D = {number(d, 6)} < 0"
    if kind in ("minimum", "maximum"):
        return f"D = {number(d, 6)} > 0, {label} = {number(fxx, 6)} {'>' if fxx > 0 else '<'} 0"
    return f"D = {number(d, 6)}: the test is inconclusive"


__all__ = ["PointND", "classify", "several_variables"]
