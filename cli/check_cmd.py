"""`autodiff check` (your derivative against autograd) and `autodiff gradcheck` (autograd against finite
differences). The numerics are autodiff.app.checking's; this module reads options and renders."""

from __future__ import annotations

import math
from typing import Any

import click

from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    batch_options,
    batch_program,
    binding_texts,
    dtype_option,
    engine_options,
    format_option,
    option,
    order_option,
    output_format,
    program_options,
    read_program,
    split_binding,
    tolerance_options,
)

DEFAULT_SAMPLES = 5  # the bound point and four around it: a formula right at one point only is caught

EPILOG_CHECK = """\b
Examples:
  autodiff check 'x**3 * sin(x)' x=1.2 --expect 'x=3*x**2*sin(x) + x**3*cos(x)'
  autodiff check 'x**2' x='randn()' --expect 'x=2*x' --samples 20 --seed 0
  autodiff check 'x * y**2' x=2 y=3 --expect 'x=y**2' --expect 'y=2*x*y'
  autodiff check '(x**2).sum()' x='rand(3)*4-2' --expect 'x=2*x' --samples 5 --format json
"""

EPILOG_GRADCHECK = """\b
Examples:
  autodiff gradcheck 'sin(x) * y' x=0.5 y='[1, 2]'
  autodiff gradcheck '(x @ w).tanh().sum()' x='randn(2, 3)' w='randn(3, 4)' --seed 0
  autodiff gradcheck 'softmax(x, dim=0)' x='randn(5)' --seed 1 --format json
"""


def _variables(assignments: tuple[str, ...], variables: tuple[str, ...], constants: tuple[str, ...],
               max_elements: int) -> list[Any]:
    """The bindings as VALUE texts (evaluated by the check, again for every sample), @PATH loaded once;
    a later binding of a name replaces an earlier one, as with eval."""
    from autodiff.app.comparison import Variable

    bound: dict[str, Variable] = {}
    for name, value, _, requires_grad in binding_texts(assignments, variables, constants):
        bound.pop(name, None)
        if value.startswith("@"):
            from autodiff.cli.inputs import load_array

            bound[name] = Variable(name, values=load_array(value[1:], max_elements), requires_grad=requires_grad)
        else:
            bound[name] = Variable(name, text=value, requires_grad=requires_grad)
    return list(bound.values())


def _setup(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any],
           reading: list | None = None) -> tuple[str, list[Any], str]:
    """The program, the variables and the format; with `reading` (check), the program is read in textbook
    notation too and its Reading is appended there."""
    if reading is None:
        text, assignments = read_program(program, file, assignments)
    else:
        from autodiff.cli.reading import read_math, refuse_equation

        read, assignments = read_math(program, file, assignments, options, show=False)
        refuse_equation(read, "check")
        text = read.program
        reading.append(read)
    variables = _variables(assignments, options["variables"], options["constants"], options["config"].max_elements)
    return text, variables, output_format(options["output_format"])


# ---------------------------------------------------------------------------- check
@click.command("check", cls=ProgramCommand, epilog=EPILOG_CHECK, context_settings=SETTINGS,
               short_help="Check your own derivatives against autograd.")
@program_options
@option("--expect", "expectations", multiple=True, metavar="[NAME=]EXPR",
        help="Your derivative of the program with respect to NAME, in the language (repeatable; NAME= may be "
             "left out when the program has one variable).")
@option("--samples", type=int, metavar="N",
        help="Check at N points (default 5): the bound values, then points drawn around them, or each VALUE "
             "evaluated again (e.g. x='randn()').")
