"""A short cut of `parse()` for the formulas batches are made of: one line of numbers, names, + - * / **, signs,
brackets and calls of a name with positional arguments (`1.742*sigmoid(1.742*x)*(1 - sigmoid(1.742*x))`). It
builds the tree the LALR parser builds for such a text (the same nodes, values and positions: tests compare the
two), by operator precedence with explicit stacks (no recursion), in about a fifth of the time. Anything else
(another character or token, a keyword, a mistake, a number the builder checks) gives None: the parser then
reads the text and says what is wrong."""

from __future__ import annotations

import keyword
import re

from autodiff.grammar.syntax import tables
from autodiff.grammar.syntax.nodes import moved
from autodiff.grammar.syntax.tree import BinOp, Call, ExprStmt, Name, Number, Program, UnaryOp

MOST_CHARS = 400  # longer texts go to the parser: 200 brackets deep at most (its limit is 500), and no limit is near
_TOKEN = r" *(?:(?P<num>(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)" \
    r"|(?P<op>\*\*|[-+*/(),]))"  # the lexer's NUMBER and NAME
_CHARACTERS = r"[0-9A-Za-z_.+\-*/(), ]*"
_SHAPE_TOKEN = r"((?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?)|([A-Za-z_][A-Za-z0-9_]*)" \
    r"|(\*\*|[-+*/(),])|( +|.)"  # _TOKEN's, as findall's groups (number, name, operator, anything else)
_NOT_NAMES = frozenset(tables.KEYWORDS) | frozenset(keyword.kwlist)
# binding power of the binary operators, and of a sign (below **, above * and /: -x**2 is -(x**2), -x*y is (-x)*y)
_BINARY = {"+": 1, "-": 1, "*": 2, "/": 2, "**": 4}
_SIGN = 3
_OPEN, _CALL = "(", "call"


def quick_parse(text: str) -> Program | None:
    """The tree `parse(text)` gives, when the text is such a formula; None otherwise."""
    if len(text) > MOST_CHARS or not re.fullmatch(_CHARACTERS, text) or not text.strip():
        return None
    tokens = _tokens(text)
    if tokens is None:
        return None
    expression = _expression(tokens)
    if expression is None:
        return None
    return Program((ExprStmt(expression, line=1, column=expression.column),), text, line=1, column=1)


def formula_shape(text: str) -> tuple[tuple[str | int | None, ...], list[tuple[int | float, str]]] | None:
    """The text's shape (its tokens, each number as None, or 0 when it is whole) and its numbers (value, text),
    when quick_parse may read it (it reads all texts of one shape, or none); None otherwise. Two formulas of one
    shape have the same tree but for their numbers' values and texts (and the positions that their lengths move).
    The tokens are _tokens' (found by findall)."""
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
    """The value of _number's node (None where it gives none)."""
    if not text.isdigit():
        return float(text)
    if (len(text) > 1 and text[0] == "0") or len(text) > 18:
        return None
    return int(text)


def _tokens(text: str) -> list[tuple[str, str, int]] | None:
    """(kind, text, column) of each token; None when a token is not one of the formula's."""
    out: list[tuple[str, str, int]] = []
    pos, end = 0, len(text.rstrip(" "))
    match = re.compile(_TOKEN).match  # compiled at the first formula (re caches it), not at start-up
    while pos < end:
        m = match(text, pos)
        if m is None:
            return None
        kind = m.lastgroup or ""
        value = m.group(kind)
        if kind == "name" and value in _NOT_NAMES:
            return None
        out.append((kind, value, m.start(kind) + 1))
        pos = m.end()
    return out


def _number(text: str, column: int) -> Number | None:
    """builder.number's node, or None where it would check the digits (leading zeros, very long integers)."""
    if not text.isdigit():
        return Number(float(text), text, False, line=1, column=column)
    if (len(text) > 1 and text[0] == "0") or len(text) > 18:
        return None
    return Number(int(text), text, True, line=1, column=column)


