"""torch.nn's layers and containers: Linear and Bilinear (PyTorch's default initialisation, so the weights
under manual_seed are PyTorch's), Identity, Flatten, Dropout, Sequential, ModuleList and Embedding (its weight
drawn from N(0, 1), PyTorch's init.normal_, the padding row then zeroed). Their forward calls the functions of
torch.nn.functional (linear_functions.py, shapes.py, embedding.py): one implementation for both."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..core.modes import no_grad
from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError
from ..ops.shapes import flatten
from .embedding import embedding, padding_row
from .init import INIT_FUNCTIONS, fan_in_and_fan_out, init_uniform_, kaiming_uniform_
from .linear_functions import bilinear, dropout, linear
from .module import Module, Parameter, parameter


def _size(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise BadValueError(f"{what} must be a non-negative integer, got {value!r}", reason="layer")
    return int(value)


def empty_parameter(shape: tuple[int, ...], dtype: Any) -> Parameter:
    """A layer's weight or bias before its initialisation (refused over the element limit first)."""
    check_elements(shape, "the layer's weight")
    return parameter(Tensor._make(np.empty(shape, as_dtype(dtype))))


class Linear(Module):
    """y = x @ weight.T + bias, weight (out_features, in_features) and bias initialised as PyTorch does."""

    def settings(self) -> dict[str, Any]:
        return {"in_features": self.in_features, "out_features": self.out_features}

    def __init__(self, in_features: Any, out_features: Any, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features = _size(in_features, "in_features")
        self.out_features = _size(out_features, "out_features")
        self.register_parameter("weight", empty_parameter((self.out_features, self.in_features), dtype))
        self.register_parameter("bias", empty_parameter((self.out_features,), dtype) if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """kaiming_uniform_(weight, a=sqrt(5)), then bias uniform in +-1/sqrt(fan_in): PyTorch's order."""
        weight, bias = self.registered_parameters["weight"], self.registered_parameters["bias"]
        kaiming_uniform_(weight, a=math.sqrt(5))
        if bias is not None:
            fan_in, _ = fan_in_and_fan_out(weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init_uniform_(bias, -bound, bound)

    def forward(self, input: Any) -> Tensor:
        return linear(input, self.member("weight"), self.member("bias"))

    def extra_repr(self) -> str:
        has_bias = self.registered_parameters.get("bias") is not None
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={has_bias}"


class Bilinear(Module):
    """y[..., o] = input1 @ weight[o] @ input2 + bias[o]; weight (out, in1, in2) and bias uniform in
    +-1/sqrt(in1_features), as PyTorch initialises them."""

    def settings(self) -> dict[str, Any]:
        return {"in1_features": self.in1_features, "in2_features": self.in2_features,
                "out_features": self.out_features}

    def __init__(self, in1_features: Any, in2_features: Any, out_features: Any, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features = _size(in1_features, "in1_features")
        self.in2_features = _size(in2_features, "in2_features")
        self.out_features = _size(out_features, "out_features")
        shape = (self.out_features, self.in1_features, self.in2_features)
        self.register_parameter("weight", empty_parameter(shape, dtype))
        self.register_parameter("bias", empty_parameter((self.out_features,), dtype) if bias else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.in1_features) if self.in1_features > 0 else 0
        init_uniform_(self.registered_parameters["weight"], -bound, bound)
        if self.registered_parameters["bias"] is not None:
            init_uniform_(self.registered_parameters["bias"], -bound, bound)

    def forward(self, input1: Any, input2: Any) -> Tensor:
        return bilinear(input1, input2, self.member("weight"), self.member("bias"))

    def extra_repr(self) -> str:
        has_bias = self.registered_parameters.get("bias") is not None
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={has_bias}")


class Identity(Module):
    """Returns its input."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input


class Flatten(Module):
    def settings(self) -> dict[str, Any]:
        return {"start_dim": self.start_dim, "end_dim": self.end_dim}

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Any) -> Tensor:
        return flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout(Module):
    """Zeroes each element with probability p in training mode (PyTorch's mask under the seed); eval: identity."""

    def settings(self) -> dict[str, Any]:
        return {"p": self.p, "inplace": self.inplace}

    def __init__(self, p: Any = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise InvalidArgumentError(f"dropout probability has to be between 0 and 1, but got {p}", reason="dropout")
        self.p, self.inplace = p, inplace

    def forward(self, input: Any) -> Tensor:
        return dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class ModuleList(Module):
    """A list of modules, registered as "0", "1", ...; indexing and iteration give the modules."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _index(self, idx: Any) -> str:
        keys = list(self.registered_modules)
        if isinstance(idx, bool) or not isinstance(idx, (int, np.integer)):
            raise BadValueError(f"{self.type_name()} indices must be integers or slices, not {type(idx).__name__}",
                                reason="index")
        if not -len(keys) <= idx < len(keys):
            raise BadValueError(f"index {idx} is out of range", reason="index")
        return keys[idx]

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return type(self)(list(self.registered_modules.values())[idx])
        module = self.registered_modules[self._index(idx)]
        return module

    def __setitem__(self, idx: Any, module: Any) -> None:
        self.add_module(self._index(idx), module)

    def __len__(self) -> int:
        return len(self.registered_modules)

    def __iter__(self) -> Iterator:
        return iter([m for m in self.registered_modules.values()])

    def append(self, module: Any) -> Any:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Any) -> Any:
        for module in list(modules):
            self.append(module)
        return self


class Sequential(ModuleList):
    """Modules applied in order, each to the previous one's output; also Sequential(OrderedDict(...))."""

    def __init__(self, *args: Any) -> None:
        Module.__init__(self)
        if len(args) == 1 and isinstance(args[0], dict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return Sequential(dict(list(self.registered_modules.items())[idx]))
        return super().__getitem__(idx)

    def forward(self, input: Any) -> Any:
        for module in self.registered_modules.values():
            input = module(input)
        return input



class Embedding(Module):
    """A lookup table of num_embeddings vectors of embedding_dim numbers (weight ~ N(0, 1))."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Any = None, max_norm: Any = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: Any = None, _freeze: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = padding_row(padding_idx, num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            shape = (num_embeddings, embedding_dim)
            check_elements(shape, "the layer's weight")
            self.weight = Parameter(Tensor._make(np.empty(shape, as_dtype(dtype))), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        INIT_FUNCTIONS["normal_"](self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight._data[self.padding_idx] = 0
                self.weight._bump_version()

    def settings(self) -> dict[str, Any]:
        return {"num_embeddings": self.num_embeddings, "embedding_dim": self.embedding_dim,
                "padding_idx": self.padding_idx}

    def forward(self, input: Any) -> Tensor:
        return embedding(input, self.member("weight"), self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: Any = None, max_norm: Any = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Embedding:
        """An Embedding holding the given weights (frozen unless freeze=False)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)


NN_LAYERS = {cls.__name__: cls for cls in (Linear, Bilinear, Identity, Flatten, Dropout, Sequential, ModuleList,
                                          Embedding)}
