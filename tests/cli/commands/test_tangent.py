"""`autodiff tangent`: tangent lines and planes, Taylor polynomials, exact (SymPy) and decimal (autograd)."""

from __future__ import annotations

import math

import pytest


def _json(cli, *args: str) -> dict:
    out = cli("tangent", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return out.json()


def test_tangent_line_text(cli):
    out = cli("tangent", "3 - x**2", "x=2", "--format", "plain")
    assert out.code == 0
    assert out.stdout == ("tangent line of 3 - x**2 at x = 2\n"
                          "  f(2) = -1\n"
                          "  f'(2) = -4\n"
                          "  y = 7 - 4*x\n"
                          "  exact: y = 7 - 4*x\n"
                          "           = -1 - 4*(x - 2)\n"
                          "derivatives by autograd (float64); exact form by SymPy\n")


def _values(document):
    """The coefficients of 1, x, x**2, ... (one variable): one {"powers", "value"} each, as in several."""
    assert [c["powers"] for c in document["coefficients"]] == [{"x": k} if k else {} for k in
                                                               range(len(document["coefficients"]))]
    return [c["value"] for c in document["coefficients"]]


@pytest.mark.parametrize(("program", "point", "exact", "coefficients"), [
    ("3 - x**2", "x=2", "7 - 4*x", [7.0, -4.0]),
    ("x**3 - 2*x + 1", "x=2", "-15 + 10*x", [-15.0, 10.0]),
    ("sqrt(x)", "x=4", "1 + x/4", [1.0, 0.25]),
    ("1/x", "x=2", "1 - x/4", [1.0, -0.25]),
    ("x**2*exp(-x)", "x=1", "x*exp(-1)", [0.0, math.exp(-1)]),
    ("log(x)", "x=1", "-1 + x", [-1.0, 1.0]),
])
def test_tangent_lines_against_the_textbook(cli, program, point, exact, coefficients):
    document = _json(cli, program, point)
    assert document["exact"] == exact
    assert _values(document) == pytest.approx(coefficients, rel=1e-12, abs=1e-15)


def test_sin_at_pi_over_4_is_exact_and_decimal(cli):
    document = _json(cli, "sin(x)", "x=pi/4")
    assert document["exact"] == "sqrt(2)*(4 - pi)/8 + x*sqrt(2)/2"
    assert document["centered"] == "sqrt(2)/2 + sqrt(2)*(x - pi/4)/2"
    assert [c["exact"] for c in document["coefficients"]] == ["sqrt(2)*(4 - pi)/8", "sqrt(2)/2"]
    r = math.sqrt(0.5)
    assert _values(document) == pytest.approx([r - r * math.pi / 4, r], rel=1e-12)
    assert document["formula"] == "0.151746413917 + 0.707106781187*x"


def test_taylor_polynomial_of_exp(cli):
    document = _json(cli, "exp(x)", "x=0", "--order", "3")
    assert document["exact"] == "1 + x + x**2/2 + x**3/6"
    assert document["formula"] == "1 + x + 0.5*x**2 + 0.166666666667*x**3"
    assert _values(document) == pytest.approx([1, 1, 0.5, 1 / 6], rel=1e-12)
    assert [c["powers"] for c in document["coefficients"]] == [{}, {"x": 1}, {"x": 2}, {"x": 3}]


def test_the_formula_pastes_back_into_eval(cli):
    document = _json(cli, "sqrt(x)", "x=4")
    out = cli("eval", document["formula"], "x=4.1", "--format", "json", "--dtype", "float64")
    assert out.json()["root"]["value"] == pytest.approx(2.025, rel=1e-12)


def test_tangent_plane_and_quadratic_in_two_variables(cli):
    document = _json(cli, "x**2 + y**2", "x=1", "y=2")
    assert document["formula"] == "-5 + 2*x + 4*y"
    assert document["exact"] == "-5 + 2*x + 4*y"
    document = _json(cli, "x**2*y", "x=1", "y=2", "--order", "2")
    assert document["formula"] == "2 - 4*x - y + 2*x**2 + 2*x*y"
    values = {tuple(sorted(d["powers"].items())): d["value"] for d in document["derivatives"]}
    assert values[(("x", 1), ("y", 1))] == 2.0 and values[(("x", 2),)] == 4.0


def test_constants_and_wrt(cli):
    document = _json(cli, "a*x**2", "x=1", "--const", "a=3")
    assert document["exact"] == "-3 + 6*x"
    document = _json(cli, "x*y", "x=2", "y=3", "--wrt", "x")
    assert document["variables"] == ["x"] and document["formula"] == "3*x"


def test_no_tangent_at_a_corner_or_a_vertical_tangent(cli):
    out = cli("tangent", "abs(x)", "x=0")
    assert out.code == 1
    assert "not differentiable at x = 0: f' is -1 on the left and 1 on the right" in out.stderr
    out = cli("tangent", "cbrt(x)", "x=0")
    assert out.code == 1 and "not defined (or not finite) at x = 0" in out.stderr
    out = cli("tangent", "x*abs(x)", "x=0", "--order", "2")
    assert out.code == 1 and "f' is not differentiable" in out.stderr


def test_a_random_point_has_decimals_only(cli):
    document = _json(cli, "x**3", "x=randn()", "--seed", "1")
    assert document["exact"] is None
    assert document["notes"] == ["no exact form: the point is not an exact number"]


def test_usage_errors(cli):
    assert cli("tangent", "x**2").code == 2
    assert cli("tangent", "x**2", "x=0:1").code == 0  # an interval asks for the Mean Value Theorem (issue 43)
    assert cli("tangent", "x**2", "x=0:1", "--order", "2").code == 2
    assert cli("tangent", "x**2", "x=1", "--order", "11").code == 2
    out = cli("tangent", "x**2", "x=1", "--format", "json", "--order", "0")
    assert out.code == 2 and out.json()["error"]["kind"] == "usage"


def test_a_variable_named_like_a_built_in_has_its_exact_form(cli):
    """t is the transpose built-in; in a calculus command a value named t is the variable, exact forms too."""
    document = cli("tangent", "t**2", "t=1", "--format", "json").json()
    assert document["exact"] == "-1 + 2*t" and document["notes"] == []
    out = cli("critical", "t**2 - 2*t", "t=-5:5")
    assert "  t = 1  f = -1  minimum  (f'(t) = 0; f''(1) = 2 > 0)\n" in out.stdout
    assert "method: exact: f'(t) = 0 solved by SymPy\n" in out.stdout
