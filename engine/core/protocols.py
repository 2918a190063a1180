"""What a Tensor is to Python and to a PyTorch script beyond its operations: iteration (one UnbindBackward0
per element, as PyTorch), in-place operators (`x += y` writes into x, as x.add_(y)), devices (everything is on
the CPU), conversions (`to`, `view_as`), the `new_*` constructors, and PyTorch's small queries
(`nelement`, `is_contiguous`, ...). api.py installs them on the Tensor with the rest of its API."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..errors import BadValueError, WrongTypeError
from .devices import CPU, NO_CUDA, PRESERVE_FORMAT, check_device, in_c_order, is_device
from .optable import OPS
from .recording import apply
from .registry import BUILTINS
from .tensor import Tensor


def _iterate(self: Tensor) -> Iterator[Tensor]:
    if self.ndim == 0:
        raise WrongTypeError("iteration over a 0-d tensor", reason="arguments")
    return iter(BUILTINS["unbind"].fn(self, 0))


def _contains(self: Tensor, element: Any) -> bool:
    """`element in t`: whether any element equals it, as PyTorch's."""
    if not isinstance(element, (Tensor, int, float, bool, np.number)):
        raise WrongTypeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                             f"{type(element).__name__}.", reason="arguments")
    return bool(BUILTINS["any"].fn(BUILTINS["eq"].fn(self, element)))


def _to(self: Tensor, *args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False,
        copy: bool = False, memory_format: Any = None) -> Tensor:
    """x.to(device), x.to(dtype), x.to(device, dtype), x.to(other): a converted tensor (x itself when nothing
    changes, unless copy=True)."""
    target = dtype
    for arg in args:
        if is_device(arg):
            check_device(arg)
        elif isinstance(arg, Tensor):
            target = arg.dtype
        elif target is None:
            target = arg
        else:
            raise WrongTypeError("to() received an invalid combination of arguments (usage: to(device), to(dtype), "
                                 "to(device, dtype), to(other))", reason="arguments")
    check_device(device)
    return BUILTINS["to"].fn(self, target, copy=copy, memory_format=memory_format)


def _cuda(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    raise BadValueError(NO_CUDA, hint="remove .cuda(), or write .to(device) with device = torch.device('cpu')",
                        reason="device")


def _checked_tensor(other: Any, method: str) -> Tensor:
    if not isinstance(other, Tensor):
        raise WrongTypeError(f"{method}(): argument 'other' must be Tensor, not {type(other).__name__}",
                             reason="arguments")
    return other


def _new(fill: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """x.new_zeros(size), new_ones, new_empty: a tensor of x's dtype unless dtype= says otherwise."""

    def make(self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
        check_device(device)
        shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        return fill(*shape, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)

    return make


def _new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    check_device(device)
    return BUILTINS["full"].fn(tuple(size), fill_value, dtype=self.dtype if dtype is None else dtype,
                               requires_grad=requires_grad)


def _new_tensor(self: Tensor, data: Any, *, dtype: Any = None, device: Any = None,
                requires_grad: bool = False) -> Tensor:
    check_device(device)
    if isinstance(data, Tensor):
        data = data.detach().numpy()
    return BUILTINS["tensor"].fn(data, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """x.copy_(src): src's values (broadcast, converted to x's dtype) written into x, recorded as PyTorch's."""
    source = src if isinstance(src, Tensor) else BUILTINS["tensor"].fn(src, dtype=self.dtype)
    return self.__setitem__(Ellipsis, source) or self


def _deepcopy(self: Tensor, memo: dict) -> Tensor:
    """copy.deepcopy of a leaf: its values, requires_grad and .grad copied (PyTorch refuses non-leaves too)."""
    if self._grad_fn is not None:
        raise BadValueError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                            "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                            "because of a torch.nn.utils.weight_norm usage, see "
                            "https://github.com/pytorch/pytorch/pull/103001", reason="deepcopy")
    copied = type(self)._make(self._data.copy())
    memo[id(self)] = copied
    if self._requires_grad:
        copied._requires_grad = True
    if self._grad is not None:
        copied._grad = _deepcopy(self._grad, memo)
    return copied


def _contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """self when its memory is in C order; otherwise a C-order copy, recorded as PyTorch records it (CloneBackward0)."""
    if memory_format is PRESERVE_FORMAT:
        raise BadValueError("preserve memory format is unsupported by the contiguous operator",
                            hint="leave memory_format= out", reason="memory_format")
    in_c_order(memory_format, "contiguous")
    if self._data.flags.c_contiguous:
        return self
    return apply(OPS["clone"], (self,), {"contiguous": True})


def _is_contiguous(self: Tensor, memory_format: Any = None) -> bool:
    """Whether its memory is in C order (torch.preserve_format: False, as PyTorch answers)."""
    if memory_format is PRESERVE_FORMAT:
        return False
    in_c_order(memory_format, "is_contiguous")  # refuses what is not one of the formats autodiff has
    return bool(self._data.flags.c_contiguous)


# name: method, installed on Tensor by api.py
METHODS: dict[str, Callable[..., Any]] = {
    "__iter__": _iterate,
    "__contains__": _contains,
    "__deepcopy__": _deepcopy,
    "to": _to,
    "cpu": lambda self, memory_format=None: self,
    "cuda": _cuda,
    "view_as": lambda self, other: BUILTINS["view"].fn(self, *_checked_tensor(other, "view_as").shape),
    "reshape_as": lambda self, other: BUILTINS["reshape"].fn(self, *_checked_tensor(other, "reshape_as").shape),
    "new_zeros": _new(lambda *s, **k: BUILTINS["zeros"].fn(*s, **k)),
    "new_ones": _new(lambda *s, **k: BUILTINS["ones"].fn(*s, **k)),
    "new_empty": _new(lambda *s, **k: BUILTINS["empty"].fn(*s, **k)),
    "new_full": _new_full,
    "new_tensor": _new_tensor,
    "copy_": _copy_,
    "contiguous": _contiguous,
    "is_contiguous": _is_contiguous,
    "ndimension": lambda self: self._data.ndim,
    "get_device": lambda self: -1,
    "pin_memory": lambda self, device=None: self,
    "is_pinned": lambda self, device=None: False,
}
# name: property
PROPERTIES: dict[str, property] = {
    "device": property(lambda self: CPU),
    "is_cuda": property(lambda self: False),
    "is_cpu": property(lambda self: True),
    "is_sparse": property(lambda self: False),
    "is_quantized": property(lambda self: False),
    "is_meta": property(lambda self: False),
    "itemsize": property(lambda self: int(self._data.dtype.itemsize)),
    "nbytes": property(lambda self: int(self._data.nbytes)),
}

