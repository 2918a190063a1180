"""Sums of floating-point tensors added in PyTorch's order, so that float32 (and float64) results agree with
PyTorch's to the last bit, not only to rounding: `(y_pred - y).pow(2).sum()` of a tutorial's training loop,
a bias's gradient (`grad.sum(0)`), `mean` (PyTorch's is the sum divided by the count).

PyTorch's CPU sum (ATen's cascade_sum, SumKernel.cpp) does not add left to right, nor pairwise as numpy
does. Its iterator puts the reduced dims first, then the others by stride, and merges dims that are
contiguous in memory; then each output element's values are added in one of these orders, by the layout:

- along a contiguous row of at least one 32-byte vector (8 float32, 4 float64): vectors are summed lane by
  lane with four accumulators (vector 4i+k into accumulator k, each a `cascade`), the leftover vectors into
  accumulator 0, the accumulators added in order; then the leftover elements are added from zero, and the
  vector's lanes after them, one by one;
- a shorter or strided row: the same with single elements (`ilp`);
- across rows (the reduced dim is not the contiguous one): each column is a `cascade` over the rows when
  it belongs to a full group of columns (4 vectors of columns when the columns are contiguous, else 4
  columns), else the `ilp` order;
- a `cascade` adds blocks of 16 values one after the other from zero, then adds the blocks' sums the same
  way in groups of 16, and groups of those, and finally adds the levels together.

Reduced dims that stay apart after merging are added one row result after the other, in the iterator's
order. Past 32,768 elements PyTorch splits a sum between threads, and its result then depends on their
number: there, and for other dtypes and negative strides, numpy's sum is used (it is also much faster than
following the order step by step in numpy operations). Checked against PyTorch by
tests/engine/kernels/test_summation.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import parallel

VECTOR_BYTES = 32  # ATen's Vectorized<float>/<double> width in its sum kernel (AVX2 and AVX512 builds alike)
ILP = 4  # accumulators in row_sum
LEVELS = 4  # levels of multi_row_sum's cascade
SERIAL = 32768  # PyTorch's grain size: larger sums are split between threads (then numpy's sum is used here)
SHORT = 64  # _sequential adds an axis this short by whole slices (numpy's accumulate beyond)


def _ceil_log2(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()


def _sequential(values: np.ndarray) -> np.ndarray:
    """values summed along the last axis one after the other (numpy's accumulate adds in order; its reduce
    would add pairwise). PyTorch's accumulators start from +0.0: the sign of a zero is mended at the end."""
    count = values.shape[-1]
    if count == 0:
        return np.zeros(values.shape[:-1], dtype=values.dtype)
    if count > SHORT or values.ndim == 1:
        return np.add.accumulate(values, axis=-1)[..., -1]
    # a short axis (a cascade's block, a bias gradient's rows): the same adds, one whole slice at a time, which
    # is several times faster than accumulate along a strided axis
    total = values[..., 0] + values[..., 1] if count > 1 else values[..., 0].copy()
    for i in range(2, count):
        total += values[..., i]
    return total


def _chain(first: np.ndarray, *more: np.ndarray) -> np.ndarray:
    """((first + more[0]) + more[1]) + ..., elementwise, each step rounded."""
    for item in more:
        first = first + item
    return first


