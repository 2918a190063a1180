"""PyTorch's functions that pick parts of tensors or build index grids, recorded as PyTorch records them:
select (SelectBackward0) and narrow (SliceBackward0), Tensor.unfold (UnfoldBackward0, a view of windows),
masked_select (MaskedSelectBackward0), meshgrid (views expanded: ExpandBackward0), diff (SubBackward0 of two
slices), clamp_max (ClampMaxBackward0); and nonzero/argwhere, count_nonzero, isnan/isinf/isfinite/isposinf/
isneginf, tril_indices/triu_indices, which have no gradient (int64 and bool results, as PyTorch's)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core.coerce import one_bound, tensor_arg
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, KEPT, LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError, OutOfRangeError, ShapeError
from .constructors import leaf
from .joins import cat
from .logic import where
from .shapes import SELECT, SLICE, expand, view


@builtin("select(input, dim, index)", ("select",))
def select(input: Any, dim: int, index: int) -> Tensor:
    """The slice at `index` along dim, without that dim (x.select(0, i) is x[i])."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise OutOfRangeError("select() cannot be applied to a 0-dim tensor.", reason="index")
    d = check_dim(dim, x.ndim)
    size = x._data.shape[d]
    if not -size <= index < size:
        raise OutOfRangeError(f"select(): index {index} out of range for tensor of size {list(x.shape)} at "
                              f"dimension {d}", reason="index")
    return apply(SELECT, (x,), {"dim": d, "index": int(index) % size})


@builtin("narrow(input, dim, start, length)", ("slice",))
def narrow(input: Any, dim: int, start: Any, length: int) -> Tensor:
    """length elements from start along dim: a view (x.narrow(0, 1, 2) is x[1:3])."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise BadValueError("narrow() cannot be applied to a 0-dim tensor.", reason="index")
    d = check_dim(dim, x.ndim)
    size = x._data.shape[d]
    begin = int(start.item() if isinstance(start, Tensor) else start)
    if not -size <= begin <= size:
        raise OutOfRangeError(f"start out of range (expected to be in range of [{-size}, {size}], but got {begin})",
                              reason="index")
    begin %= size if size else 1
    if length < 0 or begin + length > size:
        raise BadValueError(f"start ({begin}) + length ({length}) exceeds dimension size ({size}).", reason="index")
    return apply(SLICE, (x,), {"dim": d, "start": begin, "stop": begin + length, "step": 1})


def _windows(x: np.ndarray, *, dim: int, size: int, step: int, **_: Any) -> np.ndarray:
    count = (x.shape[dim] - size) // step + 1 if x.ndim else 1
    if x.ndim == 0:
        return x.reshape(1)
    shape = (*x.shape[:dim], count, *x.shape[dim + 1:], size)
    strides = (*x.strides[:dim], x.strides[dim] * step, *x.strides[dim + 1:], x.strides[dim])
    return np.lib.stride_tricks.as_strided(x, shape, strides)


UNFOLD = declare(Op("unfold", "UnfoldBackward0", ("self",), _windows,
                    (Grad(lambda F, g, s: F.index_put_add(s.input_shape, s.where, g),
                          "zeros of self's shape with each window's grad added at its place"),),
                    "windows of `size` every `step` along dim, as a new last dim (a view)", group=SHAPES,
                    view=True, jvp=LINEAR_JVP, integers=KEPT))


@builtin("unfold(input, dimension, size, step)", ("unfold",))
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """x.unfold(dimension, size, step): the windows of `size` elements every `step` along dimension (a view)."""
    x = tensor_arg(self)
    d = check_dim(dimension, max(x.ndim, 1))
    length = x._data.shape[d] if x.ndim else 1
    if size > length:
        raise BadValueError(f"maximum size for tensor at dimension {d} is {length} but size is {size}",
                            reason="unfold")
    if step <= 0:
        raise BadValueError(f"step is {step} but must be > 0", reason="unfold")
    count = (length - size) // step + 1
    grid = np.indices((*x._data.shape[:d], count, *x._data.shape[d + 1:], size), sparse=True)
    where = [*grid[:-1]]
    if x.ndim:
        where[d] = grid[d] * step + grid[-1]
    return apply(UNFOLD, (x,), {"dim": d, "size": size, "step": step, "where": tuple(where),
                                "input_shape": x._data.shape})


MASKED_SELECT = declare(Op("masked_select", "MaskedSelectBackward0", ("self",),
                           lambda x, *, shape, where: np.broadcast_to(x, shape)[where],
                           (Grad(lambda F, g, s: F.index_put_add(np.broadcast_shapes(tuple(s.self.shape), s.shape),
                                                                 s.where, g),
                                 "zeros of the broadcast shape with grad where mask"),),
                           "the elements where mask is true, as a vector", jvp=LINEAR_JVP, integers=KEPT))


@builtin("masked_select(input, mask)", ("masked_select",))
def masked_select(input: Any, mask: Any) -> Tensor:
    """The elements of input where mask (broadcast with it) is True, in order, as a 1-D tensor."""
    x, m = tensor_arg(input), tensor_arg(mask, "mask")
    if m._data.dtype != np.bool_:
        raise BadValueError(f"masked_select: expected BoolTensor for mask, got {m.dtype}", reason="mask")
    try:
        shape = np.broadcast_shapes(x._data.shape, m._data.shape)
    except ValueError:
        raise ShapeError(f"The size of tensor a ({x._data.shape[-1]}) must match the size of tensor b "
                         f"({m._data.shape[-1]})", reason="broadcast") from None
    return apply(MASKED_SELECT, (x,), {"shape": shape, "where": np.nonzero(np.broadcast_to(m._data, shape))})


@builtin("meshgrid(*tensors, indexing=None)", ("view", "expand"), method=False)
def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    """Coordinate grids: with indexing='ij' grid i varies along dim i; 'xy' swaps the first two (numpy's)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise BadValueError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}',
                            reason="meshgrid")
    inputs = [tensor_arg(t) for t in tensors]
    for t in inputs:
        if t.ndim > 1:
            raise BadValueError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}",
                                reason="meshgrid")
    if len({t.dtype for t in inputs}) > 1:
        raise BadValueError("meshgrid expects all tensors to have the same dtype", reason="meshgrid")
    swap = indexing == "xy" and len(inputs) >= 2
    if swap:
        inputs[0], inputs[1] = inputs[1], inputs[0]
    sizes = [t.numel() for t in inputs]
    grids = []
    for i, t in enumerate(inputs):
        shape = [1] * len(inputs)
        shape[i] = -1
        grids.append(expand(view(t, *shape), *sizes))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@builtin("nonzero(input, as_tuple=False)", ())
