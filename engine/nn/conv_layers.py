"""torch.nn's convolution and pooling layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d (PyTorch's default
initialisation, so the weights under manual_seed are PyTorch's; padding_mode 'zeros', 'reflect', 'replicate',
'circular'), MaxPool1d/2d and AvgPool1d/2d. Their forward calls the functions of torch.nn.functional
(convolution.py, pooling.py, padding.py): one implementation for both, and PyTorch's repr."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..errors import BadValueError
from .convolution import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d
from .init import fan_in_and_fan_out, init_uniform_, kaiming_uniform_
from .layers import empty_parameter
from .module import Module
from .padding import pad
from .pooling import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d

_CONV = {1: conv1d, 2: conv2d, 3: conv3d}
_TRANSPOSED = {1: conv_transpose1d, 2: conv_transpose2d, 3: conv_transpose3d}
PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _tuple(value: Any, n: int, what: str) -> tuple[int, ...]:
    """PyTorch's _single/_pair/_triple: a number repeated n times, or a sequence of n numbers."""
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    if len(items) != n or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in items):
        raise BadValueError(f"{what} must be an integer or a tuple of {n} integers, got {value!r}", reason="layer")
    return tuple(int(v) for v in items)


def _channels(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise BadValueError(f"{what} must be a positive integer, got {value!r}", reason="layer")
    return int(value)


class _ConvNd(Module):
    """PyTorch's _ConvNd: the settings, the weight (out, in / groups, *kernel) or, transposed, (in, out /
    groups, *kernel), and its initialisation (kaiming_uniform_ with a=sqrt(5), then the bias in +-1/sqrt(fan_in))."""

    DIMS = 2
    TRANSPOSED = False

    def settings(self) -> dict[str, Any]:
        return {"in_channels": self.in_channels, "out_channels": self.out_channels, "kernel_size": self.kernel_size,
                "stride": self.stride, "padding": self.padding, "dilation": self.dilation, "groups": self.groups,
                "padding_mode": self.padding_mode, "output_padding": self.output_padding}

    def __init__(self, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: Any = 1, bias: bool = True, padding_mode: str = "zeros",
                 output_padding: Any = 0, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        n = self.DIMS
        self.in_channels = _channels(in_channels, "in_channels")
        self.out_channels = _channels(out_channels, "out_channels")
        if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups <= 0:
            raise BadValueError("groups must be a positive integer", reason="layer")
        self.groups = int(groups)
        if self.in_channels % self.groups or self.out_channels % self.groups:
            which = "in_channels" if self.in_channels % self.groups else "out_channels"
            raise BadValueError(f"{which} must be divisible by groups", reason="layer")
        self.kernel_size, self.stride = _tuple(kernel_size, n, "kernel_size"), _tuple(stride, n, "stride")
        self.dilation = _tuple(dilation, n, "dilation")
        self.output_padding = _tuple(output_padding, n, "output_padding")
        self.padding = self._padding(padding)
        if padding_mode not in PADDING_MODES:
            raise BadValueError(f"padding_mode must be one of {list(PADDING_MODES)}, but got "
                                f"padding_mode='{padding_mode}'", reason="layer")
        if self.TRANSPOSED and padding_mode != "zeros":
            raise BadValueError(f"Only \"zeros\" padding mode is supported for {type(self).__name__}", reason="layer")
        self.padding_mode = padding_mode
        rows, cols = ((self.in_channels, self.out_channels // self.groups) if self.TRANSPOSED
                      else (self.out_channels, self.in_channels // self.groups))
        self.register_parameter("weight", empty_parameter((rows, cols, *self.kernel_size), dtype))
        self.register_parameter("bias", empty_parameter((self.out_channels,), dtype) if bias else None)
        self.reset_parameters()

    def _padding(self, padding: Any) -> Any:
        if isinstance(padding, str):
            if padding not in ("same", "valid") or self.TRANSPOSED:
                raise BadValueError(f"Invalid padding string '{padding}', should be one of {{'same', 'valid'}}"
                                    if padding not in ("same", "valid") else
                                    f"padding='{padding}' is not supported for {type(self).__name__}",
                                    reason="layer")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise BadValueError("padding='same' is not supported for strided convolutions", reason="layer")
            return padding
        return _tuple(padding, self.DIMS, "padding")

    def reset_parameters(self) -> None:
        weight, bias = self.registered_parameters["weight"], self.registered_parameters["bias"]
        kaiming_uniform_(weight, a=math.sqrt(5))
        if bias is not None:
            fan_in, _ = fan_in_and_fan_out(weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init_uniform_(bias, -bound, bound)

    def forward(self, input: Any) -> Tensor:
        weight, bias = self.member("weight"), self.member("bias")
        if self.padding_mode == "zeros":
            return _CONV[self.DIMS](input, weight, bias, self.stride, self.padding, self.dilation, self.groups)
        amounts = _reversed_padding(self.padding, self.kernel_size, self.dilation)
        padded = pad(input, amounts, mode=self.padding_mode)
        return _CONV[self.DIMS](padded, weight, bias, self.stride, (0,) * self.DIMS, self.dilation, self.groups)

    def extra_repr(self) -> str:
        n = self.DIMS
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * n:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.registered_parameters.get("bias") is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


def _reversed_padding(padding: Any, kernel_size: tuple[int, ...], dilation: tuple[int, ...]) -> tuple[int, ...]:
    """F.pad's amounts for a padding_mode other than zeros: each dim's padding twice, last dim first ('same':
    the total split as PyTorch splits it, the odd one after)."""
    amounts: list[int] = []
    for k in reversed(range(len(kernel_size))):
        if padding == "valid":
            before = after = 0
        elif padding == "same":
            total = dilation[k] * (kernel_size[k] - 1)
            before, after = total // 2, total - total // 2
        else:
            before = after = padding[k]
        amounts += [before, after]
    return tuple(amounts)


class _Conv(_ConvNd):
    def __init__(self, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: Any = 1, bias: bool = True, padding_mode: str = "zeros",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, 0, device, dtype)


class _ConvTranspose(_ConvNd):
    TRANSPOSED = True

    def __init__(self, in_channels: Any, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: Any = 1, bias: bool = True, dilation: Any = 1,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, output_padding, device, dtype)

    def forward(self, input: Any, output_size: Any = None) -> Tensor:
        if output_size is not None:
            raise BadValueError(f"{type(self).__name__}(...)(input, output_size=...) is not supported: give "
                                "output_padding when the layer is made", reason="unsupported")
        return _TRANSPOSED[self.DIMS](input, self.member("weight"), self.member("bias"), self.stride, self.padding,
                                      self.output_padding, self.groups, self.dilation)


class Conv1d(_Conv):
    """A 1-D convolution over (N, C, L) or (C, L), weight (out, in / groups, k) initialised as PyTorch does."""

    DIMS = 1


class Conv2d(_Conv):
    """A 2-D convolution over (N, C, H, W) or (C, H, W), weight (out, in / groups, kh, kw), PyTorch's init."""

    DIMS = 2


class Conv3d(_Conv):
    """A 3-D convolution over (N, C, D, H, W) or (C, D, H, W), PyTorch's init."""

    DIMS = 3


class ConvTranspose1d(_ConvTranspose):
    """The transposed 1-D convolution, weight (in, out / groups, k), PyTorch's init."""

    DIMS = 1


class ConvTranspose2d(_ConvTranspose):
    """The transposed 2-D convolution, weight (in, out / groups, kh, kw), PyTorch's init."""

    DIMS = 2


class ConvTranspose3d(_ConvTranspose):
    """The transposed 3-D convolution, PyTorch's init."""

    DIMS = 3


class _Pool(Module):
    """A pooling layer: its settings as given (PyTorch keeps MaxPool's and AvgPool2d's numbers as written,
    AvgPool1d's as 1-tuples), stride defaulting to kernel_size."""

    FUNCTION: Any = None
    SHOWN: tuple[str, ...] = ()

    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    def forward(self, input: Any) -> Tensor:
        return type(self).FUNCTION(input, **self.options)

    def extra_repr(self) -> str:
        return ", ".join(f"{name}={self.options[name]}" for name in self.SHOWN)


class MaxPool1d(_Pool):
    """The largest value of each window of (N, C, L) or (C, L)."""

    FUNCTION = staticmethod(max_pool1d)
    SHOWN = ("kernel_size", "stride", "padding", "dilation", "ceil_mode")

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.options = {"kernel_size": kernel_size, "stride": kernel_size if stride is None else stride,
                        "padding": padding, "dilation": dilation, "ceil_mode": ceil_mode,
                        "return_indices": return_indices}


class MaxPool2d(MaxPool1d):
    """The largest value of each window of (N, C, H, W) or (C, H, W)."""

    FUNCTION = staticmethod(max_pool2d)


class AvgPool1d(_Pool):
    """The mean of each window of (N, C, L) or (C, L)."""

    FUNCTION = staticmethod(avg_pool1d)
    SHOWN = ("kernel_size", "stride", "padding")

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.options = {"kernel_size": _tuple(kernel_size, 1, "kernel_size"),
                        "stride": _tuple(kernel_size if stride is None else stride, 1, "stride"),
                        "padding": _tuple(padding, 1, "padding"), "ceil_mode": ceil_mode,
                        "count_include_pad": count_include_pad}


class AvgPool2d(_Pool):
    """The mean of each window of (N, C, H, W) or (C, H, W)."""

    FUNCTION = staticmethod(avg_pool2d)
    SHOWN = ("kernel_size", "stride", "padding")

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: Any = None) -> None:
        super().__init__()
        self.options = {"kernel_size": kernel_size, "stride": kernel_size if stride is None else stride,
                        "padding": padding, "ceil_mode": ceil_mode, "count_include_pad": count_include_pad,
                        "divisor_override": divisor_override}


CONV_LAYERS = {cls.__name__: cls for cls in (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,
                                             ConvTranspose3d, MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d)}