def _cascade(values: np.ndarray) -> np.ndarray:
    """multi_row_sum along the last axis: blocks of 2**power added from zero, their sums added in groups of
    the same size at the next level (LEVELS levels, the last never emptied), the levels added at the end."""
    count = values.shape[-1]
    step = 1 << max(4, _ceil_log2(count) // LEVELS)
    if count < step:
        return _sequential(values)
    levels = []  # (an empty level's sum is +0.0, which leaves the others' sum as it is: it is not added; the
    for _ in range(LEVELS - 1):  # sign of a zero total is mended by the caller's + 0.0, as PyTorch's)
        full = values.shape[-1] // step
        if full * step < values.shape[-1]:
            levels.append(_sequential(values[..., full * step:]))  # what is left at this level
        if full == 0:
            return _chain(*levels)
        values = _sequential(values[..., :full * step].reshape(*values.shape[:-1], full, step))
    levels.append(_sequential(values))  # the last level takes every sum of the one below
    return _chain(*levels)


def _ilp(values: np.ndarray) -> np.ndarray:
    """row_sum along the last axis: element 4i+k into accumulator k (each a cascade), the leftover elements
    into accumulator 0, then the accumulators in order."""
    return _ilp_lanes(values[..., None])[..., 0]


def _ilp_lanes(vectors: np.ndarray) -> np.ndarray:
    """row_sum of vectors (the last axis holds the lanes; the one before it is summed)."""
    count = vectors.shape[-2]
    rows = count // ILP
    head = vectors[..., :rows * ILP, :].reshape(*vectors.shape[:-2], rows, ILP, vectors.shape[-1])
    first = head.ndim - 3
    partial = _cascade(head.transpose(*range(first), first + 1, first + 2, first))  # (..., ILP, lanes)
    leftover = [vectors[..., k, :] for k in range(rows * ILP, count)]
    return _chain(partial[..., 0, :], *leftover, *(partial[..., k, :] for k in range(1, ILP)))


def _vector_rows(values: np.ndarray, lanes: int) -> np.ndarray:
    """vectorized_inner_sum along the last axis (contiguous, at least one vector long)."""
    count = values.shape[-1]
    whole = count // lanes
    lane_sums = _ilp_lanes(values[..., :whole * lanes].reshape(*values.shape[:-1], whole, lanes))
    return _sequential(np.concatenate([values[..., whole * lanes:], lane_sums], axis=-1))


def _order(x: np.ndarray, out_stride: dict[int, int], dims: list[int]) -> list[int]:
    """TensorIterator's order of the dims (innermost first): its insertion sort, comparing the output's
    strides (0 for reduced dims, which go first; C order for the others), then the input's."""

    def should_swap(d0: int, d1: int) -> int:
        for strides in (out_stride, x.strides):
            s0, s1 = strides[d0], strides[d1]
            if strides is out_stride and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if x.shape[d0] > x.shape[d1]:
                return 1
        return 0

    perm = list(reversed(dims))
    for i in range(1, len(perm)):
        j = i
        for k in range(i - 1, -1, -1):
            comparison = should_swap(perm[k], perm[j])
            if comparison > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif comparison < 0:
                break
    return perm


def _plan(x: np.ndarray, reduced: set[int]) -> list[tuple[int, int, bool]] | None:
    """The iterator's dims after sorting and merging, innermost first, as (size, input stride in elements,
    reduced); None when the layout is not one this module follows (negative or unaligned strides)."""
    item = x.itemsize
    if any(s < 0 or s % item for s in x.strides):
        return None
    dims = [d for d in range(x.ndim) if x.shape[d] != 1]
    out_stride, step = {}, 1
    for d in reversed(range(x.ndim)):
        out_stride[d] = 0 if d in reduced else step
        step *= 1 if d in reduced else x.shape[d]
    merged: list[list[int]] = []  # [size, input stride, output stride]
    for d in _order(x, out_stride, dims):
        size, stride, out = x.shape[d], x.strides[d] // item, out_stride[d]
        if merged and merged[-1][1] * merged[-1][0] == stride and merged[-1][2] * merged[-1][0] == out:
            merged[-1][0] *= size
            continue
        merged.append([size, stride, out])
    return [(size, stride, out == 0) for size, stride, out in merged]


def torch_sum(x: np.ndarray, axis: int | Sequence[int] | None = None, keepdims: bool = False) -> np.ndarray:
    """np.sum(x, axis, keepdims=keepdims), its values added in PyTorch's order (see the module's text)."""
    x = np.asarray(x)
    if x.dtype not in (np.float32, np.float64) or x.size == 0 or x.ndim == 0 or x.size > SERIAL:
        if x.size >= SPLIT_SUM and axis is None and not keepdims and x.dtype.kind == "f" and x.flags.c_contiguous:
            return split_sum(x)
        kind = x.dtype if x.dtype.kind in "iuf" else None  # integers in their own dtype (sum(dtype=int32))
        # (np.add.reduce is what np.sum calls: called here, numpy's warning on inf - inf is the engine's, which
        # the engine does not show, as PyTorch does not)
        return np.asarray(np.add.reduce(x, axis=axis, dtype=kind, keepdims=keepdims))
    if axis is None and x.flags.c_contiguous:  # the common case: one contiguous row
        return _planned(x, [(x.size, 1, True)]).reshape(()) + x.dtype.type(0)
    axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, (int, np.integer)) else axis
    reduced = {int(a) % x.ndim for a in axes}
    if reduced == {0} and x.ndim == 2 and x.shape[0] > 1 and x.shape[1] > 1 and x.flags.c_contiguous:
        # a bias's gradient, grad.sum(0): _plan's columns ([(rows, columns, reduced), (columns, 1, kept)])
        result = _leading(x) + x.dtype.type(0)
        return result.reshape(1, -1) if keepdims else result
    plan = _plan(x, reduced)
    if plan is None:
        return np.asarray(np.add.reduce(x, axis=axis, keepdims=keepdims))
    kept = tuple(x.shape[d] for d in range(x.ndim) if d not in reduced)
    result = _planned(x, plan).reshape(kept) + x.dtype.type(0)  # (PyTorch's sums start from +0.0)
    if keepdims:
        result = result.reshape(tuple(1 if d in reduced else x.shape[d] for d in range(x.ndim)))
    return result


