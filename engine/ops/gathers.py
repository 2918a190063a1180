"""Reading and writing at index tensors: the advanced index of `x[idx]` (IndexBackward0), gather and
take_along_dim (GatherBackward0), scatter and scatter_add, index_select and masked_fill. Their gradients
add up where an index repeats (kernels/gather_scatter.py's kernels, in the vocabulary as gather, scatter_add and
index_put_add)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import checked_number, int_or_number, tensor_arg, with_axis
from ..core.optable import AS_SELF, ELEMENTWISE_JVP, LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_dim, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, IndexShapeError, OutOfRangeError, ShapeError
from ..kernels import gather_scatter as kernels
from .shapes import expand, reshape


# ---------------------------------------------------------------------------- index tensors
def index_array(value: Any, what: str = "an index") -> np.ndarray:
    """An index tensor, list or array as an int64 or bool array. A float tensor of whole numbers is accepted
    (the language's list literals are floats); other floats are refused, as PyTorch refuses them."""
    data = value._data if isinstance(value, Tensor) else np.asarray(value)
    if data.dtype == np.bool_:
        return data
    if data.dtype.kind in "iu":
        return data.astype(np.int64, copy=False)
    if data.dtype.kind == "f" and data.size == 0:
        return data.astype(np.int64)
    if data.dtype.kind == "f" and np.all(np.isfinite(data)) and np.all(data == np.round(data)):
        return data.astype(np.int64)
    raise OutOfRangeError("tensors used as indices must be long, int, byte or bool tensors", reason="index")


def _check_bounds(index: np.ndarray, size: int, dim: int, what: str = "index") -> None:
    """An index out of range: IndexError for x[idx] (what="index"), RuntimeError for gather and scatter (what="")."""
    if index.size and (index.max() >= size or index.min() < -size):
        bad = int(index.max()) if index.max() >= size else int(index.min())
        error = OutOfRangeError if what == "index" else BadValueError
        raise error(f"index {bad} is out of bounds for dimension {dim} with size {size}", reason="index")


def _dim_index(x: Tensor, dim: Any, index: Any, name: str) -> tuple[int, np.ndarray]:
    """gather/scatter's dim and index: an integer index of x's dims, no larger than x outside dim."""
    d = check_dim(dim, x.ndim)
    idx = index_array(index, f"{name}'s index")
    if idx.dtype == np.bool_:
        raise BadValueError(f"{name}(): Expected dtype int64 for index, got a boolean tensor", reason="index")
    if idx.ndim != max(x.ndim, 1) and not (x.ndim == 0 and idx.ndim <= 1):
        raise ShapeError(f"{name}(): Index tensor must have the same number of dimensions as input tensor "
                         f"({x.ndim}), got {idx.ndim}", reason="index", shapes=(tuple(x.shape), idx.shape))
    shape = x._data.shape
    for i, n in enumerate(idx.shape if x.ndim else ()):
        if i != d and n > shape[i]:
            raise ShapeError(f"{name}(): Size does not match at dimension {i}: index {tuple(idx.shape)} is larger "
                             f"than input {tuple(shape)} there", reason="index", shapes=(tuple(shape), idx.shape))
    _check_bounds(idx, shape[d] if x.ndim else 1, d, "")
    return d, np.where(idx < 0, idx + (shape[d] if x.ndim else 1), idx)


# ---------------------------------------------------------------------------- the ops
def _declare(name: str, node: str, inputs: tuple[str, ...], forward: Any, grads: tuple[Grad, ...], doc: str,
             **facts: Any) -> Op:
    facts.setdefault("group", SHAPES)
    facts.setdefault("jvp", LINEAR_JVP)  # gathering and scattering tensors: the same operation on the tangents
    return declare(Op(name, node, inputs, forward, grads, doc, **facts))


def _scatter_forward(x: np.ndarray, src: np.ndarray, *, dim: int, index: np.ndarray, mask: np.ndarray) -> np.ndarray:
    out = np.array(x, copy=True)
    part = src[tuple(slice(0, n) for n in index.shape)]
    if out.ndim:
        out[kernels.along(index, dim)] = part
    elif index.size:
        out[...] = part.reshape(-1)[-1]
    return out


def _along_dim(s: Any) -> tuple:
    return (slice(None),) * s.dim + (s.index,)


INDEX = _declare("index", "IndexBackward0", ("self",), lambda x, *, indices: x[indices],
                 (Grad(lambda F, g, s: F.index_put_add(s.input_shape, s.indices, g),
                       "zeros of self's shape with grad added at indices"),),
                 "x[index tensors] (advanced indexing)", saved=("indices",))
INDEX_PUT_ADD = _declare("index_put_add", "IndexPutImplBackward0", ("self", "values"),
                         lambda x, v, *, where: x + kernels.index_put_add(x.shape, where, v),
                         (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: F.index(g, s.where), "grad[indices]")),
                         "self with values added at an advanced index (the backward of x[idx])", group=None,
                         integers=AS_SELF)
