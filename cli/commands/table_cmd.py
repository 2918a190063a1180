"""`autodiff table`: the value and the derivatives of a program over a grid, as text, JSON or CSV. The
numbers come from autodiff.app.calculus.table."""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from autodiff.cli.commandline import binding_texts, binding_value, output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    dtype_option,
    engine_options,
    format_option,
    order_option,
    program_options,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples:
  autodiff table 'x**3 - 2*x' x=-2:2:0.5
  autodiff table 'sin(x)' x=0:pi --order 2
  autodiff table 'abs(x)' x=-1:1:0.5 --format csv
  autodiff table 'a * x**2' x=0:1 a=3 --format json
"""


@click.command("table", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The value and derivatives at every point of a grid.")
@program_options
@order_option("The derivatives up to order N.")
@format_option("csv")
@dtype_option("float64")
@engine_options(dtype=False)
def table_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Tabulate PROGRAM and its derivatives over a grid: NAME=START:STOP[:STEP] (STOP included when on the
    grid; STEP defaults to a tenth of the range). The other bindings are constants."""
    import numpy as np

    from autodiff.app.calculus.table import grid, table, table_and_next
    from autodiff.app.session import Binding, constant
    from autodiff.engine.errors import UsageError

    text, assignments = read_formula(program, file, assignments, options, "table")
    wrt, points, constants = None, None, []
    for name, value, _, _ in binding_texts(assignments, options["variables"], options["constants"]):
        if ":" in value and not value.startswith("@"):
            if wrt is not None:
                raise UsageError(f"one grid variable at a time: {wrt} and {name} both have START:STOP")
            parts = value.split(":")
            if len(parts) not in (2, 3) or not all(p.strip() for p in parts):
                raise UsageError(f"{name}={value}: a grid is START:STOP or START:STOP:STEP, e.g. {name}=0:1:0.1")
            numbers = [_number(constant(p, f"the grid of {name}"), name) for p in parts]
            wrt, points = name, grid(numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else None)
        else:
            constants.append(Binding(name, binding_value(name, value, options["config"].max_elements), False))
    if wrt is None:
        raise UsageError("give the grid as NAME=START:STOP[:STEP], e.g. x=0:1:0.1")
    output = output_format(options["output_format"])
    with np.errstate(all="ignore"):  # text output needs one derivative more: what prints as 0 (app.residue)
        if output in ("json", "csv"):
            result, following = table(text, wrt, points, constants, options["order"]), None
        else:
            result, following = table_and_next(text, wrt, points, constants, options["order"])
    from autodiff.cli.output.limit_notes import table_noise

    noise = table_noise(text, wrt, points, constants, [*assignments, *options["variables"], *options["constants"]])
    warning = None if noise is None else _noise_warning(wrt, points, noise)
    names = ["value", *(f"d{k}" for k in range(1, result.order + 1))]
    columns = [result.values, *result.derivatives]
    if output == "json":
        from autodiff.cli.output import jsonout

        rows = [{wrt: _json(x), **{n: _json(c[i]) for n, c in zip(names, columns)}} for i, x in enumerate(points)]
        document: dict[str, Any] = {"wrt": wrt, "order": result.order, "rows": rows}
        if warning is not None:
            document["warnings"] = [warning]
        sys.stdout.write(jsonout.dumps(document) + "\n")
    elif output == "csv":
        lines = [",".join([wrt, *names])]
        lines += [",".join(_csv(v) for v in (x, *(c[i] for c in columns))) for i, x in enumerate(points)]
        sys.stdout.write("\n".join(lines) + "\n")
        if warning is not None:
            sys.stderr.write(f"autodiff: warning: {warning}\n")
    else:
        notes = result.notes + ([warning] if warning is not None else [])
        from autodiff.app.residue import printed_all, table_scales

        shown = [printed_all(c, s) for c, s in zip(columns, table_scales(points, columns, following))]
        _text(wrt, names, points, shown, notes, noise, pretty=output == "pretty")
    return 0


COMMANDS = [table_command]


def _number(value: Any, name: str) -> float:
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    if isinstance(value, Tensor) and value.numpy(force=True).size == 1:
        value = float(value.numpy(force=True).reshape(-1)[0])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"the grid of {name}: START, STOP and STEP must be numbers")
    return float(value)


def _json(v: float) -> Any:
    v = float(v)
    if math.isnan(v) or math.isinf(v):
        return str(v)
    return v


def _csv(v: float) -> str:
    return repr(float(v))


def _cell(v: float) -> str:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v + 0.0:.6g}"  # -0 is 0


def _noise_warning(wrt: str, points: Any, noise: Any) -> str:
    shown = ", ".join(f"{float(x):.6g}" for x in points[noise][:5]) + (", ..." if noise.sum() > 5 else "")
    return (f"the values at {wrt} = {shown} may be rounding noise: the same program in float32 keeps none of their "
            "digits, or rounding an intermediate value to float64 moves them by half or more, so float64 has lost "
            "most of its 16 digits, or all of them (the program subtracts nearly equal numbers, or raises a number "
            "that rounded to 1 to a huge power): they may be neither the function's values nor its limit (autodiff "
            "limit finds a limit)")


def _text(wrt: str, names: list[str], points: Any, columns: list, notes: list[str], noise: Any = None,
          pretty: bool = False) -> None:
    from autodiff.cli.output.text import write_columns

    header = [wrt, *names]
    rows = [[_cell(x), *(_cell(c[i]) for c in columns)] for i, x in enumerate(points)]
    marks = []
    for index, row in enumerate(rows):
        mark = []
        if row[1] in ("nan", "inf", "-inf"):
            mark.append("<- not defined here")
        elif any(cell in ("nan", "inf", "-inf") for cell in row[2:]):
            mark.append("<- not differentiable here")
        if noise is not None and noise[index]:
            mark.append("<- rounding noise?")
        marks.append("  ".join(mark))
    write_columns(header, rows, pretty, marks)
    sys.stdout.write("".join(f"note: {n}\n" for n in notes))
