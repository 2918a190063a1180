"""Arithmetic: + - * / ** and negation, reciprocal, maximum and minimum, declared with the functions that
record them. The operators of the Tensor (api.py) call these functions.

The formulas are written so numpy can reuse its temporaries (it does for `temp op array`, and for `array op
temp` when op commutes, but not with a Python number): `-(((self / other) / other) * g)` allocates one
array where `-g * ((self / other) / other)` allocates two. Each is bit-for-bit the PyTorch formula its text
gives (negation is exact, products commute).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..core.coerce import both, checked_number, refuse_zero_division, with_number, wrapped, wrapped_number
from ..core.optable import ARITHMETIC, ELEMENTWISE_JVP, FLOATING, FUNCTION, KEPT, Grad, Op, declare
from ..core.recording import apply, binary, refuse_bool
from ..core.registry import Builtin, alias, builtin, composite, function
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..errors import BadValueError
from ..kernels.arrays import c_order, power
from ..kernels.parallel import Kernel


# ---------------------------------------------------------------------------- formulas
def maximum_grad(F: Any, g: Any, a: Any, b: Any) -> Any:
    """The gradient of maximum(a, b) for a: PyTorch's rule, half on ties, nothing where a < b, the whole
    gradient otherwise (nan included)."""
    return F.maximum_backward(g, F.values(a), F.values(b))


def _pow_tensor_grad_self(F: Any, g: Any, s: Any) -> Any:
    exponent = F.values(s.exponent)
    return F.where(exponent == 0.0, 0.0, g * (s.exponent * s.self ** F.sub_scalar(s.exponent, 1.0)))


def _pow_tensor_grad_exponent(F: Any, g: Any, s: Any) -> Any:
    base, exponent = F.values(s.self), F.values(s.exponent)
    mask = (base == 0) & (exponent >= 0)
    return g * F.where(mask, 0.0, s.result * F.log(s.self))  # masked factor: an infinite grad still gives nan


def _pow_scalar_base_grad(F: Any, g: Any, s: Any) -> Any:
    log_base = F.log_number(s.base)
    if s.base != 0:
        return g * (s.result * log_base)
    # PyTorch defines the derivative of 0 ** e with respect to e as 0 for e >= 0 (a factor: inf * 0 is nan).
    return g * F.where(F.values(s.exponent) >= 0, 0.0, s.result * log_base)


# ---------------------------------------------------------------------------- the ops
ADD = declare(Op("add", "AddBackward0", ("self", "other"), np.add,
                 (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g, "grad")), "self + other",
                 group=ARITHMETIC, elementwise=True, symbolic=lambda M, a, b: a + b, jvp=ELEMENTWISE_JVP,
                 numbers=operator.add))
SUB = declare(Op("sub", "SubBackward0", ("self", "other"), np.subtract,
                 (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: F.neg(g), "-grad")), "self - other",
                 group=ARITHMETIC, elementwise=True, symbolic=lambda M, a, b: a - b, jvp=ELEMENTWISE_JVP,
                 numbers=operator.sub))
RSUB = declare(Op("rsub", "RsubBackward1", ("self",), lambda x, *, other: np.subtract(other, x),
                  (Grad(lambda F, g, s: F.neg(g), "-grad"),), "other - self, for a number `other`",
                  group=ARITHMETIC, symbolic=lambda M, a, *, other: other - a, jvp=ELEMENTWISE_JVP))
MUL = declare(Op("mul", "MulBackward0", ("self", "other"), np.multiply,
                 (Grad(lambda F, g, s: F.mul_sum_to(g, s.other, s.input_shapes[0]), "grad * other"),
                  Grad(lambda F, g, s: F.mul_sum_to(g, s.self, s.input_shapes[1]), "grad * self")),
                 "self * other", group=ARITHMETIC, elementwise=True, symbolic=lambda M, a, b: a * b,
                 jvp=ELEMENTWISE_JVP, numbers=operator.mul))
DIV = declare(Op("div", "DivBackward0", ("self", "other"), np.divide,
                 (Grad(lambda F, g, s: g / s.other, "grad / other"),
                  Grad(lambda F, g, s: F.div_other_backward(g, s.self, s.other), "-grad * self / other**2")),
                 "self / other", group=ARITHMETIC, noisy=True, elementwise=True, symbolic=lambda M, a, b: a / b,
                 jvp=ELEMENTWISE_JVP, integers=FLOATING, numbers=operator.truediv))
POW = declare(Op("pow", "PowBackward0", ("self",), lambda x, *, exponent: power(x, exponent),
                 (Grad(lambda F, g, s: g * 0.0 if s.exponent == 0 else F.pow_backward(g, s.self, s.exponent),
                       "grad * exponent * self**(exponent - 1)"),), "self ** exponent, for a number exponent",
                 group=ARITHMETIC, noisy=True, symbolic=lambda M, a, *, exponent: a**exponent, jvp=ELEMENTWISE_JVP))
POW_TENSOR = declare(Op("pow_tensor", "PowBackward1", ("self", "exponent"), lambda a, b: integer_power(a, b),
                        (Grad(_pow_tensor_grad_self, "grad * exponent * self**(exponent - 1)"),
                         Grad(_pow_tensor_grad_exponent, "grad * result * log(self)")),
                        "self ** exponent, both tensors", group=ARITHMETIC, noisy=True, elementwise=True,
                        symbolic=lambda M, a, b: a**b, jvp=ELEMENTWISE_JVP))
POW_SCALAR_BASE = declare(Op("pow_scalar_base", "PowBackward2", ("exponent",),
                             lambda e, *, base: c_order(_number_power(base, e)),
                             (Grad(_pow_scalar_base_grad, "grad * result * log(base)"),),
                             "base ** exponent, for a number base", group=ARITHMETIC, noisy=True,
                             symbolic=lambda M, e, *, base: base**e, jvp=ELEMENTWISE_JVP))

def _extreme_jvp(F: Any, t: Any, chosen: np.ndarray, s: Any) -> Any:
    """maximum/minimum's tangent, as derivatives.yaml: other's, plus half the difference on ties and all of it
    where self is chosen (a nan chooses other)."""
    weight = np.where(F.values(s.self) == F.values(s.other), 0.5, chosen).astype(F.values(s.result).dtype)
    return t.other + weight * (t.self - t.other)


def _keeping_self(ufunc: np.ufunc) -> Any:
    """PyTorch's maximum/minimum return self on a tie (-0.0 and 0.0); numpy's ufunc its second argument."""
    return lambda a, b: ufunc(b, a)


maximum = function(Op("maximum", "MaximumBackward0", ("self", "other"), _keeping_self(np.maximum),
                      (Grad(lambda F, g, s: maximum_grad(F, g, s.self, s.other),
                            "grad where self > other (half on ties)"),
                       Grad(lambda F, g, s: maximum_grad(F, g, s.other, s.self),
                            "grad where other > self (half on ties)")),
                      "elementwise maximum", group=ARITHMETIC, elementwise=True, symbolic=FUNCTION,
                      kernel=Kernel(2, (np.maximum, "b", "a")),
                      jvp=lambda F, t, s: _extreme_jvp(F, t, F.values(s.self) > F.values(s.other), s)))
minimum = function(Op("minimum", "MinimumBackward0", ("self", "other"), _keeping_self(np.minimum),
                      (Grad(lambda F, g, s: maximum_grad(F, g, -F.values(s.self), -F.values(s.other)),
                            "grad where self < other (half on ties)"),
                       Grad(lambda F, g, s: maximum_grad(F, g, -F.values(s.other), -F.values(s.self)),
                            "grad where other < self (half on ties)")),
                      "elementwise minimum", group=ARITHMETIC, elementwise=True, symbolic=FUNCTION,
                      kernel=Kernel(2, (np.minimum, "b", "a")),
                      jvp=lambda F, t, s: _extreme_jvp(F, t, F.values(s.self) < F.values(s.other), s)))
neg = function(Op("neg", "NegBackward0", ("self",), np.negative, (Grad(lambda F, g, s: F.neg(g), "-grad"),), "-self",
                  group=ARITHMETIC, symbolic=lambda M, a: -a, jvp=ELEMENTWISE_JVP, integers=KEPT))
reciprocal = function(Op("reciprocal", "ReciprocalBackward0", ("self",), lambda x: 1 / x,
                         (Grad(lambda F, g, s: F.reciprocal_backward(g, s.result), "-grad * result**2"),),
                         "1 / self", group=ARITHMETIC, noisy=True, symbolic=lambda M, a: 1 / a, jvp=ELEMENTWISE_JVP,
                         integers=FLOATING))


# ---------------------------------------------------------------------------- the functions
@builtin("add(input, other)", ("add",), op=ADD)
def add(input: Any, other: Any) -> Tensor:
    a, b = both(input, other)
    return binary(ADD, wrapped(a, b), b)


@builtin("sub(input, other)", ("sub", "rsub"), op=SUB)
def sub(input: Any, other: Any) -> Tensor:
    a, b = both(input, other)
    refuse_bool("sub", a, b)
    return binary(SUB, wrapped(a, b), b)


@builtin("mul(input, other)", ("mul",), op=MUL)
def mul(input: Any, other: Any) -> Tensor:
    a, b = both(input, other)
    return binary(MUL, wrapped(a, b), b)


class _Unset:
    """The default of div's rounding_mode: PyTorch records DivBackward2 once rounding_mode is given, None too."""

    def __repr__(self) -> str:
        return "None"


