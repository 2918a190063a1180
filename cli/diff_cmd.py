"""`autodiff diff`: the derivative as a formula (derived by autodiff.app.symbolic), next to autograd's number
at the bound point. SymPy is imported when the command runs, never at start-up."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import click

from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    binding_texts,
    configure_engine,
    output_format,
    program_options,
    read_program,
)

EPILOG = """\b
Examples:
  autodiff diff '(2*x)**3'
  autodiff diff 'x**3 * sin(x)' x=1.2
  autodiff diff 'x * y**2' --wrt y
  autodiff diff 'sin(x)' --order 3
  autodiff diff 'x**x' --steps
  autodiff diff 'asin(x)' --format latex
"""


@click.command("diff", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="The derivative as a formula, with the chain rule's steps.")
@program_options
@click.option("--wrt", "wrt", multiple=True, metavar="NAME",
              help="Differentiate with respect to NAME (repeatable; default: every variable).")
@click.option("--order", type=int, default=1, show_default=True, help="The N-th derivative.")
@click.option("--steps", is_flag=True, help="Show the chain rule, node by node, in backward order.")
@click.option("--format", "output_format", type=click.Choice(["pretty", "plain", "json", "latex"]),
              help="Output format (default: pretty on a terminal, plain when piped).")
def diff_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Derive PROGRAM (a scalar formula) symbolically: d root / d NAME for each variable.

    The formula is written in the language itself, so it pastes back into `autodiff eval` and
    `autodiff check --expect`. With NAME=VALUE bindings, its value there is shown beside autograd's.
    """
    text, assignments = read_program(program, file, assignments)
    point = _point(assignments, options["variables"], options["constants"])
    from autodiff.app.diff import derive, value_at

    result = derive(text, list(options["wrt"]) or None, options["order"], variables=list(point))
    rows = []
    for d in result.derivatives:
        value = autograd = None
        if point:
            missing = [n for n in _variables(result) if n not in point]
            if missing:
                from autodiff.engine.errors import UsageError

                raise UsageError(f"to evaluate the derivative, bind every variable: {', '.join(missing)} "
                                 "has no value")
            value = value_at(d.expr, point)
            autograd = _autograd(text, d.wrt, d.order, point)
            if not _agree(value, autograd):
                sys.stderr.write(f"autodiff: warning: the formula gives {value!r} at the point but autograd gives "
                                 f"{autograd!r}: please report it, with this command\n")
        rows.append((d, value, autograd))
    output = output_format(options["output_format"])
    if output == "json":
        sys.stdout.write(json.dumps(_document(rows, result if options["steps"] else None)) + "\n")
    elif output == "latex":
        for d, _, _ in rows:
            power = "" if d.order == 1 else f"^{{{d.order}}}"
            sys.stdout.write(f"\\frac{{d{power}}}{{d{d.wrt}{power}}} \\left({result.root_latex}\\right) = {d.latex}\n")
    else:
        sys.stdout.write(_text(text, rows, result if options["steps"] else None))
    return 0


COMMANDS = [diff_command]


def _point(assignments: tuple[str, ...], variables: tuple[str, ...], constants: tuple[str, ...]) -> dict[str, float]:
    from autodiff.app.session import constant
    from autodiff.engine import Tensor
    from autodiff.engine.errors import UsageError

    point = {}
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
    return point


def _variables(result: Any) -> list[str]:
    names: set[str] = set()
    for d in result.derivatives:
        names |= {str(s) for s in d.expr.free_symbols}
    return sorted(names)


def _autograd(program: str, wrt: str, order: int, point: dict[str, float]) -> float:
    """Autograd's derivative at the point (float64), for comparison."""
    from autodiff.app.session import Binding, EvalRequest, run_eval

    configure_engine("float64", None, 50_000_000)
    bindings = [Binding(name, value, name == wrt) for name, value in point.items()]
    result = run_eval(EvalRequest(program, bindings, order=order))
    grads = result.passes[-1].grads if result.passes else {}
    value = grads.get(wrt)
    return math.nan if value is None else float(value)


def _agree(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return True
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def _number(x: float | None) -> Any:
    if x is None:
        return None
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return x


def _document(rows: list, result: Any) -> dict[str, Any]:
    document: dict[str, Any] = {"derivatives": [
        {"wrt": d.wrt, "order": d.order, "expr": d.text, "latex": d.latex, "value": _number(value),
         "autograd": _number(autograd)} for d, value, autograd in rows]}
    if result is not None:
        from autodiff.app.printing import to_language

        document["steps"] = [{"node": step.node, "rule": "; ".join(step.rules), "grad_in": to_language(step.grad_in),
                              "grads_out": [None if g is None else to_language(g) for g in step.grads_out]}
                             for step in result.steps]
    return document


def _text(program: str, rows: list, result: Any) -> str:
    from autodiff.app.printing import to_language

    lines = []
    for d, value, autograd in rows:
        power = "" if d.order == 1 else str(d.order)
        lines.append(f"d{power}/d{d.wrt}{power} {program} = {d.text}")
        if value is not None:
            lines.append(f"  at the point: {value:.10g}  (autograd: {autograd:.10g})")
    if result is not None:
        lines.append("")
        lines.append("steps (the chain rule, in backward order)")
        for i, step in enumerate(result.steps, 1):
            lines.append(f"  {i}. {step.node}: {'; '.join(step.rules)}")
            lines.append(f"     grad in: {to_language(step.grad_in)}")
            passed = ", ".join("-" if g is None else to_language(g) for g in step.grads_out)
            lines.append(f"     passes on: {passed}")
        lines.append("  then the simplified result above")
    return "\n".join(lines) + "\n"
