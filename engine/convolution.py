"""Convolution and pooling (torch.nn.functional): conv1d and conv2d (ConvolutionBackward0, with stride, padding,
dilation and groups), max_pool2d (MaxPool2DWithIndicesBackward0) and avg_pool2d (AvgPool2DBackward0).

Each is written on the input's patches: the zero-padded input taken at an index map (output position, kernel
offset), a view numpy builds without loops. A convolution is then a matrix product of the patches with the
weight per group, and its gradients are matrix products too, the input's added back through the index map
(`F.index_put_add`); so they are in the formulas' vocabulary and can be differentiated again. A max pool takes
the input at each window's first largest element (nan counts as largest, as in PyTorch) and gives the gradient
back there; an average pool spreads it over the window, divided as PyTorch divides."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .coerce import tensor_arg
from .errors import BadValueError, ShapeError
from .optable import CONVOLUTION as GROUP
from .optable import LINEAR_JVP, Grad, Op, declare
from .recording import apply
from .registry import builtin
from .settings import check_elements
from .tensor import Tensor
from .vocabulary import NumpyMath


# ---------------------------------------------------------------------------- the index map
def window_index(out: tuple[int, ...], kernel: tuple[int, ...], stride: tuple[int, ...],
                 dilation: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """For d spatial dims: d index arrays, broadcasting to (out..., kernel...), giving the position in the padded
    input of kernel offset k at output position o: o * stride + k * dilation."""
    d = len(out)
    index = []
    for i in range(d):
        shape = [1] * (2 * d)
        shape[i], shape[d + i] = out[i], kernel[i]
        positions = (np.arange(out[i]) * stride[i]).reshape([out[i] if j == i else 1 for j in range(2 * d)]) + \
            (np.arange(kernel[i]) * dilation[i]).reshape([kernel[i] if j == d + i else 1 for j in range(2 * d)])
        index.append(positions.reshape(shape))
    return tuple(index)


def _inside(padding: tuple[int, ...], shape: tuple[int, ...]) -> tuple:
    """Where the input sits in its zero-padded copy (its spatial dims are the last ones)."""
    d = len(padding)
    return (slice(None),) * (len(shape) - d) + tuple(slice(p, p + n) for p, n in zip(padding, shape[-d:]))


def _padded_shape(shape: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    d = len(before)
    return tuple(shape[:-d]) + tuple(n + a + b for n, a, b in zip(shape[-d:], before, after))


def _padded(F: Any, x: Any, before: tuple[int, ...], after: tuple[int, ...]) -> Any:
    """x inside zeros (in the vocabulary F, so a gradient can flow through it)."""
    if not any(before) and not any(after):
        return x
    return F.index_put_add(_padded_shape(tuple(x.shape), before, after), _inside(before, tuple(x.shape)), x)


def _cropped(F: Any, x: Any, before: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    if not any(before) and tuple(x.shape) == tuple(shape):
        return x
    return F.index(x, _inside(before, shape))


# ---------------------------------------------------------------------------- convolution
def _patch_matrix(F: Any, x: Any, s: Any) -> Any:
    """The patches of x as (groups, N * out positions, C/groups * kernel elements)."""
    n, c = x.shape[0], x.shape[1]
    d, groups = len(s.out), s.groups
    patches = F.index(_padded(F, x, s.padding, s.padding), (slice(None), slice(None), *s.index))
    # (N, C, out..., kernel...) -> (N, G, C/G, out..., kernel...) -> (G, N, out..., C/G, kernel...)
    patches = F.reshape(patches, (n, groups, c // groups, *s.out, *s.kernel))
    order = (1, 0, *range(3, 3 + d), 2, *range(3 + d, 3 + 2 * d))
    return F.reshape(F.permute(patches, order), (groups, n * math.prod(s.out), (c // groups) * math.prod(s.kernel)))


def _weight_matrix(F: Any, w: Any, groups: int) -> Any:
    return F.reshape(w, (groups, w.shape[0] // groups, math.prod(w.shape[1:])))


def _grad_matrix(F: Any, g: Any, s: Any) -> Any:
    """grad (N, O, out...) as (groups, N * out positions, O/groups)."""
    n, o, d, groups = g.shape[0], g.shape[1], len(s.out), s.groups
    g = F.reshape(g, (n, groups, o // groups, *s.out))
    g = F.permute(g, (1, 0, *range(3, 3 + d), 2))
    return F.reshape(g, (groups, n * math.prod(s.out), o // groups))


def _convolve(x: np.ndarray, w: np.ndarray, b: Any, *, stride: tuple, padding: tuple, dilation: tuple, groups: int,
              out: tuple, kernel: tuple, index: tuple) -> np.ndarray:
    s = _Params(out, kernel, groups, padding, index)
    product = NumpyMath.matmul(_patch_matrix(NumpyMath, x, s), np.swapaxes(_weight_matrix(NumpyMath, w, groups), 1, 2))
    # (G, N * out, O/G) -> (G, N, out..., O/G) -> (N, G, O/G, out...) -> (N, O, out...)
    d = len(out)
    result = product.reshape((groups, x.shape[0], *out, w.shape[0] // groups))
    result = result.transpose((1, 0, 2 + d, *range(2, 2 + d))).reshape((x.shape[0], w.shape[0], *out))
    if b is not None:
        result = result + b.reshape((-1,) + (1,) * len(out))
    return np.ascontiguousarray(result, dtype=x.dtype)


class _Params:
    """The parameters the patch helpers read, outside a node (the forward)."""

    def __init__(self, out: tuple, kernel: tuple, groups: int, padding: tuple, index: tuple) -> None:
        self.out, self.kernel, self.groups, self.padding, self.index = out, kernel, groups, padding, index


def _conv_input_grad(F: Any, g: Any, s: Any) -> Any:
    """grad's products with the weight, added back through the index map, the padding cut away."""
    n, c = s.input.shape[0], s.input.shape[1]
    d, groups = len(s.out), s.groups
    gp = F.matmul(_grad_matrix(F, g, s), _weight_matrix(F, s.weight, groups))  # (G, N * out, C/G * kernel)
    gp = F.reshape(gp, (groups, n, *s.out, c // groups, *s.kernel))
    order = (1, 0, 2 + d, *range(2, 2 + d), *range(3 + d, 3 + 2 * d))
    gp = F.reshape(F.permute(gp, order), (n, c, *s.out, *s.kernel))
    padded = _padded_shape(tuple(s.input.shape), s.padding, s.padding)
    return _cropped(F, F.index_put_add(padded, (slice(None), slice(None), *s.index), gp), s.padding,
                    tuple(s.input.shape))


def _conv_weight_grad(F: Any, g: Any, s: Any) -> Any:
    """grad's products with the input's patches, summed over the batch and the output positions."""
    gw = F.matmul(F.transpose(_grad_matrix(F, g, s), 1, 2), _patch_matrix(F, s.input, s))  # (G, O/G, C/G * kernel)
    return F.reshape(gw, tuple(s.weight.shape))


def _conv_bias_grad(F: Any, g: Any, s: Any) -> Any:
    return F.sum(g, (0, *range(2, 2 + len(s.out))), False)


def _conv_tangent(F: Any, t: Any, s: Any) -> Any:
    """Bilinear in input and weight, plus the bias's tangent."""
    params = {"stride": s.stride, "padding": s.padding, "dilation": s.dilation, "groups": s.groups, "out": s.out,
              "kernel": s.kernel, "index": s.index}
    total = _convolve(t.input, s.weight, t.bias, **params) + _convolve(s.input, t.weight, None, **params)
    return total


CONVOLUTION = declare(Op(
    "convolution", "ConvolutionBackward0", ("input", "weight", "bias"), _convolve,
    (Grad(_conv_input_grad, "the transposed convolution of grad with weight"),
     Grad(_conv_weight_grad, "the convolution of input with grad (over the batch)"),
     Grad(_conv_bias_grad, "grad summed over the batch and the positions")),
    "convolution (conv1d, conv2d)", group=GROUP, jvp=_conv_tangent))


# ---------------------------------------------------------------------------- arguments
def _tuple(value: Any, d: int, name: str, function: str, least: int = 0) -> tuple[int, ...]:
    items = tuple(value) if isinstance(value, (list, tuple)) else (value,) * d
    if len(items) == 1:
        items = items * d
    if len(items) != d or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in items):
        raise BadValueError(f"{function}(): {name} must be an int or a tuple of {d} ints, got {value!r}",
                            reason="arguments")
    if any(v < least for v in items):
        raise BadValueError(f"{function}(): {name} must be {'positive' if least else 'non-negative'}, got {value!r}",
                            reason="arguments")
    return tuple(int(v) for v in items)


def _conv_padding(padding: Any, stride: tuple, dilation: tuple, kernel: tuple, d: int, function: str) -> tuple:
    """The padding of each spatial dim: numbers, 'valid' (none) or 'same' (the output as large as the input; an
    uneven total's extra zero is padded first, `_same_extra`)."""
    if not isinstance(padding, str):
        return _tuple(padding, d, "padding", function)
    if padding == "valid":
        return (0,) * d
    if padding != "same":
        raise BadValueError(f"Invalid padding string: '{padding}'", reason="conv")
    if any(s != 1 for s in stride):
        raise BadValueError("padding='same' is not supported for strided convolutions", reason="conv")
    return tuple(dl * (k - 1) // 2 for dl, k in zip(dilation, kernel))


def _same_extra(padding: Any, dilation: tuple, kernel: tuple) -> tuple[int, ...]:
    """padding='same' with an uneven total (an even kernel): one more zero after the input in those dims, as
    PyTorch pads it first (constant_pad_nd, pairs from the last dim backwards); () when none is needed."""
    if padding != "same":
        return ()
    odd = [dl * (k - 1) % 2 for dl, k in zip(dilation, kernel)]
    if not any(odd):
        return ()
    return tuple(n for extra in reversed(odd) for n in (0, extra))


def _convolution(input: Any, weight: Any, bias: Any, stride: Any, padding: Any, dilation: Any, groups: Any,
                 d: int, function: str) -> Tensor:
    x, w = tensor_arg(input), tensor_arg(weight, "weight")
    b = None if bias is None else tensor_arg(bias, "bias")
    if w.ndim != d + 2:
        raise ShapeError(f"{function}(): weight must be {d + 2}-D (out_channels, in_channels / groups, "
                         f"kernel...), got shape {tuple(w.shape)}", reason="conv", shapes=(tuple(w.shape),))
    if x.ndim == d + 1:  # unbatched: PyTorch adds the batch dim and takes it away again
        from .shapes import squeeze, unsqueeze

        return squeeze(_convolution(unsqueeze(x, 0), w, b, stride, padding, dilation, groups, d, function), 0)
    if x.ndim != d + 2:
        raise ShapeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {function}, but got input of "
                         f"size: {list(x.shape)}", reason="conv", shapes=(tuple(x.shape),))
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise BadValueError("non-positive groups is not supported", reason="conv")
    groups = int(groups)
    dtypes = {x._data.dtype, w._data.dtype} | ({b._data.dtype} if b is not None else set())
    if len(dtypes) > 1:
        raise BadValueError(f"{function}(): input, weight and bias must have the same dtype, got "
                            f"{', '.join(sorted(t.name for t in dtypes))}", reason="dtype")
    stride_ = _tuple(stride, d, "stride", function, 1)
    dilation_ = _tuple(dilation, d, "dilation", function, 1)
    kernel = tuple(w._data.shape[2:])
    channels, out_channels = x._data.shape[1], w._data.shape[0]
    if channels != w._data.shape[1] * groups:
        raise ShapeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected input{list(x.shape)} to "
                         f"have {w._data.shape[1] * groups} channels, but got {channels} channels instead",
                         reason="conv", shapes=(tuple(x.shape), tuple(w.shape)))
    if out_channels % groups:
        raise ShapeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                         f"weight of size [{list(w.shape)}] instead", reason="conv", shapes=(tuple(w.shape),))
    if b is not None and tuple(b.shape) != (out_channels,):
        raise ShapeError(f"Given weight of size {list(w.shape)}, expected bias to be 1-dimensional with "
                         f"{out_channels} elements, but got bias of size {list(b.shape)} instead", reason="conv",
                         shapes=(tuple(b.shape),))
    padding_ = _conv_padding(padding, stride_, dilation_, kernel, d, function)
    extra = _same_extra(padding, dilation_, kernel)
    if extra:
        from .padding import pad

        x = pad(x, extra)
    spatial = x._data.shape[2:]
    out = tuple((n + 2 * p - dl * (k - 1) - 1) // s + 1
                for n, p, dl, k, s in zip(spatial, padding_, dilation_, kernel, stride_))
    if any(o < 1 for o in out):
        raise ShapeError(f"Calculated padded input size per channel: "
                         f"({' x '.join(str(n + 2 * p) for n, p in zip(spatial, padding_))}). Kernel size: "
                         f"({' x '.join(str(dl * (k - 1) + 1) for dl, k in zip(dilation_, kernel))}). Kernel size "
                         "can't be greater than actual input size", reason="conv", shapes=(tuple(x.shape),))
    check_elements((x._data.shape[0], channels, *out, *kernel), f"the {function} patches")
    params = {"stride": stride_, "padding": padding_, "dilation": dilation_, "groups": groups, "out": out,
              "kernel": kernel, "index": window_index(out, kernel, stride_, dilation_)}
    return apply(CONVOLUTION, (x, w, b), params)


