"""`autodiff critical`: critical points (f' = 0 or not defined, or grad f = 0), their classification,
inflection points and absolute extrema (app.extrema, app.critical_nd). SymPy is imported when it runs."""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.calculus import json_number, read_bindings, sympy_first, write_json
from autodiff.cli.commandline import output_format
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    constraint_option,
    engine_options,
    exact_option,
    format_option,
    option,
    order_option,
    program_options,
)
from autodiff.cli.reading import read_formula

EPILOG = """\b
Examples (textbook exercises):
  autodiff critical 'x**2 * exp(-x)'                 find and classify the critical points of x^2 e^-x
  autodiff critical 'x**3 - 3*x**2 + 1' x=-1/2:4     absolute extrema of a cubic on [-1/2, 4]
  autodiff critical 'sin(x)' 'x=0:2*pi' --order 2    inflection points of sin on [0, 2 pi]
  autodiff critical 'x**3 - 3*x + y**2'              local extrema and saddle points of f(x, y)
  autodiff critical '4(x+y) - (2x^2+y^2)' x=0:3 y=0:3  with the absolute extrema on the closed rectangle
  autodiff critical 'x + y' --constraint 'x^2 + y^2 = 1'        Lagrange multipliers: extrema on the circle
  autodiff critical 'x^2 + y^2 - 2x' --constraint 'x^2 + y^2 <= 4'  absolute extrema on the closed disk
"""


@click.command("critical", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="Critical and inflection points, classified; absolute extrema.")
@program_options
@order_option("1: critical points (f' = 0 or not defined); 2: inflection points (f'' changes sign).", high=2)
@constraint_option()
@option("--points", type=int, default=None,
        help="Grid points of the numeric search (one variable: 2001; several: starts of Newton's method).")
@exact_option()
@format_option()
@engine_options("float64")
def critical_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """The critical points of PROGRAM on NAME=A:B (default -10:10): where f' = 0 or f' is not defined,
    each classified (second-derivative test; the first-derivative test when f'' = 0 or f' is not defined);
    the absolute extrema on a closed interval; with --order 2 the inflection points. With several variables,
    the points where the gradient is 0, classified by the Hessian (minimum, maximum, saddle, inconclusive).
    Exact where SymPy solves it, decimals from autograd (float64) always. NAME=VALUE binds a constant."""
    from autodiff.engine.errors import UsageError

    sympy_first()
    text, assignments = read_formula(program, file, assignments, options, "critical")
    bindings = read_bindings(assignments, options, intervals=True)
    texts = dict(bindings.texts)
    from autodiff.app.session import Binding

    for name, value in bindings.point.items():  # a point value is a constant of the question
        bindings.constants.append(Binding(name, value, False))
    rule = None
    if options["constraint"] is not None:
        from autodiff.app.calculus.lagrange import constraint
        from autodiff.app.textbook.notation import read

        rule = constraint(options["constraint"], lambda side: read(side, [*bindings.intervals]).program)
    names, why = _variables(text, bindings, rule)
    if not names:
        raise UsageError("give the variable's interval, e.g. x=-2:2" + (f" (its variables cannot be read from the "
                                                                      f"program: {why})" if why else
                                                                      " (the program has no free variable)"))
    import numpy as np

    with np.errstate(all="ignore"):
        result = _answer(text, names, bindings, texts, options, rule)
    if output_format(options["output_format"]) == "json":
        write_json(_document(result))
    else:
        from autodiff.cli.output.critical_text import text as render
        from autodiff.cli.output.text import prose

        sys.stdout.write(prose(render(text, result), output_format(options["output_format"]) == "pretty"))
    return 0


def _answer(text: str, names: list[str], bindings: Any, texts: dict[str, str], options: dict[str, Any],
            rule: Any = None) -> Any:
    from autodiff.app.calculus.pointwise import Function
    from autodiff.engine.errors import UsageError

    fn = Function(text, names, bindings.constants)
    if rule is not None:
        if len(names) < 2 or options["order"] != 1:
            raise UsageError("--constraint is for a function of two or more variables (critical points, --order 1)")
        from autodiff.app.calculus.critical_nd import several_variables
        from autodiff.app.calculus.lagrange import constrained

        result = several_variables(fn, text, bindings.intervals, texts, options["points"],
                                   exact=not options["no_exact"])
        constrained(result, fn, Function(rule.program, names, bindings.constants), rule, text, texts,
                    exact=not options["no_exact"])
        return result
    if len(names) == 1:
        from autodiff.app.calculus.extrema import one_variable

        name = names[0]
        result = one_variable(fn, text, options["order"], bindings.intervals.get(name), texts,
                              bindings.interval_texts.get(name), options["points"] or 2001,
                              exact=not options["no_exact"])
    else:
        if options["order"] != 1:
            raise UsageError("--order 2 (inflection points) is for functions of one variable")
        from autodiff.app.calculus.critical_nd import several_variables

        result = several_variables(fn, text, bindings.intervals, texts, options["points"],
                                   exact=not options["no_exact"])
    return result