def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements: an int64 (count, ndim) tensor, or one vector per dim (as_tuple)."""
    data = tensor_arg(input)._data
    found = np.nonzero(np.atleast_1d(data))
    if as_tuple:
        return tuple(leaf(i.astype(np.int64), False) for i in found)
    return leaf(np.stack(found, axis=1).astype(np.int64).reshape(-1, data.ndim), False)


@builtin("argwhere(input)", ())
def argwhere(input: Any) -> Tensor:
    """nonzero(input): the indices of the non-zero elements, (count, ndim), int64."""
    return nonzero(input)


@builtin("count_nonzero(input, dim=None)", ())
def count_nonzero(input: Any, dim: Any = None) -> Tensor:
    """How many elements are non-zero (over dim, or all), int64."""
    data = tensor_arg(input)._data
    axis = None if dim is None else tuple(check_dim(d, data.ndim) for d in (dim if isinstance(dim, (list, tuple))
                                                                            else (dim,)))
    return leaf(np.asarray(np.count_nonzero(data, axis=axis), dtype=np.int64), False)


def _test(name: str, test: Any, doc: str) -> None:
    def fn(input: Any) -> Tensor:
        data = tensor_arg(input)._data
        return leaf(test(data) if data.dtype.kind == "f" else np.full(data.shape, name == "isfinite"), False)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    builtin(f"{name}(input)", ())(fn)


_test("isnan", np.isnan, "True where the element is NaN.")
_test("isinf", np.isinf, "True where the element is +inf or -inf.")
_test("isfinite", np.isfinite, "True where the element is neither NaN nor infinite.")
_test("isposinf", np.isposinf, "True where the element is +inf.")
_test("isneginf", np.isneginf, "True where the element is -inf.")


def _indices(row: int, col: int, offset: int, lower: bool) -> Tensor:
    rows, cols = np.tril_indices(row, offset, col) if lower else np.triu_indices(row, offset, col)
    return leaf(np.stack([rows, cols]).astype(np.int64).reshape(2, -1), False)


@builtin("tril_indices(row, col, offset=0, dtype=None)", (), method=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None) -> Tensor:
    """The (2, count) indices of the lower triangle of a row x col matrix (below the offset-th diagonal)."""
    return _indices(row, col, offset, True)


@builtin("triu_indices(row, col, offset=0, dtype=None)", (), method=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None) -> Tensor:
    """The (2, count) indices of the upper triangle of a row x col matrix (from the offset-th diagonal)."""
    return _indices(row, col, offset, False)


CLAMP_MAX = declare(Op("clamp_max", "ClampMaxBackward0", ("self",), lambda x, *, max: np.minimum(max, x),
                       (Grad(lambda F, g, s: F.where(F.values(s.self) <= s.max, g, 0.0), "grad where self <= max"),),
                       "self lowered to max where it is above", group=ELEMENTWISE,
                       symbolic=lambda M, a, *, max: M.minimum(a, max), jvp=ELEMENTWISE_JVP, integers=KEPT))


@builtin("clamp_max(input, max)", ("clamp_max",), op=CLAMP_MAX)
def clamp_max(input: Any, max: float) -> Tensor:
    """clamp(input, max=max) recorded as PyTorch's clamp_max (ClampMaxBackward0)."""
    x, high = one_bound(input, max, "max")
    return apply(CLAMP_MAX, (x,), {"max": high})


@builtin("diff(input, n=1, dim=-1, prepend=None, append=None)", ("slice", "sub"))
def diff(input: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Tensor:
    """The n-th forward difference along dim (x[1:] - x[:-1], n times), after prepend and append."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise BadValueError("diff expects input to be at least one-dimensional", reason="diff")
    d = check_dim(dim, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = cat([tensor_arg(p) for p in parts], d)
    for _ in range(n):
        length = x._data.shape[d]
        if length == 0:
            break
        x = narrow(x, d, 1, length - 1) - narrow(x, d, 0, length - 1)
    return x


def tensor_where(self: Tensor, condition: Any, other: Any) -> Tensor:
    """x.where(condition, y): torch.where(condition, x, y)."""
    return where(condition, self, other)


Tensor.where = tensor_where  # PyTorch's method form of torch.where (the function's first argument is the condition)

__all__ = ["CLAMP_MAX", "MASKED_SELECT", "UNFOLD", "argwhere", "clamp_max", "count_nonzero", "diff",
           "masked_select", "meshgrid", "narrow", "nonzero", "select", "tensor_where", "tril_indices",
           "triu_indices", "unfold"]
