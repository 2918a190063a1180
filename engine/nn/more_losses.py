"""More losses of torch.nn.functional: kl_div (ATen's xlogy(target, target) - target * input, or exp(target) *
(target - input) with log_target; 'batchmean' the sum over the batch size: DivBackward0), gaussian_nll_loss (PyTorch's
Python: 0.5 * (log(var) + (input - target)**2 / var), var cloned and clamped to eps without recording),
poisson_nll_loss (ATen's composite, with the Stirling term where target > 1 for full=True) and soft_margin_loss
(one op, SoftMarginLossBackward0, the reduction inside, as PyTorch)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import LOSSES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import BUILTINS, builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError
from ..kernels.summation import torch_sum
from ..ops.shapes import clone, unsqueeze
from .distances import add_scalar, clamped_min, reduced_loss, reduction_of


def _xlogy_self(t: Tensor) -> Tensor:
    """xlogy(t, t): the engine's xlogy where it has one (XlogyBackward0); a target without grad as a constant."""
    if t.requires_grad and "xlogy" in BUILTINS:
        return BUILTINS["xlogy"].fn(t, t)
    data = t._data
    with np.errstate(divide="ignore", invalid="ignore"):
        constant = np.where(data == 0, 0.0, data * np.log(data)).astype(data.dtype)
    if not t.requires_grad:
        return Tensor._make(np.where(np.isnan(data), np.nan, constant).astype(data.dtype))
    return (t * t.log()).masked_fill(Tensor._make(data == 0), 0.0)


@builtin("kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False)",
         ("sub", "mul", "exp", "mean", "sum", "div", "log", "masked_fill"), method=False, functional=True)
def kl_div(input: Any, target: Any, size_average: Any = None, reduce: Any = None, reduction: Any = "mean",
           log_target: Any = False) -> Tensor:
    """target * (log(target) - input) (log_target: exp(target) * (target - input)), reduced: 'batchmean' is the
    sum over the batch size."""
    x, t = tensor_arg(input), tensor_arg(target, "target")
    if x._data.dtype.kind not in "fc" or t._data.dtype.kind not in "fc":
        raise BadValueError("kl_div: Integral inputs not supported.", reason="dtype")
    batchmean = reduction == "batchmean" and size_average is None and reduce is None
    how = "sum" if batchmean else reduction_of(reduction, size_average, reduce)
    loss = t.exp() * (t - x) if log_target else _xlogy_self(t) - t * x
    out = reduced_loss(loss, how)
    return out / x._data.shape[0] if batchmean and x.ndim != 0 else out


@builtin("gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean')",
         ("unsqueeze", "clone", "log", "sub", "pow", "div", "add", "mul", "mean", "sum"), method=False,
         functional=True)
