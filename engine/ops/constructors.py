"""Constructors: tensor, zeros, ones, full, rand, randn, arange, linspace, eye and the *_like family."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import coerce, dtypes
from ..core.coerce import array_from, number, size_argument, tensor_arg
from ..core.devices import in_c_order
from ..core.registry import builtin
from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, LimitError
from ..kernels.arrays import memory_order
from ..kernels.floatmath import fma64
from ..random import generator


def leaf(array: np.ndarray, requires_grad: bool) -> Tensor:
    """A new leaf tensor around `array` (no copy)."""
    t = Tensor._make(array)
    if requires_grad:
        t.requires_grad_(True)  # PyTorch's error for an integer or bool tensor
    return t


@builtin("tensor(data, dtype=None, requires_grad=False)", method=False,
         summary="a tensor holding data (a number or nested lists); its dtype inferred as PyTorch's")
def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A new leaf holding a copy of data. Without dtype, PyTorch's inference: Python's bools make a bool
    tensor, ints an int64 one, floats the default float dtype; an array or tensor keeps its dtype."""
    result = leaf(array_from(data, as_dtype(dtype) if dtype is not None else None, infer=True), False)
    if requires_grad:
        result.requires_grad_(True)
    return result


def _filled(sizes: tuple, fill: float, dtype: Any, requires_grad: bool, like: np.ndarray | None = None) -> Tensor:
    shape = coerce.sizes(sizes)
    check_elements(shape)
    resolved = as_dtype(dtype)
    fill = coerce.checked_number(fill, resolved)  # in an integer dtype's range, or refused (uint8 and 300)
    if resolved.kind == "b":
        fill = bool(fill)
    try:
        if like is None:
            array = np.full(shape, fill, dtype=resolved)
        else:  # PyTorch's *_like keep the memory layout of a dense input (preserve_format)
            array = np.full_like(like, fill, dtype=resolved, order=memory_order(like))
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
    """Without dtype, the fill value's: bool for True/False, int64 for an int, else the default float dtype."""
    value = fill_value.item() if isinstance(fill_value, Tensor) and fill_value.numel() == 1 else fill_value
    if dtype is None and isinstance(value, (bool, np.bool_)):
        return _filled((size,), bool(value), dtypes.bool_, requires_grad)
    if dtype is None and isinstance(value, (int, np.integer)):
        return _filled((size,), int(value), dtypes.int64, requires_grad)
    return _filled((size,), coerce.int_or_number(value, "fill_value"), dtype, requires_grad)


def manual_seed(seed: int) -> generator.Generator:
    """Seed the random numbers as torch.manual_seed does (PyTorch's mt19937 and transforms, so rand, randn
    and the rest give PyTorch's numbers bit for bit). seed: an integer in [0, 2**64). Returns the default
    generator, as PyTorch does."""
    return generator.manual_seed(seed)


def _random(sizes: tuple, dtype: Any, requires_grad: bool, normal: bool, like: np.ndarray | None = None,
            gen: Any = None) -> Tensor:
    shape = coerce.sizes(sizes)
    check_elements(shape)
    resolved = as_dtype(dtype)
    if resolved.kind != "f":
        raise BadValueError(f"{'normal' if normal else 'uniform'} random numbers are not implemented for "
                            f"{dtypes.BY_NUMPY[resolved]}: give a floating dtype (randint makes integers)",
                            reason="dtype")
    try:  # *_like keep the memory layout of a dense input (preserve_format), and are filled in memory order
        out = np.empty(shape, resolved) if like is None else generator.empty_like(like, resolved)
    except (MemoryError, ValueError):  # ValueError: numpy's "array is too big" for rand(0, 2**62)
        raise LimitError(f"not enough memory for a tensor of shape {shape}", reason="memory") from None
    gen = generator.chosen(gen)
    if normal:  # a non-contiguous result takes PyTorch's one-at-a-time path
        values = generator.normal(gen, out.size, resolved, contiguous=out.flags.c_contiguous)
    else:
        values = generator.uniform(gen, out.size, resolved)
    return leaf(generator.in_memory_order(out, values), requires_grad)


@builtin("rand(*size, generator=None, dtype=None, requires_grad=False)", method=False,
         summary="uniform random numbers in [0, 1)")
def rand(*sizes: Any, size: Any = None, generator: Any = None, dtype: Any = None,
         requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "rand")
    return _random(size, dtype, requires_grad, normal=False, gen=generator)


@builtin("randn(*size, generator=None, dtype=None, requires_grad=False)", method=False,
         summary="standard normal random numbers")
def randn(*sizes: Any, size: Any = None, generator: Any = None, dtype: Any = None,
          requires_grad: bool = False) -> Tensor:
    size = size_argument(sizes, size, "randn")
    return _random(size, dtype, requires_grad, normal=True, gen=generator)


