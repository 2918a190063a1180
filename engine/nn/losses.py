"""The loss functions of torch.nn.functional that autograd tutorials use: mse_loss, l1_loss,
binary_cross_entropy and binary_cross_entropy_with_logits, with PyTorch's formulas and node names.

mse_loss and the two cross entropies are single ops with the reduction inside (MseLossBackward0, ...), as in
PyTorch; l1_loss is recorded as the ops PyTorch records for it (SubBackward0, AbsBackward0, then
MeanBackward0 or SumBackward0). The backward formulas are PyTorch's, in its order of operations: for
reduction='mean' the gradient is divided by the element count last."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, tensor_arg
from ..core.optable import LOSSES, REDUCTION_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels.summation import torch_sum
from ..ops.arithmetic import sub
from ..ops.elementwise import abs
from ..ops.reductions import mean, sum

# This module uses torch's abs and sum; Python's built-ins of those names are not used here.

REDUCTIONS = ("mean", "sum", "none")
EPSILON = float(np.float32(1e-12))  # PyTorch's floor for (1 - p) * p in binary_cross_entropy's gradient (a float)
LOG_FLOOR = -100.0  # PyTorch clamps binary_cross_entropy's logarithms here (log(0) would be -inf)


# ---------------------------------------------------------------------------- forward (numpy)
def _reduced(loss: np.ndarray, reduction: str, count: int) -> Any:
    if reduction == "none":
        return loss
    total = torch_sum(loss)  # (PyTorch's mean reduction: its sum, divided)
    return total / count if reduction == "mean" else total


def _mse_forward(x: np.ndarray, y: np.ndarray, *, reduction: str, count: int) -> Any:
    d = x - y
    return _reduced(d * d, reduction, count)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    """log(sigmoid(x)) without overflow: min(x, 0) - log1p(exp(-|x|)) (PyTorch's kernel)."""
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _bce_logits_forward(x: np.ndarray, y: np.ndarray, *, reduction: str, count: int, weight: Any = None,
                        pos_weight: Any = None) -> Any:
    """ATen's order: log_sigmoid(x) times (pos_weight - 1) * target + 1, then (1 - y) * x minus it, times weight."""
    log_sigmoid = _log_sigmoid(x)
    if pos_weight is not None:
        log_sigmoid = log_sigmoid * ((pos_weight - 1) * y + 1)
    loss = (1 - y) * x - log_sigmoid
    return _reduced(loss if weight is None else loss * weight, reduction, count)


def _bce_forward(p: np.ndarray, y: np.ndarray, *, reduction: str, count: int) -> Any:
    log_p = np.maximum(np.log(p), LOG_FLOOR)
    log_q = np.maximum(np.log1p(-p), LOG_FLOOR)
    return _reduced((y - 1) * log_q - y * log_p, reduction, count)


# ---------------------------------------------------------------------------- backward (any vocabulary F)
def _per_element(t: Any, s: Any) -> Any:
    return t / s.count if s.reduction == "mean" else t


def _mse_grad(F: Any, g: Any, s: Any) -> Any:
    return F.mse_backward(g, s.self, s.target, s.reduction, s.count)  # MseLossBackwardBackward0 under create_graph


def _mse_target_grad(F: Any, g: Any, s: Any) -> Any:
    return F.mse_backward(g, s.target, s.self, s.reduction, s.count)


def _divided(F: Any, t: Any, s: Any) -> Any:
    """PyTorch's `grad_input /= numel` for reduction='mean' (DivBackward1 under create_graph)."""
    return F.div_scalar(t, s.count) if s.reduction == "mean" else t


def _bce_logits_grad(F: Any, g: Any, s: Any) -> Any:
    """binary_cross_entropy_with_logits_backward: (pos_weight * target + 1 - target) * sigmoid(self) - pos_weight *
    target (sigmoid(self) - target without pos_weight), times grad, times weight."""
    if s.pos_weight is None:
        grad = (F.sigmoid(s.self) - s.target) * g
    else:
        t = s.target * s.pos_weight
        grad = ((t + 1 - s.target) * F.sigmoid(s.self) - t) * g
    return _divided(F, grad if s.weight is None else grad * s.weight, s)


def _bce_logits_target_grad(F: Any, g: Any, s: Any) -> Any:
    if s.pos_weight is None:
        grad = -g * s.self
    else:
        grad = (F.log(F.sigmoid(-s.self)) - F.log(F.sigmoid(s.self)) * s.pos_weight) * g
    return _divided(F, grad if s.weight is None else grad * s.weight, s)


def _bce_grad(F: Any, g: Any, s: Any) -> Any:
    p = s.self
    floor = (1 - p) * p
    floor = F.where(F.values(floor) < EPSILON, EPSILON, floor)
    return _per_element(g * (p - s.target) / floor, s)


def _bce_target_grad(F: Any, g: Any, s: Any) -> Any:
    p = s.self
    return _per_element(-F.log(p / (1 - p)) * g, s)


MSE_LOSS = declare(Op("mse_loss", "MseLossBackward0", ("self", "target"), _mse_forward,
                      (Grad(_mse_grad, "2 * (self - target) * grad (/ numel for reduction='mean')"),
                       Grad(_mse_target_grad, "2 * (target - self) * grad (/ numel for reduction='mean')")),
                      "mean (or sum, or each) of (self - target)**2", group=LOSSES, noisy=True, jvp=REDUCTION_JVP))
BCE_WITH_LOGITS = declare(Op("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
                             ("self", "target"), _bce_logits_forward,
                             (Grad(_bce_logits_grad, "(sigmoid(self) - target) * grad (/ numel for reduction='mean')"),
                              Grad(_bce_logits_target_grad, "-self * grad (/ numel for reduction='mean')")),
                             "binary cross entropy of sigmoid(self) against target, computed stably from the logits",
                             group=LOSSES, noisy=True, jvp=REDUCTION_JVP))
BCE = declare(Op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target"), _bce_forward,
                 (Grad(_bce_grad, "grad * (self - target) / max((1 - self) * self, 1e-12) (/ numel for "
                       "reduction='mean')"),
                  Grad(_bce_target_grad, "-log(self / (1 - self)) * grad (/ numel for reduction='mean')")),
                 "-(target * log(self) + (1 - target) * log(1 - self)), logarithms floored at -100",
                 group=LOSSES, noisy=True, jvp=REDUCTION_JVP))
