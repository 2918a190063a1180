"""What a chapter asks of a tangent line beyond the line itself: the normal line, the line's (or Taylor
polynomial's) value at a nearby point (the linear approximation: 3.01^4 from x^4 at 3), and the tangent line of a curve
given implicitly by an equation F(x, y) = 0 (slope -F_x/F_y at a point of the curve).

Numbers from autograd (app.pointwise), exact forms from SymPy when it finds them in time (app.exact)."""

from __future__ import annotations

import math
from typing import Any

from autodiff.app.calculus.pointwise import Function, jump, number
from autodiff.app.calculus.tangent import Taylor, polynomial
from autodiff.engine.errors import BadValueError, UsageError


class Line:
    """A line in the plane, y = formula (None when it is vertical, x = `vertical`), with its exact form."""

    def __init__(self, formula: str | None, exact: str | None = None, vertical: float | None = None,
                 vertical_exact: str | None = None) -> None:
        self.formula = formula
        self.exact = exact
        self.vertical = vertical
        self.vertical_exact = vertical_exact


class Value:
    """The polynomial at a point (the approximation) beside the function there, with the exact forms."""

    def __init__(self, point: dict[str, float], value: float, exact: str | None = None, actual: float | None = None,
                 texts: dict[str, str] | None = None) -> None:
        self.point = point
        self.value = value
        self.exact = exact
        self.actual = actual  # f at the point (autograd), to compare with
        self.texts = {} if texts is None else texts


class Implicit:
    """The tangent line of F(x, y) = 0 at a point of the curve."""

    def __init__(self, equation: str, independent: str, dependent: str, point: dict[str, float], slope: float | None,
                 slope_exact: str | None, tangent: Line, residual: float) -> None:
        self.equation = equation
        self.independent = independent
        self.dependent = dependent
        self.point = point
        self.slope = slope  # dy/dx (None: a vertical tangent)
        self.slope_exact = slope_exact
        self.tangent = tangent
        self.residual = residual  # F at the point (0 on the curve)


def normal(result: Taylor) -> Line:
    """The normal line of a one-variable tangent line: through (a, f(a)), slope -1/f'(a) (x = a when f'(a) = 0)."""
    if len(result.variables) != 1 or result.order != 1:
        raise UsageError("{normal} is the normal line of a curve y = f(x): one variable, order 1",
                         fields=("normal",))
    (name,) = result.variables
    a = result.point[name]
    f, slope = result.shown.get((0,), result.derivatives[(0,)]), result.shown.get((1,), result.derivatives[(1,)])
    exact = result.exact_values
    if slope == 0:
        point = exact.get("point")
        return Line(None, vertical=a, vertical_exact=None if point is None else _text(point))
    m = -1.0 / slope
    line = Line(polynomial({(0,): f - m * a, (1,): m}, result.variables))
    if exact.get("point") is not None and (1,) in exact and (0,) in exact and exact[(1,)] != 0:
        line.exact = _line_text(name, exact["point"], exact[(0,)], -1 / exact[(1,)])
    return line


def evaluate(result: Taylor, at: dict[str, float], texts: dict[str, str], fn: Function) -> Value:
    """The Taylor polynomial (tangent line, plane) at the point `at`, beside f there."""
    value = 0.0
    for monomial, coefficient in result.coefficients.items():
        value += coefficient * math.prod(at[v] ** e for v, e in zip(result.variables, monomial))
    out = Value(at, value, texts=texts)
    try:
        actual = fn.value(at)
        out.actual = actual if math.isfinite(actual) else None
    except Exception:  # the function itself is only a comparison
        out.actual = None
    polynomial_expr = result.exact_values.get("polynomial")
    if polynomial_expr is not None:
        from autodiff.app.symbolic import exact as X

        point = {n: X.exact_number(texts[n]) if n in texts else None for n in result.variables}
        if all(v is not None for v in point.values()):
            found = X.at(polynomial_expr, point, seconds=1.0)
            if not isinstance(found, X.TimedOut) and found is not None:
                out.exact = X.text(found)
    return out


