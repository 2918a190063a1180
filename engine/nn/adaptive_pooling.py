"""Adaptive pooling (torch.nn.functional): adaptive_avg_pool2d (AdaptiveAvgPool2DBackward0; an output of 1 x 1 is
the mean over the last two dims, MeanBackward1, as PyTorch computes it) and adaptive_max_pool2d
(AdaptiveMaxPool2DBackward0), and their 1-D forms as PyTorch records them: unsqueeze(-2), the 2-D pool,
squeeze(-2).

Output position i of a dim of size n pooled to m takes the bin [floor(i n / m), ceil((i + 1) n / m)): bins of
uneven sizes that may overlap. An average is the bin's sum over its size; its gradient spreads back over the bin
(sums where bins overlap). A max takes the bin's first largest element (the last nan) and gives the gradient back
there."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import CONVOLUTION as GROUP
from ..core.optable import LINEAR_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..ops.reductions import mean
from ..ops.shapes import squeeze, unsqueeze


def bins(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the m bins of a dim of size n: PyTorch's start_index and end_index."""
    i = np.arange(m)
    return (i * n) // m, -((-(i + 1) * n) // m)


def _membership(n: int, m: int, dtype: np.dtype) -> np.ndarray:
    """(m, n): 1 where input position j is in output bin i."""
    starts, ends = bins(n, m)
    j = np.arange(n)
    return ((j >= starts[:, None]) & (j < ends[:, None])).astype(dtype)


def _adaptive_avg(x: np.ndarray, *, rows: np.ndarray, cols: np.ndarray, divisor: np.ndarray) -> np.ndarray:
    summed = np.matmul(np.matmul(rows, x), cols.T)
    return np.ascontiguousarray(summed / divisor, dtype=x.dtype)


def _adaptive_avg_grad(F: Any, g: Any, s: Any) -> Any:
    """rows.T @ (grad / divisor) @ cols: each output's gradient over its bin's size, spread over the bin."""
    # reads self (for its shape): PyTorch's adaptive_avg_pool2d backward saves the input
    return F.reshape(F.matmul(F.matmul(s.rows.T, g / s.divisor), s.cols), tuple(s.self.shape))


ADAPTIVE_AVG_POOL2D = declare(Op(
    "adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", ("self",), _adaptive_avg,
    (Grad(_adaptive_avg_grad, "grad / bin size added over each output's bin"),),
    "the mean of each adaptive bin", group=GROUP, jvp=LINEAR_JVP))


def _taken(x: np.ndarray, *, where: tuple, **_: Any) -> np.ndarray:
    return np.ascontiguousarray(x[where])


def _adaptive_max_grad(F: Any, g: Any, s: Any) -> Any:
    # reads self (for its shape): PyTorch's adaptive_max_pool2d backward saves the input and the indices
    return F.index_put_add(tuple(s.self.shape), s.where, g)


ADAPTIVE_MAX_POOL2D = declare(Op(
    "adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", ("self",), _taken,
    (Grad(_adaptive_max_grad, "grad added at each bin's largest element (indices)"),),
    "the largest element of each adaptive bin", group=GROUP, saved=("where",), jvp=LINEAR_JVP))


def _output_size(output_size: Any, x: Tensor, d: int, function: str) -> tuple[int, ...]:
    """The output size of each pooled dim (None: the input's)."""
    items = tuple(output_size) if isinstance(output_size, (list, tuple)) else (output_size,) * d
    if d == 1 and len(items) != 1:
        raise BadValueError(f"{function}() argument 'output_size' should contain one int (got {len(items)})",
                            reason="arguments")
    if len(items) != d:
        raise BadValueError(f"{function}: output_size must be {d}", reason="arguments")
    sizes = x._data.shape[-d:]
    out = []
    for item, n in zip(items, sizes):
        if item is None:
            out.append(int(n))
        elif isinstance(item, bool) or not isinstance(item, (int, np.integer)) or item < 0:
            raise BadValueError(f"{function}(): elements of output_size must be non-negative ints, got "
                                f"{output_size!r}", reason="arguments")
        else:
            out.append(int(item))
    return tuple(out)


def _checked_2d(input: Any, output_size: Any, function: str) -> tuple[Tensor, tuple[int, ...]]:
    x = tensor_arg(input)
    if x.ndim not in (3, 4):
        colon = ":" if function == "adaptive_max_pool2d" else ""
        raise ShapeError(f"{function}(): Expected 3D or 4D tensor, but got{colon} {list(x.shape)}", reason="pool",
                         shapes=(tuple(x.shape),))
    out = _output_size(output_size, x, 2, function)
    for d in range(x.ndim - 2):
        if x._data.shape[d] == 0 and (x.ndim == 3 or d > 0):
            raise ShapeError(f"{function}(): Expected input to have non-zero size for non-batch dimensions, but "
                             f"input has sizes {list(x.shape)} with dimension {d} being empty", reason="pool",
                             shapes=(tuple(x.shape),))
    check_elements((*x._data.shape[:-2], *out), f"the {function} output")
    return x, out


@builtin("adaptive_avg_pool2d(input, output_size)", ("adaptive_avg_pool2d", "mean_dim"), method=False,
         functional=True)