def _expression(tokens: list[tuple[str, str, int]]) -> object | None:
    """The expression of the tokens, by precedence climbing with an operand stack and an operator stack; None when
    they are not one such expression."""
    operands: list[object] = []
    operators: list[tuple] = []  # (binary op, power) | ("sign", op, column) | (_OPEN, column, n) | (_CALL, name, n)
    expect_operand: bool | None = True
    i, count = 0, len(tokens)
    while i < count:
        kind, value, _ = tokens[i]
        if expect_operand:
            step = _operand(tokens, i, operands, operators)
            if step is None:
                return None
            i, expect_operand = step
        elif kind == "op" and value in _BINARY:
            power = _BINARY[value]
            if not _reduce(operands, operators, power, right=value == "**"):
                return None
            operators.append((value, power))
            expect_operand = True
        elif value in (")", ","):
            expect_operand = _close(tokens, i, operands, operators)
            if expect_operand is None:
                return None
        else:
            return None
        i += 1
    if expect_operand or not _reduce(operands, operators, 0, right=False) or operators or len(operands) != 1:
        return None
    return operands[0]


def _operand(tokens: list[tuple[str, str, int]], i: int, operands: list[object], operators: list[tuple]
             ) -> tuple[int, bool] | None:
    """Token i where an operand begins: a number, a name, a call's name and its '(', a sign or a '('; the index of
    the last token taken and whether an operand comes next (None: not a formula's)."""
    kind, value, column = tokens[i]
    count = len(tokens)
    if kind == "num":
        node = _number(value, column)
        if node is None:
            return None
        operands.append(node)
        return i, False
    if kind == "name":
        if i + 1 < count and tokens[i + 1][1] == "(":
            if i + 2 < count and tokens[i + 2][1] == ")":  # f(): no arguments
                operands.append(Call(Name(value, line=1, column=column), (), (), line=1, column=column))
                return i + 2, False
            operators.append((_CALL, Name(value, line=1, column=column), len(operands)))
            return i + 1, True
        operands.append(Name(value, line=1, column=column))
        return i, False
    if value in ("+", "-"):
        operators.append(("sign", value, column))
    elif value == "(":
        operators.append((_OPEN, column, len(operands)))
    else:
        return None
    return i, True


def _close(tokens: list[tuple[str, str, int]], i: int, operands: list[object], operators: list[tuple]) -> bool | None:
    """Token i, a ')' or a ',', after an operand: the bracket or call it closes (or the argument it ends); whether
    an operand comes next (None: not a formula's)."""
    value, count = tokens[i][1], len(tokens)
    if not _reduce(operands, operators, 0, right=False) or not operators:
        return None
    top = operators[-1]
    if top[0] == _OPEN:
        if value == "," or len(operands) != top[2] + 1:
            return None  # (a, b) is a tuple
        operators.pop()
        operands.append(moved(operands.pop(), line=1, column=top[1]))
    elif value == ")":
        operators.pop()
        args = tuple(operands[top[2]:])
        del operands[top[2]:]
        operands.append(Call(top[1], args, (), line=1, column=top[1].column))
    elif i + 1 < count and tokens[i + 1][1] == ")":
        return None  # f(x,): a trailing comma
    else:
        return True
    if i + 1 < count and tokens[i + 1][1] == "(":
        return None  # f(x)(y), (x)(y): calls of what is not a name
    return False


def _reduce(operands: list[object], operators: list[tuple], power: int, right: bool) -> bool:
    """Apply the operators on top that bind more tightly than an operator of `power` (as tightly, too, unless it
    groups to the right); False when an operand is missing."""
    while operators:
        top = operators[-1]
        if top[0] in (_OPEN, _CALL):
            return True
        binds = _SIGN if top[0] == "sign" else top[1]
        if binds < power or (binds == power and right):
            return True
        operators.pop()
        if top[0] == "sign":
            if not operands:
                return False
            operands.append(UnaryOp(top[1], operands.pop(), line=1, column=top[2]))
        else:
            if len(operands) < 2:
                return False
            right_operand, left = operands.pop(), operands.pop()
            operands.append(BinOp(top[0], left, right_operand, line=left.line, column=left.column))  # type: ignore[attr-defined]
    return True


__all__ = ["formula_shape", "quick_parse"]
