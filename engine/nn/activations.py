"""Activation functions (torch.nn.functional's, also module functions here): leaky_relu, elu, selu, celu, gelu,
silu, mish, softplus, hardtanh, relu6, hardsigmoid, hardswish, logsigmoid, and softsign and softmin made of
other built-ins. Each is PyTorch's node (selu is EluBackward0, relu6 HardtanhBackward0) with the backward
formula of its derivatives.yaml entry; the formula texts are expressions of the language."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import checked_number, number, tensor_arg
from ..core.optable import ACTIVATIONS, ELEMENTWISE_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin, composite
from ..core.tensor import Tensor
from ..errors import BadValueError
from ..kernels.arrays import erf
from ..ops import arithmetic, elementwise, reductions  # noqa: F401  (the composites below call their built-ins)

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
SQRT_2, SQRT_2_PI = math.sqrt(2.0), math.sqrt(2.0 * math.pi)
GELU_BETA, GELU_KAPPA = math.sqrt(2.0 / math.pi), 0.044715
ONE_SIXTH = float(np.float32(1.0 / 6.0))  # PyTorch's hardsigmoid_backward scales by 1/6 rounded to float32


def _declare(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, **facts: Any) -> Op:
    facts.setdefault("jvp", ELEMENTWISE_JVP)  # an activation is elementwise: its Jacobian is diagonal
    return declare(Op(name, node, ("self",), forward, (Grad(formula, text),), doc, group=ACTIVATIONS, **facts))


def _positive(F: Any, s: Any) -> Any:
    return F.values(s.self) > 0


# ---------------------------------------------------------------------------- formulas
def _elu_grad(F: Any, g: Any, s: Any) -> Any:
    negative = g * (F.exp(s.self * s.input_scale) * (s.alpha * s.scale * s.input_scale))
    return F.where(_positive(F, s), g * s.scale, negative)


def _gelu_grad(F: Any, g: Any, s: Any) -> Any:
    x = s.self
    if s.approximate == "tanh":
        inner = F.tanh((x + x * x * x * GELU_KAPPA) * GELU_BETA)
        right = x * 0.5 * (1 - inner * inner) * ((x * x * (3 * GELU_KAPPA) + 1) * GELU_BETA)
        return g * ((inner + 1) * 0.5 + right)
    cdf = (F.erf(x / SQRT_2) + 1) * 0.5
    return g * (cdf + x * F.exp(x * x * -0.5) / SQRT_2_PI)


def _silu_grad(F: Any, g: Any, s: Any) -> Any:
    sigmoid = 1 / (F.exp(-s.self) + 1)
    return g * (sigmoid * (s.self * (1 - sigmoid) + 1))


def _mish_grad(F: Any, g: Any, s: Any) -> Any:
    sigmoid = 1 / (F.exp(-s.self) + 1)
    inner = F.tanh(F.log(F.exp(s.self) + 1))
    return g * (inner + s.self * sigmoid * (1 - inner * inner))


def _softplus_grad(F: Any, g: Any, s: Any) -> Any:
    z = F.exp(s.self * s.beta)
    return F.where(F.values(s.self * s.beta) > s.threshold, g, g * z / (z + 1))


def _inside(F: Any, s: Any, low: float, high: float) -> Any:
    x = F.values(s.self)
    return (x > low) & (x < high)


# ---------------------------------------------------------------------------- forwards
def _elu(x: np.ndarray, *, alpha: float, scale: float, input_scale: float) -> np.ndarray:
    return np.where(x > 0, x * scale, np.expm1(x * input_scale) * (alpha * scale)).astype(x.dtype)


def _gelu(x: np.ndarray, *, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        return (0.5 * x * (1 + np.tanh(GELU_BETA * (x + GELU_KAPPA * x * x * x)))).astype(x.dtype)
    return (x * 0.5 * (1 + erf(x / SQRT_2))).astype(x.dtype)


def _softplus(x: np.ndarray, *, beta: float, threshold: float) -> np.ndarray:
    return np.where(x * beta > threshold, x, np.logaddexp(0, x * beta) / beta).astype(x.dtype)


def _where(M: Any, mask: Any, a: Any, b: Any) -> Any:
    return M.where(mask, a, b)


# ---------------------------------------------------------------------------- the ops
LEAKY_RELU = _declare("leaky_relu", "LeakyReluBackward0",
                      lambda x, *, negative_slope: np.where(x > 0, x, x * negative_slope).astype(x.dtype),
                      lambda F, g, s: F.where(_positive(F, s), g, g * s.negative_slope),
                      "where(self > 0, grad, grad * negative_slope)", "self, times negative_slope below 0",
                      symbolic=lambda M, a, *, negative_slope: _where(M, M.values(a) > 0, a, a * negative_slope))
ELU = _declare("elu", "EluBackward0", _elu, _elu_grad,
               "where(self > 0, grad * scale, grad * alpha * scale * input_scale * exp(self * input_scale))",
               "scale * self above 0, scale * alpha * (exp(self * input_scale) - 1) below", noisy=True,
               symbolic=lambda M, a, *, alpha, scale, input_scale: _where(
                   M, M.values(a) > 0, scale * a, alpha * scale * (M.exp(input_scale * a) - 1)))
CELU = _declare("celu", "CeluBackward0",
                lambda x, *, alpha: _elu(x, alpha=alpha, scale=1.0, input_scale=1.0 / alpha),
                lambda F, g, s: F.where(_positive(F, s), g, g * F.exp(s.self / s.alpha)),
                "where(self > 0, grad, grad * exp(self / alpha))",
                "self above 0, alpha * (exp(self / alpha) - 1) below", noisy=True,
                symbolic=lambda M, a, *, alpha: _where(M, M.values(a) > 0, a, alpha * (M.exp(a / alpha) - 1)))
GELU = _declare("gelu", "GeluBackward0", _gelu, _gelu_grad,
                "grad * (cdf(self) + self * pdf(self)), the normal distribution's (or its tanh approximation's)",
                "self * cdf(self), the standard normal's cdf", noisy=True,
                symbolic=lambda M, a, *, approximate: a * (M.erf(a / SQRT_2) + 1) / 2 if approximate == "none"
                else a * (M.tanh(GELU_BETA * (a + GELU_KAPPA * a**3)) + 1) / 2)
SILU = _declare("silu", "SiluBackward0", lambda x: x / (1 + np.exp(-x)), _silu_grad,
                "grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))", "self * sigmoid(self)", noisy=True,
                symbolic=lambda M, a: a / (1 + M.exp(-a)))
MISH = _declare("mish", "MishBackward0", lambda x: x * np.tanh(np.logaddexp(0, x)), _mish_grad,
                "grad * (tanh(log(1 + exp(self))) + self * sigmoid(self) * (1 - tanh(log(1 + exp(self)))**2))",
                "self * tanh(softplus(self))", noisy=True, symbolic=lambda M, a: a * M.tanh(M.log(1 + M.exp(a))))
SOFTPLUS = _declare("softplus", "SoftplusBackward0", _softplus, _softplus_grad,
                    "where(self * beta > threshold, grad, grad * sigmoid(self * beta))",
                    "log(1 + exp(beta * self)) / beta (self above threshold / beta)", noisy=True,
                    symbolic=lambda M, a, *, beta, threshold: M.log(1 + M.exp(beta * a)) / beta)
HARDTANH = _declare("hardtanh", "HardtanhBackward0",
                    lambda x, *, min_val, max_val: np.clip(x, min_val, max_val),
                    lambda F, g, s: F.where(_inside(F, s, s.min_val, s.max_val), g, 0.0),
                    "where((self > min_val) & (self < max_val), grad, 0)", "self clipped to [min_val, max_val]",
                    symbolic=lambda M, a, *, min_val, max_val: M.minimum(M.maximum(a, min_val), max_val))
HARDSIGMOID = _declare("hardsigmoid", "HardsigmoidBackward0", lambda x: (np.clip(x + 3, 0, 6) / 6).astype(x.dtype),
                       lambda F, g, s: F.where(_inside(F, s, -3.0, 3.0), g * ONE_SIXTH, 0.0),
                       "where((self > -3) & (self < 3), grad * 0.1666666716337204, 0)",
                       "(self + 3) / 6 clipped to [0, 1]",
                       symbolic=lambda M, a: M.minimum(M.maximum(a / 6 + 0.5, 0), 1))
HARDSWISH = _declare("hardswish", "HardswishBackward0", lambda x: (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype),
                     lambda F, g, s: F.where(F.values(s.self) <= -3, 0.0,
                                             F.where(F.values(s.self) < 3, g * (s.self / 3 + 0.5), g)),
                     "where(self <= -3, 0, where(self < 3, grad * (self / 3 + 0.5), grad))",
                     "self * hardsigmoid(self)", symbolic=lambda M, a: a * M.minimum(M.maximum(a / 6 + 0.5, 0), 1))
LOGSIGMOID = _declare("logsigmoid", "LogSigmoidBackward0", lambda x: -np.logaddexp(0, -x),
                      lambda F, g, s: g / (F.exp(s.self) + 1), "grad / (exp(self) + 1)", "log(sigmoid(self))",
                      noisy=True, symbolic=lambda M, a: -M.log(1 + M.exp(-a)))


# ---------------------------------------------------------------------------- the functions
def _applies(op: Op, **fixed: Any) -> Any:
    """A plan for other backends: the op with its fixed parameters and the function's own."""
    return lambda R, input, **given: R.op(op, input, **{**fixed, **given})


