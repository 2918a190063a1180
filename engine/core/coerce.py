"""Arguments as the engine's functions take them: numbers and nested lists made into arrays, tensors from
any operand, sizes and dims checked, and the operand rules every function shares (numbers stay numbers,
shapes broadcast, a number first is wrapped in the other operand's dtype)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import BadValueError, InvalidArgumentError, LimitError, NumberOverflowError, ShapeError
from ..kernels.parallel import THRESHOLD, aligned_empty
from .dtypes import BY_NUMPY, result_type
from .settings import MAX_DIMS, STATE, check_dims, check_elements
from .tensor import Tensor

Number = (int, float)
SUPPORTED = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")


def operand(x: Any) -> Any:
    """A Tensor, or a Python number (kept as a number: it does not change the result's dtype)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, Number):  # a bool stays one: PyTorch's promotion tells True from 1
        return readable(x)
    if isinstance(x, np.generic) and np.issubdtype(type(x), np.number):
        return x.item()
    if isinstance(x, (np.ndarray, list, tuple)):
        return Tensor._make(array_from(x, None))
    raise BadValueError(f"expected a tensor or a number, got {type(x).__name__}")


def tensor_arg(x: Any, what: str = "input") -> Tensor:
    """x as a tensor (numbers and lists become new tensors of the default dtype)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
        return Tensor._make(array_from(x, None))
    raise BadValueError(f"{what} must be a tensor, got {type(x).__name__}")


def number(x: Any, what: str) -> float:
    """x as a Python float: a number, or a one-element tensor."""
    if isinstance(x, Tensor) and x._data.size == 1:
        return x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float, np.number)):
        raise BadValueError(f"{what} must be a number, got {x!r}")
    return float(x)


def int_or_number(value: Any, what: str) -> int | float:
    """An int as it is (it keeps an integer tensor integer, and its dtype checks it), else number(value, what)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    return number(value, what)


def both(a: Any, b: Any) -> tuple[Any, Any]:
    """Two operands of an elementwise function, at least one of them a tensor."""
    a, b = operand(a), operand(b)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = Tensor._make(array_from(a, None))
    return a, b


def wrapped(a: Any, b: Any) -> Any:
    """torch.add(2, x) and the like: a number first is wrapped as a 0-d tensor of the other's dtype (so the
    node is the tensor-tensor one, with no edge for the number: DivBackward0, SubBackward0, ...)."""
    if not isinstance(a, Tensor) and isinstance(b, Tensor):
        data = b._data
        dtype = data.dtype if data.dtype.kind == "f" else result_type((data, a), STATE.default_dtype)
        with np.errstate(over="ignore"):  # an int into int8 wraps, as in PyTorch; 70000 into float16 is inf
            return Tensor._make(np.asarray(a).astype(dtype))
    return a


def with_number(x: Tensor, value: Any) -> Tensor:
    """An integer or bool tensor in the dtype of `x op value` for a number value (PyTorch's result_type: with a
    float, the default float dtype; a bool tensor with an int, int64); a float tensor as it is."""
    data = x._data
    if data.dtype.kind == "f" or isinstance(value, Tensor) or value is None:
        return x
    target = result_type((data, value), STATE.default_dtype)
    return x if target == data.dtype else Tensor._make(data.astype(target))  # no history: x is not floating


# ---------------------------------------------------------------------------- Python ints and integer dtypes
# PyTorch reads a Python int as a number from int64's lowest to uint64's highest; it casts one to an integer
# tensor's dtype in one of two ways: wrapping (arithmetic, comparisons, bitwise ops: uint8 + 300 adds 44) or
# checked (clamp's bounds, pow's exponent, fill_, full, where, masked_fill: uint8 and 300 is an error).
LOWEST, END = -2**63, 2**64


def readable(value: Any) -> Any:
    """value, or PyTorch's OverflowError for an int outside [-2**63, 2**64) (no tensor's number can be one)."""
    if type(value) is int and not LOWEST <= value < END:
        shown = str(value) if len(str(value)) <= 30 else f"an integer of {len(str(abs(value)))} digits"
        raise NumberOverflowError(
            f"int too {'big' if value > 0 else 'small'} to convert: {shown} is outside the integers a tensor's "
            "number can be, -2**63 to 2**64 - 1", hint="write it as a float (2.0**70) for a floating result",
            reason="overflow")
    return value


def wrapped_number(value: Any, dtype: np.dtype) -> Any:
    """An int as an integer dtype's arithmetic reads it, cast to the dtype with wrapping as PyTorch casts it
    (uint8: 300 is 44, -1 is 255; int64: 2**63 is -2**63); any other value (or dtype) as it is."""
    if dtype.kind not in "iu" or not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        return value
    bits = dtype.itemsize * 8
    value = int(readable(value)) % (1 << bits)
    return value - (1 << bits) if dtype.kind == "i" and value >> (bits - 1) else value


# The largest finite number of the floating dtypes PyTorch checks a number against (float64 holds every float)
FLOAT_MAX = {np.dtype(np.float16): 65504.0, np.dtype(np.float32): float(np.finfo(np.float32).max)}
CHECKED_FLOATS = ("float16", "float32")


def checked_number(value: Any, dtype: np.dtype, floats: tuple[str, ...] = CHECKED_FLOATS) -> Any:
    """A number a dtype must hold as it is (PyTorch's checked conversion). An integer dtype: a float in the dtype's
    range (truncated), an int in it or, for an unsigned dtype, down to -max (wrapped: uint8's -1 is 255). A
    floating dtype named in `floats`: a finite number within +-its largest (float16's 65504; inf and nan pass).
    Else PyTorch's RuntimeError. Any other value (or dtype) as it is. Where PyTorch checks only some floating dtypes
    (pow's exponent: float16; where and x[i] = n: float32), the caller names them."""
    if type(value) is int:
        readable(value)
    if dtype.kind not in "iu" or value is None or isinstance(value, (bool, np.bool_)):
        if dtype.name in floats and isinstance(value, (int, float, np.number)) and math.isfinite(value) \
                and abs(value) > FLOAT_MAX[dtype]:
            shown = f"{FLOAT_MAX[dtype]:.8g}"
            raise BadValueError(f"value cannot be converted to type {BY_NUMPY[dtype]} without overflow: {value!r}",
                                hint=f"{BY_NUMPY[dtype]} holds -{shown} to {shown}; convert the tensor first, e.g. "
                                     "x.double()", reason="overflow")
        return value
    info = np.iinfo(dtype)
    if isinstance(value, (int, np.integer)):
        value = int(value)
        low = -int(info.max) if dtype.kind == "u" else int(info.min)
        if low <= value <= info.max:
            return wrapped_number(value, dtype)
    elif math.isfinite(value) and info.min <= value <= float(info.max):  # (as C compares: int64's max is 2.0**63)
        return wrapped_number(int(value), dtype)
    raise BadValueError(f"value cannot be converted to type {BY_NUMPY[dtype]} without overflow: {value!r}",
                        hint=f"{BY_NUMPY[dtype]} holds {info.min} to {info.max}; convert the tensor first, e.g. "
                             "x.long() or x.float()", reason="overflow")


def one_bound(x: Any, value: Any, what: str) -> tuple[Tensor, Any]:
    """clamp_min's and clamp_max's operands: x in the dtype of the result (an integer tensor with a float bound:
    floats) and the bound as that dtype holds it (an int stays an int; uint8 and 300 is refused)."""
    value = int_or_number(value, what)
    x = with_number(tensor_arg(x), value)
    return x, checked_number(value, x._data.dtype)


def refuse_zero_division(divisor: np.ndarray) -> None:
    """PyTorch's error for an integer division (//, %) by zero."""
    if not np.all(divisor):
        raise BadValueError("ZeroDivisionError", hint="an integer division by zero: divide floats for inf",
                            reason="zero_division")


_BROADCASTS: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}  # a training loop's few pairs


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast of two shapes, or a ShapeError that names both."""
    if a == b:
        return a
    hashable = isinstance(a, tuple) and isinstance(b, tuple)
    shape = _BROADCASTS.get((a, b)) if hashable else None
    if shape is not None:
        check_elements(shape, "the broadcast result")  # (the limit may have changed since)
        return shape
    result = []
    ndim = len(a) if len(a) > len(b) else len(b)
    for i in range(1, ndim + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            dim = ndim - i
            raise ShapeError(
                f"shapes {a} and {b} cannot be broadcast together: at dimension {dim} the sizes are {x} "
                f"and {y}, which must be equal or one of them 1",
                reason="broadcast", shapes=(a, b),
            )
        result.append(x if y == 1 else y)
    shape = tuple(reversed(result))
    check_elements(shape, "the broadcast result")
    if hashable:
        if len(_BROADCASTS) >= 4096:
            _BROADCASTS.clear()
        _BROADCASTS[a, b] = shape
    return shape


# ---------------------------------------------------------------------------- sizes
def size_argument(sizes: tuple, size: Any, name: str) -> tuple:
    """The sizes of ones(2, 3) or of ones(size=(2, 3)) (PyTorch takes both), not both at once."""
    if size is None:
        return sizes
    if sizes:
        raise BadValueError(f"{name}() got its sizes twice: give them as arguments or as size=, not both",
                            reason="size")
    return (size,)


def sizes(args: tuple, what: str = "size", allow_minus_one: bool = False) -> tuple[int, ...]:
    """Sizes given as ints or as one sequence (ones(2, 3), ones((2, 3)), ones(x.size()))."""
    if len(args) == 1 and isinstance(args[0], (list, tuple, Tensor)):
        values = args[0].tolist() if isinstance(args[0], Tensor) else args[0]
        args = tuple(values) if isinstance(values, (list, tuple)) else (values,)  # a 0-d tensor: one size
    out = []
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
        out.append(n)
    check_dims(len(out))
    return tuple(out)


# ---------------------------------------------------------------------------- arrays from data
def list_depth(data: Any, limit: int = 10_001) -> int:
    """How deep lists (or tuples) are nested, following first items (iteratively; at most `limit`)."""
    depth = 0
    while isinstance(data, (list, tuple)) and depth < limit:
        depth += 1
        if not data:
            break
        data = data[0]
    return depth


def array_from(data: Any, dtype: np.dtype | None, infer: bool = False) -> np.ndarray:
    """A new array from a number, nested lists of numbers (or tensors), or an array. Without a dtype: with
    infer, the dtype PyTorch's torch.tensor infers (`infer_dtype`); else the default float dtype, except that a
    float32 or float64 array or tensor keeps its own."""
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
        if infer:
            dtype = infer_dtype(data, array)
        else:
            keeps_own = isinstance(data, (np.ndarray, Tensor)) and array.dtype in (np.float32, np.float64)
            dtype = array.dtype if keeps_own else STATE.default_dtype
    elif dtype.kind in "iu" and array.dtype.kind in "iuf" and not isinstance(data, (np.ndarray, Tensor, np.generic)):
        _check_numbers(array, dtype)  # Python's numbers as PyTorch reads them into an integer dtype: checked
    check_elements(array.shape)
    with np.errstate(invalid="ignore", over="ignore"):  # nan or a huge float made integer: as PyTorch, no warning
        if array.size >= THRESHOLD and array.flags.c_contiguous:
            # a large copy starts on a cache line, as the split kernels' results do (parallel.aligned_empty): numpy's
            # own would start 16 bytes past one, which costs every kernel reading it ~10% on AVX-512
            copy = aligned_empty(array.shape, np.dtype(dtype))
            np.copyto(copy, array, casting="unsafe")
            return copy
        return np.array(array, dtype=dtype, copy=True)


def unpacking_error() -> InvalidArgumentError:
    """PyTorch's ValueError for a Python int past int64's range in a tensor's data."""
    return InvalidArgumentError("Overflow when unpacking long long: a tensor's integers lie within int64's range",
                                hint="write it as a float (2.0**63) for a floating tensor", reason="overflow")