GATHER = _declare("gather", "GatherBackward0", ("self",), lambda x, *, dim, index: kernels.gather(x, dim, index),
                  (Grad(lambda F, g, s: F.scatter_add(tuple(s.self.shape), s.dim, s.index, g),
                        "zeros of self's shape with grad added at index along dim"),),
                  "self's elements at index along dim", saved=("index",))
SCATTER_ADD = _declare("scatter_add", "ScatterAddBackward0", ("self", "src"),
                       lambda x, src, *, dim, index: x + kernels.scatter_add(x.shape, dim, index, src).astype(x.dtype),
                       (Grad(lambda F, g, s: g, "grad"),
                        Grad(lambda F, g, s: F.gather(g, s.dim, s.index), "grad.gather(dim, index)")),
                       "self with src added at index along dim", saved=("index",), integers=AS_SELF)
SCATTER = _declare("scatter", "ScatterBackward0", ("self", "src"), _scatter_forward,
                   (Grad(lambda F, g, s: F.where(s.mask, 0.0, g), "grad, 0 where src was written"),
                    Grad(lambda F, g, s: F.gather(g, s.dim, s.index), "grad.gather(dim, index)")),
                   "self with src written at index along dim", saved=("index", "mask"), integers=AS_SELF)
SCATTER_VALUE = _declare("scatter_value", "ScatterBackward1", ("self",),
                         lambda x, *, dim, index, mask, value: np.where(mask, value, x).astype(x.dtype),
                         (Grad(lambda F, g, s: F.where(s.mask, 0.0, g), "grad, 0 where value was written"),),
                         "self with a number written at index along dim", saved=("mask",), jvp=ELEMENTWISE_JVP)
INDEX_SELECT = _declare("index_select", "IndexSelectBackward0", ("self",),
                        lambda x, *, dim, index: np.take(x, index, axis=dim) if x.ndim else x[index].reshape(()),
                        (Grad(lambda F, g, s: F.index_put_add(s.input_shape, _along_dim(s), g) if s.input_shape
                              else F.sum(g, None, False),
                              "zeros of self's shape with grad added at index along dim"),),
                        "self's slices at index along dim", saved=("index",))
MASKED_FILL = _declare("masked_fill", "MaskedFillBackward0", ("self",),
                       lambda x, *, mask, value: np.where(mask, np.asarray(value, dtype=x.dtype), x),
                       (Grad(lambda F, g, s: F.where(s.mask, 0.0, g), "grad, 0 where mask"),),
                       "self with value where mask is true", saved=("mask",), jvp=ELEMENTWISE_JVP)
