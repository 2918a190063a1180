"""The Python of tutorial scripts (`autodiff run`): what each construct's mistakes say, the limits that keep
a script finite, and the REPL's blocks. What the constructs print is checked against PyTorch by the
examples (examples/17_* to 25_*, tests/cli/test_run.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from autodiff.app.script import Entry, needs_more


def script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "script.autodiff"
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(cli, tmp_path: Path, text: str, *options: str):
    return cli("run", script(tmp_path, text), *options)


@pytest.mark.parametrize(("text", "code", "stderr"), [
    ("import torch\nx = torch.ones(2)\nif x > 0:\n    print(1)\n", 1,
     "autodiff: value error at line 3, column 4: Boolean value of Tensor with more than one value is ambiguous "
     "(hint: reduce it first: .all(), .any() or .item())\nif x > 0:\n   ^\n"),
    ("while True:\n    pass\n", 1,
     "autodiff: limit error at line 1, column 1: the script ran 1,000 statements (loop rounds included), the limit "
     "(hint: a loop that never ends? if not, raise the limit with --max-steps N)\nwhile True:\n^\n"),
    ("def f(n):\n    return f(n)\nf(1)\n", 1,
     "autodiff: limit error at line 2, column 12: function calls are nested more than 100 deep (a function that "
     "calls itself never stops)\n    return f(n)\n           ^\n"),
    ("with 3:\n    pass\n", 1,
     "autodiff: value error at line 1, column 1: with needs torch.no_grad(), torch.enable_grad(), "
     "torch.set_grad_enabled(...), torch.autograd.forward_ad.dual_level() or torch.autograd.profiler.profile(), "
     "not int\nwith 3:\n^\n"),
    ("a, b = [1, 2, 3]\n", 1,
     "autodiff: value error at line 1, column 1: too many values to unpack (expected 2, got 3)\na, b = [1, 2, 3]\n^\n"),
    ("for i in 5:\n    pass\n", 1,
     "autodiff: value error at line 1, column 10: 'int' object is not iterable\nfor i in 5:\n         ^\n"),
    ("import torch\nprint(f'{torch.ones(2):.3f}')\n", 1,
     "autodiff: value error at line 2, column 7: unsupported format string passed to Tensor.__format__ ('.3f' "
     "needs one number: use .item() or index the tensor)\nprint(f'{torch.ones(2):.3f}')\n      ^\n"),
    ("print(f'{1.5:d}')\n", 1,
     "autodiff: value error at line 1, column 7: Unknown format code 'd' for object of type 'float'\n"
     "print(f'{1.5:d}')\n      ^\n"),
    ("f = lambda x: x\nprint(f(1, 2))\n", 1,
     "autodiff: value error at line 2, column 7: <lambda>() takes 1 positional argument but 2 were given\n"
     "print(f(1, 2))\n      ^\n"),
    ("assert 1 == 2, 'one is not two'\n", 1,
     "autodiff: value error at line 1, column 1: AssertionError: one is not two\nassert 1 == 2, 'one is not two'\n^\n"),
    ("print(7 % 0)\n", 1,
     "autodiff: value error at line 1, column 7: integer division or modulo by zero\nprint(7 % 0)\n      ^\n"),
    ("import torch\nx = torch.ones(2)\nx.shape = 3\n", 1,
     "autodiff: value error at line 3, column 1: attribute 'shape' of a tensor cannot be assigned (only grad, "
     "requires_grad, data can)\nx.shape = 3\n^\n"),
    ("import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 1\nv = y[0:1]\nv += 1\n", 1,
     "autodiff: autograd error at line 5, column 1: add_ on a view of a tensor that requires grad is not supported "
     "by autodiff (hint: write the result to a new name (y = x + ...), or clone() first)\nv += 1\n^\n"),
    ("import torch\nx = torch.ones(3)\nx += torch.ones(2, 3)\n", 1,
     "autodiff: shape error at line 3, column 1: output with shape [3] doesn't match the broadcast shape [2, 3]\n"
     "x += torch.ones(2, 3)\n^\n"),
    ("try:\n    pass\n", 2,
     "autodiff: syntax error at line 1, column 1: try/except is not part of autodiff scripts: the first error "
     "stops a script, with its line\ntry:\n^\n"),
])
def test_script_mistakes_say_what_and_where(cli, tmp_path, text, code, stderr):
    out = run(cli, tmp_path, text, "--max-steps", "1000")
    assert (out.code, out.stderr) == (code, stderr)


def test_a_loop_runs_until_the_step_limit_and_prints_what_it_printed_before(cli, tmp_path):
    out = run(cli, tmp_path, "n = 0\nwhile n < 10:\n    n += 1\n    print(n)\n", "--max-steps", "7")
    assert out.stdout == "1\n2\n"
    assert out.code == 1 and "limit error at line 3, column 5: the script ran 7 statements" in out.stderr


def test_an_error_inside_a_with_block_restores_recording(cli, tmp_path):
    # The REPL goes on after an error: the no_grad of the failed entry must not stay on.
    text = "import torch\nwith torch.no_grad():\n    1 % 0\n\ntorch.is_grad_enabled()\n"
    out = cli("repl", input=text)
    assert out.stdout == "True\n"
    assert "modulo by zero" in out.stderr


def test_the_repl_shows_values_of_bare_expressions_inside_blocks_as_python_does(cli):
    out = cli("repl", input="for i in range(3):\n    i * 2\n\nif True:\n    'yes'\n\nprint('done')\n")
    assert out.stdout == "0\n2\n4\n'yes'\ndone\n"
    assert out.code == 0


def test_the_entry_reader_follows_blocks_brackets_and_strings():
    assert needs_more("for i in range(3):")
    assert needs_more("for i in range(3):\n    print(i)")
    assert not needs_more("for i in range(3):\n    print(i)\n")
    assert not needs_more("x = {1: 2}")  # a ':' inside brackets opens no block
    assert needs_more("x = f(1,")
    assert not needs_more("s = 'a:'  # ends with ':'")
    assert needs_more("s = '''a\nb:")
    assert not needs_more("s = '''a\nb'''")


def test_a_long_multi_line_entry_is_read_a_line_at_a_time():
    # Each line is scanned once (rescanning the whole entry per line took over a minute for 20,000 lines).
    entry = Entry()
    assert entry.feed("x = [")
    for _ in range(20_000):
        assert entry.feed("1,")
    assert entry.depth == 1
    assert not entry.feed("]")


def test_list_methods_and_python_lists_in_scripts(cli, tmp_path):
    out = run(cli, tmp_path, "values = []\nfor i in range(3):\n    values.append(i * i)\nprint(values, len(values), "
                             "sum(values))\n")
    assert (out.code, out.stdout) == (0, "[0, 1, 4] 3 5\n")


def test_torch_nn_functional_imports_as_in_python(cli, tmp_path):
    text = ("import torch\nimport torch.nn.functional as F\nimport torch.nn as nn\nimport torch.nn\n"
            "x = torch.tensor([-1.0, 2.0])\n"
            "print(F.relu(x), nn.functional.mse_loss(x, torch.zeros(2)), torch.nn.functional.sigmoid(x).grad_fn)\n"
            "print(F, nn)\n")
    out = run(cli, tmp_path, text)
    assert out.code == 0, out.stderr
    assert out.stdout == ("tensor([0., 2.]) tensor(2.5000) None\n"
                          "<module 'torch.nn.functional'> <module 'torch.nn'>\n")


@pytest.mark.parametrize(("text", "stderr"), [
    ("import torch.optim\nopt = torch.optim.SGD([], lr=0.1)\n", "autodiff: value error at line 2, column 7: "
     "optimizer got an empty parameter list\n"),
    ("import torch\nimport torch.nn.functional as F\nF.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))\n",
     "autodiff: value error at line 3, column 1: Target 3 is out of bounds (there are 3 classes)\n"),
    ("import torch\nimport torch.nn as nn\nmodel = nn.Linear(2, 3)\nmodel(torch.ones(4))\n", "autodiff: shape error "
     "at line 4, column 1: mat1 and mat2 shapes cannot be multiplied (1x4 and 2x3): the input's last dim must be "
     "the weight's in_features\n"),
    ("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        self.fc = nn.Linear(1, 1)\nM()\n",
     "autodiff: value error at line 4, column 9: cannot assign module before Module.__init__() call (hint: call "
     "super().__init__() first in __init__)\n"),
    ("import torch\nimport torch.nn.functional as F\nF.mse_loss(torch.ones(3), torch.ones(3, 1))\n",
     "autodiff: shape error at line 3, column 1: mse_loss: the target's shape (3, 1) is not the input's (3,): give "
     "them the same shape (PyTorch would broadcast them with a warning: usually a mistake)\n"),
])
def test_torch_nn_mistakes(cli, tmp_path, text, stderr):
    out = run(cli, tmp_path, text)
    assert out.code in (1, 2) and out.stderr.startswith(stderr), out.stderr


def test_functions_with_statements_have_locals_of_their_own(cli, tmp_path):
    text = ("import torch\nc = 3\n"
            "def k(x):\n    c = 4\n    total = 0\n    for i in range(x):\n        if i == 2:\n            continue\n"
            "        total += i * c\n    return total\n"
            "def g():\n    with torch.no_grad():\n        return torch.is_grad_enabled()\n"
            "def h(x):\n    pass\n"
            "print(k(4), c, g(), torch.is_grad_enabled(), h(1))\nprint(total)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "16 3 False True None\n"  # (0 + 1 + 3) * 4; the script's c untouched; with restored
    assert out.code == 2 and out.stderr.startswith("autodiff: name error at line 17, column 7: unknown name 'total'")


def test_a_function_with_statements_that_calls_itself_ends_at_the_depth_limit(cli, tmp_path):
    out = run(cli, tmp_path, "def f(n):\n    x = n + 1\n    if x > 0:\n        return f(x)\n    return x\nf(1)\n")
    assert out.code == 1 and out.stderr.startswith(
        "autodiff: limit error at line 4, column 16: function calls are nested more than 100 deep")
    assert "Traceback" not in out.stderr and "Recursion" not in out.stderr


def test_chained_comparisons_are_pythons_and(cli, tmp_path):
    text = ("import torch\nx = torch.tensor(0.3)\nprint(0 < x < 1, 0 < x < 0.2, 1 < 2 < 3 < 4, 1 < 3 > 2)\n"
            "y = torch.tensor([0.1, 2.0])\nprint(0 < y < 1)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "tensor(True) tensor(False) True True\n"
    assert out.code == 1 and out.stderr.startswith(  # (0 < y) and ...: PyTorch's error for a 2-element tensor
        "autodiff: value error at line 5, column 7: Boolean value of Tensor with more than one value is ambiguous")
