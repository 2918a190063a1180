"""rms_norm and instance_norm (torch.nn.functional) as PyTorch records them, and pixel_shuffle / pixel_unshuffle.

rms_norm is ATen's composite: input * rsqrt(mean(input**2 over the normalized dims) + eps) (MulBackward0,
RsqrtBackward0, AddBackward1, MeanBackward1, PowBackward0), times weight; eps defaults to the dtype's machine
epsilon. instance_norm views (N, C, ...) as one batch of N * C channels and batch-normalises it
(NativeBatchNormBackward0 between two ViewBackward0; weight and bias repeated N times, RepeatBackward0), the running
statistics updated with the mean over the batch of the repeated copies. pixel_shuffle moves r x r channels into an
r-times larger plane (PixelShuffleBackward0), pixel_unshuffle back (PixelUnshuffleBackward0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError, ShapeError
from ..ops.elementwise import rsqrt
from ..ops.rearrange import repeat
from ..ops.shapes import view
from .distances import add_scalar
from .normalization import batch_norm


def _shape_list(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


@builtin("rms_norm(input, normalized_shape, weight=None, eps=None)",
         ("pow", "mean_dim", "add_scalar", "rsqrt", "mul"), method=False, functional=True)
def rms_norm(input: Any, normalized_shape: Any, weight: Any = None, eps: Any = None) -> Tensor:
    """input over the root mean square of its last len(normalized_shape) dims (plus eps), times weight."""
    x = tensor_arg(input)
    shape = (normalized_shape,) if isinstance(normalized_shape, (int, np.integer)) else tuple(normalized_shape)
    if not shape:
        raise BadValueError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                            "element, but got normalized_shape = []", reason="rms_norm")
    w = None if weight is None else tensor_arg(weight, "weight")
    if w is not None and tuple(w.shape) != shape:
        raise ShapeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                         f"{_shape_list(tuple(w.shape))} and normalized_shape = {_shape_list(shape)}",
                         reason="rms_norm", shapes=(tuple(w.shape),))
    if x.ndim < len(shape) or tuple(x.shape)[x.ndim - len(shape):] != shape:
        raise ShapeError(f"Given normalized_shape={_shape_list(shape)}, expected input with shape "
                         f"[*{', '.join(str(n) for n in shape)}], but got input of size{_shape_list(tuple(x.shape))}",
                         reason="rms_norm", shapes=(tuple(x.shape),))
    if eps is None:
        eps = float(np.finfo(x._data.dtype).eps) if x._data.dtype.kind == "f" else float(np.finfo(np.float32).eps)
    dims = tuple(range(x.ndim - 1, x.ndim - 1 - len(shape), -1))
    out = x * rsqrt(add_scalar(x.pow(2).mean(dims, keepdim=True), eps))
    return out if w is None else out * w


def _verify_spatial_size(shape: tuple[int, ...]) -> None:
    if int(np.prod(shape[2:])) == 1:
        raise InvalidArgumentError(f"Expected more than 1 spatial element when training, got input size "
                                   f"torch.Size({list(shape)})", reason="instance_norm")


def _repeated(t: Any, times: int, what: str, count: int) -> Tensor | None:
    if t is None:
        return None
    t = tensor_arg(t, what)
    if t.numel() * times != count:
        raise BadValueError(f"{what} should contain {count} elements not {t.numel() * times}", reason="instance_norm")
    return repeat(t, times)


@builtin("instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, "
         "momentum=0.1, eps=1e-05)", ("view", "repeat", "native_batch_norm"), method=False, functional=True)
def instance_norm(input: Any, running_mean: Any = None, running_var: Any = None, weight: Any = None,
                  bias: Any = None, use_input_stats: Any = True, momentum: Any = 0.1, eps: Any = 1e-5) -> Tensor:
    """Each channel of each sample normalised over its own elements (N, C, ...), then weight and bias."""
    x = tensor_arg(input)
    shape = tuple(x._data.shape)
    if use_input_stats:
        _verify_spatial_size(shape)
    if x.ndim < 2:
        raise ShapeError(f"instance_norm(): expected an input of at least 2 dims, got {list(shape)}",
                         reason="instance_norm", shapes=(shape,))
    b, c = shape[0], shape[1]
    mean_, var_ = (None if r is None else Tensor._make(np.tile(tensor_arg(r)._data, b))
                   for r in (running_mean, running_var))
    out = batch_norm(view(x.contiguous(), (1, b * c, *shape[2:])), mean_, var_,
                     _repeated(weight, b, "weight", b * c), _repeated(bias, b, "bias", b * c), bool(use_input_stats),
                     momentum, eps)
    for running, copies in ((running_mean, mean_), (running_var, var_)):
        if running is not None and copies is not None:
            running._data[...] = copies._data.reshape(b, c).mean(0).astype(running._data.dtype)
            running._bump_version()
    return view(out, shape)


# ---------------------------------------------------------------------------- pixel shuffle
def _shuffled(x: np.ndarray, r: int) -> np.ndarray:
    *batch, c, h, w = x.shape
    out = x.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    out = out.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(out.reshape(*batch, c // (r * r), h * r, w * r))


def _unshuffled(x: np.ndarray, r: int) -> np.ndarray:
    *batch, c, h, w = x.shape
    out = x.reshape(*batch, c, h // r, r, w // r, r)
    n = len(batch)
    out = out.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(out.reshape(*batch, c * r * r, h // r, w // r))


def _shuffle_back(F: Any, g: Any, r: int, unshuffle: bool) -> Any:
    """The inverse rearrangement of the gradient, in reshapes and a permute (recorded under create_graph)."""
    shape = tuple(g.shape)
    *batch, c, h, w = shape
    n = len(batch)
    if unshuffle:  # g came from pixel_unshuffle: shuffle it back
        t = F.reshape(g, (*batch, c // (r * r), r, r, h, w))
        t = F.permute(t, (*range(n), n, n + 3, n + 1, n + 4, n + 2))
        return F.reshape(t, (*batch, c // (r * r), h * r, w * r))
    t = F.reshape(g, (*batch, c, h // r, r, w // r, r))
    t = F.permute(t, (*range(n), n, n + 2, n + 4, n + 1, n + 3))
    return F.reshape(t, (*batch, c * r * r, h // r, w // r))


PIXEL_SHUFFLE = declare(Op(
    "pixel_shuffle", "PixelShuffleBackward0", ("self",), lambda x, *, factor: _shuffled(x, factor),
    (Grad(lambda F, g, s: _shuffle_back(F, g, s.factor, False), "pixel_unshuffle(grad, upscale_factor)"),),
    "r x r channels moved into an r-times larger plane", group=SHAPES, jvp=LINEAR_JVP))
PIXEL_UNSHUFFLE = declare(Op(
    "pixel_unshuffle", "PixelUnshuffleBackward0", ("self",), lambda x, *, factor: _unshuffled(x, factor),
    (Grad(lambda F, g, s: _shuffle_back(F, g, s.factor, True), "pixel_shuffle(grad, downscale_factor)"),),
    "r x r blocks of the plane moved into channels", group=SHAPES, jvp=LINEAR_JVP))


def _factor(x: Tensor, factor: Any, name: str, what: str) -> int:
    if isinstance(factor, bool) or not isinstance(factor, (int, np.integer)):
        raise BadValueError(f"{name}(): argument '{what}' must be int, not {type(factor).__name__}",
                            reason="arguments")
    if factor <= 0:
        raise BadValueError(f"{name} expects a positive {what}, but got {factor}", reason="pixel_shuffle")
    if x.ndim < 3:
        raise ShapeError(f"{name} expects input to have at least 3 dimensions, but got input with {x.ndim} "
                         "dimension(s)", reason="pixel_shuffle", shapes=(tuple(x.shape),))
    return int(factor)


@builtin("pixel_shuffle(input, upscale_factor)", ("pixel_shuffle",), method=False, functional=True)
def pixel_shuffle(input: Any, upscale_factor: Any) -> Tensor:
    """(*, C r^2, H, W) to (*, C, H r, W r)."""
    x = tensor_arg(input)
    r = _factor(x, upscale_factor, "pixel_shuffle", "upscale_factor")
    c = x._data.shape[-3]
    if c % (r * r):
        raise BadValueError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                            f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}",
                            reason="pixel_shuffle")
    return apply(PIXEL_SHUFFLE, (x,), {"factor": r})


@builtin("pixel_unshuffle(input, downscale_factor)", ("pixel_unshuffle",), method=False, functional=True)
def pixel_unshuffle(input: Any, downscale_factor: Any) -> Tensor:
    """(*, C, H r, W r) to (*, C r^2, H, W)."""
    x = tensor_arg(input)
    r = _factor(x, downscale_factor, "pixel_unshuffle", "downscale_factor")
    for axis, name in ((-2, "height"), (-1, "width")):
        n = x._data.shape[axis]
        if n % r:
            raise BadValueError(f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                                f"input.size({axis})={n} is not divisible by {r}", reason="pixel_shuffle")
    return apply(PIXEL_UNSHUFFLE, (x,), {"factor": r})
