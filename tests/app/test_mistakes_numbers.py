"""app.mistakes names the same mistake with its numbers first (app.screening's forward-mode values, the float64
values of SymPy's formulas, both remembered per program) as with SymPy's exact values at every point; and
the screening's numbers are autograd's and SymPy's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from autodiff.app import mistakes, screening
from autodiff.app.screening import candidates, clearly

# (program, wrong answers): signs, factors, the function itself, the second derivative, rules left out, noise
CORPUS = [
    ("sin(x**2)", ["cos(x**2)", "-2*x*cos(x**2)", "sin(x**2)", "2*cos(x**2) - 4*x**2*sin(x**2)", "x"]),
    ("x**2*sin(x)", ["2*x*cos(x)", "2*x*sin(x)", "x**2*cos(x)", "3*x"]),
    ("x/(1 + 0.561*x**2)", ["1/(1.122*x)", "2*x + 0.561", "x/(1 + 0.561*x**2)"]),
    ("1.3*x**3*sin(0.7*x)", ["1.3*3*x**2*0.7*cos(0.7*x)", "x**3", "1.3*x**3*sin(0.7*x)"]),
    ("log(1 + 1.5*x**2)", ["1/(1 + 1.5*x**2)", "3*x", "log(1 + 1.5*x**2)"]),
    ("sqrt(x**2 + 1.952)", ["1/(2*sqrt(x**2 + 1.952))", "x", "sqrt(x**2 + 1.952)"]),
    ("exp(0.8*x)*sin(x)", ["0.8*exp(0.8*x)*cos(x)", "exp(0.8*x)*cos(x)", "exp(0.8*x)*sin(x)"]),
    ("sigmoid(1.7*x)", ["sigmoid(1.7*x)*(1 - sigmoid(1.7*x))", "sigmoid(1.7*x)", "x"]),
    ("atan(1.2*x)", ["1/(1 + 1.44*x**2)", "atan(1.2*x)", "1.2"]),
    ("tanh(1.1*x) + 0.6*x**3", ["1 - tanh(1.1*x)**2 + 1.8*x**2", "tanh(1.1*x) + 0.6*x**3", "x**2"]),
    ("x**4", ["12*x**2", "x**4", "4*x**2"]),
    ("y = x**2\ny*sin(y)", ["sin(x**2) + x**2*cos(x**2)", "x**2*sin(x**2)", "2*x"]),
    ("x**x", ["x*x**(x - 1)", "x**x", "log(x)"]),
    ("sec(x**2)", ["sec(x**2)*tan(x**2)", "x"]),
    ("(x + 0.9)**3", ["3*(x + 0.9)", "(x + 0.9)**3", "6*(x + 0.9)"]),
    ("2**x + x", ["x*2**(x - 1) + 1", "2**x + x"]),
    ("abs(x - 0.3)*x", ["abs(x - 0.3)", "x"]),
]
POINTS = [[1.2, -1.2, 0.3, -3.6, 2.1], [0.7, -0.7, 0.175, -2.1, 1.45], [0.5, 1.1, 1.9, 2.4, 0.9]]


def _values(text: str, points: list[float]) -> list[float]:
    """The values of a formula and of the program's derivative at the points (autograd, float64)."""
    from autodiff import engine
    from autodiff.app.comparison import Program, gradients
    from autodiff.app.session import Binding
    from autodiff.app.textbook.realroots import BACKEND

    with engine.settings(default_dtype="float64"), np.errstate(all="ignore"):
        root, leaves, _ = Program(text, BACKEND).run([Binding("x", np.array(points), True)])
        if root.ndim == 0:  # a constant answer
            return [float(root.numpy(force=True))] * len(points), [0.0] * len(points)
        return root.numpy(force=True).tolist(), gradients(root, [leaves["x"]], np.ones(len(points)))[0].tolist()


def _forget() -> None:
    for cached in (mistakes._rule_steps, mistakes._of_order, mistakes._expression, mistakes._written):
        cached.cache_clear()


@pytest.mark.parametrize(("program", "answers"), CORPUS)
def test_numbers_first_names_what_sympy_names(program, answers, monkeypatch):
    for answer, points in itertools.product(answers, POINTS):
        _, reference = _values(program, points)
        yours, _ = _values(answer, points)
        at = [{"x": p} for p in points]
        _forget()
        fast = mistakes.diagnose(program, "x", yours, reference, at)
        with monkeypatch.context() as patch:  # SymPy's exact values at every point, as before the numbers
            patch.setattr(screening, "candidates", lambda *args: None)
            patch.setattr(mistakes, "_float64_values", lambda *args: None)
            _forget()
            exact = mistakes.diagnose(program, "x", yours, reference, at)
        assert fast == exact, (program, answer, points)
    _forget()


@pytest.mark.parametrize("program", [p for p, _ in CORPUS if "sec" not in p])
def test_the_screenings_numbers_are_autograds(program):
    points = [0.4, -0.9, 1.3, 2.2]
    value, _ = _values(program, points)
    found = candidates(program, "x", [{"x": p} for p in points])
    assert found is not None
    np.testing.assert_allclose(found.orders[0], value, rtol=1e-12)
    x = np.array(points)
    step = 1e-4  # the second derivative against central differences of autograd's first
    _, above = _values(program, (x + step).tolist())
    _, below = _values(program, (x - step).tolist())
    np.testing.assert_allclose(found.orders[2], (np.array(above) - np.array(below)) / (2 * step), rtol=1e-5,
                               atol=1e-6)
    assert found.factors and np.all(np.isfinite(found.factors[0]))


def test_what_the_screening_does_not_know_is_left_to_sympy():
    assert candidates("sec(x**2)", "x", [{"x": 0.5}, {"x": 0.7}]) is None  # recorded as two operations
    assert candidates("sum(x)", "x", [{"x": 0.5}, {"x": 0.7}]) is None
    assert candidates("x*y", "z", [{"x": 0.5, "y": 1.0}]) is None


def test_clearly():
    a = np.array([1.0, 2.0])
    assert clearly(a, a + 1e-12) is True
    assert clearly(a, a + 1.0) is False
    assert clearly(a, a * (1 + 2e-6)) is None  # near the tolerance: SymPy's exact values decide
    assert clearly(np.array([np.nan, 1.0]), a) is None
