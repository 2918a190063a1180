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
from ..core.dtypes import result_type
from ..core.graph import Node
from ..core.inplace import update_
from ..core.optable import ARITHMETIC, ELEMENTWISE_JVP, FLOATING, FUNCTION, KEPT, Grad, Op, declare
from ..core.recording import apply, binary, refuse_bool
from ..core.registry import Builtin, alias, builtin, composite, function
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..errors import AutogradError, BadValueError, WrongTypeError
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


def _times(x: np.ndarray, alpha: Any) -> np.ndarray:
    """x * alpha in x's dtype, as PyTorch's add/sub kernels scale `other` (a bool tensor's alpha is a bool)."""
    if alpha == 1:
        return x
    if not isinstance(x, np.ndarray):  # a number (torch.add(x, 3, alpha=2)): stays a number
        return x * alpha
    if x.dtype.kind == "b":
        return np.logical_and(x, bool(alpha))
    return np.multiply(x, np.asarray(alpha).astype(x.dtype))


# ---------------------------------------------------------------------------- the ops
ADD = declare(Op("add", "AddBackward0", ("self", "other"), np.add,
                 (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g, "grad")), "self + other",
                 group=ARITHMETIC, elementwise=True, symbolic=lambda M, a, b: a + b, jvp=ELEMENTWISE_JVP,
                 numbers=operator.add))
SUB = declare(Op("sub", "SubBackward0", ("self", "other"), np.subtract,
                 (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: F.neg(g), "-grad")), "self - other",
                 group=ARITHMETIC, elementwise=True, symbolic=lambda M, a, b: a - b, jvp=ELEMENTWISE_JVP,
                 numbers=operator.sub))
RSUB = declare(Op("rsub", "RsubBackward1", ("self",), lambda x, *, other, alpha=1: np.subtract(other, _times(x, alpha)),
                  (Grad(lambda F, g, s: F.neg(g) if s.alpha == 1 else g * -s.alpha, "-grad * alpha"),),
                  "other - alpha * self, for a number `other`", group=ARITHMETIC,
                  symbolic=lambda M, a, *, other, alpha=1: other - alpha * a, jvp=ELEMENTWISE_JVP))
# torch.add(x, y, alpha=2), torch.sub(...), torch.rsub(x, y): alpha scales `other` (rsub's `self`) first
ADD_ALPHA = declare(Op("add_alpha", "AddBackward0", ("self", "other"),
                       lambda a, b, *, alpha: np.add(a, _times(b, alpha)),
                       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g * s.alpha, "grad * alpha")),
                       "self + alpha * other", group=ARITHMETIC, elementwise=True,
                       symbolic=lambda M, a, b, *, alpha: a + alpha * b, jvp=ELEMENTWISE_JVP))
SUB_ALPHA = declare(Op("sub_alpha", "SubBackward0", ("self", "other"),
                       lambda a, b, *, alpha: np.subtract(a, _times(b, alpha)),
                       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g * -s.alpha, "-grad * alpha")),
                       "self - alpha * other", group=ARITHMETIC, elementwise=True,
                       symbolic=lambda M, a, b, *, alpha: a - alpha * b, jvp=ELEMENTWISE_JVP))
