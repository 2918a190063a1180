"""Large arrays take the multi-core path (engine/kernels.py): same numbers, plain arrays outside."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine import kernels

pytestmark = pytest.mark.skipif(kernels.CORES < 2, reason="one core: the split path is never taken")
N = kernels.THRESHOLD * 2 + 3  # odd, so the slices are uneven


@pytest.fixture
def rng():
    return np.random.default_rng(5)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.true_divide, np.power, np.maximum,
                                   np.minimum])
@pytest.mark.parametrize("shapes", [((N,), (N,)), ((N // 64, 64), (64,)), ((N // 64, 64), (N // 64, 1)),
                                    ((N,), ())])
def test_binary_ufuncs_match_numpy(ufunc, shapes, rng):
    a = rng.uniform(0.5, 2, shapes[0]).astype(np.float32)
    b = rng.uniform(0.5, 2, shapes[1]).astype(np.float32)
    got = ufunc(kernels.wrap(a), b)
    assert type(got) is kernels.Parallel
    assert got.base is None  # the result owns its memory, so backward may accumulate into it in place
    np.testing.assert_array_equal(got.view(np.ndarray), ufunc(a, b))


@pytest.mark.parametrize("ufunc", [np.negative, np.exp, np.log, np.sin, np.cos, np.tan, np.tanh, np.sqrt,
                                   np.absolute, np.sign, np.square, np.reciprocal])
def test_unary_ufuncs_match_numpy(ufunc, rng):
    a = rng.standard_normal(N)
    with np.errstate(all="ignore"):
        expected = ufunc(a)
    np.testing.assert_array_equal(ufunc(kernels.wrap(a)).view(np.ndarray), expected)


def test_out_argument_and_no_warnings(rng, recwarn):
    a = rng.standard_normal(N).astype(np.float32)
    a[:10] = 0
    buffer = np.ones(N, dtype=np.float32)
    result = np.add(buffer, kernels.wrap(a), out=buffer)
    assert result is buffer
    np.testing.assert_array_equal(buffer, 1 + a)
    logs = np.log(kernels.wrap(a))  # log(0) = -inf, silently, as PyTorch
    assert np.isneginf(logs[:10]).all()
    assert not [w for w in recwarn.list if issubclass(w.category, RuntimeWarning)]


def test_small_arrays_and_other_ufuncs_are_left_alone(rng):
    small = rng.standard_normal(10)
    assert kernels.wrap(small) is small
    big = kernels.wrap(rng.standard_normal(N))
    mask = np.greater(big, 0)  # not split: a bool result
    assert mask.dtype == bool
    assert float(np.sum(big)) == pytest.approx(float(np.sum(big.view(np.ndarray))))


def test_the_engine_gives_users_plain_arrays_and_exact_gradients(rng):
    values = rng.standard_normal(N).astype(np.float64)
    x = E.tensor(values, requires_grad=True)
    y = (E.sin(x) * E.exp(-x * x) + E.tanh(x) * x).sum()
    y.backward()
    assert type(x.grad.data) is np.ndarray and type(y.data) is np.ndarray
    assert x.grad.data.flags.writeable
    expected = (np.cos(values) * np.exp(-values * values) - 2 * values * np.sin(values) * np.exp(-values * values)
                + (1 - np.tanh(values) ** 2) * values + np.tanh(values))
    np.testing.assert_allclose(x.grad.data, expected, rtol=1e-12, atol=1e-12)
    again = E.tensor(values, requires_grad=True)
    (again * 2).sum().backward()
    (again * 3).sum().backward()  # accumulates into the existing .grad in place
    np.testing.assert_array_equal(again.grad.data, np.full(N, 5.0))
