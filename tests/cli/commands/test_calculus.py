"""The calculus vocabulary from the command line (functions, constants, piecewise functions) and the
slips a student makes, each with its exit code and the fix in its message."""

from __future__ import annotations

import json
import math

import pytest


def _grads(cli, *args: str) -> dict:
    out = cli("eval", *args, "--format", "json", "--dtype", "float64")
    assert out.code == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize(("program", "x", "value", "grad"), [
    ("asin(x)", 0.5, math.asin(0.5), 1 / math.sqrt(0.75)),
    ("arctan(x**2 + 1)", 1.0, math.atan(2.0), 2.0 / 5.0),
    ("sinh(x)", 0.5, math.sinh(0.5), math.cosh(0.5)),
    ("ln(x)", 2.0, math.log(2.0), 0.5),
    ("log10(x)", 100.0, 2.0, 1 / (100.0 * math.log(10.0))),
    ("e**x", 1.0, math.e, math.e),
    ("sin(pi*x)", 0.25, math.sin(math.pi / 4), math.pi * math.cos(math.pi / 4)),
    ("cbrt(x)", -8.0, -2.0, 1 / 12),
    ("sec(x)", 0.5, 1 / math.cos(0.5), math.sin(0.5) / math.cos(0.5) ** 2),
    ("where(x > 0, x**2, -x)", -3.0, 3.0, -1.0),
    ("where(x > 0, x**2, -x)", 3.0, 9.0, 6.0),
    ("erf(x)", 0.5, math.erf(0.5), 2 / math.sqrt(math.pi) * math.exp(-0.25)),
])
def test_homework_functions(cli, program, x, value, grad):
    document = _grads(cli, program, f"x={x}")
    assert document["root"]["value"] == pytest.approx(value, rel=1e-12)
    assert document["grads"]["x"] == pytest.approx(grad, rel=1e-12)


def test_constants_in_values_and_shadowed_by_the_program(cli):
    assert _grads(cli, "sin(x)", "x=pi/4")["root"]["value"] == pytest.approx(math.sqrt(0.5), rel=1e-12)
    document = _grads(cli, "c = a + b; e = c * d", "a=2", "b=3", "d=4")  # the tutorial's own e
    assert document["root"]["value"] == 20.0


def test_comparisons_give_booleans(cli):
    out = cli("eval", "(x > 0) & ~(x > 2)", "--const", "x=[-1, 1, 3]", "--format", "plain")
    assert out.code == 0 and out.stdout.startswith("root = tensor([False,  True, False])\n")


@pytest.mark.parametrize("command", [["eval"], ["check"], ["gradcheck"], ["graph"]])
def test_a_program_starting_with_a_minus_is_the_program(cli, command):
    extra = ["--expect", "x=-2*x + 3"] if command == ["check"] else []
    out = cli(*command, "-x**2 + 3*x", "x=2", *extra)
    assert out.code == 0, out.stderr


@pytest.mark.parametrize(("args", "code", "words"), [
    (["x^2", "x=1"], 2, "write ** for a power, e.g. x**2 for x^2"),
    (["2(x+1)", "x=1"], 2, "a '*' is missing: 2(...) multiplies in mathematics, not in Python; write 2*(...)"),
    (["(x+1)(x-1)", "x=1"], 2, "a '*' is missing"),
    (["x*t", "x=1"], 2, "name error at line 1, column 1: 't' is a built-in function, not a value"),
    (["arctg(x)", "x=1"], 2, "unknown name 'arctg'; did you mean 'arctan'?"),
    (["x*y", "x=1", "x=2"], 2, "usage error: x is bound twice ('x=1' and 'x=2'): bind each name once"),
    (["x*y", "x=1", "--const", "x=2"], 2, "x is bound twice ('x=1' and --const 'x=2')"),
    (["x", "x=1,5"], 2, "a list needs brackets and a decimal needs a point (hint: write 'x=[1, 5]' for a list, "
                        "or x=1.5 for a decimal number)"),
    (["x=2"], 2, "'x=2' looks like a binding, but it is where the PROGRAM goes"),
    (["[x**2*y, 5*x + sin(y)]", "x=1", "y=2"], 1, "hint: join them with stack([...])"),
])
def test_slips_show_the_fix(cli, args, code, words):
    out = cli("eval", *args, input="x**3\n")
    assert out.code == code
    assert words in out.stderr


def test_stack_keeps_the_graph_for_a_vector_function(cli):
    document = _grads(cli, "stack([x**2*y, 5*x + sin(y)])", "x=1", "y=2", "--grad-tensor", "[0, 1]")
    assert document["grads"]["x"] == 5.0 and document["grads"]["y"] == pytest.approx(math.cos(2.0), rel=1e-12)


def test_matrix_calculus(cli):
    document = _grads(cli, "det(A)", "--var", "A=[[1, 2], [3, 4]]")
    assert document["root"]["value"] == pytest.approx(-2.0, rel=1e-12)
    assert document["grads"]["A"] == [[4.0, -3.0], [-2.0, 1.0]]


def test_float32_precision_warning(cli):
    out = cli("eval", "(1 - cos(x)) / x**2", "x=0.001", "--format", "plain")
    assert out.code == 0
    assert ("autodiff: warning: the root is 0.476837 in float32 but 0.4999999583 in float64: float32 has lost the "
            "digits here; run with --dtype float64\n") in out.stderr
    document = json.loads(cli("eval", "(1 - cos(x)) / x**2", "x=0.001", "--format", "json").stdout)
    assert len(document["warnings"]) == 2
    quiet = cli("eval", "(2*x)**3", "x=1.5", "--format", "json")
    assert quiet.stderr == "" and "warnings" not in json.loads(quiet.stdout)
    assert cli("eval", "(1 - cos(x)) / x**2", "x=0.001", "--dtype", "float64").stderr == ""


def test_order_label_for_a_tensor_variable(cli):
    out = cli("eval", "(x**3).sum()", "--var", "x=[1, 2]", "--order", "2", "--format", "plain")
    assert ("derivative 2: d/dx of the sum of derivative 1 (elementwise for an elementwise program; the full "
            "matrix: autodiff hessian)") in out.stdout


def test_digits(cli):
    out = cli("eval", "sin(x)", "x=1", "--digits", "8", "--dtype", "float64", "--format", "plain")
    assert out.stdout.startswith("root = tensor(0.84147098, grad_fn=<SinBackward0>)\n")
    assert "x.grad  tensor(0.54030231)" in out.stdout
    after = cli("eval", "sin(x)", "x=1", "--format", "plain")  # the default comes back
    assert after.stdout.startswith("root = tensor(0.8415, grad_fn=<SinBackward0>)\n")


def test_digits_match_torch_set_printoptions(cli):
    torch = pytest.importorskip("torch")
    torch.set_printoptions(precision=6)
    torch.set_default_dtype(torch.float64)
    try:
        expected = repr(torch.tensor([1.0, 2.5, 1e-3]) * 1.0)
    finally:
        torch.set_printoptions(precision=4)
        torch.set_default_dtype(torch.float32)
    out = cli("eval", "x * 1.0", "--const", "x=[1.0, 2.5, 1e-3]", "--digits", "6", "--dtype", "float64",
              "--format", "plain")
    assert out.stdout.startswith(f"root = {expected}\n")


@pytest.mark.parametrize("program", ["-all(x)", "-(x > 0)", "sqrt(x > 0) * x", "(x > 0) / 2"])
def test_masks_in_arithmetic_are_numbers(cli, program):
    out = cli("eval", program, "x=1.5", "--format", "json")
    assert out.code == 0 and "internal error" not in out.stdout + out.stderr
