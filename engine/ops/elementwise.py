"""Elementwise functions: exponentials and logarithms, trigonometric and hyperbolic functions and their
inverses, the error function, rounding, clamp; and the functions PyTorch does not have as functions of
their own (sec, csc, cot, cbrt), declared as composites of the others so the graph shows what was computed.
numpy's spellings (arcsin, ...) and `ln` are aliases."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, checked_number, int_or_number, one_bound, tensor_arg, with_number
from ..core.dtypes import result_type
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, FUNCTION, KEPT, PROMOTED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import alias, builtin, composite, function
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..errors import BadValueError
from ..kernels.arrays import erf as erf_kernel
from ..kernels.arrays import erfc as erfc_kernel
from ..kernels.arrays import sign as sign_kernel
from ..kernels.parallel import SIGMOID
from . import arithmetic  # noqa: F401  (composites below call its built-ins: mul, pow, reciprocal)

LN2, LN10, TWO_OVER_SQRT_PI = math.log(2.0), math.log(10.0), 2.0 / math.sqrt(math.pi)


def _unary(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, *, noisy: bool = False,
           symbolic: Any = FUNCTION, aliases: tuple[str, ...] = (), functional: bool = False, **facts: Any) -> Any:
    """An elementwise function of one tensor: its op and its built-in `name(input)`."""
    facts.setdefault("jvp", ELEMENTWISE_JVP)  # an elementwise function: its Jacobian is diagonal
    op = Op(name, node, ("self",), forward, (Grad(formula, text),), doc, group=ELEMENTWISE, noisy=noisy,
            symbolic=symbolic, **facts)
    return function(op, aliases=aliases, functional=functional)


def _zero(F: Any, g: Any, s: Any) -> Any:
    return F.zeros_like(g)


# ---------------------------------------------------------------------------- exponentials and logarithms
exp = _unary("exp", "ExpBackward0", np.exp, lambda F, g, s: F.mul(g, s.result), "grad * result", "e ** self",
             noisy=True)
log = _unary("log", "LogBackward0", np.log, lambda F, g, s: F.div(g, s.self), "grad / self", "natural logarithm",
             noisy=True, aliases=("ln",))
log2 = _unary("log2", "Log2Backward0", np.log2, lambda F, g, s: g / (s.self * LN2), "grad / (self * log(2))",
              "base-2 logarithm", noisy=True, symbolic=lambda M, a: M.log(a) / M.log(2))
log10 = _unary("log10", "Log10Backward0", np.log10, lambda F, g, s: g / (s.self * LN10), "grad / (self * log(10))",
               "base-10 logarithm", noisy=True, symbolic=lambda M, a: M.log(a) / M.log(10))
log1p = _unary("log1p", "Log1PBackward0", np.log1p, lambda F, g, s: g / (s.self + 1), "grad / (self + 1)",
               "log(1 + self), accurate near 0", noisy=True, symbolic=lambda M, a: M.log(1 + a))
expm1 = _unary("expm1", "Expm1Backward0", np.expm1, lambda F, g, s: g * (s.result + 1), "grad * (result + 1)",
               "e ** self - 1, accurate near 0", noisy=True, symbolic=lambda M, a: M.exp(a) - 1)
exp2 = _unary("exp2", "Exp2Backward0", np.exp2, lambda F, g, s: g * (s.result * LN2), "grad * result * log(2)",
              "2 ** self", noisy=True, symbolic=lambda M, a: 2**a)
sqrt = _unary("sqrt", "SqrtBackward0", np.sqrt, lambda F, g, s: F.sqrt_backward(g, s.result), "grad / (2 * result)",
              "square root", noisy=True)
rsqrt = _unary("rsqrt", "RsqrtBackward0", lambda x: 1 / np.sqrt(x),
               lambda F, g, s: -0.5 * g * (s.result * s.result * s.result), "-0.5 * grad * result**3",
               "1 / sqrt(self)", noisy=True, symbolic=lambda M, a: 1 / M.sqrt(a))
sigmoid = _unary("sigmoid", "SigmoidBackward0", lambda x: 1 / (1 + np.exp(-x)),
                 lambda F, g, s: F.sigmoid_backward(g, s.result), "grad * (1 - result) * result",
                 "1 / (1 + e ** -self)", noisy=True, kernel=SIGMOID, functional=True,
                 symbolic=lambda M, a: 1 / (1 + M.exp(-a)))
relu = _unary("relu", "ReluBackward0", lambda x: np.maximum(0, x),  # numpy keeps its 2nd argument on ties: -0.0
              lambda F, g, s: F.threshold_backward(g, s.result), "grad where result > 0 (and where nan)",
              "max(self, 0)", functional=True, symbolic=lambda M, a: M.maximum(a, 0), integers=KEPT)

# ---------------------------------------------------------------------------- trigonometric and hyperbolic
sin = _unary("sin", "SinBackward0", np.sin, lambda F, g, s: F.sin_backward(g, s.self), "grad * cos(self)", "sine",
             noisy=True)
cos = _unary("cos", "CosBackward0", np.cos, lambda F, g, s: g * -F.sin(s.self), "grad * -sin(self)", "cosine",
             noisy=True)
tan = _unary("tan", "TanBackward0", np.tan, lambda F, g, s: F.tan_backward(g, s.result), "grad * (1 + result**2)",
             "tangent", noisy=True)
tanh = _unary("tanh", "TanhBackward0", np.tanh, lambda F, g, s: F.tanh_backward(g, s.result),
              "grad * (1 - result**2)", "hyperbolic tangent", functional=True)
asin = _unary("asin", "AsinBackward0", np.arcsin, lambda F, g, s: g / F.sqrt(1 - s.self * s.self),
              "grad / sqrt(1 - self**2)", "arcsine", noisy=True, aliases=("arcsin",))
acos = _unary("acos", "AcosBackward0", np.arccos, lambda F, g, s: -g / F.sqrt(1 - s.self * s.self),
              "-grad / sqrt(1 - self**2)", "arccosine", noisy=True, aliases=("arccos",))
atan = _unary("atan", "AtanBackward0", np.arctan, lambda F, g, s: g / (s.self * s.self + 1), "grad / (self**2 + 1)",
              "arctangent", aliases=("arctan",))
sinh = _unary("sinh", "SinhBackward0", np.sinh, lambda F, g, s: g * F.cosh(s.self), "grad * cosh(self)",
              "hyperbolic sine", noisy=True)
cosh = _unary("cosh", "CoshBackward0", np.cosh, lambda F, g, s: g * F.sinh(s.self), "grad * sinh(self)",
              "hyperbolic cosine", noisy=True)
asinh = _unary("asinh", "AsinhBackward0", np.arcsinh, lambda F, g, s: g / F.sqrt(s.self * s.self + 1),
               "grad / sqrt(self**2 + 1)", "inverse hyperbolic sine", aliases=("arcsinh",))
acosh = _unary("acosh", "AcoshBackward0", np.arccosh, lambda F, g, s: g / F.sqrt(s.self * s.self - 1),
               "grad / sqrt(self**2 - 1)", "inverse hyperbolic cosine", noisy=True, aliases=("arccosh",))
atanh = _unary("atanh", "AtanhBackward0", np.arctanh, lambda F, g, s: g / (1 - s.self * s.self),
               "grad / (1 - self**2)", "inverse hyperbolic tangent", noisy=True, aliases=("arctanh",))


def _atan2_grad(F: Any, g: Any, numerator: Any, s: Any) -> Any:
    """g * numerator * (1 / (self**2 + other**2)), the reciprocal taken as 0 at the origin (PyTorch's choice:
    a finite gradient gives 0 there, an infinite one nan)."""
    square = s.self * s.self + s.other * s.other
    with np.errstate(divide="ignore"):
        recip = F.where(F.values(square) == 0, 0.0, 1.0 / square)
    return g * numerator * recip


atan2 = function(Op("atan2", "Atan2Backward0", ("self", "other"), np.arctan2,
                    (Grad(lambda F, g, s: _atan2_grad(F, g, s.other, s), "grad * other / (self**2 + other**2)"),
                     Grad(lambda F, g, s: _atan2_grad(F, -g, s.self, s), "-grad * self / (self**2 + other**2)")),
                    "the angle of the point (other, self)", group=ELEMENTWISE, noisy=True, symbolic=FUNCTION,
                    jvp=ELEMENTWISE_JVP),
                 aliases=("arctan2",), summary="the angle of the point (other, input), in radians")
hypot = function(Op("hypot", "HypotBackward0", ("self", "other"), np.hypot,
                    (Grad(lambda F, g, s: g * s.self / s.result, "grad * self / result"),
                     Grad(lambda F, g, s: g * s.other / s.result, "grad * other / result")),
                    "sqrt(self**2 + other**2)", group=ELEMENTWISE, noisy=True,
                    symbolic=lambda M, a, b: M.sqrt(a**2 + b**2), jvp=ELEMENTWISE_JVP))

sec = composite("sec(input)", lambda F, x: F.reciprocal(F.cos(x)), "1 / cos(input), recorded as those two ops")
csc = composite("csc(input)", lambda F, x: F.reciprocal(F.sin(x)), "1 / sin(input), recorded as those two ops")
cot = composite("cot(input)", lambda F, x: F.reciprocal(F.tan(x)), "1 / tan(input), recorded as those two ops")
asec = composite("asec(input)", lambda F, x: F.acos(F.reciprocal(x)), "the inverse secant, acos(1 / input)",
                 aliases=("arcsec",))
acsc = composite("acsc(input)", lambda F, x: F.asin(F.reciprocal(x)), "the inverse cosecant, asin(1 / input)",
                 aliases=("arccsc",))
acot = composite("acot(input)", lambda F, x: F.atan(F.reciprocal(x)),
                 "the inverse cotangent, atan(1 / input) (SymPy's and Mathematica's branch)", aliases=("arccot",))

# ---------------------------------------------------------------------------- the error function, signs, rounding
erf = _unary("erf", "ErfBackward0", erf_kernel, lambda F, g, s: g * (TWO_OVER_SQRT_PI * F.exp(-(s.self * s.self))),
             "grad * 2 / sqrt(pi) * exp(-self**2)", "the error function")
erfc = _unary("erfc", "ErfcBackward0", erfc_kernel,
              lambda F, g, s: -g * (TWO_OVER_SQRT_PI * F.exp(-(s.self * s.self))),
              "-grad * 2 / sqrt(pi) * exp(-self**2)", "1 - erf(self)")
abs = _unary("abs", "AbsBackward0", np.abs, lambda F, g, s: g * F.sgn(s.self), "grad * sign(self)", "absolute value",
             aliases=("absolute",), integers=KEPT)
sign = _unary("sign", "SignBackward0", sign_kernel, _zero, "0", "-1, 0 or 1", integers=KEPT)
floor = _unary("floor", "FloorBackward0", np.floor, _zero, "0", "round down", integers=KEPT)
ceil = _unary("ceil", "CeilBackward0", np.ceil, _zero, "0", "round up", integers=KEPT)
ROUND = declare(Op("round", "RoundBackward0", ("self",), np.round, (Grad(_zero, "0"),),
                   "round to the nearest integer (halves to even)", group=ELEMENTWISE, symbolic=FUNCTION,
                   jvp=ELEMENTWISE_JVP, integers=KEPT))
ROUND_DECIMALS = declare(Op("round_decimals", "RoundBackward1", ("self",),
                            lambda x, *, decimals: np.round(x, decimals), (Grad(_zero, "0"),),
                            "round to a number of decimals (halves to even)", noisy=True, jvp=ELEMENTWISE_JVP))


def _round_plan(R: Any, input: Any, decimals: Any = None) -> Any:
    return R.op(ROUND, input) if decimals is None else R.op(ROUND_DECIMALS, input, decimals=decimals)


@builtin("round(input, decimals=None)", ("round", "round_decimals"), plan=_round_plan)
def round(input: Any, decimals: Any = None) -> Tensor:
    """Round to the nearest integer, or with decimals= to that many decimals (halves to even)."""
    x = tensor_arg(input)
    if decimals is None:
        return apply(ROUND, (x,))
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise BadValueError(f"round(): decimals must be an integer, got {decimals!r}", reason="decimals")
    return apply(ROUND_DECIMALS, (x,), {"decimals": int(decimals)})


trunc = _unary("trunc", "TruncBackward0", np.trunc, _zero, "0", "round towards zero", integers=KEPT)
frac = _unary("frac", "FracBackward0", lambda x: x - np.trunc(x), lambda F, g, s: g, "grad", "self - trunc(self)",
              symbolic=lambda M, a: a - M.trunc(a))

cbrt = composite("cbrt(input)", lambda F, x: F.mul(F.sign(x), F.pow(F.abs(x), 1.0 / 3.0)),
                 "the real cube root (cbrt(-8) is -2), recorded as sign(input) * abs(input) ** (1/3)")


# ---------------------------------------------------------------------------- clamp
def _clamp_forward(x: np.ndarray, *, min: float | None, max: float | None) -> np.ndarray:
    if min is not None and max is not None:
        return np.minimum(max, np.maximum(min, x))
    # numpy's maximum and minimum keep their second argument on ties: x, so that clamp(-0.0, min=0) is -0.0
    return np.maximum(min, x) if min is not None else np.minimum(max, x)


def _clamp_grad(F: Any, g: Any, s: Any) -> Any:
    x = F.values(s.self)  # the mask is built with the vocabulary's comparisons: arrays, or SymPy relations
    low = None if s.min is None else x >= s.min
    high = None if s.max is None else x <= s.max
    mask = high if low is None else low if high is None else low & high
    return F.where(mask, g, 0.0)


def _clamp_form(M: Any, a: Any, *, min: Any, max: Any) -> Any:
    if min is not None:
        a = M.maximum(a, min)
    return M.minimum(a, max) if max is not None else a


CLAMP = declare(Op("clamp", "ClampBackward1", ("self",), _clamp_forward,
                   (Grad(_clamp_grad, "grad where min <= self <= max"),), "self limited to [min, max]",
                   group=ELEMENTWISE, symbolic=_clamp_form, jvp=ELEMENTWISE_JVP, integers=KEPT))


def _bounds_grad(F: Any, g: Any, s: Any, which: str) -> Any:
    """clamp's gradient with tensor bounds, as ATen's clamp_backward_min_max (a missing bound is -inf or inf)."""
    x, low, high = F.values(s.self), F.values(s.min), F.values(s.max)
    if which == "self":
        return F.where((x >= low) & (x <= high), g, 0.0)
    if which == "min":
        return F.where((x < low) & (low < high), g, 0.0)
    return F.where((x > high) | (high < low), g, 0.0)


CLAMP_TENSOR = declare(Op("clamp_tensor", "ClampBackward0", ("self", "min", "max"),
                          lambda x, low, high: np.minimum(np.maximum(x, low), high),
                          (Grad(lambda F, g, s: _bounds_grad(F, g, s, "self"),
                                "where((self >= min) & (self <= max), grad, 0)"),
                           Grad(lambda F, g, s: _bounds_grad(F, g, s, "min"),
                                "where((self < min) & (min < max), grad, 0)"),
                           Grad(lambda F, g, s: _bounds_grad(F, g, s, "max"),
                                "where((self > max) | (max < min), grad, 0)")),
                          "self limited to [min, max], tensors that broadcast", group=ELEMENTWISE, elementwise=True,
                          jvp=ELEMENTWISE_JVP, integers=PROMOTED))


def _clamp_by_tensors(x: Tensor, min: Any, max: Any) -> Tensor:
    """clamp with a tensor bound (ClampBackward0): the other bound, when missing, is -inf or inf (for an integer
    result, its type's least or largest value)."""
    given = [b if isinstance(b, Tensor) else tensor_arg(b) for b in (min, max) if b is not None]
    common = result_type([x._data, *(b._data for b in given)], STATE.default_dtype)
    extremes = (-np.inf, np.inf) if common.kind == "f" else (np.iinfo(common).min, np.iinfo(common).max)
    low, high = (Tensor._make(np.asarray(e, dtype=common)) if b is None else tensor_arg(b)
                 for b, e in zip((min, max), extremes))
    for bound in (low, high):
        if bound._data.shape != x._data.shape:
            broadcast_shape(x._data.shape, bound._data.shape)
    return apply(CLAMP_TENSOR, (x, low, high))


@builtin("clamp(input, min=None, max=None)", ("clamp", "clamp_tensor"), op=CLAMP)
def clamp(input: Any, min: float | None = None, max: float | None = None) -> Tensor:
    if min is None and max is None:
        raise BadValueError("clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_by_tensors(tensor_arg(input), min, max)
    low = None if min is None else int_or_number(min, "min")
    high = None if max is None else int_or_number(max, "max")
    x = with_number(with_number(tensor_arg(input), low), high)  # an integer tensor with a float bound: floats
    dtype = x._data.dtype  # an integer tensor's bounds in its dtype, or refused (uint8 and 300), as in PyTorch
    return apply(CLAMP, (x,), {"min": checked_number(low, dtype), "max": checked_number(high, dtype)})


alias("clip", "clamp")  # PyTorch's (and numpy's) other spelling


CLAMP_MIN = declare(Op("clamp_min", "ClampMinBackward0", ("self",), lambda x, *, min: np.maximum(min, x),
                       (Grad(lambda F, g, s: F.where(F.values(s.self) >= s.min, g, 0.0), "grad where self >= min"),),
                       "self raised to min where it is below", group=ELEMENTWISE,
                       symbolic=lambda M, a, *, min: M.maximum(a, min), jvp=ELEMENTWISE_JVP, integers=KEPT))


@builtin("clamp_min(input, min)", ("clamp_min",), op=CLAMP_MIN)
def clamp_min(input: Any, min: float) -> Tensor:
    """clamp(input, min=min) recorded as PyTorch's clamp_min (ClampMinBackward0; F.normalize uses it)."""
    x, low = one_bound(input, min, "min")
    return apply(CLAMP_MIN, (x,), {"min": low})
