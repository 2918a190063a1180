"""The ATen overloads that PyTorch's C++ composites of torch.nn.functional record and Python code never does:
add and sub of a tensor and a number (the core's AddBackward1 and SubBackward1: `x1 - x2 + eps` in
pairwise_distance, `cos - margin` in cosine_embedding_loss, `.add_(eps)` in rms_norm) and the p-norm over dims of
at::norm (NormBackward1). Python's `x + 1` records AddBackward0 (the number wrapped as a tensor)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import Grad, Op, declare
from ..core.recording import apply
from ..core.tensor import Tensor
from ..core.tensormath import ADD_SCALAR, SUB_SCALAR
from ..ops.reductions import NORM, reduced

NORM_DIM = declare(Op(
    "norm_dim", "NormBackward1", ("self",), NORM.forward, (Grad(NORM.grads[0].fn, NORM.grads[0].text),),
    "the p-norm over dims (at::norm's overload)", noisy=True, jvp=NORM.jvp))


def add_scalar(x: Tensor, other: float) -> Tensor:
    """x + other, recorded as AddBackward1."""
    return apply(ADD_SCALAR, (x,), {"other": float(other)})


def sub_scalar(x: Tensor, other: float) -> Tensor:
    """x - other, recorded as SubBackward1."""
    return apply(SUB_SCALAR, (x,), {"other": float(other)})


def norm_dim(x: Tensor, p: float, dim: Any, keepdim: bool = False) -> Tensor:
    """The p-norm of x over dim, recorded as NormBackward1."""
    dims, keep = reduced(x, dim, keepdim)
    return apply(NORM_DIM, (x,), {"dim": dims, "keepdim": keep, "p": float(p)})


def add_number(x: Tensor, other: Any) -> Tensor:
    """x + other as ATen adds a Scalar (AddBackward1), or a tensor (AddBackward0)."""
    return x + other if isinstance(other, Tensor) else add_scalar(x, other)


def clamped_min(x: Tensor, low: float) -> Tensor:
    """x with its values raised to at least low in place, without recording (PyTorch's clamp_min_ under no_grad)."""
    np.maximum(x._data, low, out=x._data)
    return x
