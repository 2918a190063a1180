"""`autodiff tangent`: the tangent line (plane) or Taylor polynomial of a program at a point (app.tangent).
SymPy is imported when the command runs, never at start-up."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.calculus import choose, decimal, read_bindings, sympy_first, write_json
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    at_option,
    engine_options,
    exact_option,
    format_option,
    normal_option,
    order_option,
    program_options,
    wrt_option,
)

EPILOG = """\b
Examples (textbook exercises):
  autodiff tangent 'x**3 - 2*x + 1' x=2          the tangent line of y = x^3 - 2x + 1 at x = 2
  autodiff tangent 'sqrt(x)' x=4                 linear approximation of sqrt(4.1): eval the line at 4.1
  autodiff tangent 'exp(x)' x=0 --order 3        Taylor polynomial of degree 3 of e^x about 0
  autodiff tangent 'x**2 + y**2' x=1 y=2         the tangent plane of z = x^2 + y^2 at (1, 2)
  autodiff tangent 'x^4' x=3 --at 3.01           the linear approximation of 3.01^4: 82.08
  autodiff tangent 'sqrt x' x=4 --normal         the tangent and the normal line
  autodiff tangent 'x^2 + 2xy - y^2 + x = 2' x=1 y=2   the tangent line of a curve given by an equation
  autodiff tangent 'x^3 - x' x=0:2               the Mean Value Theorem's c on [0, 2]
"""


@click.command("tangent", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The tangent line (plane) or Taylor polynomial at a point.")
@program_options
@order_option("The degree of the Taylor polynomial (1: the tangent line or plane).")
@wrt_option()
@normal_option()
@at_option()
@exact_option()
@format_option()
@engine_options("float64")
def tangent_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The tangent line of PROGRAM at NAME=VALUE, y = f(a) + f'(a)(x - a), written in the language so it
    pastes back into `autodiff eval` and `plot`; with two variables the tangent plane, with --order N the
    Taylor polynomial of degree N. Decimal coefficients from autograd (float64), the exact form from SymPy
    when it finds one. An equation (x^2 + y^2 = 25 at x=3 y=4) is a curve: its tangent line, slope
    -F_x/F_y. --normal adds the normal line, --at X the line's value at X (the linear approximation). An
    interval NAME=A:B asks for the Mean Value Theorem: the secant's slope and each c in (A, B) where f'(c) is it."""
    from autodiff.app.calculus import lines
    from autodiff.app.calculus.pointwise import Function
    from autodiff.app.calculus.tangent import taylor
    from autodiff.cli.commandline import output_format
    from autodiff.cli.output.text import prose
    from autodiff.cli.reading import read_math
    from autodiff.engine.errors import UsageError

    sympy_first(not options["no_exact"])
    reading, assignments = read_math(program, file, assignments, options)
    text = reading.program
    bindings = read_bindings(assignments, options, intervals=True)
    output = output_format(options["output_format"])
    if bindings.intervals:  # x=a:b: the secant over [a, b] and the Mean Value Theorem's c
        from autodiff.cli.output.tangent_text import mean_value_document, mean_value_text

        result = _mean_value(text, bindings, options)
        write_json(mean_value_document(result)) if output == "json" else \
            sys.stdout.write(prose(mean_value_text(text, result), output == "pretty"))
        return 0
    names = choose(bindings.point, options["wrt"], bindings, "point")
    if not names:
        raise UsageError("give the point, e.g. x=2 (and y=1 for a tangent plane)")
    fn = Function(text, names, bindings.constants)
    if reading.equation is not None:
        from autodiff.cli.output.tangent_text import implicit_document, implicit_text

        equation = " = ".join(reading.equation)
        curve = lines.implicit(fn, equation, bindings.point, "y" if "y" in names else names[-1], text,
                               bindings.texts, exact=not options["no_exact"])
        normal = lines.implicit_normal(curve) if options["normal"] else None
        at = _at(options["at"], [curve.independent], bindings.texts)
        value = None if at is None else _implicit_at(curve, at)
        write_json(implicit_document(curve, normal, value)) if output == "json" else \
            sys.stdout.write(prose(implicit_text(curve, normal, value), output == "pretty"))
        return 0
    result = taylor(fn, bindings.point, options["order"], text, bindings.texts, exact=not options["no_exact"])
    normal = lines.normal(result) if options["normal"] else None
    at = _at(options["at"], names, {})
    value = None if at is None else lines.evaluate(result, at[0], at[1], fn)
    if output == "json":
        document = _document(result)
        if normal is not None:
            document["normal"] = _line_document(normal)
        if value is not None:
            document["at"] = _value_document(value)
        write_json(document)
    else:
        sys.stdout.write(prose(_text(text, result, bindings.texts, normal, value), output == "pretty"))
    return 0


def _mean_value(text: str, bindings: Any, options: dict[str, Any]) -> Any:
    from autodiff.app.calculus.lines import mean_value
    from autodiff.app.calculus.pointwise import Function
    from autodiff.engine.errors import UsageError

    if len(bindings.intervals) != 1 or bindings.point or options["order"] != 1:
        raise UsageError("an interval x=A:B asks for the Mean Value Theorem's c on [A, B]: one variable, no point, "
                         "order 1 (or give a point, x=A, for the tangent line there)")
    ((name, (a, b)),) = bindings.intervals.items()
    fn = Function(text, [name], bindings.constants)
    return mean_value(fn, a, b, text, bindings.interval_texts[name], exact=not options["no_exact"])


