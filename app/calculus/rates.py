"""Related rates: an equation between quantities that all change with time, differentiated with respect to time
(implicitly: each variable v has its rate dv/dt), and the one rate the exercise does not give, solved for, at a
point: x^2 + y^2 = 25 with x = 3, y = 4 and dx/dt = 2 gives dy/dt = -3/2.

SymPy differentiates and solves (bounded in time; the program's SymPy form comes from its syntax tree, never
from text), and the value is checked against autograd's partial derivatives at the point."""

from __future__ import annotations

import math
import re
from typing import Any

from autodiff.app.calculus.pointwise import Function, number
from autodiff.engine.errors import BadValueError, UsageError

RATE = re.compile(r"^d([A-Za-z_][A-Za-z0-9_]*)/d([A-Za-z_][A-Za-z0-9_]*)$")


class Rates:
    def __init__(self, time: str, unknown: str, differentiated: str, formula: str, value: float,
                 exact: str | None = None, given: dict[str, float] | None = None) -> None:
        self.time = time
        self.unknown = unknown  # the variable whose rate is solved for
        self.differentiated = differentiated  # d/dt of both sides: 2*x*dx/dt + 2*y*dy/dt = 0
        self.formula = formula  # dy/dt = -x*dx/dt/y
        self.value = value
        self.exact = exact
        self.given = {} if given is None else given


def rate_name(text: str) -> tuple[str, str] | None:
    """`dx/dt` as (x, t); None when the name is not a rate."""
    match = RATE.match(text.strip())
    return None if match is None else (match.group(1), match.group(2))


def related(program: str, fn: Function, point: dict[str, float], texts: dict[str, str], rates: dict[str, str],
            time: str) -> Rates:
    """The unknown rate of the equation program = 0 (variables fn.variables) at the point, given the others."""
    import sympy

    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X

    found = X.expression(program, fn.variables)
    if not found:
        raise BadValueError(f"the equation has no exact form to differentiate: {found.reason}", reason="symbolic")
    expr = found[0]
    names = sorted(str(s) for s in expr.free_symbols)
    unknown = [n for n in names if n not in rates]
    if len(unknown) != 1:
        raise UsageError(f"give the rate of every variable but one (d{names[0]}/d{time}=VALUE): the equation has "
                         f"{', '.join(names)}, and the rates given are {', '.join(rates) or 'none'}")
    (wanted,) = unknown
    symbol = {n: X.symbol(n) for n in names}
    # '~' sorts after every letter, so a product prints as a book writes it, 2*x*dx/dt (the '~' then removed)
    rate_symbol = {n: sympy.Symbol(f"~d{n}/d{time}", real=True) for n in names}
    total = sympy.Add(*(sympy.diff(expr, symbol[n]) * rate_symbol[n] for n in names))
    solved = X.bounded(lambda: sympy.solve(total, rate_symbol[wanted]), 3.0)
    if isinstance(solved, X.TimedOut) or len(solved) != 1:
        raise BadValueError(f"d{wanted}/d{time} cannot be solved for (its coefficient is 0 at every point?)",
                            reason="symbolic")
    formula = solved[0]
    missing = [n for n in names if symbol[n] in formula.free_symbols and n not in point]
    if missing:
        raise UsageError(f"give the value of {', '.join(missing)} at the moment asked (e.g. {missing[0]}=1)")
    exact_point = {n: X.exact_number(texts.get(n, "")) for n in names if n in point}
    exact_rates = {rate_symbol[n]: X.exact_number(v) for n, v in rates.items() if n in rate_symbol}
    value = _numbers(fn, point, rates, wanted, names)
    result = Rates(time, wanted, f"{_text(total)} = 0", f"d{wanted}/d{time} = {_text(formula)}", value,
                   given={n: float(sympy.N(X.exact_number(v))) for n, v in rates.items() if X.exact_number(v)})
    if all(v is not None for v in (*exact_point.values(), *exact_rates.values())):
        at = X.at(formula.xreplace(exact_rates), exact_point, seconds=2.0)
        if not isinstance(at, X.TimedOut) and at is not None and math.isclose(X.decimal(at), value, rel_tol=1e-9,
                                                                                abs_tol=1e-12):
            result.exact = exact_text(at)
    return result


def _text(expr: Any) -> str:
    from autodiff.app.symbolic import exact as X

    return X.text(expr).replace("~", "")


def _numbers(fn: Function, point: dict[str, float], rates: dict[str, str], wanted: str, names: list[str]) -> float:
    """The unknown rate from autograd's partials at the point: -(sum of F_v * v') / F_wanted."""
    import numpy as np

    from autodiff.app.session import constant

    full = {n: point.get(n, 0.0) for n in fn.variables}
    partials = fn.partials(full, 1)
    unit = {n: tuple(1 if k == n else 0 for k in fn.variables) for n in fn.variables}
    given = {}
    for n, v in rates.items():
        value = constant(v, f"d{n}/dt")
        given[n] = float(np.asarray(getattr(value, "data", value), dtype=np.float64).reshape(-1)[0])
    coefficient = partials[unit[wanted]] if wanted in unit else 0.0
    if coefficient == 0 or not math.isfinite(coefficient):
        raise BadValueError(f"the equation's derivative in {wanted} is {number(coefficient)} at the point: "
                            f"d{wanted}/dt is not determined there", reason="not_determined")
    return -sum(partials[unit[n]] * r for n, r in given.items() if n in names) / coefficient


__all__ = ["RATE", "Rates", "rate_name", "related"]
