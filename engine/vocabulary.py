"""The vocabulary the op table's backward formulas are written in (`F`), twice: `NumpyMath` on plain
arrays for an ordinary backward pass, and `TensorMath` on Tensors through recorded operations, so that a
backward pass with create_graph=True is itself a graph that can be differentiated again."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import allocator, calculus, parallel
from . import functions as fn
from .arrays import (
    as_strided_scatter,
    fresh,
    kept_shape,
    mul_sum_to,
    multiply,
    power,
    sigmoid_backward,
    sign,
    slice_scatter,
    sum_to,
    summed_axes,
    swapaxes,
    tanh_backward,
)
from .constructors import zeros_like
from .errors import BadValueError
from .formulas import prod_others
from .indexing import getitem
from .ops import OPS
from .recording import apply
from .tensor import Tensor


class NumpyMath:
    """The formula vocabulary on plain numpy arrays (no graph is recorded).

    The *_backward helpers are PyTorch's backward formulas of the same names computed in place on one
    fresh array: numpy does not reuse a temporary combined with a Python number (`1 - r*r` allocates
    twice), and on large tensors every fresh array costs its page faults.
    """

    records = False  # the formulas' results are plain arrays, not recorded tensors

    # sum_to(a * b, shape): when broadcasting made a * b much larger than shape, a contraction (einsum,
    # BLAS) that never builds the product; the gradient of a broadcast multiplication.
    mul_sum_to = staticmethod(mul_sum_to)

    tanh_backward = staticmethod(tanh_backward)  # g * (1 - result**2), in place on one fresh array
    sigmoid_backward = staticmethod(sigmoid_backward)  # g * (1 - result) * result
    sgn = staticmethod(sign)

    @staticmethod
    def threshold_backward(g: Any, x: Any) -> np.ndarray:
        """g where x > 0 (and where x is nan), else 0."""
        return np.where(x <= 0, 0.0, g)

    @staticmethod
    def mul_scalar(x: Any, number: float) -> np.ndarray:
        return x * number

    # Written so numpy reuses its temporaries; each is bit-for-bit PyTorch's formula (negation is exact,
    # products commute). TensorMath records them with PyTorch's structure (and so its node names).
    @staticmethod
    def tan_backward(g: Any, result: Any) -> np.ndarray:
        """g * (1 + result**2)."""
        return g * (1 + result * result)

    @staticmethod
    def reciprocal_backward(g: Any, result: Any) -> np.ndarray:
        """-g * result**2."""
        return -((result * result) * g)

    @staticmethod
    def div_other_backward(g: Any, a: Any, b: Any) -> np.ndarray:
        """-g * ((a / b) / b)."""
        return -(((a / b) / b) * g)

    @staticmethod
    def pow_backward(g: Any, x: Any, exponent: float) -> np.ndarray:
        """g * (exponent * x**(exponent - 1))."""
        if (exponent == 2 or exponent == 3) and type(x) is np.ndarray and x.size >= parallel.THRESHOLD:
            out = parallel.POW_BACKWARD[exponent](exponent, g, x)  # one pass, split (parallel.py)
            if out is not None:
                return out
        t = fresh(power(x, exponent - 1))
        if t.size >= parallel.THRESHOLD and parallel.SCALE_TWICE.into(t, exponent, g):  # split (parallel.py)
            return t
        np.multiply(exponent, t, out=t)
        return np.multiply(g, t, out=t)

    @staticmethod
    def sqrt_backward(g: Any, result: Any) -> np.ndarray:
        """g / (2 * result)."""
        t = fresh(np.multiply(2, result))
        return np.divide(g, t, out=t)

    # Elementwise functions and products, split over the cores on large arrays (parallel.py)
    exp = staticmethod(parallel.splitting(parallel.unary(np.exp), np.exp))
    sinh = staticmethod(parallel.splitting(parallel.unary(np.sinh), np.sinh))
    cosh = staticmethod(parallel.splitting(parallel.unary(np.cosh), np.cosh))
    log = staticmethod(parallel.splitting(parallel.unary(np.log), np.log))
    sin = staticmethod(parallel.splitting(parallel.unary(np.sin), np.sin))
    cos = staticmethod(parallel.splitting(parallel.unary(np.cos), np.cos))
    sqrt = staticmethod(parallel.splitting(parallel.unary(np.sqrt), np.sqrt))
    mul = staticmethod(multiply)
    div = staticmethod(parallel.splitting(parallel.DIVIDE, np.divide))

    @staticmethod
    def sin_backward(g: Any, x: Any) -> Any:
        """g * cos(x), as one split kernel on large arrays."""
        out = parallel.SIN_BACKWARD(g, x) if type(x) is np.ndarray and x.size >= parallel.THRESHOLD else None
        return g * NumpyMath.cos(x) if out is None else out
    sign = staticmethod(sign)
    matmul = staticmethod(allocator.matmul)
    pow = staticmethod(power)
    sum_to = staticmethod(sum_to)

    @staticmethod
    def cast(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
        return x.astype(dtype)

    @staticmethod
    def values(x: Any) -> Any:
        """The raw numbers of a saved value, for masks that are not differentiated."""
        return x

    @staticmethod
    def where(mask: np.ndarray, a: Any, b: Any) -> np.ndarray:
        return np.where(mask, a, b)

    @staticmethod
    def sum(x: np.ndarray, dims: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
        return np.sum(x, axis=dims, keepdims=keepdim)

    @staticmethod
    def expand(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return np.broadcast_to(x, shape)

    @staticmethod
    def reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return x.reshape(shape)

    @staticmethod
    def unsqueeze(x: np.ndarray, dim: int) -> np.ndarray:
        return np.expand_dims(x, dim)

    @staticmethod
    def transpose(x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
        return swapaxes(x, dim0, dim1)

    @staticmethod
    def permute(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        return np.transpose(x, dims)

    @staticmethod
    def select_backward(g: np.ndarray, shape: tuple[int, ...], dim: int, index: int) -> np.ndarray:
        return slice_scatter(g, shape, (slice(None),) * dim + (index,))

    @staticmethod
    def slice_backward(g: np.ndarray, shape: tuple[int, ...], dim: int, start: int, stop: int,
                       step: int) -> np.ndarray:
        return slice_scatter(g, shape, (slice(None),) * dim + (slice(start, stop, step),))

    @staticmethod
    def index(g: np.ndarray, where: tuple) -> np.ndarray:
        return g[where]

    zeros_like = staticmethod(np.zeros_like)

    @staticmethod
    def log_number(base: float) -> float:
        """The log of a Python number (a base): -inf at 0, nan below, as for a tensor."""
        return math.log(base) if base > 0 else (-math.inf if base == 0 else math.nan)
    inverse = staticmethod(allocator.inverse)

    @staticmethod
    def diagonal(g: np.ndarray) -> np.ndarray:
        return np.diagonal(g).copy()

    @staticmethod
    def diagonal_backward(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        out = np.zeros(shape, dtype=g.dtype)
        np.fill_diagonal(out, g)
        return out

    @staticmethod
    def prod_others(x: np.ndarray, result: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        return prod_others(x, dims)

    @staticmethod
    def reverse_cumsum(g: np.ndarray, dim: int) -> np.ndarray:
        """The sum of g from each position to the end along dim."""
        return np.flip(np.cumsum(np.flip(g, dim), axis=dim), dim)

    as_strided_backward = staticmethod(as_strided_scatter)

    @staticmethod
    def as_strided(g: np.ndarray, index: np.ndarray) -> np.ndarray:
        return g.reshape(-1)[index]


class TensorMath:
    """NumpyMath's vocabulary on Tensors, through recorded operations (for create_graph=True)."""

    records = True  # the formulas' results are tensors with a graph (create_graph=True)

    exp = staticmethod(fn.exp)

    sinh = staticmethod(calculus.sinh)
    cosh = staticmethod(calculus.cosh)
    log = staticmethod(fn.log)
    sin = staticmethod(fn.sin)
    cos = staticmethod(fn.cos)
    sqrt = staticmethod(fn.sqrt)
    sign = staticmethod(fn.sign)
    matmul = staticmethod(fn.matmul)
    pow = staticmethod(fn.pow)
    where = staticmethod(fn._where)
    permute = staticmethod(lambda x, dims: fn.permute(x, dims))
    transpose = staticmethod(fn.transpose)
    unsqueeze = staticmethod(fn.unsqueeze)
    reshape = staticmethod(lambda x, shape: fn.reshape(x, shape))
    expand = staticmethod(lambda x, shape: fn.expand(x, shape))
    index = staticmethod(getitem)
    cast = staticmethod(fn.to)

    mul = staticmethod(operator.mul)
    div = staticmethod(operator.truediv)

    @staticmethod
    def sin_backward(g: Tensor, x: Tensor) -> Tensor:
        return g * fn.cos(x)

    @staticmethod
    def zeros_like(g: Tensor) -> Tensor:
        return zeros_like(g)

    log_number = NumpyMath.log_number

    inverse = staticmethod(calculus.inverse)
    diagonal = staticmethod(calculus.diag)

    @staticmethod
    def diagonal_backward(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        if len(shape) != 2 or shape[0] != shape[1]:
            raise BadValueError("a second derivative through the diagonal of a non-square matrix is not supported",
                                reason="unsupported")
        return calculus.diag(g)

    @staticmethod
    def prod_others(x: Tensor, result: Tensor, dims: tuple[int, ...]) -> Tensor:
        """The product of the other elements, recorded: result / x away from zeros; at a group's only zero,
        the product of the rest; 0 where the group has two zeros or more (PyTorch's prod_backward)."""
        shape = tuple(x.shape)
        kept = kept_shape(shape, dims)
        zero = x.data == 0
        if not zero.any():
            return fn.reshape(result, kept) / x
        zeros = np.broadcast_to(zero.sum(axis=dims, keepdims=True), shape)
        nonzero = fn._where(zero, 1.0, x)
        rest = fn.expand(fn.reshape(calculus.prod(nonzero, dims if len(dims) != x.ndim else None, True), kept),
                         shape)
        at_zero = fn._where(zeros == 1, rest, 0.0)
        return fn._where(zero, at_zero, fn.expand(fn.reshape(result, kept), shape) / nonzero)

    @staticmethod
    def reverse_cumsum(g: Tensor, dim: int) -> Tensor:
        return fn.sum(g, (dim,), True) - calculus.cumsum(g, dim) + g

    @staticmethod
    def as_strided_backward(g: Tensor, shape: tuple[int, ...], index: np.ndarray) -> Tensor:
        return apply(OPS["as_strided_scatter"], (g,), {"shape": shape, "index": index})

    @staticmethod
    def as_strided(g: Tensor, index: np.ndarray) -> Tensor:
        return apply(OPS["as_strided"], (g,), {"index": index})

    @staticmethod
    def mul_sum_to(a: Tensor, b: Any, shape: tuple[int, ...]) -> Tensor:
        return TensorMath.sum_to(a * b, shape)

    @staticmethod
    def tanh_backward(g: Tensor, result: Tensor) -> Tensor:
        return apply(OPS["tanh_backward"], (g, result))

    @staticmethod
    def sigmoid_backward(g: Tensor, result: Tensor) -> Tensor:
        return apply(OPS["sigmoid_backward"], (g, result))

    @staticmethod
    def threshold_backward(g: Tensor, x: Tensor) -> Tensor:
        return apply(OPS["threshold_backward"], (g, x))

    @staticmethod
    def sgn(x: Tensor) -> Tensor:
        return apply(OPS["sgn"], (x,))

    @staticmethod
    def mul_scalar(x: Tensor, number: float) -> Tensor:
        return apply(OPS["mul_scalar"], (x,), {"other": number})

    @staticmethod
    def pow_backward(g: Tensor, x: Tensor, exponent: float) -> Tensor:
        # PyTorch's grad * (exponent * self.pow(exponent - 1)): a Tensor times a Scalar is MulBackward1
        return g * apply(OPS["mul_scalar"], (fn.pow(x, exponent - 1),), {"other": exponent})

    @staticmethod
    def sqrt_backward(g: Tensor, result: Tensor) -> Tensor:
        return g / TensorMath.mul_scalar(result, 2.0)

    @staticmethod
    def tan_backward(g: Tensor, result: Tensor) -> Tensor:
        return g * apply(OPS["add_scalar"], (fn.pow(result, 2),), {"other": 1.0})

    @staticmethod
    def reciprocal_backward(g: Tensor, result: Tensor) -> Tensor:
        return (-g) * (result * result)

    @staticmethod
    def div_other_backward(g: Tensor, a: Tensor, b: Tensor) -> Tensor:
        return (-g) * ((a / b) / b)

    @staticmethod
    def values(x: Any) -> Any:
        return x._data if isinstance(x, Tensor) else x

    @staticmethod
    def sum(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
        return fn.sum(x, dims, keepdim)

    @staticmethod
    def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        if g.shape == shape:
            return g
        axes = summed_axes(tuple(g.shape), shape)
        if axes is None:
            return fn.reshape(g, shape)
        reduced = fn.sum(g, axes, True) if axes else g
        return fn.reshape(reduced, shape) if g.ndim != len(shape) else reduced

    @staticmethod
    def select_backward(g: Tensor, shape: tuple[int, ...], dim: int, index: int) -> Tensor:
        return apply(OPS["select_backward"], (g,), {"shape": shape, "dim": dim, "index": index})

    @staticmethod
    def slice_backward(g: Tensor, shape: tuple[int, ...], dim: int, start: int, stop: int, step: int) -> Tensor:
        return apply(OPS["slice_backward"], (g,),
                     {"shape": shape, "dim": dim, "start": start, "stop": stop, "step": step})
