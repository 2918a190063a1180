"""Implicit differentiation: an equation F(x, y) = 0 (or A = B, read as A - B = 0) defines y as a function of
x; dy/dx = -F_x/F_y, with F_x and F_y derived by the op table's rules (symbolic.py), as a textbook solves
it: differentiate both sides with y = y(x) (the chain rule gives y'), then solve for y'. Higher orders
differentiate dy/dx again, replacing each y' by dy/dx, and use the equation to simplify where it can."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import sympy

from autodiff.app.symbolic.bookform import book_form, bounded
from autodiff.app.symbolic.diff import MAX_ORDER, SIMPLIFY_SECONDS, value_at
from autodiff.app.symbolic.printing import operand, to_latex
from autodiff.app.symbolic.printing import to_book as to_language
from autodiff.app.symbolic.program import differentiate, exact, record
from autodiff.app.symbolic.steps import RuleStep, rule_steps
from autodiff.engine.errors import UsageError


@dataclass
class Implicit:
    """d^order y/dx^order on the curve F = 0: the formula (in x and y), its text, and its steps."""

    wrt: str
    implicit: str
    order: int
    expr: Any
    text: str
    latex: str
    equation: str
    steps: list[RuleStep] = field(default_factory=list)
    residual: float | None = None  # F at the point (0 when the point is on the curve)


def implicit(program: str, equation: str, wrt: str, dependent: str, order: int = 1,
             variables: Collection[str] = ()) -> Implicit:
    """dy/dx (and higher orders) for the equation whose left side minus right side is `program`."""
    if not 1 <= order <= MAX_ORDER:
        raise UsageError(f"the order must be between 1 and {MAX_ORDER}, got {order}")
    if wrt == dependent:
        raise UsageError(f"{dependent} cannot be a function of itself: differentiate with respect to another "
                         "variable")
    formula = record(program, {wrt, dependent, *variables})
    if dependent not in formula.leaves:
        raise UsageError(f"the equation {equation} has no {dependent}: nothing defines {dependent} implicitly")
    differentiate(formula)
    x, y = sympy.Symbol(wrt, real=True), sympy.Symbol(dependent, real=True)
    fx, fy = (exact(formula.grads.get(n, sympy.Integer(0))) for n in (wrt, dependent))
    if fy == 0:
        raise UsageError(f"d/d{dependent} of the equation is 0: it does not define {dependent} as a function of "
                         f"{wrt}")
    prime = sympy.Symbol(f"{dependent}'", real=True)
    steps = rule_steps(formula, wrt, {dependent: prime})
    first = _simplest(-fx / fy)
    total = fx + fy * prime
    steps.append(RuleStep("solve for " + str(prime), total, first,
                          f"{to_language(total)} = 0, so {prime} = -{operand(fx)}"
                          + ("" if fy == 1 else f"/{operand(fy, denominator=True)}")))
    expr = first
    for _ in range(order - 1):
        expr = _again(expr, x, y, first, variables)
    expr = _on_the_curve(expr, formula.root.expr, x, y)
    return Implicit(wrt, dependent, order, expr, to_language(expr), to_latex(expr), equation, steps)


def _simplest(expr: Any) -> Any:
    return exact(book_form(exact(expr), to_language, seconds=SIMPLIFY_SECONDS))


def _again(expr: Any, x: Any, y: Any, first: Any, variables: Collection[str]) -> Any:
    """d/dx of a formula in x and y(x): G_x + G_y * dy/dx, by the op table's rules on its text."""
    formula = record(to_language(expr), {str(x), str(y), *variables})
    differentiate(formula)
    gx = formula.grads.get(str(x), sympy.Integer(0))
    gy = formula.grads.get(str(y), sympy.Integer(0))
    return _simplest(exact(gx + gy * first))


def _on_the_curve(expr: Any, curve: Any, x: Any, y: Any) -> Any:
    """The formula reduced with the equation where it is a polynomial one (x**2 + y**2 = 25 turns
    -(x**2 + y**2)/y**3 into -25/y**3), when that is shorter."""
    curve = exact(curve)
    if not (curve.is_polynomial(x, y) and expr.is_rational_function(x, y)):
        return expr
    reduced = bounded(lambda e: sympy.ratsimpmodprime(e, [sympy.expand(curve)], x, y), expr, SIMPLIFY_SECONDS)
    reduced = bounded(sympy.factor, reduced, SIMPLIFY_SECONDS / 2)
    return reduced if len(to_language(reduced)) < len(to_language(expr)) else expr


def at_point(result: Implicit, program: str, point: dict[str, float], variables: Collection[str]) -> float:
    """The derivative's value at the point; result.residual gets F there (0 on the curve)."""
    missing = [n for n in (result.wrt, result.implicit) if n not in point]
    if missing:
        raise UsageError(f"to evaluate d{result.implicit}/d{result.wrt}, give both {result.wrt} and "
                         f"{result.implicit} (a point on the curve): {', '.join(missing)} has no value")
    formula = record(program, {result.wrt, result.implicit, *variables})
    result.residual = value_at(formula.root.expr, point)
    return value_at(result.expr, point)


__all__ = ["Implicit", "at_point", "implicit"]