def _check_numbers(array: np.ndarray, dtype: np.dtype) -> None:
    """Python's numbers (as numpy's array of them) made an integer dtype, checked as PyTorch checks each: ints
    within the dtype (an unsigned one takes them down to -max, wrapped), floats within it, else an error."""
    if not array.size:
        return
    if array.dtype.kind == "u" and array.dtype.itemsize == 8:
        raise unpacking_error()
    checked_number(array.min().item(), dtype)  # (nan is the least and the largest of an array holding it)
    checked_number(array.max().item(), dtype)


def infer_dtype(data: Any, array: np.ndarray) -> np.dtype:
    """The dtype torch.tensor(data) infers, given numpy's array of the data: an array, tensor or numpy number
    keeps its dtype; Python's bools make bool, ints int64, floats the default float dtype; in lists, these
    promote as torch.promote_types does (a float64 tensor or numpy float64 in a list makes it float64)."""
    found = array.dtype
    if isinstance(data, (np.ndarray, np.generic, Tensor)):
        if found not in BY_NUMPY:
            raise BadValueError(f"unsupported dtype {found}: autodiff tensors are {', '.join(SUPPORTED)}",
                                reason="dtype")
        return found
    if found.kind == "u" and found.itemsize == 8:  # Python ints past int64's range
        raise unpacking_error()
    if found.kind in "biu":
        return found if found in BY_NUMPY else np.dtype(np.int64)
    if found == np.float64 and found != STATE.default_dtype and not _holds_double(data):
        return STATE.default_dtype  # Python floats: the default dtype
    return found if found in BY_NUMPY else STATE.default_dtype