@builtin("conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", ("convolution",),
         method=False, functional=True)
def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: Any = 1) -> Tensor:
    """The 1-D convolution (cross-correlation) of input (N, C, L) with weight (O, C/groups, k), plus bias."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@builtin("conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", ("convolution",),
         method=False, functional=True)
def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: Any = 1) -> Tensor:
    """The 2-D convolution (cross-correlation) of input (N, C, H, W) with weight (O, C/groups, kh, kw), plus bias."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


# ---------------------------------------------------------------------------- pooling
def _take(x: np.ndarray, *, where: tuple, **_: Any) -> np.ndarray:
    return np.ascontiguousarray(x[where])


def _max_pool_grad(F: Any, g: Any, s: Any) -> Any:
    # reads self (for its shape): PyTorch's max_pool2d backward saves the input and the indices
    return F.index_put_add(tuple(s.self.shape), s.where, g)


MAX_POOL2D = declare(Op(
    "max_pool2d", "MaxPool2DWithIndicesBackward0", ("self",), _take,
    (Grad(_max_pool_grad, "grad added at each window's largest element (indices)"),),
    "the largest element of each window", group=GROUP, saved=("where",), jvp=LINEAR_JVP))


def _avg_pool(x: np.ndarray, *, before: tuple, after: tuple, index: tuple, divisor: np.ndarray,
              kernel: tuple) -> np.ndarray:
    padded = np.zeros(_padded_shape(x.shape, before, after), dtype=x.dtype)
    padded[_inside(before, x.shape)] = x
    total = np.sum(padded[(Ellipsis, *index)], axis=(-2, -1))
    return np.ascontiguousarray(total / divisor, dtype=x.dtype)


