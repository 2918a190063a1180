"""More elementwise functions: logaddexp and logaddexp2, remainder and fmod, fmax and fmin (nan-ignoring),
copysign, lerp, sinc, deg2rad and rad2deg. Each records PyTorch's node (a number operand gives the node of
the Scalar overload where PyTorch has one: RemainderBackward0, FmodBackward0, CopysignBackward1,
LerpBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import both, number, refuse_zero_division, tensor_arg, with_number, wrapped, wrapped_number
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, KEPT, PROMOTED, Grad, Op, declare
from ..core.recording import apply, binary
from ..core.registry import builtin, function
from ..core.tensor import Tensor
from ..kernels.arrays import remainder as remainder_kernel

DEG, LN2 = math.pi / 180.0, math.log(2.0)


def _op(name: str, node: str, inputs: tuple[str, ...], forward: Any, grads: tuple[Grad, ...], doc: str,
        **facts: Any) -> Op:
    facts.setdefault("elementwise", len(inputs) > 1)
    facts.setdefault("group", ELEMENTWISE)
    facts.setdefault("jvp", ELEMENTWISE_JVP)
    return Op(name, node, inputs, forward, grads, doc, **facts)


def _declare(*args: Any, **facts: Any) -> Op:
    return declare(_op(*args, **facts))


def _fmax_grad(F: Any, g: Any, s: Any, mine: Any, theirs: Any, first: bool) -> Any:
    """fmax's gradient: to self where self >= other or other is nan, else to other (PyTorch's masks)."""
    a, b = F.values(mine), F.values(theirs)
    keep = (a >= b) | np.isnan(b) if first else ~((b >= a) | np.isnan(a))
    return F.where(keep, g, 0.0)


def _fmin_grad(F: Any, g: Any, s: Any, mine: Any, theirs: Any, first: bool) -> Any:
    a, b = F.values(mine), F.values(theirs)
    keep = (a <= b) | np.isnan(b) if first else ~((b <= a) | np.isnan(a))
    return F.where(keep, g, 0.0)


def _copysign_grad(F: Any, g: Any, s: Any) -> Any:
    """grad * result / self, 0 where self is 0 (PyTorch's copysign_tensor_self_backward: its second derivative
    is nan there, as PyTorch's)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return g * F.where(F.values(s.self) == 0, 0.0, s.result / s.self)


def _sinc(x: np.ndarray) -> np.ndarray:
    return np.sinc(x).astype(x.dtype)


def _sinc_grad(F: Any, g: Any, s: Any) -> Any:
    """grad * (pi x cos(pi x) - sin(pi x)) / (pi x**2), 0 at x = 0."""
    x = s.self
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (x * math.pi * F.cos(x * math.pi) - F.sin(x * math.pi)) / (x * x * math.pi)
        return g * F.where(F.values(s.self) == 0, 0.0, slope)


# ---------------------------------------------------------------------------- the ops
logaddexp = function(_op(
    "logaddexp", "LogaddexpBackward0", ("self", "other"), np.logaddexp,
    (Grad(lambda F, g, s: g / (F.exp(s.other - s.self) + 1), "grad / (1 + exp(other - self))"),
     Grad(lambda F, g, s: g / (F.exp(s.self - s.other) + 1), "grad / (1 + exp(self - other))")),
    "log(exp(self) + exp(other)), without overflow", noisy=True,
    symbolic=lambda M, a, b: M.log(M.exp(a) + M.exp(b))))
logaddexp2 = function(_op(
    "logaddexp2", "Logaddexp2Backward0", ("self", "other"), np.logaddexp2,
    (Grad(lambda F, g, s: g / (F.exp((s.other - s.self) * LN2) + 1), "grad / (1 + 2 ** (other - self))"),
     Grad(lambda F, g, s: g / (F.exp((s.self - s.other) * LN2) + 1), "grad / (1 + 2 ** (self - other))")),
    "log2(2 ** self + 2 ** other), without overflow", noisy=True,
    symbolic=lambda M, a, b: M.log(2**a + 2**b) / M.log(2)))
REMAINDER = _declare("remainder", "RemainderBackward0", ("self",), lambda x, *, other: remainder_kernel(x, other),
                     (Grad(lambda F, g, s: g, "grad"),), "self - other * floor(self / other), for a number other",
                     noisy=True, group=None, integers=KEPT)
REMAINDER_TENSOR = _declare(
    "remainder_tensor", "RemainderBackward1", ("self", "other"), lambda a, b: remainder_kernel(a, b),
    (Grad(lambda F, g, s: g, "grad"),
     Grad(lambda F, g, s: -g * F.rounded_div(s.self, s.other, "floor"),
          "-grad * div(self, other, rounding_mode='floor')")),  # Python's floor division, not floor(self / other)
    "self - other * floor(self / other) (the sign of other)", noisy=True, integers=PROMOTED)
FMOD = _declare("fmod", "FmodBackward0", ("self",), lambda x, *, other: np.fmod(x, other),
                (Grad(lambda F, g, s: g, "grad"),), "self - other * trunc(self / other), for a number other",
                noisy=True, group=None, integers=KEPT)
FMOD_TENSOR = _declare(
    "fmod_tensor", "FmodBackward1", ("self", "other"), np.fmod,
    (Grad(lambda F, g, s: g, "grad"),
     Grad(lambda F, g, s: -g * F.rounded_div(s.self, s.other, "trunc"),
          "-grad * div(self, other, rounding_mode='trunc')")),
    "self - other * trunc(self / other) (the sign of self)", noisy=True, integers=PROMOTED)
def _tie_to_self(ufunc: np.ufunc) -> Any:
    """PyTorch's fmax/fmin give self where self == other (-0.0 against 0.0); numpy's give -0.0 either way."""
    return lambda a, b: np.where(a == b, a, ufunc(a, b))


fmax = function(_op(
    "fmax", "FmaxBackward0", ("self", "other"), _tie_to_self(np.fmax),
    (Grad(lambda F, g, s: _fmax_grad(F, g, s, s.self, s.other, True), "grad where self >= other or other is nan"),
     Grad(lambda F, g, s: _fmax_grad(F, g, s, s.other, s.self, False), "grad where other > self or self is nan")),
    "elementwise maximum, ignoring nan", integers=PROMOTED))
fmin = function(_op(
    "fmin", "FminBackward0", ("self", "other"), _tie_to_self(np.fmin),
    (Grad(lambda F, g, s: _fmin_grad(F, g, s, s.self, s.other, True), "grad where self <= other or other is nan"),
     Grad(lambda F, g, s: _fmin_grad(F, g, s, s.other, s.self, False), "grad where other < self or self is nan")),
    "elementwise minimum, ignoring nan", integers=PROMOTED))
COPYSIGN = _declare("copysign", "CopysignBackward0", ("self", "other"), np.copysign,
                    (Grad(_copysign_grad, "where(self == 0, 0, grad * result / self)"),
                     Grad(lambda F, g, s: F.zeros_like(g), "0")), "abs(self) with the sign of other")
COPYSIGN_NUMBER = _declare("copysign_number", "CopysignBackward1", ("self",),
                           lambda x, *, other: np.copysign(x, np.asarray(other, dtype=x.dtype)),
                           (Grad(_copysign_grad, "where(self == 0, 0, grad * result / self)"),),
                           "abs(self) with the sign of a number other", group=None)
LERP = _declare("lerp", "LerpBackward0", ("self", "end"), lambda a, b, *, weight: a + weight * (b - a),
                (Grad(lambda F, g, s: g * (1 - s.weight), "grad * (1 - weight)"),
                 Grad(lambda F, g, s: g * s.weight, "grad * weight")),
                "self + weight * (end - self), for a number weight",
                symbolic=lambda M, a, b, *, weight: a + weight * (b - a))
LERP_TENSOR = _declare("lerp_tensor", "LerpBackward1", ("self", "end", "weight"), lambda a, b, w: a + w * (b - a),
                       (Grad(lambda F, g, s: g * (1 - s.weight), "grad * (1 - weight)"),
                        Grad(lambda F, g, s: g * s.weight, "grad * weight"),
                        Grad(lambda F, g, s: g * (s.end - s.self), "grad * (end - self)")),
                       "self + weight * (end - self)", symbolic=lambda M, a, b, w: a + w * (b - a))
sinc = function(_op(
    "sinc", "SincBackward0", ("self",), _sinc,
    (Grad(_sinc_grad, "where(self == 0, 0, grad * (pi * self * cos(pi * self) - sin(pi * self)) / (pi * self**2))"),),
    "sin(pi * self) / (pi * self), 1 at 0", noisy=True, symbolic=lambda M, a: M.sin(a * math.pi) / (a * math.pi)))
deg2rad = function(_op("deg2rad", "Deg2RadBackward0", ("self",), lambda x: x * np.asarray(DEG, dtype=x.dtype),
                            (Grad(lambda F, g, s: g * DEG, "grad * pi / 180"),), "degrees to radians",
                            symbolic=lambda M, a: a * DEG))
rad2deg = function(_op("rad2deg", "Rad2DegBackward0", ("self",), lambda x: x * np.asarray(1 / DEG, dtype=x.dtype),
                            (Grad(lambda F, g, s: g * (1 / DEG), "grad * 180 / pi"),), "radians to degrees",
                            symbolic=lambda M, a: a / DEG))


# ---------------------------------------------------------------------------- the functions with a number form
def _lerp_plan(R: Any, input: Any, end: Any, weight: Any) -> Any:
    if R.is_constant(weight):
        return R.op(LERP, input, end, weight=weight)
    return R.op(LERP_TENSOR, input, end, weight)


@builtin("remainder(input, other)", ("remainder_tensor", "remainder"))
def remainder(input: Any, other: Any) -> Tensor:
    """input - other * floor(input / other): the remainder with the sign of other (Python's %)."""
    a, b = both(input, other)
    if not isinstance(b, Tensor):
        a = with_number(tensor_arg(a), b)
        b = wrapped_number(b, a._data.dtype)  # uint8 % -1 is uint8 % 255; uint8 % 256 divides by zero
        if a._data.dtype.kind in "biu" and b == 0:
            refuse_zero_division(np.zeros(1))
        return apply(REMAINDER, (a,), {"other": b})
    a = wrapped(a, b)
    if a._data.dtype.kind in "biu" and b._data.dtype.kind in "biu":
        refuse_zero_division(b._data)
    return binary(REMAINDER_TENSOR, a, b)


@builtin("fmod(input, other)", ("fmod_tensor", "fmod"))
def fmod(input: Any, other: Any) -> Tensor:
    """input - other * trunc(input / other): the remainder with the sign of input (C's fmod)."""
    a, b = both(input, other)
    if not isinstance(b, Tensor):
        a = with_number(tensor_arg(a), b)
        b = wrapped_number(b, a._data.dtype)  # as remainder's
        if a._data.dtype.kind in "biu" and b == 0:
            refuse_zero_division(np.zeros(1))
        return apply(FMOD, (a,), {"other": b})
    a = wrapped(a, b)
    if a._data.dtype.kind in "biu" and b._data.dtype.kind in "biu":
        refuse_zero_division(b._data)
    return binary(FMOD_TENSOR, a, b)


@builtin("copysign(input, other)", ("copysign", "copysign_number"))
def copysign(input: Any, other: Any) -> Tensor:
    """abs(input) with the sign of other (a tensor or a number; -0.0 counts as negative)."""
    a, b = both(input, other)
    if not isinstance(b, Tensor):
        return apply(COPYSIGN_NUMBER, (a,), {"other": float(b)})
    return binary(COPYSIGN, tensor_arg(a), b)


@builtin("lerp(input, end, weight)", ("lerp", "lerp_tensor"), plan=_lerp_plan)
def lerp(input: Any, end: Any, weight: Any) -> Tensor:
    """input + weight * (end - input); weight a number (LerpBackward0) or a tensor (LerpBackward1)."""
    a, b = tensor_arg(input), tensor_arg(end, "end")
    if not isinstance(weight, Tensor):
        return binary(LERP, a, b, {"weight": number(weight, "weight")})
    from ..core.coerce import broadcast_shape

    broadcast_shape(broadcast_shape(a._data.shape, b._data.shape), weight._data.shape)
    return apply(LERP_TENSOR, (a, b, weight))
