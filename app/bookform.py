"""A derivative in the form a textbook prints: no masks where the function is smooth, sec/csc/cot kept when
the question has them, a factored denominator kept factored, and of a few equal candidates the one a reader
reads fastest.

The score of a candidate is the length of its text in the language, plus 40 per `where` (a piecewise formula
reads slowest) and, when the question has sec, csc, cot or tan, 10 per division by cos or sin; the lowest
wins, the first written on a tie (the derivation's own form, then SymPy's simplify, then its factorisation,
then sec/csc/cot written back). Every SymPy call is bounded in time.

Masks: the op table's formulas guard points where PyTorch's gradient is defined by convention (x**y at
x == 0, log at 0): a `where` on an equation (`x == 0`), a set of measure zero, is dropped; `where`s on
inequalities (abs, relu, clamp, where, sign) are the function's own pieces and stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from autodiff.app.timebox import timed

WHERE_PENALTY = 40
TRIG_PENALTY = 10
_RECIPROCAL = {sympy.cos: sympy.sec, sympy.sin: sympy.csc, sympy.tan: sympy.cot}
_QUOTIENT = {sympy.cos: (sympy.sin, sympy.tan, sympy.sec), sympy.sin: (sympy.cos, sympy.cot, sympy.csc)}


def bounded(fn: Callable[[Any], Any], expr: Any, seconds: float) -> Any:
    """fn(expr), or expr when it fails or takes longer than `seconds` (then it is stopped: app.timebox)."""
    outcome = timed(lambda: fn(expr), seconds)
    return outcome.value if outcome.done else expr


def _mask(value: Any, condition: Any) -> bool:
    """A piece that sets the gradient to 0 on a set of measure zero (PyTorch's convention at x == 0)."""
    return value == 0 and _measure_zero(condition)


def _measure_zero(condition: Any) -> bool:
    if isinstance(condition, sympy.Eq):
        return True
    if isinstance(condition, sympy.And):
        return any(_measure_zero(c) for c in condition.args)
    return False


def unmasked(expr: Any) -> Any:
    """The formula without the pieces that hold on a set of measure zero (x == 0)."""
    if not expr.has(sympy.Piecewise):
        return expr

    def drop(piecewise: Any) -> Any:
        kept = [(v, c) for v, c in piecewise.args if not _mask(v, c)]
        if not kept:
            return piecewise
        if len(kept) == 1 or kept[0][1] is sympy.true:
            return kept[0][0]
        return sympy.Piecewise(*kept)

    return expr.replace(lambda e: isinstance(e, sympy.Piecewise), drop)


def _trig_factor(term: Any) -> Any:
    """In one product: sin(u)/cos(u)**n as tan(u)*sec(u)**(n-1), cos(u)/sin(u)**n as cot(u)*csc(u)**(n-1),
    then cos(u)**-n as sec(u)**n (and sin, tan)."""
    factors = list(sympy.Mul.make_args(term))
    for i, f in enumerate(factors):
        if not (f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.func in _QUOTIENT):
            continue
        top, quotient, reciprocal = _QUOTIENT[f.base.func]
        u, n = f.base.args[0], -f.exp
        j = next((k for k, g in enumerate(factors) if g == top(u)), None)
        if j is not None:
            factors[i], factors[j] = reciprocal(u) ** (n - 1), quotient(u)
        else:
            factors[i] = reciprocal(u) ** n
    for i, f in enumerate(factors):
        if f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.func in _RECIPROCAL:
            factors[i] = _RECIPROCAL[f.base.func](f.base.args[0]) ** (-f.exp)
    return sympy.Mul(*factors)


def trig_form(expr: Any) -> Any:
    """sec, csc and cot written back where the formula divides by cos, sin or tan."""
    return sympy.Add(*(_trig_factor(t) for t in sympy.Add.make_args(sympy.factor_terms(expr))))


def score(text: str, trig: bool = False) -> int:
    """The length of the text, plus WHERE_PENALTY per where; with trig, plus TRIG_PENALTY per division by
    cos or sin (sec, csc and cot were in the question)."""
    divisions = text.count("/cos(") + text.count("/sin(") if trig else 0
    return len(text) + WHERE_PENALTY * text.count("where(") + TRIG_PENALTY * divisions


def book_form(expr: Any, printer: Callable[[Any], str], *, trig: bool = False, seconds: float = 2.0,
              keep: Callable[[Any], bool] | None = None) -> Any:
    """The candidate with the lowest score; `trig` adds sec/csc/cot forms; `keep(candidate)` may refuse one
    (a form SymPy rewrote into complex values)."""
    base = unmasked(expr)
    simple = bounded(sympy.simplify, base, seconds)
    if base.has(sympy.Piecewise):  # the function's own pieces: SymPy's simplify states them best
        return simple if simple is base or keep is None or keep(simple) else base
    candidates = [base, simple]
    if not simple.has(sympy.Piecewise):
        candidates.append(bounded(sympy.factor, simple, seconds / 2))
    if trig:
        candidates += [bounded(trig_form, c, seconds / 4) for c in candidates[:2]]
    best, best_score = expr, None
    for candidate in candidates:
        try:
            text = printer(candidate)
        except Exception:
            continue
        value = score(text, trig)
        if (best_score is None or value < best_score) and (candidate is base or keep is None or keep(candidate)):
            best, best_score = candidate, value
    return best


def has_trig(expr: Any) -> bool:
    return bool(expr.atoms(sympy.sec, sympy.csc, sympy.cot, sympy.tan))


__all__ = ["TRIG_PENALTY", "WHERE_PENALTY", "book_form", "bounded", "has_trig", "score", "trig_form", "unmasked"]
