"""torch.finfo and torch.iinfo: the limits of a floating or an integer dtype, as PyTorch gives them (Python numbers)."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff.engine import get_default_dtype
from autodiff.engine.core.dtypes import DType
from autodiff.engine.errors import WrongTypeError


def _numpy(dtype: Any) -> np.dtype:
    return np.dtype(dtype.numpy if isinstance(dtype, DType) else dtype)


class finfo:
    """The machine limits of a floating dtype (the default dtype when none is given)."""

    def __init__(self, type: Any = None) -> None:
        dtype = get_default_dtype() if type is None else type
        kind = _numpy(dtype)
        if kind.kind != "f":
            raise WrongTypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                                 "'torch.finfo'", reason="arguments")
        info = np.finfo(kind)
        self.bits, self.dtype = info.bits, str(dtype).replace("torch.", "")
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = float(info.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """The limits of an integer dtype."""

    def __init__(self, type: Any) -> None:
        kind = _numpy(type)
        if kind.kind not in "iub":
            raise WrongTypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                                 "'torch.iinfo'", reason="arguments")
        info = np.iinfo(kind)
        self.bits, self.max, self.min = info.bits, int(info.max), int(info.min)
        self.dtype = str(type).replace("torch.", "")

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


__all__ = ["finfo", "iinfo"]
