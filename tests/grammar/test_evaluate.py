"""The evaluator: programs become engine calls with Python's precedence, every statement form, every
built-in reachable by name, method and `torch.` prefix, errors located, and random programs agreeing
with PyTorch (when it is installed)."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff import engine as E
from autodiff.engine.errors import AutodiffError
from autodiff.grammar.interpreter import Interpreter
from autodiff.grammar.syntax import parse


def run(source: str, **names):
    """Evaluate `source` with the given names bound (numbers and lists become leaves needing grad)."""
    evaluator = Interpreter()
    for name, value in names.items():
        evaluator.names[name] = value if isinstance(value, E.Tensor) else E.tensor(value, requires_grad=True)
    evaluation = evaluator.run(parse(source))
    return evaluation


def value(source: str, **names):
    root = run(source, **names).root
    return root.item() if isinstance(root, E.Tensor) else root


# ---------------------------------------------------------------------------- precedence

@pytest.mark.parametrize(("source", "expected"), [
    ("-x**2", -9.0),
    ("(-x)**2", 9.0),
    ("2**3**2", 512),
    ("2**-1", 0.5),
    ("x - 1 - 1", 1.0),
    ("x / 3 / 2", 0.5),
    ("x + 2 * x ** 2", 21.0),
    ("--x", 3.0),
    ("-+-x", 3.0),
    ("2 * x ** 2 / 3", 6.0),
    ("(x + 1) * (x - 1)", 8.0),
    ("x ** 0.5 ** 2", 3 ** 0.25),
])
def test_python_precedence_and_associativity(source, expected):
    assert value(source, x=3.0) == pytest.approx(expected)


def test_matmul_binds_like_multiplication():
    a = E.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert run("a @ a + a", a=a).root.tolist() == [[8.0, 12.0], [18.0, 26.0]]
    assert run("2 * a @ a", a=a).root.tolist() == [[14.0, 20.0], [30.0, 44.0]]


def test_numbers_stay_python_numbers_until_they_meet_a_tensor():
    assert value("2**10") == 1024
    assert isinstance(value("2**10"), int)
    assert value("1 / 4") == 0.25
    assert value("2**10**10") == math.inf  # no gigantic integer is ever built
    assert math.isnan(value("(-8) ** 0.5"))


# ---------------------------------------------------------------------------- statements and the root

def test_every_statement_form_and_the_root():
    evaluation = run("import torch\ny = x * 2; z = y + 1\nw = zeros(3)\nw[1] = z\nw", x=1.5)
    assert evaluation.root_name is None  # a bare expression, even a name, is an unnamed root (as documented)
    assert evaluation.root.tolist() == [0.0, 4.0, 0.0]
    assert evaluation.root.grad_fn.name() == "CopySlices"
    assert list(evaluation.names) == ["x", "y", "z", "w"]
    assert run("y = x * 2", x=1.0).root_name == "y"
    assert run("x * 2", x=1.0).root_name is None
    assert run("y = x * 2; import torch", x=1.0).root is None


def test_index_write_records_copy_slices_as_pytorch():
    evaluation = run("y = zeros(3, 1); y[0] = x[0]**2; y[1] = x[1]**3; y[2] = x[1]**4; y",
                     x=[[0.3725], [0.4378]])
    y = evaluation.root
    names = [n.name() if n else None for n, _ in y.grad_fn.next_functions]
    assert names == ["CopySlices", "PowBackward0"]
    y.backward(E.ones(3, 1))
    x = evaluation.names["x"].grad.numpy(force=True)
    assert x[0, 0] == pytest.approx(2 * 0.3725, rel=1e-6)
    assert x[1, 0] == pytest.approx(3 * 0.4378**2 + 4 * 0.4378**3, rel=1e-6)


def test_list_literals_are_float_tensors_and_integers_stay_sizes():
    evaluation = run("a = [1, 2]; b = ones([2, 3]); c = zeros(2, 3).sum(dim=1)")
    assert evaluation.names["a"].dtype == np.float32
    assert evaluation.names["a"].tolist() == [1.0, 2.0]
    assert tuple(evaluation.names["b"].shape) == (2, 3)
    assert tuple(evaluation.names["c"].shape) == (2,)


def test_attributes_and_methods():
    evaluation = run("y = (x * x).sum(); g = y.grad_fn; s = x.shape; t = x.T; d = x.data; r = x.requires_grad",
                     x=[[1.0, 2.0]])
    names = evaluation.names
    assert names["g"].name() == "SumBackward0"
    assert tuple(names["s"]) == (1, 2)
    assert tuple(names["t"].shape) == (2, 1)
    assert names["d"].requires_grad is False
    assert names["r"] is True


def test_layout_methods_as_pytorch():
    """x.stride(), x.is_contiguous() and x.contiguous(): a transpose's strides are swapped (PyTorch: (1, 2) for the
    transpose of a 2x2 tensor, not contiguous; contiguous() copies it, recorded as CloneBackward0)."""
    evaluation = run("y = x.t(); s = y.stride(); s1 = y.stride(1); a = y.is_contiguous(); z = y.contiguous(); "
                     "c = z.is_contiguous(); w = (z * s1).sum()", x=[[1.0, 2.0], [3.0, 4.0]])
    names = evaluation.names
    assert (tuple(names["s"]), names["s1"], names["a"], names["c"]) == ((1, 2), 2, False, True)
    assert names["z"].grad_fn.name() == "CloneBackward0" and names["w"].item() == 20.0


def test_torch_prefix_and_import_alias():
    assert value("torch.sin(x)", x=0.5) == pytest.approx(math.sin(0.5), rel=1e-6)
    assert value("import torch as T\nT.exp(x)", x=0.5) == pytest.approx(math.exp(0.5), rel=1e-6)


def test_every_builtin_is_reachable_by_name_and_as_a_method():
    methods = [name for name, b in E.BUILTINS.items() if b.method]
    for name in E.BUILTINS:
        assert run(f"f = {name}").names["f"].name == name
        assert run(f"f = torch.{name}").names["f"].name == name
    x = E.tensor([[0.5, 1.0], [1.5, 2.0]])
    for name in methods:
        assert run(f"f = x.{name}", x=x).names["f"].name == name


CALCULUS_UNARY = ["asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "log1p", "expm1",
                  "exp2", "erf", "erfc", "rsqrt", "floor", "ceil", "round", "trunc", "frac", "arcsin", "arccos",
                  "arctan", "arcsinh", "arccosh", "arctanh", "ln"]
# Issue 31's vocabulary (a separate table: the grammar's own cases above stay as they were)
VOCABULARY_CALLS = {
    "cummax": "cummax(x, 1).values",
    "cummin": "cummin(x, 0)[0]",
    "logcumsumexp": "logcumsumexp(x, 1)",
    "gather": "gather(x, 1, [[1, 0], [1, 1]])",
    "take_along_dim": "take_along_dim(x, tensor([[1], [0]]), 1)",
    "scatter": "scatter(x, 1, [[1], [0]], value=2.5)",
    "scatter_add": "scatter_add(x, 0, [[1, 0]], x[:1] * 2)",
    "index_select": "index_select(x, 0, [1, 1, 0])",
    "masked_fill": "masked_fill(x, x > 1, 0.5)",
    "round": "round(x * 3, decimals=1)",
    "leaky_relu": "leaky_relu(x - 1, 0.2)",
    "elu": "elu(x - 1)",
    "selu": "selu(x - 1)",
    "celu": "celu(x - 1, alpha=0.5)",
    "gelu": "gelu(x - 1, approximate='tanh')",
    "silu": "silu(x)",
    "mish": "mish(x)",
    "softplus": "softplus(x, beta=2)",
    "softsign": "softsign(x - 1)",
    "hardtanh": "hardtanh(x, 0.75, 1.75)",
    "relu6": "relu6(x * 4)",
    "hardsigmoid": "hardsigmoid(x * 2)",
    "hardswish": "hardswish(x * 2)",
    "logsigmoid": "logsigmoid(x)",
    "softmin": "softmin(x, dim=1)",
    "logaddexp": "logaddexp(x, x * 2)",
    "logaddexp2": "logaddexp2(x, x * 2)",
    "remainder": "remainder(x, x * 0 + 0.75)",
    "fmod": "fmod(x, 0.75)",
    "fmax": "fmax(x, x * 0 + 1)",
    "fmin": "fmin(x, x * 0 + 1)",
    "copysign": "copysign(x, -1)",
    "lerp": "lerp(x, x * 3, 0.25)",
    "sinc": "sinc(x)",
    "deg2rad": "deg2rad(x)",
    "rad2deg": "rad2deg(x)",
    "repeat": "repeat(x, 2, 1)",
    "tile": "tile(x, [1, 2])",
    "expand_as": "expand_as(x[0], x)",
    "roll": "roll(x, 1, 0)",
    "flip": "flip(x, [1])",
    "fliplr": "fliplr(x)",
    "flipud": "flipud(x)",
    "tril": "tril(x)",
    "triu": "triu(x, 1)",
    "diagonal": "diagonal(x, -1)",
    "movedim": "movedim(x, 0, -1)",
    "ravel": "ravel(x.t())",
    "split": "split(x, 1, 1)[1]",
    "chunk": "chunk(x, 2)[0]",
    "unbind": "unbind(x, 1)[0]",
    "atleast_1d": "atleast_1d(x.sum())",
    "atleast_2d": "atleast_2d(x[0])",
    "atleast_3d": "atleast_3d(x)",
    "sort": "sort(x, 0, descending=True).values",
    "msort": "msort(x.t())",
    "topk": "topk(x, 1)[0]",
    "bmm": "bmm(unsqueeze(x, 0), unsqueeze(x.t(), 0))",
    "slogdet": "slogdet(x).logabsdet",
    "logdet": "logdet(x @ x.t())",
    "pinverse": "pinverse(x)",
    "svd": "svd(x).S",
}
# The special and pointwise functions (engine/ops/special.py, engine/ops/pointwise.py)
SPECIAL_CALLS = {
    "erfinv": "erfinv(x / 4)", "lgamma": "lgamma(x)", "digamma": "digamma(x)", "i0": "i0(x)",
    "logit": "logit(x / 4, eps=0.2)", "xlogy": "xlogy(x, x * 2)", "addcmul": "addcmul(x, x, x * 2, value=0.5)",
    "addcdiv": "addcdiv(x, x, x + 1, value=-2)", "nan_to_num": "nan_to_num(log(x - 1))", "sgn": "sgn(x - 1) * x",
    "ldexp": "ldexp(x, x)", "float_power": "float_power(x, 2)",
}
BUILTIN_CALLS = {
    "add": "add(x, 2)", "sub": "sub(x, 2)", "mul": "mul(x, x)", "div": "div(x, 2)", "pow": "pow(x, 3)",
    "maximum": "maximum(x, x * 0.5)", "minimum": "minimum(x, x * 2)", "neg": "neg(x)", "exp": "exp(x)",
    "log": "log(x)", "sin": "sin(x)", "cos": "cos(x)", "tan": "tan(x)", "tanh": "tanh(x)",
    "sigmoid": "sigmoid(x)", "relu": "relu(x - 1)", "sqrt": "sqrt(x)", "abs": "abs(x - 1)", "sign": "sign(x - 1)",
    "reciprocal": "reciprocal(x)", "clone": "clone(x)", "square": "square(x)", "clamp": "clamp(x, min=0.7, max=1.6)",
    "sum": "sum(x, dim=0)", "mean": "mean(x, dim=1, keepdim=True)", "max": "max(x)", "min": "min(x, dim=0).values",
    "softmax": "softmax(x, dim=1)", "log_softmax": "log_softmax(x, dim=0)", "matmul": "matmul(x, x)",
    "mm": "mm(x, x.t())", "mv": "mv(x, x[0])", "dot": "dot(x[0], x[1])", "reshape": "reshape(x, 4)",
    "view": "view(x, 4, 1)", "flatten": "flatten(x)", "t": "t(x)", "transpose": "transpose(x, 0, 1)",
    "permute": "permute(x, 1, 0)", "unsqueeze": "unsqueeze(x, 0)", "squeeze": "squeeze(unsqueeze(x, 0))",
    "expand": "expand(x[0], 3, 2)", "to": "to(x, dtype='float64')", "detach": "detach(x) * x",
    "atan2": "atan2(x, x * 2)", "arctan2": "arctan2(x, x * 2)", "hypot": "hypot(x, x * 2)",
    **{name: f"{name}(x)" for name in CALCULUS_UNARY},
    "prod": "prod(x, dim=1)", "var": "var(x)", "std": "std(x, dim=0)", "logsumexp": "logsumexp(x, 1)",
    "amax": "amax(x)", "amin": "amin(x, 1)", "norm": "norm(x)", "cumsum": "cumsum(x, 0)", "cumprod": "cumprod(x, 1)",
    "trace": "trace(x)", "det": "det(x)", "inverse": "inverse(x)", "outer": "outer(x[0], x[1])", "diag": "diag(x)",
    "clip": "x.clip(0.7, 1.6)", "unflatten": "unflatten(x, 1, (2, 1))",
    "absolute": "absolute(x - 1)", "multiply": "multiply(x, x)", "divide": "x.divide(2)",
    "true_divide": "true_divide(x, x + 1)", "negative": "negative(x)",
    "broadcast_to": "broadcast_to(x, (3, 2, 2))", "moveaxis": "moveaxis(x, 0, 1)", "swapaxes": "x.swapaxes(0, 1)",
    "swapdims": "swapdims(x, 1, 0)",
    "clamp_min": "x.clamp_min(0.7)", "repeat_interleave": "repeat_interleave(x, 2, 1)",
    "index_add": "x.index_add(0, tensor([1, 1]).long(), x * 2, alpha=0.5)",
    "floor_divide": "x * floor_divide(x.detach(), 0.75)",  # (no derivative: its value, through a detached input)
    "index_put": "x.index_put((tensor([1, 1]).long(),), x * 2, accumulate=True)",
    "select": "select(x, 1, 0)", "narrow": "x.narrow(0, 1, 1)", "unfold": "x.unfold(1, 1, 1)",
    "masked_select": "masked_select(x, x > 1)", "clamp_max": "x.clamp_max(1.6)", "diff": "diff(x, dim=0)",
    "scatter_reduce": "scatter_reduce(x, 0, tensor([[0, 1], [1, 0]]).long(), x * 2, 'amax')",
    "hardshrink": "x.hardshrink(1.2)", "prelu": "prelu(x - 1, tensor([0.25, 0.5]))",
    "baddbmm": "baddbmm(x, x.unsqueeze(0), x.t().unsqueeze(0), beta=0.5, alpha=2)",
    "cholesky": "cholesky(matmul(x, x.mT) + eye(2))",
    "cross": "cross(x.repeat(1, 2)[:, 1:], x.repeat(1, 2)[:, :3], dim=1)",
    "dist": "dist(x, x ** 2)", "kron": "kron(x, x + 1)", "matrix_power": "matrix_power(x, 3)", "qr": "qr(x)[1]",
    **VOCABULARY_CALLS, **SPECIAL_CALLS,
}


def test_every_differentiable_builtin_through_the_grammar_matches_the_engine_api():
    for name, b in E.BUILTINS.items():
        if b.method and b.ops and name not in BUILTIN_CALLS:
            pytest.fail(f"no grammar case for the built-in {name}")
    for name, source in BUILTIN_CALLS.items():
        data = [[0.5, 1.0], [1.5, 2.0]]
        x = E.tensor(data, requires_grad=True)
        root = run(source, x=x).root
        reference = E.tensor(data, requires_grad=True)
        expected = _ENGINE_CALLS[name](reference)
        np.testing.assert_allclose(root.numpy(force=True), expected.numpy(force=True), rtol=1e-6, err_msg=name)
        assert (root.grad_fn.name() if root.grad_fn else None) == \
            (expected.grad_fn.name() if expected.grad_fn else None), name
        root.sum().backward()
        expected.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(force=True), reference.grad.numpy(force=True), rtol=1e-6, err_msg=name)


_ENGINE_CALLS = {
    "floor_divide": lambda x: x * E.floor_divide(x.detach(), 0.75),
    "index_put": lambda x: x.index_put((E.tensor([1, 1]),), x * 2, accumulate=True),
    "select": lambda x: E.select(x, 1, 0), "narrow": lambda x: E.narrow(x, 0, 1, 1),
    "unfold": lambda x: x.unfold(1, 1, 1), "masked_select": lambda x: E.masked_select(x, x > 1),
    "clamp_max": lambda x: E.clamp_max(x, 1.6), "diff": lambda x: E.diff(x, dim=0),
    "scatter_reduce": lambda x: E.scatter_reduce(x, 0, E.tensor([[0, 1], [1, 0]]).long(), x * 2, "amax"),
    "hardshrink": lambda x: E.hardshrink(x, 1.2), "prelu": lambda x: E.prelu(x - 1, E.tensor([0.25, 0.5])),
    "baddbmm": lambda x: E.baddbmm(x, x.unsqueeze(0), x.t().unsqueeze(0), beta=0.5, alpha=2),
    "add": lambda x: E.add(x, 2), "sub": lambda x: E.sub(x, 2), "mul": lambda x: E.mul(x, x),
    "div": lambda x: E.div(x, 2), "pow": lambda x: E.pow(x, 3), "maximum": lambda x: E.maximum(x, x * 0.5),
    "minimum": lambda x: E.minimum(x, x * 2), "neg": E.neg, "exp": E.exp, "log": E.log, "sin": E.sin, "cos": E.cos,
    "tan": E.tan, "tanh": E.tanh, "sigmoid": E.sigmoid, "relu": lambda x: E.relu(x - 1), "sqrt": E.sqrt,
    "abs": lambda x: E.abs(x - 1), "sign": lambda x: E.sign(x - 1), "reciprocal": E.reciprocal, "clone": E.clone,
    "square": E.square, "clamp": lambda x: E.clamp(x, min=0.7, max=1.6), "sum": lambda x: E.sum(x, dim=0),
    "mean": lambda x: E.mean(x, dim=1, keepdim=True), "max": E.max, "min": lambda x: E.min(x, dim=0).values,
    "softmax": lambda x: E.softmax(x, dim=1), "log_softmax": lambda x: E.log_softmax(x, dim=0),
    "cholesky": lambda x: E.cholesky(E.matmul(x, x.mT) + E.eye(2)),
    "cross": lambda x: E.cross(x.repeat(1, 2)[:, 1:], x.repeat(1, 2)[:, :3], dim=1),
    "dist": lambda x: E.dist(x, x ** 2), "kron": lambda x: E.kron(x, x + 1),
    "matrix_power": lambda x: E.matrix_power(x, 3), "qr": lambda x: E.qr(x)[1],
    "matmul": lambda x: E.matmul(x, x), "mm": lambda x: E.mm(x, x.t()), "mv": lambda x: E.mv(x, x[0]),
    "dot": lambda x: E.dot(x[0], x[1]), "reshape": lambda x: E.reshape(x, 4), "view": lambda x: E.view(x, 4, 1),
    "flatten": E.flatten, "t": E.t, "transpose": lambda x: E.transpose(x, 0, 1),
    "permute": lambda x: E.permute(x, 1, 0),
    "unsqueeze": lambda x: E.unsqueeze(x, 0), "squeeze": lambda x: E.squeeze(E.unsqueeze(x, 0)),
    "expand": lambda x: E.expand(x[0], 3, 2), "to": lambda x: E.to(x, "float64"),
    "detach": lambda x: E.detach(x) * x,
    "atan2": lambda x: E.atan2(x, x * 2), "arctan2": lambda x: E.arctan2(x, x * 2),
    "hypot": lambda x: E.hypot(x, x * 2), **{name: E.BUILTINS[name].fn for name in CALCULUS_UNARY},
    "prod": lambda x: E.prod(x, dim=1), "var": E.var, "std": lambda x: E.std(x, dim=0),
    "logsumexp": lambda x: E.logsumexp(x, 1), "amax": E.amax, "amin": lambda x: E.amin(x, 1), "norm": E.norm,
    "cumsum": lambda x: E.cumsum(x, 0), "cumprod": lambda x: E.cumprod(x, 1), "trace": E.trace, "det": E.det,
    "inverse": E.inverse, "outer": lambda x: E.outer(x[0], x[1]), "diag": E.diag,
    "clip": lambda x: E.clip(x, 0.7, 1.6), "unflatten": lambda x: E.unflatten(x, 1, (2, 1)),
    "absolute": lambda x: E.absolute(x - 1), "multiply": lambda x: E.multiply(x, x),
    "divide": lambda x: E.divide(x, 2), "true_divide": lambda x: E.true_divide(x, x + 1), "negative": E.negative,
    "broadcast_to": lambda x: E.broadcast_to(x, (3, 2, 2)), "moveaxis": lambda x: E.moveaxis(x, 0, 1),
    "swapaxes": lambda x: E.swapaxes(x, 0, 1), "swapdims": lambda x: E.swapdims(x, 1, 0),
    "clamp_min": lambda x: E.clamp_min(x, 0.7), "repeat_interleave": lambda x: E.repeat_interleave(x, 2, 1),
    "index_add": lambda x: E.index_add(x, 0, E.tensor([1, 1]), x * 2, alpha=0.5),
    "cummax": lambda x: E.cummax(x, 1).values,
    "cummin": lambda x: E.cummin(x, 0)[0],
    "logcumsumexp": lambda x: E.logcumsumexp(x, 1),
    "gather": lambda x: E.gather(x, 1, [[1, 0], [1, 1]]),
    "take_along_dim": lambda x: E.take_along_dim(x, E.tensor([[1], [0]]), 1),
    "scatter": lambda x: E.scatter(x, 1, [[1], [0]], value=2.5),
    "scatter_add": lambda x: E.scatter_add(x, 0, [[1, 0]], x[:1] * 2),
    "index_select": lambda x: E.index_select(x, 0, [1, 1, 0]),
    "masked_fill": lambda x: E.masked_fill(x, x > 1, 0.5),
    "round": lambda x: E.round(x * 3, decimals=1),
    "leaky_relu": lambda x: E.leaky_relu(x - 1, 0.2),
    "elu": lambda x: E.elu(x - 1),
    "selu": lambda x: E.selu(x - 1),
    "celu": lambda x: E.celu(x - 1, alpha=0.5),
    "gelu": lambda x: E.gelu(x - 1, approximate='tanh'),
    "silu": E.silu,
    "mish": E.mish,
    "softplus": lambda x: E.softplus(x, beta=2),
    "softsign": lambda x: E.softsign(x - 1),
    "hardtanh": lambda x: E.hardtanh(x, 0.75, 1.75),
    "relu6": lambda x: E.relu6(x * 4),
    "hardsigmoid": lambda x: E.hardsigmoid(x * 2),
    "hardswish": lambda x: E.hardswish(x * 2),
    "logsigmoid": E.logsigmoid,
    "softmin": lambda x: E.softmin(x, dim=1),
    "logaddexp": lambda x: E.logaddexp(x, x * 2),
    "logaddexp2": lambda x: E.logaddexp2(x, x * 2),
    "remainder": lambda x: E.remainder(x, x * 0 + 0.75),
    "fmod": lambda x: E.fmod(x, 0.75),
    "fmax": lambda x: E.fmax(x, x * 0 + 1),
    "fmin": lambda x: E.fmin(x, x * 0 + 1),
    "copysign": lambda x: E.copysign(x, -1),
    "lerp": lambda x: E.lerp(x, x * 3, 0.25),
    "sinc": E.sinc,
    "deg2rad": E.deg2rad,
    "rad2deg": E.rad2deg,
    "repeat": lambda x: E.repeat(x, 2, 1),
    "tile": lambda x: E.tile(x, [1, 2]),
    "expand_as": lambda x: E.expand_as(x[0], x),
    "roll": lambda x: E.roll(x, 1, 0),
    "flip": lambda x: E.flip(x, [1]),
    "fliplr": E.fliplr,
    "flipud": E.flipud,
    "tril": E.tril,
    "triu": lambda x: E.triu(x, 1),
    "diagonal": lambda x: E.diagonal(x, -1),
    "movedim": lambda x: E.movedim(x, 0, -1),
    "ravel": lambda x: E.ravel(x.t()),
    "split": lambda x: E.split(x, 1, 1)[1],
    "chunk": lambda x: E.chunk(x, 2)[0],
    "unbind": lambda x: E.unbind(x, 1)[0],
    "sort": lambda x: E.sort(x, 0, descending=True).values,
    "msort": lambda x: E.msort(x.t()),
    "topk": lambda x: E.topk(x, 1)[0],
    "bmm": lambda x: E.bmm(E.unsqueeze(x, 0), E.unsqueeze(x.t(), 0)),
    "slogdet": lambda x: E.slogdet(x).logabsdet,
    "logdet": lambda x: E.logdet(x @ x.t()),
    "pinverse": E.pinverse,
    "svd": lambda x: E.svd(x).S,
    "erfinv": lambda x: E.erfinv(x / 4), "lgamma": E.lgamma, "digamma": E.digamma, "i0": E.i0,
    "logit": lambda x: E.logit(x / 4, eps=0.2), "xlogy": lambda x: E.xlogy(x, x * 2),
    "addcmul": lambda x: E.addcmul(x, x, x * 2, value=0.5), "addcdiv": lambda x: E.addcdiv(x, x, x + 1, value=-2),
    "nan_to_num": lambda x: E.nan_to_num(E.log(x - 1)), "sgn": lambda x: E.sgn(x - 1) * x,
    "ldexp": lambda x: E.ldexp(x, x), "float_power": lambda x: E.float_power(x, 2),
    "atleast_1d": lambda x: E.atleast_1d(x.sum()),
    "atleast_2d": lambda x: E.atleast_2d(x[0]),
    "atleast_3d": E.atleast_3d,
}


# ---------------------------------------------------------------------------- errors

@pytest.mark.parametrize(("source", "kind", "line", "column", "words"), [
    ("y = x + q", "name", 1, 9, ["unknown name 'q'"]),
    ("y = x\nz = sine(y)", "name", 2, 5, ["did you mean 'sin'"]),
    ("a = ones(2)\nb = ones(3)\nc = a + b", "shape", 3, 5, ["(2,)", "(3,)"]),
    ("x.foo()", "name", 1, 1, ["has no attribute or method 'foo'"]),
    ("x.__class__", "name", 1, 1, ["'_'"]),
    ("__import__('os')", "name", 1, 1, ["unknown name '__import__'"]),
    ("sin(x, 3)", "value", 1, 1, ["sin()", "usage: sin(input)"]),
    ("ones(2)[5]", "value", 1, 1, ["out of bounds"]),
    ("x.grad.zero_()", "value", 1, 1, ["None"]),
    ("f(lambda x: x", "usage", 1, 3, ["'lambda' starts a lambda", "autodiff run FILE"]),
    ("[i for i in 3]", "value", 1, 13, ["not iterable"]),
])
def test_errors_have_a_kind_a_place_and_words(source, kind, line, column, words):
    with pytest.raises(AutodiffError) as caught:
        run(source, x=[1.0, 2.0])
    error = caught.value
    assert (error.kind, error.line, error.column) == (kind, line, column), error.message
    for word in words:
        assert word in error.message


def test_deep_and_long_programs_at_the_default_recursion_limit():
    assert sys.getrecursionlimit() <= 1000
    assert value("+".join(["x"] * 20_000), x=1.0) == 20_000
    assert value("(" * 400 + "x" + ")" * 400, x=2.0) == 2.0
    lines = ["y0 = x"] + [f"y{i} = y{i - 1} + 1" for i in range(1, 3000)]
    assert value("\n".join(lines), x=0.0) == 2999


# ---------------------------------------------------------------------------- random programs vs PyTorch

UNARY = ["exp", "sin", "cos", "tanh", "sigmoid", "neg", "abs", "relu"]
BINARY = ["+", "-", "*"]


@st.composite
def expressions(draw, depth=4):
    """(source text, builder(lib, leaves) -> tensor) pairs over leaves a and b."""
    if depth == 0 or draw(st.booleans()):
        choice = draw(st.sampled_from(["a", "b", "number"]))
        if choice == "number":
            number = draw(st.sampled_from([0.5, 1, 2, 3.25]))
            return str(number), lambda lib, env: number
        return choice, lambda lib, env, name=choice: env[name]
    kind = draw(st.sampled_from(["unary", "binary", "method", "pow"]))
    if kind == "unary":
        fn = draw(st.sampled_from(UNARY))
        text, build = draw(expressions(depth=depth - 1))
        return f"{fn}({text})", lambda lib, env: _as(lib, getattr(lib, fn), build(lib, env))
    if kind == "method":
        text, build = draw(expressions(depth=depth - 1))
        return f"sum({text})", lambda lib, env: _as(lib, lambda t: t.sum(), build(lib, env))
    if kind == "pow":
        text, build = draw(expressions(depth=depth - 1))
        exponent = draw(st.sampled_from([2, 3]))
        return f"({text}) ** {exponent}", lambda lib, env: _as(lib, lambda t: t ** exponent, build(lib, env))
    op = draw(st.sampled_from(BINARY))
    left, build_left = draw(expressions(depth=depth - 1))
    right, build_right = draw(expressions(depth=depth - 1))
    ops = {"+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q}
    return f"({left}) {op} ({right})", lambda lib, env: ops[op](build_left(lib, env), build_right(lib, env))


def _as(lib, fn, x):
    return fn(x if not isinstance(x, (int, float)) else lib.tensor(float(x), dtype=lib.float64))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions(), st.lists(st.floats(-2, 2), min_size=3, max_size=3),
       st.lists(st.floats(-2, 2), min_size=3, max_size=3))
def test_random_programs_agree_with_pytorch(program, a_values, b_values):
    torch = pytest.importorskip("torch")
    text, build = program
    E.set_default_dtype("float64")
    try:
        a = E.tensor(a_values, requires_grad=True)
        b = E.tensor(b_values, requires_grad=True)
        ours = run(f"out = ({text}) * 1.0", a=a, b=b).root
        if isinstance(ours, (int, float)):
            ours = E.tensor(float(ours))
    finally:
        E.set_default_dtype("float32")
    ta = torch.tensor(a_values, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(b_values, dtype=torch.float64, requires_grad=True)
    theirs = build(torch, {"a": ta, "b": tb})
    if isinstance(theirs, (int, float)):
        theirs = torch.tensor(float(theirs), dtype=torch.float64)
    theirs = theirs * 1.0
    np.testing.assert_allclose(ours.numpy(force=True), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)
    if theirs.requires_grad:
        assert ours.requires_grad
        theirs.sum().backward()
        ours.sum().backward()
        for mine, reference in ((a, ta), (b, tb)):
            expected = reference.grad.numpy() if reference.grad is not None else None
            got = mine.grad.numpy(force=True) if mine.grad is not None else None
            if expected is None:
                assert got is None or not np.any(got)
            else:
                np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["x", "y", "1", "2.5", "+", "-", "*", "/", "**", "@", "(", ")", "[", "]", ",",
                                 ":", "=", ";", "\n", "sin", "sum", ".", "dim", "None", "'s'", "ones", "[1, 2]"]),
                max_size=25))
def test_random_token_soup_raises_only_the_projects_errors(tokens):
    source = " ".join(tokens)
    try:
        run(source, x=[1.0, 2.0], y=[[1.0], [2.0]])
    except AutodiffError as error:
        assert error.kind in E.KINDS
        assert error.message


# ---------------------------------------------------------------------------- log in any base

def test_log_takes_a_base_as_python_math_log_does():
    root = run("log(x, 2)", x=8.0).root
    assert root.item() == pytest.approx(3.0) and root.grad_fn.name() == "DivBackward0"
    assert root.grad_fn.next_functions[0][0].name() == "LogBackward0"
    root.backward()
    x = root.grad_fn.next_functions[0][0].next_functions[0][0].variable
    assert x.grad.item() == pytest.approx(1 / (8 * math.log(2)))
    base = E.tensor(2.0, requires_grad=True)
    assert value("log(x, b)", x=8.0, b=base) == pytest.approx(3.0)
    assert value("log(x)", x=math.e) == pytest.approx(1.0)
    assert run("log(x)", x=2.0).root.grad_fn.name() == "LogBackward0"


@pytest.mark.parametrize("base", ["1", "0", "-2", "True"])
def test_log_refuses_a_base_without_a_logarithm(base):
    with pytest.raises(AutodiffError) as error:
        run(f"log(x, {base})", x=8.0)
    assert error.value.message == f"log(x, base): the base must be a positive number other than 1, got {base}"


def test_torch_log_stays_pytorchs_one_argument_log():
    with pytest.raises(AutodiffError, match=r"log\(\): too many positional arguments \(usage: log\(input\)\)"):
        run("torch.log(x, 2)", x=8.0)