@builtin("arange(start=0, end, step=1, dtype=None, requires_grad=False)", method=False,
         summary="values from start up to (not including) end")
def arange(start: float, end: float | None = None, step: float = 1, *, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    """int64 when start, end and step are all integers (else the default float dtype), and PyTorch's values to
    the last bit (see _arange_values)."""
    if end is None:
        start, end = 0, start
    bounds = [b.item() if isinstance(b, Tensor) and b.numel() == 1 else b for b in (start, end, step)]
    whole = all(isinstance(b, (int, np.integer)) and not isinstance(b, bool) for b in bounds)
    start, end, step = (number(b, name) for b, name in zip(bounds, ("start", "end", "step")))
    if step == 0:
        raise BadValueError("arange: step must be nonzero")
    if not all(math.isfinite(v) for v in (start, end, step)):
        raise BadValueError("arange: start, end and step must be finite")
    if (end - start) * step < 0:
        raise BadValueError("arange: upper bound and larger bound inconsistent with step sign")
    resolved = as_dtype(dtype) if dtype is not None else np.dtype(np.int64) if whole else as_dtype(None)
    if whole:
        lo, hi, by = (int(b) for b in bounds)
        count = -((lo - hi) // by)  # exact ceil((hi - lo) / by), either sign
    else:
        span = (end - start) / step
        if not span < 2**63:  # inf for arange(0, 1e300, 1e-300): no int to round it to
            raise LimitError(f"arange: {start:g} to {end:g} in steps of {step:g} is more than 2**63 elements",
                             hint="raise step, or narrow start and end", reason="elements")
        count = math.ceil(span)
    check_elements((count,))
    if whole and resolved.kind != "f":
        values = lo + by * np.arange(count, dtype=np.int64)
    else:
        values = _arange_values(start, step, count, resolved)
    return leaf(values.astype(resolved, copy=False), requires_grad)


def _arange_values(start: float, step: float, count: int, dtype: np.dtype) -> np.ndarray:
    """PyTorch's arange kernel (AVX2): in double, each vector of V elements (8 float32, 4 float64) starts at
    fma(step, i, start) rounded to the dtype and adds j * step to it (one fma); elements after the last pair
    of vectors are fma(step, i, start) each."""
    lanes = 8 if dtype == np.float32 else 4
    index = np.arange(count, dtype=np.float64)
    out = fma64(step, index, start)
    if dtype not in (np.float32, np.float64):
        return out
    vectors = (count - count % (2 * lanes)) // lanes
    if vectors:
        bases = out[: vectors * lanes : lanes].astype(dtype).astype(np.float64)
        offsets = np.arange(lanes, dtype=np.float64)
        out[: vectors * lanes] = fma64(offsets[None, :], step, bases[:, None]).reshape(-1)
    return out


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


def _like(x: Any, dtype: Any, memory_format: Any, what: str) -> tuple[np.ndarray, Any, np.ndarray | None]:
    """The input's array, the dtype of the result, and the array whose order the result takes (None: C order)."""
    t = tensor_arg(x)
    return t._data, (t._data.dtype if dtype is None else dtype), None if in_c_order(memory_format, what) else t._data


@builtin("ones_like(input, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="ones of input's shape")
def ones_like(input: Any, *, dtype: Any = None, requires_grad: bool = False,
              memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "ones_like")
    return _filled(data.shape, 1.0, dt, requires_grad, like=like)


@builtin("zeros_like(input, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="zeros of input's shape")
def zeros_like(input: Any, *, dtype: Any = None, requires_grad: bool = False,
               memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "zeros_like")
    return _filled(data.shape, 0.0, dt, requires_grad, like=like)


@builtin("empty_like(input, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="input's shape, values to be written (zeros here)")
def empty_like(input: Any, *, dtype: Any = None, requires_grad: bool = False,
               memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "empty_like")
    return _filled(data.shape, 0.0, dt, requires_grad, like=like)


@builtin("full_like(input, fill_value, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="input's shape filled with one value")
def full_like(input: Any, fill_value: float, *, dtype: Any = None, requires_grad: bool = False,
              memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "full_like")
    return _filled(data.shape, coerce.int_or_number(fill_value, "fill_value"), dt, requires_grad, like=like)


@builtin("rand_like(input, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="uniform random, input's shape")
def rand_like(input: Any, *, dtype: Any = None, requires_grad: bool = False,
              memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "rand_like")
    return _random(data.shape, dt, requires_grad, normal=False, like=like)


@builtin("randn_like(input, dtype=None, requires_grad=False, memory_format=None)", method=False,
         summary="normal random, input's shape")
def randn_like(input: Any, *, dtype: Any = None, requires_grad: bool = False,
               memory_format: Any = None) -> Tensor:
    data, dt, like = _like(input, dtype, memory_format, "randn_like")
    return _random(data.shape, dt, requires_grad, normal=True, like=like)
