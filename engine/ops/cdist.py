"""torch.cdist: the p-norm distance between each row of x1 and each row of x2 (batches broadcast), recorded as
PyTorch records it: CdistBackward0, or for p = 2 with more than 25 rows (or compute_mode='use_mm_for_euclid_dist')
the matrix-product form, EuclideanDistBackward0 under a view."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import LINEAR_ALGEBRA, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .shapes import expand, view


def _cdist(x1: np.ndarray, x2: np.ndarray, *, p: float) -> np.ndarray:
    size = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 2:
        out = np.sqrt(np.sum(size * size, axis=-1))
    elif math.isinf(p):
        out = np.amax(size, axis=-1) if size.shape[-1] else np.sum(size, axis=-1)
    elif p == 0:
        out = np.sum(size != 0, axis=-1)
    elif p == 1:
        out = np.sum(size, axis=-1)
    else:
        out = np.sum(size**p, axis=-1) ** (1.0 / p)
    return np.ascontiguousarray(out, dtype=x1.dtype)


def _pair_terms(F: Any, g: Any, s: Any, second: bool) -> Any:
    """d dist(x1_i, x2_j) / d x1_i (or x2_j) times grad[i, j], for every pair (..., P, R, M): PyTorch's
    _cdist_backward (for x2 with the inputs swapped)."""
    one, two = F.unsqueeze(s.x1, -2), F.unsqueeze(s.x2, -3)
    diff = two - one if second else one - two
    gg, dist, p = F.unsqueeze(g, -1), F.unsqueeze(s.result, -1), s.p
    if p == 0:
        return F.zeros_like(diff)
    if p == 1:
        return gg * F.sgn(diff)
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 2:
            return gg * F.where(F.values(dist) == 0, 0.0, diff / dist)
        if math.isinf(p):
            mask = (np.abs(F.values(diff)) == F.values(dist)).astype(F.values(diff).dtype)
            return gg * F.sgn(diff) * mask
        size = diff * F.sgn(diff)
        zero = (F.values(dist) == 0) | ((F.values(diff) == 0) & (p < 1))
        return F.where(zero, 0.0, F.sgn(diff) * F.pow(size, p - 1) * gg / F.pow(dist, p - 1))


def _x1_grad(F: Any, g: Any, s: Any) -> Any:
    terms = _pair_terms(F, g, s, False)
    return F.sum(terms, (F.values(terms).ndim - 2,), False)


def _x2_grad(F: Any, g: Any, s: Any) -> Any:
    terms = _pair_terms(F, g, s, True)
    return F.sum(terms, (F.values(terms).ndim - 3,), False)


CDIST = declare(Op("cdist", "CdistBackward0", ("x1", "x2"), _cdist,
                   (Grad(_x1_grad, "_cdist_backward(grad, x1, x2, p, result)"),
                    Grad(_x2_grad, "_cdist_backward(grad.mT, x2, x1, p, result.mT)")),
                   "the p-norm distance of each pair of rows", group=LINEAR_ALGEBRA, noisy=True))


def _euclidean(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """PyTorch's _euclidean_dist: sqrt(clamp_min(|x1|^2 - 2 x1.x2 + |x2|^2, 0)) by one matrix product."""
    n1, n2 = np.sum(x1 * x1, axis=-1, keepdims=True), np.sum(x2 * x2, axis=-1, keepdims=True)
    left = np.concatenate([x1 * -2, n1, np.ones_like(n1)], axis=-1)
    right = np.concatenate([x2, np.ones_like(n2), n2], axis=-1)
    return np.sqrt(np.maximum(np.matmul(left, np.swapaxes(right, -1, -2)), 0))


def _ratio(F: Any, g: Any, s: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return F.where(F.values(s.result) == 0, 0.0, g / s.result)


EUCLIDEAN_DIST = declare(Op(
    "euclidean_dist", "EuclideanDistBackward0", ("x1", "x2"), _euclidean,
    (Grad(lambda F, g, s: s.x1 * F.sum(_ratio(F, g, s), (F.values(g).ndim - 1,), True)
          - F.matmul(_ratio(F, g, s), s.x2), "x1 * ratio.sum(-1, True) - ratio @ x2"),
     Grad(lambda F, g, s: s.x2 * F.unsqueeze(F.sum(_ratio(F, g, s), (F.values(g).ndim - 2,), False), -1)
          - F.matmul(F.transpose(_ratio(F, g, s), -1, -2), s.x1), "x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT @ x1")),
    "the euclidean distance of each pair of rows, by a matrix product", group=LINEAR_ALGEBRA, noisy=True))

_MODES = {None: 0, "use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
          "donot_use_mm_for_euclid_dist": 2}


def _check(x1: Tensor, x2: Tensor, p: Any, compute_mode: Any) -> tuple[float, int]:
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise ShapeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D", reason="cdist")
        if not np.issubdtype(x._data.dtype, np.floating):
            raise BadValueError(f"cdist only supports floating-point dtypes, {name} got: {x.dtype}", reason="dtype")
    if x1._data.shape[-1] != x2._data.shape[-1]:
        raise ShapeError(f"X1 and X2 must have the same number of columns. X1: {x1._data.shape[-1]} X2: "
                         f"{x2._data.shape[-1]}", reason="cdist")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not p >= 0:
        raise BadValueError("cdist only supports non-negative p values", reason="cdist")
    if compute_mode not in _MODES:
        raise BadValueError(f"{compute_mode} is not a valid value for compute_mode", reason="cdist")
    return float(p), _MODES[compute_mode]


@builtin("cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')", ("cdist", "euclidean_dist"),
         method=False)
def cdist(x1: Any, x2: Any, p: Any = 2.0, compute_mode: Any = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of x1 (..., P, M) and each of x2 (..., R, M): (..., P, R)."""
    a, b = tensor_arg(x1, "x1"), tensor_arg(x2, "x2")
    p, mode = _check(a, b, p, compute_mode)
    r1, r2 = a._data.shape[-2], b._data.shape[-2]
    if not (p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))) or a.numel() == 0 or b.numel() == 0:
        return apply(CDIST, (a, b), {"p": p})
    batch = np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    count, columns = math.prod(batch), a._data.shape[-1]
    if count == 1:
        dist = apply(EUCLIDEAN_DIST, (a, b))
    else:  # x.expand(batch + (r, c)).contiguous().view(count, r, c), as PyTorch's cdist_impl
        left = view(expand(a, *batch, r1, columns).contiguous(), count, r1, columns)
        right = view(expand(b, *batch, r2, columns).contiguous(), count, r2, columns)
        dist = apply(EUCLIDEAN_DIST, (left, right))
    return view(dist, *batch, r1, r2)
