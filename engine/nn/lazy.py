"""torch.nn's lazy layers: LazyLinear, LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d and LazyBatchNorm1d/2d/3d.

A lazy layer leaves the size it reads from its input (in_features, in_channels, num_features) at 0 and its
parameters as UninitializedParameter (its running statistics as UninitializedBuffer) until the first call. That
call gives each of them its shape in place (the same Parameter objects, so an optimizer made before it still holds
them), initialises them as the eager layer does, at that point of the random stream (PyTorch's numbers after
manual_seed), and turns the module into the eager layer (`cls_to_become`): LazyConv2d prints as Conv2d after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError, ShapeError
from .conv_layers import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from .layers import Linear
from .module import Parameter
from .norm_layers import BatchNorm1d, BatchNorm2d, BatchNorm3d

_UNINITIALIZED = ("Attempted to use an uninitialized parameter in <method '{}' of 'torch._C.TensorBase' objects>. "
                  "This error happens when you are using a `LazyModule` or explicitly manipulating "
                  "`torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call `forward` with a "
                  "dummy batch to initialize the parameters before calling torch functions")


def _materialize(t: Tensor, shape: tuple[int, ...], dtype: Any, becomes: type) -> None:
    """Give an uninitialised tensor its memory (uninitialised values) and its class."""
    check_elements(shape, "the layer's parameter")
    t._data = np.empty(shape, as_dtype(dtype) if dtype is not None else t._data.dtype)
    t.__class__ = becomes


class UninitializedParameter(Parameter):
    """torch.nn.UninitializedParameter: a lazy layer's parameter before its first call (no shape yet)."""

    __slots__ = ()
    __module__ = "torch.nn.parameter"

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def numel(self) -> int:
        raise InvalidArgumentError(_UNINITIALIZED.format("numel"), reason="lazy")

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Become a Parameter of this shape (uninitialised values)."""
        _materialize(self, tuple(int(s) for s in shape), dtype, Parameter)


class UninitializedBuffer(Tensor):
    """torch.nn.UninitializedBuffer: a lazy layer's buffer (running_mean, running_var) before its first call."""

    __slots__ = ()
    __module__ = "torch.nn.parameter"

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None) -> None:
        self._init(np.empty((0,), as_dtype(dtype)))

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    def numel(self) -> int:
        raise InvalidArgumentError(_UNINITIALIZED.format("numel"), reason="lazy")

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Become a plain tensor of this shape (uninitialised values)."""
        _materialize(self, tuple(int(s) for s in shape), dtype, Tensor)


def _uninitialized(dtype: Any) -> UninitializedParameter:
    p = Parameter(Tensor._make(np.empty((0,), as_dtype(dtype))))
    p.__class__ = UninitializedParameter
    return p


class LazyModuleMixin:
    """What the lazy layers share: has_uninitialized_params(), initialize_parameters(input), and the first call
    that initialises the parameters and turns the module into `cls_to_become`."""

    cls_to_become: type | None = None

    def has_uninitialized_params(self) -> bool:
        for table in (self.registered_parameters, self.registered_buffers):
            if any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in table.values()):
                return True
        return False

    def initialize_parameters(self, input: Any) -> None:
        raise NotImplementedError

    def reset_parameters(self) -> None:
        """Nothing before the first call (the eager layer's __init__ calls it: no draws from the random stream)."""
        if not self.__dict__.get("_constructing") and not self.has_uninitialized_params():
            self.cls_to_become.reset_parameters(self)

    def _eager_init(self, *args: Any, **options: Any) -> None:
        """The eager layer's __init__, which makes placeholder parameters without drawing."""
        self.__dict__["_constructing"] = True
        self.cls_to_become.__init__(self, *args, **options)
        del self.__dict__["_constructing"]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.has_uninitialized_params():
            self.initialize_parameters(*args, **kwargs)
        if not self.has_uninitialized_params() and self.cls_to_become is not None:
            self.__class__ = self.cls_to_become
        return self(*args, **kwargs)


class LazyLinear(LazyModuleMixin, Linear):
    """nn.LazyLinear(out_features): in_features is the first input's last dim."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        self._eager_init(0, out_features, bias, device, dtype)
        self.register_parameter("weight", _uninitialized(dtype))
        if bias:
            self.register_parameter("bias", _uninitialized(dtype))

    def initialize_parameters(self, input: Any, *args: Any, **kwargs: Any) -> None:
        self.in_features = int(input.shape[-1])
        self.member("weight").materialize((self.out_features, self.in_features))
        if self.member("bias") is not None:
            self.member("bias").materialize((self.out_features,))
        Linear.reset_parameters(self)


class _LazyConv(LazyModuleMixin):
    """The lazy convolutions: in_channels is the input's dim 1 (dim 0 unbatched)."""

    def __init__(self, out_channels: Any, kernel_size: Any, stride: Any = 1, padding: Any = 0, *rest: Any,
                 **options: Any) -> None:
        groups = options.get("groups", rest[1] if len(rest) > 1 else 1)  # (dilation or output_padding, groups, ...)
        dtype = options.get("dtype")
        self._eager_init(groups, out_channels, kernel_size, stride, padding, *rest, **options)
        self.in_channels = 0
        self.register_parameter("weight", _uninitialized(dtype))
        if self.member("bias") is not None:
            self.register_parameter("bias", _uninitialized(dtype))

    def initialize_parameters(self, input: Any, *args: Any, **kwargs: Any) -> None:
        n = self.cls_to_become.DIMS + 1
        if input.dim() not in (n, n + 1):
            raise ShapeError(f"Expected {n}D (unbatched) or {n + 1}D (batched) input to {type(self).__name__}, but "
                             f"got input of size: {input.shape!r}", reason="lazy")
        self.in_channels = int(input.shape[1] if input.dim() == n + 1 else input.shape[0])
        if self.in_channels % self.groups:
            raise InvalidArgumentError("in_channels must be divisible by groups", reason="lazy")
        kernel = self.kernel_size
        shape = ((self.in_channels, self.out_channels // self.groups, *kernel) if self.cls_to_become.TRANSPOSED
                 else (self.out_channels, self.in_channels // self.groups, *kernel))
        self.member("weight").materialize(shape)
        if self.member("bias") is not None:
            self.member("bias").materialize((self.out_channels,))
        self.cls_to_become.reset_parameters(self)


class LazyConv1d(_LazyConv, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConv, ConvTranspose1d):
    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConv, ConvTranspose2d):
    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConv, ConvTranspose3d):
    cls_to_become = ConvTranspose3d


class _LazyBatchNorm(LazyModuleMixin):
    """The lazy batch norms: num_features is the input's dim 1."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, **options: Any) -> None:
        self._eager_init(0, eps, momentum, affine, track_running_stats, device, dtype, **options)
        for name in ("weight", "bias"):
            if self.member(name) is not None:
                self.register_parameter(name, _uninitialized(dtype))
        if track_running_stats:
            for name in ("running_mean", "running_var"):
                self.register_buffer(name, UninitializedBuffer(dtype=dtype))

    def initialize_parameters(self, input: Any, *args: Any, **kwargs: Any) -> None:
        self.num_features = int(input.shape[1])
        for table in (self.registered_parameters, self.registered_buffers):
            for t in table.values():
                if isinstance(t, (UninitializedParameter, UninitializedBuffer)):
                    t.materialize((self.num_features,))
        self.cls_to_become.reset_parameters(self)


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d


LAZY_LAYERS = {cls.__name__: cls for cls in (LazyLinear, LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d,
                                             LazyConvTranspose2d, LazyConvTranspose3d, LazyBatchNorm1d,
                                             LazyBatchNorm2d, LazyBatchNorm3d)}

__all__ = ["LAZY_LAYERS", "LazyModuleMixin", "UninitializedBuffer", "UninitializedParameter", *sorted(LAZY_LAYERS)]
