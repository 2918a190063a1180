"""Special functions of probability and statistics: erfinv, lgamma, digamma, polygamma, i0, logit (with eps)
and xlogy (with a number on either side: XlogyBackward1 for a number self, XlogyBackward2 for a number other),
with PyTorch's node names and backward formulas. Their kernels are in kernels/special.py; a formula that needs
another special function (lgamma's digamma, digamma's polygamma(1, x)) calls the op itself when the backward
pass records (create_graph=True), so higher derivatives work."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import both, number, tensor_arg, with_number
from ..core.optable import ELEMENTWISE, ELEMENTWISE_JVP, FUNCTION, Grad, Op, declare
from ..core.recording import apply, binary
from ..core.registry import builtin, function
from ..core.tensor import Tensor
from ..core.tensormath import ADD_SCALAR, MUL_SCALAR
from ..kernels import special as kernels
from .elementwise import erf

TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
HALF_SQRT_PI, SQRT_2PI, SQRT1_2 = math.sqrt(math.pi) / 2.0, math.sqrt(2 * math.pi), math.sqrt(0.5)


def _op(name: str, node: str, inputs: tuple[str, ...], forward: Any, grads: tuple[Grad, ...], doc: str,
        **facts: Any) -> Op:
    facts.setdefault("elementwise", len(inputs) > 1)
    facts.setdefault("group", ELEMENTWISE)
    facts.setdefault("jvp", ELEMENTWISE_JVP)
    return Op(name, node, inputs, forward, grads, doc, noisy=True, **facts)


def polygamma_of(F: Any, n: int, x: Any) -> Any:
    """polygamma(n, x) in the formulas' vocabulary F: the op itself when F records, SymPy's function on symbols,
    the kernel on arrays."""
    if hasattr(F, "polygamma"):  # SymPy's vocabulary
        return F.polygamma(n, x)
    if F.records:
        return polygamma(n, x)
    return kernels.polygamma(n, x)


def _erfinv_of(F: Any, x: Any) -> Any:
    """erfinv(x) in the vocabulary F (PyTorch's formula recomputes it from the saved self)."""
    if hasattr(F, "erfinv"):  # SymPy's vocabulary
        return F.erfinv(x)
    return erfinv(x) if F.records else kernels.erfinv(x)


def _i1_of(F: Any, x: Any) -> Any:
    """i1(x) (i0's derivative) in the vocabulary F: the op when F records, else the kernel."""
    return i1(x) if F.records else kernels.i1(x)


def _i1_slope(F: Any, s: Any) -> Any:
    """i1'(x) = i0(x) - i1(x) / x, 1/2 at 0 (PyTorch's i1_backward)."""
    i0_of = i0(s.self) if F.records else kernels.i0(s.self)
    return F.where(F.values(s.self) == 0, 0.5, i0_of - s.result / s.self)


def _xlogy_kernel(x: Any, y: Any) -> np.ndarray:
    """x * log(y), 0 where x is 0, nan where y is nan (PyTorch's xlogy)."""
    x, y = np.asarray(x), np.asarray(y)
    out = np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))
    return np.asarray(out, dtype=np.result_type(x, y))


def _logit_forward(x: np.ndarray, *, eps: float | None) -> np.ndarray:
    if eps is not None and eps >= 0:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def _logit_grad(F: Any, g: Any, s: Any) -> Any:
    """grad / (self * (1 - self)); nan outside [0, 1] without eps, 0 outside [eps, 1 - eps] with it."""
    x, slope = F.values(s.self), g / (s.self * (1 - s.self))
    if s.eps is None or s.eps < 0:
        return F.where((x < 0) | (x > 1), math.nan, slope)
    return F.where((x < s.eps) | (x > 1 - s.eps), 0.0, slope)


def _xlogy_self_grad(F: Any, g: Any, s: Any) -> Any:
    """xlogy(grad, other), 0 where self is 0 and other <= 0 (PyTorch's formula): grad * log(other), 0 where grad
    is 0 and other is not nan; log(1) where it is 0, so that no nan reaches a higher derivative from there."""
    gv, ov = F.values(g), F.values(s.other)
    zero = ((gv == 0) & ~np.isnan(ov)) | ((F.values(s.self) == 0) & (ov <= 0))
    return g * F.log(F.where(zero, 1.0, s.other))


