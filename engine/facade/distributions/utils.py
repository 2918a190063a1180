"""torch.distributions.utils: parameters broadcast to one shape, probabilities and logits into each other,
properties computed on first use."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ... import facade as torch
from ..nn import functional as F

NUMBERS = (bool, int, float)  # what PyTorch accepts beside tensors as a parameter


def batch_shape_of(given: tuple, broadcast: Any) -> Any:
    """A distribution's batch shape from its parameters as given and one of them broadcast: () when every one is
    a number (PyTorch's torch.Size()), else the broadcast parameter's size."""
    return () if all(isinstance(v, NUMBERS) for v in given) else broadcast.size()


def broadcast_tensors(*tensors: Any) -> tuple:
    """torch.broadcast_tensors: each tensor expanded to the shapes' broadcast (one already of it as it is)."""
    shape: tuple = ()
    for t in tensors:
        shape = _broadcast(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(torch.Size(shape)) for t in tensors)


def _broadcast(a: tuple, b: tuple) -> tuple:
    """The broadcast of two shapes, or PyTorch's RuntimeError naming the first dimension that differs."""
    ndim = max(len(a), len(b))
    out = []
    for dim in range(ndim):
        i, j = dim - ndim + len(a), dim - ndim + len(b)
        x, y = (a[i] if i >= 0 else 1), (b[j] if j >= 0 else 1)
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {dim}")
        out.append(y if x == 1 else x)
    return tuple(out)


def broadcast_all(*values: Any) -> tuple:
    """Numbers and tensors as tensors of one shape; numbers take the first tensor's dtype (else the default)."""
    if not all(isinstance(v, (torch.Tensor, *NUMBERS)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or objects implementing "
                         "__torch_function__.")
    dtype = next((v.dtype for v in values if isinstance(v, torch.Tensor)), torch.get_default_dtype())
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values]
    return broadcast_tensors(*tensors)


def standard_normal(shape: Any, dtype: Any) -> Any:
    """N(0, 1) samples of a shape, drawn as PyTorch's distributions draw them (empty(shape).normal_())."""
    return torch.empty(shape, dtype=dtype).normal_()


def sum_rightmost(value: Any, dims: int) -> Any:
    """value summed over its `dims` rightmost dimensions (itself for 0)."""
    if dims == 0:
        return value
    return value.reshape((*tuple(value.shape)[:-dims], -1)).sum(-1)


def logits_to_probs(logits: Any, is_binary: bool = False) -> Any:
    """sigmoid (two outcomes) or softmax over the last dim."""
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def clamp_probs(probs: Any) -> Any:
    """probs kept eps away from 0 and 1 (eps of their dtype)."""
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Any, is_binary: bool = False) -> Any:
    """log(p) - log(1 - p) (two outcomes) or log(p), of the clamped probabilities."""
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


def put(t: Any, mask: Any, value: float) -> Any:
    """t[mask] = value, in place (IndexPutBackward0); a 0-d t, which PyTorch writes through a view (CopySlices) and
    autodiff's indexing does not take, by where() instead (the same values and gradient, node WhereBackward0)."""
    if t.dim() == 0:
        return torch.where(mask, torch.tensor(value, dtype=t.dtype), t)
    t[mask] = value
    return t


def log_gamma(value: Any) -> Any:
    """lgamma of each element, as a tensor without history (autodiff has no torch.lgamma to record)."""
    if value.requires_grad:
        raise NotImplementedError("autodiff has no lgamma with a gradient: the value scored must not require grad")
    data = np.asarray(value.detach().numpy(), dtype=np.float64)
    out = np.array([_lgamma(x) for x in data.reshape(-1)], np.float64).reshape(data.shape)
    return torch.tensor(out, dtype=value.dtype if value.is_floating_point() else torch.get_default_dtype())


def _lgamma(x: float) -> float:
    """log|Gamma(x)|, inf at the poles (0, -1, -2, ...) and at +-inf, nan at nan (as PyTorch's lgamma)."""
    if math.isnan(x):
        return math.nan
    try:
        return math.lgamma(x)
    except (ValueError, OverflowError):
        return math.inf


class lazy_property:
    """A property computed on first use (with grad recorded) and then stored on the instance."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        self.__name__ = wrapped.__name__
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        instance.__dict__[self.wrapped.__name__] = value
        return value


__all__ = ["batch_shape_of", "broadcast_all", "clamp_probs", "lazy_property", "logits_to_probs", "probs_to_logits"]