def _avg_pool_grad(F: Any, g: Any, s: Any) -> Any:
    """grad / divisor spread over each window (the parts in the padding cut away)."""
    shape = tuple(s.self.shape)  # PyTorch's avg_pool2d backward saves the input
    spread = F.unsqueeze(F.unsqueeze(g / s.divisor, -1), -1) * np.ones(s.kernel, dtype=s.divisor.dtype)
    padded = _padded_shape(shape, s.before, s.after)
    return _cropped(F, F.index_put_add(padded, (Ellipsis, *s.index), spread), s.before, shape)


AVG_POOL2D = declare(Op(
    "avg_pool2d", "AvgPool2DBackward0", ("self",), _avg_pool,
    (Grad(_avg_pool_grad, "grad / divisor added over each window"),), "the mean of each window", group=GROUP,
    jvp=LINEAR_JVP))


def _pool_geometry(x: Tensor, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: Any,
                   function: str) -> tuple:
    kernel = _tuple(kernel_size, 2, "kernel_size", function, 1)
    stride_ = kernel if stride is None or (isinstance(stride, (list, tuple)) and not stride) else \
        _tuple(stride, 2, "stride", function, 1)
    padding_ = _tuple(padding, 2, "padding", function)
    dilation_ = _tuple(dilation, 2, "dilation", function, 1)
    if any(p > k // 2 for p, k in zip(padding_, kernel)):
        raise BadValueError(f"pad should be at most half of effective kernel size, but got pad={padding_[0]}, "
                            f"kernel_size={kernel[0]} and dilation={dilation_[0]}", reason="pool")
    if not isinstance(ceil_mode, (bool, np.bool_)):
        raise BadValueError(f"{function}(): ceil_mode must be a bool", reason="arguments")
    if x.ndim not in (3, 4):
        raise ShapeError(f"{function}(): Expected 3D or 4D (batch mode) tensor for input, but got: {list(x.shape)}",
                         reason="pool", shapes=(tuple(x.shape),))
    out = []
    for n, k, s, p, dl in zip(x._data.shape[-2:], kernel, stride_, padding_, dilation_):
        span = n + 2 * p - dl * (k - 1) - 1
        size = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (size - 1) * s >= n + p:  # the last window must start inside the input or left padding
            size -= 1
        out.append(size)
    if any(size < 1 for size in out):
        c, h, w = x._data.shape[-3:]
        raise ShapeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). Output "
                         "size is too small", reason="pool", shapes=(tuple(x.shape),))
    # padding after the input: what the last window reaches past it (ceil_mode)
    after = tuple(max(p, (o - 1) * s + dl * (k - 1) + 1 - n - p)
                  for o, s, dl, k, n, p in zip(out, stride_, dilation_, kernel, x._data.shape[-2:], padding_))
    return kernel, stride_, padding_, dilation_, tuple(out), after


