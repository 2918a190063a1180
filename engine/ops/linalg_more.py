"""More of torch.linalg and the matrix functions scripts use: cross (LinalgCrossBackward0), dist (DistBackward0),
kron and matrix_power (recorded as PyTorch composes them: _unsafe_view around a mul; chains of matmul), and
matrix_norm ('fro', 'nuc', +-1, +-inf)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, tensor_arg
from ..core.optable import LINEAR_ALGEBRA, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import BUILTINS, builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .arithmetic import mul
from .linalg import inverse, matmul
from .shapes import UNSAFE_VIEW, clone

_ROLL1, _ROLL2 = np.array([1, 2, 0]), np.array([2, 0, 1])


def _cross(F: Any, u: Any, v: Any, dim: int) -> Any:
    """u x v along dim, in the vocabulary F (the components rolled by one and by two)."""
    ut, vt = F.transpose(u, dim, -1), F.transpose(v, dim, -1)
    first = F.index(ut, (Ellipsis, _ROLL1)) * F.index(vt, (Ellipsis, _ROLL2))
    second = F.index(ut, (Ellipsis, _ROLL2)) * F.index(vt, (Ellipsis, _ROLL1))
    return F.transpose(first - second, dim, -1)


CROSS = declare(Op("linalg_cross", "LinalgCrossBackward0", ("self", "other"),
                   lambda a, b, *, dim: np.ascontiguousarray(np.cross(a, b, axis=dim)),
                   (Grad(lambda F, g, s: _cross(F, s.other, g, s.dim), "linalg_cross(other, grad, dim)"),
                    Grad(lambda F, g, s: _cross(F, g, s.self, s.dim), "linalg_cross(grad, self, dim)")),
                   "the cross product of 3-vectors along dim", group=LINEAR_ALGEBRA,
                   jvp=lambda F, t, s: _cross(F, t.self, s.other, s.dim) + _cross(F, s.self, t.other, s.dim)))


def _dist_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's norm_backward(grad, self - other, p, result) for the norm of all elements."""
    d, p, norm = s.self - s.other, s.p, s.result
    if p == 0:
        return F.zeros_like(d)
    if p == 1:
        return g * F.sgn(d)
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 2:
            return g * F.where(F.values(norm) == 0, 0.0, d / norm)
        if math.isinf(p):
            mask = (np.abs(F.values(d)) == F.values(norm)).astype(F.values(d).dtype)
            return F.sgn(d) * ((g / mask.sum()) * mask)
        size = d * F.sgn(d)
        scale = F.where(F.values(norm) == 0, 0.0, g / F.pow(norm, p - 1))
        return F.sgn(d) * F.pow(size, p - 1) * scale


def _dist_tangent(F: Any, t: Any, s: Any) -> Any:
    """PyTorch's norm_jvp(self - other, self_t - other_t, p, result) for the norm of all elements."""
    d, dt, p, norm = s.self - s.other, t.self - t.other, s.p, s.result
    if p == 0:
        return F.zeros_like(norm)
    if p == 1:
        return F.sum(F.sgn(d) * dt, None, False)
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 2:
            return F.where(F.values(norm) == 0, 0.0, F.sum(d * dt, None, False) / norm)
        if math.isinf(p):
            mask = (np.abs(F.values(d)) == F.values(norm)).astype(F.values(d).dtype)
            return F.sum(F.sgn(d) * dt * mask, None, False) / mask.sum()
        size = d * F.sgn(d)
        return F.where(F.values(norm) == 0, 0.0,
                       F.sum(F.sgn(d) * F.pow(size, p - 1) * dt, None, False) / F.pow(norm, p - 1))


def _dist(a: np.ndarray, b: np.ndarray, *, p: float) -> np.ndarray:
    size = np.abs(a - b)
    if p == 2:
        out = np.sqrt(np.sum(size * size))
    elif math.isinf(p):
        out = (np.amax if p > 0 else np.amin)(size) if size.size else 0.0
    elif p == 0:
        out = np.sum(size != 0)
    else:
        out = np.sum(size**p) ** (1.0 / p)
    return np.asarray(out, dtype=np.result_type(a, b))


DIST = declare(Op("dist", "DistBackward0", ("self", "other"), _dist,
                  (Grad(_dist_grad, "norm_backward(grad, self - other, p, result)"),
                   Grad(lambda F, g, s: -_dist_grad(F, g, s), "-norm_backward(grad, self - other, p, result)")),
                  "the p-norm of self - other", group=LINEAR_ALGEBRA, noisy=True, jvp=_dist_tangent))


def _broadcast(a: Tensor, b: Tensor) -> None:
    """PyTorch's error when two shapes do not broadcast (the dimension counted in the result)."""
    sa, sb = tuple(a.shape), tuple(b.shape)
    n = max(len(sa), len(sb))
    for i in range(1, n + 1):
        x, y = (sa[-i] if i <= len(sa) else 1), (sb[-i] if i <= len(sb) else 1)
        if x != y and 1 not in (x, y):
            raise ShapeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                             f"dimension {n - i}", reason="broadcast", shapes=(sa, sb))