UNSET = _Unset()


def _trunc_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b rounded towards zero; for integers, in integers (numpy's trunc would make them floats)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        quotient = np.floor_divide(a, b)
        inexact = (quotient * b != a) & ((a < 0) != (b < 0))
        return quotient + inexact.astype(quotient.dtype)  # floor rounds those down: one back towards zero
    return np.trunc(np.divide(a, b))


ROUNDING = {None: np.divide, "trunc": _trunc_divide, "floor": np.floor_divide}


def _div_mode_grad(F: Any, g: Any, s: Any, formula: Any) -> Any:
    return formula() if s.rounding_mode is None else F.zeros_like(g)


DIV_MODE = declare(Op("div_mode", "DivBackward2", ("self", "other"),
                      lambda a, b, *, rounding_mode: ROUNDING[rounding_mode](a, b),
                      (Grad(lambda F, g, s: _div_mode_grad(F, g, s, lambda: g / s.other),
                            "grad / other (0 with a rounding mode)"),
                       Grad(lambda F, g, s: _div_mode_grad(F, g, s, lambda: F.div_other_backward(g, s.self, s.other)),
                            "-grad * self / other**2 (0 with a rounding mode)")),
                      "self / other, rounded as rounding_mode says ('trunc', 'floor' or None)", group=ARITHMETIC,
                      noisy=True, elementwise=True, jvp=ELEMENTWISE_JVP))


def _div_plan(R: Any, input: Any, other: Any, rounding_mode: Any = UNSET) -> Any:
    if rounding_mode is UNSET:
        return R.op(DIV, input, other)
    return R.op(DIV_MODE, input, other, rounding_mode=rounding_mode)


@builtin("div(input, other, rounding_mode=None)", ("div", "reciprocal", "mul", "div_mode"), plan=_div_plan)
def div(input: Any, other: Any, rounding_mode: Any = UNSET) -> Tensor:
    """input / other; rounding_mode='trunc' rounds towards zero, 'floor' down (their gradient is 0)."""
    a, b = both(input, other)
    if rounding_mode is UNSET:
        return binary(DIV, wrapped(a, b), b)
    if rounding_mode not in ROUNDING:
        raise BadValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                            f"{rounding_mode!r}", reason="rounding_mode")
    a, b = wrapped(a, b), wrapped(b, a)
    if b._data.dtype.kind in "biu" and a._data.dtype.kind in "biu":
        if rounding_mode is None:  # a true division: in the default float dtype
            a = Tensor._make(a._data.astype(STATE.default_dtype))
        else:
            refuse_zero_division(b._data)
    return binary(DIV_MODE, a, b, {"rounding_mode": rounding_mode})


