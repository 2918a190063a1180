"""`autodiff diff`: the derivative as a formula (derived by autodiff.app.symbolic.program), next to autograd's number
at the bound point. SymPy is imported when the command runs, never at start-up."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.commandline import binding_texts
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    batch_options,
    format_option,
    inverse_option,
    option,
    order_option,
    program_options,
    steps_option,
    wrt_option,
)

EPILOG = """\b
Examples:
  autodiff diff '(2*x)**3'
  autodiff diff 'x**3 * sin(x)' x=1.2
  autodiff diff 'x * y**2' --wrt y
  autodiff diff 'x**2*y**3' --wrt x,y        (mixed: d/dy of d/dx)
  autodiff diff 'sin(x)' --order 3            (f', f'' and f''')
  autodiff diff 'x^2 y^3' --order 2           (f_x, f_y, f_xx, f_xy, f_yy)
  autodiff diff 'd/dx x^3'                    (the question as the book writes it)
  autodiff diff 'x^2 + y^2 = 25' x=3 y=4 dx/dt=2   (related rates: dy/dt)
  autodiff diff 'x^3 + x' --inverse 2         ((f^-1)'(2) = 1/f'(1))
  autodiff diff '3x^2 sin x' --steps          (textbook notation; the rules, step by step)
  autodiff diff 'x**2 + y**2 = 25' --implicit y x=3 y=4
  autodiff diff 'x**x' --steps backward
  autodiff diff 'asin(x)' --format latex
"""


@click.command("diff", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The derivative as a formula, with the rules step by step.")
@program_options
@wrt_option("Each --wrt gives one partial derivative; x,y is the mixed derivative d/dy d/dx (f_xy).",
            metavar="NAME[,NAME...]")
@option("--implicit", metavar="NAME", help="NAME is a function of the --wrt variable (default x) defined by the "
        "equation PROGRAM (or PROGRAM = 0): dNAME/dx by implicit differentiation.")
@order_option("The derivatives up to order N (f', f'', ...; with several variables and no --wrt, every partial "
              "derivative up to order N, each mixed one once).")
@steps_option()
@option("--exact", "exact", is_flag=True, help="Exact values at the point (sqrt(2)/2, 1600*pi) beside the decimals.")
@inverse_option()
@format_option("latex")
@batch_options("Derive")
def diff_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Derive PROGRAM (a scalar formula, or an equation with --implicit) symbolically.

    PROGRAM may be written as a textbook writes it (3x^2 sin x, sqrt x, |x|, ln x, sin^2 x, θ); the
    line "read as: ..." shows how it was read. The formula is written in the language itself, so it
    pastes back into `autodiff eval` and `autodiff check --expect`. With NAME=VALUE bindings, its value
    there is shown beside autograd's.
    """
    if options["batch"] is not None:
        from autodiff.cli.batch import run_batch
        from autodiff.cli.commandline import batch_program

        text = batch_program(program, file, options["batch"])
        return run_batch(options, lambda: diff_answering(text, assignments, options),
                         stdin_text=text if "-" in (program, file) else None)
    from autodiff.cli.commands.diff_questions import answer, rate_bindings

    rates, time, rest = rate_bindings(assignments)
    if rates or options["inverse"] is not None:  # related rates (dx/dt=2), or (f^-1)'(B)
        return answer(program, file, rest, options, rates, time)
    from autodiff.cli.output.diff_text import write_result

    derived = _derive(program, assignments, file, options)
    if derived[0] == "implicit":
        from autodiff.cli.output.diff_text import write_implicit

        write_implicit(*derived[1:], options)
        return 0
    _, reading, result, rows, warnings = derived
    for warning in warnings:
        sys.stderr.write(f"autodiff: warning: {warning}\n")
    write_result(reading, result, rows, options, warnings)
    return 0


def _derive(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]) -> tuple:
    """("explicit", reading, result, rows, warnings) or ("implicit", reading, result, value, exact)."""
    from autodiff.cli import memory
    from autodiff.cli.calculus import sympy_first
    from autodiff.cli.reading import read_math

    memory.prepare()  # the process's memory cap: SymPy may fill the memory with a formula that grows
    sympy_first()

    if options["steps"] not in (None, "rules", "backward"):  # `--steps x=1`: the binding is not the view's name
        assignments = (options["steps"], *assignments)
        options["steps"] = "rules"
    reading, assignments = read_math(program, file, assignments, options, implicit=bool(options["implicit"]),
                                     show=False, question=True)
    point, texts = _point(assignments, options["variables"], options["constants"])
    if options["implicit"] or reading.equation is not None:
        return ("implicit", reading, *_implicit(reading, point, texts, options))
    from autodiff.app.symbolic.diff import at_point, derive

    declared = [*point, *reading.variables]
    result = derive(reading.program, list(options["wrt"]) or None, options["order"], variables=declared,
                    steps=options["steps"] == "rules")
    rows: list[tuple[Any, float | None, float | None, str | None]] = [(d, None, None, None)
                                                                      for d in result.derivatives]
    warnings = []
    if point:
        values = at_point(result, point, texts if options["exact"] else None)
        rows = [(d, _residue(d, at, texts), at.autograd + 0.0 if at.autograd is not None else None, at.exact)
                for d, at in zip(result.derivatives, values)]
        warnings = [_disagreement(d, at, point) for d, at in zip(result.derivatives, values) if not at.agrees]
    return "explicit", reading, result, rows, warnings


