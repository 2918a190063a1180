"""`autodiff gradient`: the gradient of f at a point, its norm, the direction of steepest ascent and the
directional derivative along a direction; the formulas (and exact values) from SymPy with `symbolic`.

The numbers are autograd's (app.pointwise, float64); SymPy is used only when the formulas are asked for."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from autodiff.app.pointwise import Function, jump, number
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
    if result.directions:
        result.direction, result.directional = result.directions[0]
    for name in fn.variables:
        sides = jump(fn, point, name, 1)
        if sides is not None:
            result.notes.append(f"f is not differentiable in {name} here: d/d{name} is {number(sides[0], 6)} on the "
                                f"left and {number(sides[1], 6)} on the right (autograd's "
                                f"{number(grad[name], 6)} is a convention, as PyTorch's)")
    return result


def formulas(result: Gradient, program: str, texts: dict[str, str]) -> None:
    """The gradient's formulas and their exact values at the point, from SymPy (bounded in time)."""
    import sympy

    from autodiff.app import exact as X

    found = X.expression(program)
    if not found:
        result.notes.append(f"no formulas: {found.reason}")
        return
    expr = X.with_constants(found[0], result.variables, texts)
    if expr is None:
        result.notes.append("no formulas: a constant is not an exact number")
        return
    point = {n: X.exact_number(texts.get(n, "")) for n in result.variables}
    for name in result.variables:
        d = X.derivative(expr, [name])
        if isinstance(d, X.TimedOut):
            result.notes.append(f"no formula for d/d{name}: {d.reason}")
            continue
        simple = X.bounded(lambda d=d: sympy.simplify(d))
        result.formulas[name] = X.text(d if isinstance(simple, X.TimedOut) else simple)
        if all(v is not None for v in point.values()):
            value = X.at(d, point)
            if not isinstance(value, X.TimedOut) and value is not None:
                result.exact[name] = X.text(value)


__all__ = ["Gradient", "formulas", "gradient"]
