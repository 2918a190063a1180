"""`autodiff gradient`: the gradient of f at a point, its norm, the direction of steepest ascent and the
directional derivative along a direction; the formulas (and exact values) from SymPy with `symbolic`.

The numbers are autograd's (app.pointwise, float64); SymPy is used only when the formulas are asked for."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from autodiff.app.calculus.pointwise import Function, jump, number
from autodiff.engine.errors import BadValueError, UsageError


@dataclass
class Gradient:
    variables: list[str]
    point: dict[str, float]
    value: float
    gradient: dict[str, float]
    norm: float
    ascent: dict[str, float] | None  # the unit vector of steepest ascent (None where the gradient is 0)
    direction: dict[str, float] | None = None  # the given direction, normalised
    directional: float | None = None  # the gradient . direction
    directions: list[tuple[dict[str, float], float]] = field(default_factory=list)  # every one asked, with its rate
    given_directions: list[list[float]] = field(default_factory=list)  # as given (exact rates from whole numbers)
    exact_norm: str | None = None  # from SymPy: sqrt(129)
    exact_directional: list[str | None] = field(default_factory=list)  # each direction's rate, exactly
    formulas: dict[str, str] = field(default_factory=dict)  # d f / d name, in the language (symbolic)
    exact: dict[str, str] = field(default_factory=dict)  # its exact value at the point (symbolic)
    notes: list[str] = field(default_factory=list)


def gradient(fn: Function, point: dict[str, float], direction: list[float] | list[list[float]] | None = None
             ) -> Gradient:
    """The gradient at the point (and the directional derivative along each direction, normalised: one
    direction, or a list of them)."""
    partials = fn.partials(point, 1)
    n = len(fn.variables)
    grad = {v: partials[tuple(1 if k == i else 0 for k in range(n))] for i, v in enumerate(fn.variables)}
    value = partials[(0,) * n]
    if not all(math.isfinite(g) for g in (value, *grad.values())):
        where = ", ".join(f"{v} = {number(x, 10)}" for v, x in point.items())
        raise BadValueError(f"f or its gradient is not defined (or not finite) at {where}: "
                            f"f = {number(value, 6)}, gradient ({', '.join(number(g, 6) for g in grad.values())})",
                            reason="not_defined")
    norm = math.sqrt(sum(g * g for g in grad.values()))
    ascent = {v: g / norm for v, g in grad.items()} if norm > 0 else None
    result = Gradient(fn.variables, point, value, grad, norm, ascent)
    many = [] if direction is None else direction if direction and isinstance(direction[0], list) else [direction]
    for one in many:
        if len(one) != n:
            raise UsageError(f"{{direction}} has {len(one)} components; the gradient has {n} "
                             f"({', '.join(fn.variables)})", fields=("direction",))
        length = math.sqrt(sum(d * d for d in one))
        if not math.isfinite(length) or length == 0:
            raise UsageError("{direction} must be a nonzero vector of finite numbers, e.g. {direction} 3,4",
                             fields=("direction",))
        unit = {v: d / length for v, d in zip(fn.variables, one)}
        result.directions.append((unit, sum(grad[v] * unit[v] for v in fn.variables)))
        result.given_directions.append(list(one))
    if result.directions:
        result.direction, result.directional = result.directions[0]
    for name in fn.variables:
        sides = jump(fn, point, name, 1)
        if sides is not None:
            result.notes.append(f"f is not differentiable in {name} here: d/d{name} is {number(sides[0], 6)} on the "
                                f"left and {number(sides[1], 6)} on the right (autograd's "
                                f"{number(grad[name], 6)} is a convention, as PyTorch's)")
    return result


def formulas(result: Gradient, program: str, texts: dict[str, str], written: bool = True) -> None:
    """The gradient's exact values at the point (and its norm's, each directional derivative's), from SymPy
    (bounded in time); with `written`, the partial derivatives' formulas too."""
    from autodiff.app.symbolic import exact as X
    from autodiff.app.symbolic.simplest import simplest

    found = X.expression(program)
    if not found:
        result.notes.append(f"no {'formulas' if written else 'exact values'}: {found.reason}")
        return
    expr = X.with_constants(found[0], result.variables, texts)
    if expr is None:
        result.notes.append(f"no {'formulas' if written else 'exact values'}: a constant is not an exact number")
        return
    point = {n: X.exact_number(texts.get(n, "")) for n in result.variables}
    values = {}
    for name in result.variables:
        d = X.derivative(expr, [name])
        if isinstance(d, X.TimedOut):
            result.notes.append(f"no formula for d/d{name}: {d.reason}")
            continue
        if written:
            simple = X.bounded(lambda d=d: simplest(d))
            result.formulas[name] = X.text(d if isinstance(simple, X.TimedOut) else simple)
        if all(v is not None for v in point.values()):
            value = X.at(d, point)
            if not isinstance(value, X.TimedOut) and value is not None:
                result.exact[name] = X.text(value)
                values[name] = value
    if len(values) == len(result.variables):
        _exact_norm(result, values)


def _exact_norm(result: Gradient, values: dict) -> None:
    """|grad f| exactly (sqrt(129), not 11.3578), and each directional derivative along a direction given in
    whole numbers, exactly too, when they agree with the numbers."""
    import sympy

    from autodiff.app.symbolic import exact as X

    norm = X.bounded(lambda: sympy.nsimplify(sympy.sqrt(sum(v**2 for v in values.values()))), 1.0)
    if not isinstance(norm, X.TimedOut) and math.isclose(X.decimal(norm), result.norm, rel_tol=1e-9, abs_tol=1e-12):
        result.exact_norm = X.text(norm)
    for given, (_, rate) in zip(result.given_directions, result.directions):
        if not all(float(c).is_integer() for c in given):
            result.exact_directional.append(None)
            continue
        whole = [sympy.Integer(int(c)) for c in given]
        length = sympy.sqrt(sum(c**2 for c in whole))
        exact = X.bounded(lambda w=whole, n=length: sympy.radsimp(sum(values[v] * c for v, c in
                                                                      zip(result.variables, w)) / n), 1.0)
        ok = not isinstance(exact, X.TimedOut) and math.isclose(X.decimal(exact), rate, rel_tol=1e-9, abs_tol=1e-12)
        result.exact_directional.append(X.text(exact) if ok else None)


__all__ = ["Gradient", "formulas", "gradient"]