def _pow_plan(R: Any, input: Any, exponent: Any) -> Any:
    if R.is_constant(input):
        return R.op(POW_SCALAR_BASE, exponent, base=input)
    if R.is_constant(exponent):
        return R.op(POW, input, exponent=exponent)
    return R.op(POW_TENSOR, input, exponent)


@builtin("pow(input, exponent)", ("pow", "pow_tensor", "pow_scalar_base"), plan=_pow_plan)
def pow(input: Any, exponent: Any) -> Tensor:
    a, e = both(input, exponent)
    if not isinstance(a, Tensor):
        return apply(POW_SCALAR_BASE, (with_number(e, a),), {"base": a})
    if not isinstance(e, Tensor):
        a = with_number(a, e)
        if a._data.dtype.kind in "biu" and e < 0:
            raise BadValueError(NEGATIVE_POWERS, hint="make the tensor floating first: x.float() ** -1",
                                reason="integer_power")
        return apply(POW, (a,), {"exponent": checked_number(e, a._data.dtype)})
    return binary(POW_TENSOR, a, e)


NEGATIVE_POWERS = "Integers to negative integer powers are not allowed."


def _number_power(base: float | int, exponent: np.ndarray) -> np.ndarray:
    """base ** exponent for a number base: on an integer exponent, in its dtype (PyTorch's 2 ** tensor([-1]) is 0)."""
    if exponent.dtype.kind in "biu":
        return integer_power(np.asarray(base).astype(exponent.dtype), exponent)
    return np.power(base, exponent)


