"""Counting and indexing by integer tensors, as PyTorch has them: one_hot, bincount, histc, histogram, unique,
index_add and the deprecated torch.range. Their results are integer tensors (int64) where PyTorch's are, and
index_add is recorded as IndexAddBackward0 (the gradient of source is the gradient at its index, times alpha)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.dtypes import BY_NUMPY, TYPE_NAMES
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.return_types import return_type
from ..core.settings import as_dtype, check_dim, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels.floatmath import fma64
from .constructors import leaf, linspace


def _long_values(x: Any, message: str) -> np.ndarray:
    """The values of an int64 tensor (PyTorch's index tensors are LongTensors)."""
    t = tensor_arg(x)
    if t._data.dtype != np.int64:
        raise BadValueError(message, hint="convert the indices first: x.long()", reason="index")
    return t._data


@builtin("one_hot(tensor, num_classes=-1)", method=False, functional=True,
         summary="int64 rows with a 1 at each index (torch.nn.functional.one_hot)")
def one_hot(tensor: Any, num_classes: int = -1) -> Tensor:
    """A new last dim of num_classes (-1: the largest index + 1), 1 at each value and 0 elsewhere, int64."""
    values = _long_values(tensor, "one_hot is only applicable to index tensor of type LongTensor.")
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)):
        raise BadValueError(f"one_hot: num_classes must be an integer, got {num_classes!r}", reason="arguments")
    if values.size and values.min() < 0:
        raise BadValueError("Class values must be non-negative.", reason="index")
    if num_classes == -1:
        if values.size == 0:
            raise BadValueError("Can not infer total number of classes from empty tensor.", reason="index")
        num_classes = int(values.max()) + 1
    elif values.size and values.max() >= num_classes:
        raise BadValueError("Class values must be smaller than num_classes.", reason="index")
    check_elements((*values.shape, int(num_classes)))
    out = np.zeros((*values.shape, int(num_classes)), dtype=np.int64)
    np.put_along_axis(out, values[..., None], 1, axis=-1)
    return leaf(out, False)


@builtin("bincount(input, weights=None, minlength=0)", summary="how often each value of a 1-d int tensor occurs")
def bincount(input: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """Counts (int64) of each value 0..max of a 1-d non-negative integer tensor, at least minlength of them;
    with weights, their sums instead (in the weights' float dtype, float64 for integer or bool weights)."""
    data = tensor_arg(input)._data
    if data.ndim != 1 or data.dtype.kind not in "iu" or (data.size and data.min() < 0):
        raise BadValueError("bincount only supports 1-d non-negative integral inputs.", reason="arguments")
    if isinstance(minlength, bool) or not isinstance(minlength, (int, np.integer)) or minlength < 0:
        raise BadValueError(f"minlength should be >= 0, got {minlength!r}", reason="arguments")
    length = max(int(minlength), int(data.max()) + 1 if data.size else 0)
    check_elements((length,))
    if weights is None:
        return leaf(np.bincount(data, minlength=length).astype(np.int64), False)
    w = tensor_arg(weights, "weights")._data
    if w.shape != data.shape:
        raise ShapeError("weights should be 1-d and have the same length as input", reason="shape")
    dtype = w.dtype if w.dtype.kind == "f" else np.dtype(np.float64)
    return leaf(np.bincount(data, weights=w.astype(np.float64), minlength=length).astype(dtype), False)


HISTOGRAM = return_type("histogram", ("hist", "bin_edges"))  # torch.return_types.histogram


def _float_values(input: Any, kernel: str) -> np.ndarray:
    data = tensor_arg(input)._data
    if data.dtype.kind != "f":
        raise BadValueError(f'"{kernel}" not implemented for \'{TYPE_NAMES[BY_NUMPY[data.dtype]]}\'', reason="dtype")
    return data.reshape(-1)


def _bin_count(bins: Any, what: str) -> int:
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins <= 0:
        raise BadValueError(f"{what}: bins must be > 0, but got {bins} for dimension 0", reason="arguments")
    check_elements((int(bins) + 1,))
    return int(bins)


@builtin("histc(input, bins=100, min=0, max=0)", summary="counts of a float tensor's values in equal bins")
def histc(input: Any, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:
    """Counts in `bins` equal bins over [min, max] (both 0: the data's smallest and largest value; equal: one on
    either side), in the input's dtype; values outside, and nan, are left out. PyTorch's bins, to the bit: a
    value's bin is (value - min) * bins / (max - min) in the input's dtype, truncated (the largest in the last)."""
    data = _float_values(input, "histogram_cpu")
    count = _bin_count(bins, "torch.histc")
    kind = data.dtype.type
    low, high = kind(number(min, "min")), kind(number(max, "max"))
    if low == high == 0 and data.size:
        low, high = data.min(), data.max()
    if not (math.isfinite(low) and math.isfinite(high)):
        raise BadValueError(f"torch.histc: range of [{low}, {high}] is not finite", reason="arguments")
    if low == high:
        low, high = low - kind(1), high + kind(1)
    if low > high:
        raise BadValueError("torch.histc: max must be larger than min", reason="arguments")
    inside = data[(data >= low) & (data <= high)]
    with np.errstate(all="ignore"):
        position = ((inside - low) * kind(count) / (high - low)).astype(np.int64)
    np.minimum(position, count - 1, out=position)
    return leaf(np.bincount(position, minlength=count).astype(data.dtype), False)


@builtin("histogram(input, bins=100, range=None, weight=None, density=False)", method=True,
         summary="a histogram of a float tensor's values and its bin edges (torch.histogram)")
def histogram(input: Any, bins: Any = 100, range: Any = None, weight: Any = None, density: bool = False) -> Any:
    """(hist, bin_edges) as torch.return_types.histogram: `bins` equal bins over `range` (default: the data's
    smallest and largest value; equal: half a unit on either side), edges as linspace gives them, or `bins` a
    1-d tensor of increasing edges; each value in the bin whose edges hold it, the last bin closed; `weight`
    adds each value's weight instead of 1; `density` divides by the total and the bin's width."""
    data = _float_values(input, "histogramdd")
    if isinstance(bins, Tensor):
        edges = bins._data.astype(data.dtype).reshape(-1)
    else:
        count = _bin_count(bins, "torch.histogram()")
        if range is None:
            low, high = (data.min(), data.max()) if data.size else (0.0, 0.0)
        else:
            low, high = (number(v, "range") for v in range)
        if low > high:
            raise BadValueError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                                "dimension 0", reason="arguments")
        if low == high:
            low, high = low - 0.5, high + 0.5
        edges = linspace(float(low), float(high), count + 1, dtype=data.dtype)._data
    position = np.searchsorted(edges, data, side="right") - 1
    position[data == edges[-1]] = edges.size - 2  # the last bin holds its right edge
    keep = (position >= 0) & (position < edges.size - 1)
    values = None
    if weight is not None:
        values = tensor_arg(weight, "weight")._data.reshape(-1)[keep].astype(np.float64)
    hist = np.bincount(position[keep], weights=values, minlength=edges.size - 1).astype(data.dtype)
    if density:
        with np.errstate(all="ignore"):
            hist = hist / (hist.sum() * np.diff(edges))
    return HISTOGRAM(leaf(hist, False), leaf(edges, False))


@builtin("unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)",
         summary="the distinct values (sorted), and where each element went and how often each value occurs")
def unique(input: Any, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: Any = None) -> Any:
    """The distinct values of input (of its slices along dim), sorted as PyTorch's CPU kernel returns them;
    with return_inverse and return_counts, a tuple adding the index of each element's value and the counts
    (int64)."""
    data = tensor_arg(input)._data
    if dim is None:
        values, inverse, counts = np.unique(data.reshape(-1), return_inverse=True, return_counts=True)
        inverse = inverse.reshape(data.shape)
    else:
        axis = check_dim(dim, data.ndim)
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True, axis=axis)
        inverse = inverse.reshape(-1)
    results = [leaf(np.ascontiguousarray(values), False)]
    if return_inverse:
        results.append(leaf(inverse.astype(np.int64), False))
    if return_counts:
        results.append(leaf(counts.astype(np.int64), False))
    return results[0] if len(results) == 1 else tuple(results)


