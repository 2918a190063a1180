"""`autodiff ops`: every function and operator with its signature, node names and backward formulas.

Everything printed is read from the engine: `BUILTINS` (signatures, which ops a function records) and
`OPS` (node names, input names, one formula text per input), so the listing cannot drift from the code.
The only knowledge kept here is how the language's operators map to built-ins, and the grouping; an op
that no group claims is listed under "Other functions", and one that nothing records outside backward
under "Recorded inside backward only", so nothing can go missing.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from autodiff.cli.commandline import output_format as chosen_format
from autodiff.cli.options import SETTINGS, format_option

# The language's operators and attribute shortcuts: (syntax, the built-in it calls, its ops when not all of the
# built-in's (an operator has no alpha=), or its ops directly).
OPERATORS: tuple[tuple[str, str | None, tuple[str, ...], str], ...] = (
    ("a + b", "add", ("add",), ""),
    ("a - b", "sub", ("sub", "rsub"), ""),
    ("a * b", "mul", (), ""),
    ("a / b", "div", (), "number / tensor is recorded as reciprocal(tensor) * number"),
    ("a ** b", "pow", (), ""),
    ("a @ b", "matmul", (), ""),
    ("-a", "neg", (), ""),
    ("+a", None, (), "the operand itself: nothing is recorded"),
    ("x[index]", None, ("select", "slice", "unsqueeze", "alias", "index"),
     "one node per indexed dim: an integer selects, a:b:c slices, None inserts a dim, ... alone aliases; then "
     "one IndexBackward0 for lists, index tensors and boolean masks"),
    ("x[index] = value", None, ("copy_slices", "view", "expand"),
     "writes in place; x's grad_fn becomes CopySlices (the value is viewed and expanded to the region first)"),
    ("x.T", None, ("permute",), "all dims reversed"),
    ("x.mT", None, ("transpose",), "the last two dims swapped"),
    ("x.float(), x.double()", "to", (), ""),
)

OTHER = "Other functions"
NO_BACKWARD = "Constructors and other functions without backward"
BACKWARD_ONLY = "Recorded inside backward only (with create_graph, for higher derivatives)"


def catalogue() -> list[dict[str, Any]]:
    """The groups, each with its entries, built from the engine's tables."""
    from autodiff.engine import BUILTINS, OP_GROUPS, OPS, import_all

    import_all()  # the ops of the rooms the language does not reach (recurrent layers, forward mode) too
    groups: dict[str, list[dict[str, Any]]] = {"Operators": []}
    groups.update({name: [] for name in OP_GROUPS})
    groups.update({OTHER: [], NO_BACKWARD: [], BACKWARD_ONLY: []})
    reached: set[str] = set()
    for syntax, builtin, ops, note in OPERATORS:
        entry_ops = ops or (BUILTINS[builtin].ops if builtin is not None else ())
        reached.update(entry_ops)
        groups["Operators"].append({
            "name": syntax, "kind": "operator", "signature": syntax, "method": False,
            "summary": note or (f"calls {builtin}" if builtin else ""),
            "differentiable": bool(entry_ops), "backward": [_op_record(OPS[op]) for op in entry_ops],
        })
    for name in sorted(BUILTINS):
        builtin = BUILTINS[name]
        reached.update(builtin.ops)
        entry = {
            "name": name, "kind": "function", "signature": builtin.signature, "method": builtin.method,
            "summary": _summary(builtin), "differentiable": bool(builtin.ops),
            "backward": [_op_record(OPS[op]) for op in builtin.ops],
        }
        groups[_group_of(builtin.ops, OPS)].append(entry)
    for name in sorted(set(OPS) - reached):
        op = OPS[name]
        groups[BACKWARD_ONLY].append({
            "name": name, "kind": "internal", "signature": f"{name}({', '.join(op.inputs)})", "method": False,
            "summary": op.doc, "differentiable": True, "backward": [_op_record(op)],
        })
    return [{"name": name, "entries": entries} for name, entries in groups.items() if entries]


def _summary(builtin: Any) -> str:
    # a function's own docstring describes all of it (matmul, max); the registry's summary is its first op's
    own = (builtin.fn.__doc__ or "").strip().split("\n")[0].rstrip(".")
    if own[:2].istitle():  # a sentence's capital ("Largest element"), not a name's ("PyTorch")
        own = own[0].lower() + own[1:]
    return own or builtin.summary


