"""The simplest form of a formula of the language, by SymPy's public steps in the order SymPy's `simplify`
takes them (cancel, together, factor_terms, trigsimp, logcombine, powsimp, exptrigsimp, radsimp), keeping
the shortest by SymPy's count of operations, and the formula as it was when the result is more than 1.7
times as long.

Why not `sympy.simplify` itself: it imports sympy.physics.units on every call (to look for physical
quantities, which a formula of the language never has), about two times the start-up of `import numpy`, for
`diff`, `tangent` or `limit` answering in one shot. The steps it takes for what the language has no
construct for (sums, integrals, products, Bessel and gamma functions, Kronecker deltas, hypergeometric terms,
matrices, units) are left out; a formula with pieces (Piecewise, or sign, which SymPy rewrites as pieces)
still goes to `sympy.simplify`: its piecewise simplification states the pieces best, and it is the only
form here that pays for the units.
"""

from __future__ import annotations

from typing import Any

import sympy
from sympy.functions.elementary.hyperbolic import HyperbolicFunction
from sympy.functions.elementary.trigonometric import TrigonometricFunction
from sympy.simplify.radsimp import collect_abs

RATIO = 1.7  # a result more than this many times as long (SymPy's count of operations) is not simpler
_HANDLED = (sympy.Add, sympy.Mul, sympy.Pow, sympy.exp)  # what the steps below work on; functions are walked


def simplest(expr: Any) -> Any:
    """The formula in its simplest form (SymPy's simplify without the steps for what the language lacks)."""
    if not isinstance(expr, sympy.Expr) or expr.has(sympy.Piecewise, sympy.sign):
        return sympy.simplify(expr)
    if expr.is_zero:
        return expr if expr.is_Number else sympy.S.Zero
    if isinstance(expr, sympy.log):  # SymPy's own rule for a logarithm: its argument simplified, log expanded
        inner = expr.func(simplest(expr.args[0]))
        return min([sympy.expand_log(inner, deep=True), expr], key=sympy.count_ops)
    original = expr = collect_abs(sympy.signsimp(expr))
    if not expr.args:
        return expr
    expr = expr.replace(lambda e: isinstance(e, sympy.Expr) and e.args and not isinstance(e, _HANDLED),
                        lambda e: e.func(*[simplest(a) for a in e.args]), simultaneous=False)
    if not isinstance(expr, _HANDLED):
        return _done(expr)
    expr = _rational(expr)
    if expr.has(TrigonometricFunction, HyperbolicFunction):
        expr = sympy.trigsimp(expr, deep=True)
    if expr.has(sympy.log):
        expr = _shorter(sympy.expand_log(expr, deep=True), sympy.logcombine(expr))
    expr = _powers(expr)
    expr = _denominator(expr)
    if sympy.count_ops(expr) > RATIO * sympy.count_ops(original):
        expr = original
    return _done(expr)


def _shorter(*choices: Any) -> Any:
    """The choice with the fewest operations; the first on a tie."""
    if all(c == choices[0] for c in choices[1:]):
        return choices[0]
    return min(choices, key=sympy.count_ops)


def _done(expr: Any) -> Any:
    expr = expr.doit()
    return _shorter(expr, collect_abs(expr))


def _rational(expr: Any) -> Any:
    """Each sum over a common denominator, cancelled, and the common factors of the terms taken out."""
    expr = sympy.bottom_up(expr, lambda w: getattr(w, "normal", lambda: w)())
    expr = sympy.Mul(*sympy.powsimp(expr).as_content_primitive())
    cancelled = sympy.cancel(expr)
    cancelled = _shorter(cancelled, sympy.cancel(sympy.expand_mul(sympy.expand_multinomial(cancelled))))
    together = _shorter(sympy.together(expr, deep=True), sympy.together(cancelled, deep=True))
    return sympy.factor_terms(_shorter(together, cancelled, expr), sign=False)


def _powers(expr: Any) -> Any:
    """Powers combined (or not), cancelled, common factors out; exponentials of trigonometry as such; a number
    times a sum multiplied out (2*(x + 1) is 2*x + 2)."""
    short = _shorter(sympy.powsimp(expr, combine="exp", deep=True), sympy.powsimp(expr), expr)
    short = _shorter(short, sympy.cancel(short))
    short = _shorter(short, sympy.factor_terms(short), sympy.expand_power_exp(sympy.expand_mul(short)))
    if short.has(TrigonometricFunction, HyperbolicFunction, sympy.exp):
        short = sympy.exptrigsimp(short)
    hollow = {m: sympy.Mul(*m.args) for m in sympy.preorder_traversal(short)
              if m.is_Mul and len(m.args) == 2 and m.args[0].is_Number and m.args[1].is_Add and m.is_commutative}
    return short.xreplace(hollow) if hollow else short


def _denominator(expr: Any) -> Any:
    """A sum in the denominator rationalised when that makes it one term; a leading minus sign taken into
    the fraction."""
    numerator, denominator = expr.as_numer_denom()
    if denominator.is_Add:
        n, d = sympy.fraction(sympy.radsimp(1 / denominator, symbolic=False, max_terms=1))
        if n is not sympy.S.One:
            expr = (numerator * n).expand() / d
    if expr.could_extract_minus_sign():
        n, d = sympy.fraction(expr)
        if d != 0:
            expr = sympy.signsimp(-n / (-d))
    return expr


__all__ = ["RATIO", "simplest"]
