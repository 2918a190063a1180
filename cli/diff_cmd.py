"""`autodiff diff`: the derivative as a formula (derived by autodiff.app.symbolic), next to autograd's number
at the bound point. SymPy is imported when the command runs, never at start-up."""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    binding_texts,
    format_option,
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
  autodiff diff 'sin(x)' --order 3
  autodiff diff '3x^2 sin x' --steps          (textbook notation; the rules, step by step)
  autodiff diff 'x**2 + y**2 = 25' --implicit y x=3 y=4
  autodiff diff 'x**x' --steps backward
  autodiff diff 'asin(x)' --format latex
"""


@click.command("diff", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The derivative as a formula, with the rules step by step.")
@program_options
@wrt_option("Differentiate with respect to NAME (repeatable: each partial; default: every variable). x,y is the "
            "mixed derivative d/dy d/dx (f_xy).", metavar="NAME[,NAME...]")
@option("--implicit", metavar="NAME", help="NAME is a function of the --wrt variable (default x) defined by the "
        "equation PROGRAM (or PROGRAM = 0): dNAME/dx by implicit differentiation.")
@order_option("The N-th derivative.")
@steps_option(optional="rules", help="Show the derivation: by the textbook's rules, outside in (--steps), or as the "
              "backward pass computes it, node by node (--steps backward).")
@option("--exact", "exact", is_flag=True, help="Exact values at the point (sqrt(2)/2, 1600*pi) beside the decimals.")
@format_option("latex")
def diff_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Derive PROGRAM (a scalar formula, or an equation with --implicit) symbolically.

    PROGRAM may be written as a textbook writes it (3x^2 sin x, sqrt x, |x|, ln x, sin^2 x, θ); the
    line "read as: ..." shows how it was read. The formula is written in the language itself, so it
    pastes back into `autodiff eval` and `autodiff check --expect`. With NAME=VALUE bindings, its value
    there is shown beside autograd's.
    """
    from autodiff.cli import memory
    from autodiff.cli.diff_text import write_result
    from autodiff.cli.reading import read_math

    memory.prepare()  # the process's memory cap: SymPy may fill the memory with a formula that grows

    if options["steps"] not in (None, "rules", "backward"):  # `--steps x=1`: the binding is not the view's name
        assignments = (options["steps"], *assignments)
        options["steps"] = "rules"
    reading, assignments = read_math(program, file, assignments, options, implicit=bool(options["implicit"]),
                                     show=False)
    point, texts = _point(assignments, options["variables"], options["constants"])
    equation = reading.equation is not None
    if options["implicit"] or equation:
        return _implicit(reading, point, texts, options)
    import numpy as np

    from autodiff.app.diff import derive, value_at

    declared = [*point, *reading.variables]
    result = derive(reading.program, list(options["wrt"]) or None, options["order"], variables=declared,
                    steps=options["steps"] == "rules")
    rows: list = []
    first: dict[str, float] = {}  # every first derivative, from one autograd run
    for d in result.derivatives:
        value = autograd = exact = None
        if point:
            missing = [n for n in _variables(result) if n not in point]
            if missing:
                from autodiff.engine.errors import UsageError

                raise UsageError(f"to evaluate the derivative, bind every variable: {', '.join(missing)} "
                                 "has no value")
            with np.errstate(all="ignore"):  # x*x at 1e200 overflows, as in eval: no numpy warning
                value = value_at(d.expr, point)
                autograd = _autograd(reading.program, d.wrt, d.order, point, first)
            exact = _exact(d.expr, texts) if options["exact"] else None
            if not _agree(value, autograd):
                sys.stderr.write(f"autodiff: warning: the formula gives {value!r} at the point but autograd gives "
                                 f"{autograd!r}: please report it, with this command\n")
        rows.append((d, value, autograd, exact))
    write_result(reading, result, rows, options)
    return 0


def _implicit(reading: Any, point: dict[str, float], texts: dict[str, str], options: dict[str, Any]) -> int:
    from autodiff.app.implicit import at_point, implicit
    from autodiff.cli.diff_text import write_implicit
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
        exact = _exact(result.expr, texts) if options["exact"] else None
    write_implicit(reading, result, value, exact, options)
    return 0


def _guess_dependent(reading: Any, wrt: list[str]) -> str:
    """The equation's other variable, when there is exactly one besides x (or --wrt): never a silent constant."""
    from autodiff.app.symbolic import record
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
            if number.data.size != 1:
                raise UsageError(f"diff derives scalar programs: {name} must be a number, got shape "
                                 f"{tuple(number.shape)}")
            number = float(number.data.reshape(-1)[0])
        if not isinstance(number, (int, float)) or isinstance(number, bool):
            raise UsageError(f"the value of {name} must be a number")
        point[name] = float(number)
        texts[name] = value
    return point, texts


def _exact(expr: Any, texts: dict[str, str]) -> str | None:
    """The formula's exact value at the point (sqrt(2)/2), or None when a value is not exact or SymPy cannot
    say in time."""
    from autodiff.app import exact

    values = {name: exact.exact_number(text) for name, text in texts.items()}
    if any(v is None for v in values.values()):
        return None
    value = exact.at(expr, values)
    return exact.text(value) if exact.is_real_number(value) else None


def _variables(result: Any) -> list[str]:
    names: set[str] = set()
    for d in result.derivatives:
        names |= {str(s) for s in d.expr.free_symbols}
    return sorted(names)


def _autograd(program: str, wrt: str, order: int, point: dict[str, float], first: dict[str, float]) -> float:
    """Autograd's derivative at the point (float64), for comparison. The first derivatives come from one run
    with every variable a leaf, kept in `first` (1,000 variables: one backward pass, not 1,000)."""
    from autodiff.app.config import Config
    from autodiff.app.session import Binding, EvalRequest, run_eval

    if "," in wrt:
        from autodiff.app.diff import mixed_autograd

        with Config("float64").applied():
            return mixed_autograd(program, wrt.split(","), point)
    if order == 1 and wrt in first:
        return first[wrt]
    bindings = [Binding(name, value, order == 1 or name == wrt) for name, value in point.items()]
    with Config("float64").applied():
        result = run_eval(EvalRequest(program, bindings, order=order))
    grads = result.passes[-1].grads if result.passes else {}
    if order == 1:
        first.update({name: math.nan if g is None else float(g) for name, g in grads.items() if name in point})
    value = grads.get(wrt)
    return math.nan if value is None else float(value)


def _agree(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return True
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)