# numpy sums a contiguous float array pairwise: the sums of its two halves (the first n // 2 rounded down to a
# multiple of 8 elements) added, each the same way down to blocks of 128. Its halves' halves are independent
# sums, which the threads compute (numpy's reduction releases the GIL) and which are then added as numpy adds
# them: the same result, bit for bit (a nan's sign and payload aside: the order of a nan's operands is the C
# compiler's, so a nan is computed again in one piece).
SPLIT_SUM = 1 << 20  # elements from which a whole sum is split between the threads
SPLIT_LEVELS = 3  # levels of numpy's pairwise halving that the split follows (8 parts, taken in turn)


def split_sum(x: np.ndarray) -> np.ndarray:
    """np.sum(x) of a C-contiguous float array, computed by the threads in parts of numpy's own pairwise order."""
    flat = x.reshape(-1)
    parts = [(0, flat.size)]
    for _ in range(SPLIT_LEVELS):
        halves = []
        for lo, hi in parts:
            half = (hi - lo) // 2
            half -= half % 8
            halves += [(lo, lo + half), (lo + half, hi)]
        parts = halves
    sums = np.empty(len(parts), dtype=x.dtype)

    def add_parts(out: np.ndarray, inputs: list, first: int, last: int) -> None:
        for i in range(first, last):
            lo, hi = parts[i]
            out[i] = np.add.reduce(flat[lo:hi])

    parallel.run(add_parts, sums, [], 1)
    values = list(sums)  # numpy scalars: each addition below rounds in x's dtype
    while len(values) > 1:
        values = [values[i] + values[i + 1] for i in range(0, len(values), 2)]
    if values[0] != values[0]:  # a nan
        return np.asarray(np.add.reduce(flat))
    return np.asarray(values[0])