def implicit(fn: Function, equation: str, point: dict[str, float], dependent: str, program: str,
             texts: dict[str, str], exact: bool = True) -> Implicit:
    """The tangent line at the point of the curve F = 0 (fn is F, in the two variables of the point)."""
    if len(fn.variables) != 2 or dependent not in fn.variables:
        raise UsageError("the tangent line of an equation needs a point of the curve in its two variables, e.g. "
                         "x=1 y=2")
    independent = next(v for v in fn.variables if v != dependent)
    partials = fn.partials(point, 1)
    i, j = fn.variables.index(independent), fn.variables.index(dependent)
    unit = [tuple(1 if k == n else 0 for k in range(2)) for n in range(2)]
    residual, fx, fy = partials[(0, 0)], partials[unit[i]], partials[unit[j]]
    where = ", ".join(f"{n} = {number(v, 10)}" for n, v in point.items())
    scale = max(1.0, abs(fx), abs(fy))
    if not all(math.isfinite(v) for v in (residual, fx, fy)):
        raise BadValueError(f"the equation's sides or their derivatives are not defined at {where}",
                            reason="not_defined")
    if abs(residual) > 1e-9 * scale:
        raise BadValueError(f"({where}) is not on the curve {equation}: the two sides differ by {number(residual, 6)}"
                            " there; give a point of the curve", reason="off_curve")
    if fx == 0 and fy == 0:
        raise BadValueError(f"both partial derivatives are 0 at {where}: the curve has no tangent line there (a "
                            "singular point)", reason="singular")
    x0, y0 = point[independent], point[dependent]
    slope = None if fy == 0 else -fx / fy
    line = Line(None, vertical=x0) if slope is None else Line(polynomial({(0,): y0 - slope * x0, (1,): slope},
                                                                           [independent]))
    result = Implicit(equation, independent, dependent, point, slope, None, line, residual)
    if exact:
        _implicit_exact(result, program, texts)
    return result


def _implicit_exact(result: Implicit, program: str, texts: dict[str, str]) -> None:
    from autodiff.app.symbolic import exact as X

    found = X.expression(program)
    names = [result.independent, result.dependent]
    expr = X.with_constants(found[0], names, texts) if found else None
    point = {n: X.exact_number(texts.get(n, "")) for n in names}
    if expr is None or any(v is None for v in point.values()):
        return
    fx, fy = (X.derivative(expr, [n]) for n in names)
    if isinstance(fx, X.TimedOut) or isinstance(fy, X.TimedOut):
        return
    at_x, at_y = X.at(fx, point), X.at(fy, point)
    if isinstance(at_x, X.TimedOut) or isinstance(at_y, X.TimedOut) or at_x is None or at_y is None:
        return
    if at_y == 0:
        result.tangent.vertical_exact = _text(point[result.independent])
        return
    slope = -at_x / at_y
    if result.slope is None or not math.isclose(X.decimal(slope), result.slope, rel_tol=1e-9, abs_tol=1e-12):
        return
    result.slope_exact = X.text(slope)
    result.tangent.exact = _line_text(result.independent, point[result.independent], point[result.dependent], slope)


def implicit_normal(result: Implicit) -> Line:
    """The normal line of an implicit curve at the point: perpendicular to the tangent."""
    x0, y0 = result.point[result.independent], result.point[result.dependent]
    if result.slope is None:
        return Line(polynomial({(0,): y0, (1,): 0.0}, [result.independent]), exact=None)
    if result.slope == 0:
        return Line(None, vertical=x0)
    m = -1.0 / result.slope
    return Line(polynomial({(0,): y0 - m * x0, (1,): m}, [result.independent]))


def _text(value: Any) -> str:
    from autodiff.app.symbolic import exact as X

    return X.text(value)


def _line_text(name: str, a: Any, fa: Any, slope: Any) -> str | None:
    """y = fa + slope*(x - a), expanded, as the language writes it (4/3 - x/3)."""
    import sympy

    from autodiff.app.symbolic import exact as X

    x = X.symbol(name)
    expanded = X.bounded(lambda: sympy.expand(fa + slope * (x - a)), 1.0)
    if isinstance(expanded, X.TimedOut):
        return None
    constant, linear = expanded.subs(x, 0), expanded.coeff(x, 1)
    terms = [t for t in (constant, linear * x) if t != 0]
    if not terms:
        return "0"
    text = X.text(terms[0])
    for term in terms[1:]:
        text += f" - {X.text(-term)}" if term.could_extract_minus_sign() else f" + {X.text(term)}"
    return text


