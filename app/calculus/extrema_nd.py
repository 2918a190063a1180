"""Absolute extrema of f(x, y) on a closed rectangle: the largest and smallest values among the critical points
inside (app.critical_nd), the critical points of f along each edge (f restricted to the edge, a function of one
variable: app.critical's search), and the four corners, as a book's closed-region exercise does.

Every value is autograd's (float64); a point whose coordinates are whole or simple is printed so (3, not
2.9999999999999996), and checked to give the same value."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from autodiff.app.calculus import critical as C
from autodiff.app.calculus.pointwise import Function, number
from autodiff.app.session import Binding


@dataclass
class ExtremumND:
    """A candidate for an absolute extremum: where it is (inside, on an edge, a corner), and f there."""

    at: dict[str, float]
    value: float
    where: str
    exact: dict[str, str] = field(default_factory=dict)
    exact_value: str | None = None


def on_rectangle(fn: Function, box: dict[str, tuple[float, float]], interior: list[tuple[dict[str, float], float]]
                 ) -> tuple[dict[str, list[ExtremumND]], list[str]]:
    """The absolute maximum and minimum of f on the closed box (two variables), and notes."""
    x, y = fn.variables
    (a, b), (c, d) = box[x], box[y]
    if not _defined(fn, box):
        return {}, ["f is not defined (or not finite) somewhere on the rectangle: no absolute extrema claimed"]
    candidates = [ExtremumND(at, value, "a critical point inside") for at, value in interior]
    for name, fixed, (low, high), other in ((x, a, (c, d), y), (x, b, (c, d), y), (y, c, (a, b), x),
                                            (y, d, (a, b), x)):
        edge = Function(fn.text, [other], [*fn.constants, Binding(name, fixed, False)])
        found = C.search(edge, 1, low, high, C.DEFAULT_POINTS)
        for t in C.distinct(found.candidates, 1.0):
            if low < t < high:
                values = {name: fixed, other: _tidy(edge, other, t)}
                at = {v: values[v] for v in fn.variables}
                candidates.append(ExtremumND(at, fn.value(at), f"on the edge {name} = {number(fixed, 10)}"))
    for cx in (a, b):
        for cy in (c, d):
            at = {x: cx, y: cy}
            candidates.append(ExtremumND(at, fn.value(at), "a corner"))
    candidates = [e for e in candidates if math.isfinite(e.value)]
    if not candidates:
        return {}, []
    out = {}
    for kind, best in (("maximum", max(e.value for e in candidates)), ("minimum", min(e.value for e in candidates))):
        tie = 1e-9 * max(1.0, abs(best))
        out[kind] = _unique([e for e in candidates if abs(e.value - best) <= tie])
    return out, []


def _defined(fn: Function, box: dict[str, tuple[float, float]], side: int = 101) -> bool:
    axes = [np.linspace(lo, hi, side) for lo, hi in box.values()]
    grid = np.stack([g.reshape(-1) for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    values, _, _ = fn.gradient_hessian(grid)
    return bool(np.isfinite(values).all())


def _tidy(edge: Function, name: str, t: float) -> float:
    """t, or the simple number next to it (a whole number, or a fraction with a small denominator) where f'
    is as close to 0 there: Newton's 1.9999999999999998 is the edge's 2."""
    from fractions import Fraction

    simple = float(Fraction(t).limit_denominator(64))
    if simple == t or abs(simple - t) > 1e-9 * max(1.0, abs(t)):
        return t
    here, there = (abs(edge.partials({name: v}, 1)[(1,)]) for v in (t, simple))
    return simple if there <= here or there <= 1e-12 else t


def _unique(extrema: list[ExtremumND]) -> list[ExtremumND]:
    out: list[ExtremumND] = []
    for e in sorted(extrema, key=lambda e: tuple(e.at.values())):
        if not any(max(abs(e.at[n] - o.at[n]) for n in e.at) <= 1e-7 * max(1.0, *map(abs, e.at.values()))
                   for o in out):
            out.append(e)
    return out


__all__ = ["ExtremumND", "on_rectangle"]
