"""A few normal samples (randn of fewer than 16 elements, check's points around a fixed value) are drawn on
Python floats and randn's fused multiply-add by 1 is one addition (engine/random/generator.py): the same bits
as the numpy steps they replace, which are PyTorch's (test_generator.py compares those with torch)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.engine.kernels.floatmath import fma64, libm
from autodiff.engine.random import generator as G


def _numpy_steps(gen: G.Generator, n: int, mean: float, std: float) -> np.ndarray:
    """normal() for n < 16 as it was: Box-Muller on numpy arrays, then fma64(samples, std, mean)."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen.next_normal is not None:
        out[0], gen.next_normal, start = gen.next_normal, None, 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = G.unit_uniform(gen, 2 * pairs, np.dtype(np.float64))
        radius = np.sqrt(-2.0 * libm(math.log1p, -u[1::2]))
        theta = G.TWO_PI * u[0::2]
        both = np.empty(2 * pairs, np.float64)
        both[0::2], both[1::2] = radius * libm(math.cos, theta), radius * libm(math.sin, theta)
        out[start:] = both[:n - start]
        if (n - start) % 2:
            gen.next_normal = float(both[-1])
    with np.errstate(all="ignore"):
        return fma64(out, std, mean)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), sizes=st.lists(st.integers(0, 40), min_size=1, max_size=4),
       mean=st.sampled_from([0.0, -0.0, 1.5, -3.25, 1e308, -1e308]) | st.floats(allow_nan=True),
       std=st.sampled_from([1.0, 1, 2.0, 0.5, 1e300]) | st.floats(allow_nan=True))
def test_a_few_normal_samples_are_the_numpy_steps_bits(seed, sizes, mean, std):
    fast, slow = G.Generator().manual_seed(seed), G.Generator().manual_seed(seed)
    for n in sizes:  # in turn, so the cached second sample of a pair is used as before
        got = G.normal(fast, n, np.dtype(np.float64), mean, std, contiguous=False)
        want = _numpy_steps(slow, n, float(mean), float(std))
        assert got.tobytes() == want.tobytes()
        assert fast.next_normal == slow.next_normal or (fast.next_normal is None) == (slow.next_normal is None)
