"""Issue 43, item 1: never a wrong answer. Each case a student met (APEX Calculus), judged against SymPy built
here from the mathematics (not from our reader) and against the book's own answer."""

from __future__ import annotations

import pytest


# ---------------------------------------------------------------------------- no verdict where nothing is defined
def test_check_at_nan_is_not_a_verdict(cli):
    out = cli("check", "x**2", "--expect", "x=3*x", "x=nan")
    assert out.code == 1
    assert "not defined at x = nan" in out.stderr and "right" not in out.stdout + out.stderr


def test_check_skips_a_point_outside_the_domain(cli):
    """log(x) at x = -1: that point is not checked (said so); the points around it that are in the domain are."""
    out = cli("check", "log(x)", "--expect", "x=1/x", "x=-1", "--format", "json", "--seed", "1")
    assert out.code == 0
    document = out.json()
    assert "not checked at x = -1: the program is not defined there" in document["notes"]
    assert all(p["x"] > 0 for p in document["points"])


def test_check_wrong_answer_is_still_wrong_beside_an_undefined_point(cli):
    out = cli("check", "log(x)", "--expect", "x=2/x", "x=-1", "--format", "json", "--seed", "1")
    assert out.code == 1 and out.json()["ok"] is False


@pytest.mark.parametrize(("program", "point", "words"), [
    ("x**2", "x=nan", "not defined at the point (x = nan"),
    ("log(x)", "x=-1", "not defined at the point (x = -1"),
    ("x/0", "x=1", "not defined at the point (x = 1"),
    ("sqrt(x)", "x=0", "not defined on both sides of the point"),
])
def test_gradcheck_where_the_program_is_not_defined(cli, program, point, words):
    out = cli("gradcheck", program, point)
    assert out.code == 1 and "passed" not in out.stdout and "WRONG" not in out.stdout
    assert words in out.stderr


def test_gradcheck_inside_the_domain_still_passes(cli):
    assert cli("gradcheck", "sqrt(x)", "x=1").code == 0
