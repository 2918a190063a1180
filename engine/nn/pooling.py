"""Pooling (torch.nn.functional): max_pool2d (MaxPool2DWithIndicesBackward0) and avg_pool2d (AvgPool2DBackward0),
and their 1-D forms as PyTorch records them: the input unsqueezed to one row (UnsqueezeBackward0), pooled in 2-D,
the row squeezed away (SqueezeBackward1).

A max pool takes the input at each window's first largest element (nan counts as largest, as in PyTorch) and gives
the gradient back there; an average pool spreads it over the window, divided as PyTorch divides. The windows are
convolution.py's index map over the padded input."""

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
from ..ops.shapes import squeeze, unsqueeze
from .convolution import cropped, inside, int_tuple, padded_shape, window_index


# ---------------------------------------------------------------------------- pooling
def _take(x: np.ndarray, *, where: tuple, **_: Any) -> np.ndarray:
    return np.ascontiguousarray(x[where])


def _max_pool_grad(F: Any, g: Any, s: Any) -> Any:
    # reads self (for its shape): PyTorch's max_pool2d backward saves the input and the indices
    return F.index_put_add(tuple(s.self.shape), s.where, g)


MAX_POOL2D = declare(Op(
    "max_pool2d", "MaxPool2DWithIndicesBackward0", ("self",), _take,
    (Grad(_max_pool_grad, "grad added at each window's largest element (indices)"),),
    "the largest element of each window", group=GROUP, saved=("where",), jvp=LINEAR_JVP))


def _avg_pool(x: np.ndarray, *, before: tuple, after: tuple, index: tuple, divisor: np.ndarray,
              kernel: tuple) -> np.ndarray:
    padded = np.zeros(padded_shape(x.shape, before, after), dtype=x.dtype)
    padded[inside(before, x.shape)] = x
    total = np.add.reduce(padded[(Ellipsis, *index)], axis=(-2, -1))  # (np.sum's call, from here: no warning)
    return np.ascontiguousarray(total / divisor, dtype=x.dtype)


def _avg_pool_grad(F: Any, g: Any, s: Any) -> Any:
    """grad / divisor spread over each window (the parts in the padding cut away)."""
    shape = tuple(s.self.shape)  # PyTorch's avg_pool2d backward saves the input
    spread = F.unsqueeze(F.unsqueeze(g / s.divisor, -1), -1) * np.ones(s.kernel, dtype=s.divisor.dtype)
    padded = padded_shape(shape, s.before, s.after)
    return cropped(F, F.index_put_add(padded, (Ellipsis, *s.index), spread), s.before, shape)


AVG_POOL2D = declare(Op(
    "avg_pool2d", "AvgPool2DBackward0", ("self",), _avg_pool,
    (Grad(_avg_pool_grad, "grad / divisor added over each window"),), "the mean of each window", group=GROUP,
    jvp=LINEAR_JVP))


def _pool_geometry(x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: Any,
                   function: str) -> tuple:
    kernel = int_tuple(kernel_size, 2, "kernel_size", function, 1)
    stride_ = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) else \
        int_tuple(stride, 2, "stride", function, 1)
    padding_ = int_tuple(padding, 2, "padding", function)
    dilation_ = int_tuple(dilation, 2, "dilation", function, 1)
    if any(p > k // 2 for p, k in zip(padding_, kernel)):
        raise BadValueError(f"pad should be at most half of effective kernel size, but got pad={padding_[0]}, "
                            f"kernel_size={kernel[0]} and dilation={dilation_[0]}", reason="pool")
    if not isinstance(ceil_mode, (bool, np.bool_)):
        raise BadValueError(f"{function}(): ceil_mode must be a bool", reason="arguments")
    if x.ndim not in (3, 4):
        raise ShapeError(f"{function}(): Expected 3D or 4D (batch mode) tensor for input, but got: {list(x.shape)}",
                         reason="pool", shapes=(tuple(x.shape),))
    out = []
    for n, k, s, p, dl in zip(x._data.shape[-2:], kernel, stride_, padding_, dilation_):
        span = n + 2 * p - dl * (k - 1) - 1
        size = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (size - 1) * s >= n + p:  # the last window must start inside the input or left padding
            size -= 1
        out.append(size)
    if any(size < 1 for size in out):
        c, h, w = x._data.shape[-3:]
        raise ShapeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). Output "
                         "size is too small", reason="pool", shapes=(tuple(x.shape),))
    # padding after the input: what the last window reaches past it (ceil_mode)
    after = tuple(max(p, (o - 1) * s + dl * (k - 1) + 1 - n - p)
                  for o, s, dl, k, n, p in zip(out, stride_, dilation_, kernel, x._data.shape[-2:], padding_))
    return kernel, stride_, padding_, dilation_, tuple(out), after


@builtin("max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)",
         ("max_pool2d",), method=False, functional=True)
