"""Constructors: tensor, zeros, ones, full, rand, randn, arange, linspace, eye and the *_like family, and
the rule that turns numbers and nested lists into arrays."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import generator
from .arrays import memory_order
from .errors import BadValueError, LimitError
from .registry import builtin
from .tensor import STATE, Tensor, as_dtype, check_dims, check_elements

Number = (int, float)


def _operand(x: Any) -> Any:
    """A Tensor, or a Python number (kept as a number: it does not change the result's dtype)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, Number):
        return x
    if isinstance(x, np.generic) and np.issubdtype(type(x), np.number):
        return x.item()
    if isinstance(x, (np.ndarray, list, tuple)):
        return Tensor._make(_array_from(x, None))
    raise BadValueError(f"expected a tensor or a number, got {type(x).__name__}")


def _tensor_arg(x: Any, what: str = "input") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
        return Tensor._make(_array_from(x, None))
    raise BadValueError(f"{what} must be a tensor, got {type(x).__name__}")


def _number(x: Any, what: str) -> float:
    if isinstance(x, Tensor) and x._data.size == 1:
        return x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float, np.number)):
        raise BadValueError(f"{what} must be a number, got {x!r}")
    return float(x)


def _size_argument(sizes: tuple, size: Any, name: str) -> tuple:
    """The sizes of ones(2, 3) or of ones(size=(2, 3)) (PyTorch takes both), not both at once."""
    if size is None:
        return sizes
    if sizes:
        raise BadValueError(f"{name}() got its sizes twice: give them as arguments or as size=, not both",
                            reason="size")
    return (size,)


def _sizes(args: tuple, what: str = "size", allow_minus_one: bool = False) -> tuple[int, ...]:
    """Sizes given as ints or as one sequence (ones(2, 3), ones((2, 3)), ones(x.size()))."""
    if len(args) == 1 and isinstance(args[0], (list, tuple, Tensor)):
        values = args[0].tolist() if isinstance(args[0], Tensor) else args[0]
        args = tuple(values) if isinstance(values, (list, tuple)) else (values,)  # a 0-d tensor: one size
    sizes = []
    for n in args:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            huge = isinstance(n, float) and math.fabs(n) >= 2**63  # 10**20 is a float in the language
            raise BadValueError(f"{what} must be whole numbers, got {n!r}"
                                + (" (far too large for a tensor: numbers past 2**63 are floats)" if huge else ""),
                                reason="size")
        n = int(n)
        if n < 0 and not (allow_minus_one and n == -1):
            raise BadValueError(f"Trying to create tensor with negative dimension {n}: {list(args)}",
                                reason="size")
        sizes.append(n)
    check_dims(len(sizes))
    return tuple(sizes)


MAX_DIMS = 64  # numpy's and PyTorch's limit


def list_depth(data: Any, limit: int = 10_001) -> int:
    """How deep lists (or tuples) are nested, following first items (iteratively; at most `limit`)."""
    depth = 0
    while isinstance(data, (list, tuple)) and depth < limit:
        depth += 1
        if not data:
            break
        data = data[0]
    return depth


def _array_from(data: Any, dtype: np.dtype | None) -> np.ndarray:
    """A new float array from a number, nested lists of numbers (or one-element tensors), or an array."""
    if isinstance(data, Tensor):
        array = data._data
    elif isinstance(data, np.ndarray):
        array = data
    else:
        if isinstance(data, str):
            raise BadValueError(f"cannot make a tensor from the string {data!r}")
        depth = list_depth(data)
        if depth > MAX_DIMS:
            raise BadValueError(f"cannot make a tensor from lists nested {depth if depth <= 10_000 else 'over 10,000'} "
                                f"deep: a tensor has at most {MAX_DIMS} dimensions", reason="dims")
        try:
            array = np.array(data if not isinstance(data, (list, tuple)) else _plain(data))
        except (ValueError, TypeError) as error:
            raise BadValueError(f"cannot make a tensor from {_short(data)}: the nested lists must be "
                                f"rectangular and hold only numbers ({error})") from None
    if array.dtype.kind not in "fiub":
        raise BadValueError(f"cannot make a tensor from values of type {array.dtype}: numbers only")
    if dtype is None:
        keeps_own = isinstance(data, (np.ndarray, Tensor)) and array.dtype in (np.float32, np.float64)
        dtype = array.dtype if keeps_own else STATE.default_dtype
    check_elements(array.shape)
    return np.array(array, dtype=dtype, copy=True)


def _plain(data: Any) -> Any:
    """Nested lists with tensors replaced by their arrays (numpy stacks them without making a Python float
    of every value), checked iteratively and counted against the element limit before numpy allocates."""
    if not any(isinstance(x, (Tensor, list, tuple)) for x in data):
        return data
    out: list = []
    stack = [(data, out)]
    numbers, limit = 0, STATE.max_elements
    while stack:
        source, target = stack.pop()
        for item in source:
            if isinstance(item, Tensor):
                if item._requires_grad and STATE.grad_enabled:
                    raise BadValueError(
                        "a list of tensors that require grad makes a new tensor without their history: no gradient "
                        "would flow back through it",
                        hint="join them with stack([...]) (a new dim) or cat([...]) (an existing dim), e.g. "
                             "stack([x**2 * y, 5*x + sin(y)])", reason="list_of_grad_tensors")
                numbers += item._data.size
                if limit is not None and numbers > limit:
                    raise LimitError(f"the tensors in these lists hold more than {limit:,} numbers, over the "
                                     "element limit", reason="elements")
                target.append(item._data)
            elif isinstance(item, (list, tuple)):
                child: list = []
                target.append(child)
                stack.append((item, child))
            else:
                target.append(item)
    return out


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def _new(array: np.ndarray, requires_grad: bool) -> Tensor:
    t = Tensor._make(array)
    if requires_grad:
        t._requires_grad = True
    return t