COMMANDS = [critical_command]


def _variables(text: str, bindings: Any, rule: Any = None) -> tuple[list[str], str | None]:
    """The names with an interval, then the program's other free names (not bound as constants); and why
    the program's names could not be read, if so."""
    from autodiff.app.symbolic.exact import declarable, expression

    bound = {b.name for b in bindings.constants}
    names = list(bindings.intervals)
    # the names with an interval declared: the interpreter need not ask every built-in whether x is one (which
    # imports the engine's rooms of the less common built-ins)
    found = expression(text, declarable(names))
    if not found:
        return names, found.reason
    names += [n for n in found[1] if n not in bound and n not in names]
    if rule is not None:  # the constraint's own variables too (x + y subject to x^2 + y^2 + z^2 = 1)
        more = expression(rule.program)
        names += [n for n in (more[1] if more else []) if n not in bound and n not in names]
    return names, None


def _document(result: Any) -> dict[str, Any]:
    """One shape in one variable and in several: each point has its coordinates (one key per variable),
    "exact" (a string or null: the coordinate, or with several variables the point "(-1, 0)"), "exact_point"
    (per variable, a string or null), "value", "exact_value", "kind", "type" and "test"; with several
    variables also "hessian", "eigenvalues" and (two) "D"."""
    one = len(result.variables) == 1
    points = []
    for p in result.points:
        at = {result.variables[0]: p.x} if one else dict(p.at)
        exact_point = {result.variables[0]: p.exact} if one else {n: (p.exact or {}).get(n) for n in at}
        entry: dict[str, Any] = {n: json_number(v) for n, v in at.items()}
        entry.update({"exact": _exact_point(exact_point), "exact_point": exact_point, "value": json_number(p.value),
                      "exact_value": p.exact_value, "kind": p.kind, "type": p.type if one else "grad f = 0",
                      "test": p.test})
        if not one:
            entry["hessian"] = [[json_number(v) for v in row] for row in p.hessian]
            entry["eigenvalues"] = [json_number(v) for v in p.eigenvalues]
            if p.discriminant is not None:
                entry["D"] = json_number(p.discriminant)
        points.append(entry)
    name = result.variables[0] if result.variables else "x"
    return {"variables": result.variables, "interval": {n: [a, b] for n, (a, b) in result.box.items()},
            "interval_given": result.given, "order": result.order, "points": points,
            "flat": [[f.start, f.stop] for f in result.flats],
            "absolute": {kind: [_extremum(e, name) for e in extrema] for kind, extrema in result.absolute.items()},
            "general": result.general, "method": result.method, "notes": result.notes,
            "chart": [{"start": json_number(p.start), "stop": json_number(p.stop), "sign": p.sign,
                       "words": p.words(result.order)} for p in result.chart],
            **({} if result.constraint is None else {"constraint": result.constraint, "constrained": [
                {**{n: json_number(v) for n, v in c.at.items()}, "exact_point": c.exact, "value": json_number(c.value),
                 "exact_value": c.exact_value, "multiplier": json_number(c.multiplier), "kind": c.kind}
                for c in result.constrained]})}


def _extremum(e: Any, name: str) -> dict[str, Any]:
    if hasattr(e, "at"):  # several variables: where it is too (inside, on an edge, a corner)
        exact_point = {n: e.exact.get(n) for n in e.at}
        return {**{n: json_number(v) for n, v in e.at.items()}, "exact": _exact_point(exact_point),
                "exact_point": exact_point, "value": json_number(e.value), "exact_value": e.exact_value,
                "where": e.where}
    return {name: json_number(e.x), "exact": e.exact, "exact_point": {name: e.exact}, "value": json_number(e.value),
            "exact_value": e.exact_value}


def _exact_point(exact: dict[str, str | None]) -> str | None:
    """The coordinate (one variable) or the point "(a, b)" (several), when every coordinate is exact."""
    if any(v is None for v in exact.values()):
        return None
    values = list(exact.values())
    return values[0] if len(values) == 1 else f"({', '.join(values)})"


__all__ = ["COMMANDS"]
