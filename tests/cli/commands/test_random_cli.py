"""--seed and torch.manual_seed give PyTorch's random numbers in `eval` and `run` alike; bad seeds and bad
sampler arguments are typed errors, never tracebacks. The expected strings are what PyTorch 2.13 prints."""

from __future__ import annotations

import pytest


def test_eval_randn_with_seed_prints_pytorchs_numbers(cli):
    out = cli("eval", "randn(3)", "--seed", "0")
    assert out.code == 0, out.stderr
    assert out.stdout.splitlines()[0] == "root = tensor([ 1.5410, -0.2934, -2.1788])"


def test_eval_without_a_seed_draws_other_numbers_each_time(cli):
    first, second = cli("eval", "randn(4)"), cli("eval", "randn(4)")
    assert first.code == second.code == 0
    assert first.stdout != second.stdout


def test_seed_and_manual_seed_agree(cli):
    by_option = cli("eval", "rand(2, 3)", "--seed", "42")
    by_call = cli("eval", "torch.manual_seed(42); rand(2, 3)")
    assert by_option.code == by_call.code == 0
    assert by_option.stdout == by_call.stdout
    assert by_option.stdout.splitlines()[:2] == ["root = tensor([[0.8823, 0.9150, 0.3829],",
                                                 "               [0.9593, 0.3904, 0.6009]])"]


def test_a_seed_past_2_to_the_32(cli):
    out = cli("eval", "randn(2)", "--seed", str(2**64 - 1))
    assert out.code == 0, out.stderr
    assert out.stdout.splitlines()[0] == "root = tensor([ 1.2198, -0.3930])"


def test_run_script_with_torch_manual_seed(cli, tmp_path):
    script = tmp_path / "seeded.autodiff"
    script.write_text(
        "import torch\n"
        "torch.manual_seed(0)\n"
        "print(torch.randn(3))\n"
        "print(torch.randint(0, 10, (5,)))\n"
        "print(torch.randperm(5))\n"
        "w = torch.zeros(2, 2)\n"
        "print(w.normal_(0, 0.01))\n"
        "print(torch.randn(20).sum())\n")
    out = cli("run", str(script))
    assert out.code == 0, out.stderr
    assert out.stdout == (
        "tensor([ 1.5410, -0.2934, -2.1788])\n"
        "tensor([7, 3, 1, 6, 6])\n"
        "tensor([4, 3, 0, 1, 2])\n"
        "tensor([[ 0.0057, -0.0063],\n        [ 0.0045, -0.0137]])\n"
        "tensor(7.1865)\n")


@pytest.mark.parametrize("program, words", [
    ("torch.manual_seed(-1)", "non-negative"),
    ("torch.manual_seed(2**64)", "integer"),  # past 2**63 a number of the language is a float
    ("torch.manual_seed(0.5)", "integer"),
    ("randint(5, 5, (2,))", "from=5 >= to=5"),
    ("randperm(-3)", "non-negative"),
    ("multinomial(tensor([0.5, -1.0]), 1)", "element < 0"),
    ("bernoulli(tensor([2.0]))", "[0, 1]"),
    ("normal(0, -1, (2,))", "std >= 0.0"),
    ("zeros(2).uniform_(1, 0)", "from=1 > to=0"),
])
def test_bad_arguments_are_value_errors(cli, program, words):
    out = cli("eval", program)
    assert out.code == 1, out.stdout
    assert "value error" in out.stderr and words in out.stderr
    assert "Traceback" not in out.stderr


def test_a_seed_too_large_for_the_option(cli):
    out = cli("eval", "randn(2)", "--seed", str(2**64))
    assert out.code in (1, 2)
    assert "2**64" in out.stderr and "Traceback" not in out.stderr
