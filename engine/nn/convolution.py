"""Convolution (torch.nn.functional): conv1d, conv2d, conv3d and conv_transpose1d/2d/3d (ConvolutionBackward0, as
PyTorch records both: stride, padding, dilation, groups; output_padding for the transposed ones). Pooling, on the
same index map, is in pooling.py.

Each is written on the input's patches: the zero-padded input taken at an index map (output position, kernel
offset), a view numpy builds without loops. A convolution is then a matrix product of the patches with the
weight per group, and its gradients are matrix products too, the input's added back through the index map
(`F.index_put_add`); so they are in the formulas' vocabulary and can be differentiated again. A transposed
convolution (the same op, transposed=True, as in PyTorch) is the input's gradient of the convolution it
transposes: the index map's output positions are its input's, and its gradients are that convolution (for its
input) and the weight's gradient with the roles of input and grad exchanged."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import CONVOLUTION as GROUP
from ..core.optable import Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..core.vocabulary import NumpyMath
from ..errors import BadValueError, ShapeError


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


def inside(padding: tuple[int, ...], shape: tuple[int, ...]) -> tuple:
    """Where the input sits in its zero-padded copy (its spatial dims are the last ones)."""
    d = len(padding)
    return (slice(None),) * (len(shape) - d) + tuple(slice(p, p + n) for p, n in zip(padding, shape[-d:]))


def padded_shape(shape: tuple[int, ...], before: tuple[int, ...], after: tuple[int, ...]) -> tuple[int, ...]:
    d = len(before)
    return tuple(shape[:-d]) + tuple(n + a + b for n, a, b in zip(shape[-d:], before, after))


def _padded(F: Any, x: Any, before: tuple[int, ...], after: tuple[int, ...]) -> Any:
    """x inside zeros (in the vocabulary F, so a gradient can flow through it)."""
    if not any(before) and not any(after):
        return x
    return F.index_put_add(padded_shape(tuple(x.shape), before, after), inside(before, tuple(x.shape)), x)


def cropped(F: Any, x: Any, before: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    if not any(before) and tuple(x.shape) == tuple(shape):
        return x
    return F.index(x, inside(before, shape))


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


def _product(F: Any, x: Any, w: Any, s: Any) -> Any:
    """The convolution of x (N, C, in...) with w (O, C/G, kernel...): (N, O, out...), without bias."""
    groups, d = s.groups, len(s.out)
    product = F.matmul(_patch_matrix(F, x, s), F.transpose(_weight_matrix(F, w, groups), 1, 2))
    # (G, N * out, O/G) -> (G, N, out..., O/G) -> (N, G, O/G, out...) -> (N, O, out...)
    result = F.reshape(product, (groups, x.shape[0], *s.out, w.shape[0] // groups))
    return F.reshape(F.permute(result, (1, 0, 2 + d, *range(2, 2 + d))), (x.shape[0], w.shape[0], *s.out))


def _convolve(x: np.ndarray, w: np.ndarray, b: Any, *, stride: tuple, padding: tuple, dilation: tuple, groups: int,
              out: tuple, kernel: tuple, index: tuple, transposed: bool, shape: tuple | None) -> np.ndarray:
    """PyTorch's convolution: of x with w, or transposed (the input gradient of the convolution it transposes,
    whose input has `shape` and whose output positions are `out`, x's spatial size), plus bias."""
    s = _Params(out, kernel, groups, padding, index)
    result = _input_grad(NumpyMath, x, w, shape, s) if transposed else _product(NumpyMath, x, w, s)
    if b is not None:
        result = result + b.reshape((-1,) + (1,) * len(out))
    return np.ascontiguousarray(result, dtype=x.dtype)


class _Params:
    """The parameters the patch helpers read, outside a node (the forward)."""

    def __init__(self, out: tuple, kernel: tuple, groups: int, padding: tuple, index: tuple) -> None:
        self.out, self.kernel, self.groups, self.padding, self.index = out, kernel, groups, padding, index