def gaussian_nll_loss(input: Any, target: Any, var: Any, full: Any = False, eps: Any = 1e-6,
                      reduction: Any = "mean") -> Tensor:
    """0.5 * (log(var) + (input - target)**2 / var) (+ 0.5 * log(2 pi) with full), var at least eps, reduced."""
    x, y = tensor_arg(input), tensor_arg(target, "target")
    if isinstance(var, float):
        if var < 0:
            raise InvalidArgumentError("var has negative entry/entries", reason="var")
        v = Tensor._make(np.full(x._data.shape, var, dtype=x._data.dtype))
    else:
        v = tensor_arg(var, "var")
        if bool(np.any(v._data < 0)):
            raise InvalidArgumentError("var has negative entry/entries", reason="var")
    if v.shape != x.shape:
        if tuple(x.shape)[:-1] == tuple(v.shape):
            v = unsqueeze(v, -1)
        elif not (x.ndim == v.ndim and sum(b for a, b in zip(x.shape, v.shape) if a != b) == 1):
            raise InvalidArgumentError("var is of incorrect size", reason="var")
    if reduction not in ("none", "mean", "sum"):
        raise InvalidArgumentError(f"{reduction} is not valid", reason="reduction")
    v = clamped_min(clone(v), number(eps, "eps"))
    loss = 0.5 * (v.log() + (x - y) ** 2 / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduced_loss(loss, reduction)


@builtin("poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, "
         "reduction='mean')", ("exp", "mul", "sub", "add_scalar", "log", "add", "masked_fill", "mean", "sum"),
         method=False, functional=True)
def poisson_nll_loss(input: Any, target: Any, log_input: Any = True, full: Any = False, size_average: Any = None,
                     eps: Any = 1e-8, reduce: Any = None, reduction: Any = "mean") -> Tensor:
    """exp(input) - target * input (log_input), else input - target * log(input + eps); full adds the Stirling
    approximation of log(target!) where target > 1; reduced."""
    if size_average is None and reduce is None and reduction not in ("none", "mean", "sum"):
        raise InvalidArgumentError(f"{reduction} is not a valid value for reduction", reason="reduction")
    how = reduction_of(reduction, size_average, reduce)
    x, y = tensor_arg(input), tensor_arg(target, "target")
    loss = x.exp() - y * x if log_input else x - y * add_scalar(x, number(eps, "eps")).log()
    if full:
        stirling = y * y.log() - y + 0.5 * (y * (2 * math.pi)).log()
        loss = loss + stirling.masked_fill(Tensor._make(y._data <= 1), 0.0)
    return reduced_loss(loss, how)


# ---------------------------------------------------------------------------- soft_margin_loss
def _soft_margin(x: np.ndarray, *, target: np.ndarray, reduction: str, count: int) -> Any:
    loss = np.log1p(np.exp(-x * target.astype(x.dtype)))
    if reduction == "none":
        return loss.astype(x.dtype)
    total = torch_sum(loss)
    return np.asarray(total / count if reduction == "mean" else total, dtype=x.dtype)


def _soft_margin_terms(F: Any, s: Any) -> Any:
    """d loss / d input per element: -target * z / (1 + z), z = exp(-target * input) (over count for 'mean')."""
    z = F.exp(s.self * -s.target)
    terms = z * -s.target / (z + 1)
    return terms / s.count if s.reduction == "mean" else terms


def _soft_margin_tangent(F: Any, t: Any, s: Any) -> Any:
    terms = _soft_margin_terms(F, s) * t.self
    return terms if s.reduction == "none" else F.sum(terms, tuple(range(len(s.self.shape))), False)


SOFT_MARGIN_LOSS = declare(Op(
    "soft_margin_loss", "SoftMarginLossBackward0", ("self",), _soft_margin,
    (Grad(lambda F, g, s: _soft_margin_terms(F, s) * g,
          "grad * -target * exp(-target * self) / (1 + exp(-target * self)) (/ numel for 'mean')"),),
    "log(1 + exp(-target * self)), reduced", group=LOSSES, noisy=True, jvp=_soft_margin_tangent))


@builtin("soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean')", ("soft_margin_loss",),
         method=False, functional=True)
def soft_margin_loss(input: Any, target: Any, size_average: Any = None, reduce: Any = None,
                     reduction: Any = "mean") -> Tensor:
    """log(1 + exp(-target * input)), reduced (target is +1 or -1)."""
    how = reduction_of(reduction, size_average, reduce)
    x, y = tensor_arg(input), tensor_arg(target, "target")
    if y.requires_grad:
        raise BadValueError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                            "'target'. This input cannot have requires_grad True.", reason="target")
    # the target is a parameter, as it cannot require grad (so its node has one next function, as PyTorch's); a
    # write into it after the call is not detected by backward, where PyTorch's saved target would be
    target_data = np.broadcast_to(y._data.astype(x._data.dtype), x._data.shape)
    return apply(SOFT_MARGIN_LOSS, (x,), {"target": target_data, "reduction": how, "count": x.numel()})