def _xlogy_number_grad(F: Any, g: Any, s: Any) -> Any:
    """xlogy(grad, other) for a number other, then 0 where self is 0 unless other > 0 (PyTorch's Scalar_Other
    formula): grad times a constant factor."""
    other = s.other
    log = math.nan if math.isnan(other) or other < 0 else -math.inf if other == 0 else math.log(other)
    factor = np.full(np.shape(F.values(g)), log)
    if not math.isnan(other):
        factor[np.asarray(F.values(g)) == 0] = 0.0
    if not other > 0:
        factor[np.broadcast_to(np.asarray(F.values(s.self)) == 0, factor.shape)] = 0.0
    factor = factor.astype(np.asarray(F.values(g)).dtype)
    return g * (Tensor._make(factor) if F.records else factor)


# ---------------------------------------------------------------------------- the ops
erfinv = function(_op(
    "erfinv", "ErfinvBackward0", ("self",), kernels.erfinv,
    (Grad(lambda F, g, s: g * (HALF_SQRT_PI * F.exp(_erfinv_of(F, s.self) ** 2)),
          "grad * sqrt(pi) / 2 * exp(erfinv(self)**2)"),),
    "the inverse error function (nan outside [-1, 1])", symbolic=FUNCTION))
lgamma = function(_op(
    "lgamma", "LgammaBackward0", ("self",), kernels.lgamma,
    (Grad(lambda F, g, s: g * polygamma_of(F, 0, s.self), "grad * digamma(self)"),),
    "log |gamma(self)|", symbolic=FUNCTION))
digamma = function(_op(
    "digamma", "DigammaBackward0", ("self",), kernels.digamma,
    (Grad(lambda F, g, s: g * polygamma_of(F, 1, s.self), "grad * polygamma(1, self)"),),
    "the logarithmic derivative of gamma, lgamma'(self)", symbolic=FUNCTION))
i0 = function(_op(
    "i0", "I0Backward0", ("self",), kernels.i0,
    (Grad(lambda F, g, s: g * _i1_of(F, s.self), "grad * i1(self)"),),
    "the modified Bessel function of the first kind, of order 0", group=None))
i1 = function(_op(
    "i1", "SpecialI1Backward0", ("self",), kernels.i1,
    (Grad(lambda F, g, s: g * _i1_slope(F, s), "grad * (i0(self) - result / self)"),),
    "the modified Bessel function of the first kind, of order 1 (torch.special.i1)", group=None), method=False)
POLYGAMMA = declare(_op(
    "polygamma", "PolygammaBackward0", ("self",), lambda x, *, n: kernels.polygamma(n, x),
    (Grad(lambda F, g, s: g * polygamma_of(F, s.n + 1, s.self), "grad * polygamma(n + 1, self)"),),
    "the n-th derivative of digamma", group=None, symbolic=lambda M, a, *, n: M.polygamma(n, a)))
LOGIT = declare(_op(
    "logit", "LogitBackward0", ("self",), _logit_forward,
    (Grad(_logit_grad, "grad / (self * (1 - self)), 0 outside [eps, 1 - eps]"),),
    "log(self / (1 - self)), self clamped to [eps, 1 - eps] first when eps is given", group=None,
    symbolic=lambda M, a, *, eps: M.log(a / (1 - a))))
XLOGY = declare(_op(
    "xlogy", "XlogyBackward0", ("self", "other"), _xlogy_kernel,
    (Grad(_xlogy_self_grad, "xlogy(grad, other), 0 where self == 0 and other <= 0"),
     Grad(lambda F, g, s: g * s.self / s.other, "grad * self / other")),
    "self * log(other), 0 where self is 0 (and other is not nan)"))
XLOGY_SELF_NUMBER = declare(_op(
    "xlogy_self_number", "XlogyBackward1", ("other",), lambda y, *, self: _xlogy_kernel(np.asarray(self, y.dtype), y),
    (Grad(lambda F, g, s: g * s.self / s.other, "grad * self / other"),),
    "a number self * log(other), 0 where self is 0", group=None))
XLOGY_OTHER_NUMBER = declare(_op(
    "xlogy_other_number", "XlogyBackward2", ("self",), lambda x, *, other: _xlogy_kernel(x, np.asarray(other, x.dtype)),
    (Grad(_xlogy_number_grad, "xlogy(grad, other), 0 where self is 0 unless other > 0"),),
    "self * log(a number other), 0 where self is 0", group=None))


