"""The Tensor's operators and methods (x + y, x[i], x.sum(), x.T, ...), installed on the class once every
function exists: each method is the registered function of the same name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import logic
from .functions import abs, add, div, matmul, mul, neg, permute, pow, rdiv, rsub, sub, to, transpose
from .indexing import getitem, setitem
from .ops import OPS
from .recording import apply
from .registry import BUILTINS
from .tensor import Tensor


def _reflected(fn: Callable) -> Callable:
    return lambda self, other: fn(other, self)


def _fast(op_name: str, general: Callable) -> Callable:
    """A Tensor operator that goes straight to the op for a Python number (the common scalar case)."""
    op = OPS[op_name]

    def operator(self: Tensor, other: Any) -> Tensor:
        if type(other) is float or type(other) is int:
            return apply(op, (self, other))
        return general(self, other)

    return operator


def _install_tensor_api() -> None:
    T = Tensor
    T.__add__ = T.__radd__ = _fast("add", add)
    T.__sub__ = _fast("sub", sub)
    T.__rsub__ = rsub
    T.__mul__ = T.__rmul__ = _fast("mul", mul)
    T.__truediv__ = _fast("div", div)
    T.__rtruediv__ = rdiv
    T.__pow__ = lambda self, other: pow(self, other)
    T.__rpow__ = _reflected(pow)
    T.__matmul__ = lambda self, other: matmul(self, other)
    T.__rmatmul__ = _reflected(matmul)
    T.__neg__ = lambda self: neg(self)
    T.__pos__ = lambda self: self
    T.__abs__ = lambda self: abs(self)
    T.__lt__ = lambda self, other: logic.lt(self, other)
    T.__le__ = lambda self, other: logic.le(self, other)
    T.__gt__ = lambda self, other: logic.gt(self, other)
    T.__ge__ = lambda self, other: logic.ge(self, other)
    T.__and__ = T.__rand__ = lambda self, other: logic.logical_and(self, other)
    T.__or__ = T.__ror__ = lambda self, other: logic.logical_or(self, other)
    T.__invert__ = lambda self: logic.logical_not(self)
    # == and != keep Python's identity meaning on Tensor objects (tensors are dict keys and list members
    # inside the engine); the language and `eq`/`ne` compare values.
    T.__getitem__ = getitem
    T.__setitem__ = setitem
    T.T = property(lambda self: permute(self, tuple(reversed(range(self.ndim)))))
    T.mT = property(lambda self: transpose(self, -2, -1))
    for name, entry in BUILTINS.items():
        if entry.method and not hasattr(T, name):
            setattr(T, name, entry.fn)
    T.float = lambda self: to(self, "float32")
    T.double = lambda self: to(self, "float64")


_install_tensor_api()
