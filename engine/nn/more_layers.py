"""torch.nn's modules of shrinks.py's, distances.py's, more_losses.py's and more_norms.py's functions: Threshold,
Hardshrink, Softshrink, Tanhshrink, GLU, PReLU (its weight filled with init, as PyTorch's), Softmax2d, CosineSimilarity,
PairwiseDistance, the losses (KLDivLoss, GaussianNLLLoss, PoissonNLLLoss, MarginRankingLoss, CosineEmbeddingLoss,
TripletMarginLoss, SoftMarginLoss), RMSNorm, InstanceNorm1d/2d/3d (PyTorch's buffers and parameters) and
PixelShuffle / PixelUnshuffle; each prints as PyTorch prints it."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core.modes import no_grad
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError, WrongTypeError
from ..ops.reductions import softmax
from .distances import (
    cosine_embedding_loss,
    cosine_similarity,
    margin_ranking_loss,
    pairwise_distance,
    reduction_of,
    triplet_margin_loss,
)
from .layers import empty_parameter
from .module import Module, Parameter
from .more_losses import gaussian_nll_loss, kl_div, poisson_nll_loss, soft_margin_loss
from .more_norms import instance_norm, pixel_shuffle, pixel_unshuffle, rms_norm
from .norm_layers import NormBase, filled
from .shrinks import glu, hardshrink, prelu, softshrink, tanhshrink, threshold


class _Options(Module):
    """A module calling FUNCTION with its inputs and its OPTIONS (name, default), given by position or keyword."""

    FUNCTION: Any = None
    OPTIONS: tuple[tuple[str, Any], ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        names = [name for name, _ in self.OPTIONS]
        if len(args) > len(names):
            raise WrongTypeError(f"{type(self).__name__}.__init__() takes from 1 to {len(names) + 1} positional "
                                 f"arguments but {len(args) + 1} were given", reason="arguments")
        options = dict(self.OPTIONS)
        options.update(zip(names, args))
        for key, value in kwargs.items():
            if key not in options:
                raise WrongTypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{key}'",
                                     reason="arguments")
            options[key] = value
        self.option_names = list(options)
        for key, value in options.items():
            setattr(self, key, value)

    def settings(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.option_names}

    def forward(self, *inputs: Any) -> Tensor:
        return type(self).FUNCTION(*inputs, **self.settings())


class _LossOptions(_Options):
    """A loss module: its reduction (from the deprecated size_average= and reduce= too) and its OPTIONS."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        size_average, reduce = self.settings().get("size_average"), self.settings().get("reduce")
        self.option_names = [key for key in self.option_names if key not in ("size_average", "reduce")]
        if size_average is not None or reduce is not None:
            self.reduction = reduction_of(self.reduction, size_average, reduce)
        self.size_average = self.reduce = None


_LEGACY = (("size_average", None), ("reduce", None), ("reduction", "mean"))


def _module(name: str, function: Any, options: tuple, base: type = _Options) -> type:
    return type(name, (base,), {"FUNCTION": staticmethod(function), "OPTIONS": options,
                                "__doc__": f"nn.{name}: torch.nn.functional.{function.__name__} as a module."})


FUNCTION_MODULES = [
    _module("CosineSimilarity", cosine_similarity, (("dim", 1), ("eps", 1e-8))),
    _module("PairwiseDistance", pairwise_distance, (("p", 2.0), ("eps", 1e-6), ("keepdim", False))),
    _module("KLDivLoss", kl_div, (*_LEGACY, ("log_target", False)), _LossOptions),
    _module("GaussianNLLLoss", gaussian_nll_loss, (("full", False), ("eps", 1e-6), ("reduction", "mean")),
            _LossOptions),
    _module("PoissonNLLLoss", poisson_nll_loss, (("log_input", True), ("full", False), ("size_average", None),
                                                 ("eps", 1e-8), ("reduce", None), ("reduction", "mean")),
            _LossOptions),
    _module("MarginRankingLoss", margin_ranking_loss, (("margin", 0.0), *_LEGACY), _LossOptions),
    _module("CosineEmbeddingLoss", cosine_embedding_loss, (("margin", 0.0), *_LEGACY), _LossOptions),
    _module("TripletMarginLoss", triplet_margin_loss, (("margin", 1.0), ("p", 2.0), ("eps", 1e-6), ("swap", False),
                                                       *_LEGACY), _LossOptions),
    _module("SoftMarginLoss", soft_margin_loss, _LEGACY, _LossOptions),
]