@builtin("max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)",
         ("max_pool2d",), method=False, functional=True)
def max_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: Any = False, return_indices: Any = False) -> Any:
    """The largest element of each kernel_size window of input (N, C, H, W) or (C, H, W); with
    return_indices=True also where each came from (its flat position in its H x W plane)."""
    x = tensor_arg(input)
    kernel, stride_, padding_, dilation_, out, after = _pool_geometry(x, kernel_size, stride, padding, dilation,
                                                                     ceil_mode, "max_pool2d")
    data = x._data[None] if x.ndim == 3 else x._data
    n, c, _, w = data.shape
    check_elements((n, c, *out, *kernel), "the max_pool2d windows")
    padded = np.full(_padded_shape(data.shape, padding_, after), -np.inf, dtype=data.dtype)
    padded[_inside(padding_, data.shape)] = data
    index = window_index(out, kernel, stride_, dilation_)
    windows = padded[(slice(None), slice(None), *index)].reshape(n, c, *out, -1)
    # PyTorch's scan: the first largest element, or the last nan (each nan replaces the one before)
    nan = np.isnan(windows)
    first = np.argmax(windows, axis=-1) if not nan.any() else np.where(
        nan.any(axis=-1), windows.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1), np.argmax(windows, axis=-1))
    kh, kw = np.unravel_index(first, kernel)
    rows = np.arange(out[0])[:, None] * stride_[0] + kh * dilation_[0] - padding_[0]
    cols = np.arange(out[1])[None, :] * stride_[1] + kw * dilation_[1] - padding_[1]
    batch = np.arange(n)[:, None, None, None]
    channel = np.arange(c)[None, :, None, None]
    where = (batch, channel, rows, cols) if x.ndim == 4 else (channel[0], rows[0], cols[0])
    values = apply(MAX_POOL2D, (x,), {"where": where})
    if not _flag(return_indices, "return_indices"):
        return values
    flat = (rows * w + cols).astype(np.int64)
    return values, Tensor._make(flat if x.ndim == 4 else flat[0])  # a plain pair, as PyTorch's


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise BadValueError(f"{name} must be a bool, got {value!r}", reason="arguments")
    return bool(value)


