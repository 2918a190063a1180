"""app.calculus.critical.median: np.median's value without numpy.ma (which np.median imports at first use)."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from autodiff.app.calculus.critical import median


def same(a: float, b: float) -> bool:
    """Equal as floats, nan equal to nan, and the sign of a zero counted."""
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_odd_even_and_nan() -> None:
    assert median(np.array([3.0, 1.0, 2.0])) == 2.0
    assert median(np.array([4.0, 1.0, 3.0, 2.0])) == 2.5
    assert median(np.array([5.0])) == 5.0
    with np.errstate(over="ignore"):
        assert median(np.array([1e308, 1.7e308])) == math.inf  # the two middle values' sum overflows, as np.median's
    assert math.isnan(median(np.array([1.0, math.nan, 2.0])))
    assert same(median(np.array([-0.0, -0.0])), 0.0) and same(median(np.array([-0.0])), 0.0)  # np.median's 0.0
    assert median(np.array([math.inf, 1.0, 2.0, math.inf])) == math.inf


@settings(max_examples=300, deadline=None)
@given(arrays(np.float64, st.integers(1, 40), elements=st.floats(allow_nan=True, allow_infinity=True)))
def test_as_numpys_median(values: np.ndarray) -> None:
    with np.errstate(all="ignore"):
        expected = float(np.median(values))
        assert same(median(values.copy()), expected)


def test_no_numpy_ma() -> None:
    code = ("import sys, numpy as np; from autodiff.app.calculus.critical import median; "
            "median(np.arange(6.0)); print('numpy.ma' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.integers(1, 40), elements=st.floats(allow_nan=True, allow_infinity=True)))
def test_without_nans_as_numpys_nanmedian(values: np.ndarray) -> None:  # app/calculus/lagrange.py's scale
    kept = values[~np.isnan(values)]
    if kept.size:
        with np.errstate(all="ignore"):
            assert same(median(kept), float(np.nanmedian(values)))
