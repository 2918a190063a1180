"""The table of differentiable operations: each one declared once.

An `Op` gives the forward computation (on numpy arrays), one backward formula per tensor input, and
the name of the node PyTorch records for it. Formulas are written in one vocabulary, `F`, that exists
twice: `NumpyMath` (plain arrays, for an ordinary backward pass) and the engine's own functions (for
`create_graph=True`, so that the backward pass is itself recorded and can be differentiated again).
Inside a formula, `g` is the gradient of the op's output and `s` holds the saved values: the inputs by
their slot names (`self`, `other`, ...), `result`, and the op's parameters. A Grad's `uses` names what
it needs saved (inputs, `result`, or a parameter PyTorch saves as a tensor, like max's `indices`); a
node that saved something cannot run a second time once backward has freed it.

Formulas return the gradient for the input's *broadcast* shape; the executor reduces it to the
input's own shape in one place (`sum_to`), as PyTorch's engine does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import allocator
from .arrays import (
    as_strided_scatter,
    c_order,
    erf,
    erfc,
    memory_order,
    power,
    sigmoid_backward,
    sign,
    slice_scatter,
    swapaxes,
    tanh_backward,
)
from .formulas import (
    _atan2_grad,
    _clamp_forward,
    _clamp_grad,
    _cumprod_grad,
    _cumsum_grad,
    _expand_reduced,
    _extreme_grad,
    _indices_grad,
    _inverse,
    _log_softmax,
    _logsumexp,
    _logsumexp_grad,
    _matmul_nd_other,
    _matmul_nd_self,
    _max_all_grad,
    _maximum_grad,
    _norm_grad,
    _pow_scalar_base_grad,
    _pow_tensor_grad_exponent,
    _pow_tensor_grad_self,
    _prod_grad,
    _softmax,
    _std_grad,
    _take_dim,
    _var_grad,
    _variance,
)
from .parallel import kernel_for, splitting

LN2, LN10, TWO_OVER_SQRT_PI = math.log(2.0), math.log(10.0), 2.0 / math.sqrt(math.pi)

VIEW_OPS = frozenset({"t", "transpose", "permute", "view", "reshape_alias", "alias", "unsqueeze", "squeeze",
                      "squeeze_dim", "squeeze_vm", "expand", "select", "slice"})

# Ops whose forward can meet a domain error or overflow on finite input (log(0), 1/0, exp(100)): they
# run with numpy's warnings off, as PyTorch gives inf/nan silently. The others skip that cost (about a
# microsecond an op); the CLI silences numpy for its whole run anyway.
NOISY_OPS = frozenset({"div", "pow", "pow_tensor", "pow_scalar_base", "exp", "log", "tan", "sigmoid", "sqrt",
                       "reciprocal", "softmax", "log_softmax", "mean", "mean_dim", "sin", "cos", "asin", "acos",
                       "atan2", "sinh", "cosh", "acosh", "atanh", "log2", "log10", "log1p", "expm1", "exp2",
                       "rsqrt", "hypot", "prod", "prod_dim", "var", "std", "logsumexp", "norm", "cumprod", "det",
                       "inverse", "mse_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"})


# Elementwise ops of several tensors: their result takes the memory layout PyTorch gives it
# (see elementwise_layout), which decides whether a later reshape is a view or a copy.
MULTI_INPUT_ELEMENTWISE_OPS = frozenset({"add", "sub", "mul", "div", "pow_tensor", "maximum", "minimum", "where"})


# How `autodiff ops` groups the table (an op in no group is listed under "Other functions").
GROUPS: dict[str, frozenset[str]] = {
    "Loss functions": frozenset({"mse_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"}),
    "Arithmetic": frozenset({"add", "sub", "rsub", "mul", "div", "pow", "pow_tensor", "pow_scalar_base", "neg",
                             "reciprocal", "maximum", "minimum"}),
    "Elementwise functions": frozenset({"exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "abs",
                                        "sign", "clamp", "where", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                                        "asinh", "acosh", "atanh", "log2", "log10", "log1p", "expm1", "exp2", "erf",
                                        "erfc", "rsqrt", "hypot", "floor", "ceil", "round", "trunc", "frac"}),
    "Reductions": frozenset({"sum", "sum_dim", "mean", "mean_dim", "max", "min", "max_dim", "min_dim", "softmax",
                             "log_softmax", "prod", "prod_dim", "var", "std", "logsumexp", "amax", "amin", "norm",
                             "cumsum", "cumprod"}),
    "Linear algebra": frozenset({"mm", "mv", "dot", "matmul", "trace", "det", "inverse", "diag_embed",
                                "diagonal_copy"}),
    "Shapes, views and copies": frozenset({"view", "reshape_alias", "unsafe_view", "clone", "to", "t", "transpose",
                                           "permute", "unsqueeze", "squeeze", "squeeze_dim", "squeeze_vm", "expand",
                                           "select", "slice", "alias"}),
}


@dataclass(frozen=True)
class Grad:
    """A backward formula for one input: `fn(F, g, s)`, the saved values it `uses`, and its text."""

    fn: Callable[[Any, Any, Any], Any]
    text: str
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One differentiable operation: forward, one Grad per tensor input, PyTorch's node name."""

    name: str
    node: str
    inputs: tuple[str, ...]
    forward: Callable[..., np.ndarray]
    grads: tuple[Grad, ...]
    doc: str = ""
    view: bool = field(init=False)  # the result shares the input's memory (see VIEW_OPS)
    noisy: bool = field(init=False)  # numpy would warn on some finite inputs (see NOISY_OPS)
    layout: bool = field(init=False)  # the result's layout follows PyTorch's rule (MULTI_INPUT_ELEMENTWISE_OPS)
    elementwise: bool = field(init=False)  # elementwise on several inputs that broadcast (the same set)
    group: str | None = field(init=False)  # its group in `autodiff ops` (GROUPS)
    large_forward: Callable[..., np.ndarray] | None = field(init=False, repr=False, compare=False)  # parallel.py
    saved_for: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", self.name in VIEW_OPS)
        object.__setattr__(self, "noisy", self.name in NOISY_OPS)
        object.__setattr__(self, "layout", self.name in MULTI_INPUT_ELEMENTWISE_OPS)
        object.__setattr__(self, "elementwise", self.name in MULTI_INPUT_ELEMENTWISE_OPS)
        object.__setattr__(self, "group", next((g for g, members in GROUPS.items() if self.name in members), None))
        # Inputs of parallel.THRESHOLD elements or more: the forward split over the cores, where it can be.
        kernel = kernel_for(self.name, self.forward)
        object.__setattr__(self, "large_forward", None if kernel is None else splitting(kernel, self.forward))
        # For every combination of inputs that require grad: which saved values the formulas need,
        # as (name, slot index or None for `result`) pairs. PyTorch saves only these.
        table = {}
        for needs in itertools.product((False, True), repeat=len(self.inputs)):
            names: list[str] = []
            for flag, grad in zip(needs, self.grads):
                if flag:
                    names.extend(u for u in grad.uses if u not in names)
            table[needs] = tuple((n, self.inputs.index(n) if n in self.inputs else None) for n in names)
        object.__setattr__(self, "saved_for", table)