@builtin("avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, "
         "divisor_override=None)", ("avg_pool2d",), method=False, functional=True)
def avg_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: Any = False,
               count_include_pad: Any = True, divisor_override: Any = None) -> Tensor:
    """The mean of each kernel_size window of input (N, C, H, W) or (C, H, W): divided by the window's size
    (the padding counted unless count_include_pad=False), or by divisor_override."""
    x = tensor_arg(input)
    kernel, stride_, padding_, _, out, after = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode,
                                                              "avg_pool2d")
    h, w = x._data.shape[-2:]
    check_elements((*x._data.shape[:-2], *out, *kernel), "the avg_pool2d windows")
    if divisor_override is not None:
        if isinstance(divisor_override, bool) or not isinstance(divisor_override, (int, np.integer)) or \
                divisor_override == 0:
            raise BadValueError("divisor must be not zero", reason="pool")
        divisor = np.full(out, float(divisor_override))
    else:
        sizes = []
        for o, s, k, p, n in zip(out, stride_, kernel, padding_, (h, w)):
            start = np.arange(o) * s - p
            end = np.minimum(start + k, n + p)
            pool = end - start
            start, end = np.maximum(start, 0), np.minimum(end, n)
            sizes.append(pool if _flag(count_include_pad, "count_include_pad") else end - start)
        divisor = (sizes[0][:, None] * sizes[1][None, :]).astype(float)
    divisor = divisor.astype(x._data.dtype)
    index = window_index(out, kernel, stride_, (1, 1))
    return apply(AVG_POOL2D, (x,), {"before": padding_, "after": after, "index": index, "divisor": divisor,
                                    "kernel": kernel})
