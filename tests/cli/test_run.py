"""`autodiff run FILE|-`: the examples print exactly what PyTorch printed; errors stop scripts with kind and line."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.autodiff"))
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# The documented exit code per kind (README: errors), written out here rather than imported.
EXIT = {"syntax": 2, "name": 2, "usage": 2, "io": 2, "shape": 1, "autograd": 1, "value": 1, "limit": 1}


def normalize(text: str) -> str:
    return ADDRESS.sub("0x...", text)


def script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "script.autodiff"
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------- the examples against PyTorch
def test_there_are_examples_and_each_has_its_pytorch_output():
    assert len(SCRIPTS) >= 16
    for path in SCRIPTS:
        assert path.with_suffix(".expected").is_file(), f"{path.name}: run tests/make_examples_golden.py"
    recorded = {p.name.split(".")[0] for p in EXAMPLES.glob("*.expected")} | \
        {p.name.split(".")[0] for p in EXAMPLES.glob("*.error.json")}
    assert recorded == {p.stem for p in SCRIPTS}, "a recorded output without its script"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_prints_what_pytorch_printed(cli, path):
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    error_file = EXAMPLES / f"{path.stem}.error.json"
    out = cli("run", str(path))
    assert normalize(out.stdout) == expected
    assert "Traceback" not in out.stderr
    if not error_file.exists():
        assert (out.code, out.stderr) == (0, "")
        return
    error = json.loads(error_file.read_text(encoding="utf-8"))
    # PyTorch stopped at this line and column with this situation: autodiff stops there with its kind.
    assert out.code == EXIT[error["kind"]]
    first = out.stderr.splitlines()[0]
    assert first.startswith(f"autodiff: {error['kind']} error at line {error['line']}, column {error['column']}: ")


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_is_valid_python(path):
    compile(path.read_text(encoding="utf-8"), str(path), "exec")


def _golden_maker():
    spec = importlib.util.spec_from_file_location("make_examples_golden", ROOT / "tests" / "make_examples_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_recorded_outputs_are_current_with_pytorch():
    pytest.importorskip("torch")
    maker = _golden_maker()
    for path in SCRIPTS:
        stdout, error = maker.record(path)
        assert stdout == path.with_suffix(".expected").read_text(encoding="utf-8"), \
            f"{path.name}: stale; run tests/make_examples_golden.py"
        error_file = EXAMPLES / f"{path.stem}.error.json"
        assert error == (json.loads(error_file.read_text(encoding="utf-8")) if error_file.exists() else None)


# ---------------------------------------------------------------------------- printing
def test_print_shows_values_as_python_and_pytorch_do(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = (x ** 2).sum()\n"
        "print(None, True, False, 'text', 3, 2.5, 1/3, (1, 2), [1, 2], x.shape, x.dtype)\n"
        "print(y, y.grad_fn)\n"
        "print('a', 'b', sep='-', end='!\\n')\n"
        "print()\n"
        "print(x.sum().item(), x.tolist(), x.size(), x.is_leaf, y.is_leaf)\n"
        "print(torch.log(torch.zeros(1)), torch.sqrt(-torch.ones(1)))\n"
        "print(\"\"\"two\n"
        "lines\"\"\")\n"
    )))
    assert out.code == 0
    assert out.stderr == ""
    assert normalize(out.stdout) == (
        "None True False text 3 2.5 0.3333333333333333 (1, 2) [1, 2] torch.Size([2]) torch.float32\n"
        "tensor(5., grad_fn=<SumBackward0>) <SumBackward0 object at 0x...>\n"
        "a-b!\n"
        "\n"
        "3.0 [1.0, 2.0] torch.Size([2]) True False\n"
        "tensor([-inf]) tensor([nan])\n"
        "two\n"
        "lines\n"
    )


def test_a_bare_expression_prints_nothing(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nx = torch.ones(1, requires_grad=True); x\nx.grad\n2 + 3\n"))
    assert (out.code, out.stdout, out.stderr) == (0, "", "")


def test_import_torch_as_an_alias(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch as T\nimport torch.autograd\nprint(T.ones(2), torch.zeros(1))\n"))
    assert out.stdout == "tensor([1., 1.]) tensor([0.])\n"


def test_backward_options_retain_grad_and_autograd_grad(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "h = x * 3\n"
        "h.retain_grad()\n"
        "out = (h ** 2).sum()\n"
        "out.backward(retain_graph=True)\n"
        "print(x.grad, h.grad)\n"
        "x.grad.zero_()\n"
        "out.backward(gradient=torch.tensor(0.5))\n"
        "print(x.grad)\n"
        "w = torch.ones(2)\n"
        "w.requires_grad_()\n"
        "v = (w * w * w).sum()\n"
        "g = torch.autograd.grad(v, w, create_graph=True)\n"
        "print(g, w.is_leaf)\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == ("tensor([18., 36.]) tensor([ 6., 12.])\n"
                          "tensor([ 9., 18.])\n"
                          "(tensor([3., 3.], grad_fn=<AddBackward0>),) True\n")


def test_create_graph_gives_a_gradient_that_can_be_differentiated(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "y = x ** 3\n"
        "y.backward(create_graph=True)\n"
        "print(x.grad.detach(), x.grad.requires_grad)\n"
        "g = torch.autograd.grad(x.grad, x)\n"
        "print(g)\n"
    )))
    assert out.code == 0
    assert out.stdout == "tensor(12.) True\n(tensor(12.),)\n"


def test_seed_and_dtype_options(cli, tmp_path):
    path = script(tmp_path, "import torch\nprint(torch.randn(3))\nprint(torch.tensor([1.5]), torch.ones(1).dtype)\n")
    first, second = cli("run", path, "--seed", "7"), cli("run", path, "--seed", "7")
    assert first.code == 0 and first.stdout == second.stdout
    out = cli("run", path, "--dtype", "float64", "--seed", "7")
    # as in PyTorch, the repr names the dtype only when it is not the default
    assert out.stdout.splitlines()[1] == "tensor([1.5000]) torch.float64"


def test_a_script_from_stdin(cli):
    out = cli("run", "-", input="import torch\nx = torch.ones(2, requires_grad=True)\nx.sum().backward()\n"
                                "print(x.grad)\n")
    assert (out.code, out.stdout) == (0, "tensor([1., 1.])\n")


def test_the_installed_command_runs_an_example():
    done = subprocess.run([sys.executable, "-m", "autodiff.cli", "run", str(EXAMPLES / "05_backward_chain.autodiff")],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0
    assert done.stdout == (EXAMPLES / "05_backward_chain.expected").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- errors stop the script
def test_an_unknown_name_stops_the_script_at_its_line(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nx = torch.ones(2)\nprint(x)\ny = z * 2\nprint(y)\n"))
    assert out.code == 2
    assert out.stdout == "tensor([1., 1.])\n"  # what ran before the error stays printed
    assert out.stderr == (
        "autodiff: name error at line 4, column 5: unknown name 'z' (hint: assign z = ... before this line)\n"
        "y = z * 2\n"
        "    ^\n"
    )


def test_a_second_backward_is_an_autograd_error_with_pythons_fix(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "out = (x * x).sum()\n"
        "out.backward()\n"
        "out.backward()\n"
    )))
    assert out.code == 1
    assert out.stdout == ""
    assert out.stderr == (
        "autodiff: autograd error at line 5, column 1: Trying to backward through the graph a second time (or "
        "directly access saved tensors after they have already been freed). Saved intermediate values of the graph "
        "are freed when you call .backward() or autograd.grad(). (hint: Specify retain_graph=True on the first "
        "backward if you need to backward through the graph a second time.)\n"
        "out.backward()\n"
        "^\n"
    )


def test_backward_of_a_non_scalar_without_gradient_is_an_autograd_error(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nx = torch.ones(2, 3, requires_grad=True)\n(x * 2).backward()\n"))
    assert out.code == 1
    assert out.stderr.splitlines()[0] == (
        "autodiff: autograd error at line 3, column 1: grad can be implicitly created only for scalar outputs: this "
        "output has shape (2, 3), 6 elements (hint: pass a gradient of shape (2, 3) (e.g. ones(2, 3)) or reduce "
        "the output to a scalar first, e.g. with .sum())")


def test_a_shape_mismatch_is_a_shape_error(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\na = torch.ones(2)\nb = torch.ones(3)\nc = a + b\n"))
    assert out.code == 1
    assert out.stderr == (
        "autodiff: shape error at line 4, column 5: shapes (2,) and (3,) cannot be broadcast together: at dimension "
        "0 the sizes are 2 and 3, which must be equal or one of them 1\n"
        "c = a + b\n"
        "    ^\n"
    )


def test_a_syntax_error_stops_the_script_before_it_starts(cli, tmp_path):
    out = cli("run", script(tmp_path, "print('before')\nfor i in x:\n"))
    assert out.code == 2
    assert out.stdout == ""  # the whole script is parsed first, as Python does
    lines = out.stderr.splitlines()
    assert lines[0].startswith("autodiff: syntax error at line 2, column 1: ")
    assert lines[1:] == ["for i in x:", "^"]


def test_python_modules_other_than_torch_say_why_they_fail(cli, tmp_path):
    out = cli("run", script(tmp_path, "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n"))
    assert out.code == 2
    assert out.stderr.splitlines()[0] == ("autodiff: name error at line 2, column 1: matplotlib.pyplot.plot: the "
                                          "module matplotlib.pyplot is not available in autodiff (use the torch "
                                          "functions instead)")
    out = cli("run", script(tmp_path, "import numpy as np\nx = np.fft(2)\n"))
    assert out.code == 2 and "numpy has no attribute or method 'fft'" in out.stderr


def test_a_missing_script_is_an_io_error(cli, tmp_path):
    out = cli("run", str(tmp_path / "missing.autodiff"))
    assert out.code == 2
    assert out.stderr == ("autodiff: io error: " + str(tmp_path / "missing.autodiff")
                          + ": cannot read the script (No such file or directory)\n")


def test_no_python_is_reachable(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nx = torch.ones(1)\nprint(x.__class__)\n"))
    assert out.code == 2
    assert out.stderr.splitlines()[0] == ("autodiff: name error at line 3, column 7: '__class__': names starting "
                                          "with '_' are not part of the language")
    out = cli("run", script(tmp_path, "__import__('os')\n"))
    assert out.code == 2
    assert "unknown name '__import__'" in out.stderr
