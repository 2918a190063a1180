"""PyTorch computes with inf and nan without a word (inf - inf is nan, 0 * inf is nan, 1e38 * 1e38 is inf);
numpy warns (RuntimeWarning: invalid value encountered in ...). The engine shows none of numpy's warnings, in
the forward (the filter in engine/__init__.py, for numpy called from the engine's modules) or the backward
(executor.execute), and its own UserWarnings still reach the user. What a script shows is checked end to end, in a
process of its own, in tests/cli/scripts/test_run_quiet.py."""

from __future__ import annotations

import warnings

import pytest

from autodiff import engine as E
from autodiff.engine.facade import nn  # noqa: F401  (torch.nn.functional's rooms)

INF, NAN = float("inf"), float("nan")
ROW = [INF, -INF, NAN, 0.0, -1.0, 1e38, 3e9, -0.0]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # engine/__init__.py hides numpy's warnings when it is imported; pytest imports the test modules inside a
    # warnings.catch_warnings() block, which takes that back when it ends: done again here, as `autodiff run` does
    E.quiet_numpy()


def _functional():
    from autodiff.engine.facade.nn import functional

    return functional


CASES = {
    "sum": lambda x: x.sum(), "sum(1)": lambda x: x.sum(1), "mean": lambda x: x.mean(), "var": lambda x: x.var(),
    "std(1)": lambda x: x.std(1), "norm": lambda x: x.norm(), "logsumexp": lambda x: x.logsumexp(1),
    "cumsum": lambda x: x.cumsum(1), "cumprod": lambda x: x.cumprod(1), "prod": lambda x: x.prod(1),
    "sub": lambda x: x - x.flip(1), "mul": lambda x: x * 0, "square": lambda x: x * x, "div": lambda x: x / x,
    "pow": lambda x: x ** 2.5, "exp": lambda x: x.exp() * x, "log": lambda x: x.log(), "sqrt": lambda x: x.sqrt(),
    "tanh": lambda x: x.tanh(), "sigmoid": lambda x: x.sigmoid(), "softmax": lambda x: x.softmax(1),
    "log_softmax": lambda x: _functional().log_softmax(x, 1), "matmul": lambda x: x @ x.T,
    "cross_entropy": lambda x: _functional().cross_entropy(x, E.tensor([0, 1])),
    "nll_loss": lambda x: _functional().nll_loss(x, E.tensor([0, 1])),
    "mse_loss": lambda x: _functional().mse_loss(x, x.flip(1)),
    "avg_pool1d": lambda x: _functional().avg_pool1d(x.unsqueeze(0), 2),
    "layer_norm": lambda x: _functional().layer_norm(x, (8,)), "float16": lambda x: x.half() * 2,
    "to_int32": lambda x: x.to(E.int32), "clamp": lambda x: x.clamp(-1, 1), "atan2": lambda x: E.atan2(x, x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_no_numpy_warning_on_inf_and_nan(name: str, dtype: str) -> None:
    x = E.tensor([ROW, ROW[::-1]], dtype=dtype, requires_grad=True)
    with warnings.catch_warnings(record=True) as seen:  # the filters as they are, every warning recorded
        out = CASES[name](x)
        if out.requires_grad:
            out.sum().backward()
    assert [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning)] == []


def test_the_values_are_still_pytorchs() -> None:
    x = E.tensor([INF, -INF, 2.0], requires_grad=True)
    y = (x.exp() * x - x * x).sum()
    y.backward()
    assert str(y) == "tensor(nan, grad_fn=<SumBackward0>)"
    assert [str(v) for v in x.grad.tolist()[:2]] == ["nan", "nan"]
    assert x.grad.tolist()[2] == pytest.approx(18.1672, abs=1e-4)  # exp(2)*(1+2) - 2*2
    assert str(E.tensor([INF, -INF]).cumsum(0)) == "tensor([inf, nan])"


def test_the_engines_own_warnings_still_show() -> None:
    with warnings.catch_warnings(record=True) as seen:
        E.meshgrid(E.ones(2), E.ones(3))
    assert [w.category for w in seen] == [UserWarning]
