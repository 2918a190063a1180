"""The calculus modules without the command line: SymPy bounded in time (and the numbers answering alone),
partial derivatives at a point, Taylor expansion, the approach to a limit, the noise test."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest

from autodiff import engine
from autodiff.app.calculus.critical import search
from autodiff.app.calculus.extrema import one_variable
from autodiff.app.calculus.limits import approach_points
from autodiff.app.calculus.pointwise import Function
from autodiff.app.calculus.tangent import expand, polynomial
from autodiff.app.noise import lost
from autodiff.app.symbolic import exact as X


@pytest.fixture(autouse=True)
def _float64():
    engine.set_default_dtype("float64")
    yield
    engine.set_default_dtype("float32")


def test_a_sympy_call_that_takes_too_long_is_abandoned():
    release = threading.Event()
    answer = X.bounded(lambda: release.wait(60), seconds=0.2)  # returns while the call still waits
    assert not release.is_set()
    release.set()
    assert isinstance(answer, X.TimedOut) and not answer
    assert answer.reason == "SymPy did not answer within 0.2 s"
    failed = X.bounded(lambda: 1 / 0)
    assert isinstance(failed, X.TimedOut) and failed.reason == "SymPy failed (ZeroDivisionError)"


def test_the_numbers_answer_when_sympy_times_out(monkeypatch):
    from autodiff.app.calculus import critical_exact

    monkeypatch.setattr(critical_exact, "_solve", lambda *a: X.TimedOut("SymPy did not answer within 3 s"))
    fn = Function("x**3 - 3*x", ["x"])
    result = one_variable(fn, "x**3 - 3*x", 1, None, {}, None, 2001)
    assert [(p.x, p.kind, p.exact) for p in result.points] == [(pytest.approx(-1.0), "maximum", None),
                                                               (pytest.approx(1.0), "minimum", None)]
    assert result.notes == ["no exact solution of f'(x) = 0: SymPy did not answer within 3 s"]


def test_partials_at_a_point_mixed_ones_included():
    fn = Function("x**2 * y + y**3", ["x", "y"])
    p = fn.partials({"x": 1.0, "y": 2.0}, 3)
    assert p[(0, 0)] == 10.0 and p[(1, 0)] == 4.0 and p[(0, 1)] == 13.0
    assert p[(2, 0)] == 4.0 and p[(1, 1)] == 2.0 and p[(0, 2)] == 12.0
    assert p[(2, 1)] == 2.0 and p[(0, 3)] == 6.0 and p[(3, 0)] == 0.0 and p[(1, 2)] == 0.0


def test_batches_agree_with_points_and_fall_back_for_a_program_that_is_not_elementwise():
    fn = Function("sin(x) * x", ["x"])
    xs = np.linspace(-2, 2, 9)
    _, _, d2 = fn.batch(xs, 2)
    assert fn.elementwise is True
    assert d2 == pytest.approx(2 * np.cos(xs) - xs * np.sin(xs), rel=1e-12)
    other = Function("x * x.sum()", ["x"])  # x * sum(x): one point at a time
    _, d1 = other.batch(xs, 1)
    assert other.elementwise is False and d1 == pytest.approx(2 * xs, rel=1e-12)


def test_taylor_expansion_and_its_formula():
    coefficients = expand({(0,): -1.0, (1,): -4.0}, [2.0])
    assert coefficients == {(0,): 7.0, (1,): -4.0} and polynomial(coefficients, ["x"]) == "7 - 4*x"
    assert polynomial({(0, 0): 0.0, (1, 0): -1.0, (0, 1): 2.5, (1, 1): 1.0}, ["x", "y"]) == "-x + 2.5*y + x*y"
    assert polynomial({(0,): 0.0}, ["x"]) == "0"


def test_the_grid_search_reports_every_sign_change():
    found = search(Function("cos(x)", ["x"]), 1, 0.0, 20.0, 101)
    assert sorted(found.candidates) == pytest.approx([k * math.pi for k in range(7)], rel=1e-12, abs=1e-15)


def test_approach_points_and_the_noise_test():
    assert approach_points(1.0, "-")[:2] == pytest.approx([0.9, 0.99])
    assert approach_points(-math.inf, "+")[-1] == -1e20
    assert len(approach_points(1e10, "+")) == 6  # 1e10 + 1e-7 is 1e10 in float64: the approach stops
    assert lost(np.array([-1e8, 0.5, 3e38, 0.0]), np.array([-0.6, 0.5000001, 1e300, 1e-40])).tolist() == [
        True, False, False, False]