RSUB_TENSOR = declare(Op("rsub_tensor", "RsubBackward0", ("self", "other"),
                         lambda a, b, *, alpha: np.subtract(b, _times(a, alpha)),
                         (Grad(lambda F, g, s: g * -s.alpha, "-grad * alpha"), Grad(lambda F, g, s: g, "grad")),
                         "other - alpha * self", group=ARITHMETIC, elementwise=True,
                         symbolic=lambda M, a, b, *, alpha: b - alpha * a, jvp=ELEMENTWISE_JVP))
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
def checked_alpha(alpha: Any, operands: tuple[Any, ...]) -> Any:
    """add's and sub's alpha as PyTorch checks it against the result's dtype: a number (or a one-element tensor); a
    bool only for a bool result, no float for an integer one, an int in an integer dtype's range."""
    if isinstance(alpha, np.generic) or (isinstance(alpha, Tensor) and alpha._data.size == 1):
        alpha = alpha.item()
    if not isinstance(alpha, (int, float)):
        raise WrongTypeError(f"alpha must be a number, not {type(alpha).__name__}", reason="arguments")
    dtype = result_type([x._data if isinstance(x, Tensor) else x for x in operands], STATE.default_dtype)
    if isinstance(alpha, bool) and dtype.kind != "b":
        raise BadValueError("Boolean alpha only supported for Boolean results.", reason="alpha")
    if isinstance(alpha, float) and dtype.kind in "biu":
        raise BadValueError("For integral input tensors, argument alpha must not be a floating point number.",
                            hint="give an int alpha, or make the tensors floating first", reason="alpha")
    return checked_number(alpha, dtype)


def _with_alpha(op: Op, a: Any, b: Any, alpha: Any) -> Tensor:
    """a + alpha * b (op add_alpha), a - alpha * b (sub_alpha) or b - alpha * a (rsub_tensor)."""
    return binary(op, a, b, {"alpha": checked_alpha(alpha, (a, b))})


def _alpha_plan(plain: Op, scaled: Op) -> Any:
    def plan(R: Any, input: Any, other: Any, *, alpha: Any = 1) -> Any:
        return R.op(plain, input, other) if alpha == 1 else R.op(scaled, input, other, alpha=alpha)

    return plan


