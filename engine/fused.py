"""PyTorch's fused backward kernels on numpy arrays, the same expressions as the formulas they replace (so the
numbers do not change): the first backward pass computes them (NumpyMath), and a create_graph pass records
them as ops of their own (tensormath.py: SoftmaxBackwardDataBackward0, MseLossBackwardBackward0, ...)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def softmax_backward(g: Any, result: Any, dim: Any) -> Any:
    """_softmax_backward_data: result * (grad - sum(grad * result, dim))."""
    return result * (g - np.sum(g * result, axis=dim, keepdims=True))


def log_softmax_backward(g: Any, result: Any, dim: Any) -> Any:
    """_log_softmax_backward_data: grad - exp(result) * sum(grad, dim)."""
    return g - np.exp(result) * np.sum(g, axis=dim, keepdims=True)


def mse_norm(reduction: str, count: int) -> float:
    """mse_loss's 2 / numel (mean) or 2 (sum, none); an empty mean's gradient is empty whatever it is."""
    return (2.0 / count if count else math.nan) if reduction == "mean" else 2.0


def mse_backward(g: Any, a: Any, b: Any, reduction: str, count: int) -> Any:
    """mse_loss_backward(grad, a, b): 2 * (a - b) * grad (/ numel for reduction='mean')."""
    return ((a - b) * mse_norm(reduction, count)) * g


__all__ = ["log_softmax_backward", "mse_backward", "mse_norm", "softmax_backward"]
