"""The names a binding may have: those a program can use (ASCII letters, digits and '_', not starting with '_').
A name with a letter from another script is refused, not bound unseen beside the program's own: a Cyrillic
`х` (U+0445) looks like the Latin `x` the program uses, and would otherwise leave `x` unbound or silently
shadowed by nothing."""

from __future__ import annotations

import unicodedata

# Letters of other scripts drawn like a Latin letter (Unicode's confusables, the common ones)
LOOKALIKES = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "ο": "o", "ν": "v", "Ο": "O",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ρ": "P", "Τ": "T",
    "Υ": "Y", "Χ": "X", "ı": "i", "ɡ": "g",
}


def name_problem(name: str, what: str = "a valid name") -> str | None:
    """Why `name` cannot be bound (None when it can): what the language's names are, and for a letter of
    another script, which one it is and the ASCII name it looks like."""
    if name.isascii() and name.isidentifier() and not name.startswith("_"):
        return None
    if name.isascii():
        return f"{name!r} is not {what} (letters, digits and _, not starting with _)"
    odd = next(c for c in name if not c.isascii())
    what = unicodedata.name(odd, f"U+{ord(odd):04X}")
    ascii_name = "".join(LOOKALIKES.get(c, unicodedata.normalize("NFKC", c)) for c in name)
    looks = (f"; it looks like {ascii_name!r}: type that name in Latin letters"
             if ascii_name.isascii() and ascii_name.isidentifier() else "")
    return (f"{name!r} has the letter {odd!r} (U+{ord(odd):04X} {what}), which no name of the language has "
            f"(names use only ASCII letters, digits and _){looks}")


__all__ = ["LOOKALIKES", "name_problem"]
