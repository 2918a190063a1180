"""`autodiff graph`: the backward graph alone, as a tree, Graphviz DOT, a Mermaid flowchart or JSON.

Every renderer walks the node list of `graph_of` (already in a fixed, depth-first order) with plain
loops, so a 100,000-op chain renders without recursion. User text (tensor names) is escaped for each
target language, so a name can never inject DOT or Mermaid syntax.
"""

from __future__ import annotations

from typing import Any

import click

from autodiff.cli.commandline import backward_names, bindings_from, output_format, read_program, spelled
from autodiff.cli.options import (
    SETTINGS,
    ProgramCommand,
    backward_option,
    engine_options,
    format_option,
    grad_tensor_option,
    option,
    program_options,
    retain_graph_option,
)

EPILOG = """\b
Examples:
  autodiff graph 'c = a + b; e = c * d' a=2 b=3 d=4
  autodiff graph 'c = a + b; e = c * d' a=2 b=3 d=4 --backward --format dot | dot -Tsvg > graph.svg
  autodiff graph 'y = x * w; y.sum()' --var 'x=[1, 2]' --const w=3 --format mermaid
  autodiff graph '(x ** 2).exp()' x=0.5 --backward --format json
"""


@click.command("graph", cls=ProgramCommand, epilog=EPILOG, context_settings=SETTINGS,
               short_help="Show the backward graph: a tree, Graphviz DOT, Mermaid or JSON.")
@program_options
@backward_option()
@grad_tensor_option()
@retain_graph_option()
@option("--to", "target", type=click.Choice(["tree", "dot", "mermaid", "json"]), hidden=True,
        help="The former spelling of --format (tree: pretty or plain).")
@format_option("dot", "mermaid")
@engine_options()
def graph_command(program: str | None, assignments: tuple[str, ...], file: str | None, **options: Any) -> int:
    """Show the backward graph of PROGRAM: grad_fn nodes down to the AccumulateGrad of each leaf, as a text
    tree (pretty or plain), JSON, Graphviz DOT or a Mermaid flowchart (--format).

    Without --backward the graph is shown before any backward pass. With --backward, backward runs first
    (from the root, or from each NAME given) and every node shows the gradient it received (DOT and Mermaid
    also label each edge with the gradient passed along it).
    """
    options["backward"], assignments = backward_names(options["backward"], assignments)
    target = _target(options["output_format"], options["target"])
    try:
        observed = _observe(program, assignments, file, options)
    except Exception as error:
        from autodiff.engine.errors import AutodiffError

        if target == "json" and isinstance(error, AutodiffError):  # one JSON document, as with --format json
            from autodiff.cli.errors import report

            return report(error, json_mode=True)
        raise
    if target == "tree":
        from autodiff.cli.output.text import write

        pretty = output_format(options["output_format"]) == "pretty"
        write(tree_doc(observed, pretty), pretty=pretty)
    else:
        import sys

        render = {"dot": to_dot, "mermaid": to_mermaid, "json": to_json}[target]
        sys.stdout.write(render(observed))
    return 0


def _target(chosen: str | None, old: str | None) -> str:
    """What to write: tree, json, dot or mermaid, from --format (and the former --to, which still works)."""
    from autodiff.engine.errors import UsageError

    target = chosen if chosen in ("json", "dot", "mermaid") else "tree"
    if old is not None and chosen is None:
        return old
    if old is not None and old != target:
        raise UsageError(f"--to {old} and --format {chosen} disagree: give --format alone (--to is its former "
                         "spelling)")
    return target


