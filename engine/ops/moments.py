"""var_mean and std_mean: the variance (or standard deviation) and the mean over dims in one op with two outputs,
recorded as one node (VarMeanBackward0, StdMeanBackward0) as PyTorch records them; each output's gradient is
var's (std's) and mean's formula, added when both arrive (PyTorch's var_mean_backward, std_mean_backward)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg, with_axis
from ..core.optable import REDUCTIONS, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..kernels.arrays import c_order
from .reductions import correction_of, expand_back, ratio, reduced, reduced_count, variance


def _centered(F: Any, s: Any) -> Any:
    """self minus its mean over the reduced dims."""
    return s.self - F.sum(s.self, s.dim, True) * ratio(1.0, reduced_count(s))


def _added(parts: list) -> Any:
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _var_mean_grad(F: Any, g: Any, s: Any) -> Any:
    parts = []
    if g[0] is not None:
        parts.append(expand_back(F, g[0], s) * ratio(2.0, reduced_count(s) - s.correction) * _centered(F, s))
    if g[1] is not None:
        parts.append(expand_back(F, g[1] * ratio(1.0, reduced_count(s)), s))
    return _added(parts)


def _std_mean_grad(F: Any, g: Any, s: Any) -> Any:
    parts = []
    if g[0] is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            scaled = F.where(F.values(s.std) == 0, 0.0, g[0] / s.std)  # PyTorch: 0 where the std is 0
        parts.append(expand_back(F, scaled, s) * ratio(1.0, reduced_count(s) - s.correction) * _centered(F, s))
    if g[1] is not None:
        parts.append(expand_back(F, g[1] * ratio(1.0, reduced_count(s)), s))
    return _added(parts)


def _mean(x: np.ndarray, dim: tuple[int, ...], keepdim: bool) -> np.ndarray:
    return c_order(np.asarray(np.mean(x, axis=dim, keepdims=keepdim), dtype=x.dtype))


def _var_tangent(F: Any, t: Any, s: Any) -> Any:
    """var_jvp: sum((self - mean) * tangent) * 2 / (n - correction) over the reduced dims."""
    return F.sum(_centered(F, s) * t.self, s.dim, s.keepdim) * ratio(2.0, reduced_count(s) - s.correction)


def _moments(root: bool) -> Any:
    def forward(x: np.ndarray, *, dim: tuple[int, ...], keepdim: bool, correction: float) -> tuple:
        return variance(x, dim=dim, keepdim=keepdim, correction=correction, root=root), _mean(x, dim, keepdim)

    return forward


def _std_mean_tangent(F: Any, t: Any, s: Any) -> tuple:
    with np.errstate(divide="ignore", invalid="ignore"):
        std = np.where(s.std == 0, 0.0, _var_tangent(F, t, s) / (2 * s.std))
    return std, _mean(t.self, s.dim, s.keepdim)


VAR_MEAN = declare(Op("var_mean", "VarMeanBackward0", ("self",), _moments(False),
                      (Grad(_var_mean_grad, "grad_var * 2 * (self - mean) / (n - correction) + grad_mean / n"),),
                      "(variance, mean) over dims", group=REDUCTIONS, noisy=True, outputs=("var", "mean"),
                      jvp=lambda F, t, s: (_var_tangent(F, t, s), _mean(t.self, s.dim, s.keepdim))))
STD_MEAN = declare(Op("std_mean", "StdMeanBackward0", ("self",), _moments(True),
                      (Grad(_std_mean_grad, "grad_std * (self - mean) / (std * (n - correction)) + grad_mean / n"),),
                      "(standard deviation, mean) over dims", group=REDUCTIONS, noisy=True, outputs=("std", "mean"),
                      jvp=_std_mean_tangent))


def _moments_of(op: Op, input: Any, dim: Any, unbiased: Any, keepdim: Any, correction: Any) -> tuple[Tensor, Tensor]:
    if isinstance(dim, bool) and unbiased is None:  # var_mean(x, False): the unbiased flag (PyTorch's overload)
        dim, unbiased = None, dim
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    return apply(op, (x,), {"dim": dims, "keepdim": keep, "correction": correction_of(unbiased, correction)})


@builtin("var_mean(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("var_mean",), method=False)
@with_axis
def var_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    """(variance, mean) over dims, as var() and mean() give them, recorded as one node."""
    return _moments_of(VAR_MEAN, input, dim, unbiased, keepdim, correction)


@builtin("std_mean(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("std_mean",), method=False)
@with_axis
def std_mean(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    """(standard deviation, mean) over dims, as std() and mean() give them, recorded as one node."""
    return _moments_of(STD_MEAN, input, dim, unbiased, keepdim, correction)
