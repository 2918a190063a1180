"""scatter_reduce (and Tensor.scatter_reduce_): src's elements reduced into input at index along dim with
reduce = "sum", "prod", "mean", "amax" or "amin", counting input's own values unless include_self=False; one node,
ScatterReduceBackward0, whose gradients are PyTorch's (mean divides by the count; amax/amin share the gradient
equally among the elements equal to the result; prod: result / element, for non-zero elements)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.inplace import update_
from ..core.optable import AS_SELF, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels.gather_scatter import along, scattered_mask
from .gathers import index_array

REDUCTIONS = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}
IDENTITY = {"sum": 0, "prod": 1, "mean": 0, "amax": -np.inf, "amin": np.inf}


def _forward(x: np.ndarray, src: np.ndarray, *, dim: int, index: np.ndarray, reduce: str, include_self: bool,
             mask: np.ndarray, counts: np.ndarray) -> np.ndarray:
    out = x.copy()
    if not include_self:
        identity = IDENTITY[reduce]
        if out.dtype.kind != "f" and not np.isfinite(identity):
            identity = np.iinfo(out.dtype).min if reduce == "amax" else np.iinfo(out.dtype).max
        out[mask] = identity
    values = src[tuple(slice(0, n) for n in index.shape)].astype(out.dtype)
    REDUCTIONS[reduce].at(out, along(index, dim), values)
    if reduce == "mean":
        divided = out / counts if out.dtype.kind == "f" else np.floor_divide(out, counts.astype(out.dtype))
        out = np.where(mask, divided, out).astype(x.dtype)
    return out


def _extreme_shares(F: Any, g: Any, s: Any) -> tuple[Any, np.ndarray, np.ndarray]:
    """amax/amin: the gradient per element equal to the result (shared among them), and the two masks."""
    result = F.values(s.result)
    self_is = np.asarray(F.values(s.self) == result)
    src_is = np.asarray(F.values(s.src)[tuple(slice(0, n) for n in s.index.shape)] ==
                        np.take_along_axis(result, s.index, s.dim) if result.ndim else result)
    count = self_is.astype(np.float64) + np.zeros(result.shape)
    np.add.at(count, along(s.index, s.dim), src_is.astype(np.float64))
    return g / np.maximum(count, 1).astype(result.dtype), self_is, src_is


def _self_grad(F: Any, g: Any, s: Any) -> Any:
    if s.reduce == "sum":
        return g if s.include_self else F.where(s.mask, 0.0, g)
    if s.reduce == "mean":
        return F.where(s.mask, g / s.counts if s.include_self else 0.0, g)
    if s.reduce == "prod":
        return F.where(s.mask, g * s.result / s.self if s.include_self else 0.0, g)
    shared, self_is, _ = _extreme_shares(F, g, s)
    grad = shared * self_is.astype(s.result.dtype)  # (a product, as PyTorch's: -0.0 where grad is negative)
    return grad if s.include_self else F.where(s.mask, 0.0, grad)


def _src_grad(F: Any, g: Any, s: Any) -> Any:
    part = F.zeros_like(s.src) if s.index.shape != tuple(s.src.shape) else None
    if s.reduce == "sum":
        grad = F.gather(g, s.dim, s.index)
    elif s.reduce == "mean":
        grad = F.gather(g / s.counts, s.dim, s.index)
    elif s.reduce == "prod":
        grad = F.gather(g * s.result, s.dim, s.index) / s.src
    else:
        shared, _, src_is = _extreme_shares(F, g, s)
        grad = F.gather(shared, s.dim, s.index) * src_is.astype(s.result.dtype)
    if part is None:
        return grad
    raise BadValueError("scatter_reduce's gradient for a src larger than its index is not available in autodiff",
                        reason="scatter")


def _tangent(F: Any, t: Any, s: Any) -> Any:
    """scatter_reduce_jvp: sum and mean are linear (the op on the tangents); amax/amin take the tangent of the
    elements equal to the result (their mean, for ties); prod has none (PyTorch's formula returns an undefined
    tangent: the result is not a dual tensor)."""
    if s.reduce == "prod":
        return None
    part = tuple(slice(0, n) for n in s.index.shape)
    shape = tuple(s.result.shape)
    if s.reduce in ("sum", "mean"):
        params = {"dim": s.dim, "index": s.index, "reduce": s.reduce, "include_self": s.include_self, "mask": s.mask,
                  "counts": s.counts}
        if F.records:  # a tangent that records its graph: the op itself on the tangents (ScatterReduceBackward0)
            return apply(SCATTER_REDUCE, (t.self, t.src), params)
        return _forward(t.self, t.src, **params)
    result = F.values(s.result)
    self_is = np.asarray(F.values(s.self) == result) & (s.include_self | ~s.mask)
    src_is = np.asarray(F.values(s.src)[part] == np.take_along_axis(result, s.index, s.dim))
    count = self_is.astype(np.float64)
    np.add.at(count, along(s.index, s.dim), src_is.astype(np.float64))
    total = F.where(self_is, t.self, 0.0) + F.scatter_add(shape, s.dim, s.index, F.where(src_is, t.src[part], 0.0))
    return total / np.maximum(count, 1).astype(result.dtype)


SCATTER_REDUCE = declare(Op("scatter_reduce", "ScatterReduceBackward0", ("self", "src"), _forward,
                            (Grad(_self_grad, "grad where self counts (divided, shared) as the reduction says"),
                             Grad(_src_grad, "grad gathered at index (divided, shared) as the reduction says")),
                            "src reduced into self at index along dim (sum, prod, mean, amax, amin)",
                            saved=("index", "mask", "counts"), integers=AS_SELF, noisy=True, jvp=_tangent))


@builtin("scatter_reduce(input, dim, index, src, reduce, include_self=True)", ("scatter_reduce",))
def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True) -> Tensor:
    """input with src's elements reduced in at index along dim (reduce: sum, prod, mean, amax or amin)."""
    x, source = tensor_arg(input), tensor_arg(src, "src")
    if reduce not in REDUCTIONS:
        raise BadValueError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}",
                            reason="scatter")
    d = check_dim(dim, max(x.ndim, 1))
    idx = index_array(index, "scatter_reduce's index")
    if idx.ndim != max(x.ndim, 1) or source.ndim != idx.ndim or any(
            a > b for a, b in zip(idx.shape, source._data.shape)):
        raise ShapeError("Index tensor must have the same number of dimensions as self and src tensors, and be "
                         "no larger than src", reason="index")
    mask = scattered_mask(x._data.shape, d, idx)
    counts = np.zeros(x._data.shape, np.int64)
    np.add.at(counts, along(idx, d), 1)
    counts = np.maximum(counts + (1 if include_self else 0), 1).astype(x._data.dtype)
    return apply(SCATTER_REDUCE, (x, source), {"dim": d, "index": idx, "reduce": reduce,
                                               "include_self": bool(include_self), "mask": mask, "counts": counts})


def scatter_reduce_(self: Tensor, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True) -> Tensor:
    """x.scatter_reduce_(...): scatter_reduce written into x."""
    return update_(self, lambda t: scatter_reduce(t, dim, index, src, reduce, include_self=include_self),
                   "scatter_reduce_")


Tensor.scatter_reduce_ = scatter_reduce_

__all__ = ["SCATTER_REDUCE", "scatter_reduce", "scatter_reduce_"]
