"""The eval language keeps its documented rule while the engine has PyTorch's integer tensors: numbers and list
literals, and tensor(), arange() and full() without dtype=, make floating tensors of the chosen --dtype. The
expected texts are what `autodiff eval` printed before the engine had integer dtypes."""

from __future__ import annotations

import json

import pytest

NO_PASS = ("\nno backward pass: the root does not require grad: bind a variable with --var NAME=VALUE (or "
           "requires_grad=True) to differentiate\n")
UNREACHED = "\ngradients\n  x  None  no backward pass reached it\n"


@pytest.mark.parametrize(("program", "root"), [
    ("arange(3)", "tensor([0., 1., 2.])"),
    ("arange(1, 4)", "tensor([1., 2., 3.])"),
    ("arange(0, 1, 0.25)", "tensor([0.0000, 0.2500, 0.5000, 0.7500])"),
    ("arange(4).reshape(2, 2)", "tensor([[0., 1.],\n               [2., 3.]])"),
    ("[1, 2]", "tensor([1., 2.])"),
    ("tensor([1, 2])", "tensor([1., 2.])"),
    ("tensor(3)", "tensor(3.)"),
    ("full((2,), 7)", "tensor([7., 7.])"),
    ("7 // 2", "tensor(3.)"),
    ("sum(2)", "tensor(2.)"),
    ("tensor([True, False])", "tensor([ True, False])"),
    ("[True, False]", "tensor([ True, False])"),
    ("arange(3) > 0", "tensor([False,  True,  True])"),
    ("randint(0, 10, (3,))", "tensor([4, 9, 3])"),
])
def test_literals_and_constructors_stay_floating(cli, program, root):
    out = cli("eval", program, "--seed", "0")
    assert (out.code, out.stdout) == (0, f"root = {root}\n{NO_PASS}")


def test_the_chosen_dtype_is_the_literals(cli):
    out = cli("eval", "arange(3) + tensor([1, 2, 3])", "--dtype", "float64")
    assert out.stdout == f"root = tensor([1., 3., 5.])\n{NO_PASS}"
    out = cli("eval", "tensor([1, 2], dtype='int32')")  # a dtype named by the program is the program's
    assert out.stdout == f"root = tensor([1, 2], dtype=torch.int32)\n{NO_PASS}"


@pytest.mark.parametrize("program", ["([1, 2]*x).sum()", "(x * tensor([1, 2])).sum()", "(x + arange(3)).sum()",
                                     "(full((2,), 3) * x).sum() / 2", "tensor(3) * x"])
def test_gradients_through_literals(cli, program):
    out = cli("eval", program, "x=2")
    assert out.code == 0 and out.stdout.endswith("gradients\n  x  tensor(3.)\n"), out.stdout


@pytest.mark.parametrize(("program", "root"), [("len(x)", "tensor(2.)"), ("x.shape[0]", "tensor(2.)")])
def test_a_number_root_is_floating(cli, program, root):
    out = cli("eval", program, "x=[1,2]")
    assert out.stdout == f"root = {root}\n{NO_PASS}{UNREACHED}"


def test_tensor_literal_with_requires_grad(cli):
    out = cli("eval", "y = tensor([1, 2], requires_grad=True); (y * y).sum()")
    assert out.code == 0 and "y.grad  tensor([2., 4.])" in out.stdout


@pytest.mark.parametrize(("program", "message"), [
    ("x // 2", "// works on numbers here, not tensors: write floor(x / y)"),
    ("x % 2", "% works on numbers here, not tensors: write x - floor(x / y) * y"),
])
def test_floor_division_of_tensors_is_still_refused(cli, program, message):
    out = cli("eval", program, "x=5")
    assert out.code == 1 and out.stderr == f"autodiff: value error at line 1, column 1: {message}\n"


def test_check_and_diff_are_unchanged(cli):
    out = cli("check", "sum(x**2)", "--expect", "x=2*x", "x=[1,2]", "--seed", "3")
    assert out.code == 0 and "your derivative is right" in out.stdout
    out = cli("diff", "x**2 + 3*x")
    assert out.stdout == "d/dx x**2 + 3*x = 2*x + 3\n"


@pytest.mark.parametrize("program", [
    "tensor([1, 2], dtype='uint8') ** 300", "clamp(tensor([1, 2], dtype='uint8'), 0, 300)",
    "tensor([1, 2], dtype='uint8').fill_(300)", "full((2,), 300, dtype='uint8')",
    "masked_fill(tensor([1, 2], dtype='int8'), tensor([True, False]), 128)",
])
def test_a_number_an_integer_dtype_cannot_hold_is_a_value_error(cli, program):
    out = cli("eval", program, "--format", "json")  # numpy's OverflowError was an internal error here
    error = json.loads(out.stdout)["error"]
    assert out.code == 1 and error["kind"] == "value", out.stdout
    assert "without overflow" in error["message"] and "internal error" not in error["message"]


@pytest.mark.parametrize(("program", "root"), [
    ("fmod(tensor([1, 2], dtype='uint8'), 300)", "tensor([1, 2], dtype=torch.uint8)"),  # fmod by 44, as PyTorch
    ("tensor([1, 2], dtype='uint8') - 300", "tensor([213, 214], dtype=torch.uint8)"),
])
def test_arithmetic_wraps_the_number_into_the_dtype(cli, program, root):
    out = cli("eval", program)
    assert (out.code, out.stdout) == (0, f"root = {root}\n{NO_PASS}")


def test_shifts_are_functions_of_the_language(cli):
    out = cli("eval", "bitwise_left_shift(tensor([1, 2], dtype='uint8'), 7) + "
                      "tensor([3], dtype='int8').bitwise_right_shift(9)")  # the language has no << operator
    assert (out.code, out.stdout) == (0, f"root = tensor([128,   0], dtype=torch.int16)\n{NO_PASS}")
