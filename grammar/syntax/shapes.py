"""The shape of a formula of plain arithmetic: one line of numbers, names, + - * / // **, signs, brackets and calls
of a name (`1.742*sigmoid(1.742*x)*(1 - sigmoid(1.742*x))`), its tokens with the numbers left out. A batch of
checks parses and compiles the first formula of a shape and gives the next ones their own numbers (a class's
answers and a batch made from templates repeat shapes). Anything else (another character, a keyword, a number whose
digits the parser's builder checks, a text long enough to meet the parser's limits) has no shape. The tokens are
the lexer's (`//` is one operator, as `**` is), so texts of one shape are one sequence of the grammar's terminals."""

from __future__ import annotations

import keyword
import re

from autodiff.grammar.syntax import tables

MOST_CHARS = 400  # longer texts have no shape: 200 brackets deep at most (the parser's limit is 500)
_CHARACTERS = r"[0-9A-Za-z_.+\-*/(), ]*"
_SHAPE_TOKEN = r"((?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?)|([A-Za-z_][A-Za-z0-9_]*)" \
    r"|(\*\*|//|[-+*/(),])|( +|.)"  # the lexer's NUMBER and NAME, its operators, anything else (findall's groups)
_NOT_NAMES = frozenset(tables.KEYWORDS) | frozenset(keyword.kwlist)


def formula_shape(text: str) -> tuple[tuple[str | int | None, ...], list[tuple[int | float, str]]] | None:
    """The text's shape (its tokens, each number as None, or 0 when it is whole) and its numbers (value, text),
    when it is a formula of plain arithmetic; None otherwise. Two formulas of one shape parse to the same tree but
    for their numbers' values and texts (and the positions that their lengths move), or fail alike."""
    if len(text) > MOST_CHARS or not re.fullmatch(_CHARACTERS, text):
        return None
    shape: list[str | int | None] = []
    numbers: list[tuple[int | float, str]] = []
    for number, name, op, other in re.findall(_SHAPE_TOKEN, text):
        if number:
            value = _number_value(number)
            if value is None:
                return None
            shape.append(0 if type(value) is int else None)
            numbers.append((value, number))
        elif name:
            if name in _NOT_NAMES:
                return None
            shape.append(name)
        elif op:
            shape.append(op)
        elif other.strip():
            return None
    return (tuple(shape), numbers) if shape else None


def _number_value(text: str) -> int | float | None:
    """The number's value as the parser's builder reads it (None where the builder checks the digits: leading zeros,
    very long integers)."""
    if not text.isdigit():
        return float(text)
    if (len(text) > 1 and text[0] == "0") or len(text) > 18:
        return None
    return int(text)


__all__ = ["MOST_CHARS", "formula_shape"]
