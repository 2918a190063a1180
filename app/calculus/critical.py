"""`autodiff critical` in one variable: the critical points of f on an interval (f' = 0 or f' not defined),
each classified by the second-derivative test (the first-derivative test when f'' is 0, or where f' is not
defined), the inflection points (order 2: f'' changes sign), and the absolute extrema on a closed interval.

Two methods, both shown: SymPy solves f^(k)(x) = 0 exactly where it can (app.critical_exact, bounded in time),
and the numbers always come from autograd (float64): f^(k) on a grid of N points (one vectorized pass),
every sign change bracketed and refined by Newton's method on f^(k) with f^(k+1) (bisection when Newton leaves
the bracket), grid points where f^(k) is exactly 0 or not defined, and Newton from each local minimum of
|f^(k)| that does not change sign (a double root). Each candidate is then checked: is f defined there, is
f^(k) continuous (else it is a point where f^(k) is not defined: a corner or a cusp), and classified."""

from __future__ import annotations

import math
import time

import numpy as np

from autodiff.app.calculus.pointwise import Function, jump, number, one_sided
from autodiff.engine.errors import LimitError, UsageError

DEFAULT_INTERVAL = (-10.0, 10.0)
DEFAULT_POINTS = 2001
MAX_GRID = 100_001
MAX_FOUND = 1_000  # points reported; more stops the search early, saying so
MAX_PROBES = 200  # Newton runs from local minima of |f^(k)| (double roots)
SECONDS = 20.0


class Point:
    def __init__(self, x: float, value: float, kind: str, type: str, test: str, exact: str | None = None,
                 exact_value: str | None = None) -> None:
        self.x = x
        self.value = value
        self.kind = kind  # minimum, maximum, neither; inflection
        self.type = type  # "f'(x) = 0", "f' not defined", "f'' = 0", ...
        self.test = test  # the evidence for the kind
        self.exact = exact
        self.exact_value = exact_value


class Flat:
    """f^(k) = 0 on a whole piece of the grid (a constant piece of f: every point of it is critical)."""

    def __init__(self, start: float, stop: float) -> None:
        self.start = start
        self.stop = stop


class Search:
    """The numeric search's findings on the grid."""

    def __init__(self, candidates: list[float] | None = None, flats: list[Flat] | None = None,
                 notes: list[str] | None = None, step: float = 0.0, scale: float = 1.0) -> None:
        self.candidates = [] if candidates is None else candidates
        self.flats = [] if flats is None else flats
        self.notes = [] if notes is None else notes
        self.step = step
        self.scale = scale  # a typical |f^(k)| on the grid: what counts as 0


def prime(k: int) -> str:
    return "f" + "'" * k


class _Searcher:
    def __init__(self, fn: Function, k: int, seconds: float) -> None:
        self.fn, self.k = fn, k
        self.name = fn.variables[0]
        self.deadline = time.monotonic() + seconds
        self.stopped = False

    def at(self, x: float) -> list[float]:
        """f, f', ..., f^(k+1) at x."""
        p = self.fn.partials({self.name: x}, self.k + 1)
        return [p[(j,)] for j in range(self.k + 2)]

    def late(self) -> bool:
        self.stopped = self.stopped or time.monotonic() > self.deadline
        return self.stopped

    def refine(self, lo: float, hi: float, glo: float) -> float:
        """A zero (or a jump) of g = f^(k) in [lo, hi], where g changes sign: Newton inside the bracket,
        bisection when Newton would leave it or not halve it."""
        x = 0.5 * (lo + hi)
        for _ in range(200):
            values = self.at(x)
            g, gp = values[self.k], values[self.k + 1]
            if g == 0 or not math.isfinite(g):
                return x
            if (g > 0) == (glo > 0):
                lo, glo = x, g
            else:
                hi = x
            if hi - lo <= 4e-16 * max(1.0, abs(x)):
                return x
            step = g / gp if gp != 0 and math.isfinite(gp) else math.inf
            candidate = x - step
            x = candidate if lo < candidate < hi and abs(step) < 0.5 * (hi - lo) else 0.5 * (lo + hi)
        return x

    def probe(self, x: float, lo: float, hi: float, zero: float) -> float | None:
        """Newton on g from x, kept in [lo, hi], run until its steps stop shrinking the error (a double root
        converges only linearly): a double root of g (g touches 0 without changing sign) when |g| ends below
        `zero`."""
        best, best_g = x, math.inf
        for _ in range(200):
            values = self.at(x)
            g, gp = values[self.k], values[self.k + 1]
            if not math.isfinite(g):
                return None
            if abs(g) < best_g:
                best, best_g = x, abs(g)
            if g == 0 or gp == 0 or not math.isfinite(gp):
                break
            step = g / gp
            x = x - step
            if not lo <= x <= hi:
                return None
            if abs(step) <= 1e-15 * max(1.0, abs(x)):
                break
        return best if best_g <= zero else None


