"""Sums added in PyTorch's order (engine/kernels/summation.py): bit for bit equal to PyTorch's, from the golden file
(tests/make_summation_golden.py) and, where torch is installed, on random shapes, layouts and dims
(tests/cli/scripts/test_tutorial_python.py checks a float32 training loop's printed numbers)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from autodiff.engine.kernels.summation import SERIAL, SPLIT_SUM, split_sum, torch_sum

GOLDEN = json.loads((Path(__file__).parent / "golden" / "summation.json").read_text(encoding="utf-8"))
RANDOM_CASES = int(os.environ.get("AUTODIFF_SUM_CASES", "300"))


def layout(x: np.ndarray, name: str) -> np.ndarray:
    """The numpy view matching tests/make_summation_golden.py's layout()."""
    if name == "T":
        return x.transpose(tuple(reversed(range(x.ndim))))
    if name == "sliced":
        return x[..., ::2]
    if name == "expanded":
        return np.broadcast_to(x[:1], x.shape)
    return x


@pytest.mark.parametrize("case", GOLDEN, ids=lambda c: f"{c['dtype']}-{'x'.join(map(str, c['shape']))}")
def test_sums_equal_pytorchs_bit_for_bit(case):
    x = np.array([float.fromhex(v) for v in case["x"]], dtype=case["dtype"]).reshape(case["shape"])
    for name, sums in case["sums"].items():
        view = layout(x, name)
        for dims, expected in sums.items():
            dim = None if dims == "None" else json.loads(dims.replace("(", "[").replace(")", "]"))
            got = torch_sum(view, tuple(dim) if isinstance(dim, list) else dim)
            assert [float(v).hex() for v in np.asarray(got).reshape(-1).tolist()] == expected, (name, dims)


def test_the_order_is_not_numpys():
    x = np.array([1e8, 1.0, -1e8, 1.0, 3.0, 0.5, 0.25], dtype=np.float32)  # ILP: ((((x0 + x4) + x5) + x6) + x1) ...
    assert float(torch_sum(x)) == 1.0
    assert float(np.sum(x)) != 1.0


def test_keepdim_shapes_dtypes_and_the_sign_of_zero():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert torch_sum(x, (0, 2), keepdims=True).shape == (1, 3, 1)
    assert torch_sum(x, 1).dtype == np.float32
    assert np.signbit(torch_sum(np.array([-0.0, -0.0]))) == np.False_  # PyTorch's accumulator starts at +0.0
    assert torch_sum(np.arange(5)).item() == 10  # integers: numpy's sum (exact)
    assert torch_sum(np.ones(SERIAL + 1, np.float32)).item() == SERIAL + 1  # past the grain size: numpy's sum


def test_random_sums_against_pytorch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(7)
    for trial in range(RANDOM_CASES):
        ndim = int(rng.integers(1, 5))
        shape = tuple(int(v) for v in rng.integers(1, 40 if ndim < 3 else 12, ndim))
        dtype = np.float32 if trial % 3 else np.float64
        x = (rng.standard_normal(shape) * 10 ** rng.uniform(-2, 2, shape)).astype(dtype)
        perm = tuple(int(v) for v in rng.permutation(ndim))
        array, t = (x.transpose(perm), torch.from_numpy(x).permute(*perm)) if trial % 4 == 0 else \
            (x, torch.from_numpy(x))
        k = int(rng.integers(0, ndim + 1))
        dim = None if k == 0 else tuple(sorted(int(v) for v in rng.choice(ndim, k, replace=False)))
        keep = dim is not None and bool(trial % 2)
        expected = (t.sum() if dim is None else t.sum(dim=dim, keepdim=keep)).numpy()
        got = torch_sum(array, dim, keepdims=keep)
        assert got.shape == expected.shape and np.array_equal(got, expected), (shape, perm, dtype, dim, keep)


def test_linspace_is_pytorchs_to_the_last_bit():
    from autodiff import engine

    # float32: PyTorch 2.13's values
    values = engine.linspace(-3.141592653589793, 3.141592653589793, 2000).numpy(force=True)
    assert [float(v).hex() for v in values[[66, 84, 141, 1500]]] == [
        "-0x1.7792060000000p+1", "-0x1.70541e0000000p+1", "-0x1.5965620000000p+1", "0x1.92ba340000000p+0"]
    values = engine.linspace(0, 1, 100, dtype="float64").numpy(force=True)
    assert [float(v).hex() for v in values[[53, 55, 60]]] == [
        "0x1.1219dbcc48677p-1", "0x1.1c71c71c71c71p-1", "0x1.364d9364d9365p-1"]
    assert engine.linspace(2.0, 5.0, 1).numpy(force=True).tolist() == [2.0]