def _input_grad(F: Any, g: Any, w: Any, shape: tuple, s: Any) -> Any:
    """grad's products with the weight, added back through the index map into an input of `shape`, the padding
    cut away."""
    n, c = shape[0], shape[1]
    d, groups = len(s.out), s.groups
    gp = F.matmul(_grad_matrix(F, g, s), _weight_matrix(F, w, groups))  # (G, N * out, C/G * kernel)
    gp = F.reshape(gp, (groups, n, *s.out, c // groups, *s.kernel))
    order = (1, 0, 2 + d, *range(2, 2 + d), *range(3 + d, 3 + 2 * d))
    gp = F.reshape(F.permute(gp, order), (n, c, *s.out, *s.kernel))
    padded = padded_shape(shape, s.padding, s.padding)
    return cropped(F, F.index_put_add(padded, (slice(None), slice(None), *s.index), gp), s.padding, shape)


def _weight_grad(F: Any, g: Any, x: Any, shape: tuple, s: Any) -> Any:
    """grad's products with the input's patches, summed over the batch and the output positions."""
    gw = F.matmul(F.transpose(_grad_matrix(F, g, s), 1, 2), _patch_matrix(F, x, s))  # (G, O/G, C/G * kernel)
    return F.reshape(gw, shape)


def _conv_input_grad(F: Any, g: Any, s: Any) -> Any:
    """The transposed convolution of grad with weight; for a transposed convolution, the convolution."""
    if s.transposed:
        return _product(F, g, s.weight, s)
    return _input_grad(F, g, s.weight, tuple(s.input.shape), s)


def _conv_weight_grad(F: Any, g: Any, s: Any) -> Any:
    """The products of grad with input's patches; transposed, of input with grad's patches."""
    if s.transposed:
        return _weight_grad(F, s.input, g, tuple(s.weight.shape), s)
    return _weight_grad(F, g, s.input, tuple(s.weight.shape), s)


def _conv_bias_grad(F: Any, g: Any, s: Any) -> Any:
    return F.sum(g, (0, *range(2, 2 + len(s.out))), False)


def _conv_tangent(F: Any, t: Any, s: Any) -> Any:
    """Bilinear in input and weight, plus the bias's tangent."""
    params = {"stride": s.stride, "padding": s.padding, "dilation": s.dilation, "groups": s.groups, "out": s.out,
              "kernel": s.kernel, "index": s.index, "transposed": s.transposed, "shape": s.shape}
    return _convolve(t.input, s.weight, t.bias, **params) + _convolve(s.input, t.weight, None, **params)


CONVOLUTION = declare(Op(
    "convolution", "ConvolutionBackward0", ("input", "weight", "bias"), _convolve,
    (Grad(_conv_input_grad, "the transposed convolution of grad with weight"),
     Grad(_conv_weight_grad, "the convolution of input with grad (over the batch)"),
     Grad(_conv_bias_grad, "grad summed over the batch and the positions")),
    "convolution (conv1d, conv2d, conv3d; transposed: conv_transpose1d, conv_transpose2d, conv_transpose3d)",
    group=GROUP, jvp=_conv_tangent))


# ---------------------------------------------------------------------------- arguments
def int_tuple(value: Any, d: int, name: str, function: str, least: int = 0) -> tuple[int, ...]:
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
        return int_tuple(padding, d, "padding", function)
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
        from ..ops.shapes import squeeze, unsqueeze

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
    stride_ = int_tuple(stride, d, "stride", function, 1)
    dilation_ = int_tuple(dilation, d, "dilation", function, 1)
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
              "kernel": kernel, "index": window_index(out, kernel, stride_, dilation_), "transposed": False,
              "shape": None}
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


@builtin("conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)", ("convolution",),
         method=False, functional=True)
def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: Any = 1) -> Tensor:
    """The 3-D convolution (cross-correlation) of input (N, C, D, H, W) with weight (O, C/groups, kd, kh, kw)."""
    return _convolution(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _transposed_arguments(x: Tensor, w: Tensor, b: Tensor | None, groups: Any, d: int, function: str) -> int:
    """The checks of a transposed convolution's tensors; its groups as an int."""
    if w.ndim != d + 2:
        raise ShapeError(f"{function}(): weight must be {d + 2}-D (in_channels, out_channels / groups, kernel...), "
                         f"got shape {tuple(w.shape)}", reason="conv", shapes=(tuple(w.shape),))
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 1:
        raise BadValueError("non-positive groups is not supported", reason="conv")
    dtypes = {x._data.dtype, w._data.dtype} | ({b._data.dtype} if b is not None else set())
    if len(dtypes) > 1:
        raise BadValueError(f"{function}(): input, weight and bias must have the same dtype, got "
                            f"{', '.join(sorted(t.name for t in dtypes))}", reason="dtype")
    if x._data.shape[1] != w._data.shape[0] or w._data.shape[0] % groups:
        raise ShapeError(f"Given transposed=1, weight of size {list(w.shape)}, expected input{list(x.shape)} to have "
                         f"{w._data.shape[0]} channels, but got {x._data.shape[1]} channels instead", reason="conv",
                         shapes=(tuple(x.shape), tuple(w.shape)))
    out_channels = w._data.shape[1] * int(groups)
    if b is not None and tuple(b.shape) != (out_channels,):
        raise ShapeError(f"Given transposed=1, weight of size {list(w.shape)}, expected bias to be 1-dimensional "
                         f"with {out_channels} elements, but got bias of size {list(b.shape)} instead",
                         reason="conv", shapes=(tuple(b.shape),))
    return int(groups)


def _conv_transpose(input: Any, weight: Any, bias: Any, stride: Any, padding: Any, output_padding: Any, groups: Any,
                    dilation: Any, d: int, function: str) -> Tensor:
    x, w = tensor_arg(input), tensor_arg(weight, "weight")
    b = None if bias is None else tensor_arg(bias, "bias")
    if x.ndim == d + 1:  # unbatched: PyTorch adds the batch dim and takes it away again
        from ..ops.shapes import squeeze, unsqueeze

        return squeeze(_conv_transpose(unsqueeze(x, 0), w, b, stride, padding, output_padding, groups, dilation, d,
                                       function), 0)
    if x.ndim != d + 2:
        raise ShapeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {function}, but got input of "
                         f"size: {list(x.shape)}", reason="conv", shapes=(tuple(x.shape),))
    groups_ = _transposed_arguments(x, w, b, groups, d, function)
    stride_ = int_tuple(stride, d, "stride", function, 1)
    padding_ = int_tuple(padding, d, "padding", function)
    extra = int_tuple(output_padding, d, "output_padding", function)
    dilation_ = int_tuple(dilation, d, "dilation", function, 1)
    if any(e >= s and e >= dl for e, s, dl in zip(extra, stride_, dilation_)):
        raise BadValueError("output padding must be smaller than either stride or dilation, but got "
                            f"output_padding: {list(extra)}, stride: {list(stride_)}, dilation: {list(dilation_)}",
                            reason="conv")
    kernel, spatial = tuple(w._data.shape[2:]), tuple(x._data.shape[2:])
    full = tuple((n - 1) * s - 2 * p + dl * (k - 1) + e + 1
                 for n, s, p, dl, k, e in zip(spatial, stride_, padding_, dilation_, kernel, extra))
    if any(n < 1 for n in full):
        raise ShapeError(f"{function}(): the output size {list(full)} is too small (input {list(spatial)}, kernel "
                         f"{list(kernel)}, padding {list(padding_)})", reason="conv", shapes=(tuple(x.shape),))
    shape = (x._data.shape[0], w._data.shape[1] * groups_, *full)
    check_elements((x._data.shape[0], w._data.shape[1] * groups_, *spatial, *kernel), f"the {function} patches")
    check_elements(shape, f"the {function} result")
    params = {"stride": stride_, "padding": padding_, "dilation": dilation_, "groups": groups_, "out": spatial,
              "kernel": kernel, "index": window_index(spatial, kernel, stride_, dilation_), "transposed": True,
              "shape": shape}
    return apply(CONVOLUTION, (x, w, b), params)


@builtin("conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)",
         ("convolution",), method=False, functional=True)
def conv_transpose1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """The 1-D transposed convolution of input (N, C, L) with weight (C, O/groups, k), plus bias.

    It is conv1d's gradient with respect to its input: the output's length is (L - 1) * stride - 2 * padding +
    dilation * (k - 1) + output_padding + 1."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


@builtin("conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)",
         ("convolution",), method=False, functional=True)
def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """The 2-D transposed convolution of input (N, C, H, W) with weight (C, O/groups, kh, kw), plus bias."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")


@builtin("conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)",
         ("convolution",), method=False, functional=True)
def conv_transpose3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: Any = 1, dilation: Any = 1) -> Tensor:
    """The 3-D transposed convolution of input (N, C, D, H, W) with weight (C, O/groups, kd, kh, kw), plus bias."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                           "conv_transpose3d")
