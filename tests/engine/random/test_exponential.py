"""Tensor.exponential_ (engine/random/distributions.py): PyTorch's CPU numbers bit for bit. The golden cases
(exponential-seed*) run without torch in test_generator.py; here a sweep against torch itself, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import AutogradError, BadValueError


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_exponential_is_torchs_for_many_seeds_sizes_and_rates(dtype):
    torch = pytest.importorskip("torch")
    for seed in (0, 3, 2**40 + 7):
        for n in (0, 1, 2, 7, 16, 33, 1000):
            for rate in (1.0, 3.0, 0.7, 1e-3, 1e6, float("inf")):
                torch.manual_seed(seed)
                E.manual_seed(seed)
                expected = torch.empty(n, dtype=getattr(torch, dtype)).exponential_(rate).numpy()
                got = np.array(E.zeros(n, dtype=dtype).exponential_(rate).numpy())
                assert got.dtype == expected.dtype and np.array_equal(got, expected), (seed, n, rate)
                assert np.array_equal(np.array(E.rand(3).numpy()), torch.rand(3).numpy())  # the same words used


def test_exponential_of_a_view_writes_in_memory_order():
    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    E.manual_seed(1)
    t, e = torch.zeros(3, 4), E.zeros(3, 4)
    t.t()[1:].exponential_()
    e.t()[1:].exponential_()
    assert np.array_equal(np.array(e.numpy()), t.numpy())


def test_exponential_is_positive_and_near_its_mean_without_torch():
    E.manual_seed(0)
    x = np.array(E.zeros(20000, dtype="float64").exponential_(4.0).numpy())
    assert x.min() >= 0 and abs(x.mean() - 0.25) < 0.01


@pytest.mark.parametrize(("call", "error", "text"), [
    (lambda: E.zeros(2).exponential_(0.0), BadValueError, "exponential_ expects lambda > 0.0, but found lambda=0"),
    (lambda: E.zeros(2).exponential_(-1), BadValueError, "found lambda=-1"),
    (lambda: E.zeros(2).exponential_(float("nan")), BadValueError, "found lambda=nan"),
    (lambda: E.zeros(2, dtype="int64").exponential_(), BadValueError, "dtype must be a floating point"),
    (lambda: E.zeros(2, requires_grad=True).exponential_(), AutogradError, "leaf"),
])
def test_exponential_errors(call, error, text):
    with pytest.raises(error) as caught:
        call()
    assert text in str(caught.value)
