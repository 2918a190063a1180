"""Comparisons and logic: `< <= > >= == !=` give boolean tensors (never recorded: they have no gradient),
`& | ~` combine them, `all`/`any` reduce them, and `where(condition, input, other)` chooses elementwise
(WhereBackward0: the gradient goes to the side that was chosen), so piecewise functions can be written."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import Number, array_from, broadcast_shape, checked_number, readable, with_axis
from ..core.dtypes import BY_NUMPY, TYPE_NAMES, result_type
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, PROMOTED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import STATE, check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError

WHERE = declare(Op("where", "WhereBackward0", ("self", "other"), lambda a, b, *, condition: np.where(condition, a, b),
                   (Grad(lambda F, g, s: F.where(s.condition, g, 0.0), "grad where condition"),
                    Grad(lambda F, g, s: F.where(s.condition, 0.0, g), "grad where not condition")),
                   "self where condition, else other", group=ELEMENTWISE, elementwise=True,
                   symbolic=lambda M, a, b, *, condition: M.where(condition, a, b), jvp=ELEMENTWISE_JVP,
                   integers=PROMOTED))


def _values(x: Any, what: str) -> np.ndarray:
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, bool):
        return np.asarray(x)
    if isinstance(x, Number):
        return np.asarray(readable(x))  # cast to the other side's dtype (wrapping) by the caller
    if isinstance(x, (list, tuple)):
        return array_from(x, None)
    raise BadValueError(f"{what} must be a tensor or a number, got {type(x).__name__}", reason="operands")


def _compare(ufunc: Any, input: Any, other: Any) -> Tensor:
    """A comparison computed, as PyTorch's, in the operands' common dtype (result_type): tensor([0.1]) == 0.1 in
    float32, a uint8 tensor against -1 with the -1 wrapped."""
    a, b = _values(input, "input"), _values(other, "other")
    if a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    if a.dtype != b.dtype:
        numbers = [x if isinstance(x, Number) else v for x, v in ((input, a), (other, b))]
        common = result_type(numbers, STATE.default_dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            a, b = a.astype(common, copy=False), b.astype(common, copy=False)
    return Tensor._make(np.asarray(ufunc(a, b)))


@builtin("eq(input, other)", method=True, summary="input == other, elementwise (a boolean tensor)")
def eq(input: Any, other: Any) -> Tensor:
    return _compare(np.equal, input, other)


@builtin("ne(input, other)", method=True, summary="input != other, elementwise (a boolean tensor)")
def ne(input: Any, other: Any) -> Tensor:
    return _compare(np.not_equal, input, other)


@builtin("lt(input, other)", method=True, summary="input < other, elementwise (a boolean tensor)")
def lt(input: Any, other: Any) -> Tensor:
    return _compare(np.less, input, other)


@builtin("le(input, other)", method=True, summary="input <= other, elementwise (a boolean tensor)")
def le(input: Any, other: Any) -> Tensor:
    return _compare(np.less_equal, input, other)


@builtin("gt(input, other)", method=True, summary="input > other, elementwise (a boolean tensor)")
def gt(input: Any, other: Any) -> Tensor:
    return _compare(np.greater, input, other)


@builtin("ge(input, other)", method=True, summary="input >= other, elementwise (a boolean tensor)")
def ge(input: Any, other: Any) -> Tensor:
    return _compare(np.greater_equal, input, other)


def _bits(x: Any, what: str) -> np.ndarray:
    """The operand of & | ^ ~: booleans (logical) or integers (bitwise), as PyTorch's bitwise functions."""
    values = x if isinstance(x, np.ndarray) else _values(x, what)
    if values.dtype.kind not in "biu":
        raise BadValueError(f"{what} of &, | and ~ must be booleans (a comparison), got {values.dtype.name} values",
                            hint="compare first, e.g. (x > 0) & (x < 1)", reason="logic")
    return values


