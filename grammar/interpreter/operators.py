"""The operators of the language on the engine's values, as Python and PyTorch define them: arithmetic on
tensors records operations; on two Python numbers it is Python's (kept finite-time: no gigantic
integers); comparisons give boolean tensors, or Python bools for two numbers; `& | ~`, `is`, `in`, `%`
and `//` as Python has them."""

from __future__ import annotations

import math
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.values import Function, kind, literal_tensor, truth

# Integers stay exact only while they are this small; beyond, arithmetic on numbers is in floats.
MAX_EXACT_INT = 2**63


def is_plain_number(value: Any) -> bool:
    return isinstance(value, (int, float))  # bools too, as in Python


def is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# The built-in each comparison calls (looked up when used: the engine loads its comparisons on first use)
_COMPARISONS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
_PYTHON_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
                   ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _compare_or_logic(op: str, left: Any, right: Any) -> Any:
    """A comparison (a boolean tensor, or a Python bool for two numbers) or & / | on booleans."""
    plain = (int, float, bool)
    if op in ("==", "!=") and not any(isinstance(side, (Tensor, list, int, float)) for side in (left, right)):
        return (left == right) if op == "==" else (left != right)  # strings, None, types, tuples: Python's
    if isinstance(left, plain) and isinstance(right, plain):
        if op in _PYTHON_COMPARE:
            return _PYTHON_COMPARE[op](left, right)
        if isinstance(left, bool) and isinstance(right, bool):
            return (left and right) if op == "&" else (left or right)
        raise BadValueError(f"{op} combines booleans (comparisons), got {kind(left)} and {kind(right)}",
                            hint="compare first, e.g. (x > 0) & (x < 1)", reason="operands")
    if isinstance(left, list):
        left = literal_tensor(left)
    if isinstance(right, list):
        right = literal_tensor(right)
    for side in (left, right):
        if not isinstance(side, (Tensor, *plain)):
            raise BadValueError(f"unsupported operand types for {op}: {kind(left)} and {kind(right)}",
                                reason="operands")
    if op in _COMPARISONS:
        return engine.BUILTINS[_COMPARISONS[op]].fn(left, right)
    return engine.bitwise_and(left, right) if op == "&" else engine.bitwise_or(left, right)


def binary(op: str, left: Any, right: Any) -> Any:
    """`left op right` for every binary operator of the language, on the engine's values."""
    if op in _COMPARISONS or op in ("&", "|"):
        return _compare_or_logic(op, left, right)
    if op in ("is", "is not", "in", "not in"):
        return identity_or_membership(op, left, right)
    if op in ("%", "//"):
        return modulo_or_floor(op, left, right)
    if is_number(left) and is_number(right):
        return _number_arithmetic(op, left, right)
    if isinstance(left, list):
        left = literal_tensor(left)
    if isinstance(right, list):
        right = literal_tensor(right)
    if not isinstance(left, Tensor) and not isinstance(right, Tensor):
        raise BadValueError(f"unsupported operand types for {op}: {kind(left)} and {kind(right)}",
                            reason="operands")
    for side in (left, right):
        if isinstance(side, Function):  # `x*t` with no t: t is the built-in transpose, not a value
            raise UnknownNameError(
                f"'{side.name}' is a built-in function, not a value: is a variable named {side.name} missing?",
                hint=f"assign {side.name} = ... first, or use another name", reason="builtin_as_value",
                name=side.name, shown=side.name)
        if not isinstance(side, Tensor) and not is_number(side):
            raise BadValueError(f"unsupported operand types for {op}: {kind(left)} and {kind(right)}",
                                reason="operands")
    left, right = mask_as_numbers(left), mask_as_numbers(right)
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return left / right
    if op == "**":
        return left ** right
    if op == "@":
        return engine.matmul(left, right)
    raise BadValueError(f"unknown operator {op}")


def mask_as_numbers(value: Any) -> Any:
    """A bool tensor (a comparison's result) in arithmetic counts as 0 and 1 in the default float dtype: the
    language's rule, kept from before the engine had PyTorch's bool arithmetic (where `-mask` is refused and
    `mask + mask` is a logical or)."""
    if isinstance(value, Tensor) and value.dtype == engine.bool_:
        return engine.to(value, engine.get_default_dtype())
    return value


