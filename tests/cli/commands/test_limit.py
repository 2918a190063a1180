"""`autodiff limit`: SymPy's exact limit, checked by the values approaching the point (float64), with the
cancellation warning, one-sided limits that differ, limits that do not exist, and limits at infinity."""

from __future__ import annotations

import math

import pytest


def _json(cli, *args: str) -> dict:
    out = cli("limit", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return out.json()


def test_the_issue_example_at_infinity(cli):
    document = _json(cli, "(1 - 1/x)**x", "x=inf")
    assert (document["limit"], document["exact"], document["exists"]) == (pytest.approx(math.exp(-1)), "exp(-1)", True)
    (side,) = document["sides"].values()
    assert side["numeric"] == pytest.approx(math.exp(-1), rel=1e-7) and side["digits"] == 7
    assert side["steps"][-1] == {"x": 1e20, "value": 1.0}  # what eval prints there: not the limit
    (warning,) = document["warnings"]
    assert warning.startswith("past x = 1e+12 the values drift away from 0.3678794514: rounding error takes over")


@pytest.mark.parametrize(("program", "point", "exact", "value"), [
    ("sin(x)/x", "x=0", "1", 1.0),
    ("(1 - cos(x))/x**2", "x=0", "1/2", 0.5),
    ("(exp(x) - 1)/x", "x=0", "1", 1.0),
    ("(x**2 - 1)/(x - 1)", "x=1", "2", 2.0),
    ("x*sin(1/x)", "x=0", "0", 0.0),
    ("(1 + 1/x)**x", "x=inf", "e", math.e),
    ("sqrt(x**2 + x) - x", "x=inf", "1/2", 0.5),
    ("(3*x**2 + 1)/(x**2 - 5)", "x=-inf", "3", 3.0),
    ("x*exp(-x)", "x=inf", "0", 0.0),
    ("tan(x)/x", "x=0", "1", 1.0),
    ("1/x**2", "x=0", "inf", "inf"),
])
def test_textbook_limits(cli, program, point, exact, value):
    document = _json(cli, program, point)
    assert document["exists"] is True and document["exact"] == exact
    assert document["limit"] == (value if isinstance(value, str) else pytest.approx(value, rel=1e-12, abs=1e-15))
    numbers = _json(cli, program, point, "--no-exact")  # the numbers alone agree
    assert numbers["exists"] is True
    if isinstance(value, str):
        assert numbers["limit"] == value
    else:
        assert numbers["limit"] == pytest.approx(value, rel=1e-6, abs=1e-9)


def test_one_sided_limits_differ(cli):
    document = _json(cli, "abs(x)/x", "x=0")
    assert (document["exists"], document["limit"]) == (False, None)
    assert document["reason"] == "the one-sided limits differ: -1 from the left, 1 from the right"
    assert _json(cli, "abs(x)/x", "x=0", "--side", "+")["limit"] == 1.0
    assert _json(cli, "abs(x)/x", "x=0", "--side", "left")["limit"] == -1.0
    document = _json(cli, "1/x", "x=0")
    assert document["reason"] == "the one-sided limits differ: -inf from the left, inf from the right"
    document = _json(cli, "exp(-1/x)", "x=0", "--no-exact")
    assert document["reason"] == "the one-sided limits differ: inf from the left, 0 from the right"


def test_limits_that_do_not_exist(cli):
    document = _json(cli, "sin(1/x)", "x=0")
    assert document["exists"] is False
    assert document["reason"] == "the left limit does not exist: f oscillates between -1 and 1"
    assert _json(cli, "sin(x)", "x=inf")["reason"] == "the limit does not exist: f oscillates between -1 and 1"
    assert _json(cli, "sin(1/x)", "x=0", "--no-exact")["reason"].endswith("does not settle (it oscillates)")
    document = _json(cli, "log(x)", "x=0")
    assert document["reason"] == ("the left limit does not exist: f is not defined on that side (nan); the right "
                                  "limit is -inf (side +)")


def test_text_output(cli):
    out = cli("limit", "sin(x)/x", "x=0", "--side", "+", "--values", "--format", "plain")
    lines = out.stdout.splitlines()
    assert lines[:5] == ["limit of sin(x)/x as x -> 0+", "  = 1",
                         "  from the right: SymPy: 1; the values settle at 1 (15 digits)", "        h  f(0 + h)",
                         "     1e-1  0.998334166468"]
    short = cli("limit", "sin(x)/x", "x=0", "--format", "plain").stdout.splitlines()  # as a solutions manual
    assert short == ["limit of sin(x)/x as x -> 0", "  = 1", "  from the left: SymPy: 1; the values settle at 1 (15 "
                     "digits)", "  from the right: SymPy: 1; the values settle at 1 (15 digits)",
                     "method: exact: SymPy's limit",
                     "method: numbers: the program evaluated by autograd's engine (float64) approaching the point"]
    assert lines[-1] == "method: numbers: the program evaluated by autograd's engine (float64) approaching the point"


def test_numbers_alone_say_what_they_know(cli):
    out = cli("limit", "(exp(x) - 1)/x", "x=0", "--no-exact", "--format", "plain")
    assert out.stdout.splitlines()[1] == "  = 1 (from the numbers alone: 7 digits)"
    document = _json(cli, "x**0.1", "x=0", "--side", "+", "--no-exact")
    assert document["exists"] is None and document["reason"].startswith("the numbers cannot tell")


def test_constants_and_errors(cli):
    assert _json(cli, "sin(a*x)/x", "x=0", "--const", "a=3")["exact"] == "3"
    assert cli("limit", "x", "x=nan").code == 2
    assert cli("limit", "x", "x=inf", "--side", "+").code == 2
    assert cli("limit", "x*y", "x=0", "y=1").code == 2


def test_values_closing_in_until_rounding_error_takes_over(cli):
    """(exp(x) - 1 - x)/x**2 at 0: 0.517, 0.5017, 0.50017, 0.500017, then noise: settled to 4 digits, with
    the cancellation warning, and the numbers alone agree from both sides."""
    document = _json(cli, "(exp(x) - 1 - x)/x**2", "x=0")
    assert document["exact"] == "1/2" and [s["status"] for s in document["sides"].values()] == ["settles"] * 2
    assert [s["digits"] for s in document["sides"].values()] == [4, 4]
    assert len(document["warnings"]) == 2
    assert document["warnings"][1] == (
        "past x = 1e-07 (from the right) the values drift away from 0.5000006965: rounding error takes over "
        "(cancellation: the program subtracts nearly equal numbers, as 1 - cos(x) does near 0), so the values "
        "there, and `autodiff eval` at such points, are not the limit")
    alone = _json(cli, "(exp(x) - 1 - x)/x**2", "x=0", "--no-exact")
    assert alone["exists"] is True and alone["limit"] == pytest.approx(0.5, rel=1e-4)


def test_values_that_turn_nan_are_named(cli):
    document = _json(cli, "exp(-x)*x**100", "x=inf")
    assert document["exact"] == "0" and document["limit"] == 0
    assert document["warnings"] == [
        "from x = 10000 on the values are nan: a part of the program overflows to inf or underflows to 0 there "
        "(inf*0, inf - inf, inf/inf in floating point), so the numbers cannot follow the limit past it"]
