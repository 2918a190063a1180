"""The gradient of x[rows] (kernels/gather_scatter.py's index_put_add): rows of up to ROW_ELEMENTS elements are
added element by element at flat positions, which must give numpy's add.at's bits (the same adds, in the rows'
order, where an index repeats)."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff.engine.kernels.gather_scatter import ROW_ELEMENTS, index_put_add


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rows_added_at_flat_positions_equal_add_at(dtype):
    rng = np.random.default_rng(45)
    for trial in range(500):
        count = int(rng.integers(1, 40))
        tail = tuple(int(v) for v in rng.integers(1, 9, rng.integers(0, 3)))
        index = rng.integers(-count, count, tuple(int(v) for v in rng.integers(1, 6, rng.integers(1, 3))))
        shape = index.shape + tail
        values = (rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 8, shape)).astype(dtype)
        if trial % 3 == 0:
            values[..., :1] = -0.0
        want = np.zeros((count, *tail), dtype)
        np.add.at(want, (index,), values)
        got = index_put_add((count, *tail), (index,), values)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (count, tail, index.shape)


def test_long_rows_and_other_indices_take_add_at_itself():
    values = np.arange(2 * (ROW_ELEMENTS + 1), dtype=np.float32).reshape(2, ROW_ELEMENTS + 1)
    got = index_put_add((3, ROW_ELEMENTS + 1), (np.array([2, 2]),), values)
    assert np.array_equal(got[2], values.sum(0)) and not got[:2].any()
    mask = np.array([True, False, True])
    assert np.array_equal(index_put_add((3,), (mask,), np.array([1.0, 2.0])), [1.0, 0.0, 2.0])
