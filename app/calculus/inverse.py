"""The derivative of an inverse function at a point, (f^-1)'(b) = 1 / f'(a) where f(a) = b, as a book's exercise
asks it: a found where f = b on the interval (app.newton's every_root: each root of f - b), which must be one
point (f one-to-one there); f'(a) by autograd; the exact values by SymPy where it solves f(x) = b."""

from __future__ import annotations

import math
from dataclasses import dataclass

from autodiff.app.calculus.critical import DEFAULT_INTERVAL
from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import BadValueError


@dataclass
class Inverse:
    variable: str
    value: float  # b
    at: float  # a, with f(a) = b
    slope: float  # f'(a)
    derivative: float  # (f^-1)'(b) = 1/f'(a)
    at_exact: str | None = None
    derivative_exact: str | None = None


def inverse_derivative(fn: Function, b: float, interval: tuple[float, float] | None, program: str, b_text: str,
                       exact: bool = True) -> Inverse:
    """(f^-1)'(b): the one a in the interval (default [-10, 10]) with f(a) = b, and 1/f'(a)."""
    from autodiff.app.calculus.newton import every_root

    name = fn.variables[0]
    low, high = interval or DEFAULT_INTERVAL
    shifted = Function(f"({fn.text}) - ({b!r})", [name], fn.constants)
    runs, _ = every_root(shifted, low, high)
    where = f"[{number(low, 10)}, {number(high, 10)}]"
    if not runs:
        raise BadValueError(f"f never takes the value {number(b, 10)} on {where}, so f^-1 is not defined at it "
                            f"there (give the interval where it is: {name}=A:B)", reason="not_defined")
    if len(runs) > 1:
        found = ", ".join(f"{name} = {number(r.root, 10)}" for r in runs)
        raise BadValueError(f"f takes the value {number(b, 10)} at {len(runs)} points of {where} ({found}): it is not "
                            f"one-to-one there; give an interval where it is ({name}=A:B)", reason="not_one_to_one")
    a = runs[0].root
    slope = fn.partials({name: a}, 1)[(1,)]
    if slope == 0 or not math.isfinite(slope):
        raise BadValueError(f"f'({number(a, 10)}) = {number(slope)}: the inverse function has a vertical tangent "
                            f"at {number(b, 10)} (no derivative there)", reason="not_differentiable")
    result = Inverse(name, b, a, slope, 1.0 / slope)
    if exact:
        _exact(result, program, b_text, (low, high))
    return result


def _exact(result: Inverse, program: str, b_text: str, interval: tuple[float, float]) -> None:
    import sympy

    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X

    found, b = X.expression(program), X.exact_number(b_text)
    if not found or b is None:
        return
    expr, x = found[0], X.symbol(result.variable)
    solveset = sympy.solveset
    solutions = X.bounded(lambda: solveset(sympy.Eq(expr, b), x, sympy.Interval(*interval)), 3.0)
    if not isinstance(solutions, sympy.FiniteSet) or len(solutions.args) != 1:
        return
    (a,) = solutions.args
    if not X.is_real_number(a) or not math.isclose(X.decimal(a), result.at, rel_tol=1e-9, abs_tol=1e-12):
        return
    slope = X.at(sympy.diff(expr, x), {result.variable: a}, seconds=1.0)
    if isinstance(slope, X.TimedOut) or slope is None or slope == 0:
        return
    result.at_exact, result.derivative_exact = exact_text(a), exact_text(1 / slope)


__all__ = ["Inverse", "inverse_derivative"]