def _index_add_forward(x: np.ndarray, source: np.ndarray, *, dim: int, index: np.ndarray, alpha: Any) -> np.ndarray:
    out = np.array(x, copy=True)
    moved = np.moveaxis(out, dim, 0)
    np.add.at(moved, index, np.moveaxis(source if alpha == 1 else source * alpha, dim, 0).astype(out.dtype))
    return out


def _source_grad(F: Any, g: Any, s: Any) -> Any:
    """grad.index_select(dim, index).expand_as(source) * alpha: PyTorch saves source for its shape (so a write into
    it is detected) and index as a tensor (freed after backward)."""
    picked = F.reshape(F.index(g, (slice(None),) * s.dim + (s.index,)), F.values(s.source).shape)
    return picked if s.alpha == 1 else picked * s.alpha


INDEX_ADD = declare(Op("index_add", "IndexAddBackward0", ("self", "source"), _index_add_forward,
                       (Grad(lambda F, g, s: g, "grad"),
                        Grad(_source_grad, "grad.index_select(dim, index) * alpha")),
                       "self with source's slices added at index along dim", group=SHAPES, jvp=LINEAR_JVP,
                       saved=("index",)))


@builtin("index_add(input, dim, index, source, alpha=1)", ("index_add",),
         summary="input with source's slices added at index along dim (repeated indices add up)")
def index_add(input: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Tensor:
    x, src = tensor_arg(input), tensor_arg(source, "source")
    idx = _long_values(index, "index_add_(): Expected dtype int64 for index")
    d = check_dim(dim, max(x.ndim, 1))
    if idx.ndim > 1:
        raise ShapeError("index_add_(): Index is supposed to be a vector", reason="index")
    size = x._data.shape[d] if x.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise BadValueError(f"index_add_(): index out of range for a dim of size {size}", reason="index")
    expected = (*x._data.shape[:d], idx.size, *x._data.shape[d + 1:]) if x.ndim else (idx.size,)
    if src._data.shape != expected and not (x.ndim == 0 and src._data.size == idx.size):
        raise ShapeError(f"index_add_(): source has shape {list(src.shape)}, expected {list(expected)}",
                         reason="shape")
    return apply(INDEX_ADD, (x, src), {"dim": d, "index": np.where(idx < 0, idx + size, idx), "alpha": alpha})


@builtin("range(start, end, step=1, dtype=None, requires_grad=False)", method=False,
         summary="values from start to end inclusive (torch.range, deprecated: arange excludes end)")
def range(start: float, end: float, step: float = 1, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """torch.range: floor((end - start) / step) + 1 values start + i * step, in the default float dtype."""
    lo, hi, by = number(start, "start"), number(end, "end"), number(step, "step")
    if by == 0 or not all(math.isfinite(v) for v in (lo, hi, by)):
        raise BadValueError("range: step must be nonzero and start, end and step finite", reason="arguments")
    if (hi - lo) * by < 0:
        raise BadValueError("upper bound and larger bound inconsistent with step sign", reason="arguments")
    count = math.floor((hi - lo) / by) + 1
    check_elements((count,))
    resolved = as_dtype(dtype)
    values = fma64(by, np.arange(count, dtype=np.float64), lo)
    return leaf(values.astype(resolved), requires_grad)

