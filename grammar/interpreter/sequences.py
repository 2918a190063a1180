"""Python's meaning of the operators and of indexing on strings and tuples: `"a" + "b"`, `(1, 2) + (3,)`,
`"b" > "a"`, `grad_fn.next_functions[0]`. A list is a tensor (`[1, 2] + [3, 4]` adds, `[1.0, 2.0] + x` too, as
PyTorch converts it)."""

from __future__ import annotations

from typing import Any

from autodiff.engine.errors import BadValueError, LimitError
from autodiff.grammar.interpreter.values import kind

MAX_ITEMS = 10_000_000  # a string, list or tuple made by + or * holds at most this many items
_ORDER = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
          "==": lambda a, b: a == b, "!=": lambda a, b: a != b}
_ELSEWHERE = ("in", "not in", "is", "is not", "&", "|")


def _plain(value: Any) -> bool:
    """A value Python compares without a tensor's elementwise meaning (numbers, strings, None, and
    lists or tuples of them)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif not (item is None or isinstance(item, (int, float, str))):
            return False
    return True


SEQUENCES = (str, tuple)


def _sized(count: int, what: str) -> None:
    if count > MAX_ITEMS:
        raise LimitError(f"{what} would hold {count:,} items, over the limit of {MAX_ITEMS:,}", reason="size")


def operator(op: str, left: Any, right: Any) -> Any:
    """`left op right` as Python computes it on strings and tuples, or NotImplemented when it is not such a case."""
    sequences = SEQUENCES
    if not (isinstance(left, sequences) or isinstance(right, sequences)) or op in _ELSEWHERE \
            or (op == "%" and isinstance(left, str)):
        return NotImplemented  # membership, identity and "%" formatting have their own rules
    if op == "+" and isinstance(left, sequences) and type(left) is type(right):
        _sized(len(left) + len(right), f"the {kind(left)} made by +")
        return left + right
    if op == "*":
        for items, count in ((left, right), (right, left)):
            if isinstance(items, sequences) and isinstance(count, int):
                _sized(len(items) * max(count, 0), f"the {kind(items)} made by *")
                return items * count
    if not (_plain(left) and _plain(right)):
        return NotImplemented  # a list beside a tensor is a tensor; tuples of tensors compare as before
    if op in _ORDER:
        try:
            return _ORDER[op](left, right)
        except TypeError:
            pass
    if op == "+" and isinstance(left, sequences) and isinstance(right, sequences):
        raise BadValueError(f'can only concatenate {kind(left)} (not "{kind(right)}") to {kind(left)}',
                            reason="operands")
    raise BadValueError(f"unsupported operand types for {op}: {kind(left)} and {kind(right)}", reason="operands")


def index(value: Any, key: Any) -> Any:
    """`value[key]` as Python indexes a string or a tuple by a number or a slice, or NotImplemented when it is not
    such a case."""
    if not isinstance(value, SEQUENCES) or isinstance(key, bool) or not isinstance(key, (int, slice)):
        return NotImplemented
    if isinstance(key, int) and not -len(value) <= key < len(value):
        raise BadValueError(f"index {key} is out of range for a {kind(value)} of {len(value)} items",
                            reason="index")
    if isinstance(key, slice) and key.step == 0:
        raise BadValueError("slice step cannot be zero", reason="index")
    try:
        return value[key]
    except (TypeError, ValueError) as error:  # a slice bound that is not an integer ('ab'[1.5:])
        raise BadValueError(f"cannot index a {kind(value)} with {key!r}: {error}", reason="index") from None


__all__ = ["MAX_ITEMS", "index", "operator"]
