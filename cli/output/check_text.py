"""The text of `autodiff check` and `autodiff gradcheck` reports (plain and pretty: text.Doc, whose tables are
Rich tables in pretty output), and the sentences their JSON shares."""

from __future__ import annotations

import math
from typing import Any


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


def element(index: tuple[int, ...]) -> str:
    return f"[{', '.join(str(i) for i in index)}]" if index else ""


def derivative_label(name: str, order: int) -> str:
    """d/dx, or d2/dx2 for a second derivative (as `autodiff diff` labels them)."""
    return f"d/d{name}" if order == 1 else f"d{order}/d{name}{order}"


def kind_of(order: int) -> str:
    return "derivative" if order == 1 else "second derivative"


def check_sentence(result: Any, order: int = 1) -> str:
    """The verdict as a student reads it: where, both values, and by how much."""
    import numpy as np

    worst = result.worst
    flat = int(np.ravel_multi_index(worst.index, result.shape)) if worst.index else 0
    expected = float(worst.expected.reshape(-1)[flat])
    true = float(worst.autograd.reshape(-1)[flat])
    label = derivative_label(result.name, order)
    where = _point_text(worst.point)
    if result.ok:
        return (f"{label} matches the {kind_of(order)}; the largest difference is {number(worst.abs_error)}, "
                f"for {label}{element(worst.index)} at {where}")
    return (f"{label}{element(worst.index)} is wrong at {where}: you gave {number(expected)}, the {kind_of(order)} "
            f"is {number(true)} (off by {number(worst.abs_error)})")


def check_doc(report: Any, subject: str | None = None) -> Any:
    """Plain/pretty text of a check report; `subject` names what was checked in the verdict (antiderivative)."""
    from autodiff.cli.output.text import Doc

    doc = Doc()
    where = "at the bound values" if report.samples == 1 and report.seed is None else \
        f"at {report.samples} point{'s' if report.samples != 1 else ''}" + \
        (f" (seed {report.seed})" if report.seed is not None else "")
    count, kind = len(report.checks), kind_of(report.order)
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
    doc.blank()
    doc.table(_check_grid(report))
    doc.blank()
    wrong = [derivative_label(c.name, report.order) for c in report.checks if not c.ok]
    if wrong:
        doc.line((f"wrong: {', '.join(wrong)} ({len(wrong)} of {count})", "error"))
        if any(c.mistake for c in report.checks):
            doc.line(("the rules, step by step: autodiff diff PROGRAM --steps", "hint"))
    elif count == 1:
        doc.line((f"your {subject or kind} is right", "bold green"))
    else:
        doc.line((f"all {count} of your {kind}s are right", "bold green"))
    return doc


def _check_grid(report: Any) -> Any:
    """The expectations: pretty, a table (verdict, errors, yours) and then each one's sentence, likely mistake
    and tensors; plain, one block each, its label padded."""
    from autodiff.cli.output.text import Doc, Grid

    plain, after, rows = Doc(), [], []
    width = max(len(derivative_label(c.name, report.order)) for c in report.checks)
    for result in report.checks:
        name = derivative_label(result.name, report.order)
        verdict = ("ok", "bold green") if result.ok else ("WRONG", "bold red")
        plain.blank()
        plain.line((name.ljust(width), "name"), ("  ", ""), verdict, ("  ", ""), (f"yours: {result.text}", "muted"))
        details = Doc()
        _check_details(details, result, report.order)
        plain.lines += details.lines
        plain.line(("  ", ""), ("max abs error ", "muted"), (number(result.max_abs_error), ""),
                   ("  max rel error ", "muted"), (number(result.max_rel_error), ""))
        rows.append([(name, "name"), verdict, number(result.max_abs_error), number(result.max_rel_error),
                     result.text])
        after += [[], [(name, "name")], *details.lines]
    return Grid(["", "", "max abs error", "max rel error", "yours"], rows, ["left", "left", "right", "right", "left"],
                plain.plain().splitlines(), styles=["name", "", "", "", "muted"], after=after)


