"""`plot --tangent`, and what `eval` and `table` say when a value is not a limit: arithmetic at inf or nan,
and values that may be cancellation noise."""

from __future__ import annotations

import pytest


def test_plot_draws_the_tangent_line(cli):
    out = cli("plot", "sqrt(x)", "x=0:9", "--tangent", "x=4", "--format", "plain")
    assert out.code == 0
    assert "tangent at x = 4: 1 + 0.25*x" in out.stdout
    out = cli("plot", "abs(x)", "x=-1:1", "--tangent", "x=0")
    assert out.code == 1 and "not differentiable at x = 0" in out.stderr
    out = cli("plot", "x**2", "x=-1:1", "--tangent", "y=0")
    assert out.code == 2 and "--tangent x=VALUE" in out.stderr


def test_plot_help_does_not_load_sympy():
    import subprocess
    import sys

    code = ("import sys\nfrom autodiff.cli.main import main\nsys.argv = ['autodiff', 'plot', 'x**2', 'x=0:1', "
            "'--tangent', 'x=0.5']\ntry:\n    main()\nexcept SystemExit:\n    pass\nprint('sympy' in sys.modules, "
            "file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_eval_at_infinity_is_not_the_limit(cli):
    out = cli("eval", "(1 - 1/x)**x", "x=inf", "--format", "json")
    assert out.code == 0 and out.json()["root"]["value"] == 1.0
    (warning,) = out.json()["warnings"]
    assert warning == ("x = inf: this is floating-point arithmetic at inf (1 - 1/inf is exactly 1, inf - inf is nan), "
                       "not the limit as x -> inf; for the limit: autodiff limit '(1 - 1/x)**x' x=inf")
    out = cli("eval", "x + 1", "x=nan")
    assert "x is nan: every value computed from it is nan" in out.stderr


def test_eval_says_when_the_root_may_be_noise(cli):
    out = cli("eval", "(exp(x) - 1 - x)/x**2", "x=1e-8", "--dtype", "float64", "--format", "json")
    assert out.json()["root"]["value"] == pytest.approx(-0.607747099184471)
    (warning,) = out.json()["warnings"]
    assert warning.startswith("the root may be rounding noise: the same program in float32 keeps none of its digits")
    out = cli("eval", "(exp(x) - 1 - x)/x**2", "x=0.1", "--dtype", "float64", "--format", "json")
    assert "warnings" not in out.json()
    assert "warnings" not in cli("eval", "x**2", "x=3", "--format", "json").json()


def test_table_marks_noise(cli):
    out = cli("table", "(exp(x) - 1 - x)/x**2", "x=1e-9:1e-8:1e-9", "--format", "plain")
    lines = out.stdout.splitlines()
    assert lines[10].startswith("1e-08   -0.607747") and lines[10].endswith("<- rounding noise?")
    assert lines[-1].startswith("note: the values at x = 1e-09, 2e-09, 3e-09, 4e-09, 5e-09, ... may be rounding noise")
    document = cli("table", "(exp(x) - 1 - x)/x**2", "x=1e-9:1e-8:1e-9", "--format", "json").json()
    assert document["warnings"][0].startswith("the values at x = 1e-09")
    out = cli("table", "(exp(x) - 1 - x)/x**2", "x=0.5:1:0.1", "--format", "plain")
    assert "noise" not in out.stdout
    assert "noise" not in cli("table", "exp(x)", "x=80:100:5").stdout  # float32 overflow is not cancellation
    assert "noise" not in cli("table", "tan(x)", "x=1.5:1.5707:0.01").stdout


def test_table_marks_a_power_of_a_base_rounded_to_one(cli):
    """(1 - 1/x)**x at x >= 1e16: 1 - 1/x rounds to 1 in float32 and float64 alike, so the two agree on 1 where
    the limit is 1/e; the bound of float64's own rounding (the backward pass's sensitivity to the base) marks it."""
    out = cli("table", "(1-1/x)**x", "x=1e16:5e16:1e16", "--format", "plain")
    rows = out.stdout.splitlines()[1:6]
    assert all(row.endswith("<- rounding noise?") for row in rows), out.stdout
    assert [row.split()[1] for row in rows[1:]] == ["1"] * 4  # 0.329485 at 1e16: 1 - 1e-16 is 1 - 1.11e-16
    assert "raises a number that rounded to 1 to a huge power" in out.stdout
    out = cli("table", "(1-1/x)**x", "x=10:50:10", "--format", "plain")
    assert "noise" not in out.stdout  # 0.348678, 0.358486, ...: correct digits
    # sin of a large grid value is exact as given: the grid variable's own size is not rounding noise
    assert "noise" not in cli("table", "sin(x)", "x=1e16:9e16:2e16").stdout
    assert "noise" not in cli("table", "x**3 - 2*x", "x=-2:2:0.5").stdout