@order_option("The N-th derivative: 2 when the expectations are second derivatives.", high=2)
@tolerance_options("1e-5 in float64, 1e-4 in float32", "1e-8 in float64, 1e-5 in float32")
@format_option()
@dtype_option("float64")
@engine_options(dtype=False)
@batch_options("Check")
def check_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Check your derivatives of PROGRAM against autograd.

    Each --expect NAME=EXPR is your derivative of the program's result with respect to the variable
    NAME (with one variable, --expect EXPR is enough; a variable left unbound gets random points in
    [-2, 2)), written in the language and evaluated (in float64) with the same bindings. It is
    compared elementwise with autograd's gradient, like torch.allclose: |yours - autograd| <= atol +
    rtol * |autograd|. --dtype is the precision of autograd's side; yours is always evaluated in float64.
    Exit status 0 when every derivative matches, 1 when one does not.
    """
    if options["batch"] is not None:
        from autodiff.cli.batch import run_batch

        text = batch_program(program, file, options["batch"])
        return run_batch(options, lambda: check_answering(text, assignments, options))
    report, read_as = _check(program, assignments, file, options)
    output = output_format(options["output_format"])
    if output == "json":
        from autodiff.cli import jsonout

        click.echo(jsonout.dumps(check_json(report, read_as)))
    else:
        from autodiff.cli.text import write

        if read_as is not None:
            click.echo(f"read as: {read_as}")
        write(check_doc(report), pretty=output == "pretty")
    return 0 if report.ok else 1


def _check(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]
           ) -> tuple[Any, str | None]:
    """The check's report, and how the program was read (None: as written)."""
    import numpy as np

    from autodiff.app.checking import CheckRequest, check_derivatives

    readings: list = []
    text, variables, _ = _setup(program, assignments, file, options, readings)
    expectations, unbound = _expectations(text, options["expectations"], variables)
    with np.errstate(all="ignore"):
        report = check_derivatives(CheckRequest(
            program=text, variables=variables, expectations=expectations, dtype=options["dtype"],
            samples=DEFAULT_SAMPLES if options["samples"] is None else options["samples"], seed=options["config"].seed,
            rtol=options["rtol"], atol=options["atol"], order=options["order"]))
    if unbound:
        from autodiff.app.checking import UNBOUND

        report.notes.append(f"{', '.join(unbound)}: not bound, so every point is random in [-2, 2) (a value "
                            f"{UNBOUND}); bind {unbound[0]}=VALUE to start from a point of your own")
    return report, readings[0].read_as


def check_answering(program: str | None, assignments: tuple[str, ...], options: dict[str, Any]) -> Any:
    """`check --batch`: each line's check (its program, bindings and expectations over the command line's),
    answered with the document `check --format json` prints for it."""
    from autodiff.app.batch import choice, named_texts, number, whole
    from autodiff.app.checking import MAX_SAMPLES
    from autodiff.cli.batch import line_options

    settings = {"expect": named_texts, "samples": whole(1, MAX_SAMPLES), "rtol": number, "atol": number,
                "order": whole(1, 2), "dtype": choice("float32", "float64"), "seed": whole(0)}

    def answer(line: Any) -> dict[str, Any]:
        text, mine, bound = line_options(line, program, assignments, options)
        if "expect" in line.settings:
            mine["expectations"] = tuple(f"{name}={expr}" for name, expr in line.settings["expect"].items())
        report, read_as = _check(text, bound, None, mine)
        return check_json(report, read_as)

    return settings, answer


def _expectations(program: str, texts: tuple[str, ...], variables: list[Any]) -> tuple[list[Any], list[str]]:
    """--expect NAME=EXPR (or EXPR alone when the program has one variable), and the variables named there that
    nothing binds: they are bound here to random points (check samples anyway), and listed for a note."""
    from autodiff.app.checking import UNBOUND, free_names
    from autodiff.app.comparison import Variable
    from autodiff.engine.errors import UsageError

    split = [_split_expectation(t) for t in texts]
    bound = [v.name for v in variables if v.requires_grad]
    free: list[str] = []
    if any(name is None or name not in {v.name for v in variables} for name, _ in split):
        free = free_names(program, variables)
    for name in free:  # check samples anyway: a variable nothing binds gets random points
        variables.append(Variable(name, text=UNBOUND))
    out = []
    for text, (name, expr) in zip(texts, split):
        if name is None:
            candidates = [*bound, *free]
            if len(candidates) != 1:
                listed = ", ".join(candidates) or "none"
                raise UsageError(f"--expect {text!r}: which variable is it the derivative for? The program has "
                                 f"{len(candidates)} ({listed}): write NAME=EXPR, e.g. --expect "
                                 f"'{(candidates or ['x'])[0]}={expr}'")
            name = candidates[0]
        out.append(_expectation(name, expr, text, [v.name for v in variables]))
    return out, free


