"""`autodiff newton`: Newton's method on f = 0 with autograd's derivative, the table of iterates (app.newton)."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.calculus import choose, decimal, json_number, read_bindings, write_json
from autodiff.cli.commandline import output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    engine_options,
    format_option,
    iterations_option,
    option,
    program_options,
    wrt_option,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples (textbook exercises):
  autodiff newton 'x**2 - 10' x=3                   sqrt(10) by Newton's method from x0 = 3
  autodiff newton 'cos(x) - x' x=1 --iterations 5   the root of cos x = x, five steps from x0 = 1
  autodiff newton 'x**3 - 2*x + 2' x=0              a cycle: Newton's method fails from x0 = 0
"""


@click.command("newton", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="Newton's method on f = 0 from x0, step by step.")
@program_options
@iterations_option(50)
@option("--tol", type=float, default=1e-12, show_default=True,
        help="Converged when |x_{n+1} - x_n| <= TOL * max(1, |x_{n+1}|).")
@wrt_option(multiple=False)
@format_option()
@engine_options("float64")
def newton_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Newton's method on PROGRAM = 0 from NAME=X0: x_{n+1} = x_n - f(x_n)/f'(x_n), with f' from autograd
    (float64). Prints every iterate (x_n, f(x_n), f'(x_n)) and the root, or why it failed (f' = 0, f not
    defined, divergence, a cycle, too few steps). Exit 0 when it converged, 1 when not."""
    from autodiff.app.newton import newton
    from autodiff.app.pointwise import Function
    from autodiff.engine.errors import UsageError

    text, assignments = read_formula(program, file, assignments, options, "newton")
    bindings = read_bindings(assignments, options)
    names = choose(bindings.point, (options["wrt"],) if options["wrt"] else (), bindings, "starting value")
    if len(names) != 1:
        raise UsageError("give one starting value, e.g. x=3 (bind the other names with --const, or pick one with "
                         "--wrt)" if names else "give the starting value, e.g. x=3")
    (name,) = names
    result = newton(Function(text, names, bindings.constants), bindings.point[name], options["iterations"],
                    options["tol"])
    if output_format(options["output_format"]) == "json":
        write_json({"variable": name, "iterations": [
            {"n": it.n, "x": json_number(it.x), "f": json_number(it.f), "df": json_number(it.df)}
            for it in result.iterations], "root": json_number(result.root), "converged": result.converged,
            "reason": result.reason})
    else:
        _text(text, result, output_format(options["output_format"]) == "pretty")
    return 0 if result.converged else 1


COMMANDS = [newton_command]


def _text(program: str, result: Any, pretty: bool) -> None:
    from autodiff.app.residue import printed
    from autodiff.cli.text import write_columns

    x = result.variable
    header = ["n", f"{x}_n", f"f({x}_n)", f"f'({x}_n)"]
    rows = [[str(it.n), decimal(it.x, 15), decimal(printed(it.f, None if it.df is None else it.x * it.df), 6),
             "" if it.df is None else decimal(it.df, 6)] for it in result.iterations]
    sys.stdout.write(f"Newton's method on {program} = 0 from {x}_0 = {decimal(result.iterations[0].x, 15)}\n")
    write_columns(header, rows, pretty)
    if result.converged:
        sys.stdout.write(f"root: {x} = {decimal(result.root, 15)}  ({result.reason}; "
                         f"{len(result.iterations) - 1} steps)\n")
    else:
        sys.stdout.write(f"no root: {result.reason}\n")
    sys.stdout.write("f' by autograd (float64)\n")
