"""`autodiff gradient`: gradient, norm, steepest ascent, directional derivative; formulas with --symbolic."""

from __future__ import annotations

import math

import pytest


def _json(cli, *args: str) -> dict:
    out = cli("gradient", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return out.json()


def test_gradient_text(cli):
    out = cli("gradient", "x*exp(y)", "x=2", "y=0", "--direction", "3,4", "--symbolic", "--format", "plain")
    assert out.code == 0
    assert out.stdout == (
        "gradient of x*exp(y) at x = 2, y = 0\n"
        "  f = 2\n"
        "  df/dx = exp(y) = 1\n"
        "  df/dy = x*exp(y) = 2\n"
        "  gradient = (1, 2), norm sqrt(5) (2.236067977)\n"
        "  steepest ascent along (0.4472135955, 0.894427191) (the gradient / its norm), at rate sqrt(5) "
        "(2.236067977)\n"
        "  directional derivative along (0.6, 0.8): 11/5 (2.2)\n"
        "by autograd (float64); formulas by SymPy\n")


@pytest.mark.parametrize(("program", "point", "grad"), [
    ("x**2*y + y**3", ("x=1", "y=2"), {"x": 4.0, "y": 13.0}),
    ("x**2 + y**2 + z**2", ("x=1", "y=-2", "z=3"), {"x": 2.0, "y": -4.0, "z": 6.0}),
    ("sin(x)*y", ("x=pi/6", "y=2"), {"x": math.sqrt(3), "y": 0.5}),
    ("log(x*y)", ("x=2", "y=5"), {"x": 0.5, "y": 0.2}),
    ("exp(-(x**2 + y**2))", ("x=0", "y=0"), {"x": 0.0, "y": 0.0}),
])
def test_gradients_against_the_analytic_answers(cli, program, point, grad):
    document = _json(cli, program, *point)
    assert document["gradient"] == pytest.approx(grad, rel=1e-12, abs=1e-15)
    assert document["norm"] == pytest.approx(math.sqrt(sum(g * g for g in grad.values())), rel=1e-12)


def test_directional_derivative_and_ascent(cli):
    document = _json(cli, "x*exp(y)", "x=2", "y=0", "--direction", "[3, 4]")
    assert document["direction"] == {"x": 0.6, "y": 0.8}
    assert document["directional"] == pytest.approx(2.2, rel=1e-14)
    assert document["ascent"] == pytest.approx({"x": 1 / math.sqrt(5), "y": 2 / math.sqrt(5)}, rel=1e-14)


def test_zero_gradient_has_no_ascent(cli):
    document = _json(cli, "x**2 + y**2", "x=0", "y=0")
    assert document["ascent"] is None and document["norm"] == 0.0
    assert "none (the gradient is 0" in cli("gradient", "x**2 + y**2", "x=0", "y=0").stdout


def test_symbolic_formulas_and_exact_values(cli):
    document = _json(cli, "sin(x)*y", "x=pi/6", "y=2", "--symbolic")
    assert document["formulas"] == {"x": "y*cos(x)", "y": "sin(x)"}
    assert document["exact_gradient"] == {"x": "sqrt(3)", "y": "1/2"} and "exact" not in document


def test_a_corner_is_noted(cli):
    document = _json(cli, "abs(x) + y", "x=0", "y=0")
    assert document["notes"] == ["f is not differentiable in x here: d/dx is -1 on the left and 1 on the right "
                                 "(autograd's 0 is a convention, as PyTorch's)"]


def test_errors(cli):
    assert cli("gradient", "x*y", "x=1", "y=1", "--direction", "0,0").code == 2
    assert cli("gradient", "x*y", "x=1", "y=1", "--direction", "1,2,3").code == 2
    out = cli("gradient", "sqrt(x**2 + y**2)", "x=0", "y=0")
    assert out.code == 1 and "not defined (or not finite) at x = 0, y = 0" in out.stderr
    assert cli("gradient", "x*y", "x=1").code == 2  # y is not bound: a name error