def _split_expectation(text: str) -> tuple[str | None, str]:
    """NAME=EXPR as (NAME, EXPR); an EXPR without NAME= (its first = not an assignment's) as (None, EXPR)."""
    from autodiff.app.notation import name

    left, sep, right = text.partition("=")
    if sep and left.strip() and not right.startswith("=") and name(left.strip()).isidentifier():
        split_binding(text, "--expect")  # the checks of a binding (a name, a value)
        return name(left.strip()), right.strip()
    if not text.strip():
        split_binding(text, "--expect")
    return None, text.strip()


def _expectation(name: str, expr: str, text: str, names: list[str]) -> Any:
    """--expect NAME=EXPR, EXPR in textbook notation too (2x cos(x^2))."""
    from autodiff.app.checking import Expectation
    from autodiff.app.notation import read

    return Expectation(name, read(expr, names).program, label=f"--expect {text}")


def number(value: float) -> str:
    """A number for a sentence: 6 significant digits, nan/inf spelled as Python does."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.6g}"


def _values_text(values: Any, limit: int = 8) -> str:
    """A bound value for a sentence: a number, or a short list (long ones summarised by their shape)."""
    import numpy as np

    array = np.asarray(values)
    if array.ndim == 0:
        return number(float(array))
    if array.size > limit:
        return f"<a tensor of shape {tuple(array.shape)}>"
    text = np.array2string(array.astype(np.float64), separator=", ", formatter={"float": number},
                           max_line_width=1_000_000)
    return " ".join(text.split())


def _point_text(point: dict[str, Any]) -> str:
    return ", ".join(f"{name} = {_values_text(v)}" for name, v in point.items()) or "(no variables)"


def _element(index: tuple[int, ...]) -> str:
    return f"[{', '.join(str(i) for i in index)}]" if index else ""


def _label(name: str, order: int) -> str:
    """d/dx, or d2/dx2 for a second derivative (as `autodiff diff` labels them)."""
    return f"d/d{name}" if order == 1 else f"d{order}/d{name}{order}"


def _kind(order: int) -> str:
    return "derivative" if order == 1 else "second derivative"


def check_sentence(result: Any, order: int = 1) -> str:
    """The verdict as a student reads it: where, both values, and by how much."""
    import numpy as np

    worst = result.worst
    flat = int(np.ravel_multi_index(worst.index, result.shape)) if worst.index else 0
    expected = float(worst.expected.reshape(-1)[flat])
    true = float(worst.autograd.reshape(-1)[flat])
    label = _label(result.name, order)
    where = _point_text(worst.point)
    if result.ok:
        return (f"{label} matches the {_kind(order)}; the largest difference is {number(worst.abs_error)}, "
                f"for {label}{_element(worst.index)} at {where}")
    return (f"{label}{_element(worst.index)} is wrong at {where}: you gave {number(expected)}, the {_kind(order)} "
            f"is {number(true)} (off by {number(worst.abs_error)})")


def check_doc(report: Any) -> Any:
    """Plain/pretty text of a check report."""
    from autodiff.cli.text import Doc

    doc = Doc()
    where = "at the bound values" if report.samples == 1 and report.seed is None else \
        f"at {report.samples} point{'s' if report.samples != 1 else ''}" + \
        (f" (seed {report.seed})" if report.seed is not None else "")
    count, kind = len(report.checks), _kind(report.order)
    doc.line((f"checking {count} {kind}{'s' if count != 1 else ''} {where}", "title"))
    doc.line((f"{report.dtype}; passes when |yours - the {kind}| <= {number(report.atol)} + "
              f"{number(report.rtol)} * |the {kind}|", "muted"))
    for note in report.notes:
        doc.line(("note: ", "hint"), (note, "hint"))
    if len(report.points) > 1:
        shown = report.points[:10]
        doc.line(("points: ", "muted"), ("; ".join(_point_text(p) for p in shown)
                                          + (f"; ... ({len(report.points)} in all)" if len(report.points) > 10
                                             else ""), "muted"))
    width = max(len(_label(c.name, report.order)) for c in report.checks)
    for result in report.checks:
        _check_lines(doc, result, report.order, width)
    doc.blank()
    wrong = [_label(c.name, report.order) for c in report.checks if not c.ok]
    if wrong:
        doc.line((f"wrong: {', '.join(wrong)} ({len(wrong)} of {count})", "error"))
        if any(c.mistake for c in report.checks):
            doc.line(("the rules, step by step: autodiff diff PROGRAM --steps", "hint"))
    elif count == 1:
        doc.line((f"your {kind} is right", "bold green"))
    else:
        doc.line((f"all {count} of your {kind}s are right", "bold green"))
    return doc


def _check_lines(doc: Any, result: Any, order: int, width: int) -> None:
    """One expectation: its verdict, the sentence, the likely mistake, the tensors at the worst point."""
    doc.blank()
    verdict = ("ok", "bold green") if result.ok else ("WRONG", "bold red")
    doc.line((_label(result.name, order).ljust(width), "name"), ("  ", ""), verdict, ("  ", ""),
             (f"yours: {result.text}", "muted"))
    doc.line(("  ", ""), (check_sentence(result, order), "" if result.ok else "error"))
    if result.mistake:
        doc.line(("  likely mistake: ", "hint"), (result.mistake, "hint"))
    worst = result.worst
    if worst.autograd.ndim:  # the sentence names one element; show the whole tensors at that point
        doc.block([("  ", ""), ("you gave  ", "muted")], _tensor_text(worst.expected))
        doc.block([("  ", ""), ("correct   ", "muted")], _tensor_text(worst.autograd))
    doc.line(("  ", ""), ("max abs error ", "muted"), (number(result.max_abs_error), ""),
             ("  max rel error ", "muted"), (number(result.max_rel_error), ""))


def _tensor_text(values: Any) -> str:
    from autodiff.engine.formatting import format_tensor

    return format_tensor(values, default_dtype=values.dtype)


def check_json(report: Any, read_as: str | None = None) -> dict[str, Any]:
    """The documented JSON document: {"ok", "checks": [{"name", "ok", "max_abs_error", "worst": {...}}]}, with
    "read_as" first when the program was read from textbook notation."""
    from autodiff.cli import jsonout

    checks = []
    for result in report.checks:
        worst = result.worst
        checks.append({
            "name": result.name,
            "ok": result.ok,
            "expect": result.text,
            **({"mistake": result.mistake} if result.mistake else {}),
            "max_abs_error": _float(result.max_abs_error),
            "max_rel_error": _float(result.max_rel_error),
            "worst": {
                "point": {name: jsonout.values(v) for name, v in worst.point.items()},
                "expected": jsonout.values(worst.expected),
                "autograd": jsonout.values(worst.autograd),
                "index": list(worst.index),
                "sample": worst.sample,
                "abs_error": _float(worst.abs_error),
                "rel_error": _float(worst.rel_error),
            },
            "message": check_sentence(result, report.order),
        })
    document = {**({"read_as": read_as} if read_as is not None else {}),
                "ok": report.ok, "checks": checks, "samples": report.samples, "seed": report.seed,
                "dtype": report.dtype, "rtol": report.rtol, "atol": report.atol, "notes": report.notes,
                "order": report.order,
                "points": [{name: jsonout.values(v) for name, v in p.items()} for p in report.points]}
    return document


def _float(value: float) -> float | str:
    """A number for strict JSON: nan and the infinities as strings, as everywhere in autodiff's JSON."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


