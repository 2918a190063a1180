"""jsonout.shortest: one number (the fast path a batch line takes) written exactly as the vectorised path writes
it inside an array, for every kind of float32 (random bit patterns, decimals, the range's edges)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.cli.output import jsonout

EDGES = [0.1, 1e-14, 1e-15, 9.999999e-15, 1e22, 1e23, 9.9999e22, 1.0, 10.0, 100.0, 1000.0, 0.5, -0.0, 0.0, np.inf,
         -np.inf, np.nan, 3.4028235e38, -3.4028235e38, 1e-45, 1.17549435e-38, 16777216.0, 16777217.0, 0.745, 7.763]


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))) and np.all(np.signbit(a) == np.signbit(b)))


def _vectorised(values: np.ndarray) -> np.ndarray:
    """shortest over an array of two or more elements (the vectorised steps), padded with a 1 if needed."""
    return jsonout.shortest(np.concatenate([values, np.float32([1.0])]))[:-1]


def test_one_number_is_written_as_in_an_array() -> None:
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2**32, size=200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    decimals = np.round(rng.uniform(-100, 100, 50_000), 3).astype(np.float32)
    values = np.concatenate([np.float32(EDGES), bits, decimals])
    one = np.array([jsonout.shortest_one(float(v)) for v in values])
    assert _same(one, _vectorised(values))


@settings(max_examples=500, deadline=None)
@given(st.floats(width=32))
def test_one_number_property(value: float) -> None:
    array = np.float32([value])
    assert _same(jsonout.shortest(array[0]).reshape(1), _vectorised(array))