def _planned(x: np.ndarray, plan: list[tuple[int, int, bool]]) -> np.ndarray:
    """The sum by the plan: the kept dims come out outermost first (the output's C order). The caller adds
    +0.0 (PyTorch's accumulators start there)."""
    if not plan:
        return x.reshape(-1)[:1].reshape(())
    count = sum(1 for _, _, is_reduced in plan if is_reduced)
    if count == 0:  # only size-1 dims reduced
        return x
    if len(plan) == 1:
        plan = [*plan, (1, 0, False)]  # the iterator's loop is 2-D: a second dim of one element
    if plan == [(x.size, 1, True), (1, 0, False)]:  # one contiguous run of memory
        view = x.ravel(order="K").reshape(1, x.size)
    else:
        view = np.lib.stride_tricks.as_strided(x, shape=tuple(size for size, _, _ in reversed(plan)),
                                               strides=tuple(stride * x.itemsize for _, stride, _ in reversed(plan)),
                                               writeable=False)  # axes: outermost dim first, ..., dim 1, dim 0
    lanes = VECTOR_BYTES // x.itemsize
    (size0, stride0, _), (size1, stride1, _) = plan[0], plan[1]
    if stride0 == 1 and size0 >= lanes:  # contiguous rows
        rows = _vector_rows(view, lanes)
    elif stride1 == 1 and size1 >= lanes:  # contiguous columns: those in full groups of 4 vectors cascade
        rows = _columns(view, (size1 // (ILP * lanes)) * ILP * lanes)
    elif stride0 < stride1:  # strided rows
        rows = _ilp(view)
    else:  # strided columns: those in full groups of 4 cascade
        rows = _columns(view, (size1 // ILP) * ILP)
    if count == 1:
        return rows
    # reduced dims left apart: each row's sum is added to the output in the iterator's order (dim 1 first)
    return _sequential(rows.reshape(*rows.shape[:rows.ndim - (count - 1)], -1))


def _columns(view: np.ndarray, cascaded: int) -> np.ndarray:
    """Sums along the last axis (the rows) for each column (the axis before it): the first `cascaded`
    columns by a cascade, the others in the ilp order."""
    first = _cascade(view[..., :cascaded, :])
    rest = _ilp(view[..., cascaded:, :])
    return np.concatenate([first, rest], axis=-1)


# ---------------------------------------------------------------------------- down the rows of a matrix
# The column orders of _columns for a C-contiguous matrix, computed down its rows (axis 0), so that every add
# is one contiguous run of a row: a bias's gradient in a few dozen short numpy calls.
def _leading(x: np.ndarray) -> np.ndarray:
    """_columns(x.T, ...) of a C-contiguous matrix: full groups of columns by a cascade, the rest by ilp."""
    columns = x.shape[1]
    lanes = VECTOR_BYTES // x.itemsize
    group = ILP * lanes if columns >= lanes else ILP
    cascaded = columns // group * group
    if cascaded == columns:
        return _cascade0(x)
    if cascaded == 0:
        return _ilp0(x)
    return np.concatenate([_cascade0(x[:, :cascaded]), _ilp0(x[:, cascaded:])])


def _sequential0(values: np.ndarray) -> np.ndarray:
    """_sequential along axis 0: ((v[0] + v[1]) + v[2]) + ..."""
    count = values.shape[0]
    if count < 2:
        return values[0].copy() if count else np.zeros(values.shape[1:], dtype=values.dtype)
    if not values.flags.c_contiguous:
        values = np.ascontiguousarray(values)
    total = values[0] + values[1]
    for i in range(2, count):
        np.add(total, values[i], out=total)
    return total


def _cascade0(values: np.ndarray) -> np.ndarray:
    """_cascade along axis 0."""
    count = values.shape[0]
    step = 1 << max(4, _ceil_log2(count) // LEVELS)
    if count < step:
        return _sequential0(values)
    levels = []
    for _ in range(LEVELS - 1):
        full = values.shape[0] // step
        if full * step < values.shape[0]:
            levels.append(_sequential0(values[full * step:]))
        if full == 0:
            return _chain(*levels)
        blocks = values[:full * step].reshape(full, step, *values.shape[1:])
        values = _sequential0(np.swapaxes(blocks, 0, 1))  # each block's sum
    levels.append(_sequential0(values))
    return _chain(*levels)


def _ilp0(values: np.ndarray) -> np.ndarray:
    """_ilp along axis 0: row 4i+k into accumulator k (each a cascade), the leftover rows into accumulator 0."""
    count = values.shape[0]
    rows = count // ILP
    partial = _cascade0(values[:rows * ILP].reshape(rows, ILP, *values.shape[1:]))
    leftover = [values[k] for k in range(rows * ILP, count)]
    return _chain(partial[0], *leftover, *(partial[k] for k in range(1, ILP)))


__all__ = ["torch_sum"]