def max_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: Any = False, return_indices: Any = False) -> Any:
    """The largest element of each kernel_size window of input (N, C, H, W) or (C, H, W); with
    return_indices=True also where each came from (its flat position in its H x W plane)."""
    x = tensor_arg(input)
    kernel, stride_, padding_, dilation_, out, after = _pool_geometry(x, kernel_size, stride, padding, dilation,
                                                                     ceil_mode, "max_pool2d")
    data = x._data[None] if x.ndim == 3 else x._data
    n, c, _, w = data.shape
    check_elements((n, c, *out, *kernel), "the max_pool2d windows")
    padded = np.full(padded_shape(data.shape, padding_, after), -np.inf, dtype=data.dtype)
    padded[inside(padding_, data.shape)] = data
    index = window_index(out, kernel, stride_, dilation_)
    windows = padded[(slice(None), slice(None), *index)].reshape(n, c, *out, -1)
    # PyTorch's scan: the first largest element, or the last nan (each nan replaces the one before)
    nan = np.isnan(windows)
    first = np.argmax(windows, axis=-1) if not nan.any() else np.where(
        nan.any(axis=-1), windows.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1), np.argmax(windows, axis=-1))
    kh, kw = np.unravel_index(first, kernel)
    rows = np.arange(out[0])[:, None] * stride_[0] + kh * dilation_[0] - padding_[0]
    cols = np.arange(out[1])[None, :] * stride_[1] + kw * dilation_[1] - padding_[1]
    batch = np.arange(n)[:, None, None, None]
    channel = np.arange(c)[None, :, None, None]
    where = (batch, channel, rows, cols) if x.ndim == 4 else (channel[0], rows[0], cols[0])
    values = apply(MAX_POOL2D, (x,), {"where": where})
    if not flag(return_indices, "return_indices"):
        return values
    flat = (rows * w + cols).astype(np.int64)
    return values, Tensor._make(flat if x.ndim == 4 else flat[0])  # a plain pair, as PyTorch's


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise BadValueError(f"{name} must be a bool, got {value!r}", reason="arguments")
    return bool(value)


@builtin("avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, "
         "divisor_override=None)", ("avg_pool2d",), method=False, functional=True)
def avg_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False,
               count_include_pad: Any = True, divisor_override: Any = None) -> Tensor:
    """The mean of each kernel_size window of input (N, C, H, W) or (C, H, W): divided by the window's size
    (the padding counted unless count_include_pad=False), or by divisor_override."""
    x = tensor_arg(input)
    kernel, stride_, padding_, _, out, after = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode,
                                                              "avg_pool2d")
    h, w = x._data.shape[-2:]
    check_elements((*x._data.shape[:-2], *out, *kernel), "the avg_pool2d windows")
    if divisor_override is not None:
        if isinstance(divisor_override, bool) or not isinstance(divisor_override, (int, np.integer)) or \
                divisor_override == 0:
            raise BadValueError("divisor must be not zero", reason="pool")
        divisor = np.full(out, float(divisor_override))
    else:
        sizes = []
        for o, s, k, p, n in zip(out, stride_, kernel, padding_, (h, w)):
            start = np.arange(o) * s - p
            end = np.minimum(start + k, n + p)
            pool = end - start
            start, end = np.maximum(start, 0), np.minimum(end, n)
            sizes.append(pool if flag(count_include_pad, "count_include_pad") else end - start)
        divisor = (sizes[0][:, None] * sizes[1][None, :]).astype(float)
    divisor = divisor.astype(x._data.dtype)
    index = window_index(out, kernel, stride_, (1, 1))
    return apply(AVG_POOL2D, (x,), {"before": padding_, "after": after, "index": index, "divisor": divisor,
                                    "kernel": kernel})


def _row(x: Tensor, function: str) -> Tensor:
    """input (N, C, L) or (C, L) as one row (..., 1, L), as PyTorch's 1-D pools unsqueeze it (UnsqueezeBackward0)."""
    if x.ndim not in (2, 3):
        raise ShapeError(f"{function}() Expected 2D or 3D input tensor, but got {list(x.shape)}", reason="pool",
                         shapes=(tuple(x.shape),))
    return unsqueeze(x, -2)


def _along_row(value: Any, name: str, function: str, neutral: int) -> Any:
    """A 1-D pool's kernel_size / stride / padding / dilation as the 2-D one's (neutral, value)."""
    if value is None or (isinstance(value, (list, tuple)) and not value):
        return None
    return (neutral, int_tuple(value, 1, name, function, 1 if neutral else 0)[0])


@builtin("max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)",
         ("unsqueeze", "max_pool2d", "squeeze_dim"), method=False, functional=True)
def max_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: Any = False, return_indices: Any = False) -> Any:
    """The largest element of each kernel_size window of input (N, C, L) or (C, L) (return_indices: and where).

    Recorded as PyTorch records it: unsqueeze(-2), max_pool2d, squeeze(-2)."""
    x = tensor_arg(input)
    out = max_pool2d(_row(x, "max_pool1d"), _along_row(kernel_size, "kernel_size", "max_pool1d", 1),
                     _along_row(stride, "stride", "max_pool1d", 1), _along_row(padding, "padding", "max_pool1d", 0),
                     _along_row(dilation, "dilation", "max_pool1d", 1), ceil_mode, return_indices)
    if isinstance(out, tuple):
        return squeeze(out[0], -2), Tensor._make(out[1]._data[..., 0, :])
    return squeeze(out, -2)


@builtin("avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)",
         ("unsqueeze", "avg_pool2d", "squeeze_dim"), method=False, functional=True)
def avg_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False,
               count_include_pad: Any = True) -> Tensor:
    """The mean of each kernel_size window of input (N, C, L) or (C, L).

    Recorded as PyTorch records it: unsqueeze(-2), avg_pool2d, squeeze(-2)."""
    x = tensor_arg(input)
    return squeeze(avg_pool2d(_row(x, "avg_pool1d"), _along_row(kernel_size, "kernel_size", "avg_pool1d", 1),
                              _along_row(stride, "stride", "avg_pool1d", 1),
                              _along_row(padding, "padding", "avg_pool1d", 0), ceil_mode, count_include_pad), -2)
