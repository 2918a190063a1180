"""A derivative in the form a textbook prints: no masks where the function is smooth, sec/csc/cot kept when
the question has them, a factored denominator kept factored, and of a few equal candidates the one a reader
reads fastest.

The score of a candidate is the length of its text in the language, plus 40 per `where` (a piecewise formula
reads slowest), 40 per trigonometric or hyperbolic function of an argument the derivation does not have (the
double-angle sin(2*x) for 2*sin(x)*cos(x): a book applies the rules, not identities) and, when the question
has sec, csc, cot or tan, 10 per division by cos, sin or tan; a polynomial written out in descending powers counts
4/5 of its length (5*x**4 - 3*x**2 + 4*x, not x*(5*x**3 - 3*x + 4); a product of powers like
10*(2*x + 3)**4 stays far shorter). The lowest wins, the first written on a tie (the derivation's own form,
then f*(f'/f) for a power whose base and exponent both vary: x**x*(log(x) + 1), as logarithmic
differentiation gives it, then the simplest form (app.symbolic.simplest: SymPy's simplify, step by step), then
its factorisation, then that over its factored denominator with the numerator written out, then sec/csc/cot
written back, then the polynomial written out). Every SymPy call is bounded in time.

Identities every candidate gets (equal wherever the derivative is defined): tan(u)**2 + 1 is sec(u)**2
(cot, csc alike), sign(u)/abs(u) is 1/u (d/dx log(abs(x)) = 1/x) and sign(u)*abs(u) is u.

Masks: the op table's formulas guard points where PyTorch's gradient is defined by convention (x**y at
x == 0, log at 0): a `where` on an equation (`x == 0`), a set of measure zero, is dropped; `where`s on
inequalities (abs, relu, clamp, where, sign) are the function's own pieces and stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy

from autodiff.app.symbolic.simplest import simplest
from autodiff.app.timebox import timed

WHERE_PENALTY = 40
TRIG_PENALTY = 10
NEW_ARGUMENT_PENALTY = 40
POLYNOMIAL_WEIGHT = 0.8
GROUPED_PENALTY = 10  # the rules' terms factored (when simplify changed arguments) win only when much shorter
_PERIODIC = (sympy.sin, sympy.cos, sympy.tan, sympy.sec, sympy.csc, sympy.cot, sympy.sinh, sympy.cosh, sympy.tanh)
_PYTHAGOREAN = {sympy.tan: sympy.sec, sympy.cot: sympy.csc}
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
    for i, f in enumerate(factors):  # sec(u)**n/tan(u)**n as csc(u)**n
        if f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.func is sympy.tan:
            j = next((k for k, g in enumerate(factors) if g == sympy.sec(f.base.args[0]) ** -f.exp), None)
            if j is not None:
                factors[i], factors[j] = sympy.S.One, sympy.csc(f.base.args[0]) ** -f.exp
    for i, f in enumerate(factors):
        if f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.func in _RECIPROCAL:
            factors[i] = _RECIPROCAL[f.base.func](f.base.args[0]) ** (-f.exp)
    return sympy.Mul(*factors)


def trig_form(expr: Any) -> Any:
    """sec, csc and cot written back where the formula divides by cos, sin or tan."""
    return identities(sympy.Add(*(_trig_factor(t) for t in sympy.Add.make_args(sympy.factor_terms(expr)))))


def trig_terms(expr: Any) -> Any:
    """trig_form term by term, without grouping first: the product rule's terms each in sec, csc and cot
    (d/dx csc(x)*cot(x) = -csc(x)*cot(x)**2 - csc(x)**3, as a book writes it)."""
    return identities(sympy.Add(*(_trig_factor(t) for t in sympy.Add.make_args(sympy.expand(expr, deep=False)))))


def _pythagorean(add: Any) -> Any:
    """tan(u)**2 + 1 as sec(u)**2, cot(u)**2 + 1 as csc(u)**2 (one such pair in a sum)."""
    terms = list(add.args)
    if sympy.S.One not in terms:
        return add
    for k, term in enumerate(terms):
        if term.is_Pow and term.exp == 2 and term.base.func in _PYTHAGOREAN:
            rest = [t for i, t in enumerate(terms) if i != k]
            rest.remove(sympy.S.One)
            return sympy.Add(_PYTHAGOREAN[term.base.func](term.base.args[0]) ** 2, *rest)
    return add


def _sign_abs(mul: Any) -> Any:
    """sign(u)/abs(u) as 1/u and sign(u)*abs(u) as u, in one product."""
    factors = list(mul.args)
    for i, f in enumerate(factors):
        if not isinstance(f, sympy.sign):
            continue
        u = f.args[0]
        for j, g in enumerate(factors):
            if g == sympy.Abs(u) or (g.is_Pow and g.base == sympy.Abs(u) and g.exp == -1):
                factors[i], factors[j] = sympy.S.One, (u if g == sympy.Abs(u) else 1 / u)
                return sympy.Mul(*factors)
    return mul


def _square_over_abs(mul: Any) -> Any:
    """u**2/abs(u) as abs(u) and abs(u)/u**2 as 1/abs(u) (u real), in one product."""
    factors = list(mul.args)
    for i, f in enumerate(factors):
        absolute, power = (f.base, f.exp) if f.is_Pow else (f, 1)
        if power not in (1, -1) or not isinstance(absolute, sympy.Abs):
            continue
        u = absolute.args[0]
        for j, g in enumerate(factors):
            if g.is_Pow and g.base == u and g.exp == -2 * power:
                factors[i], factors[j] = sympy.S.One, absolute ** -power
                return sympy.Mul(*factors)
    return mul


def _inverse_secant(power: Any) -> Any:
    """sqrt(1 - u**-2) as sqrt(u**2 - 1)/abs(u) (asec's and acsc's derivatives as a book prints them)."""
    for u in {p.base for p in power.base.atoms(sympy.Pow) if p.exp == -2}:
        if sympy.expand(power.base - (1 - u ** -2)) == 0:
            return sympy.sqrt(u ** 2 - 1) / sympy.Abs(u)
    return power


def identities(expr: Any) -> Any:
    """The identities a book uses without a word: tan(u)**2 + 1 = sec(u)**2, sign(u)/abs(u) = 1/u,
    sqrt(1 - 1/u**2) = sqrt(u**2 - 1)/abs(u)."""
    if any(p.exp in (sympy.S.Half, -sympy.S.Half) for p in expr.atoms(sympy.Pow)):
        expr = expr.replace(lambda e: e.is_Pow and e.exp in (sympy.S.Half, -sympy.S.Half) and e.base.is_Add,
                            lambda e: _inverse_secant(sympy.sqrt(e.base)) ** (1 if e.exp > 0 else -1))
        if expr.has(sympy.Abs):
            expr = expr.replace(lambda e: e.is_Mul and e.has(sympy.Abs), _square_over_abs)
    if expr.has(sympy.sign):
        expr = expr.replace(lambda e: e.is_Mul and e.has(sympy.sign), _sign_abs)
        # sign(u)**2 is 1 wherever the derivative is defined (u != 0), sign(u)**3 is sign(u)
        expr = expr.replace(lambda e: e.is_Pow and isinstance(e.base, sympy.sign) and e.exp.is_Integer and e.exp > 1,
                            lambda e: e.base ** (e.exp % 2))
    if expr.has(sympy.tan, sympy.cot):
        expr = expr.replace(lambda e: e.is_Add and sympy.S.One in e.args, _pythagorean)
    if expr.has(sympy.sin) and expr.has(sympy.cos):
        expr = expr.replace(lambda e: e.is_Add and len(e.args) > 1, _sine_cosine)
    return expr


def _sine_cosine(add: Any) -> Any:
    """c*sin(u)**2 + c*cos(u)**2 as c (one pair in a sum)."""
    terms = list(add.args)
    for k, term in enumerate(terms):
        c, rest = term.as_coeff_Mul()
        if rest.is_Pow and rest.exp == 2 and isinstance(rest.base, sympy.sin):
            partner = c * sympy.cos(rest.base.args[0]) ** 2
            if partner in terms:
                others = [t for i, t in enumerate(terms) if i != k and t != partner]
                return sympy.Add(c, *others)
    return add


def _arguments(expr: Any) -> set:
    return {f.args[0] for f in expr.atoms(*_PERIODIC)}


def as_written(candidate: Any, arguments: set) -> Any:
    """The candidate with each trigonometric argument written as the derivation wrote it where it is the same
    (SymPy's simplify factors cos(4*x**5 + 2*x) into cos(2*x*(2*x**4 + 1)): a book keeps the question's)."""
    changed = {}
    for f in candidate.atoms(*_PERIODIC):
        argument = f.args[0]
        if argument in arguments:
            continue
        same = next((a for a in arguments if sympy.expand(argument - a) == 0), None)
        if same is not None:
            changed[f] = f.func(same)
    return candidate.xreplace(changed) if changed else candidate


def log_derivative_form(derivative: Any, function: Any, trig: bool = True) -> Any | None:
    """f' as f*(f'/f) when f is a power whose base and exponent both vary (logarithmic differentiation's
    x**x*(log(x) + 1)), f kept as written; None otherwise."""
    coefficient, function = function.as_coeff_Mul()
    if not (function.is_Pow and function.base.free_symbols and function.exp.free_symbols):
        return None
    # where u**v is defined (u > 0) the powers combine: x**(v - 1)/x**v is 1/x
    positive = {function.base: sympy.Dummy("u", positive=True)}
    ratio = sympy.powsimp(sympy.expand(unmasked(derivative).xreplace(positive)
                                       / (coefficient * function.xreplace(positive))), force=True)
    ratio = sympy.expand(ratio).xreplace({d: s for s, d in positive.items()})
    if not ratio.free_symbols or any(p.base == function.base and p.exp.free_symbols
                                     for p in ratio.atoms(sympy.Pow)):
        return None
    simple = bounded(simplest, ratio, 0.5)
    termwise = sympy.Add(*(sympy.factor(t) if t.is_rational_function() else t for t in sympy.Add.make_args(ratio)))
    candidates = [ratio, simple, termwise]
    candidates += [sympy.Add(*(_trig_factor(t) for t in sympy.Add.make_args(c))) for c in candidates]
    arguments = _arguments(ratio)  # sin(2*x) for sin(x)*cos(x) is an identity a book does not apply
    inner = min(candidates, key=lambda c: score(str(c), trig=True, new_arguments=len(_arguments(c) - arguments)))
    factors = [function, *sympy.Mul.make_args(identities(inner))]
    return sympy.Mul(*([coefficient] if coefficient != 1 else []), *factors, evaluate=False)


def score(text: str, trig: bool = False, new_arguments: int = 0, polynomial: bool = False) -> float:
    """The length of the text (4/5 of it for a polynomial written out), plus WHERE_PENALTY per where and
    NEW_ARGUMENT_PENALTY per function of an argument the derivation does not have; with trig, plus
    TRIG_PENALTY per division by cos, sin or tan (sec, csc and cot were in the question)."""
    divisions = sum(text.count(f"/{f}(") for f in ("cos", "sin", "tan")) if trig else 0
    return (len(text) * (POLYNOMIAL_WEIGHT if polynomial else 1) + WHERE_PENALTY * text.count("where(")
            + NEW_ARGUMENT_PENALTY * new_arguments + TRIG_PENALTY * divisions)


def _expanded_polynomial(expr: Any) -> Any | None:
    symbols = expr.free_symbols
    if not symbols or not expr.is_polynomial(*symbols):
        return None
    expanded = sympy.expand(expr)
    return expanded if expanded.is_Add else None


def oriented(expr: Any, question: Any) -> Any:
    """Each power of a difference written the way the question writes it: d/dx (1+x)/(1-x) is 2/(1 - x)**2,
    not SymPy's 2/(x - 1)**2 (an even power is the same; an odd one takes the sign out)."""
    if not any(p.base.is_Add and p.exp.is_Integer for p in expr.atoms(sympy.Pow)):
        return expr  # nothing to turn: the question is not walked (1,000 partials of a 1,000-term sum stay linear)
    sums = {node for node in sympy.preorder_traversal(question) if node.is_Add}
    turned: set = set()

    def flip(power: Any) -> Any:
        base, n = power.args
        if not (base.is_Add and n.is_Integer) or base in sums or -base not in sums:
            return power
        if n.is_even:
            return (-base) ** n
        turned.add((-base) ** n)
        return -((-base) ** n)

    flipped = expr.replace(lambda e: e.is_Pow, flip)
    if not turned:
        return flipped
    return flipped.replace(lambda e: e.is_Mul and any(f in turned for f in e.args), _sign_into_sum)


