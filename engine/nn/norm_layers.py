"""torch.nn's normalisation layers: BatchNorm1d/2d/3d (weight 1, bias 0, running_mean 0, running_var 1 and
num_batches_tracked, as PyTorch registers them; momentum=None is the cumulative average), LayerNorm and
GroupNorm. Their forward calls normalization.py's functions, and they print as PyTorch prints them."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError
from .module import Module, Parameter
from .normalization import batch_norm, group_norm, layer_norm


def filled(shape: tuple[int, ...], value: float, dtype: Any) -> Tensor:
    """A layer's parameter or buffer of one value (refused over the element limit first)."""
    check_elements(shape, "the layer's parameter")
    return Tensor._make(np.full(shape, value, as_dtype(dtype)))


class NormBase(Module):
    """PyTorch's _NormBase, what batch and instance normalisation share: num_features, eps, momentum, the affine
    weight and bias, the running statistics and their resets, the repr."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        shape = (num_features,)
        self.register_parameter("weight", Parameter(filled(shape, 1.0, dtype)) if affine else None)
        self.register_parameter("bias", Parameter(filled(shape, 0.0, dtype)) if affine and bias else None)
        if track_running_stats:
            self.register_buffer("running_mean", filled(shape, 0.0, dtype))
            self.register_buffer("running_var", filled(shape, 1.0, dtype))
            self.register_buffer("num_batches_tracked", Tensor._make(np.array(0, np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def settings(self) -> dict[str, Any]:
        return {"num_features": self.num_features, "eps": self.eps, "momentum": self.momentum,
                "affine": self.affine, "track_running_stats": self.track_running_stats}

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            for name, value in (("running_mean", 0), ("running_var", 1), ("num_batches_tracked", 0)):
                buffer = self.member(name)
                buffer._data[...] = value
                buffer._bump_version()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        for name, value in (("weight", 1), ("bias", 0)):
            param = self.member(name)
            if param is not None:
                param._data[...] = value
                param._bump_version()

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.member('bias') is not None}, track_running_stats={self.track_running_stats}")


class _BatchNorm(NormBase):
    """The batch normalisation of the channels (dim 1) of a DIMS-dimensional input."""

    DIMS: tuple[int, ...] = ()

    def forward(self, input: Any) -> Tensor:
        if input.dim() not in self.DIMS:
            dims = " or ".join(f"{d}D" for d in self.DIMS)
            raise InvalidArgumentError(f"expected {dims} input (got {input.dim()}D input)", reason="batch_norm")
        factor = 0.0 if self.momentum is None else self.momentum
        tracked = self.member("num_batches_tracked")
        if self.training and self.track_running_stats and tracked is not None:
            tracked._data[...] += 1
            tracked._bump_version()
            if self.momentum is None:
                factor = 1.0 / float(tracked._data)
        use_batch = self.training or (self.member("running_mean") is None and self.member("running_var") is None)
        keep = not self.training or self.track_running_stats
        return batch_norm(input, self.member("running_mean") if keep else None,
                          self.member("running_var") if keep else None, self.member("weight"), self.member("bias"),
                          use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs."""

    DIMS = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs."""

    DIMS = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W) inputs."""

    DIMS = (5,)


class LayerNorm(Module):
    """Normalisation over the last dims (normalized_shape), with an elementwise weight (1) and bias (0)."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        affine = elementwise_affine
        self.register_parameter("weight", Parameter(filled(shape, 1.0, dtype)) if affine else None)
        self.register_parameter("bias", Parameter(filled(shape, 0.0, dtype)) if affine and bias else None)

    def settings(self) -> dict[str, Any]:
        return {"normalized_shape": self.normalized_shape, "eps": self.eps,
                "elementwise_affine": self.elementwise_affine}

    def forward(self, input: Any) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.member("weight"), self.member("bias"), self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.member('bias') is not None}")


class GroupNorm(Module):
    """Normalisation over groups of channels, with a per-channel weight (1) and bias (0)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 device: Any = None, dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise InvalidArgumentError("num_channels must be divisible by num_groups", reason="group_norm")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        shape = (num_channels,)
        self.register_parameter("weight", Parameter(filled(shape, 1.0, dtype)) if affine else None)
        self.register_parameter("bias", Parameter(filled(shape, 0.0, dtype)) if affine and bias else None)

    def settings(self) -> dict[str, Any]:
        return {"num_groups": self.num_groups, "num_channels": self.num_channels, "eps": self.eps,
                "affine": self.affine}

    def forward(self, input: Any) -> Tensor:
        return group_norm(input, self.num_groups, self.member("weight"), self.member("bias"), self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.member('bias') is not None}")


NORM_LAYERS = {cls.__name__: cls for cls in (BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm)}

__all__ = ["NORM_LAYERS", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "LayerNorm"]
