"""Batch and layer normalisation: torch.nn.functional's batch_norm, layer_norm and group_norm, each one node as
PyTorch records it (NativeBatchNormBackward0, NativeLayerNormBackward0, NativeGroupNormBackward0), and the
modules BatchNorm1d/2d/3d, LayerNorm and GroupNorm with PyTorch's parameters, buffers and printed form.

- batch_norm over the channel dim 1: in training the batch's mean and biased variance normalise, and the running
  statistics (when given) move by momentum towards the batch's mean and *unbiased* variance, in place; in eval the
  running statistics normalise. y = x * (w * invstd) + (b - mean * w * invstd), invstd = 1 / sqrt(var + eps).
- layer_norm over the last len(normalized_shape) dims; group_norm over the channels of each group (and the
  spatial dims). Their mean and variance are biased; the affine parameters apply per element / per channel.

The backward formulas recompute the statistics from the saved input (so a backward with create_graph=True is
itself differentiable, as PyTorch's double backward of these nodes is):
grad_input = w * invstd * (g - mean(g) - xhat * mean(g * xhat)), grad_weight = sum(g * xhat), grad_bias = sum(g).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError, ShapeError, WrongTypeError


def _channels(shape: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    """The shape that puts a (C,) vector on dim 1 of an ndim-dimensional input."""
    return (1, shape[0], *([1] * (ndim - 2))) if ndim > 1 else shape


# ---------------------------------------------------------------------------- batch_norm
def _batch_stats(F: Any, x: Any, s: Any) -> tuple[Any, Any]:
    """(x - mean, invstd) over the reduced dims: the batch's (training) or the running statistics (eval)."""
    if s.training:
        centered = x - F.sum(x, s.dims, True) * (1.0 / s.count)
        variance = F.sum(centered * centered, s.dims, True) * (1.0 / s.count)
        return centered, 1.0 / F.sqrt(variance + s.eps)
    return x - s.mean, s.invstd


def _batch_input_grad(F: Any, g: Any, s: Any) -> Any:
    centered, invstd = _batch_stats(F, s.input, s)
    scale = invstd if s.weight is None else invstd * F.reshape(s.weight, s.shape)
    if not s.training:
        return g * scale
    mean_g = F.sum(g, s.dims, True) * (1.0 / s.count)
    projection = F.sum(g * centered, s.dims, True) * (1.0 / s.count)
    return (g - mean_g - centered * (invstd * invstd) * projection) * scale


def _kept(*values: Any) -> None:
    """Nothing: a formula passes it what PyTorch's one backward of the three inputs saves (so a later write into one
    of them is detected as in PyTorch, whichever inputs require grad), which the formula itself need not read."""


def _batch_weight_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.weight)
    centered, invstd = _batch_stats(F, s.input, s)
    return F.reshape(F.sum(g * centered * invstd, s.dims, True), (-1,))


def _batch_bias_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.input, s.weight)
    return F.reshape(F.sum(g, s.dims, True), (-1,))


def _batch_forward(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, *, shape: tuple[int, ...],
                   mean: np.ndarray, invstd: np.ndarray, **_: Any) -> np.ndarray:
    """x * alpha + beta per channel, alpha = invstd * w and beta = b - mean * alpha in the input's dtype, as
    PyTorch's CPU kernel computes them (the statistics themselves are accumulated in float64)."""
    kind = x.dtype
    alpha = invstd.astype(kind) if w is None else invstd.astype(kind) * w.astype(kind).reshape(shape)
    beta = -(mean.astype(kind) * alpha) if b is None else b.astype(kind).reshape(shape) - mean.astype(kind) * alpha
    return (x * alpha + beta).astype(kind)