def _sign_into_sum(mul: Any) -> Any:
    """-(-x - 1)/(1 - x)**3 as (x + 1)/(1 - x)**3: the minus sign an odd power's turn left, taken into the
    product's one sum."""
    coefficient, factors = mul.as_coeff_mul()
    sums = [f for f in factors if f.is_Add]
    if coefficient != -1 or len(sums) != 1:
        return mul
    return sympy.Mul(*(-f if f is sums[0] else f for f in factors))


def book_form(expr: Any, printer: Callable[[Any], str], *, trig: bool = False, seconds: float = 2.0,
              keep: Callable[[Any], bool] | None = None, function: Any = None, question: Any = None) -> Any:
    """The candidate with the lowest score; `trig` adds sec/csc/cot forms; `keep(candidate)` may refuse one
    (a form SymPy rewrote into complex values); `function`, the expression differentiated (once), adds
    f*(f'/f) when it is a power u**v with both varying; `question`, the function as written, orients the
    differences of the winner's powers as it writes them."""
    best = _best_form(expr, printer, trig, seconds, keep, function)
    if question is None:
        return best
    turned = bounded(lambda e: oriented(e, question), best, seconds / 4)
    if turned is best:
        return best
    try:
        shorter = len(printer(turned)) <= len(printer(best))
    except Exception:
        return best
    return turned if shorter and (keep is None or keep(turned)) else best