@builtin("tensor(data, dtype=None, requires_grad=False)", method=False,
         summary="a tensor holding data (a number or nested lists)")
def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _new(_array_from(data, as_dtype(dtype) if dtype is not None else None), requires_grad)


def _filled(sizes: tuple, fill: float, dtype: Any, requires_grad: bool, like: np.ndarray | None = None) -> Tensor:
    shape = _sizes(sizes)
    check_elements(shape)
    try:
        if like is None:
            array = np.full(shape, fill, dtype=as_dtype(dtype))
        else:  # PyTorch's *_like keep the memory layout of a dense input (preserve_format)
            array = np.full_like(like, fill, dtype=as_dtype(dtype), order=memory_order(like))
    except MemoryError:
        raise LimitError(f"not enough memory for a tensor of shape {shape}", reason="memory") from None
    return _new(array, requires_grad)


@builtin("ones(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of ones")
def ones(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = _size_argument(sizes, size, "ones")
    return _filled(size, 1.0, dtype, requires_grad)


@builtin("zeros(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of zeros")
def zeros(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = _size_argument(sizes, size, "zeros")
    return _filled(size, 0.0, dtype, requires_grad)


@builtin("full(size, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="a tensor filled with one value")
def full(size: Any, fill_value: float, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled((size,), _number(fill_value, "fill_value"), dtype, requires_grad)


def manual_seed(seed: int) -> None:
    """Seed the random numbers as torch.manual_seed does (PyTorch's mt19937 and transforms, so rand, randn
    and the rest give PyTorch's numbers bit for bit). seed: an integer in [0, 2**64)."""
    generator.manual_seed(seed)


def _random(sizes: tuple, dtype: Any, requires_grad: bool, normal: bool, like: np.ndarray | None = None) -> Tensor:
    shape = _sizes(sizes)
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
    return _new(generator.in_memory_order(out, values), requires_grad)


@builtin("rand(*size, dtype=None, requires_grad=False)", method=False, summary="uniform random numbers in [0, 1)")
def rand(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = _size_argument(sizes, size, "rand")
    return _random(size, dtype, requires_grad, normal=False)


@builtin("randn(*size, dtype=None, requires_grad=False)", method=False, summary="standard normal random numbers")
def randn(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    size = _size_argument(sizes, size, "randn")
    return _random(size, dtype, requires_grad, normal=True)


@builtin("arange(start=0, end, step=1, dtype=None, requires_grad=False)", method=False,
         summary="values from start up to (not including) end")
def arange(start: float, end: float | None = None, step: float = 1, *, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    start, end, step = _number(start, "start"), _number(end, "end"), _number(step, "step")
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
    return _new((start + step * np.arange(count, dtype=np.float64)).astype(as_dtype(dtype)), requires_grad)


@builtin("linspace(start, end, steps, dtype=None, requires_grad=False)", method=False,
         summary="steps evenly spaced values from start to end")
def linspace(start: float, end: float, steps: int, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    (count,) = _sizes((steps,), "steps")
    check_elements((count,))
    values = np.linspace(_number(start, "start"), _number(end, "end"), count, dtype=np.float64)
    return _new(values.astype(as_dtype(dtype)), requires_grad)


@builtin("eye(n, m=None, dtype=None, requires_grad=False)", method=False, summary="the identity matrix")
def eye(n: int, m: int | None = None, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    rows, cols = _sizes((n, n if m is None else m))
    check_elements((rows, cols))
    return _new(np.eye(rows, cols, dtype=as_dtype(dtype)), requires_grad)


def _like(x: Any, dtype: Any) -> tuple[np.ndarray, Any]:
    t = _tensor_arg(x)
    return t._data, (t._data.dtype if dtype is None else dtype)


@builtin("ones_like(input, dtype=None, requires_grad=False)", method=False, summary="ones of input's shape")
def ones_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 1.0, dt, requires_grad, like=data)


@builtin("zeros_like(input, dtype=None, requires_grad=False)", method=False, summary="zeros of input's shape")
def zeros_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 0.0, dt, requires_grad, like=data)


@builtin("full_like(input, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="input's shape filled with one value")
def full_like(input: Any, fill_value: float, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, _number(fill_value, "fill_value"), dt, requires_grad, like=data)


@builtin("rand_like(input, dtype=None, requires_grad=False)", method=False, summary="uniform random, input's shape")
def rand_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=False, like=data)


@builtin("randn_like(input, dtype=None, requires_grad=False)", method=False, summary="normal random, input's shape")
def randn_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=True, like=data)
