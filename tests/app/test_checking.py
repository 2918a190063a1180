"""autodiff.app.checking: the comparison rule, derivative checks, gradcheck over every differentiable
built-in (a second oracle for the engine, next to PyTorch)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autodiff import engine
from autodiff.app.checking import CheckRequest, Expectation, check_derivatives
from autodiff.app.comparison import Variable, compare, default_tolerances
from autodiff.app.gradcheck import GradcheckRequest, gradcheck
from autodiff.engine import BUILTINS
from autodiff.engine.core.vocabulary import NumpyMath
from autodiff.engine.errors import LimitError, ParseError, ShapeError, UnknownNameError, UsageError


@pytest.fixture(autouse=True)
def _engine_state():
    dtype = engine.get_default_dtype()
    yield
    engine.set_default_dtype(dtype)


def variables(**values: str) -> list[Variable]:
    return [Variable(name, text) for name, text in values.items()]


# ---------------------------------------------------------------------------- compare
def test_compare_follows_allclose():
    result = compare(np.array([1.0, 2.0 + 1e-6, 3.5]), np.array([1.0, 2.0, 3.0]), rtol=1e-5, atol=1e-8)
    assert not result.ok
    assert result.worst == 2
    assert result.worst_error == 0.5
    assert result.max_abs_error == 0.5
    assert result.max_rel_error == pytest.approx(0.5 / 3)
    assert compare(np.array([2.0 + 1e-6]), np.array([2.0]), rtol=1e-5, atol=1e-8).ok


def test_compare_non_finite_values():
    nan, inf = math.nan, math.inf
    assert compare(np.array([nan, inf, -inf]), np.array([nan, inf, -inf]), 1e-5, 1e-8).ok
    result = compare(np.array([1.0, inf]), np.array([nan, 1.0]), 1e-5, 1e-8)
    assert not result.ok and result.max_abs_error == inf and result.max_rel_error == inf


def test_compare_relative_error_ignores_references_below_atol():
    result = compare(np.array([1e-9, 10.1]), np.array([0.0, 10.0]), rtol=1e-5, atol=1e-8)
    assert result.max_rel_error == pytest.approx(0.01)  # 1e-9 against 0 counts for atol only
    assert result.worst == 1


def test_default_tolerances():
    assert default_tolerances("float64") == (1e-5, 1e-8)
    assert default_tolerances("float32") == (1e-4, 1e-5)


# ---------------------------------------------------------------------------- check
def check(program: str, expect: dict[str, str], **options) -> object:
    bound = options.pop("bound")
    return check_derivatives(CheckRequest(program, bound, [Expectation(n, e) for n, e in expect.items()], **options))


def test_check_right_and_wrong():
    report = check("x**3 * sin(x)", {"x": "3*x**2*sin(x) + x**3*cos(x)"}, bound=variables(x="1.2"))
    assert report.ok and report.samples == 1 and report.seed is None
    report = check("x**3 * sin(x)", {"x": "3*x**2*sin(x)"}, bound=variables(x="1.2"))
    (result,) = report.checks
    assert not report.ok and not result.ok
    x = np.float32(1.2)
    assert float(result.worst.expected) == pytest.approx(3 * float(x) ** 2 * math.sin(float(x)), rel=1e-12)
    assert float(result.worst.autograd) == pytest.approx(3 * x**2 * math.sin(x) + x**3 * math.cos(x), rel=1e-6)
    assert result.worst.point["x"] == x


def test_check_samples_catch_agreement_at_one_point():
    assert check("x**2", {"x": "2*x + (x-1)"}, bound=variables(x="1")).ok
    report = check("x**2", {"x": "2*x + (x-1)"}, bound=variables(x="randn()"), samples=10, seed=0)
    assert not report.ok
    worst = report.checks[0].worst
    assert 1 <= worst.sample <= 10
    x = float(worst.point["x"])
    assert report.checks[0].worst.abs_error == pytest.approx(abs(x - 1), rel=1e-6)


def test_check_several_variables_and_tensors():
    report = check("(x * y**2).sum()", {"x": "y**2 + 0*x", "y": "2 * x.sum() * y"},
                   bound=variables(x="rand(2, 3)", y="randn()"), samples=5, seed=1, dtype="float64")
    assert report.ok
    assert [c.shape for c in report.checks] == [(2, 3), ()]
    assert (report.rtol, report.atol) == (1e-5, 1e-8)


def test_check_expectations_see_constants_but_differentiate_variables_only():
    bound = [Variable("x", "2"), Variable("w", "3", requires_grad=False)]
    assert check("w * x**2", {"x": "2 * w * x"}, bound=bound).ok
    with pytest.raises(UsageError, match="bound with constants"):
        check("w * x**2", {"w": "x**2"}, bound=bound)


def test_check_a_rebound_name_still_differentiates_the_bound_leaf():
    # the program reassigns x; the derivative is with respect to the value bound to x
    assert check("x = x * 3; x**2", {"x": "18 * x"}, bound=variables(x="1.5")).ok


def test_check_errors():
    with pytest.raises(UnknownNameError, match="'y' is not a bound variable"):
        check("x**2", {"y": "2*x"}, bound=variables(x="1"))
    with pytest.raises(ParseError) as error:
        check("x**2", {"x": "2*"}, bound=variables(x="1"))
    assert error.value.kind == "syntax" and error.value.message.startswith("x=2*: ")
    with pytest.raises(ShapeError, match=r"has shape \(3,\), but x"):
        check("(x**2).sum()", {"x": "[1, 2, 3]"}, bound=variables(x="[1, 2]"))
    with pytest.raises(UnknownNameError) as error:
        check("x**2", {"x": "2*z"}, bound=variables(x="1"))
    assert error.value.hint == "a derivative can use the bound variables (x), numbers and the built-ins"


def test_check_of_a_result_that_does_not_depend_on_the_variable():
    assert check("y * 2", {"x": "0"}, bound=variables(x="1", y="2")).ok
    assert check("x.detach() * 2", {"x": "0"}, bound=variables(x="1")).ok


# ---------------------------------------------------------------------------- gradcheck: every built-in
# One small program per differentiable built-in (and per operator), at points away from kinks and ties.
# The `coverage` test below fails when a built-in with a backward has no case here.
CASES: dict[str, tuple[str, dict[str, str]]] = {
    "abs": ("abs(x)", {"x": "[0.5, -1.5, 2]"}),
    "add": ("add(x, y)", {"x": "[1, 2]", "y": "[[3], [4]]"}),
    "clamp": ("clamp(x, min=-0.5, max=0.5)", {"x": "[-1, 0.2, 0.9, -0.3]"}),
    "clone": ("clone(x) * x", {"x": "[1, 2]"}),
    "cos": ("cos(x)", {"x": "[0.3, -1.2]"}),
    "div": ("div(x, y)", {"x": "[1, -2]", "y": "[0.5, 3]"}),
    "dot": ("dot(x, y)", {"x": "[1, 2, 3]", "y": "[0.5, -1, 2]"}),
    "exp": ("exp(x)", {"x": "[0.3, -1.2]"}),
    "expand": ("expand(x, 2, 3) * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 2, 3]]"}),
    "flatten": ("flatten(x) * [1, 2, 3, 4, 5, 6]", {"x": "[[1, 2, 3], [4, 5, 6]]"}),
    "log": ("log(x)", {"x": "[0.3, 2]"}),
    "log_softmax": ("log_softmax(x, dim=1)", {"x": "[[0.1, 0.5, -0.3], [1, 2, 3]]"}),
    "matmul": ("matmul(a, b).sum() + matmul(v, b).sum() + matmul(a, w).sum() + matmul(v, w) + "
               "matmul(c, b).sum()", {"a": "[[1, 2, 3], [4, 5, 6]]", "b": "[[1, 0.5], [2, 1], [0, 3]]",
                                      "v": "[1, -1, 2]", "w": "[0.5, 1, 1.5]", "c": "randn(2, 2, 3)"}),
    "max": ("max(x) + max(x, dim=1).values.sum() + max(x, y).sum()",
            {"x": "[[1, 5, 3], [7, 2, 4]]", "y": "[[2, 4, 4], [6, 3, 3]]"}),
    "maximum": ("maximum(x, y)", {"x": "[1, 5, 3]", "y": "[2, 4, 4]"}),
    "mean": ("mean(x) + mean(x, dim=0).sum() * 2", {"x": "[[1, 5, 3], [7, 2, 4]]"}),
    "min": ("min(x) + min(x, dim=0).values.sum() + min(x, y).sum()",
            {"x": "[[1, 5, 3], [7, 2, 4]]", "y": "[[2, 4, 4], [6, 3, 3]]"}),
    "minimum": ("minimum(x, y)", {"x": "[1, 5, 3]", "y": "[2, 4, 4]"}),
    "mm": ("mm(a, b)", {"a": "[[1, 2, 3], [4, 5, 6]]", "b": "[[1, 0.5], [2, 1], [0, 3]]"}),
    "mul": ("mul(x, y) * 3", {"x": "[1, 2]", "y": "[[3], [4]]"}),
    "mv": ("mv(a, v)", {"a": "[[1, 2, 3], [4, 5, 6]]", "v": "[1, -1, 2]"}),
    "neg": ("neg(x)", {"x": "[1, -2]"}),
    "permute": ("permute(x, 2, 0, 1) * arange(24).reshape(4, 2, 3)", {"x": "randn(2, 3, 4)"}),
    "pow": ("pow(x, 3) + pow(x, y) + pow(2, y) + square(x)", {"x": "[0.5, 2]", "y": "[1.5, -0.5]"}),
    "reciprocal": ("reciprocal(x)", {"x": "[0.5, -2]"}),
    "relu": ("relu(x)", {"x": "[-1, 0.5, 2]"}),
    "reshape": ("(reshape(x, 3, 2) * [[1, 2], [3, 4], [5, 6]]).sum() + (reshape(x.t(), 6) * arange(6)).sum()",
                {"x": "[[1, 2, 3], [4, 5, 6]]"}),
    "sigmoid": ("sigmoid(x)", {"x": "[0.3, -1.2]"}),
    "sign": ("sign(x) * x", {"x": "[0.3, -1.2]"}),
    "sin": ("sin(x)", {"x": "[0.3, -1.2]"}),
    "softmax": ("softmax(x, dim=0)", {"x": "[[0.1, 0.5, -0.3], [1, 2, 3]]"}),
    "sqrt": ("sqrt(x)", {"x": "[0.3, 2]"}),
    "square": ("square(x)", {"x": "[0.3, -2]"}),
    "squeeze": ("squeeze(x) * [1, 2, 3] + squeeze(x, 0).sum()", {"x": "[[1, 2, 3]]"}),
    "sub": ("sub(x, y) + sub(1, x)", {"x": "[1, 2]", "y": "[[3], [4]]"}),
    "sum": ("sum(x) + sum(x, dim=1).pow(2).sum() + sum(x, dim=0, keepdim=True).pow(2).sum()",
            {"x": "[[1, 2, 3], [4, 5, 6]]"}),
    "t": ("t(x) * [[1, 2], [3, 4], [5, 6]]", {"x": "[[1, 2, 3], [4, 5, 6]]"}),
    "tan": ("tan(x)", {"x": "[0.3, -1.2]"}),
    "tanh": ("tanh(x)", {"x": "[0.3, -1.2]"}),
    "transpose": ("transpose(x, 0, 2) * arange(24).reshape(4, 3, 2)", {"x": "randn(2, 3, 4)"}),
    "unsqueeze": ("unsqueeze(x, 1) * [[1], [2]]", {"x": "[3, 4]"}),
    "view": ("view(x, 6) * arange(6)", {"x": "[[1, 2, 3], [4, 5, 6]]"}),
    # the calculus vocabulary
    "asin": ("asin(x)", {"x": "[0.3, -0.6]"}), "arcsin": ("arcsin(x)", {"x": "[0.3, -0.6]"}),
    "acos": ("acos(x)", {"x": "[0.3, -0.6]"}), "arccos": ("arccos(x)", {"x": "[0.3, -0.6]"}),
    "atan": ("atan(x)", {"x": "[0.3, -2]"}), "arctan": ("arctan(x**2 + 1)", {"x": "[0.3, -2]"}),
    "atan2": ("atan2(y, x)", {"x": "[0.3, -2]", "y": "[1, 0.5]"}),
    "arctan2": ("arctan2(y, x)", {"x": "[0.3, -2]", "y": "[1, 0.5]"}),
    "sinh": ("sinh(x)", {"x": "[0.3, -2]"}), "cosh": ("cosh(x)", {"x": "[0.3, -2]"}),
    "asinh": ("asinh(x)", {"x": "[0.3, -2]"}), "arcsinh": ("arcsinh(x)", {"x": "[0.3, -2]"}),
    "acosh": ("acosh(x)", {"x": "[1.5, 3]"}), "arccosh": ("arccosh(x)", {"x": "[1.5, 3]"}),
    "atanh": ("atanh(x)", {"x": "[0.3, -0.6]"}), "arctanh": ("arctanh(x)", {"x": "[0.3, -0.6]"}),
    "log2": ("log2(x)", {"x": "[0.3, 2]"}), "log10": ("log10(x)", {"x": "[0.3, 2]"}),
    "log1p": ("log1p(x)", {"x": "[0.3, -0.5]"}), "ln": ("ln(x)", {"x": "[0.3, 2]"}),
    "expm1": ("expm1(x)", {"x": "[0.3, -2]"}), "exp2": ("exp2(x)", {"x": "[0.3, -2]"}),
    "erf": ("erf(x)", {"x": "[0.3, -1.2]"}), "erfc": ("erfc(x)", {"x": "[0.3, -1.2]"}),
    "rsqrt": ("rsqrt(x)", {"x": "[0.3, 2]"}), "hypot": ("hypot(x, y)", {"x": "[0.3, -2]", "y": "[1, 0.5]"}),
    "floor": ("floor(x) * x", {"x": "[0.3, -1.2]"}), "ceil": ("ceil(x) * x", {"x": "[0.3, -1.2]"}),
    "round": ("round(x) * x", {"x": "[0.3, -1.2]"}), "trunc": ("trunc(x) * x", {"x": "[0.3, -1.2]"}),
    "frac": ("frac(x)", {"x": "[0.3, -1.2]"}),
    "sec": ("sec(x)", {"x": "[0.3, -1.2]"}), "csc": ("csc(x)", {"x": "[0.3, -1.2]"}),
    "cot": ("cot(x)", {"x": "[0.3, -1.2]"}), "cbrt": ("cbrt(x)", {"x": "[-8, 0.5]"}),
    "asec": ("asec(x)", {"x": "[1.3, -2.2]"}), "acsc": ("acsc(x)", {"x": "[1.3, -2.2]"}),
    "acot": ("acot(x)", {"x": "[0.3, -1.2]"}), "arcsec": ("arcsec(x)", {"x": "[1.3, -2.2]"}),
    "arccsc": ("arccsc(x)", {"x": "[1.3, -2.2]"}), "arccot": ("arccot(x)", {"x": "[0.3, -1.2]"}),
    "where": ("where(x > 0, x**2, -x) + where(y < 1, y, 2 * y)", {"x": "[-1, 0.5]", "y": "[0.5, 3]"}),
    "prod": ("prod(x) + prod(x, dim=1).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "var": ("var(x) + var(x, dim=0).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "std": ("std(x) + std(x, dim=1, correction=0).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "logsumexp": ("logsumexp(x, 1)", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "amax": ("amax(x) + amax(x, 1).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "amin": ("amin(x) + amin(x, 0).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "norm": ("norm(x) + norm(x, dim=1).sum()", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "cumsum": ("cumsum(x, 1) * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "cumprod": ("cumprod(x, 1) * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 2, 3], [0.5, -1, 2]]"}),
    "cummax": ("cummax(x, 1).values * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "cummin": ("cummin(x, 0)[0] * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 3, 2], [0.5, -1, 1.5]]"}),
    "logcumsumexp": ("logcumsumexp(x, 1) * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "gather": ("gather(x, 1, tensor([[2, 0], [1, 1]])) * [[1, 2], [3, 4]]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "take_along_dim": ("take_along_dim(x, tensor([[2], [0]]), 1) * [[1], [3]]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "scatter": ("scatter(x, 1, tensor([[2, 0]]), y) * [[1, 2, 3], [4, 5, 6]]",
                {"x": "[[1, 3, 2], [0.5, -1, 2]]", "y": "[[0.5, 4]]"}),
    "scatter_add": ("scatter_add(x, 0, tensor([[1, 1, 0]]), y) * [[1, 2, 3], [4, 5, 6]]",
                    {"x": "[[1, 3, 2], [0.5, -1, 2]]", "y": "[[0.5, 4, 2]]"}),
    "index_select": ("index_select(x, 1, tensor([2, 2, 0])) * [[1, 2, 3], [4, 5, 6]]",
                     {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "masked_fill": ("masked_fill(x, x < 0, 0.5) * [[1, 2, 3], [4, 5, 6]]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "advanced indexing": ("(x[[0, 1, 1], [2, 0, 0]] * [1, 2, 3]).sum() + x[x > 1].sum() * 2 + x[:, [1, 1]].sum()",
                          {"x": "[[1.25, 3, 2], [0.5, -1, 2]]"}),
    # issue 31's vocabulary: activations and more elementwise functions
    **{name: (f"{name}(x) * [1, 2, 3, 4]", {"x": "[-2.5, -0.75, 0.25, 1.5]"})
       for name in ("leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus", "softsign", "hardtanh",
                    "relu6", "hardsigmoid", "hardswish", "logsigmoid", "sinc", "deg2rad", "rad2deg")},
    "softmin": ("softmin(x, dim=0) * [1, 2, 3, 4]", {"x": "[-2.5, -0.75, 0.25, 1.5]"}),
    "logaddexp": ("logaddexp(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]"}),
    "logaddexp2": ("logaddexp2(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]"}),
    "remainder": ("remainder(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.7, 1.6]"}),
    "fmod": ("fmod(x, y) * [1, 2] + fmod(x, 0.7)", {"x": "[-2.5, 0.75]", "y": "[0.7, 1.6]"}),
    "fmax": ("fmax(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 0.25]"}),
    "fmin": ("fmin(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 0.25]"}),
    "copysign": ("copysign(x, y) * [1, 2] + copysign(x, -1)", {"x": "[-2.5, 0.75]", "y": "[0.5, -0.25]"}),
    "lerp": ("lerp(x, y, 0.3) * [1, 2] + lerp(x, y, w)", {"x": "[-2.5, 0.75]", "y": "[0.5, -0.25]", "w": "[0.2, 0.6]"}),
    "repeat": ("repeat(x, 2, 1) * [[1], [2], [3], [4]]", {"x": "[[1, 3], [0.5, -1]]"}),
    "tile": ("tile(x, [1, 2]) * [1, 2, 3, 4]", {"x": "[[1, 3], [0.5, -1]]"}),
    "expand_as": ("expand_as(x, y) * y", {"x": "[1, 3]", "y": "[[1, 3], [0.5, -1]]"}),
    "roll": ("roll(x, 1, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "flip": ("flip(x, [0]) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "fliplr": ("fliplr(x) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "flipud": ("flipud(x) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "tril": ("tril(x) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "triu": ("triu(x, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "diagonal": ("diagonal(x) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "movedim": ("movedim(x, 0, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    # the names the peers' tests use (issue 31)
    "clip": ("clip(x, -0.5, 0.5)", {"x": "[-1, 0.2, 0.9, -0.3]"}),
    "unflatten": ("unflatten(x, 0, (2, 2)) * [[1, 2], [3, 4]]", {"x": "[1, 3, 0.5, -1]"}),
    "absolute": ("absolute(x)", {"x": "[-1, 0.2, 0.9]"}),
    "multiply": ("multiply(x, y)", {"x": "[1, 3]", "y": "[0.5, -1]"}),
    "divide": ("divide(x, y)", {"x": "[1, 3]", "y": "[0.5, -1]"}),
    "true_divide": ("true_divide(x, y)", {"x": "[1, 3]", "y": "[0.5, -1]"}),
    "negative": ("negative(x) * x", {"x": "[1, 3]"}),
    "broadcast_to": ("broadcast_to(x, (2, 2)) * [[1, 2], [3, 4]]", {"x": "[1, 3]"}),
    "moveaxis": ("moveaxis(x, 0, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "swapaxes": ("swapaxes(x, 0, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "swapdims": ("swapdims(x, 1, 0) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "clamp_min": ("clamp_min(x, 0.1)", {"x": "[-1, 0.2, 0.9, -0.3]"}),
    "repeat_interleave": ("repeat_interleave(x, 2, 1) * [1, 2, 3, 4]", {"x": "[[1, 3], [0.5, -1]]"}),
    "normalize": ("normalize(x, dim=0) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "ravel": ("ravel(x.t()) * [1, 2, 3, 4]", {"x": "[[1, 3], [0.5, -1]]"}),
    "split": ("split(x, 1, 1)[1] * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "chunk": ("chunk(x, 2)[1] * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "unbind": ("unbind(x, 1)[0] * [1, 2]", {"x": "[[1, 3], [0.5, -1]]"}),
    "hstack": ("hstack([x, y]) * [1, 2, 3]", {"x": "[1, 3]", "y": "[0.5]"}),
    "vstack": ("vstack([x, y]) * [1, 2]", {"x": "[1, 3]", "y": "[0.5, 2]"}),
    "dstack": ("dstack([x, y]).sum(2) * [1, 2]", {"x": "[1, 3]", "y": "[0.5, 2]"}),
    "sort": ("sort(x, 1, descending=True).values * [1, 2, 3]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "msort": ("msort(x) * [1, 2, 3]", {"x": "[[1, 3, 2], [0.5, -1, 2.5]]"}),
    "topk": ("topk(x, 2).values * [1, 2]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "var_mean": ("var_mean(x, 1)[0] * var_mean(x, 1)[1]", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "std_mean": ("std_mean(x)[0] + std_mean(x, 0)[1].sum()", {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "einsum": ("einsum('ij,jk->ik', x, y) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]", "y": "[[2, 1], [0.5, 3]]"}),
    "tensordot": ("tensordot(x, y, 1) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]", "y": "[[2, 1], [0.5, 3]]"}),
    "bmm": ("bmm(x.unsqueeze(0), y.unsqueeze(0)) * [1, 2]", {"x": "[[1, 3], [0.5, -1]]", "y": "[[2, 1], [0.5, 3]]"}),
    "solve": ("solve(a, b) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]", "b": "[1, -1]"}),
    "slogdet": ("slogdet(a).logabsdet", {"a": "[[2, 1], [0.5, 3]]"}),
    "logdet": ("logdet(a)", {"a": "[[2, 1], [0.5, 3]]"}),
    "pinverse": ("pinverse(a) * [1, 2, 3]", {"a": "[[2, 1], [0.5, 3], [1, 1]]"}),
    "eigh": ("eigh(a + a.mT)[0] * [1, 2] + eigh(a + a.mT)[1] ** 2", {"a": "[[2, 1], [0.5, 3]]"}),
    "eigvalsh": ("eigvalsh(a + a.mT) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]"}),
    "svd": ("svd(a).S * [1, 2] + svd(a).V ** 2", {"a": "[[2, 1], [0.5, 3], [1, 1]]"}),
    "svdvals": ("svdvals(a) * [1, 2]", {"a": "[[2, 1], [0.5, 3], [1, 1]]"}),
    # the linalg functions of helper-30
    "cdist": ("cdist(a, b) * [1, 2, 3]", {"a": "[[1, 2], [3, 0.5]]", "b": "[[0, 1], [2, 2], [-1, 0.5]]"}),
    "cholesky": ("cholesky(matmul(a, a.mT) + eye(2)) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]"}),
    "linalg_cholesky": ("linalg_cholesky(matmul(a, a.mT) + eye(2)) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]"}),
    "cond": ("cond(a)", {"a": "[[2, 1], [0.5, 3]]"}),
    "cross": ("cross(a, b, dim=1) * [1, 2, 3]", {"a": "[[1, 2, 3], [0.5, -1, 2]]", "b": "[[2, 0.5, 1], [1, 1, -1]]"}),
    "linalg_cross": ("linalg_cross(a, b) * [1, 2, 3]",
                     {"a": "[[1, 2, 3], [0.5, -1, 2]]", "b": "[[2, 0.5, 1], [1, 1, -1]]"}),
    "dist": ("dist(a, b)", {"a": "[1, 2, 3]", "b": "[0.5, -1, 2]"}),
    "kron": ("kron(a, b) * [1, 2, 3, 4]", {"a": "[[2, 1], [0.5, 3]]", "b": "[[1, 2], [3, 4]]"}),
    "linalg_qr": ("(linalg_qr(a)[1] * [1, 2]).sum() + (linalg_qr(a)[0] * [1, 3]).sum()",
                  {"a": "[[2, 1], [0.5, 3], [1, 1]]"}),
    "qr": ("(qr(a)[1] * [1, 2]).sum() + (qr(a)[0] * [1, 3]).sum()", {"a": "[[2, 1], [0.5, 3], [1, 1]]"}),
    "matrix_norm": ("matrix_norm(a)", {"a": "[[2, 1], [0.5, 3]]"}),
    "matrix_power": ("matrix_power(a, 3) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]"}),
    "multi_dot": ("multi_dot([a, b, a]) * [1, 2]", {"a": "[[2, 1], [0.5, 3]]", "b": "[[1, 2], [3, 4]]"}),
    "solve_triangular": ("solve_triangular(a, b, upper=True) * [1, 2]",
                         {"a": "[[2, 1], [0, 3]]", "b": "[[1, -1], [2, 0.5]]"}),
    "vander": ("vander(x, N=3) * [1, 2, 3]", {"x": "[1, 2, 0.5]"}),
    "pad": ("pad(x, (1, 2), mode='reflect') * [1, 2, 3, 4, 5, 6] + pad(x, (1, 1)).sum()",
            {"x": "[[1, 3, 2], [0.5, -1, 2]]"}),
    "conv1d": ("conv1d(x, w, padding=1) * [1, 2, 3, 4]",
               {"x": "[[[1, 3, 2], [0.5, -1, 2]]]", "w": "[[[1, 2], [-1, 0.5]]]"}),
    "conv2d": ("conv2d(x, w, b, stride=1) * [1, 2]", {"x": "[[[[1, 3, 2], [0.5, -1, 2], [1.5, 0.25, -2]]]]",
                                                       "w": "[[[[1, 2], [-1, 0.5]]]]", "b": "[0.5]"}),
    "max_pool2d": ("max_pool2d(x, 2, stride=1) * [1, 2]", {"x": "[[[1, 3, 2], [0.5, -1, 2.5], [1.5, 0.25, -2]]]"}),
    "avg_pool2d": ("avg_pool2d(x, 2, stride=1, padding=1) * [1, 2, 3, 4]",
                   {"x": "[[[1, 3, 2], [0.5, -1, 2.5], [1.5, 0.25, -2]]]"}),
    "conv3d": ("conv3d(x, w, padding=1).sum(dim=(0, 1, 2, 3)) * [1, 2, 3, 4]",
               {"x": "randn(1, 2, 2, 1, 2)", "w": "randn(1, 2, 2, 1, 1)"}),
    "conv_transpose1d": ("conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1) * [1, 2, 3, 4, 5]",
                         {"x": "[[[1, 3, 2], [0.5, -1, 2]]]", "w": "[[[1, 2]], [[-1, 0.5]]]", "b": "[0.5]"}),
    "conv_transpose2d": ("conv_transpose2d(x, w, groups=2).sum(dim=(0, 1)) * [[1, 2, 3], [4, 5, 6]]",
                         {"x": "randn(1, 2, 1, 2)", "w": "randn(2, 1, 1, 2)"}),
    "conv_transpose3d": ("conv_transpose3d(x, w, stride=(1, 1, 2)).sum(dim=(0, 1, 2, 3)) * [1, 2, 3, 4]",
                         {"x": "randn(1, 2, 1, 1, 2)", "w": "randn(2, 1, 1, 1, 2)"}),
    "max_pool1d": ("max_pool1d(x, 2, stride=1) * [1, 2, 3]", {"x": "[[1, 3, 2, 0.5]]"}),
    "avg_pool1d": ("avg_pool1d(x, 3, stride=1, padding=1) * [1, 2, 3, 4]", {"x": "[[1, 3, 2, 0.5]]"}),
    "atleast_1d": ("atleast_1d(x.sum()) * 2", {"x": "[1, 3]"}),
    "atleast_2d": ("atleast_2d(x) * [1, 2]", {"x": "[1, 3]"}),
    "atleast_3d": ("atleast_3d(x).sum(0) * [1, 2]", {"x": "[1, 3]"}),
    "vector_norm": ("vector_norm(x, ord=3) + torch.linalg.norm(x[0], 1) + norm(x, 1.5)",
                    {"x": "[[1, 3], [0.5, -1]]"}),
    "trace": ("trace(a)", {"a": "[[1, 2], [3, 4]]"}), "det": ("det(a)", {"a": "[[1, 2], [3, 4]]"}),
    "nuclear_norm": ("nuclear_norm(a)", {"a": "[[1, 2], [3, 4.5]]"}),
    "index_add": ("x.index_add(0, tensor([1, 1]).long(), y * 2, alpha=0.5) * [[1, 2], [3, 4]]",
                  {"x": "[[1, 2], [3, 4]]", "y": "[[0.5, -1], [2, 3]]"}),
    "inverse": ("inverse(a)", {"a": "[[1, 2], [3, 4]]"}),
    "outer": ("outer(v, w)", {"v": "[1, 2]", "w": "[0.5, -1, 3]"}),
    "diag": ("diag(v).sum() * 2 + diag(a).sum()", {"v": "[1, 2]", "a": "[[1, 2], [3, 4]]"}),
    "stack": ("stack([x**2 * y, 5 * x + sin(y)])", {"x": "[1, 2]", "y": "[0.5, -1]"}),
    "cat": ("cat([x, y * 2], 0)", {"x": "[1, 2]", "y": "[0.5, -1]"}),
    # operators, indexing and index writes
    "operators": ("(-x + y - x * y / (y + 3) ** 2) @ (x.T @ y) + 2 / y[0, 0] + (+x).sum()",
                  {"x": "[[1, 2], [3, 4]]", "y": "[[0.5, 1], [1.5, 2]]"}),
    "indexing": ("(x[0, 1:] * 2).sum() + (x[-1, ::2] ** 2).sum() + x[..., 1].sum() + x[None, 1, 0].sum()",
                 {"x": "randn(3, 4)"}),
    "index write": ("y = x * 1; y[0, 1:] = z * 2; y[1] = w ** 2; y.exp()",
                    {"x": "randn(2, 3)", "z": "randn(2)", "w": "randn(3)"}),
    "mT": ("x.mT.sum(dim=0) * [[1, 2], [3, 4]]", {"x": "randn(2, 2, 2)"}),
    # loss functions (both arguments differentiated)
    "mse_loss": ("mse_loss(x, y) + mse_loss(x, y, reduction='none').sum()", {"x": "[0.5, -1, 2]", "y": "[1, 0, 3]"}),
    "l1_loss": ("l1_loss(x, y, reduction='sum')", {"x": "[0.5, -1, 2]", "y": "[1, 0, 3]"}),
    "binary_cross_entropy": ("binary_cross_entropy(p, y)", {"p": "[0.2, 0.7, 0.5]", "y": "[1, 0, 0.3]"}),
    "binary_cross_entropy_with_logits": ("binary_cross_entropy_with_logits(x, y, reduction='none') * [1, 2, 3]",
                                         {"x": "[0.5, -1, 2]", "y": "[1, 0, 0.3]"}),
    # torch.nn's functions (issue 28)
    "addmm": ("addmm(b, x, w, beta=0.5)", {"b": "[0.5, -1]", "x": "[[1, 2], [3, -4]]", "w": "[[0.5, 1], [-1, 2]]"}),
    "linear": ("linear(x, w, b) + linear(x[0], w).sum()", {"x": "[[1, 2], [3, -4]]", "w": "[[0.5, 1], [-1, 2]]",
                                                              "b": "[0.5, -1]"}),
    "bilinear": ("bilinear(x, y, w, b)", {"x": "[[1, 2], [3, -4]]", "y": "[[0.5, -1, 2], [1, 0.3, -0.2]]",
                                          "w": "[[[0.5, 1, -1], [-1, 2, 0.3]]]", "b": "[0.25]"}),
    "dropout": ("dropout(x, 0.5) * 3", {"x": "[0.5, -1, 2, 3]"}),
    "nll_loss": ("nll_loss(log_softmax(x, dim=1), [1, 0])", {"x": "[[0.5, -1, 2], [1, 0.3, -0.2]]"}),
    "cross_entropy": ("cross_entropy(x, [2, 0], reduction='sum')", {"x": "[[0.5, -1, 2], [1, 0.3, -0.2]]"}),
    "smooth_l1_loss": ("smooth_l1_loss(x, y, beta=0.5)", {"x": "[0.5, -1, 2]", "y": "[0.7, 0, 3.2]"}),
    "huber_loss": ("huber_loss(x, y, delta=0.5)", {"x": "[0.5, -1, 2]", "y": "[0.7, 0, 3.2]"}),
    # issue 41's functions
    "select": ("select(x, 1, 2) * [1, 2]", {"x": "[[1, 3, -2], [0.5, -1, 2]]"}),
    "narrow": ("narrow(x, 1, 1, 2) * [[1, 2], [3, 4]]", {"x": "[[1, 3, -2], [0.5, -1, 2]]"}),
    "unfold": ("unfold(x, 1, 2, 1) * [[1, 2], [3, -1]]", {"x": "[[1, 3, -2], [0.5, -1, 2]]"}),
    "masked_select": ("masked_select(x, x > 0) * [1, 2, 3, 4]", {"x": "[[1, 3, -2], [0.5, -1, 2]]"}),
    "clamp_max": ("clamp_max(x, 0.8)", {"x": "[-1, 0.2, 0.9, -0.3]"}),
    "diff": ("diff(x) * [[1, 2], [3, 4]]", {"x": "[[1, 3, -2], [0.5, -1, 2]]"}),
    "meshgrid": ("meshgrid(x, y, indexing='ij')[0] * meshgrid(x, y, indexing='xy')[1].t()",
                 {"x": "[1, 2, 3]", "y": "[0.5, -1]"}),
    "scatter_reduce": ("scatter_reduce(x, 0, tensor([1, 1, 0]).long(), y, 'amax') * [1, 2, 3]",
                       {"x": "[1, 3, -2]", "y": "[0.5, -1, 2]"}),
    "dropout1d": ("dropout1d(x, 0.5) * 3", {"x": "[[[0.5, -1], [2, 3]], [[1, 2], [-1, 0.25]]]"}),
    "dropout2d": ("dropout2d(x, 0.5) * 3", {"x": "[[[[0.5, -1], [2, 3]]], [[[1, 2], [-1, 0.25]]]]"}),
    "dropout3d": ("dropout3d(x, 0.5) * 3", {"x": "[[[[0.5, -1], [2, 3]]], [[[1, 2], [-1, 0.25]]]]"}),
    "embedding": ("embedding(tensor([2, 0, 2]).long(), w) * [[1], [2], [3]]",
                  {"w": "[[1, 3], [0.5, -1], [2, 0.25]]"}),
    "batch_norm": ("batch_norm(x, None, None, w, b, training=True) * [[1, 2, 3], [-1, 0.5, 2]]",
                   {"x": "[[1, 3, -2], [0.5, -1, 2]]", "w": "[1, 2, 0.5]", "b": "[0.1, 0.2, 0.3]"}),
    "layer_norm": ("layer_norm(x, [3], w, b) * [[1, 2, 3], [-1, 0.5, 2]]",
                   {"x": "[[1, 3, -2], [0.5, -1, 2]]", "w": "[1, 2, 0.5]", "b": "[0.1, 0.2, 0.3]"}),
    "group_norm": ("group_norm(x, 2, w, b) * [[1, 2, 3, 4], [-1, 0.5, 2, 1]]",
                   {"x": "[[1, 3, -2, 0.5], [0.5, -1, 2, 4]]", "w": "[1, 2, 0.5, 3]", "b": "[0.1, 0.2, 0.3, 0.4]"}),
}

CASES.update({
    "rsub": ("rsub(x, y, alpha=2) + rsub(x, 1.5, alpha=0.5)", {"x": "[1, 2]", "y": "[[3], [4]]"}),
    "index_put": ("index_put(x, (tensor([0, 2, 0]).long(),), y, accumulate=True) * [1, 2, 3, 4]",
                  {"x": "[1, 2, 3, 4]", "y": "[0.5, 1, 2]"}),
    # the special and pointwise functions (engine/ops/special.py, engine/ops/pointwise.py)
    **{name: (f"{name}(x) * [1, 2, 3, 4]", {"x": "[-2.5, 0.75, 1.25, 3.5]"})
       for name in ("lgamma", "digamma", "i0", "i1", "special_ndtr", "special_log_ndtr",
                    "special_erfcx")},
    **{name: (f"{name}(x) * [1, 2, 3, 4]", {"x": "[0.125, 0.25, 0.625, 0.875]"})
       for name in ("erfinv", "logit", "special_entr", "special_ndtri")},
    "polygamma": ("polygamma(2, x) * [1, 2, 3, 4]", {"x": "[-2.5, 0.75, 1.25, 3.5]"}),
    "xlogy": ("xlogy(x, y) * [1, 2] + xlogy(x, 2.5) + xlogy(3, y)", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]"}),
    "addcmul": ("addcmul(x, y, z, value=0.5) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]", "z": "[[2], [3]]"}),
    "addcdiv": ("addcdiv(x, y, z, value=-2) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]", "z": "[[2], [3]]"}),
    "nan_to_num": ("nan_to_num(x, nan=1.5) * [1, 2]", {"x": "[-2.5, 0.75]"}),
    "sgn": ("sgn(x) * x * [1, 2]", {"x": "[-2.5, 0.75]"}),
    "ldexp": ("ldexp(x, y) * [1, 2]", {"x": "[-2.5, 0.75]", "y": "[0.5, 1.5]"}),
    "float_power": ("float_power(x, y) * [1, 2] + float_power(x, 3)", {"x": "[2.5, 0.75]", "y": "[0.5, 1.5]"}),
})
# torch.nn's functions of the nn-layers work
X3 = "[[[1, 3, 2, -0.5], [0.5, -1, 2.5, 1.25], [1.5, 0.25, -2, 0.75]]]"
CASES.update({
    "adaptive_avg_pool2d": ("adaptive_avg_pool2d(x, (2, 3)) * [1, 2, 3]", {"x": X3}),
    "adaptive_max_pool2d": ("adaptive_max_pool2d(x, (2, 3)) * [1, 2, 3]", {"x": X3}),
    "adaptive_avg_pool1d": ("adaptive_avg_pool1d(x, 3) * [1, 2, 3]", {"x": "[[1, 3, 2, -0.5], [0.5, -1, 2.5, 1]]"}),
    "adaptive_max_pool1d": ("adaptive_max_pool1d(x, 3) * [1, 2, 3]", {"x": "[[1, 3, 2, -0.5], [0.5, -1, 2.5, 1]]"}),
    "threshold": ("threshold(x, 0.7, -2) * [1, 2, 3]", {"x": "[0.5, 1, -2]"}),
    "hardshrink": ("hardshrink(x, 0.7) * [1, 2, 3]", {"x": "[0.5, 1, -2]"}),
    "softshrink": ("softshrink(x, 0.7) * [1, 2, 3]", {"x": "[0.5, 1, -2]"}),
    "tanhshrink": ("tanhshrink(x) * [1, 2, 3]", {"x": "[0.5, 1, -2]"}),
    "glu": ("glu(x) * [1, 2]", {"x": "[[0.5, 1, -2, 0.25]]"}),
    "prelu": ("prelu(x, w) * [[1, 2], [3, 4]]", {"x": "[[0.5, -1], [-2, 0.25]]", "w": "[0.25, -0.5]"}),
    "cosine_similarity": ("cosine_similarity(x, y) * [1, 2]", {"x": "[[1, 3, -2], [0.5, -1, 2]]",
                                                               "y": "[[0.5, 1, 2], [1, 2, -1]]"}),
    "pairwise_distance": ("pairwise_distance(x, y) * [1, 2]", {"x": "[[1, 3, -2], [0.5, -1, 2]]",
                                                               "y": "[[0.5, 1, 2], [1, 2, -1]]"}),
    "triplet_margin_loss": ("triplet_margin_loss(x, y, z, margin=4)", {"x": "[[1, 3, -2], [0.5, -1, 2]]",
                                                                        "y": "[[0.5, 1, 2], [1, 2, -1]]",
                                                                        "z": "[[0, 1, 1], [2, 1, -2]]"}),
    "margin_ranking_loss": ("margin_ranking_loss(x, y, tensor([1.0, -1.0]), margin=2)",
                            {"x": "[1, 0.5]", "y": "[0.25, 1]"}),
    "cosine_embedding_loss": ("cosine_embedding_loss(x, y, tensor([1.0, -1.0]), margin=-0.9)",
                              {"x": "[[1, 3, -2], [0.5, -1, 2]]", "y": "[[0.5, 1, 2], [1, 2, -1]]"}),
    "kl_div": ("kl_div(x, tensor([0.2, 0.5, 0.3]), reduction='batchmean')", {"x": "[-1, -0.5, -2]"}),
    "gaussian_nll_loss": ("gaussian_nll_loss(x, y, v)", {"x": "[1, 0.5]", "y": "[0.25, 1]", "v": "[0.5, 2]"}),
    "poisson_nll_loss": ("poisson_nll_loss(x, tensor([1.0, 3.0]), full=True)", {"x": "[0.5, 1.25]"}),
    "soft_margin_loss": ("soft_margin_loss(x, tensor([1.0, -1.0, 1.0]))", {"x": "[0.5, 1, -2]"}),
    "rms_norm": ("rms_norm(x, [3], w) * [[1, 2, 3], [-1, 0.5, 2]]", {"x": "[[1, 3, -2], [0.5, -1, 2]]",
                                                                      "w": "[1, 2, 0.5]"}),
    "instance_norm": ("instance_norm(x, weight=w) * [[[1, 2, 3], [-1, 0.5, 2]]]",
                      {"x": "[[[1, 3, -2], [0.5, -1, 2]]]", "w": "[1, 2]"}),
    "pixel_shuffle": ("pixel_shuffle(x, 2) * [[1, 2], [3, 4]]", {"x": "[[[1]], [[3]], [[-2]], [[0.5]]]"}),
    "pixel_unshuffle": ("pixel_unshuffle(x, 2).sum(dim=(1, 2)) * [1, 2, 3, 4]", {"x": "[[[1, 3], [-2, 0.5]]]"}),
    "interpolate": ("interpolate(x, size=5, mode='linear') * [1, 2, 3, 4, 5]", {"x": "[[[1, 3, -2]]]"}),
    "upsample": ("upsample(x, scale_factor=2) * [1, 2, 3, 4, 5, 6]", {"x": "[[[1, 3, -2]]]"}),
    "scaled_dot_product_attention": ("scaled_dot_product_attention(q, k, v) * [1, 2]",
                                     {"q": "[[1, 0.5], [-1, 2]]", "k": "[[0.5, 1], [2, -1], [1, 1]]",
                                      "v": "[[1, 2], [0.5, -1], [3, 1]]"}),
    "baddbmm": ("baddbmm(x, a, b, beta=0.5, alpha=2) * [1, 2]", {"x": "[[1, 2], [3, 4]]", "a": "[[[1, 3], [-2, 1]]]",
                                                                "b": "[[[0.5, 1], [2, -1]]]"}),
})
# Built-ins without a derivative (PyTorch's NotImplemented node): a gradient check has nothing to check
NOT_DIFFERENTIABLE = {"floor_divide"}

# `to` changes dtype: its float32 leg rounds the perturbations, so it gets a larger step.
CASES_WITH_OPTIONS = {"to": ("to(x, 'float32') * 2", {"x": "[0.5, 1.25]"}, {"eps": 1e-2})}


def test_every_differentiable_builtin_has_a_case():
    differentiable = {name for name, b in BUILTINS.items() if b.ops}
    assert differentiable - set(CASES) - set(CASES_WITH_OPTIONS) - NOT_DIFFERENTIABLE == set()


@pytest.mark.parametrize("name", [*CASES, *CASES_WITH_OPTIONS])
def test_gradcheck_passes_for_builtin(name):
    if name in CASES:
        (program, values), options = CASES[name], {}
    else:
        program, values, options = CASES_WITH_OPTIONS[name]
    report = gradcheck(GradcheckRequest(program, variables(**values), seed=0, **options))
    failures = [(leaf.name, leaf.max_abs_error, leaf.autograd, leaf.numerical) for leaf in report.leaves
                if not leaf.ok]
    assert report.ok, failures
    assert report.root_dtype == ("float32" if name == "to" else "float64")


def test_gradcheck_methods():
    scalar = gradcheck(GradcheckRequest("(x * x).sum()", variables(x="[1, 2, 3]")))
    assert (scalar.method, scalar.root_shape, scalar.evaluations) == ("gradient", (), 7)
    small = gradcheck(GradcheckRequest("x * x", variables(x="[1, 2, 3]")))
    assert (small.method, small.root_shape) == ("jacobian", (3,))
    assert small.leaves[0].output is not None
    large = gradcheck(GradcheckRequest("x.exp()", variables(x="randn(40)"), seed=0))
    assert (large.method, large.root_shape) == ("projection", (40,))
    assert large.ok and large.leaves[0].output is None


def test_gradcheck_catches_a_wrong_formula(monkeypatch):
    monkeypatch.setattr(NumpyMath, "cos", staticmethod(np.sin))  # SinBackward0: grad * cos(self)
    report = gradcheck(GradcheckRequest("sin(x)", variables(x="[0.5, 1]")))
    (leaf,) = report.leaves
    assert not report.ok
    assert leaf.index == (0,) and leaf.output == (0,)
    assert leaf.autograd == pytest.approx(math.sin(0.5))
    assert leaf.numerical == pytest.approx(math.cos(0.5), rel=1e-8)


def test_gradcheck_sees_through_detach():
    # autograd treats x.detach() as a constant, finite differences do not: gradcheck says so, as PyTorch's does
    assert not gradcheck(GradcheckRequest("x.detach() * x", variables(x="1.5"))).ok


def test_gradcheck_reseeds_random_numbers_in_the_program():
    assert gradcheck(GradcheckRequest("(x * randn(3)).sum()", variables(x="[1, 2, 3]"))).ok


def test_gradcheck_limit_and_options():
    with pytest.raises(LimitError, match="would perturb 12 elements"):
        gradcheck(GradcheckRequest("x.sum()", variables(x="ones(3, 4)"), max_perturbations=11))
    with pytest.raises(UsageError, match=r"^eps must be a positive number, got 0$") as error:
        gradcheck(GradcheckRequest("x.sum()", variables(x="1"), eps=0))
    assert error.value.fields == ("eps",)
    with pytest.raises(UsageError, match="at least one variable"):
        gradcheck(GradcheckRequest("2", []))


def test_gradcheck_leaves_the_default_dtype_alone():
    engine.set_default_dtype("float32")
    gradcheck(GradcheckRequest("x * 2", variables(x="1")))
    assert engine.get_default_dtype() == np.float32
