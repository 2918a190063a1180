"""The sign chart a book draws beside the critical points: the intervals where f' > 0 (f increasing) and f' < 0
(decreasing), or with the second derivative where f'' > 0 (concave up) and f'' < 0 (concave down).

The signs are autograd's, on the search's grid (one vectorized pass); an interval ends at a critical (or
inflection) point, or where f is not defined (a pole). A point where f is defined but f' is not (x^(1/3) at 0)
does not end an interval when f' has the same sign on both sides: f is increasing straight through it."""

from __future__ import annotations

import math

import numpy as np

from autodiff.app.calculus.pointwise import Function

WORDS = {1: {1: "increasing", -1: "decreasing"}, 2: {1: "concave up", -1: "concave down"}}


class Piece:
    """An open interval (start, stop) where f^(k) has one sign (1 or -1)."""

    def __init__(self, start: float, stop: float, sign: int) -> None:
        self.start = start
        self.stop = stop
        self.sign = sign

    def words(self, k: int) -> str:
        return WORDS[k][self.sign]


def chart(fn: Function, k: int, a: float, b: float, points: list[float], n: int = 2001) -> list[Piece]:
    """The pieces of [a, b] where f^(k) keeps its sign; `points` are the critical (inflection) points, where
    pieces end exactly."""
    xs = np.linspace(a, b, n)
    with np.errstate(all="ignore"):
        columns = fn.batch(xs, k)
    f, g = columns[0], columns[k]
    sign = np.where(np.isfinite(g), np.sign(g), np.nan)
    defined = np.isfinite(f)
    pieces: list[Piece] = []
    start, current, gap = a, None, None
    for i in range(n):
        if not defined[i]:  # f not defined: the piece ends there (a pole, or outside the domain)
            if current is not None:
                pieces.append(Piece(start, _domain_edge(fn, float(xs[i - 1]), float(xs[i])), current))
            current, gap = None, i
            continue
        s = sign[i]
        if math.isnan(s) or s == 0:
            continue
        if current is None:
            start = a if gap is None else _domain_edge(fn, float(xs[gap + 1]), float(xs[gap]))
            current, gap = int(s), None
        elif int(s) != current:
            boundary = _edge(xs, i - 1, i, points)
            pieces.append(Piece(start, boundary, current))
            start, current = boundary, int(s)
    if current is not None:
        pieces.append(Piece(start, b, current))
    return [p for p in pieces if p.stop > p.start]


def _domain_edge(fn: Function, inside: float, outside: float) -> float:
    """Where f stops being defined between a grid point where it is and the next where it is not (bisection),
    as a simple number when one is there (sqrt(4 - x^2) ends at 2, not 2.0000000000000004)."""
    from fractions import Fraction

    name = fn.variables[0]

    def defined(x: float) -> bool:
        with np.errstate(all="ignore"):
            return math.isfinite(fn.value({name: x}))

    for _ in range(60):
        middle = 0.5 * (inside + outside)
        if middle in (inside, outside):
            break
        inside, outside = (middle, outside) if defined(middle) else (inside, middle)
    simple = float(Fraction(inside).limit_denominator(1000))
    return simple if abs(simple - inside) <= 1e-9 * max(1.0, abs(inside)) else inside


def _edge(xs: np.ndarray, i: int, j: int, points: list[float]) -> float:
    """The boundary between grid points i and j: a given point in [xs[i-1], xs[j+1]], else their midpoint."""
    lo, hi = xs[max(i - 1, 0)], xs[min(j + 1, len(xs) - 1)]
    inside = [p for p in points if lo <= p <= hi]
    return min(inside, key=lambda p: abs(p - 0.5 * (xs[i] + xs[j]))) if inside else float(0.5 * (xs[i] + xs[j]))


__all__ = ["WORDS", "Piece", "chart"]
