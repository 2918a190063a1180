"""`autodiff eval`: every option, exact output (plain, pretty, JSON), every error kind and exit code."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

# ---------------------------------------------------------------------------- plain output

def test_plain_output_of_the_readme_example(cli):
    out = cli("eval", "(2*x)**3", "x=1.5")
    assert out.code == 0
    assert out.stderr == ""
    assert out.stdout == (
        "root = tensor(27., grad_fn=<PowBackward0>)\n"
        "\n"
        "backward 1: root.backward()\n"
        "  x.grad  tensor(54.)\n"
        "\n"
        "gradients\n"
        "  x  tensor(54.)\n"
    )


def test_accumulation_is_visible_pass_by_pass(cli):
    out = cli("eval", "y = x**2; z = x**3", "--var", "x=[1.0]", "--backward", "y", "--backward", "z")
    assert out.stdout == (
        "z = tensor([1.], grad_fn=<PowBackward0>)\n"
        "\n"
        "backward 1: y.backward()\n"
        "  x.grad  tensor([2.])\n"
        "\n"
        "backward 2: z.backward()\n"
        "  x.grad  tensor([5.])\n"
        "\n"
        "gradients\n"
        "  x  tensor([5.])\n"
        "  y  None  non-leaf: use --retain-grad y\n"
        "  z  None  non-leaf: use --retain-grad z\n"
    )


def test_multiline_tensors_align_and_trace_draws_the_graph(cli):
    out = cli("eval", "y = 2 * x; z = y ** 3; out = z.mean()", "--var", "x=[[1.8528, 0.2083], [-1.5296, 0.3136]]",
                  "--trace")
    assert out.code == 0
    assert out.stdout == (
        "out = tensor(5.6431, grad_fn=<MeanBackward0>)\n"
        "\n"
        "backward 1: out.backward()\n"
        "  x.grad  tensor([[20.5972,  0.2603],\n"
        "                  [14.0381,  0.5901]])\n"
        "\n"
        "gradients\n"
        "  x    tensor([[20.5972,  0.2603],\n"
        "               [14.0381,  0.5901]])\n"
        "  y    None  non-leaf: use --retain-grad y\n"
        "  z    None  non-leaf: use --retain-grad z\n"
        "  out  None  non-leaf: use --retain-grad out\n"
        "\n"
        "graph\n"
        "  MeanBackward0  -> out\n"
        "  `-- PowBackward0  -> z\n"
        "      `-- MulBackward0  -> y\n"
        "          |-- AccumulateGrad  x\n"
        "          `-- None  (an input that needs no grad)\n"
    )


def test_pretty_uses_box_drawing_and_no_colour_when_not_a_terminal(cli):
    out = cli("eval", "c = a + b; e = c * d", "a=2", "b=3", "d=4", "--trace", "--format", "pretty")
    assert out.stdout.endswith(
        "graph\n"
        "  MulBackward0  -> e\n"
        "  ├── AddBackward0  -> c\n"
        "  │   ├── AccumulateGrad  a\n"
        "  │   └── AccumulateGrad  b\n"
        "  └── AccumulateGrad  d\n"
    )
    assert "\x1b[" not in out.stdout


def test_colour_is_forced_by_force_color_and_refused_by_no_color(cli):
    coloured = cli("eval", "x*2", "x=1", "--format", "pretty", env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" in coloured.stdout
    plain = cli("eval", "x*2", "x=1", "--format", "pretty", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in plain.stdout
    assert plain.stdout.startswith("root = tensor(2., grad_fn=<MulBackward0>)\n")


def test_user_text_is_never_rich_markup(cli):
    out = cli("eval", "x * 2 # [bold red]not markup[/]", "x=1", "--format", "pretty",
                  env={"FORCE_COLOR": "1"})
    assert out.code == 0
    err = cli("eval", "[red]x[/red] +", "--format", "pretty")
    assert "[red]x[/red] +" in err.stderr


def test_root_that_needs_no_grad_is_reported_without_backward(cli):
    out = cli("eval", "x = ones(2, 3); y = (x * 2).sum()")
    assert out.code == 0
    assert out.stdout == (
        "y = tensor(12.)\n"
        "\n"
        "no backward pass: the root does not require grad: bind a variable with --var NAME=VALUE "
        "(or requires_grad=True) to differentiate\n"
        "\n"
        "gradients\n"
        "  x  None  does not require grad\n"
        "  y  None  does not require grad\n"
    )


# ---------------------------------------------------------------------------- JSON

def test_json_document_has_exactly_the_contract_keys(cli):
    out = cli("eval", "y = 2 * x; z = y ** 3; out = z.mean()", "--var",
                  "x=[[-0.7452, 1.5727], [0.1702, 0.7374]]", "--trace", "--format", "json")
    doc = out.json()
    assert list(doc) == ["root", "passes", "grads", "graph"]
    assert doc["root"] == {"name": "out", "value": doc["root"]["value"], "shape": [], "dtype": "float32",
                           "requires_grad": True, "grad_fn": "MeanBackward0"}
    assert doc["root"]["value"] == pytest.approx(7.763, abs=1e-3)
    assert doc["grads"]["y"] is None and doc["grads"]["z"] is None and doc["grads"]["out"] is None
    x = np.array([[-0.7452, 1.5727], [0.1702, 0.7374]], dtype=np.float32)
    np.testing.assert_allclose(doc["grads"]["x"], 6 * x * x, rtol=1e-6)  # d mean((2x)**3) / dx = 6 x**2
    assert doc["passes"] == [{"root": "out", "grads": {"x": doc["grads"]["x"]}}]
    assert doc["graph"] == {"root": 0, "nodes": [
        {"id": 0, "name": "MeanBackward0", "next": [[1, 0]]},
        {"id": 1, "name": "PowBackward0", "next": [[2, 0]]},
        {"id": 2, "name": "MulBackward0", "next": [[3, 0], None]},
        {"id": 3, "name": "AccumulateGrad", "next": [], "variable": "x"},
    ]}


def test_json_uses_strings_for_non_finite_numbers_and_is_strict(cli):
    out = cli("eval", "y = log(x)", "--var", "x=[0.0, -1.0, 1.0]", "--grad-tensor", "[1, 1, 1]",
                  "--format", "json")
    text = out.stdout
    doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))
    assert doc["root"]["value"] == ["-inf", "nan", 0.0]
    assert doc["grads"]["x"] == ["inf", -1.0, 1.0]


def test_json_float32_values_are_shortest_decimals(cli):
    doc = cli("eval", "x * 1", "--var", "x=[0.745, 7.763]", "--grad-tensor", "[0.1, 0.2]", "--format", "json").json()
    assert doc["root"]["value"] == [0.745, 7.763]
    assert doc["grads"]["x"] == [0.1, 0.2]


def test_float64_on_request(cli):
    doc = cli("eval", "x / 3", "x=1", "--dtype", "float64", "--format", "json").json()
    assert doc["root"]["dtype"] == "float64"
    assert doc["root"]["value"] == 1 / 3
    assert doc["grads"]["x"] == 1 / 3


# ---------------------------------------------------------------------------- options

def test_grad_tensor_and_its_alias_gradient(cli):
    for option in ("--grad-tensor", "--gradient"):
        doc = cli("eval", "z = x * y", "--var", "x=[0.0, 2.0, 8.0]", "--var", "y=[5.0, 1.0, 7.0]",
                      option, "[1.0, 1.0, 1.0]", "--format", "json").json()
        assert doc["grads"]["x"] == [5.0, 1.0, 7.0]
        assert doc["grads"]["y"] == [0.0, 2.0, 8.0]


def test_grad_tensor_scales_the_gradient(cli):
    doc = cli("eval", "y = 2 * x; z = y ** 3", "--var", "x=[[-0.7207]]", "--grad-tensor", "[[0.1]]",
                  "--format", "json").json()
    assert doc["grads"]["x"] == [[pytest.approx(1.2465804815292358, rel=1e-6)]]


def test_retain_graph_with_repeat_accumulates_and_without_fails_the_second_time(cli):
    doc = cli("eval", "out = ((2 * x) ** 3).mean()", "--var", "x=[1.0, 2.0]", "--retain-graph",
                  "--repeat", "2", "--format", "json").json()
    assert [p["grads"]["x"] for p in doc["passes"]] == [[12.0, 48.0], [24.0, 96.0]]
    failed = cli("eval", "out = ((2 * x) ** 3).mean()", "--var", "x=[1.0, 2.0]", "--repeat", "2",
                     "--format", "json")
    assert failed.code == 1
    error = failed.json()["error"]
    assert error["kind"] == "autograd"
    assert "second time" in error["message"]
    assert error["hint"] == "add --retain-graph to keep the graph for another pass"


def test_zero_grad_before_each_backward(cli):
    doc = cli("eval", "y = x**2; z = x**3", "--var", "x=[1.0]", "--backward", "y", "--backward", "z",
                  "--zero-grad", "--format", "json").json()
    assert [p["grads"]["x"] for p in doc["passes"]] == [[2.0], [3.0]]


def test_retain_grad_keeps_a_non_leaf_gradient(cli):
    doc = cli("eval", "y = 2 * x; z = y ** 3", "x=1", "--retain-grad", "y", "--format", "json").json()
    assert doc["grads"] == {"x": 24.0, "y": 12.0, "z": None}
    assert doc["passes"][0]["grads"] == {"x": 24.0, "y": 12.0}


def test_order_gives_higher_derivatives(cli):
    doc = cli("eval", "x**3", "x=2", "--order", "3", "--format", "json").json()
    assert [p["grads"]["x"] for p in doc["passes"]] == [12.0, 12.0, 6.0]
    assert [p["order"] for p in doc["passes"]] == [1, 2, 3]
    assert doc["grads"]["x"] == 6.0
    zero = cli("eval", "x**2", "x=2", "--order", "4", "--format", "json").json()
    assert zero["grads"]["x"] == 0.0


def test_order_needs_exactly_one_leaf(cli):
    out = cli("eval", "x * y", "x=1", "y=2", "--order", "2", "--format", "json")
    assert out.code == 2
    assert out.json()["error"]["kind"] == "usage"
    assert "exactly one leaf" in out.json()["error"]["message"]


def test_detect_anomaly_names_the_node_and_the_statement(cli):
    out = cli("eval", "y = sqrt(x)\nz = y * 0", "x=0", "--detect-anomaly", "--format", "json")
    assert out.code == 1
    assert out.json() == {"error": {
        "kind": "autograd", "line": 1,
        "message": "Function 'SqrtBackward0' returned nan values in its 0th output (created by: line 1: "
                   "y = sqrt(x)).",
    }}
    quiet = cli("eval", "y = sqrt(x)\nz = y * 0", "x=0", "--format", "json")
    assert quiet.code == 0
    assert quiet.json()["grads"]["x"] == "nan"


def test_const_binds_a_tensor_without_grad(cli):
    doc = cli("eval", "x + y", "--var", "x=1", "--const", "y=2", "--format", "json").json()
    assert doc["grads"] == {"x": 1.0, "y": None}


def test_seed_makes_random_values_reproducible(cli):
    first = cli("eval", "x.sum()", "--var", "x=randn(3)", "--seed", "7", "--format", "json").json()
    second = cli("eval", "x.sum()", "--var", "x=randn(3)", "--seed", "7", "--format", "json").json()
    assert first == second


def test_program_from_stdin_and_from_a_file(cli, tmp_path):
    assert cli("eval", "-", "x=2", "--format", "json", input="y = x**2\ny").json()["grads"]["x"] == 4.0
    path = tmp_path / "prog.ad"
    path.write_text("y = x ** 2\n")
    assert cli("eval", "--file", str(path), "x=3", "--format", "json").json()["grads"]["x"] == 6.0
    missing = cli("eval", "--file", str(tmp_path / "nope.ad"), "--format", "json")
    assert missing.code == 2
    assert missing.json()["error"]["kind"] == "io"


def test_values_from_npy_json_and_csv_files(cli, tmp_path):
    np.save(tmp_path / "x.npy", np.array([1.0, 2.0]))
    (tmp_path / "x.json").write_text("[[1, 2], [3, 4]]")
    (tmp_path / "x.csv").write_text("1,2\n3,4\n")
    assert cli("eval", "(x*x).sum()", f"x=@{tmp_path / 'x.npy'}", "--format", "json").json()["grads"]["x"] == \
        [2.0, 4.0]
    for name in ("x.json", "x.csv"):
        doc = cli("eval", "(x*x).sum()", f"x=@{tmp_path / name}", "--format", "json").json()
        assert doc["grads"]["x"] == [[2.0, 4.0], [6.0, 8.0]]


def test_pickled_npy_files_are_refused(cli, tmp_path):
    np.save(tmp_path / "evil.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    out = cli("eval", "x", f"x=@{tmp_path / 'evil.npy'}", "--format", "json")
    assert out.code == 2
    assert out.json()["error"]["kind"] == "io"
    assert "pickle" in out.json()["error"]["message"]


def test_max_elements_is_a_limit_checked_before_allocating(cli):
    out = cli("eval", "ones(100000, 100000).sum()", "--format", "json")
    assert out.code == 1
    assert out.json()["error"]["kind"] == "limit"
    small = cli("eval", "ones(10, 10).sum()", "--max-elements", "50", "--format", "json")
    assert small.json()["error"]["kind"] == "limit"


# ---------------------------------------------------------------------------- errors: kinds, exit codes, words

@pytest.mark.parametrize(("args", "kind", "code", "words"), [
    (["(2*x)**", "x=1"], "syntax", 2, ["expected an expression after '**'"]),
    (["sine(x)", "x=1"], "name", 2, ["unknown name 'sine'", "did you mean 'sin'"]),
    (["sin(q)", "x=1"], "name", 2, ["unknown name 'q'"]),
    (["x", "--var", "x"], "usage", 2, ["NAME=VALUE"]),
    (["x", "--repeat", "0", "x=1"], "usage", 2, ["--repeat"]),
    (["x", "x=@/nonexistent/file.npy"], "io", 2, ["does not exist"]),
    (["a + b", "--var", "a=[1, 2]", "--var", "b=[1, 2, 3]"], "shape", 1, ["(2,)", "(3,)"]),
    (["z = x * y", "--var", "x=[0.0, 2.0, 8.0]", "--var", "y=[5.0, 1.0, 7.0]"], "autograd", 1, ["scalar", "(3,)"]),
    (["(x*x).mean()", "--var", "x=[[1.0, 2.0], [3.0, 4.0]]", "--grad-tensor", "[[1, 1], [1, 1]]"], "autograd", 1,
     ["shape", "(2, 2)", "()"]),
    (["ones(-1)"], "value", 1, ["negative dimension"]),
    (["x.sum(dim=3)", "x=[1.0]"], "value", 1, ["Dimension out of range"]),
    (["x", "--var", "x=[1,"], "syntax", 2, ["the value of x"]),
    (["x", "x=1", "--backward", "nope"], "name", 2, ["nope"]),
])
def test_every_error_kind_has_its_exit_code(cli, args, kind, code, words):
    out = cli("eval", *args, "--format", "json")
    assert out.code == code, out.stderr
    error = out.json()["error"]
    assert error["kind"] == kind
    for word in words:
        assert word in error["message"]
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith(f"autodiff: {kind} error")


def test_implicit_gradient_error_suggests_the_grad_tensor_option(cli):
    out = cli("eval", "x * 2", "--var", "x=ones(2, 3)", "--format", "json")
    assert out.json()["error"]["hint"] == ("pass --grad-tensor 'ones(2, 3)' (the output's shape) or reduce the "
                                           "output with .sum()")


def test_syntax_error_shows_the_line_and_a_caret(cli):
    out = cli("eval", "y = x +* 2", "x=1")
    assert out.code == 2
    assert out.stderr.splitlines()[1:] == ["y = x +* 2", "       ^"]
    assert out.stdout == ""


# ---------------------------------------------------------------------------- the installed command

def _command() -> list[str]:
    return [sys.executable, "-m", "autodiff.cli"]


def test_python_dash_m_runs_the_cli():
    done = subprocess.run([*_command(), "eval", "x*3", "x=2", "--format", "json"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0
    assert json.loads(done.stdout)["grads"] == {"x": 3.0}


def test_a_closed_pipe_exits_quietly():
    script = f"{' '.join(_command())} eval 'x*2' --var 'x=ones(3000)' --grad-tensor 'ones(3000)' --trace | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", script], capture_output=True, text=True, check=False,
                          env={**os.environ, "COLUMNS": "80"})
    assert done.stdout.startswith("root = tensor(")
    assert "Traceback" not in done.stderr
    assert "Error" not in done.stderr


def test_float64_tensors_print_without_a_dtype_suffix_when_float64_is_the_default(cli):
    out = cli("eval", "y = x * 2", "x=1", "--dtype", "float64")
    assert out.stdout == (
        "y = tensor(2., grad_fn=<MulBackward0>)\n"
        "\n"
        "backward 1: y.backward()\n"
        "  x.grad  tensor(2.)\n"
        "\n"
        "gradients\n"
        "  x  tensor(2.)\n"
        "  y  None  non-leaf: use --retain-grad y\n"
    )


def test_version_and_help_with_worked_examples(cli):
    out = cli("--version")
    assert out.code == 0
    assert out.stdout.startswith("autodiff, version ")
    help_text = cli("eval", "--help").stdout
    assert "Examples:" in help_text
    assert "autodiff eval '(2*x)**3' x=1.5" in help_text
    for option in ("--var", "--const", "--grad-tensor", "--retain-graph", "--backward", "--repeat", "--zero-grad",
                   "--retain-grad", "--order", "--detect-anomaly", "--trace", "--explain", "--format", "--dtype",
                   "--seed", "--max-elements", "--file", "--batch"):
        assert option in help_text
    top = cli("--help").stdout
    for command in ("eval", "graph", "check", "gradcheck", "ops", "run", "repl"):
        assert f"  {command} " in top


def test_json_output_never_imports_rich():
    code = ("import sys; from autodiff.cli.main import main\n"
            "try:\n    main(['eval', 'y = (2*x)**3', 'x=1.5', '--trace', '--explain', '--format', 'json'])\n"
            "except SystemExit as done:\n    assert done.code == 0, done.code\n"
            "assert not any(m == 'rich' or m.startswith('rich.') for m in sys.modules), 'rich was imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["grads"]["x"] == 54.0
