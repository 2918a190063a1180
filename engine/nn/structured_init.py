"""torch.nn.init's orthogonal_, trunc_normal_, dirac_ and sparse_, and the deprecated names without the underscore
(uniform, normal, constant, eye, dirac, xavier_*, kaiming_*, orthogonal, sparse), which warn (FutureWarning) and do
the same. Each draws PyTorch's random numbers in PyTorch's order (normal_, uniform_, randperm of the generator), so
after manual_seed the same values; orthogonal_'s QR is LAPACK's through numpy, equal to PyTorch's within rounding."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.coerce import number
from ..core.modes import no_grad
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError
from ..random.distributions import normal_, randperm, uniform_
from .init import INIT_FUNCTIONS


def orthogonal_(tensor: Tensor, gain: Any = 1, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix (the dims after the first flattened) times gain: QR of normal samples."""
    if tensor.ndim < 2:
        raise InvalidArgumentError("Only tensors with 2 or more dimensions are supported")
    if tensor._data.size == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor._data.size // rows
    flattened = normal_(Tensor._make(np.empty((rows, cols), tensor._data.dtype)), 0, 1, generator=generator)._data
    if rows < cols:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diag(r)).astype(q.dtype)
    if rows < cols:
        q = q.T
    with no_grad():
        tensor._data[...] = q.reshape(tensor.shape).astype(tensor._data.dtype)
        tensor._data[...] = tensor._data * np.asarray(number(gain, "gain"), tensor._data.dtype)
        tensor._bump_version()
    return tensor


def norm_cdf(x: float) -> float:
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator: Any = None) -> Tensor:
    """Normal samples redrawn until within [a, b] (rejection from the uniform when [a, b] holds little mass)."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                      "be incorrect.", stacklevel=2)
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            values = by_redrawing(tensor, mean, std, a, b, generator)
        else:
            values = by_rejection(tensor, mean, std, a, b, generator)
        tensor._data[...] = values
        tensor._bump_version()
    return tensor


def fresh(like: np.ndarray) -> Tensor:
    return Tensor._make(np.empty_like(like, order="C"))


def by_redrawing(tensor: Tensor, mean: float, std: float, a: float, b: float, generator: Any) -> np.ndarray:
    """PyTorch's way when [a, b] is likely: normal samples, those outside redrawn (a whole tensor's draw each time)."""
    dtype = tensor._data.dtype
    lo, hi = float(np.asarray(a, dtype)), float(np.asarray(b, dtype))
    result = normal_(tensor, mean, std, generator=generator)._data.copy()
    while True:
        mask = (result < lo) | (result > hi)
        if not mask.any():
            return result
        result = np.where(mask, normal_(fresh(result), mean, std, generator=generator)._data, result)


def log_acceptance(candidates: np.ndarray, mean: float, std: float, log_peak: float) -> np.ndarray:
    """-0.5 * ((x - mean) / std) ** 2 - log_peak, in the tensor's dtype, step by step as PyTorch's in-place ops."""
    dtype = candidates.dtype.type
    return ((candidates - dtype(mean)) / dtype(std)) ** 2 * dtype(-0.5) - dtype(log_peak)


def by_rejection(tensor: Tensor, mean: float, std: float, a: float, b: float, generator: Any) -> np.ndarray:
    """PyTorch's way when [a, b] holds little mass: uniform candidates on [a, b] accepted with the normal's ratio."""
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    accept_buf = fresh(tensor._data)
    result = uniform_(tensor, a, b, generator=generator)._data.copy()
    candidates = log_acceptance(result, mean, std, log_peak)
    with np.errstate(divide="ignore"):
        pending = np.log(uniform_(accept_buf, generator=generator)._data) > candidates
    buffer = fresh(tensor._data)
    while pending.any():
        drawn = uniform_(buffer, a, b, generator=generator)._data
        result = np.where(pending, drawn, result)
        candidates = log_acceptance(drawn, mean, std, log_peak)
        with np.errstate(divide="ignore"):
            pending = np.where(pending, np.log(uniform_(accept_buf, generator=generator)._data) > candidates, pending)
    return result


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity of a convolution's weight (3, 4 or 5 dims): 1 at each kept channel's centre, per group."""
    dimensions = tensor.ndim
    if dimensions not in (3, 4, 5):
        raise InvalidArgumentError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise InvalidArgumentError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    centre = tuple(size // 2 for size in sizes[2:])
    with no_grad():
        tensor._data[...] = 0
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor._data[(g * per_group + d, d, *centre)] = 1
        tensor._bump_version()
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """Normal samples (std) with a fraction sparsity of each column's rows zeroed (rows from randperm)."""
    if tensor.ndim != 2:
        raise InvalidArgumentError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        normal_(tensor, 0, std, generator=generator)
        for col in range(cols):
            zero_rows = randperm(rows)._data[:num_zeros]
            tensor._data[zero_rows, col] = 0
        tensor._bump_version()
    return tensor


def deprecated(new_name: str, method: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """PyTorch's deprecated name (new_name without its underscore): a FutureWarning, then the method."""
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return method(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


NEW_INIT = {"orthogonal_": orthogonal_, "trunc_normal_": trunc_normal_, "dirac_": dirac_, "sparse_": sparse_}
ALL_INIT = {**INIT_FUNCTIONS, **NEW_INIT}
DEPRECATED = ("uniform_", "normal_", "constant_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_",
              "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_")
ALL_INIT.update({name[:-1]: deprecated(name, ALL_INIT[name]) for name in DEPRECATED})
