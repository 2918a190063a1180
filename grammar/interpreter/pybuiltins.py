"""The Python built-ins of the language (range, len, enumerate, zip, list, tuple, min, max, round, abs, sum,
float, int), as Python computes them on Python values; min, max, abs, round and sum keep the tensor built-ins'
meaning for tensors. Each is bounded: list() of a huge range is a limit error."""

from __future__ import annotations

import inspect
import math
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError
from autodiff.grammar.interpreter.values import gathered, kind, range_length

ITERABLES = (range, list, tuple, str, enumerate, zip)


def iterable_of(value: Any) -> Any:
    """What a comprehension and the built-ins may iterate: ranges, lists, tuples, strings, tensors (along dim 0)."""
    if isinstance(value, ITERABLES):  # engine.Size is a tuple
        return value
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise BadValueError("iteration over a 0-d tensor", reason="iterate")
        return value
    raise BadValueError(f"'{kind(value)}' object is not iterable", reason="iterate")


def _integer(value: Any, what: str) -> int:
    if isinstance(value, Tensor) and value.numel() == 1 and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValueError(f"'{type(value).__name__}' object cannot be interpreted as an integer ({what})",
                            reason="arguments")
    return value


def _range(*args: Any) -> range:
    if not 1 <= len(args) <= 3:
        raise BadValueError(f"range expected 1 to 3 arguments, got {len(args)}", reason="arguments")
    numbers = [_integer(a, "range") for a in args]
    if len(numbers) == 3 and numbers[2] == 0:
        raise BadValueError("range() arg 3 must not be zero", reason="arguments")
    return range(*numbers)


def _len(value: Any) -> int:
    if isinstance(value, range):
        return range_length(value)
    if isinstance(value, Tensor):
        return len(value)
    if isinstance(value, (list, tuple, str, range, engine.Size)):
        return len(value)
    raise BadValueError(f"object of type '{type(value).__name__}' has no len()", reason="arguments")


def _enumerate(iterable: Any, start: int = 0) -> enumerate:
    return enumerate(iterable_of(iterable), _integer(start, "enumerate start"))


def _zip(*iterables: Any) -> zip:
    return zip(*(iterable_of(i) for i in iterables))


def _list(iterable: Any = ()) -> list:
    return gathered(iterable_of(iterable), "list()")


def _is_plain_number(value: Any) -> bool:
    return isinstance(value, (int, float))  # bools too, as in Python


def _numbers(args: tuple) -> list | None:
    """The numbers of min(a, b, ...) or min([a, b, ...]) when they are all Python numbers, else None."""
    items = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    return items if items and all(_is_plain_number(i) for i in items) else None


def _builtin(name: str, *args: Any, **kwargs: Any) -> Any:
    """The tensor built-in `name`, called with its signature checked (a clear error, not a TypeError)."""
    builtin = engine.BUILTINS[name]
    try:
        inspect.signature(builtin.fn).bind(*args, **kwargs)
    except TypeError as error:
        raise BadValueError(f"{name}(): {error} (usage: {builtin.signature})", reason="arguments") from None
    return builtin.fn(*args, **kwargs)


def _extreme(kind: str) -> Any:
    pick = min if kind == "min" else max

    def choose(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and isinstance(args[0], range) and not kwargs:  # its ends, not its 10**8 items
            if not range_length(args[0]):
                raise BadValueError(f"{kind}() arg is an empty sequence", reason="arguments")
            ends = (args[0][0], args[0].start + (range_length(args[0]) - 1) * args[0].step)
            return pick(ends)
        numbers = _numbers(args) if not kwargs else None
        if numbers is not None:
            return pick(numbers)
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not args[0]:
            raise BadValueError(f"{kind}() arg is an empty sequence", reason="arguments")
        return _builtin(kind, *args, **kwargs)

    return choose


def _round(value: Any, ndigits: int | None = None, *, decimals: int | None = None) -> Any:
    digits = decimals if decimals is not None else ndigits
    if _is_plain_number(value):
        if digits is None:
            return round(value)
        digits = _integer(digits, "round ndigits")
        if isinstance(value, int) and digits < 0 and -digits > len(str(abs(int(value)))):
            return 0  # what Python answers, without computing 10**(2**62)
        return round(value, digits)
    return _builtin("round", value) if digits is None else _builtin("round", value, decimals=digits)


def _abs(value: Any) -> Any:
    return abs(value) if _is_plain_number(value) else _builtin("abs", value)


def _sum(iterable: Any, *rest: Any, **kwargs: Any) -> Any:
    if not isinstance(iterable, (list, tuple, range, enumerate, zip)):  # a tensor (or a number): torch.sum
        return _builtin("sum", iterable, *rest, **kwargs)
    total = rest[0] if rest else kwargs.get("start", 0)
    if isinstance(iterable, range) and isinstance(total, int):  # computed, not 2**62 additions
        n = range_length(iterable)
        return total + n * iterable.start + iterable.step * (n * (n - 1) // 2)
    for item in gathered(iterable_of(iterable), "sum()"):
        total = total + item
    return total


def _tuple(iterable: Any = ()) -> tuple:
    return tuple(_list(iterable))


def _float(value: Any = 0.0) -> float:
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise BadValueError(f"could not convert string to float: {value!r}", reason="arguments") from None
    if not _is_plain_number(value):
        raise BadValueError(f"float() argument must be a number or a tensor, not '{type(value).__name__}'",
                            reason="arguments")
    return float(value)


def _int(value: Any = 0) -> int:
    number = _float(value) if not (isinstance(value, int) and not isinstance(value, Tensor)) else value
    if isinstance(number, float) and not math.isfinite(number):
        raise BadValueError(f"cannot convert float {number} to integer", reason="arguments")
    return int(number)


def python_builtins() -> dict[str, tuple[Any, str]]:
    """The Python built-ins of the language: name -> (function, usage). min, max, abs, round and sum keep the
    tensor built-ins' meaning for tensors."""
    return {
        "range": (_range, "range(stop) or range(start, stop[, step])"),
        "len": (_len, "len(value)"),
        "enumerate": (_enumerate, "enumerate(iterable, start=0)"),
        "zip": (_zip, "zip(a, b, ...)"),
        "list": (_list, "list(iterable)"),
        "tuple": (_tuple, "tuple(iterable)"),
        "min": (_extreme("min"), "min(a, b, ...), min(list) or min(input, dim=None, keepdim=False)"),
        "max": (_extreme("max"), "max(a, b, ...), max(list) or max(input, dim=None, keepdim=False)"),
        "round": (_round, "round(number, ndigits=None) or round(input, decimals=None)"),
        "abs": (_abs, "abs(number) or abs(input)"),
        "sum": (_sum, "sum(iterable, start=0) or sum(input, dim=None)"),
        "float": (_float, "float(value)"),
        "int": (_int, "int(value)"),
    }
