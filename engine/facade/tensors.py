"""The tensor-making names of torch beyond the engine's constructors: torch.from_numpy (sharing the array's
memory), torch.as_tensor, the legacy torch.FloatTensor / torch.DoubleTensor, is_tensor, numel."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff.engine import Tensor, tensor
from autodiff.engine.devices import check_device
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


def _legacy(dtype: str) -> Any:
    def construct(*args: Any, device: Any = None) -> Tensor:
        """PyTorch's legacy constructor: from data, or an uninitialised tensor (zeros here) of the given sizes."""
        check_device(device)
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            from autodiff.engine import zeros

            return zeros(*args, dtype=dtype)
        if len(args) != 1:
            raise WrongTypeError(f"{construct.__name__}() takes the data (a number or nested lists), or sizes",
                                 reason="arguments")
        data = args[0]
        return tensor(data.detach().numpy() if isinstance(data, Tensor) else data, dtype=dtype)

    return construct


FloatTensor = _legacy("float32")
FloatTensor.__name__ = FloatTensor.__qualname__ = "FloatTensor"
DoubleTensor = _legacy("float64")
DoubleTensor.__name__ = DoubleTensor.__qualname__ = "DoubleTensor"


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def is_floating_point(input: Tensor) -> bool:
    return input.is_floating_point()
