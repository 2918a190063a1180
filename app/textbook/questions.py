"""A question written before the function, as a book asks it: `d/dx x^3`, `d/dx(x^3)`, `d^2/dx^2 [x^3 sin x]`,
`d²/dx² x^4`, `(d/dθ) sin θ` (app.notation reads the rest; `diff` takes the variable and the order)."""

from __future__ import annotations

import re

GREEK_LETTERS = "αβγδεζηθικλμνξοπρσςτυφϕχψωΓΔΘΛΞΠΣΦΨΩ"
_SUPERSCRIPT_DIGITS = dict(zip("²³⁴⁵⁶⁷⁸⁹", "23456789"))
_ORDER = r"(?:\^?\s*(\d+)|([²³⁴⁵⁶⁷⁸⁹]))?"
_VARIABLE = rf"[A-Za-z_][A-Za-z0-9_]*|[{GREEK_LETTERS}]"
_QUESTION = re.compile(rf"^\s*(\()?\s*d{_ORDER}\s*/\s*d\s*({_VARIABLE}){_ORDER}\s*(\))?\s*(.+)$", re.S)


def derivative_question(text: str) -> tuple[str, int, str] | None:
    """`d/dx x^3`, `d/dx(x^3)`, `d^2/dx^2 [x^3]`, `(d/dθ) sin θ`: (the variable, the order, the function);
    None when the text does not start with such a question (or its two orders differ)."""
    match = _QUESTION.match(text)
    if match is None or bool(match.group(1)) != bool(match.group(7)):
        return None
    top = match.group(2) or (_SUPERSCRIPT_DIGITS[match.group(3)] if match.group(3) else "1")
    bottom = match.group(5) or (_SUPERSCRIPT_DIGITS[match.group(6)] if match.group(6) else "1")
    rest = match.group(8).strip()
    if top != bottom or not 1 <= int(top) <= 99 or not rest:
        return None
    if rest.startswith("[") and rest.endswith("]") and rest.count("[") == 1:
        rest = f"({rest[1:-1]})"
    return match.group(4), int(top), rest


__all__ = ["GREEK_LETTERS", "derivative_question"]
