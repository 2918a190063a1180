"""engine/kernels/special.py against math.lgamma (no torch needed) and PyTorch 2.13's kernels on a wide grid with
the special points: 0 and -0, the poles, +-inf, nan, subnormals, both sides of each kernel's switch (erfinv's 0.7,
digamma's 10, trigamma's 0.5, i0's 8), float64 within the suite's tolerance."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tolerance import assert_close

from autodiff.engine.kernels import special as K

GRID = np.concatenate([np.linspace(-30.25, 30.25, 243), [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, -2.5, 1e-300, 5e-324,
                                                         -5e-324, 1e-8, 0.5, 9.999999, 10.0, 10.000001, 7.999, 8.001,
                                                         171.5, 1e5, 1e17, 1e300, np.inf, -np.inf, np.nan]])
UNIT = np.concatenate([np.linspace(-1, 1, 201), [1 - 1e-12, -1 + 1e-9, 1e-300, 5e-324, 0.0, -0.0, 0.7, 0.7000001,
                                                 0.6999999, 1.5, -1.5, np.inf, np.nan]])
PROBABILITY = np.concatenate([np.linspace(0, 1, 201), np.logspace(-300, -1, 60), 1 - np.logspace(-15, -1, 30),
                              [-0.1, 1.1, np.nan]])


def test_lgamma_is_the_c_librarys():
    finite = GRID[np.isfinite(GRID)]
    expected = [math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v) for v in finite]
    assert_close(K.lgamma(finite), np.array(expected), "float64")
    assert K.lgamma(np.array([math.inf, -math.inf])).tolist() == [math.inf, math.inf]
    assert math.isnan(K.lgamma(np.array(math.nan)))


def test_digamma_special_points():
    out = K.digamma(np.array([0.0, -0.0, -1.0, -math.inf, math.inf, 1.0]))
    assert out[0] == -math.inf and out[1] == math.inf and math.isnan(out[2]) and math.isnan(out[3])
    assert out[4] == math.inf and out[5] == pytest.approx(-0.5772156649015329, rel=1e-15)
    assert K.erfinv(np.array([1.0, -1.0, 0.0])).tolist() == [math.inf, -math.inf, 0.0]
    assert K.ndtri(np.array([0.0, 1.0, 0.5])).tolist() == [-math.inf, math.inf, 0.0]


@pytest.mark.parametrize(("name", "grid"), [("lgamma", GRID), ("digamma", GRID), ("i0", GRID), ("i1", GRID),
                                            ("erfinv", UNIT), ("ndtri", PROBABILITY[PROBABILITY > 1e-300]),
                                            ("log_ndtr", GRID), ("entr", GRID), ("erfcx", GRID)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_kernel_matches_torch(name, grid, dtype):
    torch = pytest.importorskip("torch")
    with np.errstate(over="ignore"):  # (1e300 is inf in float32)
        x = grid.astype(dtype)
    theirs = getattr(torch.special, {"lgamma": "gammaln"}.get(name, name))(torch.from_numpy(x)).numpy()
    ours = getattr(K, name)(x)
    assert ours.dtype == theirs.dtype
    assert_close(ours, theirs, dtype, name)


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_polygamma_matches_torch(n):
    torch = pytest.importorskip("torch")
    grid = GRID[(GRID > -30) | ~np.isfinite(GRID)]
    assert_close(K.polygamma(n, grid), torch.polygamma(n, torch.from_numpy(grid)).numpy(), "float64", f"n={n}")