def _normalized_tangent(F: Any, tx: Any, centered: Any, invstd: Any, dims: tuple[int, ...], count: int) -> Any:
    """The tangent of (x - mean(x)) * invstd(x) over dims (FunctionsManual's batch/layer/group_norm_jvp):
    (t - mean(t)) * invstd - (x - mean) * invstd**3 * mean((t - mean(t)) * (x - mean))."""
    moved = tx - F.sum(tx, dims, True) * (1.0 / count)
    invstd_t = -(invstd * invstd * invstd) * (F.sum(moved * centered, dims, True) * (1.0 / count))
    return moved * invstd + centered * invstd_t


def _affine_tangent(F: Any, out_t: Any, xhat: Any, t: Any, s: Any, shape: tuple[int, ...]) -> Any:
    """out_t * weight + xhat * weight's tangent + bias's tangent, the parameters viewed as `shape`."""
    if s.weight is not None:
        out_t = out_t * F.reshape(s.weight, shape) + xhat * F.reshape(t.weight, shape)
    if s.bias is not None:
        out_t = out_t + F.reshape(t.bias, shape)
    return out_t


def _batch_tangent(F: Any, t: Any, s: Any) -> Any:
    """batch_norm_jvp: in training the batch's statistics move with the input; in eval the running ones do not."""
    centered, invstd = _batch_stats(F, s.input, s)
    out_t = _normalized_tangent(F, t.input, centered, invstd, s.dims, s.count) if s.training else t.input * invstd
    return _affine_tangent(F, out_t, centered * invstd, t, s, s.shape)


NATIVE_BATCH_NORM = declare(Op(
    "native_batch_norm", "NativeBatchNormBackward0", ("input", "weight", "bias"), _batch_forward,
    (Grad(_batch_input_grad, "weight * invstd * (grad - mean(grad) - xhat * mean(grad * xhat))"),
     Grad(_batch_weight_grad, "sum(grad * xhat)"), Grad(_batch_bias_grad, "sum(grad)")),
    "batch normalisation over dim 1 (torch.nn.functional.batch_norm)", noisy=True, jvp=_batch_tangent))


def _verify_batch_size(shape: tuple[int, ...]) -> None:
    if shape[0] * math.prod(shape[2:]) == 1:
        raise InvalidArgumentError(f"Expected more than 1 value per channel when training, got input size "
                                   f"torch.Size({list(shape)})", reason="batch_norm")


def _update_running(running: Tensor | None, value: np.ndarray, momentum: float) -> None:
    """running = momentum * value + (1 - momentum) * running, in place (not recorded), as PyTorch updates it."""
    if running is None:
        return
    data = running._data
    data[...] = (momentum * value.astype(np.float64) + (1 - momentum) * data.astype(np.float64)).astype(data.dtype)
    running._bump_version()


def _check_vector(t: Tensor | None, channels: int, what: str) -> None:
    if t is not None and t.numel() != channels:
        raise ShapeError(f"{what} should contain {channels} elements not {t.numel()}", reason="batch_norm")


@builtin("batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, "
         "eps=1e-05)", ("native_batch_norm",), method=False, functional=True)