def _holds_double(data: Any) -> bool:
    """True when nested lists hold a float64 array, tensor or numpy number (walked without recursion)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, Tensor):
            if item._data.dtype == np.float64:
                return True
        elif isinstance(item, (np.ndarray, np.generic)) and item.dtype == np.float64:
            return True
    return False


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


# ---------------------------------------------------------------------------- axis= (numpy's name for dim=)
_NOT_GIVEN: Any = object()


class with_axis:
    """fn, also taking `axis=` as another spelling of its `dim=`, and `keepdims=` of its `keepdim=` when it has one
    (PyTorch's numpy-compatible names: x.sum(axis=0, keepdims=True)). Its parameters are read from fn's code;
    its signature (with axis and keepdims) is made when something first asks for it."""

    def __init__(self, fn: Any) -> None:
        import functools

        functools.update_wrapper(self, fn)
        body, defaults = fn.__code__, fn.__defaults__ or ()
        positional = body.co_varnames[:body.co_argcount]
        kwonly = body.co_varnames[body.co_argcount:body.co_argcount + body.co_kwonlyargcount]
        more = body.co_varnames[body.co_argcount + body.co_kwonlyargcount:]
        names = [*positional, *more[:1]] if body.co_flags & 0x04 else list(positional)  # then *args
        names += kwonly
        self._fn, self._position = fn, names.index("dim")
        defaulted = set(positional[len(positional) - len(defaults):]) | set(fn.__kwdefaults__ or ())
        self._required = "dim" not in defaulted
        self._keep_at = names.index("keepdim") if "keepdim" in names else None
        # the positional-or-keyword parameters after dim without a default (gather's index): a call with axis=
        # must still give them
        self._later = [(i, name) for i, name in enumerate(positional) if i > self._position and self._required
                       and i >= body.co_posonlyargcount and name not in defaulted]
        self._signature: Any = None

    def __call__(self, *args: Any, axis: Any = None, keepdims: Any = _NOT_GIVEN, **kwargs: Any) -> Any:
        position, keep_at = self._position, self._keep_at
        if keepdims is not _NOT_GIVEN:
            if keep_at is None:
                raise BadValueError(f"{self.__name__}() got an unexpected keyword argument 'keepdims'",
                                    reason="arguments")
            if "keepdim" in kwargs or len(args) > keep_at:
                raise self._both("keepdim", "keepdims")
            kwargs["keepdim"] = keepdims
        given = len(args) > position or "dim" in kwargs
        if axis is not None:
            if (args[position] if len(args) > position else kwargs.get("dim")) is not None:
                raise self._both("dim", "axis")
            if len(args) > position:
                args = (*args[:position], axis, *args[position + 1:])
            else:
                kwargs["dim"] = axis
        elif self._required and not given:
            raise BadValueError(f"{self.__name__}() needs dim= (or axis=), e.g. {self.__name__}(x, dim=0)",
                                reason="dim")
        for i, name in self._later:
            if len(args) <= i and name not in kwargs:
                raise BadValueError(f"{self.__name__}() missing a required argument: '{name}'", reason="arguments")
        return self._fn(*args, **kwargs)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        """A method when read from a Tensor (x.sum(axis=0)), as a function would be."""
        import types

        return self if instance is None else types.MethodType(self, instance)

    def _both(self, name: str, other: str) -> BadValueError:
        return BadValueError(f"{self.__name__}() got both {name}= and {other}= ({other} is another name for {name}): "
                             "give one", reason="axis")

    @property
    def __signature__(self) -> Any:
        """fn's signature with axis= (and keepdims=) beside dim=; dim (and the required parameters after it) shown
        with a default, so a call with axis= binds (the call checks they are there)."""
        if self._signature is None:
            import inspect

            signature = inspect.signature(self._fn)
            empty = inspect.Parameter.empty
            extra = [inspect.Parameter("axis", inspect.Parameter.KEYWORD_ONLY, default=None)]
            if self._keep_at is not None:
                extra.append(inspect.Parameter("keepdims", inspect.Parameter.KEYWORD_ONLY, default=None))
            loosened = {p.name for p in list(signature.parameters.values())[self._position:]
                        if p.default is empty and p.kind is p.POSITIONAL_OR_KEYWORD} if self._required else set()
            parameters = [p.replace(default=None) if p.name in loosened else p for p in signature.parameters.values()]
            at = next((i for i, p in enumerate(parameters) if p.kind is p.VAR_KEYWORD), len(parameters))
            self._signature = signature.replace(parameters=[*parameters[:at], *extra, *parameters[at:]])
        return self._signature