def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:
    """The mean of each of output_size bins of input (N, C, H, W) or (C, H, W) (None keeps a dim's size)."""
    x, out = _checked_2d(input, output_size, "adaptive_avg_pool2d")
    if out == (1, 1):  # PyTorch: the mean over the last two dims
        return mean(x, (-1, -2), keepdim=True)
    h, w = x._data.shape[-2:]
    dtype = x._data.dtype if x._data.dtype.kind == "f" else np.dtype(np.float64)
    rows, cols = _membership(h, out[0], dtype), _membership(w, out[1], dtype)
    divisor = (rows.sum(1)[:, None] * cols.sum(1)[None, :]).astype(dtype)
    return apply(ADAPTIVE_AVG_POOL2D, (x,), {"rows": rows, "cols": cols, "divisor": divisor})


def _first_largest(windows: np.ndarray) -> np.ndarray:
    """The position of each window's (last axis) first largest element, or of its last nan (PyTorch's scan)."""
    nan = np.isnan(windows) if windows.dtype.kind == "f" else np.zeros(windows.shape, bool)
    first = np.argmax(windows, axis=-1)
    if nan.any():
        first = np.where(nan.any(axis=-1), windows.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1), first)
    return first


@builtin("adaptive_max_pool2d(input, output_size, return_indices=False)", ("adaptive_max_pool2d",), method=False,
         functional=True)
def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: Any = False) -> Any:
    """The largest element of each of output_size bins of input (N, C, H, W) or (C, H, W); with
    return_indices=True also where each came from (its flat position in its H x W plane)."""
    x, out = _checked_2d(input, output_size, "adaptive_max_pool2d")
    data = x._data[None] if x.ndim == 3 else x._data
    n, c, h, w = data.shape
    rows, cols = np.zeros((n, c, *out), np.int64), np.zeros((n, c, *out), np.int64)
    if data.size:
        (h0, h1), (w0, w1) = bins(h, out[0]), bins(w, out[1])
        for i in range(out[0]):
            for j in range(out[1]):
                window = data[:, :, h0[i]:h1[i], w0[j]:w1[j]]
                k = _first_largest(window.reshape(n, c, -1))
                rows[:, :, i, j] = h0[i] + k // window.shape[-1]
                cols[:, :, i, j] = w0[j] + k % window.shape[-1]
    batch = np.arange(n)[:, None, None, None]
    channel = np.arange(c)[None, :, None, None]
    where = (batch, channel, rows, cols) if x.ndim == 4 else (channel[0], rows[0], cols[0])
    values = apply(ADAPTIVE_MAX_POOL2D, (x,), {"where": where})
    if not isinstance(return_indices, (bool, np.bool_)):
        raise BadValueError(f"return_indices must be a bool, got {return_indices!r}", reason="arguments")
    if not return_indices:
        return values
    flat = rows * w + cols
    return values, Tensor._make(flat if x.ndim == 4 else flat[0])


def _row(input: Any, function: str) -> Tensor:
    x = tensor_arg(input)
    if x.ndim not in (2, 3):
        raise ShapeError(f"Expected 2 to 3 dimensions, but got {x.ndim}-dimensional tensor for argument #1 'self' "
                         f"(while checking arguments for {function})", reason="pool", shapes=(tuple(x.shape),))
    return x


def _size_1d(output_size: Any, function: str) -> int:
    items = tuple(output_size) if isinstance(output_size, (list, tuple)) else (output_size,)
    if len(items) != 1:
        raise BadValueError(f"{function}() argument 'output_size' should contain one int (got {len(items)})",
                            reason="arguments")
    return items[0]


@builtin("adaptive_avg_pool1d(input, output_size)", ("unsqueeze", "adaptive_avg_pool2d", "mean_dim", "squeeze_dim"),
         method=False, functional=True)
def adaptive_avg_pool1d(input: Any, output_size: Any) -> Tensor:
    """The mean of each of output_size bins of input (N, C, L) or (C, L).

    Recorded as PyTorch records it: unsqueeze(-2), adaptive_avg_pool2d, squeeze(-2)."""
    x = _row(input, "adaptive_avg_pool1d")
    size = _size_1d(output_size, "adaptive_avg_pool1d")
    return squeeze(adaptive_avg_pool2d(unsqueeze(x, -2), (1, size)), -2)


@builtin("adaptive_max_pool1d(input, output_size, return_indices=False)",
         ("unsqueeze", "adaptive_max_pool2d", "squeeze_dim"), method=False, functional=True)
def adaptive_max_pool1d(input: Any, output_size: Any, return_indices: Any = False) -> Any:
    """The largest element of each of output_size bins of input (N, C, L) or (C, L) (return_indices: and where).

    Recorded as PyTorch records it: unsqueeze(-2), adaptive_max_pool2d, squeeze(-2)."""
    x = _row(input, "adaptive_max_pool1d")
    size = _size_1d(output_size, "adaptive_max_pool1d")
    out = adaptive_max_pool2d(unsqueeze(x, -2), (1, size), return_indices)
    if isinstance(out, tuple):
        return squeeze(out[0], -2), Tensor._make(out[1]._data[..., 0, :])
    return squeeze(out, -2)
