"""More of torch.nn's containers and simple layers: ModuleDict, ParameterList, ParameterDict (which make tensors
Parameters, as PyTorch's do, and print as PyTorch prints them), Unflatten, Dropout1d/2d/3d (whole channels zeroed:
F.dropout1d/2d/3d of linear_functions.py). The lazy layers (LazyLinear, ...) are in lazy.py."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..core.dtypes import TYPE_NAMES
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError, OutOfRangeError
from ..ops.shapes import unflatten
from .linear_functions import dropout1d, dropout2d, dropout3d
from .module import Module, Parameter


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


CONTAINER_LAYERS = {cls.__name__: cls for cls in (ModuleDict, ParameterList, ParameterDict, Unflatten, Dropout1d,
                                                  Dropout2d, Dropout3d)}

__all__ = ["CONTAINER_LAYERS", "Dropout1d", "Dropout2d", "Dropout3d", "ModuleDict", "ParameterDict",
           "ParameterList", "Unflatten"]