class MeanValue:
    """The Mean Value Theorem on [a, b]: the secant's slope, and the points c in (a, b) where f'(c) equals it."""

    def __init__(self, variable: str, a: float, b: float, slope: float, slope_exact: str | None, points: list[float],
                 exact: list[str | None], notes: list[str], texts: tuple[str, str] = ("", "")) -> None:
        self.variable = variable
        self.a = a
        self.b = b
        self.slope = slope
        self.slope_exact = slope_exact
        self.points = points
        self.exact = exact
        self.notes = notes
        self.texts = texts  # a and b as written (pi)


def mean_value(fn: Function, a: float, b: float, program: str, texts: tuple[str, str], exact: bool = True
               ) -> MeanValue:
    """The c in (a, b) with f'(c) = (f(b) - f(a)) / (b - a): the critical points of f(x) - m*x (app.critical's
    search), exact where SymPy solves f'(x) = m. The theorem needs f continuous on [a, b] and differentiable
    inside: where it is not, that is said (and the points found are still the ones where f' = m)."""
    from autodiff.app.calculus import critical as C

    name = fn.variables[0]
    fa, fb = fn.value({name: a}), fn.value({name: b})
    if not (math.isfinite(fa) and math.isfinite(fb)):
        raise BadValueError(f"f is not defined at an end of [{number(a, 10)}, {number(b, 10)}]: the Mean Value "
                            "Theorem needs f continuous on the closed interval", reason="not_defined")
    m = (fb - fa) / (b - a)
    if abs(m) <= 1e-12 * max(1.0, abs(fa), abs(fb)) / (b - a):
        m = 0.0  # sin on [0, pi]: f(pi) is 1.2e-16, a rounding of 0
    shifted = Function(f"({fn.text}) - ({m!r})*{name}", [name], fn.constants)
    found = C.search(shifted, 1, a, b, C.DEFAULT_POINTS)
    notes = list(found.notes)
    points = []
    for c in C.distinct(found.candidates, 1.0):
        c = 0.0 if abs(c) <= 1e-12 * (b - a) else c
        if not a < c < b:
            continue
        p = fn.partials({name: c}, 1)
        if math.isfinite(p[(1,)]) and abs(p[(1,)] - m) <= 1e-7 * max(1.0, abs(m)):
            points.append(c)
        elif not math.isfinite(p[(1,)]) or jump(fn, {name: c}, name, 1) is not None or abs(p[(1,)]) > 1e6 * max(
                1.0, abs(m)):
            notes.append(f"f is not differentiable at {name} = {number(c, 6)}: the theorem's hypothesis fails "
                         "there, so it promises no c")
    result = MeanValue(name, a, b, m, None, points, [None] * len(points), notes, texts)
    if exact:
        _mean_value_exact(result, program, texts)
    return result


def _mean_value_exact(result: MeanValue, program: str, texts: tuple[str, str]) -> None:
    import sympy

    from autodiff.app.calculus.critical_exact import exact_text
    from autodiff.app.symbolic import exact as X
    from autodiff.app.symbolic.simplest import simplest

    found = X.expression(program)
    ends = [X.exact_number(t) for t in texts]
    if not found or any(e is None for e in ends):
        return
    expr, x = found[0], X.symbol(result.variable)
    values = [X.at(expr, {result.variable: e}, seconds=1.0) for e in ends]
    if any(isinstance(v, X.TimedOut) or v is None for v in values):
        return
    slope = X.bounded(lambda: simplest((values[1] - values[0]) / (ends[1] - ends[0])), 1.0)
    if isinstance(slope, X.TimedOut):
        return
    result.slope_exact = exact_text(slope)
    derivative = X.derivative(expr, [result.variable])
    if isinstance(derivative, X.TimedOut):
        return
    solveset = sympy.solveset
    solutions = X.bounded(lambda: solveset(sympy.Eq(derivative, slope), x, sympy.Interval.open(*ends)), 3.0)
    if not isinstance(solutions, sympy.FiniteSet):
        return
    for s in solutions.args:
        if X.is_real_number(s):
            d = X.decimal(s)
            for i, c in enumerate(result.points):
                if abs(c - d) <= 1e-7 * max(1.0, abs(d)):
                    result.exact[i] = exact_text(s)
__all__ = ["Implicit", "Line", "MeanValue", "Value", "evaluate", "implicit", "implicit_normal", "mean_value", "normal"]
