"""The helpers of the op table (ops.py): forward computations and backward formulas too long for a
lambda. A backward helper takes the vocabulary `F`, the gradient `g` and the saved values `s`."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import allocator
from .arrays import c_order, kept_shape


def _expand_reduced(F: Any, g: Any, s: Any) -> Any:
    """Broadcast the gradient of a reduction over `dim` back to the input's shape."""
    return F.expand(F.reshape(g, kept_shape(s.input_shape, s.dim)), s.input_shape)


def _max_all_grad(F: Any, g: Any, s: Any) -> Any:
    values = F.values(s.self)
    result = F.values(s.result)
    mask = np.isnan(values) if np.isnan(result) else values == result
    return F.where(mask, g / int(np.count_nonzero(mask)), 0.0)


def _indices_grad(F: Any, g: Any, s: Any) -> Any:
    """Gradient of a max/min over `dim`: all of it to the selected element (PyTorch's choice)."""
    if not s.input_shape:  # a 0-d input is its own max
        return g
    indices = s.indices if s.keepdim else np.expand_dims(s.indices, s.dim)
    mask = np.zeros(s.input_shape, dtype=bool)
    np.put_along_axis(mask, indices, True, axis=s.dim)
    g = g if s.keepdim else F.unsqueeze(g, s.dim)
    return F.where(mask, F.expand(g, s.input_shape), 0.0)


def _take_dim(x: np.ndarray, *, dim: int, keepdim: bool, indices: np.ndarray) -> np.ndarray:
    """The values at `indices` along `dim` (indices as argmax/argmin return them)."""
    if x.ndim == 0:
        return x.copy()
    values = np.take_along_axis(x, indices if keepdim else np.expand_dims(indices, dim), axis=dim)
    return values if keepdim else np.squeeze(values, axis=dim)


def _shifted(x: np.ndarray, dim: int) -> np.ndarray:
    """x minus its max along dim (for a stable exp); an empty x has no max and needs no shift."""
    return x - np.max(x, axis=dim, keepdims=True) if x.size else x


def _softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    e = np.exp(shifted)
    e /= np.sum(e, axis=dim, keepdims=True)
    return c_order(e)


def _log_softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    return c_order(shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True)))


def _pow_tensor_grad_self(F: Any, g: Any, s: Any) -> Any:
    exponent = F.values(s.exponent)
    return F.where(exponent == 0.0, 0.0, g * (s.exponent * s.self ** (s.exponent - 1)))


def _pow_tensor_grad_exponent(F: Any, g: Any, s: Any) -> Any:
    base, exponent = F.values(s.self), F.values(s.exponent)
    mask = (base == 0) & (exponent >= 0)
    return g * F.where(mask, 0.0, s.result * F.log(s.self))  # masked factor: an infinite grad still gives nan


def _pow_scalar_base_grad(F: Any, g: Any, s: Any) -> Any:
    log_base = F.log_number(s.base)
    if s.base != 0:
        return g * (s.result * log_base)
    # PyTorch defines the derivative of 0 ** e with respect to e as 0 for e >= 0 (a factor: inf * 0 is nan).
    return g * F.where(F.values(s.exponent) >= 0, 0.0, s.result * log_base)


def _clamp_forward(x: np.ndarray, *, min: float | None, max: float | None) -> np.ndarray:
    if min is not None and max is not None:
        return np.minimum(np.maximum(x, min), max)
    return np.maximum(x, min) if min is not None else np.minimum(x, max)


def _clamp_grad(F: Any, g: Any, s: Any) -> Any:
    x = F.values(s.self)  # the mask is built with the vocabulary's comparisons: arrays, or SymPy relations
    low = None if s.min is None else x >= s.min
    high = None if s.max is None else x <= s.max
    mask = high if low is None else low if high is None else low & high
    return F.where(mask, g, 0.0)


def _maximum_grad(F: Any, g: Any, a: Any, b: Any) -> Any:
    a, b = F.values(a), F.values(b)
    # PyTorch's rule: half on ties, nothing where a < b, the whole gradient otherwise (nan included)
    return F.where(a == b, g / 2.0, F.where(a < b, 0.0, g))


def _matmul_nd_self(F: Any, g: Any, s: Any) -> Any:
    other = s.other
    if other.ndim == 1:
        return F.unsqueeze(g, -1) * other
    if len(s.input_shape) == 1:  # a vector times a batch: g lacks the row dim the vector stood for
        g = F.unsqueeze(g, -2)
    return F.matmul(g, F.transpose(other, -1, -2))


def _matmul_nd_other(F: Any, g: Any, s: Any) -> Any:
    this = s.self
    if this.ndim == 1:
        return F.unsqueeze(this, -1) * F.unsqueeze(g, -2)
    if s.other_ndim == 1:
        return F.matmul(F.transpose(this, -1, -2), F.unsqueeze(g, -1))[..., 0]
    return F.matmul(F.transpose(this, -1, -2), g)


