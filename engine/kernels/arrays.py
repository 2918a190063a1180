"""numpy helpers of the engine: memory layout as PyTorch gives it, powers as PyTorch's kernel computes
them, and undoing broadcasting (`sum_to`, with a contraction when the product would be large)."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import parallel
from .summation import torch_sum


# Memory layout matters to the graph: reshape records a view when the layout allows and a copy
# otherwise, so results keep the layout PyTorch gives them. Copies keep a dense input's layout
# (PyTorch's preserve_format) and are C-ordered otherwise; reductions over dims, softmax and
# number ** tensor are always C-ordered in PyTorch, where numpy would follow the input's order.
def c_order(x: Any) -> np.ndarray:
    """x as a C-ordered array (a 0-d result stays 0-d, unlike with np.ascontiguousarray)."""
    return np.asarray(x, order="C")


def memory_order(x: np.ndarray) -> str:
    """'K' when x is dense and non-overlapping (every element once, no gaps), else 'C'."""
    expected = x.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(x.strides, x.shape) if n != 1):
        if stride != expected:
            return "C"
        expected *= size
    return "K"


def elementwise_layout(out: np.ndarray, inputs: Any) -> np.ndarray:
    """`out` laid out in memory as PyTorch lays out the result of an elementwise op on `inputs`.

    numpy settles inputs with conflicting layouts (x.T + y) in favour of C order; PyTorch's
    TensorIterator keeps a layout shared by all inputs, and otherwise orders the dims by the strides
    of the first input that orders them (broadcast dims have no say).
    """
    for x in inputs:  # the common case first: C-ordered inputs give a C-ordered result in both
        if type(x) is np.ndarray and not x.flags.c_contiguous:
            break
    else:
        return out
    arrays = [x for x in inputs if isinstance(x, np.ndarray) and x.ndim]
    shape, ndim = out.shape, out.ndim
    first = arrays[0]
    if all(x.shape == shape and x.strides == first.strides for x in arrays) and memory_order(first) == "K":
        order = sorted(range(ndim), key=lambda d: -first.strides[d])  # outermost dim first
    else:
        strides = []
        for x in arrays:
            lead = ndim - x.ndim
            strides.append([0] * lead + [0 if n == 1 and shape[lead + i] != 1 else abs(st)
                                         for i, (n, st) in enumerate(zip(x.shape, x.strides))])

        def should_swap(d0: int, d1: int) -> int:
            for st in strides:
                if st[d0] == 0 or st[d1] == 0:
                    continue
                if st[d0] != st[d1]:
                    return -1 if st[d0] < st[d1] else 1
                if shape[d0] > shape[d1]:
                    return 1
            return 0

        perm = list(range(ndim - 1, -1, -1))  # innermost dim first; an insertion sort as TensorIterator's
        for i in range(1, ndim):
            d1 = i
            for d0 in range(i - 1, -1, -1):
                comparison = should_swap(perm[d0], perm[d1])
                if comparison > 0:
                    perm[d0], perm[d1] = perm[d1], perm[d0]
                    d1 = d0
                elif comparison < 0:
                    break
        order = perm[::-1]
    if out.transpose(order).flags.c_contiguous:
        return out
    relaid = np.empty([shape[d] for d in order], dtype=out.dtype).transpose(np.argsort(order))
    relaid[...] = out
    return relaid


def power(x: Any, exponent: float) -> Any:
    """x ** exponent with small integer exponents by multiplication (what PyTorch's kernel does)."""
    if exponent == 2 or exponent == 3:
        if type(x) is np.ndarray and x.size >= parallel.CHEAP_THRESHOLD:  # split over the cores (parallel.py)
            out = (parallel.SQUARE if exponent == 2 else parallel.CUBE)(x)
            if out is not None:
                return out
        return x * x if exponent == 2 else x * x * x
    if exponent == 1:
        return x.copy(order=memory_order(x)) if isinstance(x, np.ndarray) else x
    if exponent == 0.5:
        return np.sqrt(x)
    if exponent == -0.5:  # PyTorch's rsqrt: (-0.0) ** -0.5 is -inf
        return 1.0 / np.sqrt(x)
    if exponent == -1:
        return 1.0 / x
    if exponent == -2:
        return 1.0 / (x * x)
    if exponent == 0:
        return np.ones_like(x, order=memory_order(x)) if isinstance(x, np.ndarray) else np.ones_like(x)
    return np.power(x, exponent)


def fresh(x: Any) -> np.ndarray:
    """x itself if it is an array just made (so it may be overwritten), else a copy."""
    return x if isinstance(x, np.ndarray) and parallel.owns_memory(x) and x.flags.writeable else np.array(x)


def tanh_backward(g: Any, result: Any) -> np.ndarray:
    """g * (1 - result**2), computed in place on one fresh array (numpy does not reuse a temporary
    combined with a Python number: `1 - r*r` would allocate twice); split over the cores when large."""
    if type(result) is np.ndarray and result.size >= parallel.THRESHOLD:
        out = parallel.TANH_BACKWARD(g, result)
        if out is not None:
            return out
    t = fresh(result * result)
    np.subtract(1, t, out=t)
    return np.multiply(g, t, out=t)


def sigmoid_backward(g: Any, result: Any) -> np.ndarray:
    """g * (1 - result) * result, in place on one fresh array (split over the cores when large)."""
    if type(result) is np.ndarray and result.size >= parallel.THRESHOLD:
        out = parallel.SIGMOID_BACKWARD(g, result)
        if out is not None:
            return out
    t = fresh(np.subtract(1, result))
    np.multiply(g, t, out=t)
    return np.multiply(t, result, out=t)


_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def erf(x: Any) -> np.ndarray:
    """The error function, elementwise (math.erf: numpy has none), in x's dtype."""
    x = np.asarray(x)
    return np.asarray(_ERF(x), dtype=x.dtype if x.dtype.kind == "f" else np.float64)


def erfc(x: Any) -> np.ndarray:
    """1 - erf(x), elementwise, accurate where erf(x) is near 1."""
    x = np.asarray(x)
    return np.asarray(_ERFC(x), dtype=x.dtype if x.dtype.kind == "f" else np.float64)


def remainder(a: Any, b: Any) -> Any:
    """PyTorch's remainder: fmod(a, b), plus b where it is nonzero and its sign differs from b's (the sign of b,
    as Python's %; 0.0 % -1 is 0.0 where numpy's remainder gives -0.0)."""
    with np.errstate(all="ignore"):
        mod = np.fmod(a, b)
        return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod).astype(np.result_type(mod))


