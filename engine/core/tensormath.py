"""`TensorMath`: the formulas' vocabulary on Tensors, through recorded operations, so that a backward pass with
create_graph=True is itself a graph that can be differentiated again; and PyTorch's fused backward kernels it
records there (TanhBackwardBackward0, ...), declared here as the ops they are."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..errors import BadValueError
from ..kernels import fused
from ..kernels.arrays import kept_shape, sigmoid_backward, summed_axes, tanh_backward
from ..kernels.arrays import sign as sign_kernel
from ..ops.arithmetic import div, pow
from ..ops.constructors import zeros_like
from ..ops.elementwise import cos, cosh, erf, exp, log, sigmoid, sign, sin, sinh, sqrt, tanh
from ..ops.gathers import GATHER, INDEX_PUT_ADD, MASKED_FILL, SCATTER_ADD
from ..ops.indexing import getitem
from ..ops.joins import cat, stack
from ..ops.linalg import bmm, diag, inverse, matmul, mm, mv
from ..ops.logic import WHERE
from ..ops.reductions import prod, sum
from ..ops.shapes import (
    SELECT_BACKWARD,
    SLICE_BACKWARD,
    expand,
    permute,
    reshape,
    squeeze,
    t,
    to,
    transpose,
    unsqueeze,
)
from .coerce import operand
from .inplace import AS_STRIDED, AS_STRIDED_SCATTER, COPY
from .optable import ELEMENTWISE_JVP, KEPT, Grad, Op, declare
from .recording import apply
from .tensor import Tensor
from .vocabulary import NumpyMath

# This module uses torch's pow and sum; Python's built-ins of those names are not used here.

TANH_BACKWARD = declare(Op(
    "tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"), tanh_backward,
    (Grad(lambda F, g, s: F.tanh_backward(g, s.output), "grad * (1 - output**2)"),
     Grad(lambda F, g, s: g * (F.mul_scalar(s.output, -2.0) * s.grad_output), "grad * -2 * output * grad_output")),
    "grad_output * (1 - output**2)", jvp=ELEMENTWISE_JVP))
SIGMOID_BACKWARD = declare(Op(
    "sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"), sigmoid_backward,
    (Grad(lambda F, g, s: F.sigmoid_backward(g, s.output), "grad * (1 - output) * output"),
     Grad(lambda F, g, s: (g * s.grad_output) * (F.mul_scalar(s.output, -2.0) + 1),
          "grad * grad_output * (1 - 2 * output)")),
    "grad_output * (1 - output) * output", jvp=ELEMENTWISE_JVP))
THRESHOLD_BACKWARD = declare(Op(
    "threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"),
    lambda go, x: np.where(x <= 0, 0.0, go).astype(go.dtype),
    (Grad(lambda F, g, s: F.threshold_backward(g, s.self), "grad where self > 0"),
     Grad(lambda F, g, s: F.zeros_like(g), "0")), "grad_output where self > 0", jvp=ELEMENTWISE_JVP))
SGN = declare(Op("sgn", "SgnBackward0", ("self",), sign_kernel, (Grad(lambda F, g, s: F.zeros_like(g), "0"),),
                 "the sign (inside abs's backward)", jvp=ELEMENTWISE_JVP, integers=KEPT))
SUB_SCALAR = declare(Op("sub_scalar", "SubBackward1", ("self",), lambda x, *, other: x - other,
                        (Grad(lambda F, g, s: g, "grad"),), "self - other, a number (inside backward formulas)",
                        jvp=ELEMENTWISE_JVP))
SOFTMAX_BACKWARD = declare(Op(
    "softmax_backward_data", "SoftmaxBackwardDataBackward0", ("grad_output", "output"), fused.softmax_backward,
    (Grad(lambda F, g, s: F.softmax_backward(g, s.output, s.dim), "_softmax_backward_data(grad, output, dim)"),
     Grad(lambda F, g, s: s.grad_output * g - F.sum(s.output * s.grad_output, s.dim, True) * g
          - s.grad_output * F.sum(s.output * g, s.dim, True),
          "grad_output * grad - sum(output * grad_output, dim) * grad - grad_output * sum(output * grad, dim)")),
    "output * (grad_output - sum(grad_output * output, dim)), softmax's backward",
    jvp=lambda F, t, s: t.output * (s.grad_output - F.sum(s.grad_output * s.output, s.dim, True))
    + s.output * (t.grad_output - F.sum(t.grad_output * s.output + s.grad_output * t.output, s.dim, True))))
LOG_SOFTMAX_BACKWARD = declare(Op(
    "log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0", ("grad_output", "output"),
    fused.log_softmax_backward,
    (Grad(lambda F, g, s: g - F.sum(g * F.exp(s.output), s.dim, True), "grad - sum(grad * exp(output), dim)"),
     Grad(lambda F, g, s: -F.sum(s.grad_output, s.dim, True) * F.exp(s.output) * g,
          "-sum(grad_output, dim) * exp(output) * grad")),
    "grad_output - exp(output) * sum(grad_output, dim), log_softmax's backward",
    jvp=lambda F, t, s: t.grad_output - F.exp(s.output) * (t.output * F.sum(s.grad_output, s.dim, True)
                                                          + F.sum(t.grad_output, s.dim, True))))


def _mse_backward_grad_output(F: Any, g: Any, s: Any) -> Any:
    if s.reduction == "none":
        return F.mse_backward(g, s.self, s.target, s.reduction, s.count)
    return F.sum((s.self - s.target) * g, None, False) * fused.mse_norm(s.reduction, s.count)


MSE_BACKWARD = declare(Op(
    "mse_loss_backward", "MseLossBackwardBackward0", ("grad_output", "self", "target"), fused.mse_backward,
    (Grad(_mse_backward_grad_output, "sum(2 * (self - target) * grad) (/ numel for reduction='mean')"),
     Grad(lambda F, g, s: (g * s.grad_output) * fused.mse_norm(s.reduction, s.count),
          "2 * grad * grad_output (/ numel for reduction='mean')"),
     Grad(lambda F, g, s: (g * s.grad_output) * -fused.mse_norm(s.reduction, s.count),
          "-2 * grad * grad_output (/ numel for reduction='mean')")),
    "2 * (self - target) * grad_output (/ numel for reduction='mean'), mse_loss's backward",
    jvp=lambda F, t, s: fused.mse_backward(t.grad_output, s.self, s.target, s.reduction, s.count)
    + fused.mse_backward(s.grad_output, t.self, t.target, s.reduction, s.count)))
ADD_SCALAR = declare(Op("add_scalar", "AddBackward1", ("self",), lambda x, *, other: x + other,
                        (Grad(lambda F, g, s: g, "grad"),), "self + other, a number (inside backward formulas)",
                        jvp=ELEMENTWISE_JVP))
MUL_SCALAR = declare(Op("mul_scalar", "MulBackward1", ("self",), lambda x, *, other: x * other,
                        (Grad(lambda F, g, s: g * s.other, "grad * other"),),
                        "self * other, a number (inside backward formulas)", jvp=ELEMENTWISE_JVP))


def where(condition: np.ndarray, input: Any, other: Any) -> Tensor:
    """Elementwise choice by a fixed boolean mask (what backward formulas' masks do), recorded as WhereBackward0."""
    a, b = operand(input), operand(other)
    if not isinstance(a, Tensor):
        a = Tensor._make(np.asarray(a, dtype=b.dtype))
    return apply(WHERE, (a, b), {"condition": condition})




class TensorMath:
    """NumpyMath's vocabulary on Tensors, through recorded operations (for create_graph=True)."""

    records = True  # the formulas' results are tensors with a graph (create_graph=True)

    # ---- the executor's handling of values
    @staticmethod
    def fit(g: Tensor, shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
        if g.shape != shape:
            g = TensorMath.sum_to(g, shape)
        if g.dtype != dtype:
            g = to(g, dtype)
        return g

    @staticmethod
    def add_to(entry: list, g: Tensor) -> None:
        entry[0] = entry[0] + g

    @staticmethod
    def emitted(g: Tensor, grad_in: Any, earlier: list) -> tuple[Tensor, bool]:
        return g, False

    @staticmethod
    def retained(current: Tensor | None, g: Tensor) -> Tensor:
        return g if current is None else current + g

    @staticmethod
    def as_tensor(g: Tensor) -> Tensor:
        return g

    @staticmethod
    def of_tensor(t: Tensor) -> Tensor:
        return t

    @staticmethod
    def copy_grad(g: Tensor) -> Tensor:
        return apply(COPY, (0.0, g))  # copy_ into a new tensor (that needs no grad)

    # ---- the formulas' vocabulary
    exp = staticmethod(exp)
    sigmoid = staticmethod(sigmoid)
    sinh = staticmethod(sinh)
    cosh = staticmethod(cosh)
    log = staticmethod(log)
    sin = staticmethod(sin)
    cos = staticmethod(cos)
    sqrt = staticmethod(sqrt)
    tanh = staticmethod(tanh)
    erf = staticmethod(erf)
    sign = staticmethod(sign)
    matmul = staticmethod(matmul)
    mm = staticmethod(mm)
    mv = staticmethod(mv)
    bmm = staticmethod(bmm)
    pow = staticmethod(pow)
    where = staticmethod(where)
    permute = staticmethod(lambda x, dims: permute(x, dims))
    transpose = staticmethod(transpose)
    t = staticmethod(t)
    unsqueeze = staticmethod(unsqueeze)
    squeeze = staticmethod(lambda x, dim: squeeze(x, dim))
    reshape = staticmethod(lambda x, shape: reshape(x, shape))
    expand = staticmethod(lambda x, shape: expand(x, shape))
    index = staticmethod(getitem)
    cast = staticmethod(to)

    neg = staticmethod(operator.neg)
    mul = staticmethod(operator.mul)
    div = staticmethod(operator.truediv)

    @staticmethod
    def sin_backward(g: Tensor, x: Tensor) -> Tensor:
        return g * cos(x)

    @staticmethod
    def zeros_like(g: Tensor) -> Tensor:
        return zeros_like(g)

    log_number = NumpyMath.log_number

    inverse = staticmethod(inverse)
    @staticmethod
    def solve(a: Tensor, b: Tensor, left: bool) -> Tensor:
        from ..ops.decompositions import solve  # imported after this module

        return solve(a, b, left=left)
    diagonal = staticmethod(lambda g: diag(g))

    @staticmethod
    def diagonal_backward(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        if len(shape) != 2 or shape[0] != shape[1]:
            raise BadValueError("a second derivative through the diagonal of a non-square matrix is not supported",
                                reason="unsupported")
        return diag(g)

    @staticmethod
    def prod_others(x: Tensor, result: Tensor, dims: tuple[int, ...]) -> Tensor:
        """The product of the other elements, recorded: result / x away from zeros; with a zero, PyTorch's
        prod_safe_zeros_backward (exclusive running products from both ends), which stays differentiable."""
        from ..ops import cumulative  # imported after this module

        kept = kept_shape(tuple(x.shape), dims)
        if not (x._data == 0).any():
            return reshape(result, kept) / x
        order = (*(d for d in range(x.ndim) if d not in dims), *dims)
        moved = permute(x, order)
        lead = tuple(moved.shape)[:x.ndim - len(dims)]
        n = x.numel() // max(1, int(np.prod(lead)))
        flat, last = reshape(moved, (*lead, n)), len(lead)
        ones = Tensor._make(np.ones((*lead, 1), dtype=x.dtype))
        backwards = np.arange(n - 1, -1, -1)

        def exclusive(t: Tensor) -> Tensor:  # the product of the elements before each one
            return cumulative.cumprod(cat([ones, getitem(t, (Ellipsis, slice(0, n - 1)))], last), last)

        right = getitem(exclusive(getitem(flat, (Ellipsis, backwards))), (Ellipsis, backwards))
        others = reshape(exclusive(flat) * right, tuple(moved.shape))
        return permute(others, tuple(int(i) for i in np.argsort(order)))

    @staticmethod
    def reverse_cumsum(g: Tensor, dim: int) -> Tensor:
        from ..ops import cumulative  # imported after this module

        if g.ndim == 0:
            return g
        return sum(g, (dim,), True) - cumulative.cumsum(g, dim) + g

    @staticmethod
    def cumprod_backward(g: Tensor, x: Tensor, result: Tensor, dim: int) -> Tensor:
        """Recorded: reverse_cumsum(grad * result) / self without zeros; with zeros, PyTorch's O(n**2) form that
        stays differentiable: the gradient at k is sum over j >= k of grad[j] * prod(self[i], i <= j, i != k)."""
        from ..ops import cumulative  # imported after this module

        if x.ndim == 0 or x.shape[dim] <= 1:
            return g
        if not (x._data == 0).any():
            return TensorMath.reverse_cumsum(g * result, dim) / x
        n = x.shape[dim]

        def part(t: Tensor, start: int, stop: int) -> Tensor:
            return getitem(t, (slice(None),) * dim + (slice(start, stop),))

        ones = Tensor._make(np.ones(kept_shape(tuple(x.shape), (dim,)), dtype=x.dtype))
        pieces = []
        for k in range(n):  # a loop over one dim's positions (no recursion)
            omitted = cat([ones, cumulative.cumprod(part(x, k + 1, n), dim)], dim) if k + 1 < n else ones
            if k:
                omitted = omitted * prod(part(x, 0, k), dim, True)
            pieces.append(sum(part(g, k, n) * omitted, (dim,), False))
        return stack(pieces, dim)

    @staticmethod
    def gather(x: Tensor, dim: int, index: np.ndarray) -> Tensor:
        return apply(GATHER, (x,), {"dim": dim, "index": index})

    @staticmethod
    def scatter_add(shape: tuple[int, ...], dim: int, index: np.ndarray, src: Tensor) -> Tensor:
        zeros = Tensor._make(np.zeros(shape, dtype=src.dtype))
        return apply(SCATTER_ADD, (zeros, src), {"dim": dim, "index": index})

    @staticmethod
    def index_put_add(shape: tuple[int, ...], where: tuple, values: Tensor) -> Tensor:
        zeros = Tensor._make(np.zeros(shape, dtype=values.dtype))
        return apply(INDEX_PUT_ADD, (zeros, values), {"where": where})

    @staticmethod
    def as_strided_backward(g: Tensor, shape: tuple[int, ...], index: np.ndarray) -> Tensor:
        return apply(AS_STRIDED_SCATTER, (g,), {"shape": shape, "index": index})

    @staticmethod
    def as_strided(g: Tensor, index: np.ndarray) -> Tensor:
        return apply(AS_STRIDED, (g,), {"index": index})

    @staticmethod
    def mul_sum_to(a: Tensor, b: Any, shape: tuple[int, ...]) -> Tensor:
        return TensorMath.sum_to(a * b, shape)

    @staticmethod
    def tanh_backward(g: Tensor, result: Tensor) -> Tensor:
        return apply(TANH_BACKWARD, (g, result))

    @staticmethod
    def sigmoid_backward(g: Tensor, result: Tensor) -> Tensor:
        return apply(SIGMOID_BACKWARD, (g, result))

    @staticmethod
    def threshold_backward(g: Tensor, x: Tensor) -> Tensor:
        return apply(THRESHOLD_BACKWARD, (g, x))

    @staticmethod
    def sgn(x: Tensor) -> Tensor:
        return apply(SGN, (x,))

    @staticmethod
    def mul_scalar(x: Tensor, number: float) -> Tensor:
        return apply(MUL_SCALAR, (x,), {"other": number})

    @staticmethod
    def sub_scalar(x: Tensor, number: float) -> Tensor:
        return apply(SUB_SCALAR, (x,), {"other": number})

    @staticmethod
    def softmax_backward(g: Tensor, result: Tensor, dim: Any) -> Tensor:
        return apply(SOFTMAX_BACKWARD, (g, result), {"dim": dim})

    @staticmethod
    def log_softmax_backward(g: Tensor, result: Tensor, dim: Any) -> Tensor:
        return apply(LOG_SOFTMAX_BACKWARD, (g, result), {"dim": dim})

    @staticmethod
    def mse_backward(g: Tensor, a: Tensor, b: Tensor, reduction: str, count: int) -> Tensor:
        return apply(MSE_BACKWARD, (g, a, b), {"reduction": reduction, "count": count})

    @staticmethod
    def div_scalar(x: Tensor, number: float) -> Tensor:
        from ..nn import classification_losses as classification  # imported after this module

        return apply(classification.DIV_SCALAR, (x,), {"other": number})

    @staticmethod
    def nll_loss(g: Tensor, coefficients: Any, reduction: str) -> Tensor:
        from ..nn import classification_losses as classification  # imported after this module

        return apply(classification.NLL_LOSS, (g,), {"coefficients": coefficients, "reduction": reduction})

    @staticmethod
    def nll_backward(g: Tensor, x: Tensor, coefficients: Any, reduction: str, shape: Any) -> Tensor:
        from ..nn import loss_backwards as lossgrads  # imported after this module

        return apply(lossgrads.NLL_BACKWARD, (g, x),
                     {"coefficients": coefficients, "reduction": reduction, "shape": shape})

    @staticmethod
    def smooth_l1_backward(g: Tensor, a: Tensor, b: Tensor, reduction: str, beta: float, count: int) -> Tensor:
        from ..nn import loss_backwards as lossgrads  # imported after this module

        return apply(lossgrads.SMOOTH_L1_BACKWARD, (g, a, b),
                     {"reduction": reduction, "beta": beta, "count": count})

    @staticmethod
    def huber_backward(g: Tensor, a: Tensor, b: Tensor, reduction: str, delta: float, count: int) -> Tensor:
        from ..nn import loss_backwards as lossgrads  # imported after this module

        return apply(lossgrads.HUBER_BACKWARD, (g, a, b),
                     {"reduction": reduction, "delta": delta, "count": count})

    @staticmethod
    def trilinear(a: Tensor, b: Tensor, c: Tensor, spec: str) -> Tensor:
        from ..nn import linear_functions as layers  # imported after this module

        return apply(layers.TRILINEAR, (a, b, c), {"spec": spec})

    @staticmethod
    def pow_backward(g: Tensor, x: Tensor, exponent: float) -> Tensor:
        # PyTorch's grad * (exponent * self.pow(exponent - 1)): a Tensor times a Scalar is MulBackward1
        return g * apply(MUL_SCALAR, (pow(x, exponent - 1),), {"other": exponent})

    @staticmethod
    def sqrt_backward(g: Tensor, result: Tensor) -> Tensor:
        return g / TensorMath.mul_scalar(result, 2.0)

    @staticmethod
    def tan_backward(g: Tensor, result: Tensor) -> Tensor:
        return g * apply(ADD_SCALAR, (pow(result, 2),), {"other": 1.0})

    @staticmethod
    def reciprocal_backward(g: Tensor, result: Tensor) -> Tensor:
        return (-g) * (result * result)

    @staticmethod
    def div_other_backward(g: Tensor, a: Tensor, b: Tensor) -> Tensor:
        return (-g) * ((a / b) / b)

    @staticmethod
    def maximum_backward(g: Tensor, a: np.ndarray, b: np.ndarray) -> Tensor:
        """PyTorch's `at::where(self == other, grad / 2, grad).masked_fill_(self < other, 0)`: WhereBackward0 over
        DivBackward1, then MaskedFillBackward0."""
        from ..nn import classification_losses as classification  # imported after this module

        chosen = where(a == b, apply(classification.DIV_SCALAR, (g,), {"other": 2.0}), g)
        return apply(MASKED_FILL, (chosen,), {"mask": a < b, "value": 0.0})

    @staticmethod
    def rounded_div(a: Tensor, b: Tensor, mode: str) -> Tensor:
        """Recorded (its derivative is 0), so that a formula using it still depends on a and b, as PyTorch's."""
        return div(a, b, rounding_mode=mode)

    @staticmethod
    def values(x: Any) -> Any:
        return x._data if isinstance(x, Tensor) else x

    @staticmethod
    def sum(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
        return sum(x, dims, keepdim)

    @staticmethod
    def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        """PyTorch's at::sum_to: to a 0-d shape the whole sum (SumBackward0); else a sum over the broadcast
        dims kept (SumBackward1), then a view when leading dims went (ViewBackward0)."""
        if g.shape == shape:
            return g
        if shape == ():
            return sum(g)
        axes = summed_axes(tuple(g.shape), shape)
        if axes is None:
            return reshape(g, shape)
        reduced = sum(g, axes, True) if axes else g
        return reshape(reduced, shape) if g.ndim != len(shape) else reduced

    @staticmethod
    def select_backward(g: Tensor, shape: tuple[int, ...], dim: int, index: int) -> Tensor:
        return apply(SELECT_BACKWARD, (g,), {"shape": shape, "dim": dim, "index": index})

    @staticmethod
    def slice_backward(g: Tensor, shape: tuple[int, ...], dim: int, start: int, stop: int, step: int) -> Tensor:
        return apply(SLICE_BACKWARD, (g,),
                     {"shape": shape, "dim": dim, "start": start, "stop": stop, "step": step})
