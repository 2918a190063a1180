"""A number as Python's repr() writes it (`-1.995429`, `1e-05`, `3`): how a check batch passes a line's JSON
number as VALUE text (cli/batch.py's binding_text), a new text on nearly every line. Its value and its textbook
reading are known without the parser: the language reads such a literal with float() (int() for digits), and a
leading '-' negates it; textbook notation reads it as written."""

from __future__ import annotations

import re

# a float's repr (digits, a point, digits, an exponent with its sign) or an integer of at most 18 digits
# without leading zeros, signed or not; anything else (inf, nan, 1., .5, 1E5, +1, spaces) is not plain
_PLAIN = re.compile(r"-?(?:\d+\.\d+(?:e[+-]\d+)?|\d+e[+-]\d+|[1-9]\d{0,17}|0)")


def plain_number(text: str) -> int | float | None:
    """The value the language gives `text` when it is a plain number literal (see above), else None."""
    if not _PLAIN.fullmatch(text):
        return None
    digits = text.lstrip("-")
    value = int(digits) if digits.isdigit() else float(digits)
    return -value if text.startswith("-") else value


def is_plain_number(text: str) -> bool:
    """Whether `text` is a plain number literal (see above)."""
    return _PLAIN.fullmatch(text) is not None


__all__ = ["is_plain_number", "plain_number"]