def _c_power(result: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """numpy's power loop takes an exponent of 0.5 as a square root, so (-0.0) ** 0.5 is -0.0 there; C's pow, which
    PyTorch's kernel for a tensor exponent calls, gives +0.0."""
    if result.dtype.kind == "f":
        flip = (result == 0) & np.signbit(result) & (exponent == 0.5)
        if flip.any():
            return np.where(flip, result.dtype.type(0), result)
    return result


def integer_power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """base ** exponent on integer arrays as PyTorch's kernel: a negative exponent gives 1 for base 1, +-1 for
    base -1 and 0 for any other base (numpy refuses them)."""
    if base.dtype.kind not in "biu" or exponent.dtype.kind not in "biu" or not (exponent < 0).any():
        return _c_power(np.power(base, exponent), exponent)
    negative = exponent < 0
    result = np.power(base, np.where(negative, 0, exponent))
    odd = np.remainder(exponent, 2) != 0
    inverse = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0)).astype(result.dtype)
    return np.where(negative, inverse, result)


square = composite("square(input)", lambda F, x: F.pow(x, 2), "input ** 2 (recorded as PowBackward0, as PyTorch does)",
                   method=True)


# ---------------------------------------------------------------------------- the reflected operators
def rsub(input: Tensor, other: Any) -> Tensor:
    """`other - input` for the operator `number - tensor`: RsubBackward1 (torch.sub(number, tensor) is
    SubBackward0)."""
    a, b = both(other, input)
    if not isinstance(a, Tensor):
        refuse_bool("sub", a, b)
        b = with_number(b, a)
        return apply(RSUB, (b,), {"other": wrapped_number(a, b._data.dtype)})  # 300 - uint8 is 44 - uint8
    return sub(a, b)


def rdiv(input: Tensor, other: Any) -> Tensor:
    """`other / input` for the operator `number / tensor`: recorded as reciprocal(tensor) * number, as PyTorch's
    __rtruediv__."""
    a, b = both(other, input)
    if not isinstance(a, Tensor):
        return binary(MUL, reciprocal(b), a)
    return binary(DIV, a, b)


# How `number - x` and `number / x` are recorded (the Tensor's __rsub__ and __rtruediv__): for backends other
# than the engine, as built-ins that are not part of the language.
REFLECTED = {
    "-": Builtin("rsub", rsub, "rsub(input, other)", ("rsub",), RSUB.doc, False, op=RSUB),
    "/": Builtin("rdiv", rdiv, "rdiv(input, other)", ("reciprocal", "mul"), "other / self, for a number other",
                 False, composite=lambda F, x, number: F.mul(F.reciprocal(x), number)),
}


# PyTorch's (and numpy's) other spellings
for _name, _target in (("multiply", "mul"), ("divide", "div"), ("true_divide", "div"), ("negative", "neg")):
    alias(_name, _target)
