"""The tensor-making names of torch beyond the engine's constructors: torch.from_numpy (sharing the array's
memory), torch.as_tensor, the legacy types (torch.FloatTensor, torch.LongTensor, ...), is_tensor, numel."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff.engine import Tensor, tensor, zeros
from autodiff.engine.core.devices import check_device
from autodiff.engine.core.dtypes import (
    TYPE_NAMES,
    DType,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
)
from autodiff.engine.errors import WrongTypeError


def from_numpy(array: Any) -> Tensor:
    """torch.from_numpy(a): a tensor on the array's own memory, of its dtype (writes show through both ways)."""
    if not isinstance(array, np.ndarray):
        raise WrongTypeError(f"expected np.ndarray (got {type(array).__name__})", reason="arguments")
    return Tensor._make(array)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """torch.as_tensor: a tensor itself when nothing changes, a numpy array's memory when its dtype is kept."""
    check_device(device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or np.dtype(dtype) == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


class _LegacyType(type):
    """The metaclass of PyTorch's legacy tensor types: `torch.FloatTensor(data)` or `torch.FloatTensor(2, 3)` makes a
    tensor, `isinstance(t, torch.FloatTensor)` asks its dtype, `t.type(torch.FloatTensor)` converts to it."""

    dtype: DType

    def __call__(cls, *args: Any, device: Any = None) -> Tensor:
        check_device(device)
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return zeros(*args, dtype=cls.dtype)  # uninitialised in PyTorch; zeros here
        if len(args) != 1:
            raise WrongTypeError(f"{cls.__name__}() takes the data (a number or nested lists), or sizes",
                                 reason="arguments")
        data = args[0]
        return tensor(data.detach().numpy() if isinstance(data, Tensor) else data, dtype=cls.dtype)

    def __instancecheck__(cls, value: Any) -> bool:
        return isinstance(value, Tensor) and value.dtype == cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(dtype: DType) -> type:
    return _LegacyType(f"{TYPE_NAMES[dtype]}Tensor", (), {"dtype": dtype, "__module__": "torch"})


FloatTensor, DoubleTensor, HalfTensor = _legacy(float32), _legacy(float64), _legacy(float16)
LongTensor, IntTensor, ShortTensor = _legacy(int64), _legacy(int32), _legacy(int16)
CharTensor, ByteTensor, BoolTensor = _legacy(int8), _legacy(uint8), _legacy(bool_)
LEGACY_TYPES = (FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor,
                BoolTensor)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()
