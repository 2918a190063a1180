"""`autodiff tangent`: the tangent line (plane) of f at a point, or its Taylor polynomial of degree N.

T(x) = sum over the multi-indices a with |a| <= N of D^a f(p) / a! * prod (x_i - p_i)^a_i, expanded into
powers of the variables so that it reads `7 - 4*x` and pastes back into `autodiff eval` and `plot`. The
decimal coefficients come from autograd (app.pointwise); the exact polynomial from SymPy where it finds it
in time (app.exact), checked against autograd's numbers.
"""

from __future__ import annotations

import math
from typing import Any

from autodiff.app.calculus.pointwise import Function, jump, number
from autodiff.app.residue import printed, taylor_scales
from autodiff.engine.errors import AutodiffError, BadValueError, UsageError

MAX_ORDER = 10
Monomial = tuple[int, ...]


class Taylor:
    def __init__(self, variables: list[str], point: dict[str, float], order: int, derivatives: dict[Monomial, float],
                 coefficients: dict[Monomial, float], formula: str, exact: str | None = None,
                 exact_derivatives: dict[Monomial, str] | None = None,
                 exact_coefficients: dict[Monomial, str] | None = None, centered: str | None = None,
                 notes: list[str] | None = None, shown: dict[Monomial, float] | None = None,
                 exact_values: dict[Any, Any] | None = None) -> None:
        self.variables = variables
        self.point = point
        self.order = order
        self.derivatives = derivatives  # D^a f at the point (autograd)
        self.coefficients = coefficients  # of the expanded polynomial, by monomial
        self.formula = formula  # in the language, decimal coefficients
        self.exact = exact  # in the language, from SymPy: coefficient times monomial, as `formula`
        self.exact_derivatives = {} if exact_derivatives is None else exact_derivatives
        # of the expanded polynomial
        self.exact_coefficients = {} if exact_coefficients is None else exact_coefficients
        self.centered = centered  # exact, in powers of (x - a): f(a) + f'(a)*(x - a) + ...
        self.notes = [] if notes is None else notes
        self.shown = {} if shown is None else shown  # the derivatives, residues of 0 as 0 (text)
        # SymPy's: each derivative by monomial, "point" (one variable: a), "polynomial" (app.lines evaluates them)
        self.exact_values = {} if exact_values is None else exact_values


def _poly_mul(a: dict[Monomial, tuple[float, float]], b: dict[Monomial, tuple[float, float]]
              ) -> dict[Monomial, tuple[float, float]]:
    """Product of polynomials whose coefficients carry (value, sum of the absolute values that made it)."""
    out: dict[Monomial, tuple[float, float]] = {}
    for ma, (ca, sa) in a.items():
        for mb, (cb, sb) in b.items():
            m = tuple(x + y for x, y in zip(ma, mb))
            c, s = out.get(m, (0.0, 0.0))
            out[m] = (c + ca * cb, s + sa * sb)
    return out


def expand(derivatives: dict[Monomial, float], point: list[float]) -> dict[Monomial, float]:
    """The Taylor polynomial's coefficients in powers of the variables. A coefficient that is rounding noise
    of the expansion's cancellation (1e-12 of the terms that made it) is 0."""
    n = len(point)
    total: dict[Monomial, tuple[float, float]] = {}
    for alpha, d in derivatives.items():
        term: dict[Monomial, tuple[float, float]] = {(0,) * n: (d / math.prod(math.factorial(a) for a in alpha),
                                                               abs(d) / math.prod(math.factorial(a) for a in alpha))}
        for i, k in enumerate(alpha):  # (x_i - p_i)^k by the binomial theorem
            factor = {}
            for j in range(k + 1):
                c = math.comb(k, j) * (-point[i]) ** (k - j)
                factor[tuple(j if v == i else 0 for v in range(n))] = (c, abs(c))
            term = _poly_mul(term, factor)
        for m, (c, s) in term.items():
            c0, s0 = total.get(m, (0.0, 0.0))
            total[m] = (c0 + c, s0 + s)
    return {m: (0.0 if abs(c) <= 1e-12 * s else c) for m, (c, s) in total.items()}