def _bitwise(ufunc: Any, input: Any, other: Any) -> Tensor:
    a, b = _values(input, "input"), _values(other, "other")  # (2**70 first: PyTorch's OverflowError)
    a, b = _bits(a, "the operands"), _bits(b, "the operands")
    if a.dtype != b.dtype:  # PyTorch's result_type: a number or 0-d side takes the other's dtype
        numbers = [x if isinstance(x, Number) else v for x, v in ((input, a), (other, b))]
        common = result_type(numbers, STATE.default_dtype)
        a, b = a.astype(common, copy=False), b.astype(common, copy=False)
    return Tensor._make(np.asarray(ufunc(a, b)))


@builtin("bitwise_and(input, other)", method=True, summary="input & other: logical for bools, bitwise for integers")
def bitwise_and(input: Any, other: Any) -> Tensor:
    return _bitwise(np.bitwise_and, input, other)


@builtin("bitwise_or(input, other)", method=True, summary="input | other: logical for bools, bitwise for integers")
def bitwise_or(input: Any, other: Any) -> Tensor:
    return _bitwise(np.bitwise_or, input, other)


@builtin("bitwise_xor(input, other)", method=True, summary="input ^ other: logical for bools, bitwise for integers")
def bitwise_xor(input: Any, other: Any) -> Tensor:
    return _bitwise(np.bitwise_xor, input, other)


@builtin("bitwise_not(input)", method=True, summary="~input: logical for bools, bitwise for integers")
def bitwise_not(input: Any) -> Tensor:
    return Tensor._make(np.asarray(np.invert(_bits(input, "the operand"))))


def _shift(left: bool, input: Any, other: Any) -> Tensor:
    """input << other or input >> other on integers, as PyTorch's kernels: in the operands' common dtype (a
    number wrapped into it), a shift past the width (or negative) giving 0, or the sign for a signed >>."""
    a, b = _values(input, "input"), _values(other, "other")
    if a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    numbers = [x if isinstance(x, Number) else v for x, v in ((input, a), (other, b))]
    common = result_type(numbers, STATE.default_dtype)
    if common.kind not in "iu":
        name = "lshift_cpu" if left else "rshift_cpu"
        raise BadValueError(f"\"{name}\" not implemented for '{TYPE_NAMES[BY_NUMPY[common]]}'",
                            hint="shifts are for integer tensors: convert first, e.g. x.long()", reason="integer_only")
    with np.errstate(over="ignore", invalid="ignore"):
        a, b = a.astype(common, copy=False), b.astype(common, copy=False)
    bits = common.itemsize * 8
    past = (b < 0) | (b >= bits)
    within = np.where(past, 0, b).astype(common)
    if left:
        out = np.where(past, 0, np.left_shift(a, within))
    else:
        out = np.where(past, np.right_shift(a, bits - 1) if common.kind == "i" else 0, np.right_shift(a, within))
    return Tensor._make(np.asarray(out, dtype=common))


@builtin("bitwise_left_shift(input, other)", method=True,
         summary="input << other, for integers (0 once shifted past the width)")
def bitwise_left_shift(input: Any, other: Any) -> Tensor:
    return _shift(True, input, other)


@builtin("bitwise_right_shift(input, other)", method=True,
         summary="input >> other, for integers (arithmetic for signed ones)")
def bitwise_right_shift(input: Any, other: Any) -> Tensor:
    return _shift(False, input, other)


@builtin("logical_and(input, other)", method=True, summary="input and other, elementwise (nonzero is true)")
def logical_and(input: Any, other: Any) -> Tensor:
    return Tensor._make(np.asarray(np.logical_and(_values(input, "input"), _values(other, "other"))))


@builtin("logical_or(input, other)", method=True, summary="input or other, elementwise (nonzero is true)")
def logical_or(input: Any, other: Any) -> Tensor:
    return Tensor._make(np.asarray(np.logical_or(_values(input, "input"), _values(other, "other"))))


@builtin("logical_xor(input, other)", method=True, summary="input xor other, elementwise (nonzero is true)")
def logical_xor(input: Any, other: Any) -> Tensor:
    return Tensor._make(np.asarray(np.logical_xor(_values(input, "input"), _values(other, "other"))))


