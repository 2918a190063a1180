"""torch.nn's adaptive pooling layers (AdaptiveAvgPool1d/2d, AdaptiveMaxPool1d/2d) and padding layers
(ZeroPad1d/2d, ConstantPad1d/2d, ReflectionPad1d/2d, ReplicationPad1d/2d, CircularPad1d/2d, and their 3-D forms),
Upsample, UpsamplingNearest2d and UpsamplingBilinear2d. Their forward calls the functions of torch.nn.functional
(resizing.py, padding.py) and they print as PyTorch prints them."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from ..errors import BadValueError
from .module import Module
from .padding import pad
from .resizing import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d, interpolate


class _AdaptivePool(Module):
    FUNCTION: Any = None
    MAX = False

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.options = {"output_size": output_size}
        if self.MAX:
            self.options["return_indices"] = return_indices

    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    def forward(self, input: Any) -> Any:
        return type(self).FUNCTION(input, **self.options)

    def extra_repr(self) -> str:
        return f"output_size={self.options['output_size']}"


class AdaptiveAvgPool1d(_AdaptivePool):
    """The mean of each of output_size bins of (N, C, L) or (C, L)."""

    FUNCTION = staticmethod(adaptive_avg_pool1d)

    def __init__(self, output_size: Any) -> None:
        super().__init__(output_size)


class AdaptiveAvgPool2d(_AdaptivePool):
    """The mean of each of output_size bins of (N, C, H, W) or (C, H, W)."""

    FUNCTION = staticmethod(adaptive_avg_pool2d)

    def __init__(self, output_size: Any) -> None:
        super().__init__(output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    """The largest element of each of output_size bins of (N, C, L) or (C, L)."""

    FUNCTION = staticmethod(adaptive_max_pool1d)
    MAX = True


class AdaptiveMaxPool2d(_AdaptivePool):
    """The largest element of each of output_size bins of (N, C, H, W) or (C, H, W)."""

    FUNCTION = staticmethod(adaptive_max_pool2d)
    MAX = True


def _padding(value: Any, n: int, name: str) -> tuple[int, ...]:
    """PyTorch's _pair / _quadruple of a padding layer: an int repeated, or a sequence of exactly n ints."""
    items = tuple(value) if isinstance(value, (list, tuple)) else (value,) * n
    if len(items) != n or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in items):
        raise BadValueError(f"{name}: padding must be an int or a tuple of {n} ints, got {value!r}",
                            reason="arguments")
    return tuple(int(v) for v in items)


class _PadNd(Module):
    MODE = "constant"
    DIMS = 1

    def __init__(self, padding: Any, value: Any = None) -> None:
        super().__init__()
        self.padding = _padding(padding, 2 * self.DIMS, type(self).__name__)
        self.value = value

    def settings(self) -> dict[str, Any]:
        shown = {"padding": self.padding}
        if self.MODE == "constant":
            shown["value"] = self.value
        return shown

    def forward(self, input: Any) -> Tensor:
        if self.MODE == "constant":
            return pad(input, self.padding, "constant", self.value)
        return pad(input, self.padding, self.MODE)

    def extra_repr(self) -> str:
        if type(self).__name__.startswith("Constant"):
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


def _pad_layer(name: str, mode: str, dims: int, zero: bool = False) -> type:
    if zero:
        def __init__(self: Any, padding: Any) -> None:
            _PadNd.__init__(self, padding, 0.0)
    elif mode != "constant":
        def __init__(self: Any, padding: Any) -> None:
            _PadNd.__init__(self, padding)
    else:
        def __init__(self: Any, padding: Any, value: Any) -> None:  # a constant: value is required
            _PadNd.__init__(self, padding, value)
    __init__.__qualname__ = f"{name}.__init__"
    what = "zeros" if zero else "a constant" if mode == "constant" else f"the {mode}ion" if mode == "reflect" \
        else "the edge values"
    return type(name, (_PadNd,), {"MODE": mode, "DIMS": dims, "__init__": __init__,
                                  "__doc__": f"nn.{name}: the last {dims} dim(s) padded with {what}."})


PAD_LAYERS = [
    _pad_layer("ZeroPad1d", "constant", 1, zero=True), _pad_layer("ZeroPad2d", "constant", 2, zero=True),
    _pad_layer("ZeroPad3d", "constant", 3, zero=True),
    _pad_layer("ConstantPad1d", "constant", 1), _pad_layer("ConstantPad2d", "constant", 2),
    _pad_layer("ConstantPad3d", "constant", 3),
    _pad_layer("ReflectionPad1d", "reflect", 1), _pad_layer("ReflectionPad2d", "reflect", 2),
    _pad_layer("ReflectionPad3d", "reflect", 3),
    _pad_layer("ReplicationPad1d", "replicate", 1), _pad_layer("ReplicationPad2d", "replicate", 2),
    _pad_layer("ReplicationPad3d", "replicate", 3),
    _pad_layer("CircularPad1d", "circular", 1), _pad_layer("CircularPad2d", "circular", 2),
    _pad_layer("CircularPad3d", "circular", 3),
]

class Upsample(Module):
    """F.interpolate with the module's size or scale_factor, mode and align_corners."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest", align_corners: Any = None,
                 recompute_scale_factor: Any = None) -> None:
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = (tuple(float(f) for f in scale_factor) if isinstance(scale_factor, tuple)
                             else float(scale_factor) if scale_factor else None)
        self.recompute_scale_factor = recompute_scale_factor

    def settings(self) -> dict[str, Any]:
        return {"size": self.size, "scale_factor": self.scale_factor, "mode": self.mode,
                "align_corners": self.align_corners, "recompute_scale_factor": self.recompute_scale_factor}

    def forward(self, input: Any) -> Tensor:
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        shown = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return f"{shown}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """Upsample(mode='nearest') of (N, C, H, W) inputs."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample(mode='bilinear', align_corners=True) of (N, C, H, W) inputs."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


POOL_LAYERS = {cls.__name__: cls for cls in (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d,
                                             AdaptiveMaxPool2d, *PAD_LAYERS, Upsample, UpsamplingNearest2d,
                                             UpsamplingBilinear2d)}