special_entr = function(_op(
    "special_entr", "SpecialEntrBackward0", ("self",), kernels.entr,
    (Grad(lambda F, g, s: g * -(F.log(s.self) + 1), "grad * -(1 + log(self))"),),
    "-self * log(self), 0 at 0 (torch.special.entr)", symbolic=lambda M, a: -a * M.log(a)), method=False)
special_ndtri = function(_op(
    "special_ndtri", "SpecialNdtriBackward0", ("self",), kernels.ndtri,
    (Grad(lambda F, g, s: g * (SQRT_2PI * F.exp(s.result * s.result * 0.5)),
          "grad * sqrt(2 * pi) * exp(result**2 / 2)"),),
    "the standard normal quantile (torch.special.ndtri)",
    symbolic=lambda M, a: math.sqrt(2) * M.erfinv(2 * a - 1)), method=False)
special_erfcx = function(_op(
    "special_erfcx", "SpecialErfcxBackward0", ("self",), kernels.erfcx,
    (Grad(lambda F, g, s: g * (2 * s.self * s.result - TWO_OVER_SQRT_PI),
          "grad * (2 * self * result - 2 / sqrt(pi))"),),
    "exp(self**2) * erfc(self), the scaled complementary error function (torch.special.erfcx)",
    symbolic=lambda M, a: M.exp(a * a) * (1 - M.erf(a))), method=False)
special_log_ndtr = function(_op(
    "special_log_ndtr", "SpecialLogNdtrBackward0", ("self",), kernels.log_ndtr,
    (Grad(lambda F, g, s: g / SQRT_2PI * F.exp(-(s.result + s.self * s.self / 2)),
          "grad / sqrt(2 * pi) * exp(-(result + self**2 / 2))"),),
    "log of the standard normal distribution function (torch.special.log_ndtr)",
    symbolic=lambda M, a: M.log((1 + M.erf(a * SQRT1_2)) / 2)), method=False)


@builtin("special_ndtr(input)", ("mul_scalar", "add_scalar", "erf"), method=False)
def special_ndtr(input: Any) -> Tensor:
    """The standard normal distribution function, (1 + erf(input / sqrt(2))) * 0.5, recorded as PyTorch's."""
    scaled = apply(MUL_SCALAR, (tensor_arg(input),), {"other": SQRT1_2})
    return apply(MUL_SCALAR, (apply(ADD_SCALAR, (erf(scaled),), {"other": 1.0}),), {"other": 0.5})


# ---------------------------------------------------------------------------- the functions with parameters
@builtin("polygamma(n, input)", ("polygamma",), method=False,
         plan=lambda R, n, input: R.op(POLYGAMMA, input, n=n))
def polygamma(n: Any, input: Any) -> Tensor:
    """The n-th derivative of digamma (n >= 0; 0 is digamma itself)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"polygamma(): argument 'n' must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return apply(POLYGAMMA, (tensor_arg(input),), {"n": int(n)})


@builtin("logit(input, eps=None)", ("logit",), plan=lambda R, input, eps=None: R.op(LOGIT, input, eps=eps))
def logit(input: Any, eps: Any = None) -> Tensor:
    """log(input / (1 - input)), input clamped to [eps, 1 - eps] first when eps is given."""
    return apply(LOGIT, (tensor_arg(input),), {"eps": None if eps is None else number(eps, "eps")})


@builtin("xlogy(input, other)", ("xlogy", "xlogy_self_number", "xlogy_other_number"))
def xlogy(input: Any, other: Any) -> Tensor:
    """input * log(other), 0 where input is 0 (other not nan); either may be a number."""
    a, b = both(input, other)
    if not isinstance(b, Tensor):
        return apply(XLOGY_OTHER_NUMBER, (with_number(a, float(b)),), {"other": float(b)})
    if not isinstance(a, Tensor):
        return apply(XLOGY_SELF_NUMBER, (with_number(b, float(a)),), {"self": float(a)})
    return binary(XLOGY, a, b)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    """x.polygamma(n): polygamma(n, x)."""
    return polygamma(n, self)


Tensor.polygamma = _polygamma_method