def _best_form(expr: Any, printer: Callable[[Any], str], trig: bool, seconds: float,
               keep: Callable[[Any], bool] | None, function: Any) -> Any:
    raw = unmasked(expr)
    base = identities(raw)
    simple = bounded(simplest, base, seconds)
    if base.has(sympy.Piecewise):  # the function's own pieces: SymPy's simplify states them best
        return simple if simple is base or keep is None or keep(simple) else base
    simple = identities(simple)
    candidates = [base]
    if function is not None:  # first of equals: the form logarithmic differentiation gives
        logarithmic = bounded(lambda e: log_derivative_form(e, function, trig), base, seconds / 2)
        if logarithmic is not None and logarithmic is not base:
            candidates.append(logarithmic)
    candidates.append(simple)
    grouped = None
    if _arguments(simple) - _arguments(base):  # simplify wrote sin(2*x) for 2*sin(x)*cos(x): the rules' terms
        grouped = bounded(sympy.factor, base, seconds / 4)  # factored instead, arguments kept
        candidates.append(grouped)
    if not simple.has(sympy.Piecewise):
        factored = bounded(sympy.factor, simple, seconds / 2)
        candidates.append(factored)
        numerator, denominator = sympy.fraction(factored)
        if denominator != 1:  # (1 - x**2)/(x**2 + 1)**2: the numerator written out, the denominator factored
            candidates.append(bounded(sympy.expand, numerator, seconds / 4) / denominator)
    candidates += [bounded(trig_form, c, seconds / 4) for c in (base, simple)
                   if trig or raw.has(sympy.sign)]  # d/dx log(abs(sin(x))) = cot(x)
    if trig:
        candidates.append(bounded(trig_terms, base, seconds / 4))
    polynomial = bounded(_expanded_polynomial, simple, seconds / 4)
    if polynomial is not None and polynomial is not simple:
        candidates.append(polynomial)
    arguments = _arguments(base)
    best, best_score = expr, None
    for original in candidates:
        candidate = bounded(lambda c: identities(as_written(c, arguments)), original, seconds / 8)
        try:
            text = printer(candidate)
        except Exception:
            continue
        value = score(text, trig, len(_arguments(candidate) - arguments), original is polynomial)
        value += GROUPED_PENALTY if original is grouped and original is not base else 0
        if (best_score is None or value < best_score) and (original is base or keep is None or keep(candidate)):
            best, best_score = candidate, value
    return best