class PixelShuffle(Module):
    """(*, C r^2, H, W) to (*, C, H r, W r)."""

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def settings(self) -> dict[str, Any]:
        return {"upscale_factor": self.upscale_factor}

    def forward(self, input: Any) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H r, W r) to (*, C r^2, H, W)."""

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def settings(self) -> dict[str, Any]:
        return {"downscale_factor": self.downscale_factor}

    def forward(self, input: Any) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class RMSNorm(Module):
    """input over its root mean square over the last dims (normalized_shape), times an elementwise weight (1)."""

    def __init__(self, normalized_shape: Any, eps: float | None = None, elementwise_affine: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        self.register_parameter("weight", Parameter(filled(shape, 1.0, dtype)) if elementwise_affine else None)

    def settings(self) -> dict[str, Any]:
        return {"normalized_shape": self.normalized_shape, "eps": self.eps,
                "elementwise_affine": self.elementwise_affine}

    def forward(self, x: Any) -> Tensor:
        return rms_norm(x, self.normalized_shape, self.member("weight"), self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class _InstanceNorm(NormBase):
    """Instance normalisation of each channel of each sample; NO_BATCH: the dims of an input without a batch."""

    NO_BATCH = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def forward(self, input: Any) -> Tensor:
        ndim = input.dim()
        if ndim not in (self.NO_BATCH, self.NO_BATCH + 1):
            raise InvalidArgumentError(f"expected {self.NO_BATCH}D or {self.NO_BATCH + 1}D input (got {ndim}D input)",
                                       reason="instance_norm")
        feature_dim = ndim - self.NO_BATCH
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise InvalidArgumentError(f"expected input's size at dim={feature_dim} to match num_features "
                                           f"({self.num_features}), but got: {input.size(feature_dim)}.",
                                           reason="instance_norm")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        if ndim == self.NO_BATCH:
            return self._normalised(input.unsqueeze(0)).squeeze(0)
        return self._normalised(input)

    def _normalised(self, input: Tensor) -> Tensor:
        return instance_norm(input, self.member("running_mean"), self.member("running_var"), self.member("weight"),
                             self.member("bias"), self.training or not self.track_running_stats,
                             self.momentum if self.momentum is not None else 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L) or (C, L) inputs."""

    NO_BATCH = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W) or (C, H, W) inputs."""

    NO_BATCH = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W) or (C, D, H, W) inputs."""

    NO_BATCH = 4


class Threshold(Module):
    """input where it is above threshold, else value."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def settings(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "value": self.value, "inplace": self.inplace}

    def forward(self, input: Any) -> Tensor:
        return threshold(input, self.threshold, self.value)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    """input where |input| > lambd, else 0."""

    FUNCTION: Any = staticmethod(hardshrink)

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def settings(self) -> dict[str, Any]:
        return {"lambd": self.lambd}

    def forward(self, input: Any) -> Tensor:
        return type(self).FUNCTION(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """input moved lambd towards 0, 0 within lambd of it."""

    FUNCTION = staticmethod(softshrink)


class Tanhshrink(Module):
    """input - tanh(input)."""

    def forward(self, input: Any) -> Tensor:
        return tanhshrink(input)


class GLU(Module):
    """The first half of input along dim times the sigmoid of the second."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def settings(self) -> dict[str, Any]:
        return {"dim": self.dim}

    def forward(self, input: Any) -> Tensor:
        return glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """input above 0, weight * input below; weight (num_parameters,) filled with init."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.register_parameter("weight", empty_parameter((num_parameters,), dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with no_grad():
            self.registered_parameters["weight"].fill_(self.init)

    def settings(self) -> dict[str, Any]:
        return {"num_parameters": self.num_parameters, "init": self.init}

    def forward(self, input: Any) -> Tensor:
        return prelu(input, self.member("weight"))

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Softmax2d(Module):
    """softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W)."""

    def forward(self, input: Any) -> Tensor:
        ndim = np.ndim(input._data) if isinstance(input, Tensor) else None
        if ndim not in (3, 4):
            raise InvalidArgumentError(f"Softmax2d: expected input to be 3D or 4D, got {ndim}D instead",
                                       reason="shape")
        return softmax(input, -3)


MORE_LAYERS = {cls.__name__: cls for cls in (*FUNCTION_MODULES, Threshold, Hardshrink, Softshrink, Tanhshrink, GLU,
                                             PReLU, Softmax2d, PixelShuffle, PixelUnshuffle, RMSNorm,
                                             InstanceNorm1d, InstanceNorm2d, InstanceNorm3d)}