def polynomial(coefficients: dict[Monomial, float], variables: list[str], digits: int = 12) -> str:
    """`7 - 4*x`, `1 + x + 0.5*x**2`: ascending total degree, zero terms left out."""
    order = sorted(coefficients, key=lambda m: (sum(m), [-e for e in m]))
    parts: list[str] = []
    for m in order:
        c = coefficients[m]
        if c == 0:
            continue
        names = "*".join(v if e == 1 else f"{v}**{e}" for v, e in zip(variables, m) if e)
        magnitude = number(abs(c), digits)
        body = names if names and magnitude == "1" else f"{magnitude}*{names}" if names else magnitude
        sign = "-" if c < 0 else "+"
        parts.append(f"-{body}" if not parts and sign == "-" else body if not parts else f"{sign} {body}")
    return " ".join(parts) if parts else "0"


def taylor(fn: Function, point: dict[str, float], order: int, program: str,
           point_texts: dict[str, str], exact: bool = True) -> Taylor:
    """The Taylor polynomial of degree `order` of fn at the point (order 1: the tangent line or plane)."""
    if not 1 <= order <= MAX_ORDER:
        raise UsageError(f"{{order}} must be between 1 and {MAX_ORDER}, got {order}", fields=("order",))
    derivatives = fn.partials(point, order)
    values = [point[v] for v in fn.variables]
    result = Taylor(fn.variables, point, order, derivatives, {}, "")
    bad = [a for a, d in derivatives.items() if not math.isfinite(d)]
    if bad:
        what = "f" if not any(bad[0]) else "a derivative"
        raise BadValueError(f"{what} is not defined (or not finite) at {_where(point)}: no tangent there "
                         "(try a point nearby, or autodiff limit)")
    for name in fn.variables:
        for k in range(1, order + 1):
            sides = jump(fn, point, name, k)
            if sides is not None:
                lower, this = _name(fn, name, k - 1), _name(fn, name, k)
                raise BadValueError(
                    f"{lower} is not differentiable at {_where(point)}: {this} is {number(sides[0], 6)} on the left "
                    f"and {number(sides[1], 6)} on the right, so there is no "
                    f"{'tangent' if order == 1 else 'Taylor polynomial of degree ' + str(order)} there (autograd's "
                    f"value at the point, {number(derivatives[_unit(fn, name, k)], 6)}, is a convention, as PyTorch's)",
                    reason="not_differentiable")
    result.shown = shown(fn, point, derivatives, values)
    result.coefficients = expand(result.shown, values)
    result.formula = polynomial(result.coefficients, fn.variables)
    if exact:
        _exact(result, program, point_texts)
    return result


def shown(fn: Function, point: dict[str, float], derivatives: dict[Monomial, float], values: list[float]
          ) -> dict[Monomial, float]:
    """The derivatives as text shows them, rounding residues of 0 as 0 (app.residue), their scales from the
    derivatives of one order more (when they can be had)."""
    order = max(map(sum, derivatives))
    try:
        more = fn.partials(point, order + 1)
    except AutodiffError:
        more = derivatives
    scales = taylor_scales(more, values)
    return {a: printed(d, scales[a]) for a, d in derivatives.items()}


def _name(fn: Function, name: str, k: int) -> str:
    """f, f', f'' (one variable); f, f_x, f_xx (several)."""
    if k == 0:
        return "f"
    if len(fn.variables) == 1:
        return "f" + "'" * k if k <= 3 else f"f^({k})"
    return "f_" + name * k


def _unit(fn: Function, name: str, k: int) -> Monomial:
    return tuple(k if v == name else 0 for v in fn.variables)


def _where(point: dict[str, float]) -> str:
    return ", ".join(f"{n} = {number(v, 10)}" for n, v in point.items())


def _exact(result: Taylor, program: str, point_texts: dict[str, str]) -> None:
    """The same polynomial from SymPy (exact derivatives at the exact point), when every derivative is found
    in time and agrees with autograd's."""
    from autodiff.app.symbolic import exact as X

    found = X.expression(program, result.variables)  # declared: no need to ask every built-in (as limits._exact)
    if not found:
        result.notes.append(f"no exact form: {found.reason}")
        return
    expr = X.with_constants(found[0], result.variables, point_texts)
    if expr is None:
        result.notes.append("no exact form: a constant is not an exact number")
        return
    point = {n: X.exact_number(point_texts.get(n, "")) for n in result.variables}
    if any(v is None for v in point.values()):
        result.notes.append("no exact form: the point is not an exact number")
        return
    symbols = [X.symbol(v) for v in result.variables]
    if len(point) == 1:
        result.exact_values["point"] = next(iter(point.values()))
    centered_terms = []
    for alpha, number_ in result.derivatives.items():
        names = [v for v, k in zip(result.variables, alpha) for _ in range(k)]
        d = X.derivative(expr, names) if names else expr
        value = d if isinstance(d, X.TimedOut) else X.at(d, point)
        if isinstance(value, X.TimedOut) or value is None:
            result.notes.append("no exact form: " + (value.reason if isinstance(value, X.TimedOut) else
                                                     "SymPy finds no real value there"))
            return
        if not math.isclose(X.decimal(value), number_, rel_tol=1e-8, abs_tol=1e-10):
            result.notes.append(f"no exact form: SymPy's {X.text(value)} disagrees with autograd's {number_!r}")
            return
        result.exact_derivatives[alpha] = X.text(value)
        result.exact_values[alpha] = value
        coefficient = value / math.prod(math.factorial(a) for a in alpha)
        term = coefficient
        for s, k, p in zip(symbols, alpha, point.values()):
            term = term * (s - p) ** k
        centered_terms.append((alpha, coefficient, term))
    _exact_polynomial(result, symbols, point, centered_terms)


