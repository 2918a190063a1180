"""The functions of a calculus course: inverse trigonometric and hyperbolic functions, logarithms and
exponentials in other bases, the error function, rounding, and the ones PyTorch does not have as
functions of their own (sec, csc, cot, cbrt), which are recorded as the primitive operations they are
made of, so the graph shows what was computed. numpy's spellings (arcsin, ...) and `ln` are aliases."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .constructors import _tensor_arg
from .functions import abs, cos, mul, pow, reciprocal, sign, sin, tan
from .ops import OPS
from .recording import _binary, apply
from .registry import BUILTINS, alias, builtin
from .tensor import Tensor


def _unary(name: str) -> Callable[[Any], Tensor]:
    op = OPS[name]

    def function(input: Any) -> Tensor:
        return apply(op, (_tensor_arg(input),))

    function.__name__ = name
    function.__doc__ = op.doc
    builtin(f"{name}(input)", (name,))(function)
    return function


asin = _unary("asin")
acos = _unary("acos")
atan = _unary("atan")
sinh = _unary("sinh")
cosh = _unary("cosh")
asinh = _unary("asinh")
acosh = _unary("acosh")
atanh = _unary("atanh")
log2 = _unary("log2")
log10 = _unary("log10")
log1p = _unary("log1p")
expm1 = _unary("expm1")
exp2 = _unary("exp2")
erf = _unary("erf")
erfc = _unary("erfc")
rsqrt = _unary("rsqrt")
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")
trunc = _unary("trunc")
frac = _unary("frac")


@builtin("atan2(input, other)", ("atan2",), summary="the angle of the point (other, input), in radians")
def atan2(input: Any, other: Any) -> Tensor:
    return _binary(OPS["atan2"], _tensor_arg(input), _tensor_arg(other, "other"))


@builtin("hypot(input, other)", ("hypot",))
def hypot(input: Any, other: Any) -> Tensor:
    return _binary(OPS["hypot"], _tensor_arg(input), _tensor_arg(other, "other"))


# ---------------------------------------------------------------------------- composites
@builtin("sec(input)", ("cos", "reciprocal"), method=False, summary="1 / cos(input), recorded as those two ops")
def sec(input: Any) -> Tensor:
    return reciprocal(cos(input))


@builtin("csc(input)", ("sin", "reciprocal"), method=False, summary="1 / sin(input), recorded as those two ops")
def csc(input: Any) -> Tensor:
    return reciprocal(sin(input))


@builtin("cot(input)", ("tan", "reciprocal"), method=False, summary="1 / tan(input), recorded as those two ops")
def cot(input: Any) -> Tensor:
    return reciprocal(tan(input))


@builtin("cbrt(input)", ("sign", "abs", "pow", "mul"), method=False,
         summary="the real cube root (cbrt(-8) is -2), recorded as sign(input) * abs(input) ** (1/3)")
def cbrt(input: Any) -> Tensor:
    x = _tensor_arg(input)
    return mul(sign(x), pow(abs(x), 1.0 / 3.0))


# numpy's and mathematics' spellings
for _alias, _target in (("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"), ("arctan2", "atan2"),
                        ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh"), ("ln", "log")):
    alias(_alias, _target)

__all__ = [name for name in BUILTINS]