@builtin("add(input, other, *, alpha=1)", ("add", "add_alpha"), plan=_alpha_plan(ADD, ADD_ALPHA))
def add(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """input + alpha * other."""
    a, b = both(input, other)
    if type(alpha) is int and alpha == 1:
        return binary(ADD, wrapped(a, b), b)
    return _with_alpha(ADD_ALPHA, wrapped(a, b), b, alpha)


@builtin("sub(input, other, *, alpha=1)", ("sub", "rsub", "sub_alpha"), plan=_alpha_plan(SUB, SUB_ALPHA))
def sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """input - alpha * other."""
    a, b = both(input, other)
    refuse_bool("sub", a, b)
    if type(alpha) is int and alpha == 1:
        return binary(SUB, wrapped(a, b), b)
    return _with_alpha(SUB_ALPHA, wrapped(a, b), b, alpha)


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
        return apply(POW, (a,), {"exponent": checked_number(e, a._data.dtype, ("float16",))})
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


def _rsub_plan(R: Any, input: Any, other: Any, *, alpha: Any = 1) -> Any:
    if R.is_constant(other):
        return R.op(RSUB, input, other=other, alpha=alpha)
    return R.op(RSUB_TENSOR, input, other, alpha=alpha)


@builtin("rsub(input, other, *, alpha=1)", ("rsub", "rsub_tensor"), method=False, plan=_rsub_plan)
def reversed_sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """other - alpha * input (torch.rsub): RsubBackward0 for a tensor other, RsubBackward1 for a number."""
    if not isinstance(input, Tensor):
        raise WrongTypeError(f"rsub() expects a tensor as its input, not {type(input).__name__}",
                             hint="write other - alpha * input", reason="arguments")
    a, b = both(input, other)
    refuse_bool("rsub", a, b)
    if isinstance(b, Tensor):
        return _with_alpha(RSUB_TENSOR, a, b, alpha)
    alpha = checked_alpha(alpha, (a, b))
    a = with_number(a, b)
    return apply(RSUB, (a,), {"other": wrapped_number(b, a._data.dtype), "alpha": alpha})


# ---------------------------------------------------------------------------- floor_divide
def _no_derivative(name: str) -> Grad:
    """The formula of PyTorch's NotImplemented node for aten::NAME: an error."""
    def formula(F: Any, g: Any, s: Any) -> Any:
        raise AutogradError(f"derivative for aten::{name} is not implemented",
                            hint="floor_divide is not differentiable: use div(a, b, rounding_mode='floor') (its "
                                 "gradient is 0), or a / b", reason="not_differentiable")

    return Grad(formula, "not implemented (an error)")


FLOOR_DIVIDE = declare(Op("floor_divide", "NotImplemented", ("self", "other"), np.floor_divide,
                          (_no_derivative("floor_divide"),) * 2, "self // other, rounded down (no derivative: "
                          "PyTorch's NotImplemented node)", group=ARITHMETIC, noisy=True, elementwise=True))
_NOT_IMPLEMENTED: dict[tuple[str, tuple[str, ...]], Op] = {}


def _as_not_implemented(node: Node, name: str) -> Node:
    """floor_divide's node as PyTorch records it for aten::NAME (floor_divide_ in place): a NotImplemented node
    that points only to the inputs that require grad."""
    kept = [i for i, edge in enumerate(node._next) if edge is not None]
    inputs = tuple(FLOOR_DIVIDE.inputs[i] for i in kept)
    op = _NOT_IMPLEMENTED.get((name, inputs))
    if op is None:  # (not in the table: FLOOR_DIVIDE is its entry)
        op = Op("floor_divide", "NotImplemented", inputs, None, (_no_derivative(name),) * len(inputs),
                FLOOR_DIVIDE.doc)
        _NOT_IMPLEMENTED[(name, inputs)] = op
    meta = tuple(v for i in kept for v in node._meta[2 * i:2 * i + 2])
    return Node(op, tuple(node._next[i] for i in kept), meta, None, (), None)


@builtin("floor_divide(input, other)", ("floor_divide",), op=FLOOR_DIVIDE)
def floor_divide(input: Any, other: Any) -> Tensor:
    """input // other rounded towards -inf, as Python's // (not differentiable: backward through it is an error)."""
    a, b = both(input, other)
    a = wrapped(a, b)
    if result_type((a._data, b._data if isinstance(b, Tensor) else b), STATE.default_dtype).kind in "biu":
        refuse_zero_division(wrapped(b, a)._data)  # an integer division (uint8 // 256 divides by 0)
    result = binary(FLOOR_DIVIDE, a, b)
    if result._grad_fn is not None and None in result._grad_fn._next:
        result._grad_fn = _as_not_implemented(result._grad_fn, "floor_divide")
    return result


def floor_divide_(input: Tensor, other: Any) -> Tensor:
    """x.floor_divide_(other): in place, recorded as PyTorch's NotImplemented node of aten::floor_divide_."""
    before = input._grad_fn
    update_(input, lambda t: floor_divide(t, other), "floor_divide_")
    if input._grad_fn is not before and input._grad_fn is not None:
        input._grad_fn = _as_not_implemented(input._grad_fn, "floor_divide_")
    return input


# ---------------------------------------------------------------------------- the reflected operators
def rsub(input: Tensor, other: Any) -> Tensor:
    """`other - input` for the operator `number - tensor`: RsubBackward1 (torch.sub(number, tensor) is
    SubBackward0)."""
    a, b = both(other, input)
    if not isinstance(a, Tensor):
        refuse_bool("sub", a, b)
        b = with_number(b, a)
        return apply(RSUB, (b,), {"other": wrapped_number(a, b._data.dtype), "alpha": 1})  # 300 - uint8: 44 - uint8
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
    "-": Builtin("rsub", rsub, "rsub(input, other)", ("rsub",), RSUB.doc, False,
                 plan=lambda R, input, other: R.op(RSUB, input, other=other, alpha=1)),
    "/": Builtin("rdiv", rdiv, "rdiv(input, other)", ("reciprocal", "mul"), "other / self, for a number other",
                 False, composite=lambda F, x, number: F.mul(F.reciprocal(x), number)),
}


# PyTorch's (and numpy's) other spellings
for _name, _target in (("multiply", "mul"), ("divide", "div"), ("true_divide", "div"), ("negative", "neg")):
    alias(_name, _target)