def median(values: np.ndarray) -> float:
    """np.median of a non-empty 1-D float array (nan when a value is nan), by np.partition: np.median imports
    numpy.ma (10-30 ms of a one-shot command's start)."""
    if np.isnan(values).any():
        return math.nan
    half = values.size // 2
    if values.size % 2:  # as np.median: the mean of the middle value (-0.0 gives 0.0), or of the two middle ones
        return float(np.mean(np.partition(values, half)[half:half + 1]))
    return float(np.mean(np.partition(values, [half - 1, half])[half - 1:half + 1]))


def search(fn: Function, k: int, a: float, b: float, n: int, seconds: float = SECONDS) -> Search:
    """Candidates for f^(k) = 0 or undefined on [a, b], from a grid of n points."""
    if not 3 <= n <= MAX_GRID:
        raise UsageError(f"{{points}} must be between 3 and {MAX_GRID:,}, got {n}", fields=("points",))
    xs = np.linspace(a, b, n)
    columns = fn.batch(xs, k)
    f, g = columns[0], columns[k]
    out = Search(step=(b - a) / (n - 1))
    finite = np.isfinite(g) & np.isfinite(f)
    out.scale = float(max(1e-300, median(np.abs(g[finite])))) if finite.any() else 1.0
    searcher = _Searcher(fn, k, seconds)
    zeros = finite & (g == 0)
    _flats(xs, zeros, out)
    lone = [i for i in np.flatnonzero(zeros) if not (i > 0 and zeros[i - 1]) and not (i + 1 < n and zeros[i + 1])]
    out.candidates += [float(xs[i]) for i in lone]
    undefined = np.isfinite(f) & ~np.isfinite(g) & (np.abs(f) < 1e300)  # not an overflow
    out.candidates += [float(xs[i]) for i in np.flatnonzero(undefined)]
    changes = np.flatnonzero(finite[:-1] & finite[1:] & (g[:-1] * g[1:] < 0))
    for i in changes:
        if searcher.late() or len(out.candidates) >= MAX_FOUND:
            break
        out.candidates.append(searcher.refine(float(xs[i]), float(xs[i + 1]), float(g[i])))
    _probe(searcher, xs, g, finite, out)
    if searcher.stopped:
        out.notes.append(f"the numeric search stopped after {seconds:g} s: there may be more points (narrow the "
                         "interval)")
    if len(out.candidates) >= MAX_FOUND:
        out.notes.append(f"stopped at {MAX_FOUND:,} points: there may be more (narrow the interval)")
    return out


def _flats(xs: np.ndarray, zeros: np.ndarray, out: Search) -> None:
    i, n = 0, len(xs)
    while i < n:
        if zeros[i] and i + 1 < n and zeros[i + 1]:
            j = i
            while j + 1 < n and zeros[j + 1]:
                j += 1
            out.flats.append(Flat(float(xs[i]), float(xs[j])))
            i = j + 1
        else:
            i += 1


def _probe(searcher: _Searcher, xs: np.ndarray, g: np.ndarray, finite: np.ndarray, out: Search) -> None:
    a = np.abs(g)
    inner = np.arange(1, len(xs) - 1)
    same = finite[:-2] & finite[1:-1] & finite[2:] & (g[:-2] * g[1:-1] > 0) & (g[1:-1] * g[2:] > 0)
    minima = inner[same & (a[1:-1] < a[:-2]) & (a[1:-1] <= a[2:])]
    zero = 1e-10 * out.scale
    for i in minima[:MAX_PROBES]:
        if searcher.late():
            return
        found = searcher.probe(float(xs[i]), float(xs[i - 1]), float(xs[i + 1]), zero)
        if found is not None:
            out.candidates.append(found)


def distinct(points: list[float], scale: float) -> list[float]:
    """Sorted, without the ones within 1e-8 (relative) of another."""
    out: list[float] = []
    for x in sorted(points):
        if out and abs(x - out[-1]) <= 1e-8 * max(scale, abs(x)):
            continue
        out.append(x)
    return out


