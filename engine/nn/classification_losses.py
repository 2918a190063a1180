"""The losses of torch.nn.functional that classification and regression tutorials add to losses.py's:
nll_loss (NllLossBackward0), cross_entropy (log_softmax then nll_loss, as PyTorch records it; class
probabilities as targets too), smooth_l1_loss (SmoothL1LossBackward0) and huber_loss (HuberLossBackward0),
with PyTorch's formulas, reductions, class weights and ignore_index.

Class indices may be an integer tensor or, since a list literal makes a float tensor here, a float tensor of
whole numbers."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import ELEMENTWISE_JVP, LINEAR_JVP, LOSSES, REDUCTION_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels import fused
from ..ops.arithmetic import mul, neg
from ..ops.reductions import log_softmax_along, sum
from .linear_functions import linear  # noqa: F401  (the layers come before the losses in `autodiff ops`)
from .losses import REDUCTIONS, l1_loss

# This module uses torch's sum; Python's built-in of that name is not used here.


def _reduced(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "none":
        return loss
    total = np.add.reduce(loss, axis=None)  # (np.sum's call, from here: see engine/__init__.py on warnings)
    return np.asarray(total / loss.size if reduction == "mean" else total, loss.dtype)


# ---------------------------------------------------------------------------- nll_loss
def _nll_forward(x: np.ndarray, *, coefficients: np.ndarray, reduction: str) -> np.ndarray:
    return fused.nll_forward(x, coefficients, reduction)


def _nll_grad(F: Any, g: Any, s: Any) -> Any:
    # PyTorch's node saves self (unused by the formula): reading it saves it too, so a second backward and a
    # write into the input after the forward pass fail as in PyTorch
    return F.nll_backward(g, s.self, s.coefficients, s.reduction, s.input_shape)


NLL_LOSS = declare(Op("nll_loss", "NllLossBackward0", ("self",), _nll_forward,
                      (Grad(_nll_grad, "-weight[target] * grad at [i, target[i]] (/ total weight for 'mean')"),),
                      "-input[i, target[i]] * weight[target[i]], averaged by the total weight (or summed, or each)",
                      group=LOSSES, jvp=LINEAR_JVP))


def _classes(target: Any, input: Tensor, ignore_index: int) -> np.ndarray:
    """The class index of every sample, checked against the number of classes (C, dim 1 of input)."""
    t = tensor_arg(target, "target")
    data = t._data
    if data.dtype.kind == "f":
        if data.size and not bool(np.all(np.isfinite(data) & (data == np.round(data)))):
            raise BadValueError("nll_loss: target must hold class indices (whole numbers), got fractions",
                                hint="for class probabilities use cross_entropy with a target of input's shape",
                                reason="target")
    elif data.dtype.kind not in "iu":
        raise BadValueError(f"nll_loss: expected class indices as target, got {data.dtype}", reason="target")
    expected = input._data.shape[:1] + input._data.shape[2:] if input.ndim > 1 else ()
    if data.shape != expected:
        raise ShapeError(f"Expected target of shape {expected} for input of shape {tuple(input.shape)}, got "
                         f"{tuple(data.shape)}", reason="loss_shape")
    classes = input._data.shape[1] if input.ndim > 1 else input._data.shape[0]
    indices = data.astype(np.int64)
    if indices.size and indices.min() >= 0 and indices.max() < classes:  # every index a class: nothing to name
        return indices
    bad = (indices != ignore_index) & ((indices < 0) | (indices >= classes))
    if bad.any():
        raise BadValueError(f"Target {int(indices[bad][0])} is out of bounds (there are {classes} classes)",
                            reason="target")
    return indices


def _coefficients(x: Tensor, indices: np.ndarray, weight: Any, ignore_index: int, reduction: str) -> np.ndarray:
    """-w[t] at every sample's target class (0 elsewhere), divided by the total weight for 'mean'."""
    data = x._data if x.ndim > 1 else x._data[None]
    classes = data.shape[1]
    if weight is None and data.ndim == 2:  # the common case, as below: -1 at the target, -0.0 elsewhere
        return _unweighted(data, indices if x.ndim > 1 else indices[None], ignore_index, reduction, x.ndim)
    w = np.ones(classes, data.dtype) if weight is None else tensor_arg(weight, "weight")._data.astype(data.dtype)
    if w.shape != (classes,):
        raise ShapeError(f"weight tensor should be defined either for all {classes} classes or no classes but got "
                         f"weight tensor of shape: {tuple(w.shape)}", reason="loss_shape")
    kept = indices if x.ndim > 1 else indices[None]
    valid = kept != ignore_index
    safe = np.where(valid, kept, 0)
    per_sample = np.where(valid, w[safe], 0).astype(data.dtype)
    onehot = np.eye(classes, dtype=data.dtype)[safe]
    if onehot.ndim > 2:
        onehot = np.moveaxis(onehot, -1, 1)  # (N, C, ...)
    coefficients = -onehot * per_sample[:, None]
    if reduction == "mean":
        coefficients = coefficients / per_sample.sum(dtype=data.dtype)
    return coefficients if x.ndim > 1 else coefficients[0]


