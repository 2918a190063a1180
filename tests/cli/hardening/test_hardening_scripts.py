"""Hooks of every kind in scripts run by `autodiff run` (issue #29): PyTorch's answer, or PyTorch's refusal as a
RuntimeError (TypeError for a hook that is not a function) printed as Python prints it. Run as real processes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

AUTODIFF = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"


def _run(script: str, *args: str, command: str = "run") -> tuple[int, str, str]:
    argv = [AUTODIFF, command, "-", *args] if command == "run" else [AUTODIFF, command, *args]
    done = subprocess.run(argv, input=script, capture_output=True, text=True, timeout=60)
    assert "internal error" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


HOOKED = "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"


@pytest.mark.parametrize(("hook", "out"), [
    ("print", "tensor([1., 1.])\ntensor([2., 2.])\n"),  # the tutorial idiom: print the gradient passing by
    ("lambda g: g.zero_()", "tensor([0., 0.])\n"),  # changed in place, as PyTorch lets a hook do
    ("lambda g: g * 3", "tensor([6., 6.])\n"),
])
def test_hooks_that_pytorch_runs(hook, out):
    code, stdout, _ = _run(HOOKED + f"y.register_hook({hook})\ny.sum().backward()\nprint(x.grad)\n")
    assert code == 0 and stdout == out


def test_a_leaf_hook_that_zeroes_the_gradient():
    code, stdout, _ = _run("import torch\nx = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: "
                           "g.zero_())\n(x * 2).sum().backward()\nprint(x.grad)\n")
    assert code == 0 and stdout == "tensor([0., 0.])\n"


@pytest.mark.parametrize(("hook", "exception", "words"), [
    ("5", "RuntimeError", "register_hook expects a function, not int"),
    ("lambda g: torch.ones(3)", "RuntimeError", "a hook has changed the size of value"),
    ("lambda g: g.double()", "RuntimeError", "a hook has changed the type of value"),
    ("lambda g: 5", "RuntimeError", "a hook returned 'int'"),
])
def test_hooks_that_pytorch_refuses(hook, exception, words):
    code, _, err = _run(HOOKED + f"y.register_hook({hook})\ny.sum().backward()\nprint(x.grad)\n")
    assert code == 1 and err.startswith("Traceback") and f"{exception}: " in err and words in err, err
