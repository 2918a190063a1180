"""More of torch.nn's containers and simple layers: ModuleDict, ParameterList, ParameterDict (which make tensors
Parameters, as PyTorch's do, and print as PyTorch prints them), Unflatten, Dropout1d/2d/3d (whole channels zeroed:
F.dropout1d/2d/3d of linear_functions.py), and the lazy layers (below)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from ..core.dtypes import TYPE_NAMES
from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError, OutOfRangeError, ShapeError
from ..ops.shapes import unflatten
from .conv_layers import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .layers import Linear
from .linear_functions import dropout1d, dropout2d, dropout3d
from .module import Module, Parameter
from .norm_layers import BatchNorm1d, BatchNorm2d, BatchNorm3d


class ModuleDict(Module):
    """Modules by name, in insertion order: md['name'], md.keys(), md.items(), update(), pop()."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self.registered_modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self.registered_modules[key]

    def __len__(self) -> int:
        return len(self.registered_modules)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.registered_modules))

    def __contains__(self, key: str) -> bool:
        return key in self.registered_modules

    def clear(self) -> None:
        self.registered_modules.clear()

    def pop(self, key: str) -> Module:
        value = self[key]
        del self[key]
        return value

    def keys(self) -> Iterable[str]:
        return self.registered_modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        return self.registered_modules.items()

    def values(self) -> Iterable[Module]:
        return self.registered_modules.values()

    def update(self, modules: Any) -> None:
        pairs = modules.items() if isinstance(modules, (Mapping, ModuleDict)) else modules
        for key, module in pairs:
            self[key] = module


def _as_parameter(value: Any) -> Any:
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


class ParameterList(Module):
    """Parameters in a list (tensors become Parameters), registered as "0", "1", ..."""

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def _key(self, idx: int) -> str:
        if not -self._size <= idx < self._size:
            raise OutOfRangeError(f"index {idx} is out of range", reason="index")
        return str(idx % self._size)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(self._size)[idx]])
        key = self._key(idx)
        found, value = self.lookup(key)
        return value if found else getattr(self, key)

    def __setitem__(self, idx: int, value: Any) -> None:
        setattr(self, self._key(idx), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter([self[i] for i in range(self._size)])

    def __iadd__(self, values: Iterable[Any]) -> ParameterList:
        return self.extend(values)

    def append(self, value: Any) -> ParameterList:
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_parameter_line(p, False)}" for k, p in enumerate(self))


def _parameter_line(p: Any, legacy: bool) -> str:
    """One entry of a ParameterList's (dtype) or ParameterDict's (legacy type name) printed form."""
    if not isinstance(p, Tensor):
        return f"Object of type: {type(p).__name__}"
    kind = f"torch.{TYPE_NAMES[p.dtype]}Tensor" if legacy else str(p.dtype)
    size = "x".join(str(n) for n in p.shape)
    return f"{'Parameter' if isinstance(p, Parameter) else 'Tensor'} containing: [{kind} of size {size}]"


class ParameterDict(Module):
    """Parameters by name (tensors become Parameters): pd['name'], keys(), items(), update()."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys:
            raise KeyError(key)
        found, value = self.lookup(key)
        return value if found else getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._keys))

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self) -> Iterable[str]:
        return list(self._keys)

    def items(self) -> Iterable[tuple[str, Any]]:
        return [(k, self[k]) for k in self._keys]

    def values(self) -> Iterable[Any]:
        return [self[k] for k in self._keys]

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._keys else default

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def update(self, parameters: Any) -> None:
        pairs = parameters.items() if isinstance(parameters, (Mapping, ParameterDict)) else parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_parameter_line(p, True)}" for k, p in self.items())


class Unflatten(Module):
    """Dim `dim` unflattened into unflattened_size (the inverse of Flatten)."""

    def __init__(self, dim: Any, unflattened_size: Any) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, unflattened_size

    def settings(self) -> dict[str, Any]:
        return {"dim": self.dim, "unflattened_size": self.unflattened_size}

    def forward(self, input: Any) -> Tensor:
        return unflatten(input, self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class _ChannelDropout(Module):
    FUNCTION: Any = None

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {p}", reason="dropout")
        self.p, self.inplace = p, inplace

    def settings(self) -> dict[str, Any]:
        return {"p": self.p, "inplace": self.inplace}

    def forward(self, input: Any) -> Tensor:
        return type(self).FUNCTION(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_ChannelDropout):
    FUNCTION = staticmethod(dropout1d)


class Dropout2d(_ChannelDropout):
    FUNCTION = staticmethod(dropout2d)


class Dropout3d(_ChannelDropout):
    FUNCTION = staticmethod(dropout3d)


# ---------------------------------------------------------------------------- the lazy layers
# torch.nn's lazy layers: LazyLinear, LazyConv1d/2d/3d, LazyConvTranspose1d/2d/3d and LazyBatchNorm1d/2d/3d.
#
# A lazy layer leaves the size it reads from its input (in_features, in_channels, num_features) at 0 and its
# parameters as UninitializedParameter (its running statistics as UninitializedBuffer) until the first call. That
# call gives each of them its shape in place (the same Parameter objects, so an optimizer made before it still holds
# them), initialises them as the eager layer does, at that point of the random stream (PyTorch's numbers after
# manual_seed), and turns the module into the eager layer (`cls_to_become`): LazyConv2d prints as Conv2d after it.

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

CONTAINER_LAYERS = {cls.__name__: cls for cls in (ModuleDict, ParameterList, ParameterDict, Unflatten, Dropout1d,
                                                  Dropout2d, Dropout3d)}

__all__ = ["CONTAINER_LAYERS", "LAZY_LAYERS", "Dropout1d", "Dropout2d", "Dropout3d", "LazyModuleMixin", "ModuleDict",
           "ParameterDict", "ParameterList", "UninitializedBuffer", "UninitializedParameter", "Unflatten",
           *sorted(LAZY_LAYERS)]
