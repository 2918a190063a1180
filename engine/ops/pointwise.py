"""Pointwise functions of tutorials and optimizers: addcmul and addcdiv (with value=), nan_to_num (nan=, posinf=,
neginf=), sgn, heaviside and signbit, float_power as PyTorch composes it (pow of both cast to float64) and ldexp
(input * 2 ** other), with PyTorch's node names."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, number, tensor_arg
from ..core.dtypes import float64 as F64
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import BUILTINS, builtin, function
from ..core.tensor import Tensor
from ..core.tensormath import SGN

LN2 = math.log(2.0)


def _op(name: str, node: str, inputs: tuple[str, ...], forward: Any, grads: tuple[Grad, ...], doc: str,
        **facts: Any) -> Op:
    facts.setdefault("elementwise", len(inputs) > 1)
    facts.setdefault("jvp", ELEMENTWISE_JVP)
    return Op(name, node, inputs, forward, grads, doc, noisy=True, **facts)


def _addcmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, value: float) -> np.ndarray:
    """self + value * tensor1 * tensor2, in PyTorch's order ((value * tensor1) * tensor2)."""
    dtype = np.result_type(a, b, c)
    return np.asarray(a + (np.asarray(value, dtype) * b) * c, dtype=dtype)


def _addcdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, value: float) -> np.ndarray:
    """self + value * tensor1 / tensor2, in PyTorch's order ((value * tensor1) / tensor2)."""
    dtype = np.result_type(a, b, c)
    return np.asarray(a + (np.asarray(value, dtype) * b) / c, dtype=dtype)


def _nan_to_num(x: np.ndarray, *, nan: float, posinf: float | None, neginf: float | None) -> np.ndarray:
    if x.dtype.kind != "f":
        return x.copy()
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


ADDCMUL = declare(_op(
    "addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"), _addcmul,
    (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g * (s.tensor2 * s.value), "grad * tensor2 * value"),
     Grad(lambda F, g, s: g * (s.tensor1 * s.value), "grad * tensor1 * value")),
    "self + value * tensor1 * tensor2", symbolic=lambda M, a, b, c, *, value: a + value * b * c))
ADDCDIV = declare(_op(
    "addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"), _addcdiv,
    (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g * (s.value / s.tensor2), "grad * value / tensor2"),
     Grad(lambda F, g, s: -g * s.value * s.tensor1 / (s.tensor2 * s.tensor2),
          "-grad * value * tensor1 / tensor2**2")),
    "self + value * tensor1 / tensor2", symbolic=lambda M, a, b, c, *, value: a + value * b / c))
NAN_TO_NUM = declare(_op(
    "nan_to_num", "NanToNumBackward0", ("self",), _nan_to_num,
    (Grad(lambda F, g, s: F.where(np.isfinite(F.values(s.self)), g, g * 0.0), "grad * isfinite(self)"),),
    "self with nan, inf and -inf replaced by numbers (nan=0, the dtype's largest and smallest by default)"))


def _ternary(op: Op, input: Any, tensor1: Any, tensor2: Any, value: Any) -> Tensor:
    a, b, c = tensor_arg(input), tensor_arg(tensor1, "tensor1"), tensor_arg(tensor2, "tensor2")
    broadcast_shape(broadcast_shape(a._data.shape, b._data.shape), c._data.shape)
    return apply(op, (a, b, c), {"value": number(value, "value")})


@builtin("addcmul(input, tensor1, tensor2, value=1)", ("addcmul",),
         plan=lambda R, input, tensor1, tensor2, value=1: R.op(ADDCMUL, input, tensor1, tensor2, value=value))
def addcmul(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
    """input + value * tensor1 * tensor2 (broadcast)."""
    return _ternary(ADDCMUL, input, tensor1, tensor2, value)


@builtin("addcdiv(input, tensor1, tensor2, value=1)", ("addcdiv",),
         plan=lambda R, input, tensor1, tensor2, value=1: R.op(ADDCDIV, input, tensor1, tensor2, value=value))
def addcdiv(input: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Tensor:
    """input + value * tensor1 / tensor2 (broadcast)."""
    return _ternary(ADDCDIV, input, tensor1, tensor2, value)


@builtin("nan_to_num(input, nan=0.0, posinf=None, neginf=None)", ("nan_to_num",),
         plan=lambda R, input, nan=0.0, posinf=None, neginf=None: R.op(NAN_TO_NUM, input, nan=nan, posinf=posinf,
                                                                      neginf=neginf))
def nan_to_num(input: Any, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Tensor:
    """input with nan as nan (0.0), inf as posinf and -inf as neginf (the dtype's largest and smallest numbers by
    default)."""
    return apply(NAN_TO_NUM, (tensor_arg(input),), {
        "nan": number(nan, "nan"), "posinf": None if posinf is None else number(posinf, "posinf"),
        "neginf": None if neginf is None else number(neginf, "neginf")})


@builtin("sgn(input)", ("sgn",), plan=lambda R, input: R.op(SGN, input))
def sgn(input: Any) -> Tensor:
    """The sign of input (sign, for real numbers; its gradient is 0)."""
    return apply(SGN, (tensor_arg(input),))


@builtin("signbit(input)", summary="True where the sign bit is set (negative numbers, -0.0, -inf), elementwise")
def signbit(input: Any) -> Tensor:
    return Tensor._make(np.asarray(np.signbit(tensor_arg(input)._data)))


@builtin("heaviside(input, values)", summary="0 where input < 0, 1 where input > 0, values where input == 0")
def heaviside(input: Any, values: Any) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(values, "values")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    x, v = np.broadcast_arrays(a._data, b._data)
    return Tensor._make(np.asarray(np.where(x == 0, v, (x > 0)), dtype=a._data.dtype))


@builtin("float_power(input, exponent)", ("pow", "pow_tensor", "pow_scalar_base", "to"))
def float_power(input: Any, exponent: Any) -> Tensor:
    """input ** exponent computed in float64 (PyTorch's pow of both cast to double)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("float_power() received an invalid combination of arguments: neither input nor exponent is "
                        "a Tensor")
    base = input.to(F64) if isinstance(input, Tensor) else float(input)
    power = exponent.to(F64) if isinstance(exponent, Tensor) else float(exponent)
    return BUILTINS["pow"].fn(base, power)


ldexp = function(_op(
    "ldexp", "LdexpBackward0", ("self", "other"), lambda x, e: x * np.exp2(e),
    (Grad(lambda F, g, s: g * F.exp(s.other * LN2), "grad * 2 ** other"),
     Grad(lambda F, g, s: g * s.result * LN2, "grad * result * log(2)")),
    "self * 2 ** other", group=ELEMENTWISE, symbolic=lambda M, a, b: a * 2**b))