def _observe(program: str | None, assignments: tuple[str, ...], file: str | None, options: dict[str, Any]) -> Any:
    import numpy as np

    from autodiff.app.graph import observed_graph
    from autodiff.app.session import EvalRequest, constant
    from autodiff.engine.errors import UsageError

    if options["config"].max_elements < 1:
        raise UsageError(f"--max-elements must be positive, got {options['max_elements']}")
    if not options["backward"]:
        for name in ("grad_tensor", "retain_graph"):
            if options[name]:
                raise UsageError(f"--{name.replace('_', '-')} needs --backward (it is an option of the backward pass)")
    text, assignments = read_program(program, file, assignments)
    with np.errstate(all="ignore"):
        request = EvalRequest(
            program=text,
            bindings=bindings_from(assignments, options["variables"], options["constants"],
                                   options["config"].max_elements),
            grad_tensor=None if options["grad_tensor"] is None else
            constant(options["grad_tensor"], spelled("grad_tensor")),
            retain_graph=options["retain_graph"],
        )
        request.backward = list(options["backward"])
        return observed_graph(request, backward=bool(options["backward"]))


# ---------------------------------------------------------------------------- labels
def brief(values: Any) -> str:
    """A gradient on one short line: numpy's notation, 4 digits, long tensors summarised with '...'."""
    import numpy as np

    array = np.asarray(values)
    # numpy's printing costs ~50 us a call; a long chain passes the same few small values everywhere
    key = (array.dtype.str, array.shape, array.tobytes()) if array.size <= 16 else None
    if key is not None and key in _BRIEF_CACHE:
        return _BRIEF_CACHE[key]
    text = np.array2string(array, precision=4, separator=", ", threshold=6, edgeitems=2,
                           max_line_width=1_000_000, floatmode="maxprec")
    text = " ".join(text.split())
    if key is not None and len(_BRIEF_CACHE) < 10_000:
        _BRIEF_CACHE[key] = text
    return text


_BRIEF_CACHE: dict[tuple, str] = {}


def _node_lines(observed: Any, node: Any) -> list[str]:
    """A node's label, line by line: the leaf's name (or the node's grad_fn name and its tensor) and,
    after backward, the gradient it received."""
    if node.name == "AccumulateGrad":
        lines = [node.variable or "(unnamed leaf)", "AccumulateGrad"]
    else:
        lines = [node.name] + ([f"-> {node.tensor}"] if node.tensor else [])  # as in the tree: it made e
    if observed.backward:
        grad = observed.received.get(node.id)
        lines.append("grad: " + ("None" if grad is None else brief(grad)))
    return lines


def _edge_grad(observed: Any, node_id: int, index: int) -> str | None:
    """What a node passed along its index-th edge during backward (None without backward)."""
    if not observed.backward:
        return None
    passed = observed.passed.get(node_id)
    if passed is None or index >= len(passed) or passed[index] is None:
        return None
    return brief(passed[index])


def _no_graph_reason(observed: Any) -> str:
    return "no graph: the root does not require grad (bind a variable with --var NAME=VALUE)"


# ---------------------------------------------------------------------------- tree
def tree_doc(observed: Any, pretty: bool) -> Any:
    """The graph as eval --trace shows it; with --backward each node also shows the gradient it received."""
    from autodiff.cli.errors import NO_GRAD_ADVICE
    from autodiff.cli.output.text import Doc, tree_lines

    doc = Doc()
    labels = None
    if observed.backward:
        labels = {}
        for node in observed.graph.nodes:
            grad = observed.received.get(node.id)
            labels[node.id] = [("  grad: ", "muted"), ("None" if grad is None else brief(grad), "value")]
    if observed.skipped_backward:
        doc.line(("no backward pass: ", "muted"), (f"{observed.skipped_backward}: {NO_GRAD_ADVICE}", "hint"))
    tree_lines(doc, observed.graph, pretty, indent=0, labels=labels)
    return doc