_LOSSES = {op.name: op for op in (MSE_LOSS, BCE_WITH_LOGITS, BCE)}


# ---------------------------------------------------------------------------- the built-ins
def _operands(name: str, input: Any, target: Any, reduction: Any) -> tuple[Tensor, Tensor]:
    x, y = tensor_arg(input), tensor_arg(target, "target")
    if not isinstance(reduction, str) or reduction not in REDUCTIONS:
        raise BadValueError(f"{name}: reduction must be 'mean', 'sum' or 'none', not {reduction!r}"[:200],
                            reason="reduction")
    if x.shape != y.shape:
        why = (" (PyTorch would broadcast them with a warning: usually a mistake)" if name in ("mse_loss", "l1_loss")
               else "")
        raise ShapeError(f"{name}: the target's shape {tuple(y.shape)} is not the input's {tuple(x.shape)}: give "
                         f"them the same shape{why}", reason="loss_shape")
    if x.dtype != y.dtype:
        raise BadValueError(f"{name}: the input is {x.dtype.name} and the target {y.dtype.name}: give both the same "
                            "dtype (e.g. target.to(input.dtype))", reason="loss_dtype")
    return x, y


def _loss(name: str, x: Tensor, y: Tensor, reduction: str) -> Tensor:
    return apply(_LOSSES[name], (x, y), {"reduction": reduction, "count": x.numel()})


@builtin("mse_loss(input, target, reduction='mean')", ("mse_loss",), method=False, functional=True,
         summary="mean squared error: mean((input - target)**2), or its sum, or each term (reduction)")
def mse_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    x, y = _operands("mse_loss", input, target, reduction)
    return _loss("mse_loss", x, y, reduction)


@builtin("l1_loss(input, target, reduction='mean')", ("sub", "abs", "mean", "sum"), method=False, functional=True,
         summary="mean absolute error: mean(abs(input - target)), recorded as those ops (as in PyTorch)")
def l1_loss(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    x, y = _operands("l1_loss", input, target, reduction)
    terms = abs(sub(x, y))
    return terms if reduction == "none" else mean(terms) if reduction == "mean" else sum(terms)


@builtin("binary_cross_entropy(input, target, reduction='mean')", ("binary_cross_entropy",), method=False,
         functional=True, summary="binary cross entropy of probabilities input (in [0, 1]) against target")
def binary_cross_entropy(input: Any, target: Any, reduction: str = "mean") -> Tensor:
    x, y = _operands("binary_cross_entropy", input, target, reduction)
    data = x._data
    if data.size and not bool(np.all((data >= 0) & (data <= 1))):
        raise BadValueError("binary_cross_entropy: all elements of input should be between 0 and 1 (probabilities; "
                            "for scores use binary_cross_entropy_with_logits)", reason="probabilities")
    return _loss("binary_cross_entropy", x, y, reduction)


@builtin("binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None)",
         ("binary_cross_entropy_with_logits",), method=False, functional=True,
         summary="binary cross entropy of sigmoid(input) against target, computed stably")
def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, reduction: str = "mean", *,
                                     pos_weight: Any = None) -> Tensor:
    """weight scales each element's loss, pos_weight the positive term (per class, broadcast over the last dim)."""
    x, y = _operands("binary_cross_entropy_with_logits", input, target, reduction)
    extra = {}
    for name, value in (("weight", weight), ("pos_weight", pos_weight)):
        data = None if value is None else tensor_arg(value, name)._data.astype(x._data.dtype)
        if data is not None:
            broadcast_shape(x._data.shape, data.shape)
        extra[name] = data
    return apply(BCE_WITH_LOGITS, (x, y), {"reduction": reduction, "count": x.numel(), **extra})