@builtin("leaky_relu(input, negative_slope=0.01)", ("leaky_relu",), op=LEAKY_RELU, functional=True)
def leaky_relu(input: Any, negative_slope: Any = 0.01) -> Tensor:
    return apply(LEAKY_RELU, (tensor_arg(input),), {"negative_slope": number(negative_slope, "negative_slope")})


@builtin("elu(input, alpha=1.0)", ("elu",), plan=lambda R, input, alpha=1.0: R.op(
    ELU, input, alpha=alpha, scale=1.0, input_scale=1.0), functional=True)
def elu(input: Any, alpha: Any = 1.0) -> Tensor:
    return apply(ELU, (tensor_arg(input),), {"alpha": number(alpha, "alpha"), "scale": 1.0, "input_scale": 1.0})


@builtin("selu(input)", ("elu",), plan=_applies(ELU, alpha=SELU_ALPHA, scale=SELU_SCALE, input_scale=1.0),
         functional=True, summary="scale * elu(input, alpha), with SELU's constants (recorded as EluBackward0)")
def selu(input: Any) -> Tensor:
    return apply(ELU, (tensor_arg(input),), {"alpha": SELU_ALPHA, "scale": SELU_SCALE, "input_scale": 1.0})


@builtin("celu(input, alpha=1.0)", ("celu",), op=CELU, functional=True)
def celu(input: Any, alpha: Any = 1.0) -> Tensor:
    value = number(alpha, "alpha")
    if value == 0:
        raise BadValueError("ZeroDivisionError: celu's alpha must not be 0", reason="alpha")
    return apply(CELU, (tensor_arg(input),), {"alpha": value})


