"""check's samples of an elementwise program run as one vector (app.elementwise): every report, value for value
and bit for bit, is the one the run point by point gives, on a corpus of right and wrong derivatives, every
elementwise function, fixed and random points, points outside the domain, both dtypes and both orders."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from autodiff import engine
from autodiff.app import checking
from autodiff.app.checking import CheckRequest, Expectation, check_derivatives
from autodiff.app.comparison import Variable, compare, compare_each
from autodiff.app.session import parsed
from autodiff.cli.commands.check_run import check_json
from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import ELEMENTWISE_FUNCTIONS as FUNCTIONS
from autodiff.grammar.syntax import elementwise


@pytest.fixture(autouse=True)
def _engine_state():
    dtype = engine.get_default_dtype()
    yield
    engine.set_default_dtype(dtype)


def _document(request: CheckRequest) -> object:
    try:
        return check_json(check_derivatives(request))
    except AutodiffError as error:
        return (type(error).__name__, error.message)


def _both(request: CheckRequest, monkeypatch: pytest.MonkeyPatch, vector_run: bool | None = None
          ) -> tuple[object, object]:
    """(the report as the check gives it, the report point by point); with `vector_run`, whether the first
    took the vector's way is asserted."""
    by_points = []
    with monkeypatch.context() as patch:
        original = checking._point_by_point
        patch.setattr(checking, "_point_by_point", lambda *args: by_points.append(1) or original(*args))
        vector = _document(request)
    if vector_run is not None:
        assert (not by_points) == vector_run
    with monkeypatch.context() as patch:  # point by point, each run by the interpreter (no tape)
        patch.setattr(checking.Program, "elementwise", lambda *args: False)
        patch.setattr(checking.Program, "tape_root", lambda *args: None)
        one_by_one = _document(request)
    return vector, one_by_one


def _request(program: str, expect: str, values: dict[str, str], samples: int = 5, dtype: str = "float32",
             order: int = 1, seed: int = 3, constants: dict[str, str] | None = None) -> CheckRequest:
    variables = [Variable(n, t) for n, t in values.items()]
    variables += [Variable(n, t, requires_grad=False) for n, t in (constants or {}).items()]
    name = next(iter(values))
    return CheckRequest(program, variables, [Expectation(name, expect)], dtype=dtype, samples=samples, seed=seed,
                        order=order)


CORPUS = [  # program, a right derivative, a wrong one
    ("(2*x)**3 + sin(x)", "24*x**2 + cos(x)", "24*x**2 - cos(x)"),
    ("x/(1 + 0.561*x**2)", "(1 - 0.561*x**2)/(1 + 0.561*x**2)**2", "2*x + 0.561"),
    ("sqrt(x**2 + 1.952)", "x/sqrt(x**2 + 1.952)", "1/(2*sqrt(x**2 + 1.952))"),
    ("1.3*x**3*sin(0.7*x)", "1.3*(3*x**2*sin(0.7*x) + 0.7*x**3*cos(0.7*x))", "1.3*3*x**2*0.7*cos(0.7*x)"),
    ("exp(-0.8*x**2)", "-1.6*x*exp(-0.8*x**2)", "exp(-0.8*x**2)"),
    ("log(1 + 1.5*x**2)", "3*x/(1 + 1.5*x**2)", "1/(1 + 1.5*x**2)"),
    ("tanh(1.1*x) + 0.6*x**3", "1.1*(1 - tanh(1.1*x)**2) + 1.8*x**2", "1 - tanh(1.1*x)**2 + 1.8*x**2"),
    ("sigmoid(1.7*x)", "1.7*sigmoid(1.7*x)*(1 - sigmoid(1.7*x))", "sigmoid(1.7*x)*(1 - sigmoid(1.7*x))"),
    ("atan(1.2*x)", "1.2/(1 + 1.44*x**2)", "1/(1 + x**2)"),
    ("(x + 0.9)**3", "3*(x + 0.9)**2", "-3*(x + 0.9)**2"),
    ("log(x)", "1/x", "-1/x"),
    ("y = x**2\ny*sin(y)", "2*x*sin(x**2) + 2*x**3*cos(x**2)", "2*x*cos(x**2)"),
    ("x**x", "x**x*(log(x) + 1)", "x*x**(x - 1)"),
    ("x**(1/3)", "1/(3*x**(2/3))", "x**(-2/3)"),
    ("abs(x) * pi + e", "pi*x/abs(x)", "pi"),
    ("3", "0", "1"),
]


