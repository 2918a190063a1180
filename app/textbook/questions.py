"""A question written before the function, as a book asks it: `d/dx x^3`, `d/dx(x^3)`, `d^2/dx^2 [x^3 sin x]`,
`d²/dx² x^4`, `(d/dθ) sin θ` (app.notation reads the rest; `diff` takes the variable and the order); and the forms
around a formula: `f(x) = x^2` (a function's definition) and an equation `x^2 + y^2 = 25`."""

from __future__ import annotations

import re

from autodiff.engine import BUILTINS

GREEK_LETTERS = "αβγδεζηθικλμνξοπρσςτυφϕχψωΓΔΘΛΞΠΣΦΨΩ"
_SUPERSCRIPT_DIGITS = dict(zip("²³⁴⁵⁶⁷⁸⁹", "23456789"))
_ORDER = r"(?:\^?\s*(\d+)|([²³⁴⁵⁶⁷⁸⁹]))?"
_VARIABLE = rf"[A-Za-z_][A-Za-z0-9_]*|[{GREEK_LETTERS}]"
_QUESTION = rf"^\s*(\()?\s*d{_ORDER}\s*/\s*d\s*({_VARIABLE}){_ORDER}\s*(\))?\s*(.+)$"  # compiled on first use


def derivative_question(text: str) -> tuple[str, int, str] | None:
    """`d/dx x^3`, `d/dx(x^3)`, `d^2/dx^2 [x^3]`, `(d/dθ) sin θ`: (the variable, the order, the function);
    None when the text does not start with such a question (or its two orders differ)."""
    if not _starts_as_question(text):  # most texts: the pattern is not compiled for them
        return None
    match = re.match(_QUESTION, text, re.S)
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


def _starts_as_question(text: str) -> bool:
    """Whether the text starts as _QUESTION does: spaces, at most one "(", spaces, then d."""
    after = text.lstrip()
    return (after[1:].lstrip() if after.startswith("(") else after).startswith("d")


_DEFINITION = r"^\s*[A-Za-z]\w*\s*\(\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*\)\s*=(?!=)(.*)$"


def function_definition(text: str) -> str | None:
    """`f(x) = x^2` (one statement): the right side, the function's formula."""
    match = re.match(_DEFINITION, text, re.S)
    if match is None or "\n" in text.strip() or ";" in text:
        return None
    head = text.split("(", 1)[0].strip()
    return match.group(1).strip() if head not in BUILTINS else None


def equation_sides(text: str, equations: bool) -> tuple[str, str] | None:
    """The two sides of a one-statement equation `A = B` (A not a plain name, or any A with `equations`)."""
    if ";" in text or "\n" in text.strip():
        return None
    depth, at = 0, None
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "=" and depth == 0 and text[i - 1:i] not in ("=", "<", ">", "!") and text[i + 1:i + 2] != "=":
            if at is not None:
                return None
            at = i
    if at is None:
        return None
    left, right = text[:at].strip(), text[at + 1:].strip()
    if re.fullmatch(r"[A-Za-z_]\w*\s*\[.*\]", left, re.S):
        return None  # y[0] = x writes into a tensor
    if not left or not right or (not equations and re.fullmatch(r"[A-Za-z_]\w*", left)):
        return None  # y = x**2 is an assignment, unless the question is implicit
    return left, right


__all__ = ["GREEK_LETTERS", "derivative_question", "equation_sides", "function_definition"]
