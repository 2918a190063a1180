"""PyTorch's fused backward kernels on numpy arrays, the same expressions as the formulas they replace (so the
numbers do not change): the first backward pass computes them (NumpyMath), and a create_graph pass records
them as ops of their own (tensormath.py: SoftmaxBackwardDataBackward0, MseLossBackwardBackward0, ...;
nn/loss_backwards.py: NllLossBackwardBackward0, SmoothL1LossBackwardBackward0, HuberLossBackwardBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def softmax_backward(g: Any, result: Any, dim: Any) -> Any:
    """_softmax_backward_data: result * (grad - sum(grad * result, dim))."""
    return result * (g - np.sum(g * result, axis=dim, keepdims=True))


def log_softmax_backward(g: Any, result: Any, dim: Any) -> Any:
    """_log_softmax_backward_data: grad - exp(result) * sum(grad, dim)."""
    return g - np.exp(result) * np.add.reduce(g, axis=dim, keepdims=True)  # (np.sum's own call)


def mse_norm(reduction: str, count: int) -> float:
    """mse_loss's 2 / numel (mean) or 2 (sum, none); an empty mean's gradient is empty whatever it is."""
    return (2.0 / count if count else math.nan) if reduction == "mean" else 2.0


def mse_backward(g: Any, a: Any, b: Any, reduction: str, count: int) -> Any:
    """mse_loss_backward(grad, a, b): 2 * (a - b) * grad (/ numel for reduction='mean')."""
    return ((a - b) * mse_norm(reduction, count)) * g


def loss_norm(reduction: str, count: int) -> float:
    """1 / numel for reduction='mean' (nan for an empty mean), else 1."""
    return (1.0 / count if count else math.nan) if reduction == "mean" else 1.0


def smooth_l1_backward(g: Any, a: Any, b: Any, reduction: str, beta: float, count: int) -> Any:
    """(a - b) / beta * grad where |a - b| < beta, else sign(a - b) * grad (/ numel for 'mean')."""
    d, norm = a - b, loss_norm(reduction, count)
    return np.where(np.abs(d) < beta, d * norm * g / beta, np.sign(d) * norm * g)


def huber_backward(g: Any, a: Any, b: Any, reduction: str, delta: float, count: int) -> Any:
    """clamp(a - b, -delta, delta) * grad (/ numel for 'mean')."""
    d, norm = a - b, loss_norm(reduction, count)
    return np.where((d < -delta) | (d > delta), np.sign(d) * norm * g * delta, d * norm * g)


def nll_backward(g: Any, coefficients: Any, reduction: str, input_shape: tuple[int, ...]) -> Any:
    """-weight[target] * grad at [i, target[i]] (/ total weight for 'mean'): grad times the coefficients."""
    if reduction == "none" and len(input_shape) > 1:
        g = np.expand_dims(g, 1)
    return g * coefficients


def nll_forward(x: np.ndarray, coefficients: np.ndarray, reduction: str) -> np.ndarray:
    """nll_loss: -w[t] * x[t] (/ total weight) per sample, summed unless reduction='none'."""
    # (np.add.reduce is the call ndarray.sum makes, made here: engine/__init__.py on numpy's warnings)
    picked = np.add.reduce(x * coefficients, axis=1 if x.ndim > 1 else None)
    if reduction == "none" or x.ndim == 1:
        return np.asarray(picked, x.dtype)
    return np.asarray(np.add.reduce(picked, axis=None), x.dtype)


__all__ = ["huber_backward", "log_softmax_backward", "loss_norm", "mse_backward", "mse_norm", "nll_backward",
           "nll_forward", "smooth_l1_backward", "softmax_backward"]
