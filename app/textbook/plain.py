"""Texts the textbook reader (notation.py) takes as written, known without rewriting their tokens: the plain
arithmetic a batch's programs and answers are made of (`1.742*sigmoid(1.742*x)*(1 - sigmoid(1.742*x))`). A test
compares what this says with what the rewriting gives."""

from __future__ import annotations

import keyword
import re

from autodiff.engine import BUILTINS

_CHARACTERS = r"[0-9A-Za-z_.+\-*/() ]*"
# notation's _TOKEN on these characters (where it matches at every position), as findall's groups: a number, a
# name, an operator, a bracket (spaces are none of them)
_TOKEN = r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+(?![A-Za-z_]))?)|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|//|[-+*/.])|(\()|(\))"
_OPERATORS = frozenset(("+", "-", "*", "/", "**"))
_ENDS_OPERAND = frozenset(("num", "name", "close"))
_BEGINS_OPERAND = frozenset(("num", "name", "function", "open"))


def as_written(text: str, declared: set[str]) -> bool:
    """Whether the reader gives the text as it is: numbers, the declared variables, calls of built-ins (but ln,
    which is read as log), + - * / ** and brackets, with no operand right after another (where a book leaves out
    a multiplication) and no brackets around the whole (which the reading drops)."""
    if not re.fullmatch(_CHARACTERS, text) or _wrapped(text.strip()):
        return False
    before = ""
    tokens = re.findall(_TOKEN, text)
    for i, (number, name, op, opening, _) in enumerate(tokens):
        if name:
            call = i + 1 < len(tokens) and tokens[i + 1][3] != ""
            if keyword.iskeyword(name) or not (name in declared or (
                    call and name in BUILTINS and name != "ln" and not name.startswith("log_"))):
                return False
            kind = "name" if name in declared else "function"
        elif op:
            if op not in _OPERATORS:
                return False
            kind = "op"
        else:
            kind = "num" if number else "open" if opening else "close"
        if before in _ENDS_OPERAND and kind in _BEGINS_OPERAND:
            return False
        before = kind
    return True


def _wrapped(text: str) -> bool:
    """Whether brackets enclose the whole text ((x + 1), which the reader reads as x + 1)."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and i < len(text) - 1:
            return False
    return True


__all__ = ["as_written"]