# ---------------------------------------------------------------------------- Graphviz DOT
def dot_string(text: str) -> str:
    """A DOT double-quoted string: backslashes and quotes escaped, line breaks as DOT's \\n."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\r", "").replace("\n", "\\n") + '"'


def _dot_label(lines: list[str]) -> str:
    # each line escaped on its own, then joined with DOT's line break (centred)
    return '"' + "\\n".join(dot_string(line)[1:-1] for line in lines) + '"'


def to_dot(observed: Any) -> str:
    """Graphviz input: nodes labelled with grad_fn names, AccumulateGrad with the leaf's name, an edge
    from each node to each of its next_functions in PyTorch's order (a dashed one to a `None` point for
    an input that needs no grad); after backward, edges carry the gradient passed along them."""
    out = [
        "digraph backward {",
        '  graph [ordering="out", rankdir="TB"];',
        '  node [shape="box", style="rounded,filled", fillcolor="#f3f4f6", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize="10"];',
    ]
    graph = observed.graph
    if graph.root is None:
        out.append(f"  empty [shape=plaintext, style=\"\", label={dot_string(_no_graph_reason(observed))}];")
    for node in graph.nodes:
        attributes = f"label={_dot_label(_node_lines(observed, node))}"
        if node.name == "AccumulateGrad":
            attributes += ', fillcolor="#dbeafe"'
        elif node.id == graph.root:
            attributes += ', fillcolor="#fde68a"'
        out.append(f"  n{node.id} [{attributes}];")
    for node in graph.nodes:
        for i, edge in enumerate(node.next):
            if edge is None:
                out.append(f'  n{node.id}_none{i} [label="None", shape="plaintext", style="", fontcolor="gray"];')
                out.append(f'  n{node.id} -> n{node.id}_none{i} [style="dashed", color="gray"];')
                continue
            grad = _edge_grad(observed, node.id, i)
            label = "" if grad is None else f" [label={dot_string(grad)}]"
            out.append(f"  n{node.id} -> n{edge[0]}{label};")
    out.append("}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------- Mermaid
_MERMAID_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._,:=+-")


def mermaid_text(text: str) -> str:
    """Text for a quoted Mermaid label: every character outside a small safe set as an entity code
    (#35; for '#'), so quotes, brackets, pipes and HTML can never end the label or become markup."""
    return "".join(ch if ch in _MERMAID_SAFE else f"#{ord(ch)};" for ch in text)


def to_mermaid(observed: Any) -> str:
    """A Mermaid flowchart (top-down) with the same nodes and edges as the DOT output."""
    out = ["flowchart TD"]
    graph = observed.graph
    if graph.root is None:
        out.append(f'  empty["{mermaid_text(_no_graph_reason(observed))}"]')
    for node in graph.nodes:
        label = "<br/>".join(mermaid_text(line) for line in _node_lines(observed, node))
        if node.name == "AccumulateGrad":
            out.append(f'  n{node.id}(["{label}"]):::leaf')
        else:
            out.append(f'  n{node.id}["{label}"]' + (":::root" if node.id == graph.root else ""))
    for node in graph.nodes:
        for i, edge in enumerate(node.next):
            if edge is None:
                out.append(f'  n{node.id}_none{i}(("None")):::none')
                out.append(f"  n{node.id} -.-> n{node.id}_none{i}")
                continue
            grad = _edge_grad(observed, node.id, i)
            label = "" if grad is None else f'|"{mermaid_text(grad)}"|'
            out.append(f"  n{node.id} -->{label} n{edge[0]}")
    out += [
        "  classDef leaf fill:#dbeafe,stroke:#3b82f6",
        "  classDef root fill:#fde68a,stroke:#d97706",
        "  classDef none fill:#ffffff,stroke:#9ca3af,color:#6b7280",
    ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------- JSON
def to_json(observed: Any) -> str:
    """The documented graph document ({"root": id, "nodes": [...]}); after backward each node adds
    "grad" (what it received) and, for a non-leaf, "grads_out" (what it passed to each next entry)."""
    from autodiff.cli.output import jsonout

    document = jsonout.graph_document(observed.graph)
    if observed.backward:
        for record, node in zip(document["nodes"], observed.graph.nodes):
            record["grad"] = jsonout.values(observed.received.get(node.id))
            if node.name != "AccumulateGrad":
                passed = observed.passed.get(node.id) or []
                record["grads_out"] = [jsonout.values(passed[i]) if i < len(passed) and edge else None
                                       for i, edge in enumerate(node.next)]
    return jsonout.dumps(document) + "\n"


COMMANDS: list = [graph_command]