def _group_of(ops: tuple[str, ...], table: Any) -> str:
    """A function's group: its first op's in the engine's table."""
    if not ops:
        return NO_BACKWARD
    return table[ops[0]].group or OTHER


def _op_record(op: Any) -> dict[str, Any]:
    return {"op": op.name, "node": op.node, "doc": op.doc,
            "inputs": [{"name": name, "formula": grad.text} for name, grad in zip(op.inputs, op.grads)]}


EPILOG = """\b
Examples:
  autodiff ops                       every function and operator
  autodiff ops sin                   one entry: sin, its node and its backward formula
  autodiff ops '**'                  an operator, by its symbol
  autodiff ops --format json | jq '.groups[].entries[].name'
"""


@click.command("ops", context_settings=SETTINGS, epilog=EPILOG,
               short_help="List every function and operator with its backward formulas.")
@click.argument("name", required=False)
@format_option()
def ops_command(name: str | None, output_format: str | None) -> int:
    """List every function and operator (or the one NAME): signature, grad_fn name(s) and backward formula(s).

    A formula gives the gradient sent to one input, in terms of `grad` (the gradient of the result),
    the inputs (`self`, `other`, ...), `result` and the function's parameters. Read from the engine's
    op table, so it is always what backward actually runs.
    """
    output = chosen_format(output_format)
    groups = catalogue() if name is None else one_entry(catalogue(), name)
    if output == "json":
        from autodiff.cli.output import jsonout

        sys.stdout.write(jsonout.dumps({"groups": groups}) + "\n")
        return 0
    from autodiff.cli.output.text import write

    write(ops_doc(groups), pretty=output == "pretty")
    return 0


def one_entry(groups: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The group of the entry NAME (a function, torch.NAME, or an operator by its syntax or symbol) with that
    entry alone; an unknown NAME is a usage error naming the closest ones."""
    import difflib

    from autodiff.engine.errors import UsageError

    wanted = name.strip().removeprefix("torch.")
    names = []
    for group in groups:
        for entry in group["entries"]:
            symbols = entry["name"].replace("a ", "").replace(" b", "").split() if entry["kind"] == "operator" else []
            if wanted in (entry["name"], *symbols):
                return [{"name": group["name"], "entries": [entry]}]
            names.append(entry["name"])
    close = difflib.get_close_matches(wanted, names, n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UsageError(f"no function or operator named {name!r}{hint} (autodiff ops lists them all)")


def ops_doc(groups: list[dict[str, Any]]) -> Any:
    from autodiff.cli.output.text import Doc

    doc = Doc()
    functions = sum(1 for g in groups for e in g["entries"] if e["kind"] == "function")
    operators = sum(1 for g in groups for e in g["entries"] if e["kind"] == "operator")
    one = sum(len(g["entries"]) for g in groups) == 1
    if not one:
        doc.line((f"{functions} functions (each also torch.NAME) and {operators} operators", "title"))
    doc.line(("formulas: the gradient sent to each input, from grad (the result's gradient), the inputs "
              "(self, other, ...), result and the parameters", "muted"))
    for group in groups:
        doc.blank()
        doc.line((group["name"], "title"))
        for entry in group["entries"]:
            pieces: list[tuple[str, str]] = [("  ", ""), (entry["signature"], "name")]
            if entry["summary"]:
                pieces += [("  ", ""), (entry["summary"], "muted")]
            if entry["method"]:
                pieces += [("  ", ""), (f"(also x.{entry['name']}(...))", "muted")]
            if not entry["differentiable"]:
                pieces += [("  ", ""), ("no backward", "hint")]
            doc.line(*pieces)
            several = len(entry["backward"]) > 1
            for record in entry["backward"]:
                line = [("    ", ""), (record["node"], "node")]
                if several and record["doc"]:
                    line += [("  ", ""), (record["doc"], "muted")]
                doc.line(*line)
                width = max((len(i["name"]) for i in record["inputs"]), default=0)
                for item in record["inputs"]:
                    doc.line(("      ", ""), (f"{item['name']}:".ljust(width + 1), ""), ("  ", ""),
                             (item["formula"], "value"))
    return doc


COMMANDS: list = [ops_command]