def test_linspace_against_pytorch():
    torch = pytest.importorskip("torch")
    from autodiff import engine

    for steps in (2, 3, 10, 17, 100, 2000, 40000):
        for start, end in ((-3.141592653589793, 3.141592653589793), (0, 1), (-3, 7.5), (1e-3, 2), (5, -5)):
            ours = engine.linspace(start, end, steps).numpy(force=True)
            assert np.array_equal(ours, torch.linspace(start, end, steps).numpy()), (start, end, steps)
            if steps <= 2048:
                ours = engine.linspace(start, end, steps, dtype="float64").numpy(force=True)
                expected = torch.linspace(start, end, steps, dtype=torch.float64).numpy()
                assert np.array_equal(ours, expected), (start, end, steps)


def _all_levels(values: np.ndarray) -> np.ndarray:
    """multi_row_sum as ATen writes it: every level added, empty ones (+0.0) included."""
    from autodiff.engine.kernels.summation import LEVELS, _ceil_log2, _chain, _sequential

    step = 1 << max(4, _ceil_log2(values.shape[-1]) // LEVELS)
    if values.shape[-1] < step:
        return _sequential(values)
    levels = []
    for _ in range(LEVELS - 1):
        full = values.shape[-1] // step
        levels.append(_sequential(values[..., full * step:]))
        values = _sequential(values[..., :full * step].reshape(*values.shape[:-1], full, step))
    levels.append(_sequential(values))
    return _chain(*levels)


@pytest.mark.parametrize("count", [16, 17, 31, 32, 33, 255, 256, 257, 300, 4096, 4097, 20000])
def test_the_cascade_leaves_out_empty_levels_with_the_same_bits(count):
    from autodiff.engine.kernels.summation import _cascade

    rng = np.random.default_rng(count)
    for dtype in (np.float32, np.float64):
        x = (rng.standard_normal((3, count)) * 10.0 ** rng.integers(-8, 8, (3, count))).astype(dtype)
        x[1, rng.random(count) < 0.5] = -0.0
        x[2] = -0.0
        got, want = _cascade(x) + dtype(0), _all_levels(x) + dtype(0)  # (torch_sum's +0.0 mends a zero's sign)
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("rows", [2, 3, 5, 16, 17, 32, 33, 100, 257, 4097])
def test_a_bias_gradient_down_the_rows_matches_the_column_order(rows):
    """grad.sum(0) of a contiguous matrix (summation._leading, down the rows) adds in _columns' order on the
    transpose, for column counts around the vector groups, with zeros of both signs."""
    from autodiff.engine.kernels.summation import ILP, VECTOR_BYTES, _columns

    rng = np.random.default_rng(rows)
    for dtype in (np.float32, np.float64):
        lanes = VECTOR_BYTES // np.dtype(dtype).itemsize
        for columns in (2, 3, ILP, lanes - 1, lanes, ILP * lanes - 1, ILP * lanes, ILP * lanes + 3, 200):
            if rows * columns > SERIAL:  # (numpy's sum there: PyTorch's threads decide the order)
                continue
            x = (rng.standard_normal((rows, columns)) * 10.0 ** rng.integers(-6, 6, (rows, columns))).astype(dtype)
            x[:, 0] = -0.0
            group = ILP * lanes if columns >= lanes else ILP
            want = _columns(x.T, columns // group * group) + dtype(0)
            assert torch_sum(x, 0).tobytes() == want.tobytes(), (columns, dtype)
            assert torch_sum(x, (0,), keepdims=True).shape == (1, columns)


def test_bias_gradients_against_pytorch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(45)
    for rows, columns in [(32, 200), (32, 27), (64, 10), (5, 9), (100, 33), (1000, 31)]:
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal((rows, columns)) * 10 ** rng.uniform(-3, 3, (rows, columns))).astype(dtype)
            assert torch_sum(x, 0).tobytes() == torch.from_numpy(x).sum(0).numpy().tobytes(), (rows, columns)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_large_sum_split_between_threads_is_numpys(dtype):
    """Past SERIAL elements the sum is numpy's: split along numpy's pairwise halving, it keeps numpy's bits."""
    rng = np.random.default_rng(9)
    specials = np.array([-0.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-45], dtype=dtype)
    for trial in range(24):
        n = int(rng.integers(SPLIT_SUM, 3 * SPLIT_SUM)) // 8 * 8
        x = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4)).astype(dtype)
        if trial % 3 == 1:
            x[rng.integers(0, n, 4)] = rng.choice(specials, 4)
        if trial % 8 == 2:
            x[:] = -0.0
        with np.errstate(all="ignore"):
            expected = np.asarray(np.sum(x))
            for got in (split_sum(x), torch_sum(x), torch_sum(x.reshape(-1, 8))):
                assert got.shape == () and got.dtype == dtype and got.tobytes() == expected.tobytes()
