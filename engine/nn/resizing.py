"""Resizing (torch.nn.functional): adaptive pooling and interpolate.

Adaptive pooling (torch.nn.functional): adaptive_avg_pool2d (AdaptiveAvgPool2DBackward0; an output of 1 x 1 is
the mean over the last two dims, MeanBackward1, as PyTorch computes it) and adaptive_max_pool2d
(AdaptiveMaxPool2DBackward0), and their 1-D forms as PyTorch records them: unsqueeze(-2), the 2-D pool,
squeeze(-2).

Output position i of a dim of size n pooled to m takes the bin [floor(i n / m), ceil((i + 1) n / m)): bins of
uneven sizes that may overlap. An average is the bin's sum over its size; its gradient spreads back over the bin
(sums where bins overlap). A max takes the bin's first largest element (the last nan) and gives the gradient back
there.

torch.nn.functional.interpolate: modes 'nearest' (UpsampleNearest1D/2DBackward0), 'nearest-exact'
(UpsampleNearestExact1D/2DBackward0), 'linear' (UpsampleLinear1DBackward0), 'bilinear'
(UpsampleBilinear2DBackward0) and 'area' (adaptive average pooling), with size= or scale_factor= and
align_corners, as PyTorch's Python checks them and its CPU kernels pick the source positions and weights.

Each resized dim is a linear map of the input's: a matrix (out, in) whose row i holds the weights of output i's
source elements (one 1 for nearest; 1 - lambda and lambda for linear). The result is those maps applied to the last
dims (x @ W.T, or H @ x @ W.T), the gradient the transposed maps applied to the output's gradient. Source positions
are computed in PyTorch's precision (float for nearest; the input's float type for linear)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import CONVOLUTION as GROUP
from ..core.optable import LINEAR_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError, NotImplementedAutogradError, ShapeError, WrongTypeError
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


# ---------------------------------------------------------------------------- interpolate
MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")


def _resized(x: np.ndarray, *, maps: tuple[np.ndarray, ...]) -> np.ndarray:
    if len(maps) == 1:
        return np.ascontiguousarray(np.matmul(x, maps[0].T), dtype=x.dtype)
    return np.ascontiguousarray(np.matmul(np.matmul(maps[0], x), maps[1].T), dtype=x.dtype)


def _resized_grad(F: Any, g: Any, s: Any) -> Any:
    """The transposed maps applied to grad (each input element gets the weighted gradients of its outputs)."""
    if len(s.maps) == 1:
        return F.matmul(g, s.maps[0])
    return F.matmul(F.matmul(s.maps[0].T, g), s.maps[1])


def _upsample_op(name: str, node: str, doc: str) -> Op:
    return declare(Op(name, node, ("self",), _resized,
                      (Grad(_resized_grad, "grad spread back over each output's source elements, by their weights"),),
                      doc, group=GROUP, jvp=LINEAR_JVP))


UPSAMPLE_OPS = {
    ("nearest", 1): _upsample_op("upsample_nearest1d", "UpsampleNearest1DBackward0", "the nearest element, resized"),
    ("nearest", 2): _upsample_op("upsample_nearest2d", "UpsampleNearest2DBackward0", "the nearest element, resized"),
    ("nearest-exact", 1): _upsample_op("upsample_nearest_exact1d", "UpsampleNearestExact1DBackward0",
                                       "the nearest element (pixel centres), resized"),
    ("nearest-exact", 2): _upsample_op("upsample_nearest_exact2d", "UpsampleNearestExact2DBackward0",
                                       "the nearest element (pixel centres), resized"),
    ("linear", 1): _upsample_op("upsample_linear1d", "UpsampleLinear1DBackward0", "linear interpolation, resized"),
    ("bilinear", 2): _upsample_op("upsample_bilinear2d", "UpsampleBilinear2DBackward0",
                                  "bilinear interpolation, resized"),
}


def _nearest_map(n: int, m: int, scale: float | None, exact: bool, shortcuts: bool, dtype: np.dtype) -> np.ndarray:
    """PyTorch's nearest_idx / nearest_exact_idx: floorf(i * s) (or floorf((i + 0.5) * s)), s in float; its 2-D
    nearest kernel copies a dim of the same size and halves the index of one twice as large (shortcuts)."""
    i = np.arange(m)
    if shortcuts and m == n:
        src = i
    elif shortcuts and m == 2 * n:
        src = i >> 1
    else:
        s = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(n) / np.float32(m)
        at = (i.astype(np.float32) + np.float32(0.5)) * s if exact else i.astype(np.float32) * s
        src = np.minimum(np.floor(at).astype(np.int64), n - 1)
    out = np.zeros((m, n), dtype)
    out[i, src] = 1
    return out


def _linear_map(n: int, m: int, scale: float | None, align_corners: bool, dtype: np.dtype) -> np.ndarray:
    """PyTorch's compute_indices_weights_linear: the source position (area_pixel_compute_source_index) in the
    input's float type, its floor and the next element, weighted 1 - lambda and lambda."""
    t = dtype.type
    if n == m:  # PyTorch's kernel copies a dim whose size does not change, whatever the scale
        return np.eye(n, dtype=dtype)
    if align_corners:
        s = t(n - 1) / t(m - 1) if m > 1 else t(0)
    else:
        s = t(1.0 / scale) if scale is not None and scale > 0 else t(n) / t(m)
    i = np.arange(m).astype(dtype)
    real = s * i if align_corners else np.maximum(s * (i + t(0.5)) - t(0.5), t(0))
    index = np.minimum(np.floor(real).astype(np.int64), n - 1)
    lam = np.minimum(np.maximum(real - index.astype(dtype), t(0)), t(1)).astype(dtype)
    following = index + (index < n - 1)
    out = np.zeros((m, n), dtype)
    rows = np.arange(m)
    np.add.at(out, (rows, index), (t(1) - lam).astype(dtype))
    np.add.at(out, (rows, following), lam)
    return out


