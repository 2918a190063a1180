"""`autodiff check` and `autodiff gradcheck`: exact plain output, JSON documents, exit codes, error kinds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from autodiff import engine
from autodiff.cli.main import main
from autodiff.engine.core.vocabulary import NumpyMath


@pytest.fixture(autouse=True)
def _engine_state():
    """The commands configure the engine process-wide (dtype, limits); put it back after each test."""
    dtype, limit = engine.get_default_dtype(), engine.STATE.max_elements
    yield
    engine.set_default_dtype(dtype)
    engine.set_max_elements(limit)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return done.value.code, out, err


# ---------------------------------------------------------------------------- check: plain output
def test_check_all_right(capsys):
    code, out, err = run(capsys, "check", "x**3 * y", "x=2", "y=0.5", "--expect", "x=3*x**2*y", "--expect", "y=x**3",
                         "--format", "plain", "--samples", "1", "--dtype", "float32")
    assert (code, err) == (0, "")
    assert out == (
        "checking 2 derivatives at the bound values\n"
        "float32; passes when |yours - the derivative| <= 1e-05 + 0.0001 * |the derivative|\n"
        "\n"
        "d/dx  ok  yours: 3*x**2*y\n"
        "  d/dx matches the derivative; the largest difference is 0, for d/dx at x = 2, y = 0.5\n"
        "  max abs error 0  max rel error 0\n"
        "\n"
        "d/dy  ok  yours: x**3\n"
        "  d/dy matches the derivative; the largest difference is 0, for d/dy at x = 2, y = 0.5\n"
        "  max abs error 0  max rel error 0\n"
        "\n"
        "all 2 of your derivatives are right\n"
    )


def test_check_wrong_derivative_is_rejected(capsys):
    code, out, _ = run(capsys, "check", "x**3 * y", "x=2", "y=0.5", "--expect", "x=3*x**2*y", "--expect", "y=x**2",
                       "--format", "plain", "--samples", "1", "--dtype", "float32")
    assert code == 1
    assert out == (
        "checking 2 derivatives at the bound values\n"
        "float32; passes when |yours - the derivative| <= 1e-05 + 0.0001 * |the derivative|\n"
        "\n"
        "d/dx  ok  yours: 3*x**2*y\n"
        "  d/dx matches the derivative; the largest difference is 0, for d/dx at x = 2, y = 0.5\n"
        "  max abs error 0  max rel error 0\n"
        "\n"
        "d/dy  WRONG  yours: x**2\n"
        "  d/dy is wrong at x = 2, y = 0.5: you gave 4, the derivative is 8 (off by 4)\n"
        "  max abs error 4  max rel error 0.5\n"
        "\n"
        "wrong: d/dy (1 of 2)\n"
    )


def test_check_tensor_names_the_wrong_element(capsys):
    code, out, _ = run(capsys, "check", "(x**2).sum()", "x=[1, 2, 3]", "--expect", "x=2*x + [0, 1, 0]",
                       "--format", "plain", "--samples", "1", "--dtype", "float32")
    assert code == 1
    assert out == (
        "checking 1 derivative at the bound values\n"
        "float32; passes when |yours - the derivative| <= 1e-05 + 0.0001 * |the derivative|\n"
        "\n"
        "d/dx  WRONG  yours: 2*x + [0, 1, 0]\n"
        "  d/dx[1] is wrong at x = [1, 2, 3]: you gave 5, the derivative is 4 (off by 1)\n"
        "  you gave  tensor([2., 5., 6.])\n"
        "  correct   tensor([2., 4., 6.])\n"
        "  max abs error 1  max rel error 0.25\n"
        "\n"
        "wrong: d/dx (1 of 1)\n"
    )


def test_check_the_issue_example(capsys):
    code, out, _ = run(capsys, "check", "x**3 * sin(x)", "x=1.2", "--expect", "x=3*x**2*sin(x) + x**3*cos(x)",
                       "--format", "plain")
    assert code == 0
    assert out.endswith("your derivative is right\n")
    code, out, _ = run(capsys, "check", "x**3 * sin(x)", "x=1.2", "--expect", "x=3*x**2*sin(x) + x**2*cos(x)",
                       "--format", "plain", "--samples", "1", "--dtype", "float32")
    assert code == 1
    assert "  d/dx is wrong at x = 1.2: you gave 4.5482, the derivative is 4.65256 (off by 0.104" in out


def test_check_float64_uses_allclose_defaults(capsys):
    code, out, _ = run(capsys, "check", "x**2", "x=3", "--expect", "x=2*x", "--dtype", "float64", "--format", "plain")
    assert code == 0
    assert out.splitlines()[1] == "float64; passes when |yours - the derivative| <= 1e-08 + 1e-05 * |the derivative|"


def test_check_tolerances_are_options(capsys):
    # 2.0005x against 2x: off by 2.5e-4 of the value at every point, outside the defaults, inside --rtol 1e-3
    # (an absolute offset would not do: the fifth sample is random and may land near 0)
    assert run(capsys, "check", "x**2", "x=3", "--expect", "x=2.0005*x", "--format", "json")[0] == 1
    assert run(capsys, "check", "x**2", "x=3", "--expect", "x=2.0005*x", "--rtol", "1e-3", "--format",
               "json")[0] == 0
    assert run(capsys, "check", "x**2", "x=3", "--expect", "x=2*x + 0.001", "--atol", "0.01", "--format",
               "json")[0] == 0


# ---------------------------------------------------------------------------- check: samples
def test_only_at_the_point_is_caught_by_samples(capsys):
    # x**2 has derivative 2x; 2x + (x - 1) agrees at x = 1 only: the default points around x = 1 catch it
    assert run(capsys, "check", "x**2", "x=1", "--expect", "x=2*x + (x-1)", "--samples", "1", "--format",
               "json")[0] == 0
    assert run(capsys, "check", "x**2", "x=1", "--expect", "x=2*x + (x-1)", "--format", "json")[0] == 1
    code, out, _ = run(capsys, "check", "x**2", "x=randn()", "--expect", "x=2*x + (x-1)", "--samples", "20",
                       "--seed", "0", "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["ok"] is False
    assert (document["samples"], document["seed"]) == (20, 0)
    (check,) = document["checks"]
    worst = check["worst"]
    x = worst["point"]["x"]
    assert worst["expected"] == pytest.approx(3 * x - 1, rel=1e-6)
    assert worst["autograd"] == pytest.approx(2 * x, rel=1e-6)
    assert check["max_abs_error"] == pytest.approx(abs(x - 1), rel=1e-6)
    assert check["message"].startswith(f"d/dx is wrong at x = {x:.6g}: you gave ")
    # the same seed draws the same points
    assert run(capsys, "check", "x**2", "x=randn()", "--expect", "x=2*x + (x-1)", "--samples", "20", "--seed", "0",
               "--format", "json")[1] == out


def test_samples_draw_each_value_afresh(capsys):
    code, out, _ = run(capsys, "check", "(x * y).sum()", "x=rand(3)*4-2", "y=randn()", "--expect", "x=y + 0*x",
                       "--expect", "y=x.sum()", "--samples", "5", "--seed", "3", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert document["ok"] is True and document["notes"] == []
    point = document["checks"][0]["worst"]["point"]
    assert len(point["x"]) == 3 and all(-2 <= v < 2 for v in point["x"])


def test_samples_of_a_fixed_value_are_drawn_around_it(capsys):
    code, out, _ = run(capsys, "check", "x**2", "x=1", "--expect", "x=2*x", "--samples", "3", "--format", "plain")
    assert code == 0
    assert ("note: x: a fixed value, so the first point is that value and the others are around it (x times -1, "
            "1/4 and -3, then random points near x); to choose the points, bind a random value, e.g. "
            "x='rand()*4-2' for points in [-2, 2)") in out.splitlines()
    # a derivative that agrees only at x = 1 is caught even though the student bound x=1
    code, out, _ = run(capsys, "check", "x**2", "x=1", "--expect", "x=2*x + (x-1)", "--samples", "5", "--seed",
                       "0", "--format", "json")
    assert code == 1
    assert json.loads(out)["checks"][0]["worst"]["point"]["x"] != 1


def test_samples_without_seed_report_the_seed_they_used(capsys):
    code, out, _ = run(capsys, "check", "x**2", "x=randn()", "--expect", "x=2*x", "--samples", "3", "--format",
                       "json")
    assert code == 0
    seed = json.loads(out)["seed"]
    assert isinstance(seed, int)
    again = run(capsys, "check", "x**2", "x=randn()", "--expect", "x=2*x", "--samples", "3", "--seed", str(seed),
                "--format", "json")[1]
    assert json.loads(again)["checks"] == json.loads(out)["checks"]


# ---------------------------------------------------------------------------- check: JSON and errors
def test_check_json_document(capsys):
    code, out, _ = run(capsys, "check", "x**3 * y", "x=2", "y=0.5", "--expect", "x=3*x**2*y", "--expect", "y=x**2",
                       "--format", "json", "--samples", "1", "--dtype", "float32")
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "checks": [
            {"name": "x", "ok": True, "expect": "3*x**2*y", "max_abs_error": 0.0, "max_rel_error": 0.0,
             "worst": {"point": {"x": 2.0, "y": 0.5}, "expected": 6.0, "autograd": 6.0, "index": [], "sample": 1,
                       "abs_error": 0.0, "rel_error": 0.0},
             "message": "d/dx matches the derivative; the largest difference is 0, for d/dx at x = 2, y = 0.5"},
            {"name": "y", "ok": False, "expect": "x**2", "max_abs_error": 4.0, "max_rel_error": 0.5,
             "worst": {"point": {"x": 2.0, "y": 0.5}, "expected": 4.0, "autograd": 8.0, "index": [], "sample": 1,
                       "abs_error": 4.0, "rel_error": 0.5},
             "message": "d/dy is wrong at x = 2, y = 0.5: you gave 4, the derivative is 8 (off by 4)"},
        ],
        "samples": 1, "seed": None, "dtype": "float32", "rtol": 0.0001, "atol": 1e-05, "notes": [], "order": 1,
        "points": [{"x": 2.0, "y": 0.5}],
    }


@pytest.mark.parametrize(("args", "code", "kind", "words"), [
    (("x**2", "x=1", "--expect", "y=2*x"), 2, "name", "'y' is not a bound variable (bound variables: x)"),
    (("x**2", "x=1", "--expect", "x=2*"), 2, "syntax", "--expect x=2*: unexpected end of program"),
    (("x**2", "x=1", "--expect", "x=2*q"), 2, "name", "--expect x=2*q: unknown name 'q'"),
    (("x*w", "x=1", "--const", "w=2", "--expect", "w=x"), 2, "usage", "w is bound with --const"),
    (("x**2", "x=1"), 2, "usage", "give at least one --expect NAME=EXPR"),
    (("x**2", "x=1", "--expect", "x2*x"), 2, "name", "--expect x2*x: unknown name 'x2'; did you mean 'x'?"),
    (("x**2", "x=1", "--expect", " "), 2, "usage", "expected NAME=VALUE"),
    (("x**2", "x=1", "--expect", "x=2*x", "--expect", "x=2*x"), 2, "usage", "given twice"),
    (("x**2", "x=1", "--expect", "x=2*x", "--samples", "0"), 2, "usage", "--samples must be at least 1"),
    (("x**2", "x=1", "--expect", "x=2*x", "--rtol", "-1"), 2, "usage", "--rtol must be a finite number >= 0"),
    (("(x**2).sum()", "x=[1, 2]", "--expect", "x=[2, 4, 6]"), 1, "shape",
     "your derivative has shape (3,), but x (and so the gradient with respect to it) has shape (2,)"),
    (("x**2", "x=1", "--expect", "x=None"), 1, "value", "the derivative gives nothing"),
])
def test_check_errors(capsys, args, code, kind, words):
    got, out, err = run(capsys, "check", *args, "--format", "json")
    assert got == code
    error = json.loads(out)["error"]
    assert error["kind"] == kind
    assert words in error["message"]
    assert err.startswith(f"autodiff: {kind} error")


def test_check_scalar_derivative_stands_for_every_element(capsys):
    code, out, _ = run(capsys, "check", "(3 * x).sum()", "x=[1, 2]", "--expect", "x=3", "--format", "json")
    assert code == 0
    assert json.loads(out)["checks"][0]["worst"]["expected"] == [3.0, 3.0]


def test_check_nonscalar_root_differentiates_the_sum(capsys):
    code, out, _ = run(capsys, "check", "x**2", "x=[1, 2]", "--expect", "x=2*x", "--samples", "1", "--format",
                       "json")
    assert code == 0
    assert json.loads(out)["notes"] == [
        "the program's result has shape (2,): its derivative is taken of the sum of its elements (for an "
        "elementwise program, the elementwise derivative)"]


# ---------------------------------------------------------------------------- gradcheck
def test_gradcheck_plain(capsys):
    code, out, err = run(capsys, "gradcheck", "x**2 * y", "x=2", "y=[0.5, 1]", "--format", "plain")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("gradcheck in float64: central differences with eps 1e-06, comparing the full Jacobian "
                        "(2 outputs)")
    assert lines[1] == ("passes when |autograd - numerical| <= 1e-05 + 0.001 * |numerical|; 7 evaluations of the "
                        "program")
    assert lines[3].startswith("  x  ok     max abs error ") and lines[3].endswith("  (1 element)")
    assert lines[4] == "     largest difference at x (output element [1]): autograd 4, numerical 4"
    assert lines[5].startswith("  y  ok     max abs error ") and lines[5].endswith("  (2 elements)")
    assert lines[-1] == "passed: autograd agrees with finite differences"


def test_gradcheck_json(capsys):
    code, out, _ = run(capsys, "gradcheck", "(x * y).sum()", "x=[1, 2]", "y=[3, 4]", "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert {k: document[k] for k in ("ok", "dtype", "method", "root_shape", "eps", "atol", "rtol", "evaluations",
                                     "notes")} == {
        "ok": True, "dtype": "float64", "method": "gradient", "root_shape": [], "eps": 1e-6, "atol": 1e-5,
        "rtol": 1e-3, "evaluations": 9, "notes": []}
    x, y = document["leaves"]
    assert (x["name"], x["ok"], x["shape"], y["name"], y["shape"]) == ("x", True, [2], "y", [2])
    assert x["max_abs_error"] < 1e-8 and y["max_abs_error"] < 1e-8


def test_gradcheck_has_no_dtype_and_says_float64(capsys):
    code, out, _ = run(capsys, "gradcheck", "sin(x)", "x=0.3", "--format", "plain")
    assert code == 0
    assert out.startswith("gradcheck in float64: ")
    code, _, err = run(capsys, "gradcheck", "sin(x)", "x=0.3", "--dtype", "float32")
    assert (code, err) == (2, "autodiff: usage error: No such option '--dtype'. (see 'autodiff gradcheck --help')\n")


def test_gradcheck_fails_on_a_wrong_formula(capsys, monkeypatch):
    # SinBackward0 computes grad * cos(self): make its cos a sin
    monkeypatch.setattr(NumpyMath, "cos", staticmethod(np.sin))
    code, out, _ = run(capsys, "gradcheck", "sin(x)", "x=[0.5, 1]", "--format", "plain")
    assert code == 1
    lines = out.splitlines()
    assert lines[3].startswith("  x  WRONG  max abs error 0.398157  max rel error 0.5574")
    assert lines[4] == ("     wrong at x[0] (output element [0]): autograd says 0.479426, finite differences say "
                        "0.877583 (off by 0.398157)")
    assert lines[-2] == "failed: autograd disagrees with finite differences for x"


def test_gradcheck_flags_a_non_smooth_point(capsys):
    code, out, _ = run(capsys, "gradcheck", "relu(x)", "x=0", "--format", "json")
    assert code == 1
    (leaf,) = json.loads(out)["leaves"]
    assert (leaf["worst"]["autograd"], leaf["worst"]["numerical"]) == (0.0, pytest.approx(0.5))


@pytest.mark.long
def test_gradcheck_limit(capsys):
    code, out, _ = run(capsys, "gradcheck", "x.sum()", "x=ones(101, 100)", "--format", "json")
    assert code == 1
    error = json.loads(out)["error"]
    assert error["kind"] == "limit"
    assert "10,100 elements" in error["message"] and "--max-perturbations" in error["hint"]
    assert run(capsys, "gradcheck", "x.sum()", "x=ones(101, 100)", "--max-perturbations", "10100", "--format",
               "json")[0] == 0


def test_gradcheck_needs_a_variable(capsys):
    code, out, _ = run(capsys, "gradcheck", "w * 2", "--const", "w=1", "--format", "json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["kind"] == "usage"
    assert error["message"] == ("gradcheck needs at least one variable to differentiate: bind one with NAME=VALUE "
                                "or --var NAME=VALUE")


def test_gradcheck_options_are_named_as_flags(capsys):
    code, out, _ = run(capsys, "gradcheck", "x * 2", "x=1", "--eps", "0", "--format", "json")
    assert (code, json.loads(out)["error"]["message"]) == (2, "--eps must be a positive number, got 0.0")
    code, out, _ = run(capsys, "gradcheck", "x * w", "x=1", "--const", "w=2")
    assert code == 0 and "constants are not perturbed: w" in out


def test_check_names_its_expect_option(capsys):
    code, out, _ = run(capsys, "check", "x**2", "x=1", "--expect", "x=2*", "--format", "json")
    assert code != 0 and json.loads(out)["error"]["message"].startswith("--expect x=2*: ")
    code, out, _ = run(capsys, "check", "w*x", "x=1", "--const", "w=2", "--expect", "w=x", "--format", "json")
    assert json.loads(out)["error"]["message"].startswith("--expect w=...: w is bound with --const, so it has no")


def test_empty_tensors_have_nothing_to_compare(capsys):
    for args in (("check", "x.sum()", "x=[]", "--expect", "x=ones_like(x)"), ("gradcheck", "cos(x)", "x=randn(0)")):
        code, out, _ = run(capsys, *args, "--format", "json")
        assert code == 1
        error = json.loads(out)["error"]
        assert error["kind"] == "value"
        assert error["message"] == "x has no elements, so there is no derivative to compare"


# ---------------------------------------------------------------------------- check: several points, float64
def test_a_formula_right_at_the_bound_point_only_is_caught_by_default(capsys):
    # 2*y agrees with d/dy x*y**2 = 2*x*y only where x = 1
    code, out, _ = run(capsys, "check", "x*y**2", "x=1", "y=1", "--expect", "y=2*y", "--seed", "0", "--format", "json")
    assert code == 1
    document = json.loads(out)
    assert document["samples"] == 5 and document["seed"] == 0 and document["dtype"] == "float64"
    assert document["points"][0] == {"x": 1.0, "y": 1.0} and len(document["points"]) == 5
    again = run(capsys, "check", "x*y**2", "x=1", "y=1", "--expect", "y=2*y", "--seed", "0", "--format", "json")[1]
    assert json.loads(again)["points"] == document["points"]


def test_float64_on_both_sides_by_default(capsys):
    # a correct formula near 0, where float32 autograd loses the digits
    code, _, _ = run(capsys, "check", "(1-cos(x))/x**2", "x=0.001", "--expect",
                     "x=(x*sin(x) - 2*(1-cos(x)))/x**3", "--format", "json")
    assert code == 0


def test_second_derivatives(capsys):
    assert run(capsys, "check", "sin(x) * x", "x=0.5", "--order", "2", "--expect", "x=2*cos(x) - x*sin(x)",
               "--format", "json")[0] == 0
    assert run(capsys, "check", "sin(x) * x", "x=0.5", "--order", "2", "--expect", "x=cos(x)",
               "--format", "json")[0] == 1


def test_check_order_two_says_second_derivative_in_every_line(capsys):
    code, out, _ = run(capsys, "check", "x**3", "x=2", "--expect", "x=6*x+1", "--order", "2", "--seed", "1",
                       "--format", "plain")
    assert code == 1
    lines = out.splitlines()
    assert lines[:2] == ["checking 1 second derivative at 5 points (seed 1)",
                         "float64; passes when |yours - the second derivative| <= 1e-08 + 1e-05 * "
                         "|the second derivative|"]
    assert lines[5:7] == ["d2/dx2  WRONG  yours: 6*x+1",
                          "  d2/dx2 is wrong at x = 2: you gave 13, the second derivative is 12 (off by 1)"]
    assert lines[-1] == "wrong: d2/dx2 (1 of 1)"
    assert "autograd" not in out and "randn" not in out
    code, out, _ = run(capsys, "check", "x**3", "x=2", "--expect", "x=6*x", "--order", "2", "--format", "plain")
    assert code == 0 and out.endswith("\nyour second derivative is right\n")
