"""The body of `autodiff check` (your derivative against autograd), once click has read its options
(cli/commands/check_cmd.py declares them). The numerics are autodiff.app.checking's; this module reads the program and
bindings and renders the report."""

from __future__ import annotations

from typing import Any

from autodiff.cli.commandline import batch_program, binding_texts, echo, output_format, read_program, split_binding
from autodiff.cli.output.check_text import check_doc, check_sentence

DEFAULT_SAMPLES = 5  # the bound point and four around it: a formula right at one point only is caught


def check_body(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]) -> int:
    """`autodiff check` once its options are read: exit status 0 when every derivative
    matches, 1 when one does not."""
    if options["batch"] is not None:
        from autodiff.cli.batch import run_batch

        text = batch_program(program, file, options["batch"])
        return run_batch(options, lambda: check_answering(text, assignments, options),
                         stdin_text=text if "-" in (program, file) else None)
    report, read_as = _check(program, assignments, file, options)
    output = output_format(options["output_format"])
    if output == "json":
        from autodiff.cli.output import jsonout

        echo(jsonout.dumps(check_json(report, read_as)))
    else:
        from autodiff.cli.output.text import write

        if read_as is not None:
            echo(f"read as: {read_as}")
        subject = None if options.get("antiderivative") is None else "antiderivative"
        write(check_doc(report, subject), pretty=output == "pretty")
    return 0 if report.ok else 1


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


def setup(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any],
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


def _check(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]
           ) -> tuple[Any, str | None]:
    """The check's report, and how the program was read (None: as written)."""
    import numpy as np

    from autodiff.app.checking import check_derivatives

    request, read_as, unbound = check_request(program, assignments, file, options)
    with np.errstate(all="ignore"):
        report = check_derivatives(request)
    return checked(report, request.program, unbound, options), read_as


def check_request(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]
                  ) -> tuple[Any, str | None, list[str]]:
    """What to check (app.checking's CheckRequest), how the program was read (None: as written), and the
    variables nothing binds."""
    from autodiff.app.checking import CheckRequest

    readings: list = []
    text, variables, _ = setup(program, assignments, file, options, readings)
    expect = options["expectations"]
    if options.get("antiderivative") is not None:  # F' = f: F is the program to differentiate, f the expectation
        if expect or options["order"] != 1:
            from autodiff.engine.errors import UsageError

            raise UsageError("--antiderivative checks F' = f by itself: leave out --expect and --order")
        text, expect = _antiderivative(options["antiderivative"], variables), (text,)
    expectations, unbound = _expectations(text, expect, variables)
    request = CheckRequest(
        program=text, variables=variables, expectations=expectations, dtype=options["dtype"],
        samples=DEFAULT_SAMPLES if options["samples"] is None else options["samples"], seed=options["config"].seed,
        rtol=options["rtol"], atol=options["atol"], order=options["order"])
    return request, readings[0].read_as, unbound


def checked(report: Any, text: str, unbound: list[str], options: dict[str, Any]) -> Any:
    """The report with the command's own notes (--antiderivative's, the unbound variables')."""
    if options.get("antiderivative") is not None:
        for check in report.checks:
            check.mistake = None  # the mistakes app.mistakes names are a derivative's, not an integral's
        report.notes.insert(0, f"--antiderivative: d/d{report.checks[0].name} of {text} compared with the program "
                               "(yours, the derivative, is the program here)")
    if unbound:
        from autodiff.app.checking import UNBOUND

        report.notes.append(f"{', '.join(unbound)}: not bound, so every point is random in [-2, 2) (a value "
                            f"{UNBOUND}); bind {unbound[0]}=VALUE to start from a point of your own")
    return report


def _antiderivative(text: str, variables: list[Any]) -> str:
    """F in the language (textbook notation too), without a book's trailing + C."""
    import re

    from autodiff.app.textbook.notation import read

    bare = re.sub(r"\s*\+\s*C\s*$", "", text)
    return read(bare, [v.name for v in variables]).program


def check_answering(program: str | None, assignments: tuple[str, ...], options: dict[str, Any]) -> Any:
    """`check --batch`: each line's check (its program, bindings and expectations over the command line's),
    answered with the document `check --format json` prints for it; the lines waiting that check one program
    the same way are run together (cli/commands/check_batch.py)."""
    from autodiff.app.batch import choice, named_texts, number, whole
    from autodiff.app.checking import MAX_SAMPLES
    from autodiff.cli.commands.check_batch import Together

    settings = {"expect": named_texts, "samples": whole(1, MAX_SAMPLES), "rtol": number, "atol": number,
                "order": whole(1, 2), "dtype": choice("float32", "float64"), "seed": whole(0)}

    def answer(line: Any) -> dict[str, Any]:
        text, mine, bound = line_request(line, program, assignments, options)
        report, read_as = _check(text, bound, None, mine)
        return check_json(report, read_as)

    def prepare(line: Any) -> tuple[Any, Any]:
        """The line's check up to its runs, and what makes its document of the report (as `answer` makes it)."""
        from autodiff.app.checking import prepare_check

        text, mine, bound = line_request(line, program, assignments, options)
        request, read_as, unbound = check_request(text, bound, None, mine)
        return prepare_check(request), lambda report: check_json(checked(report, request.program, unbound, mine),
                                                                read_as)

    return settings, answer, Together(assignments, options, prepare)


def line_request(line: Any, program: str | None, assignments: tuple[str, ...], options: dict[str, Any]
                 ) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """A batch line's program, options (its expectations and settings in place) and NAME=VALUE bindings."""
    from autodiff.cli.batch import line_options

    text, mine, bound = line_options(line, program, assignments, options)
    if "expect" in line.settings:
        mine["expectations"] = tuple(f"{name}={expr}" for name, expr in line.settings["expect"].items())
    return text, mine, bound


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
    from autodiff.app.textbook.notation import name

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
    from autodiff.app.textbook.notation import read

    return Expectation(name, read(expr, names).program, label=f"--expect {text}")


def check_json(report: Any, read_as: str | None = None) -> dict[str, Any]:
    """The documented JSON document: {"ok", "checks": [{"name", "ok", "max_abs_error", "worst": {...}}]}, with
    "read_as" first when the program was read from textbook notation."""
    from autodiff.cli.output import jsonout

    checks = []
    for result in report.checks:
        worst = result.worst
        checks.append({
            "name": result.name,
            "ok": result.ok,
            "expect": result.text,
            **({"mistake": result.mistake} if result.mistake else {}),
            "max_abs_error": jsonout.number(result.max_abs_error),
            "max_rel_error": jsonout.number(result.max_rel_error),
            "worst": {
                "point": {name: jsonout.values(v) for name, v in worst.point.items()},
                "expected": jsonout.values(worst.expected),
                "autograd": jsonout.values(worst.autograd),
                "index": list(worst.index),
                "sample": worst.sample,
                "abs_error": jsonout.number(worst.abs_error),
                "rel_error": jsonout.number(worst.rel_error),
            },
            "message": check_sentence(result, report.order),
        })
    document = {**({"read_as": read_as} if read_as is not None else {}),
                "ok": report.ok, "checks": checks, "samples": report.samples, "seed": report.seed,
                "dtype": report.dtype, "rtol": report.rtol, "atol": report.atol, "notes": report.notes,
                "order": report.order,
                "points": [{name: jsonout.values(v) for name, v in p.items()} for p in report.points]}
    return document
