"""`autodiff graph`: exact tree/DOT/Mermaid/JSON output, escaping, Graphviz rendering, long chains, errors."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from autodiff import engine
from autodiff.cli.commands.graph_cmd import dot_string, mermaid_text
from autodiff.cli.main import main

TUTORIAL3 = ("c = a + b; e = c * d", "a=2", "b=3", "d=4")


@pytest.fixture(autouse=True)
def _engine_state():
    """The commands configure the engine process-wide (dtype, limits); put it back after each test."""
    dtype, limit = engine.get_default_dtype(), engine.STATE.max_elements
    yield
    engine.set_default_dtype(dtype)
    engine.set_max_elements(limit)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(["graph", *args])
    out, err = capsys.readouterr()
    return done.value.code, out, err


# ---------------------------------------------------------------------------- tree
def test_tree_plain(capsys):
    code, out, err = run(capsys, *TUTORIAL3, "--format", "plain")
    assert (code, err) == (0, "")
    assert out == (
        "MulBackward0  -> e\n"
        "|-- AddBackward0  -> c\n"
        "|   |-- AccumulateGrad  a\n"
        "|   `-- AccumulateGrad  b\n"
        "`-- AccumulateGrad  d\n"
    )


def test_tree_after_backward_shows_what_each_node_received(capsys):
    code, out, _ = run(capsys, *TUTORIAL3, "--backward", "--format", "plain")
    assert code == 0
    assert out == (
        "MulBackward0  -> e  grad: 1.\n"
        "|-- AddBackward0  -> c  grad: 4.\n"
        "|   |-- AccumulateGrad  a  grad: 4.\n"
        "|   `-- AccumulateGrad  b  grad: 4.\n"
        "`-- AccumulateGrad  d  grad: 5.\n"
    )


def test_tree_shows_none_inputs_and_vector_gradients(capsys):
    code, out, _ = run(capsys, "y = x * w; y.sum()", "--var", "x=[1, 2]", "--const", "w=3", "--backward",
                       "--format", "plain")
    assert code == 0
    assert out == (
        "SumBackward0  grad: 1.\n"
        "`-- MulBackward0  -> y  grad: [1., 1.]\n"
        "    |-- AccumulateGrad  x  grad: [3., 3.]\n"
        "    `-- None  (an input that needs no grad)\n"
    )


def test_tree_pretty_uses_box_drawing(capsys):
    code, out, _ = run(capsys, *TUTORIAL3, "--format", "pretty")
    assert code == 0
    assert out.splitlines()[1] == "├── AddBackward0  -> c"
    assert "\x1b[" not in out  # captured output is not a terminal: no colour


def test_no_graph_when_nothing_requires_grad(capsys):
    code, out, _ = run(capsys, "x.detach() * 2", "x=1", "--format", "plain")
    assert (code, out) == (0, "(no graph: the root does not require grad)\n")
    code, out, _ = run(capsys, "x.detach() * 2", "x=1", "--to", "json")
    assert json.loads(out) == {"root": None, "nodes": []}


# ---------------------------------------------------------------------------- DOT
def test_dot_exact(capsys):
    code, out, _ = run(capsys, *TUTORIAL3, "--backward", "--to", "dot")
    assert code == 0
    assert out == (
        "digraph backward {\n"
        '  graph [ordering="out", rankdir="TB"];\n'
        '  node [shape="box", style="rounded,filled", fillcolor="#f3f4f6", fontname="Helvetica"];\n'
        '  edge [fontname="Helvetica", fontsize="10"];\n'
        '  n0 [label="MulBackward0\\n-> e\\ngrad: 1.", fillcolor="#fde68a"];\n'
        '  n1 [label="AddBackward0\\n-> c\\ngrad: 4."];\n'
        '  n2 [label="a\\nAccumulateGrad\\ngrad: 4.", fillcolor="#dbeafe"];\n'
        '  n3 [label="b\\nAccumulateGrad\\ngrad: 4.", fillcolor="#dbeafe"];\n'
        '  n4 [label="d\\nAccumulateGrad\\ngrad: 5.", fillcolor="#dbeafe"];\n'
        '  n0 -> n1 [label="4."];\n'
        '  n0 -> n4 [label="5."];\n'
        '  n1 -> n2 [label="4."];\n'
        '  n1 -> n3 [label="4."];\n'
        "}\n"
    )


def test_dot_edges_follow_next_functions_and_show_none(capsys):
    code, out, _ = run(capsys, "y = x*2 + x**2; z = y.sum()", "x=[1, 2]", "--to", "dot")
    assert code == 0
    edges = [line.strip() for line in out.splitlines() if "->" in line and "label=" not in line.split("->")[0]]
    assert edges == [
        "n0 -> n1;",
        "n1 -> n2;",  # AddBackward0: MulBackward0 first (x*2), then PowBackward0, PyTorch's order
        "n1 -> n4;",
        "n2 -> n3;",
        'n2 -> n2_none1 [style="dashed", color="gray"];',  # the 2 in x*2 needs no grad: (None, 0)
        "n4 -> n3;",  # x is shared: one AccumulateGrad node, reached twice
    ]
    assert '  n2_none1 [label="None", shape="plaintext", style="", fontcolor="gray"];' in out.splitlines()


def test_dot_string_escapes_quotes_backslashes_and_newlines():
    assert dot_string('a"b') == '"a\\"b"'
    assert dot_string("a\\N") == '"a\\\\N"'  # \N would be Graphviz's node-name escape
    assert dot_string("a\nb];x") == '"a\\nb];x"'


dot_missing = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


@dot_missing
@pytest.mark.parametrize("args", [
    (*TUTORIAL3, "--backward"),
    ("y = x*2 + x**2; z = y.sum()", "x=[1, 2]", "--backward"),
    ("w = x @ y; w.relu().mean()", "x=randn(2, 3)", "y=randn(3, 2)", "--seed", "0", "--backward"),
    ("y = x * 1; y[0] = z * 2; y.sum()", "x=[1, 2, 3]", "z=5", "--backward"),
    ("x.detach()", "x=1"),
])
def test_dot_renders_with_graphviz(capsys, args):
    code, out, _ = run(capsys, *args, "--to", "dot")
    assert code == 0
    done = subprocess.run(["dot", "-Tsvg"], input=out, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.lstrip().startswith("<?xml") and "</svg>" in done.stdout


# ---------------------------------------------------------------------------- Mermaid
def test_mermaid_exact(capsys):
    code, out, _ = run(capsys, "y = x * w; y.sum()", "--var", "x=[1, 2]", "--const", "w=3", "--backward",
                       "--to", "mermaid")
    assert code == 0
    assert out == (
        "flowchart TD\n"
        '  n0["SumBackward0<br/>grad: 1."]:::root\n'
        '  n1["MulBackward0<br/>-#62; y<br/>grad: #91;1., 1.#93;"]\n'
        '  n2(["x<br/>AccumulateGrad<br/>grad: #91;3., 3.#93;"]):::leaf\n'
        '  n0 -->|"#91;1., 1.#93;"| n1\n'
        '  n1 -->|"#91;3., 3.#93;"| n2\n'
        '  n1_none1(("None")):::none\n'
        "  n1 -.-> n1_none1\n"
        "  classDef leaf fill:#dbeafe,stroke:#3b82f6\n"
        "  classDef root fill:#fde68a,stroke:#d97706\n"
        "  classDef none fill:#ffffff,stroke:#9ca3af,color:#6b7280\n"
    )


NODE = re.compile(r'^  (n\d+(?:_none\d+)?)(\["[^"]*"\]|\(\["[^"]*"\]\)|\(\("None"\)\))(:::(leaf|root|none))?$')
EDGE = re.compile(r'^  (n\d+) (-->(\|"[^"]*"\|)?|-\.->) (n\d+(?:_none\d+)?)$')


def test_mermaid_structure(capsys):
    code, out, _ = run(capsys, "y = x*2 + x**2; z = y.sum()", "x=[[1, 2], [3, 4]]", "--backward", "--to",
                       "mermaid")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "flowchart TD"
    nodes, edges = set(), []
    for line in lines[1:]:
        if line.startswith("  classDef "):
            continue
        node, edge = NODE.match(line), EDGE.match(line)
        assert node or edge, f"not a node or an edge: {line!r}"
        if node:
            nodes.add(node.group(1))
        else:
            edges.append((edge.group(1), edge.group(4)))
    assert nodes == {"n0", "n1", "n2", "n3", "n4", "n2_none1"}
    assert all(a in nodes and b in nodes for a, b in edges)
    assert edges == [("n0", "n1"), ("n1", "n2"), ("n1", "n4"), ("n2", "n3"), ("n2", "n2_none1"), ("n4", "n3")]


def test_mermaid_text_cannot_end_a_label():
    escaped = mermaid_text('x"] --> evil["<b>#')
    assert '"' not in escaped and "]" not in escaped and "<" not in escaped and ">" not in escaped
    assert escaped == "x#34;#93; --#62; evil#91;#34;#60;b#62;#35;"


# ---------------------------------------------------------------------------- JSON
def test_json_is_the_contract_graph_document(capsys):
    code, out, _ = run(capsys, *TUTORIAL3, "--to", "json")
    assert code == 0
    assert json.loads(out) == {"root": 0, "nodes": [
        {"id": 0, "name": "MulBackward0", "next": [[1, 0], [4, 0]]},
        {"id": 1, "name": "AddBackward0", "next": [[2, 0], [3, 0]]},
        {"id": 2, "name": "AccumulateGrad", "next": [], "variable": "a"},
        {"id": 3, "name": "AccumulateGrad", "next": [], "variable": "b"},
        {"id": 4, "name": "AccumulateGrad", "next": [], "variable": "d"},
    ]}


def test_json_after_backward_adds_the_gradients(capsys):
    code, out, _ = run(capsys, "y = x * w; y.sum()", "--var", "x=[1, 2]", "--const", "w=3", "--backward",
                       "--format", "json")
    assert code == 0
    assert json.loads(out) == {"root": 0, "nodes": [
        {"id": 0, "name": "SumBackward0", "next": [[1, 0]], "grad": 1.0, "grads_out": [[1.0, 1.0]]},
        {"id": 1, "name": "MulBackward0", "next": [[2, 0], None], "grad": [1.0, 1.0], "grads_out": [[3.0, 3.0], None]},
        {"id": 2, "name": "AccumulateGrad", "next": [], "variable": "x", "grad": [3.0, 3.0]},
    ]}


def test_grad_tensor_is_the_first_gradient(capsys):
    code, out, _ = run(capsys, "y = 2 * x", "x=[1, 2]", "--backward", "--grad-tensor", "[0.5, 3]", "--to", "json")
    assert code == 0
    nodes = json.loads(out)["nodes"]
    assert nodes[0]["grad"] == [0.5, 3.0]
    assert nodes[1] == {"id": 1, "name": "AccumulateGrad", "next": [], "variable": "x", "grad": [1.0, 6.0]}


# ---------------------------------------------------------------------------- size
@pytest.mark.long
def test_a_100000_op_chain_renders_without_recursion(capsys):
    program = "x" + " + 1" * 100_000
    code, out, _ = run(capsys, program, "x=1", "--to", "dot")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1] == "}"
    assert sum(1 for line in lines if line.startswith("  n") and " -> n" in line) == 200_000
    code, out, _ = run(capsys, program, "x=1", "--backward", "--to", "json")
    assert code == 0
    document = json.loads(out)
    assert len(document["nodes"]) == 100_001
    assert document["nodes"][-1] == {"id": 100_000, "name": "AccumulateGrad", "next": [], "variable": "x",
                                     "grad": 1.0}


# ---------------------------------------------------------------------------- errors
def test_errors(capsys):
    code, out, err = run(capsys, "x * y", "x=1", "--to", "json")
    assert code == 2
    assert json.loads(out)["error"]["kind"] == "name"
    assert "unknown name 'y'" in err
    code, _, err = run(capsys, "x +", "x=1")
    assert code == 2 and "syntax error" in err
    code, out, err = run(capsys, "x * 2", "x=[1, 2]", "--backward", "--to", "json")
    assert code == 1
    assert json.loads(out)["error"]["kind"] == "autograd"
    code, _, err = run(capsys, "x * 2", "x=1", "--grad-tensor", "1")
    assert code == 2 and "--grad-tensor needs --backward" in err
    code, out, _ = run(capsys, "x * 2", "x=1", "--to", "dot", "--format", "json")
    assert code == 2 and json.loads(out)["error"]["kind"] == "usage"