def has_trig(expr: Any) -> bool:
    return bool(expr.atoms(sympy.sec, sympy.csc, sympy.cot, sympy.tan))


def step_form(expr: Any, printer: Callable[[Any], str], function: Any = None) -> Any:
    """A rule step's result as a book writes it, quickly (no simplify: the last line simplifies): the masks
    dropped, the identities, sec/csc/cot written back when that is shorter; f*(f'/f) for u**v."""
    base = identities(unmasked(expr))
    if base.has(sympy.Piecewise):
        return base
    candidates = [base, identities(sympy.Add(*(_trig_factor(t) for t in sympy.Add.make_args(base))))]
    if function is not None:
        logarithmic = bounded(lambda e: log_derivative_form(e, function), base, 0.5)
        if logarithmic is not None and logarithmic is not base:
            candidates.append(logarithmic)
    scored = []
    for candidate in candidates:
        try:
            scored.append((score(printer(candidate)), len(scored), candidate))
        except Exception:
            continue
    return min(scored)[2] if scored else base


__all__ = ["NEW_ARGUMENT_PENALTY", "POLYNOMIAL_WEIGHT", "TRIG_PENALTY", "WHERE_PENALTY", "book_form", "bounded",
           "has_trig", "identities", "log_derivative_form", "oriented", "score", "step_form", "trig_form", "unmasked"]
