"""Sorting: sort (values and the permutation, SortBackward0), topk (the k largest or smallest along a dim,
TopkBackward0) and argsort. The values are the input taken at the indices, so their gradient is the output's
gradient put back at the indices (PyTorch's value_selecting_reduction_backward); the indices have none."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg, with_axis
from ..core.optable import KEPT, LINEAR_JVP, REDUCTIONS, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.return_types import return_type
from ..core.settings import check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError

SortResult = return_type("sort", ("values", "indices"))
TopkResult = return_type("topk", ("values", "indices"))


def _take(x: np.ndarray, *, dim: int, indices: np.ndarray) -> np.ndarray:
    return x.copy() if x.ndim == 0 else np.take_along_axis(x, indices, axis=dim)


def _put_back(F: Any, g: Any, s: Any) -> Any:
    if not s.input_shape:
        return g
    return F.scatter_add(tuple(s.input_shape), s.dim, s.indices, g)


SORT = declare(Op("sort", "SortBackward0", ("self",), _take,
                  (Grad(_put_back, "grad put back at indices along dim"),), "values sorted along dim, and where "
                  "each came from", group=REDUCTIONS, saved=("indices",), jvp=LINEAR_JVP, integers=KEPT))
# sort(x, stable=...): PyTorch's other overload of sort, recorded as SortBackward1 (whatever the flag says)
SORT_STABLE = declare(Op("sort_stable", "SortBackward1", ("self",), _take,
                         (Grad(_put_back, "grad put back at indices along dim"),), "sort, called with stable=",
                         saved=("indices",), jvp=LINEAR_JVP, integers=KEPT))
TOPK = declare(Op("topk", "TopkBackward0", ("self",), _take,
                  (Grad(_put_back, "grad put back at indices along dim"),), "the k largest (or smallest) values "
                  "along dim, and where each came from", group=REDUCTIONS, saved=("indices",), jvp=LINEAR_JVP,
                  integers=KEPT))


def order(x: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """The stable sorting permutation along dim, nan counted as larger than every number (PyTorch's order)."""
    if x.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if x.dtype.kind != "f":
        x = x.astype(np.int64)
    nan = np.isnan(x)
    # np.lexsort: the last key first. Descending: nan first, then the values from the largest
    keys = (np.where(nan, 0, -x), ~nan) if descending else (np.where(nan, 0, x), nan)
    return np.lexsort(keys, axis=dim).astype(np.int64)


def _flag(value: Any, name: str, function: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise BadValueError(f"{function}(): argument '{name}' must be bool, not {type(value).__name__}",
                            reason="arguments")
    return bool(value)


_UNSET: Any = object()


@builtin("sort(input, dim=-1, descending=False, *, stable=None)", ("sort", "sort_stable"))
@with_axis
def sort(input: Any, dim: int = -1, descending: bool = False, *, stable: Any = _UNSET) -> Any:
    """(values, indices): the values sorted along dim (ascending unless descending=True; nan last), and the
    position each came from. Equal values keep their order (a stable sort, whatever `stable` says)."""
    x = tensor_arg(input)
    d = check_dim(dim, x.ndim)
    indices = order(x._data, d, _flag(descending, "descending", "sort"))
    if stable is not _UNSET and stable is not None:
        _flag(stable, "stable", "sort")
    values = apply(SORT if stable is _UNSET else SORT_STABLE, (x,), {"dim": d, "indices": indices})
    return SortResult(values, Tensor._make(indices))


@builtin("argsort(input, dim=-1, descending=False, *, stable=False)")
@with_axis
def argsort(input: Any, dim: int = -1, descending: bool = False, *, stable: Any = False) -> Tensor:
    """The indices that sort the input along dim (sort(...).indices)."""
    return sort(input, dim, descending, stable=stable).indices


@builtin("msort(input)", ("sort",))
def msort(input: Any) -> Tensor:
    """The values sorted along dim 0 (sort(input, 0).values)."""
    return sort(input, 0).values


@builtin("topk(input, k, dim=-1, largest=True, sorted=True)", ("topk",))
@with_axis
def topk(input: Any, k: Any, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """(values, indices): the k largest values along dim (the k smallest with largest=False), largest first,
    and the position each came from. sorted=False is accepted; the values come sorted all the same."""
    x = tensor_arg(input)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise BadValueError(f"topk(): argument 'k' (position 2) must be int, not {type(k).__name__}",
                            reason="arguments")
    d = check_dim(dim, x.ndim)
    size = x._data.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise BadValueError("selected index k out of range", reason="k")
    biggest = _flag(largest, "largest", "topk")
    _flag(sorted, "sorted", "topk")
    if x.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
    else:
        indices = np.take(order(x._data, d, biggest), np.arange(int(k)), axis=d)
    values = apply(TOPK, (x,), {"dim": d, "indices": indices})
    return TopkResult(values, Tensor._make(indices))


def _arg_extreme(input: Any, dim: int | None, keepdim: bool, name: str, pick: Any) -> Tensor:
    """argmax/argmin: the index (int64) of the first largest (smallest) element, over all elements (dim=None:
    an index into the flattened input) or along dim; nan counts as the extreme, as in PyTorch."""
    x = tensor_arg(input)._data
    if x.dtype.kind == "b":
        raise BadValueError(f"\"{name}_cpu\" not implemented for 'Bool'", hint="convert the mask first: x.long()",
                            reason="bool_arithmetic")
    if x.size == 0 and (dim is None or x.ndim == 0 or x.shape[check_dim(dim, x.ndim)] == 0):
        raise BadValueError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
                            if dim is None else f"{name}(): Expected reduction dim {dim} to have non-zero size.",
                            reason="arguments")
    if dim is None:
        index = np.asarray(pick(x.reshape(-1)), dtype=np.int64)
        return Tensor._make(index.reshape((1,) * x.ndim) if keepdim else index)
    axis = check_dim(dim, max(x.ndim, 1))
    data = x.reshape(1) if x.ndim == 0 else x
    index = np.asarray(pick(data, axis=axis), dtype=np.int64)
    if keepdim and x.ndim:
        index = np.expand_dims(index, axis)
    return Tensor._make(index.reshape(()) if x.ndim == 0 else index)


@builtin("argmax(input, dim=None, keepdim=False)")
def argmax(input: Any, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The index of the largest element (the first one; over all elements when dim is None), an int64 tensor."""
    return _arg_extreme(input, dim, keepdim, "argmax", np.argmax)


@builtin("argmin(input, dim=None, keepdim=False)")
def argmin(input: Any, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """The index of the smallest element (the first one; over all elements when dim is None), an int64 tensor."""
    return _arg_extreme(input, dim, keepdim, "argmin", np.argmin)