def batch_norm(input: Any, running_mean: Any, running_var: Any, weight: Any = None, bias: Any = None,
               training: bool = False, momentum: Any = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (dim 1) by the batch's statistics (training) or the running ones (eval)."""
    x = tensor_arg(input)
    if x.ndim < 2:
        raise BadValueError(f"batch_norm expects an input of 2 or more dims (N, C, ...), got {x.ndim}",
                            reason="batch_norm")
    shape = x._data.shape
    channels, dims = shape[1], (0, *range(2, x.ndim))
    count = shape[0] * math.prod(shape[2:])
    for t, what in ((running_mean, "running_mean"), (running_var, "running_var"), (weight, "weight"),
                    (bias, "bias")):
        _check_vector(t, channels, what)
    vector = _channels((channels,), x.ndim)
    if training:
        _verify_batch_size(shape)
        data = x._data.astype(np.float64)
        mean = data.mean(axis=dims, keepdims=True)
        squares = ((data - mean) ** 2).sum(axis=dims, keepdims=True)
        invstd = 1.0 / np.sqrt(squares / count + eps)
        factor = 0.0 if momentum is None else float(momentum)
        _update_running(running_mean, mean.reshape(-1), factor)
        _update_running(running_var, squares.reshape(-1) / max(count - 1, 1) if count > 1 else
                        np.full(channels, np.nan), factor)
    else:
        if running_mean is None or running_var is None:
            raise BadValueError("running_mean and running_var must be defined in evaluation mode",
                                reason="batch_norm")
        mean = running_mean._data.astype(np.float64).reshape(vector)
        invstd = 1.0 / np.sqrt(running_var._data.astype(np.float64).reshape(vector) + eps)
    params = {"dims": dims, "shape": vector, "count": count, "eps": float(eps), "training": bool(training),
              "mean": mean.astype(x._data.dtype), "invstd": invstd.astype(x._data.dtype)}
    return apply(NATIVE_BATCH_NORM, (x, weight, bias), params)


# ---------------------------------------------------------------------------- layer_norm and group_norm
def _group_stats(F: Any, x: Any, s: Any) -> tuple[Any, Any]:
    """(x - mean, rstd) over the normalised dims of x viewed as s.grouped."""
    grouped = F.reshape(x, s.grouped)
    centered = grouped - F.sum(grouped, s.dims, True) * (1.0 / s.count)
    variance = F.sum(centered * centered, s.dims, True) * (1.0 / s.count)
    return centered, 1.0 / F.sqrt(variance + s.eps)


def _affine_shape(s: Any) -> tuple[int, ...]:
    return s.affine_shape


def _norm_input_grad(F: Any, g: Any, s: Any) -> Any:
    centered, rstd = _group_stats(F, s.input, s)
    scaled = g if s.weight is None else g * F.reshape(s.weight, _affine_shape(s))
    scaled = F.reshape(scaled, s.grouped)
    xhat = centered * rstd
    mean_g = F.sum(scaled, s.dims, True) * (1.0 / s.count)
    projection = F.sum(scaled * xhat, s.dims, True) * (1.0 / s.count)
    return F.reshape((scaled - mean_g - xhat * projection) * rstd, s.shape)


def _norm_weight_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.weight)
    centered, rstd = _group_stats(F, s.input, s)
    product = g * F.reshape(centered * rstd, s.shape)
    return F.reshape(F.sum(product, s.affine_dims, True), s.weight_shape)


def _norm_bias_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.input, s.weight)
    return F.reshape(F.sum(g, s.affine_dims, True), s.weight_shape)


def _norm_forward(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, *, grouped: tuple[int, ...],
                  dims: tuple[int, ...], eps: float, affine_shape: tuple[int, ...], **_: Any) -> np.ndarray:
    data = x.astype(np.float64).reshape(grouped)
    mean = data.mean(axis=dims, keepdims=True)
    rstd = 1.0 / np.sqrt(((data - mean) ** 2).mean(axis=dims, keepdims=True) + eps)
    out = ((data - mean) * rstd).reshape(x.shape).astype(x.dtype)
    if w is not None:
        out = out * w.reshape(affine_shape)
    if b is not None:
        out = out + b.reshape(affine_shape)
    return out.astype(x.dtype)


def _norm_tangent(F: Any, t: Any, s: Any) -> Any:
    """layer_norm_jvp and group_norm_jvp: the statistics of each group move with the input."""
    centered, rstd = _group_stats(F, s.input, s)
    out_t = _normalized_tangent(F, F.reshape(t.input, s.grouped), centered, rstd, s.dims, s.count)
    return _affine_tangent(F, F.reshape(out_t, s.shape), F.reshape(centered * rstd, s.shape), t, s,
                           _affine_shape(s))


# layer_norm's backward saves bias too (native_layer_norm_backward takes it; group_norm's does not)
def _layer_input_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.bias)
    return _norm_input_grad(F, g, s)


def _layer_weight_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.bias)
    return _norm_weight_grad(F, g, s)


def _layer_bias_grad(F: Any, g: Any, s: Any) -> Any:
    _kept(s.bias)
    return _norm_bias_grad(F, g, s)