def sign(x: Any) -> np.ndarray:
    """-1, 0 or 1, and 0 for nan (PyTorch's sign; numpy's gives nan); a bool is its own sign."""
    if getattr(x, "dtype", None) == np.bool_:
        return np.array(x, copy=True)
    out = np.asarray(np.sign(x))
    if out.dtype.kind == "f":
        nan = np.isnan(out)
        if nan.any():
            out = np.where(nan, 0.0, out).astype(out.dtype)
    return out


def swapaxes(x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
    """np.swapaxes, also for a 0-d array (PyTorch transposes it to itself)."""
    return np.swapaxes(x, dim0, dim1) if x.ndim else x[...]


def summed_axes(shape_from: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """The axes to sum (keeping dims) to bring a broadcast gradient of `shape_from` back to `shape`, then
    reshaped to it; None when `shape_from` has fewer dims (an assignment dropped leading 1-sized dims of the
    value: a reshape alone). The one place broadcasting is undone, for arrays and tensors alike."""
    lead = len(shape_from) - len(shape)
    if lead < 0:
        return None
    return tuple(range(lead)) + tuple(lead + i for i, size in enumerate(shape)
                                      if size == 1 and shape_from[lead + i] != 1)


def sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum a broadcast gradient back down to `shape`."""
    if g.shape == shape:
        return g
    axes = summed_axes(g.shape, shape)
    if axes is None:
        return g.reshape(shape)
    reduced = torch_sum(g, axes, keepdims=True) if axes else g  # PyTorch's sum_to: its sum, in its order
    return reduced.reshape(shape) if g.ndim != len(shape) else reduced


def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a reduction over `dims` with keepdim=True."""
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def slice_scatter(g: np.ndarray, shape: tuple[int, ...], where: tuple) -> np.ndarray:
    out = np.zeros(shape, dtype=g.dtype)
    out[where] = g
    return out


# ---------------------------------------------------------------------------- arithmetic of one number
# numpy's ufunc machinery costs a microsecond or two per call, far more than the arithmetic of a 0-d array.
# `on_numbers` computes + - * / of a 0-d float array and a number on Python floats: in float64 the same IEEE
# operation; in float32, numpy first rounds a Python number to float32, and + - * / of two float32 values
# computed in float64 (53 bits, over 2 * 24 + 2) and rounded to float32 give the correctly rounded float32
# result. Results that are not normal numbers or zeros, and division by zero, are left to numpy (its
# warnings, overflow and subnormals).
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_AS_FLOAT32: dict[float, float] = {}  # Python floats rounded to float32 as numpy rounds them (a loop meets few)
EXACT_INT = 1 << 24  # an int up to this size is the same number in float32 and float64
_NORMAL32 = (1.1754943508222875e-38, 3.4028234663852886e38)  # the smallest and largest normal float32
_NORMAL64 = (2.2250738585072014e-308, 1.7976931348623157e308)


def as_operand(number: float, dtype: np.dtype) -> float:
    """A Python float as numpy uses it with a tensor of dtype (float32 or float64): rounded to float32 for float32."""
    if dtype is _F64 or not number:  # (a zero is itself; and 0.0 and -0.0 are one key of a dict)
        return number
    rounded = _AS_FLOAT32.get(number)
    if rounded is None:
        if len(_AS_FLOAT32) > 4096:
            _AS_FLOAT32.clear()
        with np.errstate(all="ignore"):
            rounded = _AS_FLOAT32[number] = float(np.float32(number))
    return rounded


def on_numbers(fn: Any, x: float, y: float, dtype: np.dtype) -> np.ndarray | None:
    """fn(x, y) (operator.add, sub, mul, truediv) of two numbers of dtype (float32 or float64, as as_operand
    gives them) as numpy's 0-d result in dtype, or None where numpy's own computation must decide."""
    try:
        value = fn(x, y)
    except ZeroDivisionError:
        return None
    smallest, largest = _NORMAL32 if dtype is _F32 else _NORMAL64  # (a dtype's hash is not cheap)
    if not smallest <= abs(value) <= largest and value != 0:  # (a nan fails both)
        return None
    return np.asarray(value, dtype)


def number_of(b: Any, dtype: np.dtype) -> float | None:
    """A Python float or a small int as the float numpy computes with beside a 0-d array of dtype; None otherwise."""
    if type(b) is float:
        return as_operand(b, dtype)
    if type(b) is int and -EXACT_INT <= b <= EXACT_INT:
        return float(b)
    return None


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
CONTRACT_AT = 1 << 16  # elements of the broadcast product from which a contraction beats building it


def multiply(a: Any, b: Any) -> Any:
    """a * b, split over the cores when large (parallel.py)."""
    if (type(b) is np.ndarray and b.size >= parallel.THRESHOLD) or (type(a) is np.ndarray
                                                                    and a.size >= parallel.THRESHOLD):
        out = parallel.MULTIPLY(a, b)
        if out is not None:
            return out
    return a * b


def mul_sum_to(a: Any, b: Any, shape: tuple[int, ...] | None) -> Any:
    """sum_to(a * b, shape), by a contraction when the broadcast product would be much larger than shape."""
    if type(b) is not np.ndarray:  # a Python number: nothing broadcasts (the common scalar case, kept cheap)
        if type(a) is np.ndarray and not a.shape and (a.dtype is _F32 or a.dtype is _F64):
            y = number_of(b, a.dtype)
            out = None if y is None else on_numbers(operator.mul, float(a), y, a.dtype)
            if out is not None:
                return out
        return multiply(a, b) if type(a) is np.ndarray and a.size >= parallel.THRESHOLD else a * b
    sa, sb = a.shape, b.shape
    if sa == shape and (sb == sa or sb == ()):
        return multiply(a, b)
    product_shape = sa if sb == sa or sb == () else np.broadcast_shapes(sa, sb)
    if product_shape == tuple(shape):
        return multiply(a, b)
    full, target = math.prod(product_shape), math.prod(shape)
    if full < CONTRACT_AT or full < 4 * target or len(product_shape) > len(_LETTERS):
        return sum_to(a * b, tuple(shape))
    n, lead = len(product_shape), len(product_shape) - len(shape)
    kept = [k for k in range(n) if k >= lead and (shape[k - lead] != 1 or product_shape[k] == 1)]

    def operand(x: Any) -> tuple[str, np.ndarray]:
        # Axes that broadcast (size 1, or stride 0 as in an expanded gradient) carry no letter: the
        # contraction then works on the real data, never on a materialized broadcast.
        x = np.asarray(x)
        offset = n - x.ndim
        axes = [k for k in range(x.ndim) if x.shape[k] != 1 and x.strides[k] != 0]
        index = tuple(slice(None) if k in axes else 0 for k in range(x.ndim))
        return "".join(_LETTERS[offset + k] for k in axes), x[index]

    (sa, xa), (sb, xb) = operand(a), operand(b)
    present = [k for k in kept if _LETTERS[k] in sa or _LETTERS[k] in sb]
    reduced = np.einsum(f"{sa},{sb}->{''.join(_LETTERS[k] for k in present)}", xa, xb, optimize=True)
    # A summed axis along which neither operand varies adds up equal terms: multiply by its length.
    repeats = math.prod(product_shape[k] for k in range(n)
                        if k not in kept and _LETTERS[k] not in sa and _LETTERS[k] not in sb)
    if repeats != 1:
        reduced = reduced * repeats
    # Kept axes that no operand varies along: the sum is the same for every position on them.
    kept_shape = [product_shape[k] if k in present else 1 for k in kept]
    reduced = np.asarray(reduced).reshape(kept_shape)
    full_kept = [product_shape[k] for k in kept]
    return np.array(np.broadcast_to(reduced, full_kept)).reshape(shape)


def as_strided_scatter(g: Any, shape: tuple[int, ...], index: np.ndarray) -> np.ndarray:
    """Zeros of `shape` with g added at the view's positions `index` (overlapping positions add up)."""
    out = np.zeros(math.prod(shape), dtype=g.dtype)
    np.add.at(out, index.reshape(-1), np.broadcast_to(g, index.shape).reshape(-1))
    return out.reshape(shape)