def _floating(x: Tensor, name: str) -> None:
    if not np.issubdtype(x._data.dtype, np.floating):
        raise BadValueError(f"{name}: expected a floating point tensor, got {x.dtype}", reason="dtype")


@builtin("cross(input, other, dim=None)", ("linalg_cross",),
         summary="the cross product of 3-vectors along dim (the first dim of size 3 when dim is None)")
def cross(input: Any, other: Any, dim: Any = None) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(other, "other")
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                      "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                      "with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        sizes = broadcast_shape(tuple(a.shape), tuple(b.shape))
        if 3 not in sizes:
            raise ShapeError("no dimension of size 3 in input", reason="cross")
        dim = sizes.index(3)
    return _linalg_cross(a, b, dim)


@builtin("linalg_cross(input, other, dim=-1)", ("linalg_cross",), method=False)
def linalg_cross(input: Any, other: Any, dim: int = -1) -> Tensor:
    """torch.linalg.cross: the cross product of 3-vectors along dim (inputs broadcast)."""
    return _linalg_cross(tensor_arg(input), tensor_arg(other, "other"), dim)


def _linalg_cross(a: Tensor, b: Tensor, dim: Any) -> Tensor:
    if a.ndim != b.ndim:
        raise ShapeError("linalg.cross: inputs must have the same number of dimensions.",
                         reason="cross")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) or not -max(a.ndim, 1) <= dim < max(a.ndim, 1):
        raise BadValueError(f"Dimension out of range (expected to be in range of [{-a.ndim}, {a.ndim - 1}], but got "
                            f"{dim})", reason="dim")
    sa, sb = a._data.shape[dim], b._data.shape[dim]
    if sa != 3 or sb != 3:
        raise ShapeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {sa} and {sb}",
                         reason="cross")
    _broadcast(a, b)
    return apply(CROSS, (a, b), {"dim": int(dim)})


@builtin("dist(input, other, p=2)", ("dist",), summary="the p-norm of input - other (broadcast)")
def dist(input: Any, other: Any, p: Any = 2) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(other, "other")
    _floating(a, "dist")
    _broadcast(a, b)
    return apply(DIST, (a, b), {"p": float(p)})


@builtin("kron(input, other)", ("unsafe_view", "mul"),
         summary="the Kronecker product, recorded as PyTorch's: _unsafe_view of a mul of two _unsafe_views")
def kron(input: Any, other: Any) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(other, "other")
    n = max(a.ndim, b.ndim)
    sa = (1,) * (n - a.ndim) + tuple(a._data.shape)
    sb = (1,) * (n - b.ndim) + tuple(b._data.shape)
    left = apply(UNSAFE_VIEW, (a,), {"shape": tuple(x for k in sa for x in (k, 1))})
    right = apply(UNSAFE_VIEW, (b,), {"shape": tuple(x for k in sb for x in (1, k))})
    return apply(UNSAFE_VIEW, (mul(left, right),), {"shape": tuple(x * y for x, y in zip(sa, sb))})


@builtin("matrix_power(input, n)", ("mm", "inverse", "clone"),
         summary="a square matrix (or batch) to an integer power, recorded as PyTorch's chain of matmul")
def matrix_power(input: Any, n: Any) -> Tensor:
    a = tensor_arg(input)
    shape = tuple(a.shape)
    if len(shape) < 2:
        raise ShapeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.",
                         reason="matrix")
    if shape[-1] != shape[-2]:
        raise ShapeError(f"linalg.matrix_power: A must be batches of square matrices, but they are {shape[-2]} by "
                         f"{shape[-1]} matrices", reason="matrix")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    n = int(n)
    if n == 0:
        eye = np.broadcast_to(np.eye(shape[-1], dtype=a._data.dtype), shape)
        return clone(a).copy_(Tensor._make(np.array(eye)))
    if n < 0:
        a, n = inverse(a), -n
        if n == 1:
            return a
    if n == 1:
        return clone(a)
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = result = None
    while n > 0:  # PyTorch's binary decomposition
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


@builtin("matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False)", ("norm", "amax", "amin"), method=False)
def matrix_norm(A: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False) -> Tensor:
    """torch.linalg.matrix_norm: 'fro', 'nuc', 1, -1, inf, -inf (as PyTorch composes them)."""
    x = tensor_arg(A)
    if x.ndim < 2:
        raise ShapeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.", reason="matrix")
    if ord == "fro":
        return BUILTINS["vector_norm"].fn(x, 2, tuple(dim), keepdim)
    if ord == "nuc":
        return BUILTINS["nuclear_norm"].fn(x, tuple(dim), keepdim)
    if ord in (1, -1, math.inf, -math.inf):
        d0, d1 = (int(d) % x.ndim for d in dim)
        if ord in (math.inf, -math.inf):
            d0, d1 = d1, d0
        summed = BUILTINS["vector_norm"].fn(x, 1, d0, keepdim)  # PyTorch: a 1-norm over d0, then amax / amin
        return BUILTINS["amax" if ord > 0 else "amin"].fn(summed, d1 - (d1 > d0 and not keepdim), keepdim)
    raise BadValueError(f"linalg.matrix_norm: Order {ord} not supported.", reason="norm")