_INPUT_TEXT = "rstd * (grad * w - mean(grad * w) - xhat * mean(grad * w * xhat))"
_NORM_GRADS = (Grad(_norm_input_grad, _INPUT_TEXT), Grad(_norm_weight_grad, "sum(grad * xhat)"),
               Grad(_norm_bias_grad, "sum(grad)"))
_LAYER_GRADS = (Grad(_layer_input_grad, _INPUT_TEXT), Grad(_layer_weight_grad, "sum(grad * xhat)"),
                Grad(_layer_bias_grad, "sum(grad)"))
NATIVE_LAYER_NORM = declare(Op("native_layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"),
                               _norm_forward, _LAYER_GRADS,
                               "layer normalisation over the last dims (torch.nn.functional.layer_norm)", noisy=True,
                               jvp=_norm_tangent))
NATIVE_GROUP_NORM = declare(Op("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"),
                               _norm_forward, _NORM_GRADS,
                               "group normalisation over groups of channels (torch.nn.functional.group_norm)",
                               noisy=True, jvp=_norm_tangent))


def _normalized_shape(value: Any) -> tuple[int, ...]:
    """F.layer_norm's normalized_shape: a tuple or list of ints (nn.LayerNorm takes an int too, F.layer_norm not)."""
    if not isinstance(value, (tuple, list)) or not all(isinstance(n, (int, np.integer)) for n in value):
        raise WrongTypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                             f"{type(value).__name__}", reason="arguments")
    return tuple(int(n) for n in value)


@builtin("layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)", ("native_layer_norm",),
         method=False, functional=True)
def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the last dims (normalized_shape), then weight * x + bias per element of those dims."""
    x = tensor_arg(input)
    normalized = _normalized_shape(normalized_shape)
    k, shape = len(normalized), x._data.shape
    if k == 0 or tuple(shape[x.ndim - k:]) != normalized or x.ndim < k:
        raise ShapeError(f"Given normalized_shape={list(normalized)}, expected input with shape "
                         f"[*, {', '.join(map(str, normalized))}], but got input of size{list(shape)}",
                         reason="layer_norm", shapes=(tuple(shape),))
    for t, what in ((weight, "weight"), (bias, "bias")):
        if t is not None and tuple(t.shape) != normalized:
            raise ShapeError(f"Expected {what} to be of same shape as normalized_shape, but got {what} of shape "
                             f"{list(t.shape)} and normalized_shape = {list(normalized)}", reason="layer_norm")
    lead = shape[:x.ndim - k]
    params = {"grouped": (math.prod(lead), math.prod(normalized)), "dims": (1,), "count": math.prod(normalized),
              "eps": float(eps), "shape": shape, "affine_shape": normalized, "affine_dims": tuple(range(len(lead))),
              "weight_shape": normalized}
    return apply(NATIVE_LAYER_NORM, (x, weight, bias), params)


@builtin("group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)", ("native_group_norm",),
         method=False, functional=True)
def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-5) -> Tensor:
    """Normalise each group of channels of each sample, then weight * x + bias per channel."""
    x = tensor_arg(input)
    shape = x._data.shape
    if x.ndim < 2 or shape[1] % num_groups:
        raise BadValueError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                            f"shape {list(shape)} and num_groups={num_groups}", reason="group_norm")
    count = shape[1] // num_groups * math.prod(shape[2:])
    params = {"grouped": (shape[0], num_groups, count), "dims": (2,), "count": count, "eps": float(eps),
              "shape": shape, "affine_shape": _channels((shape[1],), x.ndim),
              "affine_dims": (0, *range(2, x.ndim)), "weight_shape": (shape[1],)}
    return apply(NATIVE_GROUP_NORM, (x, weight, bias), params)


__all__ = ["NATIVE_BATCH_NORM", "NATIVE_GROUP_NORM", "NATIVE_LAYER_NORM", "batch_norm", "group_norm", "layer_norm"]
