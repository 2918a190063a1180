"""Hostile scripts for `autodiff run` and the REPL (issue #29): hooks of every kind, work hidden inside a
Python built-in (a range of 2**62 items, recursion through a lambda), bad print() and fill_() arguments.
Each is a clean error of its kind (or PyTorch's answer), in bounded time. Run as real processes."""

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
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
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


@pytest.mark.parametrize(("hook", "kind", "words"), [
    ("5", "value", "register_hook expects a function, not int"),
    ("lambda g: torch.ones(3)", "autograd", "a hook has changed the size of value"),
    ("lambda g: g.double()", "autograd", "a hook has changed the type of value"),
    ("lambda g: 5", "autograd", "a hook returned 'int'"),
])
def test_hooks_that_pytorch_refuses(hook, kind, words):
    code, _, err = _run(HOOKED + f"y.register_hook({hook})\ny.sum().backward()\nprint(x.grad)\n")
    assert code == 1 and err.startswith(f"autodiff: {kind} error") and words in err


@pytest.mark.parametrize(("script", "out"), [
    ("print(3 in range(2**62))", "True"),
    ("print(2**62 - 1 in range(2**62))", "True"),
    ("print(0.5 in range(2**62))", "False"),
    ("print(7.0 in range(0, 2**62, 7))", "True"),
    ("print(sum(range(2**62)))", str((2**62) * (2**62 - 1) // 2)),
    ("print(sum(range(10, 0, -3), 5))", "27"),
    ("print(min(range(10**8)), max(range(10**8)))", "0 99999999"),
    ("print(max(range(10, -2**62, -7)))", "10"),
    ("print(len(range(-2**62, 2**62)))", str(2**63)),
    ("print(round(5, -(2**62)), round(15, -1), round(2.5, 2**62))", "0 20 2.5"),
    ("print(1, 2, sep=None, end=None)", "1 2"),
    ("a, b = enumerate(range(2**62))", None),
])
def test_builtins_on_huge_ranges_answer_at_once(script, out):
    code, stdout, err = _run(script + "\n")
    if out is None:
        assert code == 1 and "too many values to unpack" in err
    else:
        assert code == 0 and stdout == out + "\n"


@pytest.mark.parametrize(("script", "kind", "words"), [
    ("list(range(2**62))", "limit", "list() of 4,611,686,018,427,387,904 items"),
    ("sorted(range(2**62))", "limit", "the limit is 10,000,000"),
    ("import itertools\nsorted(itertools.count())", "limit", "more than 10,000,000 items"),
    ("import math\nmath.fsum(range(10**9))", "limit", "the limit is 10,000,000"),
    ("print(1, end=5)", "value", "print(): end must be None or a string, not int"),
    ("print(1, sep=[1])", "value", "print(): sep must be None or a string, not list"),
    ("import torch\ntorch.ones(2).fill_('a')", "value", "fill_() takes a number, not str"),
    ("import torch\ntorch.ones(2).fill_(torch.ones(2))", "value", "fill_ only supports a 0-dimension value"),
    ("round(5, 'a')", "value", "cannot be interpreted as an integer"),
])
def test_bad_builtin_calls_are_clean_errors(script, kind, words):
    code, _, err = _run(script + "\n")
    assert err.startswith(f"autodiff: {kind} error") and words in err
    assert code == 1


@pytest.mark.parametrize("script", [
    "def f(n): return f(n - 1) + f(n - 1) if n > 0 else 0\nprint(f(60))\n",
    "f = lambda n: f(n - 1) + f(n - 1) if n > 0 else 0\nprint(f(60))\n",
    "g = lambda n: [g(n - 1) for _ in range(2)] if n > 0 else 0\ng(40)\n",
])
def test_max_steps_bounds_recursion_through_expressions(script):
    code, _, err = _run(script, "--max-steps", "10000")
    assert code == 1 and "limit error" in err and "the script ran 10,000 statements" in err


def test_the_repl_goes_on_after_an_error_while_echoing():
    entries = "l = []\nfor i in range(100000):\n    l = [l]\n\nl\n1 + 1\nprint(l)\n2 + 2\n"
    code, stdout, err = _run(entries, command="repl")
    assert code == 0 and stdout.split() == ["2", "4"]
    assert "the value is nested too deeply to show" in err