def _sizes(x: Tensor, size: Any, scale_factor: Any, recompute: Any) -> tuple[list[int], list[Any]]:
    """(output sizes, the scales the kernels use: None where computed from the sizes), as F.interpolate's Python."""
    dim = x.ndim - 2
    spatial = list(x._data.shape[2:])
    if size is not None and scale_factor is not None:
        raise InvalidArgumentError("only one of size or scale_factor should be defined", reason="interpolate")
    if size is not None:
        if recompute:
            raise InvalidArgumentError("recompute_scale_factor is not meaningful with an explicit size.",
                                       reason="interpolate")
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise InvalidArgumentError(
                    f"Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {spatial} and output size of {size!r}. Please provide input tensor in (N, C, d1, "
                    "d2, ...,dK) format and output size in (o1, o2, ...,oK) format.", reason="interpolate")
            if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in size):
                raise WrongTypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, "
                                     f"int, int], but got size with types {[type(n) for n in size]}",
                                     reason="interpolate")
            return [int(n) for n in size], [None] * dim
        return [int(size)] * dim, [None] * dim
    if scale_factor is None:
        raise InvalidArgumentError("either size or scale_factor should be defined", reason="interpolate")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise InvalidArgumentError(
                f"Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {spatial} and scale_factor of shape {scale_factor!r}. Please provide input tensor in "
                "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.", reason="interpolate")
        scales = [float(s) for s in scale_factor]
    else:
        scales = [float(scale_factor)] * dim
    out = [math.floor(n * s) for n, s in zip(spatial, scales)]
    return out, [None] * dim if recompute else scales


def _refused(x: Tensor, mode: str) -> None:
    """PyTorch's NotImplementedError for a mode and a number of dims that do not go together."""
    wanted = {"linear": 3, "bilinear": 4, "trilinear": 5, "bicubic": 4}
    if mode in wanted and x.ndim in (3, 4, 5) and x.ndim != wanted[mode]:
        raise NotImplementedAutogradError(f"Got {x.ndim}D input, but {mode} mode needs {wanted[mode]}D input",
                                          reason="interpolate")
    raise NotImplementedAutogradError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {x.ndim}D) for the modes: nearest | linear | "
        f"bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})", reason="interpolate")


@builtin("interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
         "recompute_scale_factor=None, antialias=False)", tuple(op.name for op in UPSAMPLE_OPS.values()),
         method=False, functional=True)
def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: Any = None, recompute_scale_factor: Any = None, antialias: bool = False) -> Tensor:
    """input (N, C, L) or (N, C, H, W) resized to size (or scaled by scale_factor), by mode."""
    x = tensor_arg(input)
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise InvalidArgumentError("align_corners option can only be set with the interpolating modes: linear | "
                                       "bilinear | bicubic | trilinear", reason="interpolate")
    elif align_corners is None:
        align_corners = False
    out, scales = _sizes(x, size, scale_factor, recompute_scale_factor or (mode == "area" and size is None))
    if antialias:
        raise BadValueError("interpolate(): antialias=True is not available", reason="interpolate")
    if mode == "area" and x.ndim in (3, 4):
        return (adaptive_avg_pool1d if x.ndim == 3 else adaptive_avg_pool2d)(x, out)
    dims = x.ndim - 2
    if (mode, dims) not in UPSAMPLE_OPS:
        _refused(x, mode)
    if x._data.dtype.kind != "f":
        raise BadValueError(f"interpolate(): mode '{mode}' needs a floating-point input, got {x._data.dtype}",
                            reason="dtype")
    if any(n <= 0 for n in out):
        raise BadValueError(f"Input and output sizes should be greater than 0, but got input (H: "
                            f"{x._data.shape[2]}) output (H: {out[0]})", reason="interpolate")
    check_elements((*x._data.shape[:2], *out), "the interpolated tensor")
    dtype = x._data.dtype
    shortcuts = mode == "nearest" and dims == 2
    maps = tuple(_nearest_map(n, m, s, mode == "nearest-exact", shortcuts, dtype) if mode.startswith("nearest")
                 else _linear_map(n, m, s, bool(align_corners), dtype)
                 for n, m, s in zip(x._data.shape[2:], out, scales))
    return apply(UPSAMPLE_OPS[(mode, dims)], (x,), {"maps": maps})


@builtin("upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None)",
         tuple(op.name for op in UPSAMPLE_OPS.values()), method=False, functional=True)
def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: Any = None) -> Tensor:
    """The deprecated name of interpolate."""
    return interpolate(input, size, scale_factor, mode, align_corners)