MASKED_FILL_TENSOR = _declare("masked_fill_tensor", "MaskedFillBackward1", ("self", "value"),
                              lambda x, value, *, mask: np.where(mask, value.astype(x.dtype), x),
                              (Grad(lambda F, g, s: F.where(s.mask, 0.0, g), "grad, 0 where mask"),
                               Grad(lambda F, g, s: F.sum(F.where(s.mask, g, 0.0), None, False),
                                    "grad where mask, summed")),
                              "self with a 0-d tensor value where mask is true", saved=("mask",), integers=AS_SELF)


# ---------------------------------------------------------------------------- advanced indexing (x[idx])
def is_advanced(item: Any) -> bool:
    """An index item numpy and PyTorch treat as advanced: a tensor, a list, an array, or a bool."""
    return isinstance(item, (Tensor, list, np.ndarray, bool, np.bool_))


def split_index(x: Tensor, items: list) -> tuple[tuple, tuple]:
    """x[items] as PyTorch runs it: the basic part first (integers select, slices slice, None inserts a dim),
    then one advanced index over the dims that remain (full slices where the basic part kept a dim)."""
    arrays = [index_array(i) if is_advanced(i) and not isinstance(i, (bool, np.bool_)) else i for i in items]
    consumed = sum(a.ndim if isinstance(a, np.ndarray) and a.dtype == np.bool_ else
                   0 if a is None or a is Ellipsis or isinstance(a, (bool, np.bool_)) else 1 for a in arrays)
    ellipses = [at for at, a in enumerate(arrays) if a is Ellipsis]
    if len(ellipses) > 1:
        raise BadValueError("an index can only have a single ellipsis ('...')", reason="index")
    if consumed > x.ndim:
        raise OutOfRangeError(f"too many indices for tensor of dimension {x.ndim}", reason="index")
    if ellipses:
        arrays[ellipses[0]:ellipses[0] + 1] = [slice(None)] * (x.ndim - consumed)
    basic: list = []
    advanced: list = []
    dim = 0  # the dim of x the next item indexes
    after = _after_basic(x._data.shape, arrays)
    kept = 0  # the dim of x[basic part] the next item indexes (PyTorch's messages count there)
    for a in arrays:
        if isinstance(a, (bool, np.bool_)):
            basic.append(None)
            advanced.append(np.zeros(1 if a else 0, dtype=np.int64))
        elif isinstance(a, np.ndarray):
            span = a.ndim if a.dtype == np.bool_ else 1
            _check_array(a, x._data.shape[dim:dim + span], dim, (after, kept))
            basic.extend([slice(None)] * span)
            advanced.append(a)
            dim += span
            kept += span
        elif a is None:
            basic.append(None)
            advanced.append(slice(None))
        else:
            basic.append(a)
            if isinstance(a, slice):
                advanced.append(slice(None))
                kept += 1
            dim += 1
    return tuple(basic), tuple(advanced)


def _after_basic(shape: tuple[int, ...], arrays: list) -> list[int]:
    """The shape of x[the basic part of the index]: the dims integers select dropped (None and bools ignored)."""
    after, dim = [], 0
    for a in arrays:
        if a is None or isinstance(a, (bool, np.bool_)):
            continue
        span = a.ndim if isinstance(a, np.ndarray) and a.dtype == np.bool_ else 1
        if not isinstance(a, (int, np.integer)):
            after.extend(shape[dim:dim + span])
        dim += span
    return after + list(shape[dim:])


def _check_array(a: np.ndarray, sizes: tuple[int, ...], dim: int, where: tuple[list, int]) -> None:
    """A mask of the indexed dims' shape, integers in range; the messages are PyTorch's (they name the shape
    after the basic part of the index, and the dim there)."""
    if a.dtype == np.bool_:
        if a.shape != sizes:
            after, kept = where
            bad = next((j for j, (m, n) in enumerate(zip(a.shape, sizes)) if m != n), 0)
            raise IndexShapeError(f"The shape of the mask {list(a.shape)} at index {bad} does not match the shape of "
                                  f"the indexed tensor {list(after)} at index {kept + bad}", reason="index",
                                  shapes=(a.shape, sizes))
    else:
        _check_bounds(a, sizes[0], dim)