@builtin("gelu(input, approximate='none')", ("gelu",), op=GELU, functional=True)
def gelu(input: Any, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise BadValueError(f"gelu(): approximate must be 'none' or 'tanh', got {approximate!r}", reason="approximate")
    return apply(GELU, (tensor_arg(input),), {"approximate": approximate})


@builtin("silu(input)", ("silu",), op=SILU, functional=True)
def silu(input: Any) -> Tensor:
    return apply(SILU, (tensor_arg(input),))


@builtin("mish(input)", ("mish",), op=MISH, functional=True)
def mish(input: Any) -> Tensor:
    return apply(MISH, (tensor_arg(input),))


@builtin("softplus(input, beta=1.0, threshold=20.0)", ("softplus",), op=SOFTPLUS, functional=True)
def softplus(input: Any, beta: Any = 1.0, threshold: Any = 20.0) -> Tensor:
    params = {"beta": number(beta, "beta"), "threshold": number(threshold, "threshold")}
    return apply(SOFTPLUS, (tensor_arg(input),), params)


@builtin("hardtanh(input, min_val=-1.0, max_val=1.0)", ("hardtanh",), op=HARDTANH, functional=True)
def hardtanh(input: Any, min_val: Any = -1.0, max_val: Any = 1.0) -> Tensor:
    x = tensor_arg(input)
    low, high = number(min_val, "min_val"), number(max_val, "max_val")
    if x._data.dtype.kind == "f":  # float16's and float32's range checked, as PyTorch's
        low, high = checked_number(low, x._data.dtype), checked_number(high, x._data.dtype)
    if low > high:
        raise BadValueError("hardtanh(): min_val cannot be greater than max_val", reason="bounds")
    return apply(HARDTANH, (x,), {"min_val": low, "max_val": high})


@builtin("relu6(input)", ("hardtanh",), plan=_applies(HARDTANH, min_val=0.0, max_val=6.0), functional=True,
         summary="min(max(input, 0), 6) (recorded as HardtanhBackward0)")
def relu6(input: Any) -> Tensor:
    return apply(HARDTANH, (tensor_arg(input),), {"min_val": 0.0, "max_val": 6.0})


@builtin("hardsigmoid(input)", ("hardsigmoid",), op=HARDSIGMOID, functional=True)
def hardsigmoid(input: Any) -> Tensor:
    return apply(HARDSIGMOID, (tensor_arg(input),))


@builtin("hardswish(input)", ("hardswish",), op=HARDSWISH, functional=True)
def hardswish(input: Any) -> Tensor:
    return apply(HARDSWISH, (tensor_arg(input),))


@builtin("logsigmoid(input)", ("logsigmoid",), op=LOGSIGMOID, functional=True)
def logsigmoid(input: Any) -> Tensor:
    return apply(LOGSIGMOID, (tensor_arg(input),))


softsign = composite("softsign(input)", lambda F, x: F.div(x, F.add(F.abs(x), 1)),
                     "input / (1 + abs(input)), recorded as those ops", method=True, functional=True)


@builtin("softmin(input, dim, dtype=None)", ("neg", "softmax", "to"), functional=True,
         summary="softmax(-input, dim), recorded as those ops")
def softmin(input: Any, dim: Any = None, dtype: Any = None) -> Tensor:
    return reductions.softmax(-tensor_arg(input), dim, dtype)


@builtin("normalize(input, p=2.0, dim=1, eps=1e-12)", ("norm", "clamp_min", "expand", "div"), method=False,
         functional=True)
def normalize(input: Any, p: Any = 2.0, dim: Any = 1, eps: float = 1e-12) -> Tensor:
    """torch.nn.functional.normalize: input divided by its p-norm over dim, at least eps (as PyTorch records it:
    LinalgVectorNormBackward0, ClampMinBackward0, ExpandBackward0, DivBackward0)."""
    x = tensor_arg(input)
    norms = reductions.vector_norm(x, p, dim, keepdim=True)
    return arithmetic.div(x, norms.clamp_min(eps).expand_as(x))