def _exact_polynomial(result: Taylor, symbols: list, point: dict, terms: list[tuple[Monomial, Any, Any]]) -> None:
    """The exact polynomial: its coefficients by monomial (each simplified as a book writes it: (pi + 4)*sqrt(2)
    /8), written as `formula` is, and the centered form f(a) + f'(a)*(x - a) + ... (a term per derivative)."""
    import sympy

    from autodiff.app.symbolic import exact as X

    expanded = X.bounded(lambda: sympy.Poly(sympy.expand(sympy.Add(*(t for _, _, t in terms))), *symbols).terms())
    if isinstance(expanded, X.TimedOut):
        result.notes.append(f"no exact form: {expanded.reason}")
        return
    coefficients: dict[Monomial, Any] = {}
    for monomial, coefficient in expanded:
        tidy = X.bounded(lambda c=coefficient: sympy.factor_terms(sympy.together(c)), 1.0)
        coefficients[tuple(monomial)] = coefficient if isinstance(tidy, X.TimedOut) else tidy
    result.exact_coefficients = {m: X.text(c) for m, c in coefficients.items()}
    result.exact_values["polynomial"] = sympy.Add(*(c * sympy.Mul(*(s**e for s, e in zip(symbols, m)))
                                                    for m, c in coefficients.items()))
    result.exact = _sum_text([coefficients[m] * sympy.Mul(*(s**e for s, e in zip(symbols, m)))
                              for m in _ordered(coefficients)])
    result.centered = _centered(terms, symbols, list(point.values()))


def _ordered(coefficients: dict[Monomial, Any]) -> list[Monomial]:
    return sorted(coefficients, key=lambda m: (sum(m), [-e for e in m]))


def _centered(terms: list[tuple[Monomial, Any, Any]], symbols: list, point: list) -> str:
    """f(a) + f'(a)*(x - a) + f''(a)/2*(x - a)**2 ...: each coefficient as SymPy writes it times the powers of
    (x - a), a book's sqrt(2)*(x - pi/4)**2/4, 10*(x - 2), (x + 1)."""
    import sympy

    from autodiff.app.symbolic.printing import to_book

    stand_in = sympy.Symbol("TAYLORPOWERS")
    parts: list[str] = []
    for m, c, _ in terms:
        if c == 0:
            continue
        powers = "*".join((f"({to_book(s - p)})" if p != 0 else str(s)) + (f"**{k}" if k > 1 else "")
                          for s, k, p in zip(symbols, m, point) if k)
        negative = bool(parts) and c.could_extract_minus_sign()
        size = -c if negative else c
        text = to_book(size * stand_in).replace("TAYLORPOWERS", powers) if powers else to_book(size)
        if powers and size == 1:
            text = powers
        parts.append(text if not parts else f"- {text}" if negative else f"+ {text}")
    return " ".join(parts) if parts else "0"


def _sum_text(terms: list[Any]) -> str:
    """t0 + t1 - t2 ...: each term as SymPy writes a product (x/4, sqrt(2)*(x - pi/4)**2/4), in this order."""
    from autodiff.app.symbolic import exact as X

    parts: list[str] = []
    for term in terms:
        if term == 0:
            continue
        negative = bool(parts) and term.could_extract_minus_sign()
        text = X.text(-term if negative else term)
        parts.append(text if not parts else f"- {text}" if negative else f"+ {text}")
    return " ".join(parts) if parts else "0"


__all__ = ["MAX_ORDER", "Taylor", "expand", "polynomial", "taylor"]