@pytest.mark.parametrize(("program", "right", "wrong"), CORPUS)
@pytest.mark.parametrize("value", ["1.377687", "-0.25", "0", "rand()*4-2", "nan", "-3"])
def test_vector_equals_point_by_point(program, right, wrong, value, monkeypatch):
    for expect, dtype in itertools.product((right, wrong), ("float32", "float64")):
        vector, one_by_one = _both(_request(program, expect, {"x": value}, dtype=dtype), monkeypatch,
                                   vector_run=program != "3" and "z" not in expect)
        assert vector == one_by_one


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_elementwise_function(function, monkeypatch):
    program = f"{function}(0.9*x + 0.05) * x"
    for value, dtype, samples in itertools.product(("0.4", "rand()*6-3"), ("float32", "float64"), (7, 40)):
        request = _request(program, f"{function}(x)", {"x": value}, samples=samples, dtype=dtype)
        vector, one_by_one = _both(request, monkeypatch, vector_run=True)
        assert vector == one_by_one


@pytest.mark.parametrize(("order", "samples", "seed"), [(1, 2, 0), (2, 5, 1), (2, 30, 2), (1, 300, 4)])
def test_orders_sample_counts_and_two_variables(order, samples, seed, monkeypatch):
    request = CheckRequest("x*exp(y) + y**2*cos(x)/c", [Variable("x", "0.5"), Variable("y", "randn()"),
                                                         Variable("c", "2.5", requires_grad=False)],
                           [Expectation("x", "exp(y) - y**2*sin(x)/c"), Expectation("y", "x*exp(y)")],
                           samples=samples, seed=seed, order=order)
    vector, one_by_one = _both(request, monkeypatch, vector_run=True)
    assert vector == one_by_one


def test_what_is_not_elementwise_runs_point_by_point():
    assert elementwise(parsed("x**2 + sin(x)"), ["x"])
    assert elementwise(parsed("y = x*2\ny + pi"), ["x"])
    for program in ("x.sum()", "rand() * x", "x[0]", "sum(x)", "max(x, 1)", "sin(x, out=1)", "y = 1", "x @ x",
                    "[x, x]", "z * x", "sin = 2\nsin * x", "x if x else 1"):
        assert not elementwise(parsed(program), ["x"]), program
    assert not elementwise(parsed("sin(x)"), ["x", "sin"])


@pytest.mark.parametrize("values", [{"x": "[1.0, 2.0]"}, {"x": "0.5"}])
def test_a_tensor_variable_goes_point_by_point(values, monkeypatch):
    vector, one_by_one = _both(_request("x**2", "2*x", values), monkeypatch, vector_run="[" not in values["x"])
    assert vector == one_by_one


@pytest.mark.parametrize("expect", ["2*z", "2*x +", "[1, 2, 3]", "x.sum()"])
def test_errors_of_the_expectation_are_the_same(expect, monkeypatch):
    vector, one_by_one = _both(_request("x**2", expect, {"x": "0.5"}), monkeypatch)
    assert vector == one_by_one


def test_compare_each_is_compare_of_each_pair():
    values = np.array([1.0, 2.0 + 1e-6, np.nan, np.inf, -np.inf, 0.0, 1e-9, 3.0])
    reference = np.array([1.0, 2.0, np.nan, np.inf, np.inf, 1e-12, 0.0, np.nan])
    for rtol, atol in ((1e-5, 1e-8), (0.0, 0.0), (1e-4, 1e-5)):
        each = compare_each(values, reference, rtol, atol)
        assert each == [compare(np.array(v), np.array(r), rtol, atol) for v, r in zip(values, reference)]
