"""`autodiff gradient`: the gradient at a point, its norm, the steepest ascent and a directional derivative
(app.gradient). SymPy is imported when the command runs (for the exact values; --no-exact: numbers only)."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.calculus import choose, decimal, json_number, read_bindings, sympy_first, write_json
from autodiff.cli.commandline import output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    engine_options,
    exact_option,
    format_option,
    option,
    program_options,
    symbolic_option,
    wrt_option,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples (textbook exercises):
  autodiff gradient 'x**2*y + y**3' x=1 y=2                      the gradient of f(x, y) = x^2 y + y^3 at (1, 2)
  autodiff gradient 'x*exp(y)' x=2 y=0 --direction 3,4           the directional derivative along (3, 4)
  autodiff gradient 'x*y' x=1 y=2 --direction 1,0 --direction 1,1  along each of two directions
  autodiff gradient 'x**2 + y**2 + z**2' x=1 y=1 z=1 --symbolic  with the formulas
"""


@click.command("gradient", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The gradient, steepest ascent and directional derivative at a point.")
@program_options
@option("--direction", metavar="A,B,...", multiple=True,
        help="A direction (normalised): the directional derivative along it (repeatable: one for each).")
@symbolic_option()
@exact_option()
@wrt_option()
@format_option()
@engine_options("float64")
def gradient_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The gradient of PROGRAM at the point NAME=VALUE ..., its norm, the direction of steepest ascent and,
    with --direction, the directional derivative along that (normalised) direction, all by autograd in
    float64."""
    from autodiff.app.calculus.gradient import formulas, gradient
    from autodiff.app.calculus.pointwise import Function
    from autodiff.engine.errors import UsageError

    sympy_first(options["symbolic"] or not options["no_exact"])
    text, assignments = read_formula(program, file, assignments, options, "gradient")
    bindings = read_bindings(assignments, options)
    names = choose(bindings.point, options["wrt"], bindings, "point")
    if not names:
        raise UsageError("give the point, e.g. x=1 y=2")
    directions = [_direction(d) for d in options["direction"]]
    result = gradient(Function(text, names, bindings.constants), bindings.point, directions or None)
    if options["symbolic"] or not options["no_exact"]:
        formulas(result, text, bindings.texts, written=options["symbolic"])
    if output_format(options["output_format"]) == "json":
        write_json(_document(result))
    else:
        from autodiff.cli.output.text import prose

        pretty = output_format(options["output_format"]) == "pretty"
        sys.stdout.write(prose(_text(text, result, bindings.texts), pretty))
    return 0


COMMANDS = [gradient_command]


def _direction(text: str) -> list[float]:
    from autodiff.app.session import constant
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    source = text.strip()
    value = constant(source if source.startswith("[") else f"[{source}]", "--direction")
    import numpy as np

    try:
        data = np.asarray(value.numpy(force=True) if isinstance(value, Tensor) else value, dtype=np.float64)
    except (TypeError, ValueError):
        data = None
    if data is None or data.ndim != 1:
        raise UsageError(f"--direction {text!r}: give the components, e.g. --direction 3,4")
    return [float(v) for v in data]


def _vector(values: dict[str, float]) -> str:
    return "(" + ", ".join(decimal(v) for v in values.values()) + ")"


def _text(program: str, result: Any, texts: dict[str, str]) -> str:
    from autodiff.app.residue import point_scales, printed

    value_scale, scale = point_scales(result.point, result.gradient)  # what prints as 0 (app.residue)
    gradient = {n: printed(g, scale) for n, g in result.gradient.items()}
    where = ", ".join(f"{n} = {texts.get(n, decimal(v))}" for n, v in result.point.items())
    lines = [f"gradient of {program} at {where}", f"  f = {decimal(printed(result.value, value_scale))}"]
    for name, g in gradient.items():
        exact = result.exact.get(name)
        shown = f"{exact}  ({decimal(g)})" if exact is not None and exact != decimal(g) else decimal(g)
        formula = f"{result.formulas[name]} = " if name in result.formulas else ""
        lines.append(f"  df/d{name} = {formula}{shown}")
    norm = decimal(result.norm)
    if result.exact_norm is not None and result.exact_norm != norm:
        norm = f"{result.exact_norm} ({norm})"
    lines.append(f"  gradient = {_vector(gradient)}, norm {norm}")
    if result.ascent is None:
        lines.append("  steepest ascent: none (the gradient is 0: a critical point)")
    else:
        ascent = {n: printed(a, scale / result.norm) for n, a in result.ascent.items()}  # the gradient's, scaled
        lines.append(f"  steepest ascent along {_vector(ascent)} (the gradient / its norm), at rate {norm}")
    for k, (direction, rate) in enumerate(result.directions):
        exact = result.exact_directional[k] if k < len(result.exact_directional) else None
        shown = decimal(rate) if exact in (None, decimal(rate)) else f"{exact} ({decimal(rate)})"
        lines.append(f"  directional derivative along {_vector(direction)}: {shown}")
    lines += [f"  note: {n}" for n in result.notes]
    lines.append("by autograd (float64)" + ("; formulas by SymPy" if result.formulas else "; exact values by SymPy"
                                            if result.exact else ""))
    return "\n".join(lines) + "\n"


def _document(result: Any) -> dict[str, Any]:
    def vector(values: dict[str, float] | None) -> Any:
        return None if values is None else {n: json_number(v) for n, v in values.items()}

    document = {"point": vector(result.point), "value": json_number(result.value),
                "gradient": vector(result.gradient), "norm": json_number(result.norm),
                "ascent": vector(result.ascent), "direction": vector(result.direction),
                "directional": json_number(result.directional),
                "directions": [{"direction": vector(d), "directional": json_number(r)} for d, r in result.directions],
                "notes": result.notes}
    if result.formulas or result.exact:
        document["formulas"] = result.formulas
        document["exact_gradient"] = result.exact
        document["exact_norm"] = result.exact_norm
    return document