def _check_details(doc: Any, result: Any, order: int) -> None:
    """One expectation's sentence, the likely mistake, the tensors at the worst point."""
    doc.line(("  ", ""), (check_sentence(result, order), "" if result.ok else "error"))
    if result.mistake:
        doc.line(("  likely mistake: ", "hint"), (result.mistake, "hint"))
    worst = result.worst
    if worst.autograd.ndim:  # the sentence names one element; show the whole tensors at that point
        doc.block([("  ", ""), ("you gave  ", "muted")], _tensor_text(worst.expected))
        doc.block([("  ", ""), ("correct   ", "muted")], _tensor_text(worst.autograd))


def _tensor_text(values: Any) -> str:
    from autodiff.engine.core.formatting import format_tensor

    return format_tensor(values, default_dtype=values.dtype)


_METHODS = {
    "gradient": "the gradient (the result is a scalar)",
    "jacobian": "the full Jacobian ({n} outputs)",
    "projection": "the Jacobian times a fixed random vector ({n} outputs)",
}


def _leaf_sentence(leaf: Any, method: str) -> str:
    where = f"{leaf.name}{element(leaf.index)}"
    if leaf.output is not None:
        where += f" (output element {element(leaf.output) or '[]'})"
    if leaf.ok:
        return f"largest difference at {where}: autograd {number(leaf.autograd)}, numerical {number(leaf.numerical)}"
    return (f"wrong at {where}: autograd says {number(leaf.autograd)}, finite differences say "
            f"{number(leaf.numerical)} (off by {number(abs(leaf.autograd - leaf.numerical))})")


def _leaves_grid(report: Any) -> Any:
    """Each leaf's verdict: pretty, a table (verdict, errors, elements) and then the sentences; plain, two lines
    each, the name padded."""
    from autodiff.cli.output.text import Doc, Grid

    plain, rows, after = Doc(), [], []
    width = max(len(leaf.name) for leaf in report.leaves)
    for leaf in report.leaves:
        verdict = ("ok   ", "bold green") if leaf.ok else ("WRONG", "bold red")
        size = math.prod(leaf.shape)
        sentence = (_leaf_sentence(leaf, report.method), "" if leaf.ok else "error")
        plain.line(("  ", ""), (leaf.name.ljust(width), "name"), ("  ", ""), verdict,
                   ("  max abs error ", "muted"), (number(leaf.max_abs_error), ""),
                   ("  max rel error ", "muted"), (number(leaf.max_rel_error), ""),
                   (f"  ({size} element{'s' if size != 1 else ''})", "muted"))
        plain.line(("  " + " " * width + "  ", ""), sentence)
        rows.append([(leaf.name, "name"), (verdict[0].strip(), verdict[1]), number(leaf.max_abs_error),
                     number(leaf.max_rel_error), str(size)])
        after.append([("  ", ""), (leaf.name, "name"), (": ", ""), sentence])
    return Grid(["", "", "max abs error", "max rel error", "elements"], rows, ["left", "left", "right", "right",
                                                                             "right"], plain.plain().splitlines(),
                styles=["name"], after=[[], *after])


def gradcheck_doc(report: Any) -> Any:
    from autodiff.cli.output.text import Doc

    doc = Doc()
    outputs = math.prod(report.root_shape)
    doc.line(("gradcheck in float64", "title"), (f": central differences with eps {number(report.eps)}, comparing "
                                                 f"{_METHODS[report.method].format(n=outputs)}", ""))
    doc.line((f"passes when |autograd - numerical| <= {number(report.atol)} + {number(report.rtol)} * |numerical|; "
              f"{report.evaluations} evaluations of the program", "muted"))
    for note in report.notes:
        doc.line(("note: ", "hint"), (note, "hint"))
    doc.blank()
    doc.table(_leaves_grid(report))
    doc.blank()
    wrong = [leaf.name for leaf in report.leaves if not leaf.ok]
    if wrong:
        doc.line((f"failed: autograd disagrees with finite differences for {', '.join(wrong)}", "error"))
        doc.line(("a point where the program is not smooth (relu or abs at 0, max at a tie, clamp at a bound) "
                  "also disagrees: there, try another point", "muted"))
    else:
        doc.line(("passed: autograd agrees with finite differences", "bold green"))
    return doc
