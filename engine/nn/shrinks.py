"""More activation functions of torch.nn.functional: threshold (ThresholdBackward0), hardshrink
(HardshrinkBackward0), softshrink (SoftshrinkBackward0), tanhshrink (input - tanh(input), recorded as those ops),
glu (GluBackward0: the first half of a dim times the sigmoid of the second) and prelu (PreluKernelBackward0, the
weight viewed to broadcast over the channels first, as PyTorch's prelu does). Formulas are derivatives.yaml's."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import ACTIVATIONS, ELEMENTWISE_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin, composite
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..ops import arithmetic, elementwise  # noqa: F401  (the composites below call their built-ins)
from ..ops.shapes import reshape


def _outside(F: Any, s: Any) -> Any:
    x = F.values(s.self)
    return (x < -s.lambd) | (x > s.lambd)


THRESHOLD = declare(Op(
    "threshold", "ThresholdBackward0", ("self",),
    lambda x, *, threshold, value: np.where(x > threshold, x, value).astype(x.dtype),
    (Grad(lambda F, g, s: F.where(F.values(s.self) > s.threshold, g, 0.0), "where(self > threshold, grad, 0)"),),
    "self where above threshold, else value", group=ACTIVATIONS, jvp=ELEMENTWISE_JVP))
HARDSHRINK = declare(Op(
    "hardshrink", "HardshrinkBackward0", ("self",),
    lambda x, *, lambd: np.where((x < -lambd) | (x > lambd), x, 0).astype(x.dtype),
    (Grad(lambda F, g, s: F.where(_outside(F, s), g, 0.0), "where((self < -lambd) | (self > lambd), grad, 0)"),),
    "self where |self| > lambd, else 0", group=ACTIVATIONS, jvp=ELEMENTWISE_JVP))
SOFTSHRINK = declare(Op(
    "softshrink", "SoftshrinkBackward0", ("self",),
    lambda x, *, lambd: np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0)).astype(x.dtype),
    (Grad(lambda F, g, s: F.where(_outside(F, s), g, 0.0), "where((self < -lambd) | (self > lambd), grad, 0)"),),
    "self moved lambd towards 0, 0 within lambd of it", group=ACTIVATIONS, jvp=ELEMENTWISE_JVP))


def _prelu_self_grad(F: Any, g: Any, s: Any) -> Any:
    return F.where(F.values(s.self) > 0, g, s.weight * g)


def _prelu_weight_grad(F: Any, g: Any, s: Any) -> Any:
    return F.where(F.values(s.self) > 0, 0.0, s.self * g)


PRELU = declare(Op(
    "prelu", "PreluKernelBackward0", ("self", "weight"),
    lambda x, w: np.where(x > 0, x, w * x).astype(np.result_type(x, w)),
    (Grad(_prelu_self_grad, "where(self > 0, grad, weight * grad)"),
     Grad(_prelu_weight_grad, "where(self > 0, 0, self * grad)")),
    "self above 0, weight * self below", group=ACTIVATIONS, elementwise=True, jvp=ELEMENTWISE_JVP))


def _halves(shape: tuple[int, ...], dim: int) -> tuple[tuple, tuple]:
    half = shape[dim] // 2
    before = (slice(None),) * dim
    return (*before, slice(0, half)), (*before, slice(half, None))


def _glu(x: np.ndarray, *, dim: int) -> np.ndarray:
    first, second = _halves(x.shape, dim)
    return (x[first] / (1 + np.exp(-x[second]))).astype(x.dtype)


def _glu_grad(F: Any, g: Any, s: Any) -> Any:
    """grad * sigmoid(b) on the first half, grad * a * sigmoid(b) * (1 - sigmoid(b)) on the second."""
    shape = tuple(s.self.shape)
    first, second = _halves(shape, s.dim)
    a, b = F.index(s.self, first), F.index(s.self, second)
    gate = F.sigmoid(b)
    return F.index_put_add(shape, first, g * gate) + F.index_put_add(shape, second, g * a * gate * (1 - gate))


GLU = declare(Op(
    "glu", "GluBackward0", ("self",), _glu,
    (Grad(_glu_grad, "grad * sigmoid(b) over the first half a, grad * a * sigmoid(b) * (1 - sigmoid(b)) over the "
          "second half b"),),
    "the first half of dim times the sigmoid of the second", group=ACTIVATIONS, noisy=True,
    jvp=lambda F, t, s: _glu_tangent(F, t, s)))


def _glu_tangent(F: Any, t: Any, s: Any) -> Any:
    first, second = _halves(tuple(s.self.shape), s.dim)
    gate = F.sigmoid(F.index(s.self, second))
    return F.index(t.self, first) * gate + F.index(s.self, first) * gate * (1 - gate) * F.index(t.self, second)


@builtin("threshold(input, threshold, value, inplace=False)", ("threshold",), op=THRESHOLD, method=False,
         functional=True)
def threshold(input: Any, threshold: Any, value: Any, inplace: bool = False) -> Tensor:
    """input where it is above threshold, else value."""
    return apply(THRESHOLD, (tensor_arg(input),), {"threshold": number(threshold, "threshold"),
                                                   "value": number(value, "value")})


@builtin("hardshrink(input, lambd=0.5)", ("hardshrink",), op=HARDSHRINK, functional=True)
def hardshrink(input: Any, lambd: Any = 0.5) -> Tensor:
    """input where |input| > lambd, else 0."""
    return apply(HARDSHRINK, (tensor_arg(input),), {"lambd": number(lambd, "lambd")})


@builtin("softshrink(input, lambd=0.5)", ("softshrink",), op=SOFTSHRINK, method=False, functional=True)
def softshrink(input: Any, lambd: Any = 0.5) -> Tensor:
    """input moved lambd towards 0 (0 within lambd of it)."""
    value, x = number(lambd, "lambd"), tensor_arg(input)
    if value < 0 and x._data.dtype.kind == "f":
        top = float(np.finfo(x._data.dtype).max)
        raise BadValueError(f"lambda must be in range [0, {top:g}] for input dtype {_name(x)}, but found {value:g}",
                            reason="lambd")
    return apply(SOFTSHRINK, (x,), {"lambd": value})


tanhshrink = composite("tanhshrink(input)", lambda F, x: F.sub(x, F.tanh(x)),
                       "input - tanh(input), recorded as those ops", functional=True)


@builtin("glu(input, dim=-1)", ("glu",), op=GLU, method=False, functional=True)
def glu(input: Any, dim: Any = -1) -> Tensor:
    """a * sigmoid(b), a and b the two halves of input along dim."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise BadValueError("glu does not support scalars because halving size must be even", reason="glu")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)) or not -x.ndim <= dim < x.ndim:
        raise ShapeError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got "
                         f"{dim})", reason="dim", shapes=(tuple(x.shape),))
    d = int(dim) % x.ndim
    if x._data.shape[d] % 2:
        raise BadValueError(f"Halving dimension must be even, but dimension {d} is size {x._data.shape[d]}",
                            reason="glu")
    return apply(GLU, (x,), {"dim": d})


