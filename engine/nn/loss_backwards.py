"""The backward kernels of nll_loss, smooth_l1_loss and huber_loss as ops of their own, so a create_graph pass
records PyTorch's NllLossBackwardBackward0, SmoothL1LossBackwardBackward0 and HuberLossBackwardBackward0 (as
tensormath.py records MseLossBackwardBackward0). Each kernel is the expression the loss's gradient used before
(so the first derivative's numbers do not change); the double-backward formulas are derivatives.yaml's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import LINEAR_JVP, LOSSES, Grad, Op, declare
from ..kernels import fused
from ..kernels.fused import huber_backward, loss_norm, smooth_l1_backward


def _inside(s: Any, F: Any, width: float) -> Any:
    return np.abs(F.values(s.self) - F.values(s.target)) < width


def _smooth_l1_tangent(F: Any, t: Any, s: Any) -> Any:
    """Linear in grad_output; in self and target, the second derivative's mask times grad_output."""
    inside = _inside(s, F, s.beta) if s.beta != 0 else False
    slope = np.where(inside, s.grad_output * (loss_norm(s.reduction, s.count) / (s.beta or 1)), 0)
    return smooth_l1_backward(t.grad_output, s.self, s.target, s.reduction, s.beta, s.count) + slope * (
        t.self - t.target)


def _huber_tangent(F: Any, t: Any, s: Any) -> Any:
    slope = np.where(_inside(s, F, s.delta), s.grad_output * loss_norm(s.reduction, s.count), 0)
    return huber_backward(t.grad_output, s.self, s.target, s.reduction, s.delta, s.count) + slope * (
        t.self - t.target)


def _smooth_l1_grad_output(F: Any, g: Any, s: Any) -> Any:
    """smooth_l1_loss_double_backward_grad_output: the kernel again on grad for 'none', else the sum of grad
    times the kernel on ones."""
    if s.reduction == "none":
        return F.smooth_l1_backward(g, s.self, s.target, s.reduction, s.beta, s.count)
    ones = F.zeros_like(s.grad_output) + 1
    return F.sum(F.smooth_l1_backward(ones, s.self, s.target, s.reduction, s.beta, s.count) * g, None, False)


def _smooth_l1_self(F: Any, g: Any, s: Any) -> Any:
    """smooth_l1_loss_double_backward(grad * grad_output): grad * grad_output / beta where |self - target| <
    beta, else 0 (/ numel for 'mean')."""
    if s.beta == 0:
        return F.zeros_like(g)
    return F.where(_inside(s, F, s.beta), (g * s.grad_output) * (loss_norm(s.reduction, s.count) / s.beta), 0.0)


def _huber_grad_output(F: Any, g: Any, s: Any) -> Any:
    if s.reduction == "none":
        return F.huber_backward(g, s.self, s.target, s.reduction, s.delta, s.count)
    ones = F.zeros_like(s.grad_output) + 1
    return F.sum(F.huber_backward(ones, s.self, s.target, s.reduction, s.delta, s.count) * g, None, False)


def _huber_self(F: Any, g: Any, s: Any) -> Any:
    """huber_loss_double_backward(grad * grad_output): grad * grad_output where |self - target| < delta, else 0
    (/ numel for 'mean')."""
    return F.where(_inside(s, F, s.delta), (g * s.grad_output) * loss_norm(s.reduction, s.count), 0.0)


SMOOTH_L1_BACKWARD = declare(Op(
    "smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", ("grad_output", "self", "target"),
    lambda g, a, b, *, reduction, beta, count: smooth_l1_backward(g, a, b, reduction, beta, count),
    (Grad(_smooth_l1_grad_output, "smooth_l1_loss_double_backward_grad_output(grad, grad_output, self, target)"),
     Grad(_smooth_l1_self, "grad * grad_output / beta where |self - target| < beta (/ numel for 'mean')"),
     Grad(lambda F, g, s: -_smooth_l1_self(F, g, s), "minus self's gradient")),
    "smooth_l1_loss's backward", group=LOSSES, jvp=_smooth_l1_tangent))
HUBER_BACKWARD = declare(Op(
    "huber_loss_backward", "HuberLossBackwardBackward0", ("grad_output", "self", "target"),
    lambda g, a, b, *, reduction, delta, count: huber_backward(g, a, b, reduction, delta, count),
    (Grad(_huber_grad_output, "huber_loss_double_backward_grad_output(grad, grad_output, self, target)"),
     Grad(_huber_self, "grad * grad_output where |self - target| < delta (/ numel for 'mean')"),
     Grad(lambda F, g, s: -_huber_self(F, g, s), "minus self's gradient")),
    "huber_loss's backward", group=LOSSES, jvp=_huber_tangent))
NLL_BACKWARD = declare(Op(
    "nll_loss_backward", "NllLossBackwardBackward0", ("grad_output", "self"),
    lambda g, x, *, coefficients, reduction, shape: fused.nll_backward(g, coefficients, reduction, shape),
    (Grad(lambda F, g, s: F.nll_loss(g, s.coefficients, s.reduction), "nll_loss(grad, target, weight)"),
     Grad(lambda F, g, s: F.zeros_like(g), "zeros_like(grad)")),
    "nll_loss's backward", group=LOSSES, jvp=LINEAR_JVP))

__all__ = ["HUBER_BACKWARD", "NLL_BACKWARD", "SMOOTH_L1_BACKWARD"]