# ---------------------------------------------------------------------------- gradcheck
@click.command("gradcheck", cls=ProgramCommand, epilog=EPILOG_GRADCHECK, context_settings=SETTINGS,
               short_help="Compare autograd with central finite differences, in float64.")
@program_options
@option("--eps", type=float, default=1e-6, show_default=True, help="The finite-difference step.")
@tolerance_options(rtol=1e-3, atol=1e-5)
@option("--max-perturbations", type=int, default=10_000, show_default=True,
        help="Refuse to perturb more leaf elements than this (each costs two evaluations).")
@format_option()
@engine_options("float64")
def gradcheck_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Compare autograd's gradient of PROGRAM with central finite differences, in float64.

    Every element of every bound variable is moved by +eps and -eps and the program evaluated again
    (PyTorch's gradcheck idea). A scalar result compares the gradient; a result of up to 32 elements
    compares the full Jacobian; a larger one compares the product with a fixed random vector.
    Passes when |autograd - numerical| <= atol + rtol * |numerical| everywhere; exit status 1 otherwise.
    """
    import numpy as np

    from autodiff.app.gradcheck import GradcheckRequest, gradcheck

    text, variables, output = _setup(program, assignments, file, options)
    with np.errstate(all="ignore"):
        report = gradcheck(GradcheckRequest(
            program=text, variables=variables, eps=options["eps"], atol=options["atol"], rtol=options["rtol"],
            max_perturbations=options["max_perturbations"], seed=options["config"].seed))
    if output == "json":
        import sys

        sys.stdout.write(gradcheck_json(report) + "\n")
    else:
        from autodiff.cli.text import write

        write(gradcheck_doc(report), pretty=output == "pretty")
    return 0 if report.ok else 1


_METHODS = {
    "gradient": "the gradient (the result is a scalar)",
    "jacobian": "the full Jacobian ({n} outputs)",
    "projection": "the Jacobian times a fixed random vector ({n} outputs)",
}


def _leaf_sentence(leaf: Any, method: str) -> str:
    where = f"{leaf.name}{_element(leaf.index)}"
    if leaf.output is not None:
        where += f" (output element {_element(leaf.output) or '[]'})"
    if leaf.ok:
        return f"largest difference at {where}: autograd {number(leaf.autograd)}, numerical {number(leaf.numerical)}"
    return (f"wrong at {where}: autograd says {number(leaf.autograd)}, finite differences say "
            f"{number(leaf.numerical)} (off by {number(abs(leaf.autograd - leaf.numerical))})")


def gradcheck_doc(report: Any) -> Any:
    from autodiff.cli.text import Doc

    doc = Doc()
    outputs = math.prod(report.root_shape)
    doc.line(("gradcheck in float64", "title"), (f": central differences with eps {number(report.eps)}, comparing "
                                                 f"{_METHODS[report.method].format(n=outputs)}", ""))
    doc.line((f"passes when |autograd - numerical| <= {number(report.atol)} + {number(report.rtol)} * |numerical|; "
              f"{report.evaluations} evaluations of the program", "muted"))
    for note in report.notes:
        doc.line(("note: ", "hint"), (note, "hint"))
    doc.blank()
    width = max(len(leaf.name) for leaf in report.leaves)
    for leaf in report.leaves:
        verdict = ("ok   ", "bold green") if leaf.ok else ("WRONG", "bold red")
        size = math.prod(leaf.shape)
        doc.line(("  ", ""), (leaf.name.ljust(width), "name"), ("  ", ""), verdict,
                 ("  max abs error ", "muted"), (number(leaf.max_abs_error), ""),
                 ("  max rel error ", "muted"), (number(leaf.max_rel_error), ""),
                 (f"  ({size} element{'s' if size != 1 else ''})", "muted"))
        doc.line(("  " + " " * width + "  ", ""), (_leaf_sentence(leaf, report.method), "" if leaf.ok else "error"))
    doc.blank()
    wrong = [leaf.name for leaf in report.leaves if not leaf.ok]
    if wrong:
        doc.line((f"failed: autograd disagrees with finite differences for {', '.join(wrong)}", "error"))
        doc.line(("a point where the program is not smooth (relu or abs at 0, max at a tie, clamp at a bound) "
                  "also disagrees: there, try another point", "muted"))
    else:
        doc.line(("passed: autograd agrees with finite differences", "bold green"))
    return doc


def gradcheck_json(report: Any) -> str:
    from autodiff.cli import jsonout

    leaves = [{
        "name": leaf.name,
        "ok": leaf.ok,
        "shape": list(leaf.shape),
        "max_abs_error": _float(leaf.max_abs_error),
        "max_rel_error": _float(leaf.max_rel_error),
        "worst": {"index": list(leaf.index), "output": None if leaf.output is None else list(leaf.output),
                  "autograd": _float(leaf.autograd), "numerical": _float(leaf.numerical)},
    } for leaf in report.leaves]
    document = {"ok": report.ok, "dtype": "float64", "method": report.method, "root_shape": list(report.root_shape),
                "eps": report.eps, "atol": report.atol, "rtol": report.rtol, "evaluations": report.evaluations,
                "leaves": leaves, "notes": report.notes}
    return jsonout.dumps(document)


COMMANDS: list = [check_command, gradcheck_command]