def _unweighted(data: np.ndarray, kept: np.ndarray, ignore_index: int, reduction: str, ndim: int) -> np.ndarray:
    """_coefficients of an (N, C) input without class weights, the same values computed directly: -onehot *
    per_sample is -per_sample at the target and -0.0 * per_sample (-0.0) elsewhere."""
    valid = kept != ignore_index
    per_sample = valid.astype(data.dtype)
    coefficients = np.full(data.shape, -0.0, data.dtype)
    coefficients[np.arange(len(kept)), np.where(valid, kept, 0)] = -per_sample
    if reduction == "mean":
        coefficients /= per_sample.sum(dtype=data.dtype)
    return coefficients if ndim > 1 else coefficients[0]


def _reduction(name: str, reduction: Any) -> str:
    if not isinstance(reduction, str) or reduction not in REDUCTIONS:
        raise BadValueError(f"{name}: reduction must be 'mean', 'sum' or 'none', not {reduction!r}"[:200],
                            reason="reduction")
    return reduction


@builtin("nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')", ("nll_loss",), method=False,
         functional=True, summary="negative log likelihood: -input[i, target[i]], averaged (input: log-probabilities)")
def nll_loss(input: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean") -> Tensor:
    x = tensor_arg(input)
    reduction = _reduction("nll_loss", reduction)
    if x.ndim == 0:
        raise ShapeError("nll_loss: input must have a class dimension (shape (C,) or (N, C))", reason="loss_shape")
    indices = _classes(target, x, int(ignore_index))
    coefficients = _coefficients(x, indices, weight, int(ignore_index), reduction)
    return apply(NLL_LOSS, (x,), {"coefficients": coefficients, "reduction": reduction})


# ---------------------------------------------------------------------------- cross_entropy
# A tensor divided by a number in PyTorch's C++ (cross_entropy's mean over probabilities): DivBackward1
DIV_SCALAR = declare(Op("div_scalar", "DivBackward1", ("self",), lambda x, *, other: x / other,
                        (Grad(lambda F, g, s: g / s.other, "grad / other"),), "a tensor divided by a number",
                        jvp=ELEMENTWISE_JVP))


@builtin("cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)",
         ("log_softmax", "nll_loss", "mul", "sum", "neg", "div_scalar"), method=False, functional=True,
         summary="nll_loss(log_softmax(input, dim=1), target): the classification loss of raw scores (logits)")
def cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    x = tensor_arg(input)
    if x.ndim == 0:  # PyTorch: "Dimension specified as 1 but tensor has no dimensions" (an IndexError)
        raise ShapeError("cross_entropy: the input has no dimensions: give the scores of the classes (a vector, "
                         "or one row per sample)", reason="cross_entropy", shapes=((),))
    reduction = _reduction("cross_entropy", reduction)
    if number(label_smoothing, "label_smoothing") != 0:
        raise BadValueError("cross_entropy: label_smoothing is not available (use 0.0)", reason="label_smoothing")
    class_dim = 1 if x.ndim > 1 else 0
    log_p = log_softmax_along(x, class_dim)
    t = tensor_arg(target, "target")
    if t._data.shape == x._data.shape and t._data.dtype.kind == "f":  # class probabilities
        if weight is not None:
            log_p = mul(log_p, tensor_arg(weight, "weight").reshape(-1, *([1] * (x.ndim - 2))))
        terms = mul(log_p, t)
        if reduction == "none":
            return neg(sum(terms, class_dim))
        total = neg(sum(terms))
        if reduction == "sum":
            return total
        return apply(DIV_SCALAR, (total,), {"other": x.numel() / x._data.shape[class_dim]})
    return nll_loss(log_p, t, weight, ignore_index, reduction)


# ---------------------------------------------------------------------------- smooth_l1_loss, huber_loss
def _smooth_l1_forward(x: np.ndarray, y: np.ndarray, *, reduction: str, beta: float, count: int) -> np.ndarray:
    z = np.abs(x - y)
    half = np.asarray(0.5, x.dtype)
    b = np.asarray(beta, x.dtype)
    return _reduced(np.where(z < b, half * z * z / b, z - half * b).astype(x.dtype), reduction)


def _huber_forward(x: np.ndarray, y: np.ndarray, *, reduction: str, delta: float, count: int) -> np.ndarray:
    z = np.abs(x - y)
    half = np.asarray(0.5, x.dtype)
    d = np.asarray(delta, x.dtype)
    return _reduced(np.where(z < d, half * z * z, d * (z - half * d)).astype(x.dtype), reduction)


def _smooth_l1_grad(F: Any, g: Any, s: Any) -> Any:
    return F.smooth_l1_backward(g, s.self, s.target, s.reduction, s.beta, s.count)


def _huber_grad(F: Any, g: Any, s: Any) -> Any:
    return F.huber_backward(g, s.self, s.target, s.reduction, s.delta, s.count)


SMOOTH_L1 = declare(Op("smooth_l1_loss", "SmoothL1LossBackward0", ("self", "target"), _smooth_l1_forward,
                       (Grad(_smooth_l1_grad, "where(|self - target| < beta, (self - target) / beta, sign(self - "
                             "target)) * grad (/ numel for 'mean')"),
                        Grad(lambda F, g, s: F.smooth_l1_backward(g, s.target, s.self, s.reduction, s.beta, s.count),
                             "smooth_l1_loss_backward(grad, target, self)")),
                       "0.5 * d**2 / beta where |d| < beta, else |d| - 0.5 * beta (d = self - target)",
                       group=LOSSES, noisy=True, jvp=REDUCTION_JVP))
HUBER = declare(Op("huber_loss", "HuberLossBackward0", ("self", "target"), _huber_forward,
                   (Grad(_huber_grad, "clamp(self - target, -delta, delta) * grad (/ numel for 'mean')"),
                    Grad(lambda F, g, s: F.huber_backward(g, s.target, s.self, s.reduction, s.delta, s.count),
                         "huber_loss_backward(grad, target, self)")),
                   "0.5 * d**2 where |d| < delta, else delta * (|d| - 0.5 * delta) (d = self - target)",
                   group=LOSSES, noisy=True, jvp=REDUCTION_JVP))


def _pair(name: str, input: Any, target: Any, reduction: Any) -> tuple[Tensor, Tensor, str]:
    x, y = tensor_arg(input), tensor_arg(target, "target")
    if x.shape != y.shape:
        raise ShapeError(f"{name}: the target's shape {tuple(y.shape)} is not the input's {tuple(x.shape)}: give "
                         "them the same shape", reason="loss_shape")
    if x.dtype != y.dtype:
        raise BadValueError(f"{name}: the input is {x.dtype.name} and the target {y.dtype.name}: give both the "
                            "same dtype",
                            reason="loss_dtype")
    return x, y, _reduction(name, reduction)


@builtin("smooth_l1_loss(input, target, reduction='mean', beta=1.0)", ("smooth_l1_loss", "sub", "abs", "mean", "sum"),
         method=False, functional=True, summary="squared error below beta, absolute error above it")
def smooth_l1_loss(input: Any, target: Any, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    x, y, reduction = _pair("smooth_l1_loss", input, target, reduction)
    b = number(beta, "beta")
    if b < 0:
        raise BadValueError("smooth_l1_loss does not support negative values for beta.", reason="beta")
    if b == 0:
        return l1_loss(x, y, reduction)
    return apply(SMOOTH_L1, (x, y), {"reduction": reduction, "beta": b, "count": x.numel()})


@builtin("huber_loss(input, target, reduction='mean', delta=1.0)", ("huber_loss",), method=False, functional=True,
         summary="0.5 * error**2 below delta, delta * (|error| - delta / 2) above it")
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    x, y, reduction = _pair("huber_loss", input, target, reduction)
    d = number(delta, "delta")
    if d <= 0:
        raise BadValueError("huber_loss does not support non-positive values for delta.", reason="delta")
    return apply(HUBER, (x, y), {"reduction": reduction, "delta": d, "count": x.numel()})
