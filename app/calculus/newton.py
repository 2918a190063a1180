"""`autodiff newton`: Newton's method x_{n+1} = x_n - f(x_n) / f'(x_n) from x0, with autograd's derivative
(float64), every iterate kept, and the reason it stopped: converged (the step fell below the tolerance, or
f(x_n) is exactly 0), f'(x_n) = 0, f not defined at an iterate, divergence, a cycle, or the step limit."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import UsageError

MAX_STEPS = 10_000
SECONDS = 20.0
COARSE = 20  # every_root starts Newton from a grid of this many steps over the interval first
DIVERGED = 1e12  # |x_n| beyond this times max(1, |x0|): the iterates run away


@dataclass
class Iterate:
    n: int
    x: float
    f: float
    df: float | None  # None for the last iterate when no step is taken from it


@dataclass
class Newton:
    variable: str
    iterations: list[Iterate] = field(default_factory=list)
    root: float | None = None
    converged: bool = False
    reason: str = ""
    completed: bool = False  # the N steps asked for were all taken (a book's "do five iterations"), no failure
    multiple: bool = False  # a root where f' is 0 too (Newton converges only linearly: about half the digits)


def _at(fn: Function, x: float) -> tuple[float, float]:
    p = fn.partials({fn.variables[0]: x}, 1)
    return p[(0,)], p[(1,)]


def newton(fn: Function, x0: float, steps: int = 50, tol: float = 1e-12, seconds: float = SECONDS,
           asked: bool = False) -> Newton:
    """Run at most `steps` Newton steps from x0; converged when |x_{n+1} - x_n| <= tol * max(1, |x_{n+1}|).
    With `asked` (the steps are the exercise's: "do five iterations"), taking them all is an answer too."""
    if not 1 <= steps <= MAX_STEPS:
        raise UsageError(f"{{iterations}} must be between 1 and {MAX_STEPS:,}, got {steps}", fields=("iterations",))
    if not (tol > 0 and math.isfinite(tol)):
        raise UsageError(f"{{tol}} must be a positive number, got {tol}", fields=("tol",))
    result = Newton(fn.variables[0])
    started = time.monotonic()
    x = x0
    for n in range(steps + 1):
        f, df = _at(fn, x)
        result.iterations.append(Iterate(n, x, f, df))
        reason = _stop(result, n, x, f, df, steps, tol, x0, asked)
        if reason is not None:
            result.reason = reason
            return result
        if time.monotonic() - started > seconds:
            result.reason = f"stopped after {seconds:g} s ({n} steps) without converging"
            return result
        x = x - f / df
    return result  # not reached: _stop ends the loop at n == steps


def _stop(result: Newton, n: int, x: float, f: float, df: float, steps: int, tol: float, x0: float,
          asked: bool = False) -> str | None:
    """Why the iteration stops at x_n (None: take the step)."""
    name = result.variable
    if not math.isfinite(f):
        return f"f is not defined at {name}_{n} = {number(x, 10)} (f = {number(f)}): start closer to the root"
    previous = result.iterations[-2].x if n > 0 else None
    if f == 0 or (previous is not None and abs(x - previous) <= tol * max(1.0, abs(x))):
        result.converged, result.root = True, x
        result.iterations[-1].df = df
        return "f(x_n) is exactly 0" if f == 0 else f"the step fell below the tolerance {tol:g}"
    if n == steps and asked:
        result.completed, result.root = True, x
        return f"the {steps} steps asked for, done (the last step was {number(abs(x - previous), 6)})"
    if n == steps:
        return f"no convergence in {steps} steps (the last step was {number(abs(x - previous), 6)}): more steps?"
    if df == 0 or not math.isfinite(df):
        return (f"f'({name}_{n}) = {number(df)} at {name}_{n} = {number(x, 10)}: the tangent is "
                f"{'horizontal' if df == 0 else 'not defined'}, so Newton's step is not defined: start elsewhere")
    if abs(x) > DIVERGED * max(1.0, abs(x0)):
        return f"the iterates diverge: |{name}_{n}| = {number(abs(x), 6)}"
    following = x - f / df
    for earlier in result.iterations[:-1]:
        if abs(following - earlier.x) <= tol * max(1.0, abs(following)) and abs(following - x) > tol * max(1.0, abs(x)):
            period = n + 1 - earlier.n
            return (f"a cycle: {name}_{n + 1} would be {name}_{earlier.n} again (period {period}), so Newton's method "
                    "never converges from here: start elsewhere")
    return None


def every_root(fn: Function, a: float, b: float, steps: int = 50, tol: float = 1e-12,
               seconds: float = SECONDS) -> tuple[list[Newton], list[str]]:
    """Every root of f on [a, b]: the sign changes and touching zeros of f on a grid (app.critical's search of
    f^(0) = 0), each then found by Newton's method from the grid point nearest it (when that run ends on
    another root or fails, the bracketed search's root is kept, refined by Newton with bisection). Notes say
    where f is 0 on a whole piece, or the search stopped early."""
    from autodiff.app.calculus import critical as C

    C.check_grid(a, b, C.DEFAULT_POINTS)
    found = C.search(fn, 0, a, b, C.DEFAULT_POINTS, seconds)
    notes = list(found.notes) + [f"f = 0 on the whole of [{number(f.start, 10)}, {number(f.stop, 10)}]"
                                 for f in found.flats]
    roots = [r for r in C.distinct(found.candidates, 1.0) if _is_root(fn, r, found.scale)]
    runs = []
    for r in roots:
        run = None
        for step in ((b - a) / COARSE, found.step):  # a start a student would pick, else one next to the root
            start = min(max(a + round((r - a) / step) * step, a), b)
            run = newton(fn, start, steps, tol, seconds)
            if run.converged and abs(run.root - r) <= 1e-6 * max(1.0, abs(r)):
                break
        else:
            run = Newton(fn.variables[0], [Iterate(0, r, *_at(fn, r))], r, True,
                         "a sign change of f on the grid, refined by Newton's method kept inside it (bisection)")
        run.multiple = abs(run.iterations[-1].df or 0.0) <= 1e-6 * max(1.0, found.scale)
        runs.append(run)
    return runs, notes


def _is_root(fn: Function, x: float, scale: float) -> bool:
    """A candidate of the search that is a root: f defined and (nearly) 0 there (not a pole where f jumps)."""
    f = fn.value({fn.variables[0]: x})
    return math.isfinite(f) and abs(f) <= 1e-8 * max(1.0, scale)


__all__ = ["MAX_STEPS", "Iterate", "Newton", "every_root", "newton"]
