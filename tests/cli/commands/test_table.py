"""`autodiff table`: values and derivatives over a grid, in every format; vectorised or point by point."""

from __future__ import annotations

import json
import math

import pytest


def test_plain_table_with_second_derivative(cli):
    out = cli("table", "x**3 - 2*x", "x=-1:1:1", "--order", "2", "--format", "plain")
    assert out.code == 0
    assert out.stdout == (" x  value  d1  d2\n"
                          "-1      1   1  -6\n"
                          " 0      0  -2   0\n"
                          " 1     -1   1   6\n")


def test_csv_and_json(cli):
    out = cli("table", "abs(x)", "x=-1:1:1", "--format", "csv")
    assert out.stdout == "x,value,d1\n-1.0,1.0,-1.0\n0.0,0.0,0.0\n1.0,1.0,1.0\n"
    document = json.loads(cli("table", "a * x**2", "x=0:1:0.5", "a=3", "--format", "json").stdout)
    assert document == {"wrt": "x", "order": 1, "rows": [{"x": 0.0, "value": 0.0, "d1": 0.0},
                                                          {"x": 0.5, "value": 0.75, "d1": 3.0},
                                                          {"x": 1.0, "value": 3.0, "d1": 6.0}]}


def test_default_step_is_a_tenth_and_stop_is_included(cli):
    rows = json.loads(cli("table", "sin(x)", "x=0:pi", "--format", "json").stdout)["rows"]
    assert len(rows) == 11 and rows[-1]["x"] == pytest.approx(math.pi)
    assert rows[5]["d1"] == pytest.approx(0.0, abs=1e-13)


def test_undefined_points_are_marked_not_dropped(cli):
    out = cli("table", "log(x)", "x=0:1:0.5", "--format", "plain")
    assert out.stdout.splitlines()[1].endswith("<- not defined here")
    assert len(out.stdout.splitlines()) == 4


def test_a_program_that_is_not_elementwise_runs_point_by_point(cli):
    out = cli("table", "x.sum() * x.sum()", "x=0:1:0.5", "--format", "plain")
    assert out.code == 0 and "note: evaluated point by point" in out.stdout
    assert out.stdout.splitlines()[3].split() == ["1", "1", "2"]


@pytest.mark.parametrize(("args", "words"), [
    (["x**2", "x=1"], "give the grid as NAME=START:STOP[:STEP]"),
    (["x**2", "x=0:1:-1"], "STEP must move from 0.0 towards 1.0"),
    (["x**2", "x=0:1000000:1"], "over the limit of 100,001"),
    (["x*y", "x=0:1", "y=0:1"], "one grid variable at a time"),
])
def test_errors(cli, args, words):
    out = cli("table", *args)
    assert out.code in (1, 2) and words in out.stderr
