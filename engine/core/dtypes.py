"""The dtypes a tensor can have, as PyTorch names and prints them (torch.float32, torch.int64, torch.bool, ...),
and PyTorch's type promotion between them.

A `DType` is one object per dtype (`float32` and its other name `float` are the same object, as
torch.float32 is torch.float); it prints as PyTorch's (`torch.int64`), compares equal to the numpy dtype it
stores (so `t.dtype == np.float32` and `np.zeros(3, t.dtype)` work), and carries PyTorch's attributes
(`is_floating_point`, `is_signed`, `itemsize`).

Promotion follows c10's `promoteTypes` and ATen's `result_type`: an integer or bool meeting a floating type
takes the floating type; two integers take numpy's common integer type (int8 with uint8 is int16); and the
operands of an operation are ranked as PyTorch ranks them: tensors with dimensions decide first, then 0-d
tensors, then Python numbers, and a lower-ranked operand only matters when it is of a higher category (bool <
integer < floating), in which case a number brings the default dtype of its category (a float: the default
float dtype, an int: int64) and a 0-d tensor its own dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import BadValueError


class DType:
    """One tensor dtype, PyTorch's object for it (repr `torch.int64`)."""

    __slots__ = ("is_floating_point", "is_signed", "itemsize", "name", "numpy")
    is_complex = False

    def __init__(self, name: str, numpy: Any) -> None:
        self.name = name
        self.numpy = np.dtype(numpy)
        self.is_floating_point = self.numpy.kind == "f"
        self.is_signed = self.numpy.kind in "fi"
        self.itemsize = self.numpy.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    __str__ = __repr__

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype (numpy reads it: np.dtype(torch_dtype), np.zeros(3, torch_dtype))."""
        return self.numpy

    @property
    def kind(self) -> str:
        """numpy's kind letter: 'f' floating, 'i' signed integer, 'u' unsigned, 'b' bool."""
        return self.numpy.kind

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return self is other
        if isinstance(other, str):
            return NAMES.get(other) is self
        if isinstance(other, np.dtype) or (isinstance(other, type) and issubclass(other, np.generic)):
            return self.numpy == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.numpy)

    def __reduce__(self) -> tuple:
        return (lookup, (self.name,))

    def __copy__(self) -> DType:
        return self

    def __deepcopy__(self, memo: dict) -> DType:
        return self

    def to_numpy(self) -> np.dtype:
        return self.numpy


bool_ = DType("bool", np.bool_)
uint8 = DType("uint8", np.uint8)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)

# By numpy dtype (Tensor.dtype's lookup), and by every name PyTorch gives them (torch.long is torch.int64)
BY_NUMPY = {d.numpy: d for d in ALL}
ALIASES = {"bool": bool_, "uint8": uint8, "int8": int8, "int16": int16, "short": int16, "int32": int32, "int": int32,
           "int64": int64, "long": int64, "float16": float16, "half": float16, "float32": float32, "float": float32,
           "float64": float64, "double": float64}
NAMES = {**ALIASES, **{f"torch.{name}": d for name, d in ALIASES.items()}}
# The legacy tensor types' names (x.type() prints torch.LongTensor)
TYPE_NAMES = {bool_: "Bool", uint8: "Byte", int8: "Char", int16: "Short", int32: "Int", int64: "Long",
              float16: "Half", float32: "Float", float64: "Double"}


def lookup(name: str) -> DType:
    """The dtype called name ('int64', 'long', 'torch.int64', ...)."""
    return NAMES[name]


def of(array: np.ndarray) -> DType:
    """The DType of a numpy array."""
    return BY_NUMPY[array.dtype]


def category(dtype: np.dtype) -> int:
    """PyTorch's categories, ordered: 0 bool, 1 integer, 2 floating."""
    kind = dtype.kind
    return 2 if kind == "f" else 0 if kind == "b" else 1


def promote_types(type1: Any, type2: Any) -> DType:
    """torch.promote_types: the smallest dtype both convert to without losing their category."""
    return BY_NUMPY[promote(np.dtype(type1), np.dtype(type2))]


def promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """promote_types on numpy dtypes: a floating type wins over integers and bool whatever its size
    (float16 with int64 is float16), otherwise numpy's promotion (int8 with uint8: int16)."""
    if a == b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        return a if ca > cb else b
    return np.promote_types(a, b)


def can_cast(source: np.dtype, target: np.dtype) -> bool:
    """torch.can_cast: an in-place result may be written into a tensor of the same or a higher category only
    (a float result into an integer tensor, or an integer one into a bool tensor, is refused)."""
    return category(source) <= category(target)


def cast_error(source: np.dtype, target: np.dtype) -> str:
    """PyTorch's words when an in-place result cannot be written: result type Float can't be cast to ... Long."""
    return (f"result type {TYPE_NAMES[BY_NUMPY[source]]} can't be cast to the desired output type "
            f"{TYPE_NAMES[BY_NUMPY[target]]}")


def result_type(operands: Any, default_float: np.dtype) -> np.dtype:
    """The dtype of an operation on these operands (numpy arrays, or Python numbers for the numbers), by ATen's
    result_type: dimensioned tensors first, then 0-d tensors, then numbers, each later group counting only when
    it is of a higher category."""
    dims = zeros = numbers = None
    unsigned = False
    for x in operands:
        if isinstance(x, np.ndarray):
            if x.ndim:
                dims = x.dtype if dims is None else promote(dims, x.dtype)
            else:
                zeros = x.dtype if zeros is None else promote(zeros, x.dtype)
        else:
            kind = _number_dtype(x, default_float)
            numbers = kind if numbers is None else promote(numbers, kind)
            unsigned = unsigned or (type(x) is int and 2**63 <= x < 2**64)  # (past: an OverflowError, later)
    if unsigned and numbers.kind != "f" and (dims is None or dims.kind == "b") and (zeros is None or zeros.kind == "b"):
        # PyTorch reads 2**63 to 2**64 - 1 as a uint64 number, which it cannot promote with bools
        raise BadValueError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote Bool "
                            "and UInt64", hint="make the tensor an integer one first, e.g. mask.long()",
                            reason="promotion")
    return _combine(dims, _combine(zeros, numbers))


def _number_dtype(x: Any, default_float: np.dtype) -> np.dtype:
    if isinstance(x, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(x, (int, np.integer)):
        return np.dtype(np.int64)
    return np.dtype(default_float)


def _combine(higher: np.dtype | None, lower: np.dtype | None) -> np.dtype | None:
    """c10's combine_categories: the higher-priority result, unless the lower one is of a higher category."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.kind == "f":
        return higher
    if higher.kind == "b" or lower.kind == "f":
        return promote(higher, lower)
    return higher