def broadcast_indices(where: tuple) -> tuple[int, ...]:
    """The shape the index arrays of an advanced index broadcast to, or PyTorch's IndexError."""
    arrays = [a for a in where if isinstance(a, np.ndarray)]
    try:
        return np.broadcast_shapes(*(a.shape if a.dtype != np.bool_ else (int(np.count_nonzero(a)),)
                                     for a in arrays))
    except ValueError:
        raise IndexShapeError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                              + ", ".join(str(list(a.shape) if a.dtype != np.bool_ else [int(np.count_nonzero(a))])
                                          for a in arrays), reason="index") from None


def index(x: Tensor, where: tuple) -> Tensor:
    """The advanced part of x[...] (IndexBackward0), where holds arrays and full slices for x's dims."""
    shape = broadcast_indices(where)
    check_elements((*shape, math.prod(x._data.shape) // max(1, _covered(x, where))), "the indexing result")
    return apply(INDEX, (x,), {"indices": where})


def take_rows(x: Tensor, rows: np.ndarray) -> Tensor:
    """x[rows] for an integer array of one or more dims and x of one or more (IndexBackward0): what split_index
    and index do for such an index, without their general walk over the index's items."""
    rows = rows.astype(np.int64, copy=False)
    shape = x._data.shape
    _check_bounds(rows, shape[0], 0)
    check_elements((*rows.shape, math.prod(shape) // max(1, shape[0])), "the indexing result")
    return apply(INDEX, (x,), {"indices": (rows,)})


def _covered(x: Tensor, where: tuple) -> int:
    """How many of x's elements one position of the index arrays spans (the indexed dims' sizes)."""
    count, dim = 1, 0
    for a in where:
        span = a.ndim if isinstance(a, np.ndarray) and a.dtype == np.bool_ else 1
        if isinstance(a, np.ndarray):
            count *= math.prod(x._data.shape[dim:dim + span])
        dim += span
    return count


# ---------------------------------------------------------------------------- the functions
@builtin("gather(input, dim, index)", ("gather",))
@with_axis
def gather(input: Any, dim: int, index: Any) -> Tensor:
    x = tensor_arg(input)
    d, idx = _dim_index(x, dim, index, "gather")
    return apply(GATHER, (x,), {"dim": d, "index": idx})


@builtin("take_along_dim(input, indices, dim=None)", ("gather", "expand", "view"))
@with_axis
def take_along_dim(input: Any, indices: Any, dim: Any = None) -> Tensor:
    """input's elements at indices along dim (the flattened input without dim), broadcast as PyTorch does."""
    x = tensor_arg(input)
    idx = index_array(indices, "take_along_dim's indices")
    if dim is None:
        return gather(reshape(x, -1), 0, idx.reshape(-1))
    d = check_dim(dim, x.ndim)
    if idx.ndim != x.ndim:
        raise ShapeError(f"take_along_dim(): input and indices should have the same number of dimensions, but got "
                         f"{x.ndim} dimensions for input, and {idx.ndim} dimensions for indices", reason="index")
    sizes = list(x._data.shape)
    sizes[d] = idx.shape[d]
    try:
        target = list(np.broadcast_shapes(tuple(sizes), idx.shape))
    except ValueError:
        raise ShapeError(f"take_along_dim(): shapes {tuple(x.shape)} and {idx.shape} do not broadcast outside "
                         f"dim {d}", reason="index", shapes=(tuple(x.shape), idx.shape)) from None
    idx = np.broadcast_to(idx, tuple(target))
    target[d] = x._data.shape[d]
    return gather(expand(x, tuple(target)), d, np.ascontiguousarray(idx))


@builtin("scatter(input, dim, index, src=None, value=None)", ("scatter", "scatter_value"))
@with_axis
def scatter(input: Any, dim: int, index: Any, src: Any = None, value: Any = None) -> Tensor:
    """input with src (a tensor) or value (a number) written at index along dim."""
    x = tensor_arg(input)
    d, idx = _dim_index(x, dim, index, "scatter")
    mask = kernels.scattered_mask(x._data.shape, d, idx)
    if src is None and value is None:
        raise BadValueError("scatter() needs src= (a tensor) or value= (a number)", reason="scatter")
    if isinstance(src, Tensor) and value is None:
        _check_src(src, idx, "scatter")
        return apply(SCATTER, (x, src), {"dim": d, "index": idx, "mask": mask})
    number_value = checked_number(int_or_number(value if value is not None else src, "scatter's value"),
                                  x._data.dtype)  # refused where the dtype cannot hold it (uint8 and 300), as PyTorch
    return apply(SCATTER_VALUE, (x,), {"dim": d, "index": idx, "mask": mask, "value": number_value})


def _check_src(src: Tensor, idx: np.ndarray, name: str) -> None:
    if src.ndim != idx.ndim or any(a > b for a, b in zip(idx.shape, src._data.shape)):
        raise ShapeError(f"{name}(): src {tuple(src.shape)} must have the index's dims and be no smaller than the "
                         f"index {idx.shape}", reason="index", shapes=(tuple(src.shape), idx.shape))


@builtin("scatter_add(input, dim, index, src)", ("scatter_add",))
@with_axis
def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Tensor:
    x, source = tensor_arg(input), tensor_arg(src, "src")
    d, idx = _dim_index(x, dim, index, "scatter_add")
    _check_src(source, idx, "scatter_add")
    if source._data.shape != idx.shape and source.requires_grad:
        source = source[tuple(slice(0, n) for n in idx.shape)]
    return apply(SCATTER_ADD, (x, source), {"dim": d, "index": idx})


@builtin("index_select(input, dim, index)", ("index_select",))
@with_axis
def index_select(input: Any, dim: int, index: Any) -> Tensor:
    x = tensor_arg(input)
    d = check_dim(dim, x.ndim)
    idx = index_array(index, "index_select's index")
    if idx.ndim > 1 or idx.dtype == np.bool_:
        raise BadValueError("index_select(): Index is supposed to be a vector of integers", reason="index")
    idx = idx.reshape(-1)
    size = x._data.shape[d] if x.ndim else 1
    if idx.size and (idx.max() >= size or idx.min() < -size):
        raise OutOfRangeError("index out of range in self", reason="index")
    check_elements((*x._data.shape[:d], idx.size, *x._data.shape[d + 1:]), "the index_select result")
    return apply(INDEX_SELECT, (x,), {"dim": d, "index": np.where(idx < 0, idx + size, idx)})


@builtin("masked_fill(input, mask, value)", ("masked_fill", "masked_fill_tensor"))
def masked_fill(input: Any, mask: Any, value: Any) -> Tensor:
    x = tensor_arg(input)
    m = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        raise BadValueError(f"masked_fill only supports boolean masks, but got mask with dtype {m.dtype.name}",
                            hint="compare first, e.g. masked_fill(x, x < 0, 0)", reason="index")
    try:
        if np.broadcast_shapes(m.shape, x._data.shape) != x._data.shape:
            raise ValueError
    except ValueError:
        raise ShapeError(f"masked_fill: the mask's shape {m.shape} does not broadcast to the input's "
                         f"{tuple(x.shape)}", reason="broadcast", shapes=(m.shape, tuple(x.shape))) from None
    if isinstance(value, Tensor):  # PyTorch's masked_fill.Tensor: MaskedFillBackward1, the value's gradient too
        if value.ndim:
            raise BadValueError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                                f"{value.ndim} dimension(s).", hint="give a number or value.reshape(())",
                                reason="arguments")
        return apply(MASKED_FILL_TENSOR, (x, value), {"mask": m})
    value = checked_number(int_or_number(value, "masked_fill's value"), x._data.dtype)
    return apply(MASKED_FILL, (x,), {"mask": m, "value": value})
