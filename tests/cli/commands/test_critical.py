"""`autodiff critical`: critical points (exact from SymPy, decimals from autograd), their classification,
inflection points, absolute extrema, and several variables (the Hessian test); the hard cases of a
textbook's exercises: no critical point, infinitely many, a double root, f' not defined (|x|, x^(2/3))."""

from __future__ import annotations

import math

import pytest


def _json(cli, *args: str) -> dict:
    out = cli("critical", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return out.json()


def _points(document: dict) -> list[tuple]:
    return [(p["x"], p["kind"]) for p in document["points"]]


def test_the_worked_exercise(cli):
    out = cli("critical", "x**2 * exp(-x)", "--format", "plain")
    assert out.code == 0
    assert out.stdout == (
        "critical points of x**2 * exp(-x), x in [-10, 10] (no interval given: x=A:B sets it)\n"
        "  x = 0  f = 0  minimum  (f'(x) = 0; f''(0) = 2 > 0)\n"
        "  x = 2  f = 4*exp(-2) (0.5413411329)  maximum  (f'(x) = 0; f''(2) = -0.270671 < 0)\n"
        "  increasing on (0, 2); decreasing on (-10, 0) and (2, 10)\n"
        "method: exact: f'(x) = 0 solved by SymPy over all the reals\n"
        "method: numbers: autograd (float64) on a grid of 2,001 points over [-10, 10], every sign change of f' then "
        "refined by Newton's method\n")


def test_a_constant_given_an_interval_is_the_variable(cli):
    """e=0:1 makes e the variable in the exact form as in the numbers (one answer, not two contradictory ones)."""
    document = _json(cli, "e**2 - e", "e=0:1")
    assert [(p["e"], p["kind"]) for p in document["points"]] == [(0.5, "minimum")]
    out = cli("critical", "e**2 - e", "e=0:1", "--format", "plain")
    assert "e = 1/2 (0.5)  f = -1/4 (-0.25)  minimum" in out.stdout
    assert "f' = 0 on all" not in out.stdout


@pytest.mark.parametrize(("program", "interval", "expected"), [
    ("x**3 - 3*x", (), [(-1, "maximum"), (1, "minimum")]),
    ("x**3 - 3*x**2 + 1", ("x=-1/2:4",), [(0, "maximum"), (2, "minimum")]),
    ("2*x**3 + 3*x**2 - 12*x + 1", (), [(-2, "maximum"), (1, "minimum")]),
    ("x**4 - 2*x**2", (), [(-1, "minimum"), (0, "maximum"), (1, "minimum")]),
    ("x + 4/x", ("x=0.5:5",), [(2, "minimum")]),
    ("x/(x**2 + 1)", (), [(-1, "minimum"), (1, "maximum")]),
    ("x*log(x)", ("x=0.01:3",), [(math.exp(-1), "minimum")]),
    ("x*exp(-x**2/2)", (), [(-1, "minimum"), (1, "maximum")]),
    ("sin(x)", ("x=0:10",), [(math.pi / 2, "maximum"), (3 * math.pi / 2, "minimum"), (5 * math.pi / 2, "maximum")]),
    ("cos(x) + x/2", ("x=0:2*pi",), [(math.pi / 6, "maximum"), (5 * math.pi / 6, "minimum")]),
    ("x**4", (), [(0, "minimum")]),
    ("x**3", (), [(0, "neither")]),
    ("(x - 1)**3 + 2", ("x=-3.3:4.1",), [(1, "neither")]),
])
def test_textbook_functions_against_the_analytic_answers(cli, program, interval, expected):
    for extra in ((), ("--no-exact",)):  # SymPy's answer, and the numeric search alone
        found = _points(_json(cli, program, *interval, *extra))
        assert [k for _, k in found] == [k for _, k in expected], (extra, found)
        for (x, _), (want, _) in zip(found, expected):
            assert x == pytest.approx(want, rel=1e-7, abs=1e-7), (extra, found)


def test_exact_forms_agree_with_sympy(cli):
    import sympy

    x = sympy.Symbol("x", real=True)
    for program, f in [("(x**2 + 7)/(x - 1)", (x**2 + 7) / (x - 1)),
                       ("x**3 - 6*x**2 + 9*x + 1", x**3 - 6 * x**2 + 9 * x + 1),
                       ("x*exp(-x)", x * sympy.exp(-x)), ("x**2*log(x)", x**2 * sympy.log(x))]:
        document = _json(cli, program, "x=0.1:10" if "log" in program else "x=-10:10")
        theirs = sorted(sympy.solveset(sympy.diff(f, x), x, sympy.Interval(0.1 if "log" in program else -10, 10)),
                        key=float)
        assert [p["x"] for p in document["points"]] == pytest.approx([float(t) for t in theirs], rel=1e-12)
        assert all(p["exact"] is not None for p in document["points"])
    document = _json(cli, "(x**2 + 7)/(x - 1)")
    assert [(p["exact"], p["exact_value"], p["kind"]) for p in document["points"]] == [
        ("1 - 2*sqrt(2)", "2 - 4*sqrt(2)", "maximum"), ("1 + 2*sqrt(2)", "2 + 4*sqrt(2)", "minimum")]
    assert document["notes"] == ["f is not defined at x = 1: not a critical point (though f' changes sign or is not "
                                 "defined there)"]


def test_no_critical_point(cli):
    for program in ("exp(x)", "x**3 + x", "2*x + 1"):
        document = _json(cli, program)
        assert document["points"] == [] and document["flat"] == []
    assert "  none: no critical point found\n" in cli("critical", "exp(x)").stdout


def test_infinitely_many(cli):
    document = _json(cli, "sin(x)")
    assert document["general"] == "f'(x) = 0 at x = pi/2 + 2*pi*n, 3*pi/2 + 2*pi*n (n any integer)"
    assert [p["x"] for p in document["points"]] == pytest.approx([(k + 0.5) * math.pi for k in range(-3, 3)])
    document = _json(cli, "cos(x)", "x=0:100")
    assert len(document["points"]) == 31  # every one of them in the interval: k*pi, k = 1..31
    assert [p["x"] for p in document["points"]] == pytest.approx([k * math.pi for k in range(1, 32)], rel=1e-12)
    document = _json(cli, "5 + 0*x", "x=-1:1")
    assert document["flat"] == [[-1.0, 1.0]]
    assert _json(cli, "relu(x)", "x=-1:1")["flat"] == [[-1.0, 0.0]]


def test_where_f_prime_is_not_defined(cli):
    for program in ("abs(x)", "abs(x)**(2/3)", "cbrt(x)**2", "abs(x - 1) + 1"):
        for extra in ((), ("--no-exact",)):
            document = _json(cli, program, "x=-2.3:3.1", *extra)
            (point,) = document["points"]
            assert (point["kind"], point["type"]) == ("minimum", "f' not defined"), (program, extra)
            assert point["x"] == pytest.approx(1.0 if "- 1" in program else 0.0, abs=1e-12)
    (point,) = _json(cli, "abs(x)")["points"]
    assert point["test"] == "f' is -1 on the left and 1 on the right (first-derivative test: - to +)"
    (point,) = _json(cli, "x**(2/3)", "x=-1:1")["points"]  # the real root for x < 0, as a book means it
    assert point["kind"] == "minimum" and "first-derivative test: - to +" in point["test"]
    (point,) = _json(cli, "x**0.5", "x=-1:1")["points"]  # an even root: nan for x < 0, an end of the domain
    assert point["kind"] == "minimum" and "an end of f's domain" in point["test"]


def test_absolute_extrema_on_a_closed_interval(cli):
    document = _json(cli, "x**3 - 3*x**2 + 1", "x=-1/2:4")
    assert document["absolute"] == {
        "maximum": [{"x": 4.0, "exact": "4", "exact_point": {"x": "4"}, "value": 17.0, "exact_value": "17"}],
        "minimum": [{"x": 2.0, "exact": "2", "exact_point": {"x": "2"}, "value": -3.0, "exact_value": "-3"}]}
    document = _json(cli, "x**3 - 3*x", "x=-2:3")  # a tie: -2 at x = -2 and at x = 1
    assert [e["x"] for e in document["absolute"]["minimum"]] == [-2.0, 1.0]
    document = _json(cli, "1/x", "x=-1:1")
    assert document["absolute"] == {}
    assert "no absolute extrema claimed" in document["notes"][-1]


def test_inflection_points(cli):
    document = _json(cli, "sin(x)", "x=0:2*pi", "--order", "2")
    assert [(p["x"], p["exact"], p["kind"]) for p in document["points"]] == [(pytest.approx(math.pi), "pi",
                                                                               "inflection")]
    document = _json(cli, "x**4", "--order", "2")
    assert document["points"] == []
    assert "f'' = 0 at x = 0 but does not change sign there: not an inflection point" in document["notes"]
    document = _json(cli, "x**3 - 3*x**2", "--order", "2")
    assert [(p["x"], p["test"]) for p in document["points"]] == [
        (1.0, "f'' changes from - to + (concave down, then up)")]
    (point,) = _json(cli, "cbrt(x)", "--order", "2")["points"]
    assert point["type"] == "f'' not defined" and point["x"] == 0.0


@pytest.mark.parametrize(("program", "expected"), [
    ("x**3 - 3*x + y**2", [((-1, 0), "saddle"), ((1, 0), "minimum")]),
    ("x**2 - y**2", [((0, 0), "saddle")]),
    ("x**2 + x*y + y**2 - 3*x", [((2, -1), "minimum")]),
    ("x**3 + y**3 - 3*x*y", [((0, 0), "saddle"), ((1, 1), "minimum")]),
    ("4*x*y - x**4 - y**4", [((-1, -1), "maximum"), ((0, 0), "saddle"), ((1, 1), "maximum")]),
    ("x**4 + y**4", [((0, 0), "inconclusive")]),
    ("exp(x) + y**2", []),
])
def test_two_variables(cli, program, expected):
    for extra in ((), ("--no-exact",)):
        document = _json(cli, program, *extra)
        found = [((p["x"], p["y"]), p["kind"]) for p in document["points"]]
        assert [k for _, k in found] == [k for _, k in expected], (extra, found)
        for (at, _), (want, _) in zip(found, expected):
            assert at == pytest.approx(want, abs=1e-7)


def test_two_variables_text_and_d(cli):
    out = cli("critical", "x**3 - 3*x + y**2", "--format", "plain")
    assert out.stdout.splitlines()[1:3] == ["  (x = -1, y = 0)  f = 2  saddle  (D = -12 < 0)",
                                            "  (x = 1, y = 0)  f = -2  minimum  (D = 12 > 0, f_xx = 6 > 0)"]
    document = _json(cli, "x**3 - 3*x + y**2")
    assert document["points"][1]["D"] == 12.0 and document["points"][1]["eigenvalues"] == [2.0, 6.0]


def test_a_curve_of_critical_points_and_three_variables(cli):
    document = _json(cli, "(x - y)**2")
    assert document["general"] == "x = y (a whole curve or surface of critical points)"
    assert document["points"] == []
    (point,) = _json(cli, "x**2 + y**2 + z**2 - x*y + z")["points"]
    assert (point["x"], point["y"], point["z"], point["kind"]) == (0.0, 0.0, -0.5, "minimum")


def test_a_box_keeps_interior_points(cli):
    document = _json(cli, "sin(x)*sin(y)", "x=0:4", "y=0:4")
    assert [((p["x"], p["y"]), p["kind"]) for p in document["points"]] == [
        ((pytest.approx(math.pi / 2), pytest.approx(math.pi / 2)), "maximum"),
        ((pytest.approx(math.pi), pytest.approx(math.pi)), "saddle")]


def test_constants_and_errors(cli):
    document = _json(cli, "a*x**2 - 2*x", "a=2")
    assert [(p["exact"], p["kind"]) for p in document["points"]] == [("1/2", "minimum")]
    assert cli("critical", "x*y", "--order", "2").code == 2
    assert cli("critical", "x**2", "--points", "2").code == 2
    assert cli("critical", "x**2", "x=1:0").code == 2
    assert cli("critical", "2 + 3").code == 2


def test_one_json_shape_in_one_variable_and_in_several(cli):
    """"exact" is a string (or null) everywhere; "exact_point" has it per variable; the same keys for every
    point; the coordinates under the variables' own names."""
    (one,) = _json(cli, "x**2*exp(-x)", "x=1:5")["points"]
    assert one == {"x": 2.0, "exact": "2", "exact_point": {"x": "2"}, "value": pytest.approx(4 * math.exp(-2)),
                   "exact_value": "4*exp(-2)", "kind": "maximum", "type": "f'(x) = 0", "test": one["test"]}
    saddle, minimum = _json(cli, "x**3 - 3*x + y**2")["points"]
    assert {k: saddle[k] for k in ("x", "y", "exact", "exact_point", "kind", "type")} == {
        "x": -1.0, "y": 0.0, "exact": "(-1, 0)", "exact_point": {"x": "-1", "y": "0"}, "kind": "saddle",
        "type": "grad f = 0"}
    assert set(one) <= set(minimum) and minimum["exact"] == "(1, 0)"
    (t,) = _json(cli, "t**2 - 2*t")["points"]
    assert t["t"] == 1.0 and t["exact_point"] == {"t": "1"}
    (numeric,) = _json(cli, "x**2 - 2*x", "--no-exact")["points"]
    assert numeric["exact"] is None and numeric["exact_point"] == {"x": None}