def big_integer(value: int | float) -> float:
    """An integer literal past MAX_EXACT_INT, as a float (inf past float's range, as 1e999 is)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _number_arithmetic(op: str, a: float, b: float) -> float | int:
    """Python numbers combined as Python would, kept finite-time: no gigantic integers."""
    exact = isinstance(a, int) and isinstance(b, int)
    try:
        if op == "+":
            result = a + b
        elif op == "-":
            result = a - b
        elif op == "*":
            result = a * b if not exact or abs(a).bit_length() + abs(b).bit_length() < 128 else float(a) * float(b)
        elif op == "/":
            return a / b if b != 0 else (math.copysign(math.inf, a) * math.copysign(1, b) if a else math.nan)
        elif op == "**":
            if exact and 0 <= b <= 64 and abs(a) < 2**32:
                result = a**b
            else:
                result = float(a) ** float(b)
                if isinstance(result, complex):
                    return math.nan
        else:
            raise BadValueError(f"{op} needs at least one tensor operand (matrices): both sides are numbers",
                                reason="operands")
    except OverflowError:
        return math.inf
    except ZeroDivisionError:
        return math.inf
    if isinstance(result, int) and abs(result) >= MAX_EXACT_INT:
        return float(result)
    return result


def unary(op: str, value: Any) -> Any:
    """`op value` for the unary operators of the language (- + ~ not), on the engine's values."""
    if op == "not":
        return not truth(value)
    if isinstance(value, list):
        value = literal_tensor(value)
    if op == "~":
        if isinstance(value, bool):
            return not value
        if isinstance(value, Tensor):
            return engine.bitwise_not(value)
        raise BadValueError(f"~ negates booleans (comparisons), got {kind(value)}", reason="operands")
    if is_number(value) or isinstance(value, Tensor):
        return -mask_as_numbers(value) if op == "-" else value
    raise BadValueError(f"bad operand type for unary {op}: {kind(value)}", reason="operands")


def identity_or_membership(op: str, left: Any, right: Any) -> bool:
    """`is`, `is not`, `in`, `not in` (a tensor contains a number when an element equals it, as in PyTorch)."""
    if op == "is":
        return left is right
    if op == "is not":
        return left is not right
    if isinstance(right, Tensor):
        found = bool(engine.eq(right, left).any()) if isinstance(left, (Tensor, int, float)) else False
    elif isinstance(right, range):  # arithmetic, not a walk through 2**62 items
        found = _in_range(left, right)
    elif isinstance(right, (list, tuple)):
        found = any(truth(binary("==", item, left)) if isinstance(item, Tensor) else item == left
                    for item in right)
    elif isinstance(right, str) and isinstance(left, str):
        found = left in right
    else:
        raise BadValueError(f"argument of type '{kind(right)}' is not iterable", reason="operands")
    return found if op == "in" else not found


def _in_range(value: Any, items: range) -> bool:
    """`value in range(...)` as Python answers it (by equality), computed: a number equal to an integer in the
    range, or a one-element tensor (its value) likewise."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            bool(value)  # PyTorch's error: the truth of several values is ambiguous
        value = value.item()
    if not is_plain_number(value):
        return False
    if isinstance(value, float):
        if not value.is_integer():
            return False
        value = int(value)
    return int(value) in items


def modulo_or_floor(op: str, left: Any, right: Any) -> Any:
    """`%` and `//` of two numbers, as Python computes them; `text % values` formats, as Python's."""
    if op == "%" and isinstance(left, str):
        from autodiff.grammar.interpreter.pytypes import percent_format

        return percent_format(left, right)
    if not (is_plain_number(left) and is_plain_number(right)):
        fix = "x - floor(x / y) * y" if op == "%" else "floor(x / y)"
        raise BadValueError(f"{op} works on numbers here, not tensors: write {fix}", reason="operands")
    if right == 0:
        raise BadValueError("integer division or modulo by zero" if isinstance(right, int) else
                            "float modulo" if op == "%" else "float floor division by zero", reason="zero_division")
    return left % right if op == "%" else left // right