def _residue(derivative: Any, at: Any, texts: dict[str, str]) -> float:
    """The formula's value at the point as printed (app.residue): 0 for -0, and for a tiny residue whose exact
    value (SymPy, asked only then) is 0."""
    from autodiff.app.residue import printed

    def exact() -> str | None:
        if at.exact is not None:
            return at.exact
        from autodiff.app.symbolic.diff import exact_value

        return exact_value(derivative.expr, texts)

    return printed(at.value, exact=exact)


def _disagreement(derivative: Any, at: Any, point: dict[str, float]) -> str:
    """Why the formula's value and autograd's differ: at a pole of the derivative (both not finite: nan and inf are
    two spellings of "not defined"), the function is not differentiable there; otherwise a bug to report."""
    import math

    if not (math.isfinite(at.value) or math.isfinite(at.autograd)):
        where = ", ".join(f"{name} = {value:g}" for name, value in point.items())
        why = " (it divides by zero there: a pole)" if math.isinf(at.value) or math.isinf(at.autograd) else ""
        return (f"the derivative {derivative.text} is not defined at {where}{why}, so the function is not "
                f"differentiable at that point; the formula gives {at.value!r} and autograd {at.autograd!r}, two "
                "spellings of 'no value'")
    return (f"the formula gives {at.value!r} at the point but autograd gives {at.autograd!r}: please report it, "
            "with this command")


def diff_answering(program: str | None, assignments: tuple[str, ...], options: dict[str, Any]) -> Any:
    """`diff --batch`: each line's derivatives (its program, --wrt as "wrt", --order as "order", its point),
    answered with the document `diff --format json` prints for it."""
    from autodiff.app.batch import texts, whole
    from autodiff.cli.batch import line_options
    from autodiff.cli.output.diff_text import diff_document, implicit_document

    def answer(line: Any) -> dict[str, Any]:
        text, mine, bound = line_options(line, program, assignments, options)
        if "wrt" in line.settings:
            mine["wrt"] = tuple(line.settings["wrt"])
        derived = _derive(text, bound, None, mine)
        if derived[0] == "implicit":
            return implicit_document(*derived[1:], mine)
        _, reading, result, rows, warnings = derived
        return diff_document(reading, result, rows, mine["steps"], warnings)

    return {"wrt": texts, "order": whole(1)}, answer


def _implicit(reading: Any, point: dict[str, float], texts: dict[str, str], options: dict[str, Any]) -> tuple:
    """(result, value at the point, exact value) of an implicit derivative."""
    from autodiff.app.calculus.implicit import at_point, implicit
    from autodiff.app.symbolic.diff import exact_value
    from autodiff.engine.errors import UsageError

    wrt = [w for w in options["wrt"] for w in w.split(",")]
    if len(wrt) > 1:
        raise UsageError("--implicit differentiates with respect to one variable: give one --wrt (default x)")
    equation = reading.read_as or reading.program
    if reading.equation is not None:
        equation = f"{reading.equation[0]} = {reading.equation[1]}"
    dependent = options["implicit"] or _guess_dependent(reading, wrt)
    x = wrt[0] if wrt else ("x" if dependent != "x" else "t")
    result = implicit(reading.program, equation, x, dependent, options["order"], [*point, *reading.variables])
    value = exact = None
    if point:
        value = at_point(result, reading.program, point, list(point))
        exact = exact_value(result.expr, texts) if options["exact"] else None
    return result, value, exact


def _guess_dependent(reading: Any, wrt: list[str]) -> str:
    """The equation's other variable, when there is exactly one besides x (or --wrt): never a silent constant."""
    from autodiff.app.symbolic.program import record
    from autodiff.engine.errors import UsageError

    names = record(reading.program, wrt).variables
    x = wrt[0] if wrt else "x"
    others = [n for n in names if n != x]
    if x in names and len(others) == 1:
        return others[0]
    left, right = reading.equation
    raise UsageError(f"{left} = {right} is an equation in {', '.join(names) or 'no variable'}: say which variable "
                     f"it defines as a function of which, e.g. --implicit y --wrt x")


COMMANDS = [diff_command]


def _point(assignments: tuple[str, ...], variables: tuple[str, ...], constants: tuple[str, ...]
           ) -> tuple[dict[str, float], dict[str, str]]:
    """The point (name: float) and each value as written (for exact values)."""
    from autodiff.app.session import constant
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    point, texts = {}, {}
    for name, value, _, _ in binding_texts(assignments, variables, constants):
        number = constant(value, f"the value of {name}")
        if isinstance(number, Tensor):
            if number.numpy(force=True).size != 1:
                raise UsageError(f"diff derives scalar programs: {name} must be a number, got shape "
                                 f"{tuple(number.shape)}")
            number = float(number.numpy(force=True).reshape(-1)[0])
        if not isinstance(number, (int, float)) or isinstance(number, bool):
            raise UsageError(f"the value of {name} must be a number")
        point[name] = float(number)
        texts[name] = value
    return point, texts
