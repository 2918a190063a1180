"""numpy kernels of the gathering ops and of their gradients: gather/scatter along a dim with an index tensor
(PyTorch's meaning: index may be smaller than the input in every dim), and adding values into zeros at an
advanced index (the gradient of x[idx], which adds up where an index repeats)."""

from __future__ import annotations

import numpy as np


def along(index: np.ndarray, dim: int) -> tuple:
    """The numpy index that picks, for each position p of `index`, the element at p with dim replaced by
    index[p] (PyTorch's gather/scatter addressing)."""
    grids = list(np.indices(index.shape, sparse=True))
    grids[dim] = index
    return tuple(grids)


def gather(x: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    if x.ndim == 0:
        return np.broadcast_to(x, index.shape).copy()
    return x[along(index, dim)]


def scatter_add(shape: tuple[int, ...], dim: int, index: np.ndarray, src: np.ndarray) -> np.ndarray:
    """zeros(shape) with src[p] added at the position `along` gives for p (repeated positions add up)."""
    out = np.zeros(shape, dtype=src.dtype)
    if not shape:
        out[...] = np.sum(src[tuple(slice(0, n) for n in index.shape)])
        return out
    np.add.at(out, along(index, dim), src[tuple(slice(0, n) for n in index.shape)])
    return out


ROW_ELEMENTS = 64  # rows up to this many elements are added element by element (see index_put_add)


def index_put_add(shape: tuple[int, ...], where: tuple, values: np.ndarray) -> np.ndarray:
    """zeros(shape) with values added at the advanced index `where` (repeated positions add up)."""
    out = np.zeros(shape, dtype=values.dtype)
    rows = where[0] if len(where) == 1 else None
    if type(rows) is np.ndarray and rows.dtype.kind == "i" and shape and values.shape == rows.shape + shape[1:]:
        inner = out.size // shape[0] if shape[0] else 0
        if 0 < inner <= ROW_ELEMENTS:  # x[rows]'s gradient (an embedding's): numpy's add.at is about twice as fast
            # on flat element positions, and adds in the same order (each element's values in the rows' order)
            first = np.where(rows < 0, rows + shape[0], rows).reshape(-1, 1) * inner
            np.add.at(out.reshape(-1), (first + np.arange(inner)).reshape(-1), values.reshape(-1))
            return out
    np.add.at(out, where, values)
    return out


def scattered_mask(shape: tuple[int, ...], dim: int, index: np.ndarray) -> np.ndarray:
    """True at the positions a scatter along dim with `index` writes."""
    mask = np.zeros(shape, dtype=bool)
    if shape:
        mask[along(index, dim)] = True
    elif index.size:
        mask[...] = True
    return mask

