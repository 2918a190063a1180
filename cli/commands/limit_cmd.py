"""`autodiff limit`: the limit of a program as x -> a (app.limits): SymPy's exact limit, cross-checked by the
numbers approaching a. SymPy is imported when the command runs, never at start-up."""

from __future__ import annotations

import math
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
    values_option,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples (textbook exercises):
  autodiff limit 'sin(x)/x' x=0                  the limit of sin x / x as x -> 0
  autodiff limit '(1 - 1/x)**x' x=inf            (1 - 1/x)^x as x -> infinity: exp(-1)
  autodiff limit 'abs(x)/x' x=0 --side +         a one-sided limit (the two sides differ)
  autodiff limit '(1 - cos x)/x^2' x=0 --values  with the values approaching 0, and the rounding error
"""


@click.command("limit", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The limit as x -> a (or inf), exact and checked by the numbers.")
@program_options
@option("--side", type=click.Choice(["both", "+", "-", "right", "left"]), default="both", show_default=True,
        help="Approach a from above (+, right), below (-, left) or both.")
@values_option()
@exact_option()
@format_option()
@engine_options("float64")
def limit_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The limit of PROGRAM as NAME -> VALUE (a number, inf or -inf): SymPy's exact limit when it finds one,
    and the program's values at NAME = VALUE +- 10^-k (or +-10^k), computed by autograd's engine in float64,
    which check it; with a warning where the values lose precision (cancellation) and when the one-sided
    limits differ (then the limit does not exist)."""
    from autodiff.app.calculus.limits import limit
    from autodiff.app.calculus.pointwise import Function
    from autodiff.engine.errors import UsageError

    sympy_first(not options["no_exact"])
    text, assignments = read_formula(program, file, assignments, options, "limit")
    bindings = read_bindings(assignments, options)
    names = choose(bindings.point, (), bindings, "point")
    if len(names) != 1:
        raise UsageError("give the point the variable approaches, e.g. x=0 or x=inf (bind other names with --const)"
                         if not names else f"one variable at a time: {', '.join(names)} all have a point (use --const "
                         "for the others)")
    (name,) = names
    side = {"right": "+", "left": "-"}.get(options["side"], options["side"])
    result = limit(Function(text, names, bindings.constants), bindings.point[name], side, text, bindings.texts,
                   bindings.texts[name], exact=not options["no_exact"])
    output = output_format(options["output_format"])
    if output == "json":
        write_json(_document(result))
    else:
        from autodiff.cli.output.text import write

        write(_text(text, result, bindings.texts[name], options["values"]), output == "pretty")
    return 0


COMMANDS = [limit_command]


def _arrow(result: Any, point_text: str) -> str:
    side = "" if result.side == "both" or math.isinf(result.point) else result.side
    return f"{result.variable} -> {point_text}{side}"


def _text(program: str, result: Any, point_text: str, values: bool = False) -> Any:
    """A few lines, as a solutions manual answers; with `values`, the table of values on each side and what
    they say about rounding error too."""
    from autodiff.cli.output.text import Doc

    doc = Doc()
    doc.line(f"limit of {program} as {_arrow(result, point_text)}")
    if result.exists:
        value = decimal(result.value)
        shown = value if result.exact in (None, value) else f"{result.exact} ({value})"
        if result.exact is None and result.digits < 15:
            shown = f"{decimal(result.value, result.digits)} (from the numbers alone: {result.digits} digits)"
        doc.line(f"  = {shown}")
    elif result.exists is None:
        doc.line(f"  unknown: {result.reason}")
    else:
        doc.line(f"  does not exist: {result.reason}")
    for s, one in result.sides.items():
        towards = ("towards " + decimal(result.point)) if math.isinf(result.point) else \
            ("from the right" if s == "+" else "from the left")
        doc.line(f"  {towards}: {_status(one)}")
        if values:
            doc.table(_steps(result, s, one))
    for w in result.warnings + (result.number_warnings if values else []):
        doc.line(f"warning: {w}")
    for m in result.method:
        doc.line(f"method: {m}")
    return doc


def _steps(result: Any, s: str, one: Any) -> Any:
    """The values approaching the point: h (or x, towards infinity) and f there; plain, as before."""
    from autodiff.cli.output.text import Grid

    finite = not math.isinf(result.point)
    column = [f"{abs(x - result.point):.0e}".replace("e-0", "e-") if finite else f"{x:.6g}" for x, _ in one.steps]
    values = [decimal(v, 12) for _, v in one.steps]
    header = ["h" if finite else result.variable, f"f({_at(result, s)})"]
    width = max(len(c) for c in [*column, "h"])
    plain = [f"    {header[0].rjust(width)}  {header[1]}"]
    plain += [f"    {c.rjust(width)}  {v}" for c, v in zip(column, values)]
    return Grid(header, [[c, v] for c, v in zip(column, values)], ["right", "left"], plain, indent=4)


def _at(result: Any, s: str) -> str:
    if math.isinf(result.point):
        return result.variable
    return f"{decimal(result.point)} {s} h"


def _status(one: Any) -> str:
    exact = f"SymPy: {one.exact_text}; " if one.exact_text is not None else ""
    if one.status == "settles":
        return f"{exact}the values settle at {decimal(one.estimate, max(one.digits, 1))} ({one.digits} digits)"
    words = {"inf": "the values grow without bound", "-inf": "the values fall without bound",
             "oscillates": "the values do not settle", "not defined": "f is not defined there",
             "slow": "the values change too slowly to settle"}
    return exact + words[one.status]


def _document(result: Any) -> dict[str, Any]:
    return {"variable": result.variable, "point": json_number(result.point), "side": result.side,
            "limit": json_number(result.value), "exists": result.exists, "exact": result.exact,
            "reason": result.reason or None,
            "sides": {s: {"exact": one.exact_text, "numeric": json_number(one.estimate), "status": one.status,
                          "digits": one.digits, "steps": [{"x": json_number(x), "value": json_number(v)}
                                                          for x, v in one.steps]}
                      for s, one in result.sides.items()},
            "warnings": result.warnings + result.number_warnings, "method": result.method}
