"""The body of `autodiff eval`: options to an EvalRequest, the request to autodiff.app.session, the result
to text or JSON. `--batch` (cli/batch.py) reuses the request and the JSON document built here."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from autodiff.app.session import EvalRequest, EvalResult, constant, run_eval
from autodiff.cli.commandline import bindings_from, output_format, spelled
from autodiff.cli.output.limit_notes import eval_notes
from autodiff.engine import Tensor

if TYPE_CHECKING:
    from autodiff.cli.output.text import Doc

# JSON (jsonout, with Python's json) and text (cli/output/text.py) are imported by the output that uses them: a one-shot
# command imports one of the two.


def run_eval_command(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> None:
    output = output_format(options["output_format"])
    if output == "json":
        with np.errstate(all="ignore"):
            request = eval_request(program, assignments, options)
            result, graph, steps = evaluate(request, options)
            warnings = result.warnings + precision_warnings(texts_of(program, assignments, options), options,
                                                            result, lambda: eval_request(program, assignments, options))
            warnings += eval_notes(program, request, result, options)
        document = json_document(result, graph if options["trace"] else None, steps)
        if warnings:
            document["warnings"] = warnings
        from autodiff.cli.output import jsonout

        jsonout.write(document, sys.stdout.write)  # piecewise: large arrays are never one string
        sys.stdout.write("\n")
        return
    pretty = output == "pretty"
    from autodiff.engine.core.formatting import set_printoptions

    set_printoptions(options.get("digits"))
    try:
        with np.errstate(all="ignore"):
            request = eval_request(program, assignments, options)
            request.keep = _shown  # each pass keeps the text it prints, not a copy of a large gradient
            result, graph, steps = evaluate(request, options)
            warnings = result.warnings + precision_warnings(texts_of(program, assignments, options), options,
                                                            result, lambda: eval_request(program, assignments, options))
            warnings += eval_notes(program, request, result, options)
        for warning in warnings:
            sys.stderr.write(f"autodiff: warning: {warning}\n")
        from autodiff.cli.output.text import write

        write(eval_doc(result, request, options, graph if options["trace"] else None, pretty), pretty=pretty)
        if steps is not None:
            from autodiff.cli.output.explain_text import write_steps

            write_steps(steps, result, options, pretty)
    finally:
        set_printoptions(profile="default")


def precision_warnings(texts: list[str], options: dict[str, Any], result: EvalResult,
                       rebuild: Callable[[], EvalRequest]) -> list[str]:
    """Where float32 lost the digits (app.precision), in the command line's words; not for random programs
    (their draws would differ). `texts`: the program and the values as written; `rebuild` makes the request
    again (in the dtype then in force)."""
    from autodiff.app.precision import lost_digits

    if any("rand" in t for t in texts):
        return []
    return [lost_digits_text(lost) for lost in lost_digits(result, rebuild, options["config"])]


def lost_digits_text(lost: Any) -> str:
    """The warning for one value float32 got wrong (app.precision.LostDigits)."""
    return (f"{lost.what} is {lost.float32:.6g} in float32 but {lost.float64:.10g} in float64: float32 has lost the "
            "digits here; run with --dtype float64")


def texts_of(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> list[str]:
    """The program and every value as written on the command line."""
    return [program, *assignments, *options["variables"], *options["constants"], options["grad_tensor"] or ""]


def eval_request(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> EvalRequest:
    """The eval options as a request (bindings and --grad-tensor evaluated)."""
    return EvalRequest(
        program=program,
        bindings=bindings_from(assignments, options["variables"], options["constants"],
                                   options["config"].max_elements),
        grad_tensor=None if options["grad_tensor"] is None else
        constant(options["grad_tensor"], spelled("grad_tensor")),
        retain_graph=options["retain_graph"],
        backward=list(options["backward"]),
        repeat=options["repeat"],
        zero_grad=options["zero_grad"],
        retain_grad=list(options["retain_grad"]),
        order=options["order"],
        wrt=options.get("wrt"),
        detect_anomaly=options["detect_anomaly"],
    )


def evaluate(request: EvalRequest, options: dict[str, Any]) -> tuple[EvalResult, Any, list[Any] | None]:
    """Run the request; the graph when --trace or --explain needs it, and the --explain steps."""
    explainer = None
    if options["explain"]:
        from autodiff.app.explain import Explainer

        explainer = request.observe = Explainer()
    result = run_eval(request)
    graph = None
    if options["trace"] or explainer is not None:
        from autodiff.app.graph import graph_of  # only here: a module of its own for --trace and --explain

        extra = [t for t in result.targets if t is not result.root]
        graph = graph_of(result.root, result.evaluation.names, extra)
    steps = None
    if explainer is not None:
        from autodiff.app.explain import explain

        steps = explain(explainer, graph)
    return result, graph, steps


def json_document(result: EvalResult, graph: Any, steps: list[Any] | None) -> dict[str, Any]:
    """The eval JSON document (README: JSON output); `graph` (--trace) and `steps` (--explain) when given.
    Large arrays in it are jsonout.Lazy: jsonout.write writes them piecewise, jsonout.dumps at once."""
    from autodiff.cli.output import jsonout

    document: dict[str, Any] = {
        "root": jsonout.tensor_summary(result.evaluation.root_name, result.root),
        "passes": [{"root": p.root, "grads": {n: jsonout.lazy(g) for n, g in p.grads.items()},
                    **({"order": p.order} if p.order else {})} for p in result.passes],
        "grads": {n: jsonout.lazy(g) for n, g in result.grads.items()},
    }
    if graph is not None:
        document["graph"] = jsonout.graph_document(graph)
    if steps is not None:
        document["steps"] = [jsonout.step_document(step) for step in steps]
    return document


class Shown:
    """What text output keeps of a pass's large gradient: the text it prints, and the gradient's size."""

    __slots__ = ("size", "text")

    def __init__(self, text: str, size: int) -> None:
        self.text, self.size = text, size


def _shown(values: np.ndarray) -> Any:
    """A copy of a small gradient; the printed text of a large one (which prints its edges only)."""
    from autodiff.engine.core.formatting import THRESHOLD

    if values.size <= THRESHOLD:
        return np.array(values, copy=True)
    return Shown(_repr(values), int(values.size))


def _size(values: Any) -> int:
    return values.size if isinstance(values, Shown) else int(np.asarray(values).size)


def _repr(values: Any) -> str:
    if values is None:
        return "None"
    if isinstance(values, Shown):
        return values.text
    from autodiff import engine
    from autodiff.engine.core.formatting import format_tensor

    return format_tensor(values, default_dtype=engine.get_default_dtype())


def eval_doc(result: EvalResult, request: EvalRequest, options: dict[str, Any], graph: Any, pretty: bool) -> Doc:
    from autodiff.cli.output.text import Doc, tree_lines

    doc = Doc()
    root_name = result.evaluation.root_name
    doc.block([(root_name or "root", "name"), (" = ", "")], repr(result.root))
    if result.skipped_backward:
        from autodiff.cli.errors import NO_GRAD_ADVICE  # (the messages of failures: not imported by a success)

        doc.blank()
        doc.line(("no backward pass: ", "muted"), (f"{result.skipped_backward}: {NO_GRAD_ADVICE}", "hint"))
    gradient = f"gradient={options['grad_tensor']}" if options.get("grad_tensor") else ""
    for i, p in enumerate(result.passes, 1):
        doc.blank()
        if p.order:
            (leaf,) = p.grads
            power = "" if p.order == 1 else str(p.order)
            values = p.grads[leaf]
            if p.order > 1 and values is not None and _size(values) > 1:
                # not a matrix of second derivatives: the derivative of the sum of the previous gradient
                doc.line((f"derivative {p.order}: ", "title"),
                         (f"d/d{leaf} of the sum of derivative {p.order - 1} (elementwise for an elementwise "
                          f"program; the full matrix: autodiff hessian)", ""))
            else:
                doc.line((f"derivative {p.order}: ", "title"), (f"d{power} {p.root or 'root'} / d{leaf}{power}", ""))
        else:
            who = p.root or "root"
            doc.line((f"backward {i}: ", "title"), (f"{who}.backward({gradient})", ""))
        for name, values in p.grads.items():
            doc.block([("  ", ""), (f"{name}.grad", "name"), ("  ", "")], _repr(values))
    if result.grads:
        doc.blank()
        doc.line(("gradients", "title"))
        doc.table(_gradients(result))
    if graph is not None:
        doc.blank()
        doc.line(("graph", "title"))
        tree_lines(doc, graph, pretty)
    return doc


def _gradients(result: Any) -> Any:
    """Each variable's .grad: pretty, a Rich table; plain, the names padded and the tensors aligned under."""
    from autodiff.cli.output.text import Doc, Grid

    plain = Doc()
    width = max(len(n) for n in result.grads)
    tensors = result.evaluation.names
    rows: list[list[Any]] = []
    for name, values in result.grads.items():
        label = [("  ", ""), (name.ljust(width), "name"), ("  ", "")]
        if values is None:
            hint = _none_hint(name, tensors[name])
            plain.line(*label, ("None", "none"), ("  ", ""), (hint, "hint"))
            rows.append([(name, "name"), [("None", "none"), ("  ", ""), (hint, "hint")]])
        else:
            plain.block(label, _repr(values))
            rows.append([(name, "name"), _repr(values)])
    return Grid(None, rows, ["left", "left"], plain.plain().splitlines())


def _none_hint(name: str, t: Tensor) -> str:
    if not t.requires_grad:
        return "does not require grad"
    if not t.is_leaf:
        return f"non-leaf: use --retain-grad {name}"
    return "no backward pass reached it"
