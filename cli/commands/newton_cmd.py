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
  autodiff newton 'x^3 - 3x + 1' x=-2:2             every root in [-2, 2], each by Newton's method
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
    defined, divergence, a cycle, too few steps). With an interval NAME=A:B, every root in it, each by Newton's
    method from a start near it. Exit 0 when it converged (or did the --iterations asked), 1 when not."""
    from autodiff.app.calculus.newton import newton
    from autodiff.app.calculus.pointwise import Function
    from autodiff.engine.errors import UsageError

    text, assignments = read_formula(program, file, assignments, options, "newton")
    bindings = read_bindings(assignments, options, intervals=True)
    bound = {**bindings.point, **bindings.intervals}
    names = choose(bound, (options["wrt"],) if options["wrt"] else (), bindings, "starting value")
    if len(names) != 1:
        raise UsageError("give one starting value, e.g. x=3, or an interval, x=-2:2 (bind the other names with "
                         "--const, or pick one with --wrt)" if names else "give the starting value, e.g. x=3")
    (name,) = names
    asked = options["iterations"] is not None
    steps = options["iterations"] if asked else DEFAULT_ITERATIONS
    fn = Function(text, names, bindings.constants)
    if name in bindings.intervals:
        return _every_root(fn, text, name, bindings.intervals[name], steps, options)
    result = newton(fn, bindings.point[name], steps, options["tol"], asked=asked)
    if output_format(options["output_format"]) == "json":
        write_json({"variable": name, "iterations": _iterations(result), "root": json_number(result.root),
                    "converged": result.converged,
            "reason": result.reason, "completed": result.completed})
    else:
        _text(text, result, output_format(options["output_format"]) == "pretty")
    return 0 if result.converged or result.completed else 1


DEFAULT_ITERATIONS = 50


def _every_root(fn: Any, program: str, name: str, interval: tuple[float, float], steps: int,
                options: dict[str, Any]) -> int:
    from autodiff.app.calculus.newton import every_root

    a, b = interval
    runs, notes = every_root(fn, a, b, steps, options["tol"])
    if output_format(options["output_format"]) == "json":
        first = runs[0] if runs else None
        write_json({"variable": name, "interval": [json_number(a), json_number(b)],
                    "iterations": [] if first is None else _iterations(first),
                    "root": None if first is None else json_number(first.root), "converged": True,
                    "reason": f"{len(runs)} root(s) in [{decimal(a)}, {decimal(b)}]",
                    "roots": [{"root": json_number(r.root), "start": json_number(r.iterations[0].x),
                               "steps": len(r.iterations) - 1, "reason": r.reason, "multiple": r.multiple,
                               "iterations": _iterations(r)}
                              for r in runs], "notes": notes})
        return 0
    lines = [f"roots of {program} = 0 for {name} in [{decimal(a)}, {decimal(b)}]: {len(runs) or 'none'}"]
    for r in runs:
        how = (f"Newton's method from {name}_0 = {decimal(r.iterations[0].x)}, {len(r.iterations) - 1} steps"
               if len(r.iterations) > 1 else r.reason)
        if r.multiple:
            how += "; a multiple root, f' = 0 there too: Newton converges slowly, about half the digits are right"
        lines.append(f"  {name} = {decimal(r.root, 8 if r.multiple else 15)}  ({how})")
    lines += [f"note: {n}" for n in notes]
    lines.append("f' by autograd (float64); each root from a sign change (or a touching zero) of f on a grid of "
                 "2,001 points")
    from autodiff.cli.output.text import prose

    sys.stdout.write(prose("\n".join(lines), output_format(options["output_format"]) == "pretty") + "\n")
    return 0


def _iterations(result: Any) -> list[dict[str, Any]]:
    return [{"n": it.n, "x": json_number(it.x), "f": json_number(it.f), "df": json_number(it.df)}
            for it in result.iterations]


COMMANDS = [newton_command]


def _text(program: str, result: Any, pretty: bool) -> None:
    from autodiff.app.residue import printed
    from autodiff.cli.output.text import write_columns

    x = result.variable
    header = ["n", f"{x}_n", f"f({x}_n)", f"f'({x}_n)"]
    rows = [[str(it.n), decimal(it.x, 15), decimal(printed(it.f, None if it.df is None else it.x * it.df), 6),
             "" if it.df is None else decimal(it.df, 6)] for it in result.iterations]
    sys.stdout.write(f"Newton's method on {program} = 0 from {x}_0 = {decimal(result.iterations[0].x, 15)}\n")
    write_columns(header, rows, pretty)
    from autodiff.cli.output.text import prose

    if result.converged:
        line = f"root: {x} = {decimal(result.root, 15)}  ({result.reason}; {len(result.iterations) - 1} steps)"
    elif result.completed:
        line = (f"after {len(result.iterations) - 1} steps: {x} = {decimal(result.root, 15)}  ({result.reason}; "
                "not yet converged to the tolerance)")
    else:
        line = f"no root: {result.reason}"
    sys.stdout.write(prose(line, pretty) + "\n")
    sys.stdout.write("f' by autograd (float64)\n")
