"""Constructors: tensor, zeros, ones, full, rand, randn, arange, linspace, eye and the *_like family."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import coerce, generator
from .arrays import memory_order
from .coerce import array_from, number, size_argument, tensor_arg
from .errors import AutogradError, BadValueError, LimitError
from .registry import builtin
from .settings import as_dtype, check_elements
from .tensor import FLOATING_ONLY, Tensor


def leaf(array: np.ndarray, requires_grad: bool) -> Tensor:
    """A new leaf tensor around `array` (no copy)."""
    t = Tensor._make(array)
    if requires_grad:
        t._requires_grad = True
    return t


@builtin("tensor(data, dtype=None, requires_grad=False)", method=False,
         summary="a tensor holding data (a number or nested lists)")
def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    if dtype is None and _booleans(data):  # Python's True and False make a bool tensor, as in PyTorch (a mask)
        if requires_grad:
            raise AutogradError(FLOATING_ONLY, reason="dtype")
        return leaf(array_from(data, np.dtype(np.bool_)), False)
    return leaf(array_from(data, as_dtype(dtype) if dtype is not None else None), requires_grad)


def _booleans(data: Any) -> bool:
    """True for a bool or (nested) lists of bools only: walked without recursion, stopping at the first other."""
    stack, seen = [data], False
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (bool, np.bool_)):
            seen = True
        else:
            return False
    return seen


def _filled(sizes: tuple, fill: float, dtype: Any, requires_grad: bool, like: np.ndarray | None = None) -> Tensor:
    shape = coerce.sizes(sizes)
    check_elements(shape)
    try:
        if like is None:
            array = np.full(shape, fill, dtype=as_dtype(dtype))
        else:  # PyTorch's *_like keep the memory layout of a dense input (preserve_format)
            array = np.full_like(like, fill, dtype=as_dtype(dtype), order=memory_order(like))
    except (MemoryError, ValueError):  # ValueError: numpy's "array is too big" for zeros(0, 2**62)
        raise LimitError(f"not enough memory for a tensor of shape {shape}", reason="memory") from None
    return leaf(array, requires_grad)


@builtin("ones(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of ones")
def ones(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "ones")
    return _filled(size, 1.0, dtype, requires_grad)


@builtin("zeros(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of zeros")
def zeros(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "zeros")
    return _filled(size, 0.0, dtype, requires_grad)


@builtin("empty(*size, dtype=None, requires_grad=False)", method=False,
         summary="a tensor whose values are to be written (zeros here; PyTorch leaves memory as it was)")
def empty(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "empty")
    return _filled(size, 0.0, dtype, requires_grad)


@builtin("full(size, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="a tensor filled with one value")
def full(size: Any, fill_value: float, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled((size,), number(fill_value, "fill_value"), dtype, requires_grad)


def manual_seed(seed: int) -> None:
    """Seed the random numbers as torch.manual_seed does (PyTorch's mt19937 and transforms, so rand, randn
    and the rest give PyTorch's numbers bit for bit). seed: an integer in [0, 2**64)."""
    generator.manual_seed(seed)


def _random(sizes: tuple, dtype: Any, requires_grad: bool, normal: bool, like: np.ndarray | None = None) -> Tensor:
    shape = coerce.sizes(sizes)
    check_elements(shape)
    resolved = as_dtype(dtype)
    try:  # *_like keep the memory layout of a dense input (preserve_format), and are filled in memory order
        out = np.empty(shape, resolved) if like is None else generator.empty_like(like, resolved)
    except (MemoryError, ValueError):  # ValueError: numpy's "array is too big" for rand(0, 2**62)
        raise LimitError(f"not enough memory for a tensor of shape {shape}", reason="memory") from None
    gen = generator.default_generator()
    if normal:  # a non-contiguous result takes PyTorch's one-at-a-time path
        values = generator.normal(gen, out.size, resolved, contiguous=out.flags.c_contiguous)
    else:
        values = generator.uniform(gen, out.size, resolved)
    return leaf(generator.in_memory_order(out, values), requires_grad)


@builtin("rand(*size, dtype=None, requires_grad=False)", method=False, summary="uniform random numbers in [0, 1)")
def rand(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "rand")
    return _random(size, dtype, requires_grad, normal=False)


@builtin("randn(*size, dtype=None, requires_grad=False)", method=False, summary="standard normal random numbers")
def randn(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "randn")
    return _random(size, dtype, requires_grad, normal=True)


@builtin("arange(start=0, end, step=1, dtype=None, requires_grad=False)", method=False,
         summary="values from start up to (not including) end")
def arange(start: float, end: float | None = None, step: float = 1, *, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    start, end, step = number(start, "start"), number(end, "end"), number(step, "step")
    if step == 0:
        raise BadValueError("arange: step must be nonzero")
    if not all(math.isfinite(v) for v in (start, end, step)):
        raise BadValueError("arange: start, end and step must be finite")
    if (end - start) * step < 0:
        raise BadValueError("arange: upper bound and larger bound inconsistent with step sign")
    span = (end - start) / step
    if not span < 2**63:  # inf for arange(0, 1e300, 1e-300): no int to round it to
        raise LimitError(f"arange: {start:g} to {end:g} in steps of {step:g} is more than 2**63 elements",
                         hint="raise step, or narrow start and end", reason="elements")
    count = math.ceil(span)
    check_elements((count,))
    return leaf((start + step * np.arange(count, dtype=np.float64)).astype(as_dtype(dtype)), requires_grad)


@builtin("linspace(start, end, steps, dtype=None, requires_grad=False)", method=False,
         summary="steps evenly spaced values from start to end")
def linspace(start: float, end: float, steps: int, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    (count,) = coerce.sizes((steps,), "steps")
    check_elements((count,))
    return leaf(_linspace(number(start, "start"), number(end, "end"), count, np.dtype(as_dtype(dtype))),
                requires_grad)


def _linspace(start: float, end: float, count: int, dtype: np.dtype) -> np.ndarray:
    """PyTorch's linspace, to the last bit: in the dtype, step = (end - start) / (count - 1); the first half
    start + step * i, the second end - step * (count - 1 - i), each with one rounding (ATen's compiled kernel
    fuses the multiply and the add; a wider type does it here: exact for float32, and for float64 up to 2,048
    steps, past which a value may rarely differ in its last bit)."""
    if dtype not in (np.float32, np.float64) or count < 2:
        return np.linspace(start, end, count, dtype=np.float64).astype(dtype)
    kind = dtype.type
    low, high = kind(start), kind(end)
    with np.errstate(all="ignore"):  # linspace(-inf, inf, 3): PyTorch's nan, without numpy's warning
        step = (high - low) / kind(count - 1)
        wide = np.float64 if dtype == np.float32 else np.longdouble
        index = np.arange(count)
        half = count // 2
        out = np.empty(count, dtype=wide)
        out[:half] = wide(low) + wide(step) * index[:half].astype(dtype).astype(wide)
        out[half:] = wide(high) - wide(step) * (count - 1 - index[half:]).astype(dtype).astype(wide)
        return out.astype(dtype)


@builtin("eye(n, m=None, dtype=None, requires_grad=False)", method=False, summary="the identity matrix")
def eye(n: int, m: int | None = None, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    rows, cols = coerce.sizes((n, n if m is None else m))
    check_elements((rows, cols))
    return leaf(np.eye(rows, cols, dtype=as_dtype(dtype)), requires_grad)


def _like(x: Any, dtype: Any) -> tuple[np.ndarray, Any]:
    t = tensor_arg(x)
    return t._data, (t._data.dtype if dtype is None else dtype)


@builtin("ones_like(input, dtype=None, requires_grad=False)", method=False, summary="ones of input's shape")
def ones_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 1.0, dt, requires_grad, like=data)


@builtin("zeros_like(input, dtype=None, requires_grad=False)", method=False, summary="zeros of input's shape")
def zeros_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 0.0, dt, requires_grad, like=data)


@builtin("empty_like(input, dtype=None, requires_grad=False)", method=False,
         summary="input's shape, values to be written (zeros here)")
def empty_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 0.0, dt, requires_grad, like=data)


@builtin("full_like(input, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="input's shape filled with one value")
def full_like(input: Any, fill_value: float, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, number(fill_value, "fill_value"), dt, requires_grad, like=data)


@builtin("rand_like(input, dtype=None, requires_grad=False)", method=False, summary="uniform random, input's shape")
def rand_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=False, like=data)


@builtin("randn_like(input, dtype=None, requires_grad=False)", method=False, summary="normal random, input's shape")
def randn_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=True, like=data)
