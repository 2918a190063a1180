"""PyTorch's warnings, which the engine gives as PyTorch does (meshgrid without `indexing`), reach a command's user
in autodiff's words: `autodiff: warning: ...` on stderr and `"warnings"` in eval's JSON, never in Python's format
(which names autodiff's source files). `autodiff run` is Python: a script sees them as Python shows them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MESHGRID = "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."
PROGRAM = "meshgrid(x)[0].sum() * 2"


def test_eval_text_warns_once_in_its_own_words(cli):
    out = cli("eval", PROGRAM, "x=[1., 2.]")
    assert out.code == 0
    assert out.stderr == f"autodiff: warning: {MESHGRID}\n"
    assert out.stdout.startswith("root = tensor(6., grad_fn=<MulBackward0>)\n")


def test_eval_json_carries_the_warning(cli):
    out = cli("eval", PROGRAM, "x=[1., 2.]", "--format", "json")
    assert (out.code, out.stderr) == (0, "")
    document = json.loads(out.stdout)
    assert document["warnings"] == [MESHGRID]
    assert document["grads"] == {"x": [2.0, 2.0]}


def test_the_same_warning_is_given_once(cli):
    out = cli("eval", "g = meshgrid(x); g = meshgrid(x, x); g[0].sum()", "x=[1., 2.]", "--format", "json")
    assert json.loads(out.stdout)["warnings"] == [MESHGRID]


def test_each_batch_line_carries_its_warning(cli):
    lines = '{"x": [1, 2]}\n{"x": [3, 4]}\n'
    out = cli("eval", PROGRAM, "--batch", "-", input=lines)
    documents = [json.loads(line) for line in out.stdout.splitlines()]
    assert [d["warnings"] for d in documents] == [[MESHGRID], [MESHGRID]]
    assert [d["root"]["value"] for d in documents] == [6.0, 14.0]
    assert out.stderr == ""


@pytest.mark.parametrize("command", [
    ["check", PROGRAM, "x=1.5", "--expect", "x=2"],
    ["graph", PROGRAM, "x=1.5"],
    ["gradcheck", PROGRAM, "x=1.5"],
    ["hessian", PROGRAM, "x=1.5"],
])
def test_other_commands_warn_in_their_own_words(cli, command):
    out = cli(*command)
    assert out.code == 0, out.stderr
    assert out.stderr == f"autodiff: warning: {MESHGRID}\n"


def test_a_script_sees_the_warning_as_python_shows_it(tmp_path):
    script = tmp_path / "grid.py"
    script.write_text("import torch\ng = torch.meshgrid(torch.ones(2))\nprint(g[0].sum().item())\n")
    done = subprocess.run([sys.executable, "-m", "autodiff.cli", "run", str(script)], capture_output=True,
                          text=True, check=False, timeout=120)
    assert (done.returncode, done.stdout) == (0, "2.0\n")
    assert done.stderr.startswith(f"{script}:2: UserWarning: {MESHGRID}\n")