def _at(text: str | None, names: list[str], texts: dict[str, str]) -> tuple[dict[str, float], dict[str, str]] | None:
    """--at 3.01 (one variable) or --at x=1.1,y=1.9: the point and each coordinate as written."""
    from autodiff.app.textbook.notation import read
    from autodiff.cli.calculus import scalar
    from autodiff.cli.commandline import binding_value
    from autodiff.engine.errors import UsageError

    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")] if "=" in text else [text.strip()]
    written: dict[str, str] = {}
    for part in parts:
        name, _, value = part.rpartition("=")
        name = name.strip() or (names[0] if len(names) == 1 else "")
        if name not in names:
            raise UsageError(f"--at {text}: give " + ("a number" if len(names) == 1 else "every variable, e.g. "
                             + ",".join(f"{n}=1" for n in names)))
        written[name] = read(value).program
    if set(written) != set(names):
        raise UsageError(f"--at {text}: give every variable ({', '.join(names)})")
    point = {n: scalar(binding_value(n, v, None), f"--at {n}") for n, v in written.items()}
    return point, written


def _implicit_at(curve: Any, at: tuple[dict[str, float], dict[str, str]]) -> Any:
    from autodiff.app.calculus.lines import Value

    x = at[0][curve.independent]
    if curve.slope is None:
        return None
    y = curve.point[curve.dependent] + curve.slope * (x - curve.point[curve.independent])
    return Value(at[0], y, texts=at[1])


def _line_document(line: Any) -> dict[str, Any]:
    from autodiff.cli.calculus import json_number

    return {"formula": line.formula, "exact": line.exact, "vertical": json_number(line.vertical),
            "vertical_exact": line.vertical_exact}


def _value_document(value: Any) -> dict[str, Any]:
    from autodiff.cli.calculus import json_number

    return {"point": {n: json_number(v) for n, v in value.point.items()}, "value": json_number(value.value),
            "exact": value.exact, "function": json_number(value.actual)}


COMMANDS = [tangent_command]


def _lhs(variables: list[str]) -> str:
    name = "y" if len(variables) == 1 else "z" if len(variables) == 2 else "w"
    return name if name not in variables else "f"


def _what(result: Any) -> str:
    n = len(result.variables)
    if result.order == 1:
        return "tangent line" if n == 1 else "tangent plane" if n == 2 else "tangent hyperplane"
    return f"Taylor polynomial of degree {result.order}"


def _label(alpha: tuple[int, ...], variables: list[str]) -> str:
    """f, f', f'', f^(4) for one variable; f_x, f_xy, ... for several."""
    k = sum(alpha)
    if len(variables) == 1:
        return "f" if k == 0 else "f" + "'" * k if k <= 3 else f"f^({k})"
    return "f" if k == 0 else "f_" + "".join(v * e for v, e in zip(variables, alpha))


def _text(program: str, result: Any, texts: dict[str, str], normal: Any = None, approximation: Any = None) -> str:
    where = ", ".join(f"{n} = {texts.get(n, decimal(v))}" for n, v in result.point.items())
    args = ", ".join(texts.get(n, decimal(v)) for n, v in result.point.items())
    lines = [f"{_what(result)} of {program} at {where}"]
    for alpha, value in (result.shown or result.derivatives).items():  # residues of 0 as 0 (app.residue)
        exact = result.exact_derivatives.get(alpha)
        shown = f"{exact}  ({decimal(value)})" if exact is not None and exact != decimal(value) else decimal(value)
        lines.append(f"  {_label(alpha, result.variables)}({args}) = {shown}")
    lhs = _lhs(result.variables)
    lines.append(f"  {lhs} = {result.formula}")
    if result.exact is not None:
        lines.append(f"  exact: {lhs} = {result.exact}")
        if result.centered is not None and result.centered != result.exact:
            lines.append(f"  {' ' * len('exact: ' + lhs)} = {result.centered}")
    if normal is not None:
        from autodiff.cli.output.tangent_text import line_text

        lines.append(f"  normal line: {line_text(normal, lhs, result.variables[0])}")
    if approximation is not None:
        from autodiff.cli.output.tangent_text import value_text

        lines.append(f"  {value_text(approximation, 'L' if result.order == 1 else 'T')}")
    lines += [f"  note: {n}" for n in result.notes]
    lines.append("derivatives by autograd (float64)" + ("; exact form by SymPy" if result.exact is not None else ""))
    return "\n".join(lines) + "\n"


def _document(result: Any) -> dict[str, Any]:
    from autodiff.cli.calculus import json_number

    def monomial(m: tuple[int, ...]) -> dict[str, int]:
        return {v: e for v, e in zip(result.variables, m) if e}

    return {"variables": result.variables, "point": {n: json_number(v) for n, v in result.point.items()},
            "order": result.order, "formula": result.formula, "exact": result.exact, "centered": result.centered,
            "coefficients": _coefficients(result, monomial),
            "derivatives": [{"powers": monomial(a), "value": json_number(d),
                             "exact": result.exact_derivatives.get(a)} for a, d in result.derivatives.items()],
            "notes": result.notes}


def _coefficients(result: Any, monomial: Any) -> list[dict[str, Any]]:
    """{"powers": {"x": 2}, "value": c} per monomial of the polynomial (the constant's powers are {}), in
    degree order, in one variable as in several: [{"powers": {}, ...}, {"powers": {"x": 1}, ...}, ...]."""
    from autodiff.cli.calculus import json_number

    if len(result.variables) == 1:
        ordered = [((k,), result.coefficients.get((k,), 0.0)) for k in range(result.order + 1)]
    else:
        ordered = sorted(result.coefficients.items(), key=lambda mc: (sum(mc[0]), [-e for e in mc[0]]))
    return [{"powers": monomial(m), "value": json_number(c),
             "exact": result.exact_coefficients.get(m, "0" if result.exact_coefficients else None)} for m, c in ordered]