@builtin("logical_not(input)", method=True, summary="not input, elementwise (zero is true)")
def logical_not(input: Any) -> Tensor:
    return Tensor._make(np.asarray(np.logical_not(_values(input, "input"))))


def _truth(fn: Any, input: Any, dim: Any, keepdim: bool) -> Tensor:
    values = _values(input, "input")
    if dim is None:
        return Tensor._make(np.asarray(fn(values)))
    items = dim if isinstance(dim, (list, tuple)) else (dim,)
    axes = tuple(check_dim(d, values.ndim) for d in items) if values.ndim else None
    return Tensor._make(np.asarray(fn(values, axis=axes, keepdims=bool(keepdim))))


@builtin("all(input, dim=None, keepdim=False)", method=True, summary="True when every element is true (nonzero)")
@with_axis
def all(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _truth(np.all, input, dim, keepdim)


@builtin("any(input, dim=None, keepdim=False)", method=True, summary="True when some element is true (nonzero)")
@with_axis
def any(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _truth(np.any, input, dim, keepdim)


def _where_plan(R: Any, condition: Any, input: Any, other: Any) -> Any:
    return R.op(WHERE, input, other, condition=condition)


@builtin("where(condition, input, other)", ("where",), method=False, plan=_where_plan,
         summary="input where condition is true, else other (elementwise; piecewise functions)")
def where(condition: Any, input: Any, other: Any) -> Tensor:
    mask = _values(condition, "condition")
    if mask.dtype != np.bool_:
        raise BadValueError(f"where expects a boolean condition (a comparison such as x > 0), got {mask.dtype.name}",
                            hint="write the condition as a comparison, e.g. where(x > 0, x**2, -x)", reason="where")
    sides = [x if isinstance(x, (Tensor, bool, int, float)) else Tensor._make(array_from(x, None))
             for x in (input, other)]
    # PyTorch's result_type: a 0-d side or a number only decides the dtype when of a higher category
    common = result_type([x._data if isinstance(x, Tensor) else x for x in sides], STATE.default_dtype)
    a, b = (x if isinstance(x, Tensor) else Tensor._make(_as_dtype(checked_number(x, common, ("float32",)), common))
            for x in sides)  # a number the dtype cannot hold is refused (uint8 and 300), as in PyTorch
    da, db = (x._data if x._data.dtype == common else x._data.astype(common) for x in (a, b))
    broadcast_shape(broadcast_shape(mask.shape, da.shape), db.shape)
    return apply(WHERE, (a, b), {"condition": mask}, (da, db))


def _as_dtype(number: Any, dtype: np.dtype) -> np.ndarray:
    """A number as a 0-d array of dtype (float16's 70000 is inf, without numpy's overflow warning, as PyTorch)."""
    with np.errstate(over="ignore"):
        return np.asarray(number).astype(dtype)


@builtin("isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)", method=True,
         summary="|input - other| <= atol + rtol * |other|, elementwise (a boolean tensor)")
def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    a, b = _values(input, "input"), _values(other, "other")
    if a.shape != b.shape:
        broadcast_shape(a.shape, b.shape)
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    return Tensor._make(np.asarray(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=bool(equal_nan))))


def _tolerance(value: Any, name: str) -> float:
    """A tolerance as PyTorch takes it: a number, or a tensor of one element (read as its number)."""
    if isinstance(value, Tensor) and value.numel() == 1:
        return float(value._data.reshape(()))
    if not isinstance(value, (int, float, np.number)):
        raise BadValueError(f"isclose(): argument '{name}' must be float, not {type(value).__name__}",
                            reason="arguments")
    return float(value)


@builtin("allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)", method=True,
         summary="True when every element of input is close to other's (a Python bool, as torch.allclose)")
def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    return bool(np.all(isclose(input, other, rtol, atol, equal_nan)._data))


@builtin("equal(input, other)", method=True, summary="True when both have the same shape and elements (a Python bool)")
def equal(input: Any, other: Any) -> bool:
    a, b = _values(input, "input"), _values(other, "other")
    return a.shape == b.shape and bool(np.array_equal(a, b))
