"""`autodiff tangent`'s other answers in words and JSON: the normal line, the line's value near the point (the
linear approximation), and the tangent line of a curve given by an equation (app.lines)."""

from __future__ import annotations

from typing import Any

from autodiff.cli.calculus import decimal, json_number


def line_text(line: Any, lhs: str, variable: str) -> str:
    """y = 3 - x/2 (exact: ...), or x = 2 for a vertical line."""
    if line.formula is None:
        return f"{variable} = {line.vertical_exact or decimal(line.vertical)}  (vertical)"
    exact = f"  (exact: {lhs} = {line.exact})" if line.exact is not None and line.exact != line.formula else ""
    return f"{lhs} = {line.formula}{exact}"


def value_text(value: Any, name: str) -> str:
    """L(3.01) = 82.08  (f(3.01) = 82.085...: the approximation is off by 0.0054)."""
    args = ", ".join(value.texts.get(n, decimal(v)) for n, v in value.point.items())
    shown = decimal(value.value)
    notes = [f"exactly {value.exact}"] if value.exact is not None and value.exact != shown else []
    if value.actual is not None:
        off = decimal(abs(value.actual - value.value), 4)
        notes.append(f"the function there: {decimal(value.actual)}, off by {off}")
    return f"{name}({args}) = {shown}" + (f"  ({'; '.join(notes)})" if notes else "")


def implicit_text(curve: Any, normal: Any, value: Any) -> str:
    where = ", ".join(f"{n} = {decimal(v)}" for n, v in curve.point.items())
    x, y = curve.independent, curve.dependent
    slope = "not defined (a vertical tangent)" if curve.slope is None else (
        f"{curve.slope_exact}  ({decimal(curve.slope)})" if curve.slope_exact not in (None, decimal(curve.slope))
        else decimal(curve.slope))
    lines = [f"tangent line of the curve {curve.equation} at {where}",
             f"  d{y}/d{x} = -F_{x}/F_{y} = {slope}",
             f"  tangent line: {line_text(curve.tangent, y, x)}"]
    if normal is not None:
        lines.append(f"  normal line: {line_text(normal, y, x)}")
    if value is not None:
        lines.append(f"  {value_text(value, 'L')}")
    lines.append(f"derivatives by autograd (float64), F = the left side minus the right side, {y} a function of {x}"
                 + ("; exact form by SymPy" if curve.tangent.exact is not None else ""))
    return "\n".join(lines) + "\n"


def implicit_document(curve: Any, normal: Any, value: Any) -> dict[str, Any]:
    def line(one: Any) -> dict[str, Any]:
        return {"formula": one.formula, "exact": one.exact, "vertical": json_number(one.vertical),
                "vertical_exact": one.vertical_exact}

    x0, y0 = curve.point[curve.independent], curve.point[curve.dependent]
    vertical = curve.slope is None
    coefficients = [] if vertical else [{"powers": {}, "value": json_number(y0 - curve.slope * x0)},
                                        {"powers": {curve.independent: 1}, "value": json_number(curve.slope)}]
    document = {"variables": [curve.independent, curve.dependent],
                "point": {n: json_number(v) for n, v in curve.point.items()}, "order": 1,
                "formula": f"{curve.independent} = {decimal(x0)}" if vertical else curve.tangent.formula,
                "exact": curve.tangent.exact, "centered": None, "coefficients": coefficients, "derivatives": [],
                "notes": [], "equation": curve.equation, "slope": json_number(curve.slope),
                "slope_exact": curve.slope_exact, "tangent": line(curve.tangent)}
    if normal is not None:
        document["normal"] = line(normal)
    if value is not None:
        document["at"] = {"point": {n: json_number(v) for n, v in value.point.items()},
                          "value": json_number(value.value), "exact": value.exact, "function": None}
    return document


def mean_value_text(program: str, result: Any) -> str:
    x = result.variable
    slope = decimal(result.slope)
    slope = slope if result.slope_exact in (None, slope) else f"{result.slope_exact}  ({slope})"
    a, b = (text or decimal(v) for text, v in zip(result.texts, (result.a, result.b)))
    lower = f"({a})" if a.startswith("-") else a
    lines = [f"Mean Value Theorem for {program} on [{a}, {b}]",
             f"  secant slope (f({b}) - f({a}))/({b} - {lower}) = {slope}"]
    for c, exact in zip(result.points, result.exact):
        shown = decimal(c) if exact in (None, decimal(c)) else f"{exact}  ({decimal(c)})"
        lines.append(f"  c = {shown}: f'(c) = the secant slope")
    if not result.points:
        lines.append("  no c in the open interval where f'(c) is the secant slope")
    lines += [f"note: {n}" for n in result.notes]
    lines.append(f"f' by autograd (float64): f'({x}) = slope solved on a grid of 2,001 points, refined by Newton's "
                 "method" + ("; exact by SymPy" if any(result.exact) or result.slope_exact else ""))
    return "\n".join(lines) + "\n"


def mean_value_document(result: Any) -> dict[str, Any]:
    return {"variables": [result.variable], "point": {}, "order": 1, "formula": "", "exact": None, "centered": None,
            "coefficients": [], "derivatives": [], "notes": result.notes,
            "mean_value": {"interval": [json_number(result.a), json_number(result.b)],
                           "slope": json_number(result.slope), "slope_exact": result.slope_exact,
                           "c": [{"value": json_number(c), "exact": e} for c, e in zip(result.points, result.exact)]}}


__all__ = ["implicit_document", "implicit_text", "line_text", "mean_value_document", "mean_value_text", "value_text"]