# ---------------------------------------------------------------------------- reductions of the calculus vocabulary
def _count(s: Any) -> int:
    """How many elements each result element of a reduction over `s.dim` summarizes."""
    return math.prod(s.input_shape[d] for d in s.dim)


def _back(F: Any, t: Any, s: Any) -> Any:
    """A reduced value (the gradient or the result) broadcast back to the input's shape."""
    return F.expand(F.reshape(t, kept_shape(s.input_shape, s.dim)), s.input_shape)


def _ratio(a: float, b: float) -> float:
    """a / b for the counts of var/std: inf (not an exception) when no degree of freedom is left."""
    return a / b if b else math.copysign(math.inf, a)


def _variance(x: np.ndarray, *, dim: Any, keepdim: bool, correction: float, root: bool = False) -> np.ndarray:
    """np.var (np.std with root) without numpy's "Degrees of freedom <= 0" warning: with no more elements
    than the correction the result is nan or inf, as in PyTorch (whose warning the user sees as that value)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return c_order((np.std if root else np.var)(x, axis=dim, ddof=correction, keepdims=keepdim))


def _var_grad(F: Any, g: Any, s: Any) -> Any:
    mean = F.sum(s.self, s.dim, True) * _ratio(1.0, _count(s))
    return _back(F, g, s) * _ratio(2.0, _count(s) - s.correction) * (s.self - mean)


def _std_grad(F: Any, g: Any, s: Any) -> Any:
    mean = F.sum(s.self, s.dim, True) * _ratio(1.0, _count(s))
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = F.where(F.values(s.result) == 0, 0.0, g / s.result)  # PyTorch: 0 where the std is 0
    return _back(F, scaled, s) * _ratio(1.0, _count(s) - s.correction) * (s.self - mean)


def _logsumexp_grad(F: Any, g: Any, s: Any) -> Any:
    return _back(F, g, s) * F.exp(s.self - _back(F, s.result, s))


def _extreme_grad(F: Any, g: Any, s: Any) -> Any:
    """amax/amin: the gradient shared evenly by the elements equal to the extreme."""
    values, result = F.values(s.self), np.asarray(F.values(s.result))
    mask = values == np.broadcast_to(result.reshape(kept_shape(s.input_shape, s.dim)), s.input_shape)
    count = np.broadcast_to(mask.sum(axis=s.dim, keepdims=True), s.input_shape)
    # PyTorch's (grad / count) * mask: where nothing equals the extreme (a nan), 0 * inf gives nan
    with np.errstate(divide="ignore", invalid="ignore"):
        return (_back(F, g, s) / count) * mask.astype(s.input_dtype)


def _norm_grad(F: Any, g: Any, s: Any) -> Any:
    norm = _back(F, s.result, s)
    return F.where(F.values(norm) == 0, 0.0, s.self * (_back(F, g, s) / norm))


def _prod_grad(F: Any, g: Any, s: Any) -> Any:
    return _back(F, g, s) * F.prod_others(s.self, s.result, s.dim)


def _cumsum_grad(F: Any, g: Any, s: Any) -> Any:
    return F.reverse_cumsum(g, s.dim)


def _cumprod_grad(F: Any, g: Any, s: Any) -> Any:
    return F.reverse_cumsum(g * s.result, s.dim) / s.self


def _logsumexp(x: np.ndarray, dim: tuple[int, ...], keepdim: bool) -> np.ndarray:
    """max + log(sum(exp(x - max))), as PyTorch computes it (an infinite max is not subtracted)."""
    top = np.amax(x, axis=dim, keepdims=True) if x.size else np.zeros([1] * x.ndim, dtype=x.dtype)
    top = np.where(np.isinf(top), 0, top)
    out = np.log(np.sum(np.exp(x - top), axis=dim, keepdims=True)) + top
    return c_order(out if keepdim else np.squeeze(out, axis=dim))


def _inverse(x: np.ndarray) -> np.ndarray:
    from .errors import BadValueError

    try:
        return allocator.inverse(x)
    except np.linalg.LinAlgError:
        raise BadValueError("inverse: the matrix is singular (its determinant is 0), so it has no inverse",
                            reason="singular") from None


def prod_others(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """For each element, the product of the other elements of its group along `dims` (zeros included)."""
    moved = np.moveaxis(x, dims, tuple(range(x.ndim - len(dims), x.ndim)))
    shape = moved.shape
    flat = moved.reshape((*shape[:x.ndim - len(dims)], -1))
    ones = np.ones((*flat.shape[:-1], 1), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], axis=-1), axis=-1), -1)
    return np.moveaxis((left * right).reshape(shape), tuple(range(x.ndim - len(dims), x.ndim)), dims)


def _atan2_grad(F: Any, g: Any, numerator: Any, s: Any) -> Any:
    """g * numerator * (1 / (self**2 + other**2)), the reciprocal taken as 0 at the origin (PyTorch's choice:
    a finite gradient gives 0 there, an infinite one nan)."""
    square = s.self * s.self + s.other * s.other
    with np.errstate(divide="ignore"):
        recip = F.where(F.values(square) == 0, 0.0, 1.0 / square)
    return g * numerator * recip