def classify(fn: Function, k: int, x: float, h: float, scale: float, notes: list[str]) -> Point | None:
    """The point x as a critical point (k = 1) or an inflection point (k = 2), or None (with a note when
    that is worth saying: f not defined there, f'' = 0 without a sign change)."""
    name = fn.variables[0]
    p = fn.partials({name: x}, k + 1)
    f, g, gp = p[(0,)], p[(k,)], p[(k + 1,)]
    where = f"{name} = {number(x, 10)}"
    if not math.isfinite(f):
        notes.append(f"f is not defined at {where}: not a {'critical' if k == 1 else 'inflection'} point (though "
                     f"{prime(k)} changes sign or is not defined there)")
        return None
    sides = jump(fn, {name: x}, name, k, h)
    if k == 2:
        return _inflection(fn, x, h, f, g, sides, scale, notes)
    if sides is None and math.isfinite(g) and abs(g) > 1e-7 * max(scale, 1e-300) + 1e-12:
        return None  # SymPy's sign(0) = 0, or a grid point: not a zero after all
    if sides is not None or not math.isfinite(g):
        left, right = sides if sides is not None else one_sided(fn, {name: x}, name, 1, h)
        if not (math.isfinite(left) and math.isfinite(right)):
            return _domain_end(fn, x, h, f, left)
        kind = _first_test(left, right)
        return Point(x, f, kind, "f' not defined", f"f' is {number(left, 6)} on the left and {number(right, 6)} on "
                     f"the right ({_words(kind)})")
    if math.isfinite(gp) and abs(gp) > 1e-8 * max(1.0, scale):
        kind = "minimum" if gp > 0 else "maximum"
        test = f"f''({number(x, 10)}) = {number(gp, 6)} {'>' if gp > 0 else '<'} 0"
        return Point(x, f, kind, f"f'({name}) = 0", test)
    left, right = one_sided(fn, {name: x}, name, 1, h)
    kind = _first_test(left, right)
    return Point(x, f, kind, f"f'({name}) = 0", f"f'' = 0 there; f' is {_sign(left)} on the left, {_sign(right)} "
                 f"on the right ({_words(kind)})")


def _domain_end(fn: Function, x: float, h: float, f: float, left: float) -> Point | None:
    """f' not defined at x, and f defined on one side only (x**(2/3) at 0: numpy's nan for x < 0): the
    kind from f's values on the side where it is defined."""
    name = fn.variables[0]
    side, step = ("right", h) if not math.isfinite(left) else ("left", -h)
    near = fn.value({name: x + step})
    if not math.isfinite(near):
        return None
    kind = "minimum" if near > f else "maximum" if near < f else "neither"
    other = "left" if side == "right" else "right"
    return Point(x, f, kind, "f' not defined", f"f is not defined on the {other}; on the {side} it is "
                 f"{'larger' if near > f else 'smaller' if near < f else 'the same'} (an end of f's domain)")


def _inflection(fn: Function, x: float, h: float, f: float, g: float, sides: tuple[float, float] | None,
                scale: float, notes: list[str]) -> Point | None:
    name = fn.variables[0]
    left, right = sides if sides is not None else one_sided(fn, {name: x}, name, 2, h)
    where = f"{name} = {number(x, 10)}"
    if not (math.isfinite(left) and math.isfinite(right)) or left * right >= 0:
        if math.isfinite(g) and abs(g) <= 1e-7 * max(scale, 1e-300) + 1e-12:
            notes.append(f"f'' = 0 at {where} but does not change sign there: not an inflection point")
        return None
    concave = ("up", "down") if left > 0 else ("down", "up")
    kind = "inflection"
    what = "f'' not defined" if sides is not None or not math.isfinite(g) else f"f''({name}) = 0"
    return Point(x, f, kind, what, f"f'' changes from {_sign(left)} to {_sign(right)} (concave {concave[0]}, then "
                 f"{concave[1]})")


def _sign(v: float) -> str:
    return "+" if v > 0 else "-" if v < 0 else "0" if v == 0 else "undefined"


def _first_test(left: float, right: float) -> str:
    if left < 0 < right:
        return "minimum"
    if left > 0 > right:
        return "maximum"
    return "neither"


def _words(kind: str) -> str:
    return {"minimum": "first-derivative test: - to +", "maximum": "first-derivative test: + to -"}.get(
        kind, "first-derivative test: no sign change")


def check_grid(a: float, b: float, n: int) -> None:
    if n * 8 > 1 << 31:
        raise LimitError(f"{{points}} {n:,} is too many", reason="points", fields=("points",))
    if not (math.isfinite(a) and math.isfinite(b) and a < b and math.isfinite(b - a)):
        raise UsageError(f"the interval must be finite with A < B (and B - A a float64 number), got {a}:{b}")


__all__ = ["DEFAULT_INTERVAL", "DEFAULT_POINTS", "Flat", "Point", "Search", "check_grid", "classify", "distinct",
           "prime", "search"]