@builtin("prelu(input, weight)", ("view", "prelu"), method=True, functional=True)
def prelu(input: Any, weight: Any) -> Tensor:
    """input above 0, weight * input below; weight has one element or one per channel (dim 1)."""
    x, w = tensor_arg(input), tensor_arg(weight, "weight")
    if x._data.dtype != w._data.dtype:
        raise BadValueError(f"prelu: Type promoting not supported. Got {_name(x)} and {_name(w)}", reason="dtype")
    if w.numel() != 1:
        if x.ndim == 0:
            raise BadValueError("Not allow zero-dim input tensor.", reason="prelu")
        channels = x._data.shape[1] if x.ndim > 1 else 1
        if channels != w.numel():
            raise BadValueError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                                f"{w.numel()} and channel size = {channels}.", reason="prelu")
    if w.ndim > 1:
        raise BadValueError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {w.ndim}",
                            reason="prelu")
    if x.ndim != w.ndim:
        shape = [1] * x.ndim
        if x.ndim > 1:
            shape[1] = w.numel()
        w = reshape(w, tuple(shape))
    return apply(PRELU, (x, w))


def _name(t: Tensor) -> str:
    """PyTorch's ScalarType name of t's dtype (Float, Double, ...)."""
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16"}.get(
        str(t._data.dtype), str(t._data.dtype))
