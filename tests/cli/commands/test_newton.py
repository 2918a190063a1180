"""`autodiff newton`: Newton's method with autograd's derivative: convergence, and every way it fails."""

from __future__ import annotations

import math

import pytest


def _json(cli, *args: str, code: int = 0) -> dict:
    out = cli("newton", *args, "--format", "json")
    assert out.code == code, out.stderr
    return out.json()


def test_square_root_of_10(cli):
    out = cli("newton", "x**2 - 10", "x=3", "--format", "plain")
    assert out.code == 0
    assert out.stdout == (
        "Newton's method on x**2 - 10 = 0 from x_0 = 3\n"
        "n               x_n       f(x_n)  f'(x_n)\n"
        "0                 3           -1        6\n"
        "1  3.16666666666667    0.0277778  6.33333\n"
        "2  3.16228070175439  1.92367e-05  6.32456\n"
        "3  3.16227766016984  9.25304e-12  6.32456\n"
        "4  3.16227766016838            0  6.32456\n"  # 1.77636e-15: a residue of 0 (app/residue.py)
        "root: x = 3.16227766016838  (the step fell below the tolerance 1e-12; 4 steps)\n"
        "f' by autograd (float64)\n")
    document = _json(cli, "x**2 - 10", "x=3")
    assert document["converged"] is True and document["root"] == pytest.approx(math.sqrt(10), rel=1e-15)
    assert document["iterations"][1] == {"n": 1, "x": pytest.approx(19 / 6, rel=1e-15),
                                         "f": pytest.approx(1 / 36, rel=1e-12), "df": pytest.approx(19 / 3, rel=1e-15)}


@pytest.mark.parametrize(("program", "x0", "root"), [
    ("cos(x) - x", "x=1", 0.7390851332151607),
    ("x**3 - 2*x - 5", "x=2", 2.0945514815423265),  # Newton's own example
    ("exp(x) - 2", "x=0", math.log(2)),
    ("x**2 - a", "x=1", math.sqrt(2)),
])
def test_roots(cli, program, x0, root):
    extra = ("--const", "a=2") if "a" in program else ()
    document = _json(cli, program, x0, *extra)
    assert document["converged"] and document["root"] == pytest.approx(root, rel=1e-14)


def test_a_double_root_converges_slowly(cli):
    document = _json(cli, "(x - 1)**2", "x=2")
    assert document["converged"] and abs(document["root"] - 1) < 1e-11
    assert len(document["iterations"]) > 30


@pytest.mark.parametrize(("program", "x0", "reason"), [
    ("x**3 - 2*x + 2", "x=0", "a cycle: x_2 would be x_0 again (period 2), so Newton's method never converges from "
                              "here: start elsewhere"),
    ("x**2 - 1", "x=0", "f'(x_0) = 0 at x_0 = 0: the tangent is horizontal, so Newton's step is not defined: start "
                        "elsewhere"),
    ("atan(x)", "x=2", "the iterates diverge: |x_6| = 8.59077e+20"),
    ("log(x)", "x=3", "f is not defined at x_1 = -0.295836866 (f = nan): start closer to the root"),
    ("x**2 + 1", "x=0.5", None),
])
def test_failures(cli, program, x0, reason):
    document = _json(cli, program, x0, code=1)
    assert document["converged"] is False and document["root"] is None
    if reason is not None:
        assert document["reason"] == reason
    else:
        assert document["reason"].startswith("no convergence in 50 steps")


def test_options(cli):
    document = _json(cli, "cos(x) - x", "x=1", "--steps", "2", code=0)  # the steps asked for, done (issue 43)
    assert len(document["iterations"]) == 3
    assert cli("newton", "x**2 - 2", "x=1", "--steps", "0").code == 2
    assert cli("newton", "x**2 - 2", "x=1", "--tol", "-1").code == 2
    assert cli("newton", "x*y", "x=1", "y=2").code == 2
    assert _json(cli, "x*y - 2", "x=1", "y=2", "--wrt", "x")["root"] == pytest.approx(1.0)


@pytest.mark.parametrize("typed", ["--steps", "--iterations"])
def test_errors_name_the_option_typed(cli, typed):
    """`--steps` is the old spelling of --iterations: a message about it names what the user typed."""
    assert cli("newton", "x**2 - 2", "x=1", typed, "0").stderr == (
        f"autodiff: usage error: {typed} must be positive, got 0\n")
    assert cli("newton", "x**2 - 2", "x=1", f"{typed}=0").stderr.startswith(f"autodiff: usage error: {typed} must")
    assert cli("newton", "x**2 - 2", "x=1", typed, "100000000").stderr == (
        f"autodiff: usage error: {typed} must be between 1 and 10,000, got 100000000\n")


@pytest.mark.parametrize("typed", ["--gradient", "--grad-tensor"])
def test_eval_names_the_gradient_option_typed(cli, typed):
    assert cli("eval", "x*2", "x=1", typed, "foo").stderr.startswith(
        f"autodiff: name error at line 1, column 1: {typed}: unknown name 'foo'")


@pytest.mark.parametrize("typed", ["-f", "--file"])
def test_a_missing_program_file_is_named_as_typed(cli, typed):
    assert cli("eval", typed, "/no/such/file").stderr == (
        f"autodiff: io error: {typed} /no/such/file: cannot read it (No such file or directory)\n")
