"""The body of `autodiff eval`: options to an EvalRequest, the request to autodiff.app.session, the result
to text or JSON. `--batch` (cli/batch.py) reuses the request and the JSON document built here."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from autodiff.app.graph import graph_of
from autodiff.app.session import EvalRequest, EvalResult, constant, run_eval
from autodiff.cli import jsonout
from autodiff.cli.options import bindings_from, configure_engine, output_format
from autodiff.cli.text import Doc, tree_lines, write
from autodiff.engine import Tensor


def run_eval_command(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> None:
    configure(options)
    output = output_format(options["output_format"])
    with np.errstate(all="ignore"):
        request = eval_request(program, assignments, options)
        result, graph, steps = evaluate(request, options)
    if output == "json":
        document = json_document(result, graph if options["trace"] else None, steps)
        sys.stdout.write(jsonout.dumps(document) + "\n")
        return
    pretty = output == "pretty"
    write(eval_doc(result, request, options, graph if options["trace"] else None, pretty), pretty=pretty)
    if steps is not None:
        from autodiff.cli.explain_text import write_steps

        write_steps(steps, result, options, pretty)


def configure(options: dict[str, Any]) -> None:
    """Set the engine up for a run: dtype, seed and element limit."""
    configure_engine(options["dtype"], options["seed"], options["max_elements"])


def eval_request(program: str, assignments: tuple[str, ...], options: dict[str, Any]) -> EvalRequest:
    """The eval options as a request (bindings and --grad-tensor evaluated)."""
    return EvalRequest(
        program=program,
        bindings=bindings_from(assignments, options["variables"], options["constants"], options["max_elements"]),
        grad_tensor=None if options["grad_tensor"] is None else constant(options["grad_tensor"], "--grad-tensor"),
        retain_graph=options["retain_graph"],
        backward=list(options["backward"]),
        repeat=options["repeat"],
        zero_grad=options["zero_grad"],
        retain_grad=list(options["retain_grad"]),
        order=options["order"],
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
        extra = [t for t in result.targets if t is not result.root]
        graph = graph_of(result.root, result.evaluation.names, extra)
    steps = None
    if explainer is not None:
        from autodiff.app.explain import explain

        steps = explain(explainer, graph)
    return result, graph, steps


def json_document(result: EvalResult, graph: Any, steps: list[Any] | None) -> dict[str, Any]:
    """The eval JSON document (README: JSON output); `graph` (--trace) and `steps` (--explain) when given."""
    document: dict[str, Any] = {
        "root": jsonout.tensor_summary(result.evaluation.root_name, result.root),
        "passes": [{"root": p.root, "grads": {n: jsonout.values(g) for n, g in p.grads.items()},
                    **({"order": p.order} if p.order else {})} for p in result.passes],
        "grads": {n: jsonout.values(g) for n, g in result.grads.items()},
    }
    if graph is not None:
        document["graph"] = jsonout.graph_document(graph)
    if steps is not None:
        document["steps"] = [jsonout.step_document(step) for step in steps]
    return document


def _repr(values: np.ndarray | None) -> str:
    if values is None:
        return "None"
    from autodiff import engine
    from autodiff.engine.formatting import format_tensor

    return format_tensor(values, default_dtype=engine.get_default_dtype())


def eval_doc(result: EvalResult, request: EvalRequest, options: dict[str, Any], graph: Any, pretty: bool) -> Doc:
    doc = Doc()
    root_name = result.evaluation.root_name
    doc.block([(root_name or "root", "name"), (" = ", "")], repr(result.root))
    if result.skipped_backward:
        doc.blank()
        doc.line(("no backward pass: ", "muted"), (result.skipped_backward, "hint"))
    gradient = f"gradient={options['grad_tensor']}" if options.get("grad_tensor") else ""
    for i, p in enumerate(result.passes, 1):
        doc.blank()
        if p.order:
            (leaf,) = p.grads
            power = "" if p.order == 1 else str(p.order)
            doc.line((f"derivative {p.order}: ", "title"), (f"d{power} {p.root or 'root'} / d{leaf}{power}", ""))
        else:
            who = p.root or "root"
            doc.line((f"backward {i}: ", "title"), (f"{who}.backward({gradient})", ""))
        for name, values in p.grads.items():
            doc.block([("  ", ""), (f"{name}.grad", "name"), ("  ", "")], _repr(values))
    if result.grads:
        doc.blank()
        doc.line(("gradients", "title"))
        width = max(len(n) for n in result.grads)
        tensors = result.evaluation.names
        for name, values in result.grads.items():
            label = [("  ", ""), (name.ljust(width), "name"), ("  ", "")]
            if values is None:
                doc.line(*label, ("None", "none"), ("  ", ""), (_none_hint(name, tensors[name]), "hint"))
            else:
                doc.block(label, _repr(values))
    if graph is not None:
        doc.blank()
        doc.line(("graph", "title"))
        tree_lines(doc, graph, pretty)
    return doc


def _none_hint(name: str, t: Tensor) -> str:
    if not t.requires_grad:
        return "does not require grad"
    if not t.is_leaf:
        return f"non-leaf: use --retain-grad {name}"
    return "no backward pass reached it"
