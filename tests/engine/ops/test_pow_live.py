"""x ** n for the exponents PyTorch's CPU kernel computes by multiplication (PowKernel.cpp): the same bits as
PyTorch's, small arrays and arrays large enough to be split over the cores (kernels/parallel.py), float32 and
float64; skipped when torch is not installed."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.kernels import parallel

torch = pytest.importorskip("torch")

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -3.0, 2.5, 1e30, -1e-30]


def _values(dtype: type, size: int) -> np.ndarray:
    rng = np.random.default_rng(size)
    scale = rng.choice([1e-3, 1.0, 1e3, 1e15, 1e-20], size)
    x = (rng.standard_normal(size) * scale).astype(dtype)
    x[:len(SPECIAL)] = SPECIAL
    return x


def _bits(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a).tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", [1000, parallel.CHEAP_THRESHOLD + 1000])
@pytest.mark.parametrize("exponent", [2, 3, -1, -2, -0.5, 2.0, 3.0])
def test_power_by_multiplication_gives_torchs_bits(dtype: type, size: int, exponent: float) -> None:
    x = _values(dtype, size)
    g = _values(dtype, size)[::-1].copy()
    mine = E.tensor(x, requires_grad=True)
    theirs = torch.tensor(x, requires_grad=True)
    with np.errstate(all="ignore"):
        y = mine ** exponent
        y.backward(E.tensor(g))
    expected = theirs ** exponent
    expected.backward(torch.tensor(g))
    assert y.grad_fn.name() == expected.grad_fn.name() == "PowBackward0"
    assert _bits(y.detach().numpy()) == _bits(expected.detach().numpy())
    if exponent in (2, 3, -1):  # the gradient's exponent - 1 is again one of the multiplied ones (or 0)
        assert _bits(mine.grad.numpy()) == _bits(theirs.grad.numpy())
    else:  # x ** (exponent - 1) is a general power there (PyTorch's may round in steps): close where moderate
        moderate = (np.abs(x) > 1e-6) & (np.abs(x) < 1e6) & (np.abs(g) > 1e-6) & (np.abs(g) < 1e6)
        np.testing.assert_allclose(mine.grad.numpy()[moderate], theirs.grad.numpy()[moderate],
                                   rtol=8 * np.finfo(dtype).eps)


@pytest.mark.parametrize("exponent", [2, 3])
def test_a_cube_and_a_square_split_and_unsplit_agree(exponent: int, monkeypatch: pytest.MonkeyPatch) -> None:
    x = _values(np.float32, parallel.CHEAP_THRESHOLD + 1000)
    with np.errstate(all="ignore"):
        split = (E.tensor(x) ** exponent).numpy()
        monkeypatch.setattr(parallel, "_WORKERS", 1)
        monkeypatch.setattr(parallel, "CHEAP_THRESHOLD", 1 << 40)
        whole = (E.tensor(x) ** exponent).numpy()
        expected = x * x if exponent == 2 else x * x * x
    assert _bits(split) == _bits(whole) == _bits(expected)