# ---------------------------------------------------------------------------- the table
# The formulas are written so numpy can reuse its temporaries (it does for `temp op array`, and for
# `array op temp` when op commutes, but not with a Python number): `-(((self / other) / other) * g)`
# allocates one array where `-g * ((self / other) / other)` allocates two. Each is bit-for-bit the
# PyTorch formula its text gives (negation is exact, products commute).
_OPS: list[Op] = [
    # elementwise with two inputs (Python numbers allowed in either slot)
    Op("add", "AddBackward0", ("self", "other"), np.add,
       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g, "grad")), "self + other"),
    Op("sub", "SubBackward0", ("self", "other"), np.subtract,
       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: -g, "-grad")), "self - other"),
    Op("rsub", "RsubBackward1", ("self",), lambda x, *, other: np.subtract(other, x),
       (Grad(lambda F, g, s: -g, "-grad"),), "other - self, for a number `other`"),
    Op("mul", "MulBackward0", ("self", "other"), np.multiply,
       (Grad(lambda F, g, s: F.mul_sum_to(g, s.other, s.input_shapes[0]), "grad * other", ("other",)),
        Grad(lambda F, g, s: F.mul_sum_to(g, s.self, s.input_shapes[1]), "grad * self", ("self",))),
       "self * other"),
    Op("div", "DivBackward0", ("self", "other"), np.divide,
       (Grad(lambda F, g, s: g / s.other, "grad / other", ("other",)),
        Grad(lambda F, g, s: F.div_other_backward(g, s.self, s.other), "-grad * self / other**2",
             ("self", "other"))), "self / other"),
    Op("pow", "PowBackward0", ("self",), lambda x, *, exponent: power(x, exponent),
       (Grad(lambda F, g, s: g * 0.0 if s.exponent == 0 else F.pow_backward(g, s.self, s.exponent),
             "grad * exponent * self**(exponent - 1)", ("self",)),), "self ** exponent, for a number exponent"),
    Op("pow_tensor", "PowBackward1", ("self", "exponent"), np.power,
       (Grad(_pow_tensor_grad_self, "grad * exponent * self**(exponent - 1)", ("self", "exponent")),
        Grad(_pow_tensor_grad_exponent, "grad * result * log(self)", ("self", "exponent", "result"))),
       "self ** exponent, both tensors"),
    Op("pow_scalar_base", "PowBackward2", ("exponent",), lambda e, *, base: c_order(np.power(base, e)),
       (Grad(_pow_scalar_base_grad, "grad * result * log(base)", ("exponent", "result")),),
       "base ** exponent, for a number base"),
    Op("maximum", "MaximumBackward0", ("self", "other"), np.maximum,
       (Grad(lambda F, g, s: _maximum_grad(F, g, s.self, s.other), "grad where self > other (half on ties)",
             ("self", "other")),
        Grad(lambda F, g, s: _maximum_grad(F, g, s.other, s.self), "grad where other > self (half on ties)",
             ("self", "other"))), "elementwise maximum"),
    Op("minimum", "MinimumBackward0", ("self", "other"), np.minimum,
       (Grad(lambda F, g, s: _maximum_grad(F, g, -F.values(s.self), -F.values(s.other)),
             "grad where self < other (half on ties)", ("self", "other")),
        Grad(lambda F, g, s: _maximum_grad(F, g, -F.values(s.other), -F.values(s.self)),
             "grad where other < self (half on ties)", ("self", "other"))), "elementwise minimum"),
    # elementwise with one input
    Op("neg", "NegBackward0", ("self",), np.negative, (Grad(lambda F, g, s: -g, "-grad"),), "-self"),
    Op("exp", "ExpBackward0", ("self",), np.exp,
       (Grad(lambda F, g, s: F.mul(g, s.result), "grad * result", ("result",)),), "e ** self"),
    Op("log", "LogBackward0", ("self",), np.log,
       (Grad(lambda F, g, s: F.div(g, s.self), "grad / self", ("self",)),), "natural logarithm"),
    Op("sin", "SinBackward0", ("self",), np.sin,
       (Grad(lambda F, g, s: F.sin_backward(g, s.self), "grad * cos(self)", ("self",)),), "sine"),
    Op("cos", "CosBackward0", ("self",), np.cos,
       (Grad(lambda F, g, s: g * -F.sin(s.self), "grad * -sin(self)", ("self",)),), "cosine"),
    Op("tan", "TanBackward0", ("self",), np.tan,
       (Grad(lambda F, g, s: F.tan_backward(g, s.result), "grad * (1 + result**2)", ("result",)),), "tangent"),
    Op("tanh", "TanhBackward0", ("self",), np.tanh,
       (Grad(lambda F, g, s: F.tanh_backward(g, s.result), "grad * (1 - result**2)", ("result",)),),
       "hyperbolic tangent"),
    Op("sigmoid", "SigmoidBackward0", ("self",), lambda x: 1 / (1 + np.exp(-x)),
       (Grad(lambda F, g, s: F.sigmoid_backward(g, s.result), "grad * (1 - result) * result", ("result",)),),
       "1 / (1 + e ** -self)"),
    Op("relu", "ReluBackward0", ("self",), lambda x: np.maximum(x, 0),
       (Grad(lambda F, g, s: F.threshold_backward(g, s.result), "grad where result > 0 (and where nan)",
             ("result",)),),
       "max(self, 0)"),
    Op("sqrt", "SqrtBackward0", ("self",), np.sqrt,
       (Grad(lambda F, g, s: F.sqrt_backward(g, s.result), "grad / (2 * result)", ("result",)),), "square root"),
    Op("abs", "AbsBackward0", ("self",), np.abs,
       (Grad(lambda F, g, s: g * F.sgn(s.self), "grad * sign(self)", ("self",)),), "absolute value"),
    Op("sign", "SignBackward0", ("self",), sign,
       (Grad(lambda F, g, s: F.zeros_like(g), "0"),), "-1, 0 or 1"),
    Op("reciprocal", "ReciprocalBackward0", ("self",), lambda x: 1 / x,
       (Grad(lambda F, g, s: F.reciprocal_backward(g, s.result), "-grad * result**2", ("result",)),), "1 / self"),
    Op("clamp", "ClampBackward1", ("self",), _clamp_forward,
       (Grad(_clamp_grad, "grad where min <= self <= max", ("self",)),), "self limited to [min, max]"),
    Op("where", "WhereBackward0", ("self", "other"), lambda a, b, *, condition: np.where(condition, a, b),
       (Grad(lambda F, g, s: F.where(s.condition, g, 0.0), "grad where condition"),
        Grad(lambda F, g, s: F.where(s.condition, 0.0, g), "grad where not condition")),
       "self where condition, else other"),
    # the calculus course's functions (engine/calculus.py registers them)
    Op("asin", "AsinBackward0", ("self",), np.arcsin,
       (Grad(lambda F, g, s: g / F.sqrt(1 - s.self * s.self), "grad / sqrt(1 - self**2)", ("self",)),), "arcsine"),
    Op("acos", "AcosBackward0", ("self",), np.arccos,
       (Grad(lambda F, g, s: -g / F.sqrt(1 - s.self * s.self), "-grad / sqrt(1 - self**2)", ("self",)),),
       "arccosine"),
    Op("atan", "AtanBackward0", ("self",), np.arctan,
       (Grad(lambda F, g, s: g / (s.self * s.self + 1), "grad / (self**2 + 1)", ("self",)),), "arctangent"),
    Op("atan2", "Atan2Backward0", ("self", "other"), np.arctan2,
       (Grad(lambda F, g, s: _atan2_grad(F, g, s.other, s), "grad * other / (self**2 + other**2)",
             ("self", "other")),
        Grad(lambda F, g, s: _atan2_grad(F, -g, s.self, s), "-grad * self / (self**2 + other**2)",
             ("self", "other"))), "the angle of the point (other, self)"),
    Op("sinh", "SinhBackward0", ("self",), np.sinh,
       (Grad(lambda F, g, s: g * F.cosh(s.self), "grad * cosh(self)", ("self",)),), "hyperbolic sine"),
    Op("cosh", "CoshBackward0", ("self",), np.cosh,
       (Grad(lambda F, g, s: g * F.sinh(s.self), "grad * sinh(self)", ("self",)),), "hyperbolic cosine"),
    Op("asinh", "AsinhBackward0", ("self",), np.arcsinh,
       (Grad(lambda F, g, s: g / F.sqrt(s.self * s.self + 1), "grad / sqrt(self**2 + 1)", ("self",)),),
       "inverse hyperbolic sine"),
    Op("acosh", "AcoshBackward0", ("self",), np.arccosh,
       (Grad(lambda F, g, s: g / F.sqrt(s.self * s.self - 1), "grad / sqrt(self**2 - 1)", ("self",)),),
       "inverse hyperbolic cosine"),
    Op("atanh", "AtanhBackward0", ("self",), np.arctanh,
       (Grad(lambda F, g, s: g / (1 - s.self * s.self), "grad / (1 - self**2)", ("self",)),),
       "inverse hyperbolic tangent"),
    Op("log2", "Log2Backward0", ("self",), np.log2,
       (Grad(lambda F, g, s: g / (s.self * LN2), "grad / (self * log(2))", ("self",)),), "base-2 logarithm"),
    Op("log10", "Log10Backward0", ("self",), np.log10,
       (Grad(lambda F, g, s: g / (s.self * LN10), "grad / (self * log(10))", ("self",)),), "base-10 logarithm"),
    Op("log1p", "Log1PBackward0", ("self",), np.log1p,
       (Grad(lambda F, g, s: g / (s.self + 1), "grad / (self + 1)", ("self",)),), "log(1 + self), accurate near 0"),
    Op("expm1", "Expm1Backward0", ("self",), np.expm1,
       (Grad(lambda F, g, s: g * (s.result + 1), "grad * (result + 1)", ("result",)),),
       "e ** self - 1, accurate near 0"),
    Op("exp2", "Exp2Backward0", ("self",), np.exp2,
       (Grad(lambda F, g, s: g * (s.result * LN2), "grad * result * log(2)", ("result",)),), "2 ** self"),
    Op("erf", "ErfBackward0", ("self",), erf,
       (Grad(lambda F, g, s: g * (TWO_OVER_SQRT_PI * F.exp(-(s.self * s.self))),
             "grad * 2 / sqrt(pi) * exp(-self**2)", ("self",)),), "the error function"),
    Op("erfc", "ErfcBackward0", ("self",), erfc,
       (Grad(lambda F, g, s: -g * (TWO_OVER_SQRT_PI * F.exp(-(s.self * s.self))),
             "-grad * 2 / sqrt(pi) * exp(-self**2)", ("self",)),), "1 - erf(self)"),
    Op("rsqrt", "RsqrtBackward0", ("self",), lambda x: 1 / np.sqrt(x),
       (Grad(lambda F, g, s: -0.5 * g * (s.result * s.result * s.result), "-0.5 * grad * result**3", ("result",)),),
       "1 / sqrt(self)"),
    Op("hypot", "HypotBackward0", ("self", "other"), np.hypot,
       (Grad(lambda F, g, s: g * s.self / s.result, "grad * self / result", ("self", "result")),
        Grad(lambda F, g, s: g * s.other / s.result, "grad * other / result", ("other", "result"))),
       "sqrt(self**2 + other**2)"),
    Op("floor", "FloorBackward0", ("self",), np.floor, (Grad(lambda F, g, s: F.zeros_like(g), "0"),),
       "round down"),
    Op("ceil", "CeilBackward0", ("self",), np.ceil, (Grad(lambda F, g, s: F.zeros_like(g), "0"),), "round up"),
    Op("round", "RoundBackward0", ("self",), np.round, (Grad(lambda F, g, s: F.zeros_like(g), "0"),),
       "round to the nearest integer (halves to even)"),
    Op("trunc", "TruncBackward0", ("self",), np.trunc, (Grad(lambda F, g, s: F.zeros_like(g), "0"),),
       "round towards zero"),
    Op("frac", "FracBackward0", ("self",), lambda x: x - np.trunc(x), (Grad(lambda F, g, s: g, "grad"),),
       "self - trunc(self)"),
    # reductions and linear algebra of the calculus vocabulary (engine/calculus.py)
    Op("prod", "ProdBackward0", ("self",), lambda x, *, dim, keepdim: np.prod(x, axis=dim, keepdims=keepdim),
       (Grad(_prod_grad, "grad * (the product of the other elements)", ("self", "result")),), "product"),
    Op("prod_dim", "ProdBackward1", ("self",), lambda x, *, dim, keepdim: np.prod(x, axis=dim, keepdims=keepdim),
       (Grad(_prod_grad, "grad * (the product of the other elements)", ("self", "result")),), "product over a dim"),
    Op("var", "VarBackward0", ("self",),
       lambda x, *, dim, keepdim, correction: _variance(x, dim=dim, keepdim=keepdim, correction=correction),
       (Grad(_var_grad, "grad * 2 * (self - mean) / (n - correction)", ("self",)),), "variance"),
    Op("std", "StdBackward0", ("self",),
       lambda x, *, dim, keepdim, correction: _variance(x, dim=dim, keepdim=keepdim, correction=correction,
                                                        root=True),
       (Grad(_std_grad, "grad * (self - mean) / (result * (n - correction))", ("self", "result")),),
       "standard deviation"),
    Op("logsumexp", "LogsumexpBackward0", ("self",), lambda x, *, dim, keepdim: _logsumexp(x, dim, keepdim),
       (Grad(_logsumexp_grad, "grad * exp(self - result)", ("self", "result")),), "log(sum(exp(self)))"),
    Op("amax", "AmaxBackward0", ("self",), lambda x, *, dim, keepdim: np.amax(x, axis=dim, keepdims=keepdim),
       (Grad(_extreme_grad, "grad shared evenly by the elements equal to the max", ("self", "result")),),
       "largest element over dims"),
    Op("amin", "AminBackward0", ("self",), lambda x, *, dim, keepdim: np.amin(x, axis=dim, keepdims=keepdim),
       (Grad(_extreme_grad, "grad shared evenly by the elements equal to the min", ("self", "result")),),
       "smallest element over dims"),
    Op("norm", "LinalgVectorNormBackward0", ("self",),
       lambda x, *, dim, keepdim: np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim)),
       (Grad(_norm_grad, "grad * self / result", ("self", "result")),), "Euclidean norm"),
    Op("cumsum", "CumsumBackward0", ("self",), lambda x, *, dim: np.cumsum(x, axis=dim),
       (Grad(_cumsum_grad, "grad summed from the end along dim"),), "running sum along dim"),
    Op("cumprod", "CumprodBackward0", ("self",), lambda x, *, dim: np.cumprod(x, axis=dim),
       (Grad(_cumprod_grad, "(grad * result) summed from the end along dim, / self", ("self", "result")),),
       "running product along dim"),
    Op("trace", "TraceBackward0", ("self",), lambda x: np.asarray(np.trace(x)),
       (Grad(lambda F, g, s: g * np.eye(*s.input_shape, dtype=s.input_dtype), "grad * eye"),),
       "sum of the diagonal"),
    Op("det", "LinalgDetBackward0", ("self",), lambda x: np.asarray(allocator.det(x)).astype(x.dtype),
       (Grad(lambda F, g, s: g * s.result * F.transpose(F.inverse(s.self), -2, -1), "grad * result * inverse(self).T",
             ("self", "result")),), "determinant"),
    Op("inverse", "LinalgInvExBackward0", ("self",), _inverse,
       (Grad(lambda F, g, s: -F.matmul(F.matmul(F.transpose(s.result, -2, -1), g), F.transpose(s.result, -2, -1)),
             "-result.T @ grad @ result.T", ("result",)),), "matrix inverse"),
    # stack and cat take any number of tensors: calculus.py makes the op for each count from these
    Op("stack", "StackBackward0", ("tensors[0]",), lambda *xs, dim, spans: np.stack(xs, axis=dim),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (0,)), "grad[i] along dim"),),
       "tensors of one shape along a new dim"),
    Op("cat", "CatBackward0", ("tensors[0]",), lambda *xs, dim, spans: np.concatenate(xs, axis=dim),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(*s.spans[0]),)),
             "the part of grad along dim that came from this tensor"),), "tensors joined along a dim"),
    Op("diag_embed", "DiagEmbedBackward0", ("self",), np.diag,
       (Grad(lambda F, g, s: F.diagonal(g), "the diagonal of grad"),), "a vector as a diagonal matrix"),
    Op("diagonal_copy", "DiagonalBackward0_copy", ("self",), lambda x: np.diagonal(x).copy(),
       (Grad(lambda F, g, s: F.diagonal_backward(g, s.input_shape), "zeros with grad on the diagonal"),),
       "the diagonal of a matrix (a copy)"),
    # reductions
    Op("sum", "SumBackward0", ("self",), lambda x: np.sum(x),
       (Grad(lambda F, g, s: F.expand(g, s.input_shape), "grad expanded to self's shape"),), "sum of all elements"),
    Op("sum_dim", "SumBackward1", ("self",),
       lambda x, *, dim, keepdim: c_order(np.sum(x, axis=dim, keepdims=keepdim)),
       (Grad(_expand_reduced, "grad expanded over the summed dims"),), "sum over dims"),
    # sum / count is what np.mean computes, without its warning for an empty input (0/0 is nan, as in PyTorch)
    Op("mean", "MeanBackward0", ("self",), lambda x, *, count: np.sum(x) / count,
       (Grad(lambda F, g, s: F.expand(g / s.count, s.input_shape), "grad / numel expanded to self's shape"),),
       "mean of all elements"),
    Op("mean_dim", "MeanBackward1", ("self",),
       lambda x, *, dim, keepdim, count: c_order(np.sum(x, axis=dim, keepdims=keepdim) / count),
       (Grad(lambda F, g, s: _expand_reduced(F, g / s.count, s), "grad / count expanded over the averaged dims"),),
       "mean over dims"),
    Op("max", "MaxBackward1", ("self",), lambda x: np.max(x),
       (Grad(_max_all_grad, "grad shared evenly by the elements equal to the max", ("self", "result")),),
       "largest element"),
    Op("min", "MinBackward1", ("self",), lambda x: np.min(x),
       (Grad(_max_all_grad, "grad shared evenly by the elements equal to the min", ("self", "result")),),
       "smallest element"),
    Op("max_dim", "MaxBackward0", ("self",),
       _take_dim, (Grad(_indices_grad, "grad to the position of the max along dim", ("indices",)),),
       "max over a dim"),
    Op("min_dim", "MinBackward0", ("self",),
       _take_dim, (Grad(_indices_grad, "grad to the position of the min along dim", ("indices",)),),
       "min over a dim"),
    Op("softmax", "SoftmaxBackward0", ("self",), _softmax,
       (Grad(lambda F, g, s: s.result * (g - F.sum(g * s.result, s.dim, True)),
             "result * (grad - sum(grad * result, dim))", ("result",)),), "exp(self) / sum(exp(self), dim)"),
    Op("log_softmax", "LogSoftmaxBackward0", ("self",), _log_softmax,
       (Grad(lambda F, g, s: g - F.exp(s.result) * F.sum(g, s.dim, True),
             "grad - exp(result) * sum(grad, dim)", ("result",)),), "self - log(sum(exp(self), dim))"),
    # linear algebra
    Op("mm", "MmBackward0", ("self", "mat2"), allocator.matmul,
       (Grad(lambda F, g, s: F.matmul(g, F.transpose(s.mat2, 0, 1)), "grad @ mat2.T", ("mat2",)),
        Grad(lambda F, g, s: F.matmul(F.transpose(s.self, 0, 1), g), "self.T @ grad", ("self",))),
       "matrix @ matrix"),
    Op("mv", "MvBackward0", ("self", "vec"), allocator.matmul,
       (Grad(lambda F, g, s: F.unsqueeze(g, 1) * s.vec, "outer(grad, vec)", ("vec",)),
        Grad(lambda F, g, s: F.matmul(F.transpose(s.self, 0, 1), g), "self.T @ grad", ("self",))),
       "matrix @ vector"),
    Op("dot", "DotBackward0", ("self", "other"), allocator.dot,
       (Grad(lambda F, g, s: g * s.other, "grad * other", ("other",)),
        Grad(lambda F, g, s: g * s.self, "grad * self", ("self",))), "vector . vector"),
    Op("matmul", "MatmulBackward0", ("self", "other"), lambda a, b, *, other_ndim: allocator.matmul(a, b),
       (Grad(_matmul_nd_self, "grad @ other.mT (summed over broadcast batch dims)", ("other",)),
        Grad(_matmul_nd_other, "self.mT @ grad (summed over broadcast batch dims)", ("self",))),
       "batched matrix product"),
    # shape and view operations (they save no tensors)
    Op("t", "TBackward0", ("self",), lambda x: x.T,
       (Grad(lambda F, g, s: F.transpose(g, 0, 1) if g.ndim == 2 else g, "grad.t()"),), "transpose of a matrix"),
    Op("transpose", "TransposeBackward0", ("self",), lambda x, *, dim0, dim1: swapaxes(x, dim0, dim1),
       (Grad(lambda F, g, s: F.transpose(g, s.dim0, s.dim1), "grad.transpose(dim0, dim1)"),), "swap two dims"),
    Op("permute", "PermuteBackward0", ("self",), lambda x, *, dims: np.transpose(x, dims),
       (Grad(lambda F, g, s: F.permute(g, tuple(int(i) for i in np.argsort(s.dims))), "grad permuted back"),),
       "reorder dims"),
    Op("view", "ViewBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),), "same data, new shape"),
    Op("reshape_alias", "ReshapeAliasBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),),
       "same data, new shape (reshape of non-contiguous data that a view can still express)"),
    Op("unsafe_view", "UnsafeViewBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),),
       "new shape of a fresh copy (reshape of non-contiguous data)"),
    Op("to", "ToCopyBackward0", ("self",), lambda x, *, dtype: x.astype(dtype, order=memory_order(x)),
       (Grad(lambda F, g, s: F.cast(g, s.input_dtype), "grad converted back to self's dtype"),),
       "convert to another dtype"),
    Op("clone", "CloneBackward0", ("self",),
       lambda x, *, contiguous=False: np.array(x, copy=True, order="C" if contiguous else memory_order(x)),
       (Grad(lambda F, g, s: g, "grad"),), "a copy"),
    Op("alias", "AliasBackward0", ("self",), lambda x: x[...],
       (Grad(lambda F, g, s: g, "grad"),), "the same data (x[...], x[:, :])"),
    Op("unsqueeze", "UnsqueezeBackward0", ("self",), lambda x, *, dim: np.expand_dims(x, dim),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.squeeze(dim)"),), "insert a dim of size 1"),
    Op("squeeze", "SqueezeBackward0", ("self",), lambda x: x.reshape([n for n in x.shape if n != 1]),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),), "remove dims of size 1"),
    Op("squeeze_dim", "SqueezeBackward1", ("self",),
       lambda x, *, dim: np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x[...],
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.unsqueeze(dim)"),), "remove one dim of size 1"),
    Op("squeeze_vm", "SqueezeBackward4", ("self",), lambda x, *, dim: np.squeeze(x, dim),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.unsqueeze(dim)"),),
       "remove the dim matmul added to a vector"),
    Op("expand", "ExpandBackward0", ("self",), lambda x, *, shape: np.broadcast_to(x, shape),
       (Grad(lambda F, g, s: F.sum_to(g, s.input_shape), "grad summed back to self's shape"),),
       "broadcast to a larger shape (no copy)"),
    Op("select", "SelectBackward0", ("self",), lambda x, *, dim, index: x[(slice(None),) * dim + (index,)],
       (Grad(lambda F, g, s: F.select_backward(g, s.input_shape, s.dim, s.index),
             "zeros of self's shape with grad at [index] along dim"),), "x[i] along a dim"),
    Op("slice", "SliceBackward0", ("self",),
       lambda x, *, dim, start, stop, step: x[(slice(None),) * dim + (slice(start, stop, step),)],
       (Grad(lambda F, g, s: F.slice_backward(g, s.input_shape, s.dim, s.start, s.stop, s.step),
             "zeros of self's shape with grad at [start:stop:step] along dim"),), "x[a:b:c] along a dim"),
    Op("select_backward", "SelectBackwardBackward0", ("self",),
       lambda g, *, shape, dim, index: slice_scatter(g, shape, (slice(None),) * dim + (index,)),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (s.index,)), "grad[index] along dim"),),
       "scatter into zeros (the backward of select)"),
    Op("slice_backward", "SliceBackwardBackward0", ("self",),
       lambda g, *, shape, dim, start, stop, step: slice_scatter(g, shape,
                                                                 (slice(None),) * dim + (slice(start, stop, step),)),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(s.start, s.stop, s.step),)),
             "grad[start:stop:step] along dim"),), "scatter into zeros (the backward of a slice)"),
    # a view regenerated after an in-place write (recorded by inplace.py; applied only inside backward)
    Op("as_strided", "AsStridedBackward0", ("self",), lambda x, *, index: x.reshape(-1)[index],
       (Grad(lambda F, g, s: F.as_strided_backward(g, s.input_shape, s.index),
             "zeros of the base's shape with grad at the view's positions"),), "a view of a tensor written in place"),
    Op("as_strided_scatter", "AsStridedScatterBackward0", ("self",),
       lambda g, *, shape, index: as_strided_scatter(g, shape, index),
       (Grad(lambda F, g, s: F.as_strided(g, s.index), "grad at the view's positions"),),
       "the backward of a view of a tensor written in place"),
    # PyTorch's fused backward kernels, recorded when a backward pass runs with create_graph=True
    Op("tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"),
       tanh_backward,
       (Grad(lambda F, g, s: F.tanh_backward(g, s.output), "grad * (1 - output**2)", ("output",)),
        Grad(lambda F, g, s: g * (F.mul_scalar(s.output, -2.0) * s.grad_output), "grad * -2 * output * grad_output",
             ("output", "grad_output"))), "grad_output * (1 - output**2)"),
    Op("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
       sigmoid_backward,
       (Grad(lambda F, g, s: F.sigmoid_backward(g, s.output), "grad * (1 - output) * output", ("output",)),
        Grad(lambda F, g, s: (g * s.grad_output) * (F.mul_scalar(s.output, -2.0) + 1),
             "grad * grad_output * (1 - 2 * output)", ("output", "grad_output"))),
       "grad_output * (1 - output) * output"),
    Op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
       lambda go, x: np.where(x <= 0, 0.0, go).astype(go.dtype),
       (Grad(lambda F, g, s: F.threshold_backward(g, s.self), "grad where self > 0", ("self",)),
        Grad(lambda F, g, s: F.zeros_like(g), "0")), "grad_output where self > 0"),
    Op("sgn", "SgnBackward0", ("self",), sign, (Grad(lambda F, g, s: F.zeros_like(g), "0"),),
       "the sign (inside abs's backward)"),
    Op("add_scalar", "AddBackward1", ("self",), lambda x, *, other: x + other,
       (Grad(lambda F, g, s: g, "grad"),), "self + other, a number (inside backward formulas)"),
    Op("mul_scalar", "MulBackward1", ("self",), lambda x, *, other: x * other,
       (Grad(lambda F, g, s: g * s.other, "grad * other"),), "self * other, a number (inside backward formulas)"),
    # self.copy_(src): a write to the whole tensor (y[:] = v, recorded by setitem), and the copy of a gradient
    # that .grad keeps after a create_graph pass
    Op("copy_", "CopyBackwards", ("self", "src"), lambda _, x: np.array(x, copy=True, order=memory_order(x)),
       (Grad(lambda F, g, s: F.zeros_like(g), "0"), Grad(lambda F, g, s: g, "grad (summed to the value's shape)")),
       "self[...] = src, the whole tensor"),
    Op("fill_tensor", "FillBackward3", ("self", "value"), None,  # a number written to the whole tensor (y[...] = 5)
       (Grad(lambda F, g, s: F.zeros_like(g), "0"), Grad(lambda F, g, s: F.sum(g, None, False), "grad.sum()")),
       "self[...] = value, a number, the whole tensor"),
    Op("zero_", "ZeroBackward0", ("self",), np.zeros_like,
       (Grad(lambda F, g, s: F.zeros_like(g), "0"),), "fill with zeros, in place"),
    Op("fill_", "FillBackward2", ("self",), lambda x, *, value: np.full_like(x, value),
       (Grad(lambda F, g, s: F.zeros_like(g), "0"),), "fill with a number, in place"),
    # recorded by setitem, never applied directly; zero_/fill_ on a view record it with `self` alone
    Op("copy_slices", "CopySlices", ("self", "src"), None,
       (Grad(lambda F, g, s: F.where(s.outside, g, 0.0), "grad with the written region zeroed", ("outside",)),
        Grad(lambda F, g, s: F.index(g, s.where), "grad[index] (summed to the value's shape)", ("where",))),
       "self[index] = src"),
]

OPS: dict[str, Op] = {op.name: op for op in _OPS}
