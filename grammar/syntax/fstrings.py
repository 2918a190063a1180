"""f-strings: `f"loss {loss.item():.4f}"` split into text pieces and fields, each field's expression parsed
by the language's own parser (never by Python). A field is `{expression}`, `{expression!r}` (or !s, !a),
`{expression:spec}` with a spec of plain text (no nested fields), or `{expression=}` (the expression's
text and its repr, as Python 3.8+ prints it). `{{` and `}}` are braces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff.grammar.syntax.tree import ExprStmt, FString

_OPEN = "([{"
_CLOSE = ")]}"


def join_strings(tokens: list, decode: Callable[[Any], str], problem: type, parse: Callable[[str], Any]) -> FString:
    """Adjacent string and f-string literals as one FString (plain strings are text pieces)."""
    pieces: list[str] = [""]
    fields: list = []
    conversions: list[str] = []
    specs: list[str] = []
    for tok in tokens:
        if tok.type == "STRING":
            pieces[-1] += decode(tok)
            continue
        _split(tok, decode, problem, parse, pieces, fields, conversions, specs)
    first = tokens[0]
    return FString(tuple(pieces), tuple(fields), tuple(conversions), tuple(specs), line=first.line,
                   column=first.column)


def _quote_width(raw: str) -> int:
    return 3 if len(raw) >= 6 and raw[:3] in ("'''", '"""') else 1


def _position(tok: Any, offset: int) -> tuple[int, int]:
    """Line and column of the character at `offset` in the token's text."""
    before = tok.value[:offset]
    if "\n" in before:
        return tok.line + before.count("\n"), len(before) - before.rindex("\n")
    return tok.line, tok.column + offset


def _split(tok: Any, decode: Callable[[Any], str], problem: type, parse: Callable[[str], Any],
           pieces: list[str], fields: list, conversions: list[str], specs: list[str]) -> None:
    raw = tok.value[1:]  # without the f
    quote = _quote_width(raw)
    body_start = 1 + quote
    body = raw[quote:-quote]
    text: list[str] = []
    i, n = 0, len(body)

    def flush() -> None:
        if text:
            piece = "".join(text)
            fake = type(tok)("STRING", raw[:quote] + piece + raw[:quote], tok.pos, tok.line, tok.column)
            pieces[-1] += decode(fake)
            text.clear()

    while i < n:
        ch = body[i]
        if ch == "}":
            if body.startswith("}}", i):
                text.append("}")
                i += 2
                continue
            raise problem("f-string: single '}' is not allowed (write '}}' for a brace)",
                          *_position(tok, body_start + i))
        if ch != "{":
            if ch == "\\" and i + 1 < n:
                text.append(body[i : i + 2])
                i += 2
                continue
            text.append(ch)
            i += 1
            continue
        if body.startswith("{{", i):
            text.append("{")
            i += 2
            continue
        flush()
        i = _field(tok, body, i + 1, body_start, problem, parse, pieces, fields, conversions, specs)
    flush()


def _expression_end(tok: Any, body: str, start: int, body_start: int, problem: type) -> int:
    """Where a field's expression ends (at its '}', ':' or '!'), skipping brackets and string literals."""
    depth, i, n = 0, start, len(body)
    quote: str | None = None
    while i < n:
        ch = body[i]
        if quote is not None:
            if ch == "\\":
                i += 2
                continue
            if body.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            i += 1
            continue
        if ch in "'\"":
            quote = body[i : i + 3] if body[i : i + 3] in ("'''", '"""') else ch
            i += len(quote)
            continue
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            if depth == 0:
                if ch == "}":
                    return i
                raise problem(f"f-string: unmatched '{ch}'", *_position(tok, body_start + i))
            depth -= 1
        elif depth == 0 and (ch == ":" or (ch == "!" and not body.startswith("!=", i))):
            return i
        i += 1
    raise problem("f-string: expecting '}'", *_position(tok, body_start + start - 1))


def _conversion_and_spec(tok: Any, body: str, i: int, body_start: int, problem: type) -> tuple[str, str, int]:
    """The field's conversion ('' or r, s, a) and format spec after its expression; and where its '}' is."""
    conversion = spec = ""
    if body[i] == "!":
        conversion = body[i + 1 : i + 2]
        if conversion not in ("r", "s", "a") or i + 2 >= len(body) or body[i + 2] not in ":}":
            raise problem("f-string: invalid conversion character: expected 's', 'r', or 'a'",
                          *_position(tok, body_start + i + 1))
        i += 2
    if body[i] == ":":
        close = body.find("}", i)
        if close < 0:
            raise problem("f-string: expecting '}'", *_position(tok, body_start + i))
        spec = body[i + 1 : close]
        if "{" in spec:
            raise problem("f-string: a nested field in a format spec is not supported (write the spec out, e.g. "
                          "{x:.4f})", *_position(tok, body_start + i + 1 + spec.index("{")))
        i = close
    return conversion, spec, i


def _parsed(expression: str, line: int, column: int, problem: type, parse: Callable[[str], Any]) -> Any:
    """A field's expression, parsed in place: padded so that its nodes carry their position in the script."""
    from autodiff.engine.errors import ParseError

    try:
        program = parse("\n" * (line - 1) + " " * (column - 1) + expression)
    except ParseError as error:  # reported against the script's own text, with its caret
        summary = error.details.get("summary", "invalid expression").replace("end of program", "end of the field")
        raise problem(f"f-string: {summary}", error.line or line, error.column or column) from None
    statements = program.statements
    if len(statements) != 1 or not isinstance(statements[0], ExprStmt):
        raise problem("f-string: a field holds one expression", line, column)
    return statements[0].value


def _field(tok: Any, body: str, start: int, body_start: int, problem: type, parse: Callable[[str], Any],
           pieces: list[str], fields: list, conversions: list[str], specs: list[str]) -> int:
    """Read one field starting after its '{'; returns the position after its '}'."""
    end_expr = _expression_end(tok, body, start, body_start, problem)
    expression = body[start:end_expr]
    line, column = _position(tok, body_start + start)
    debug = ""
    stripped = expression.rstrip()
    if stripped.endswith("=") and not stripped.endswith(("==", "!=", "<=", ">=")):
        debug = expression  # {x=} and {x = }: the text, then the value
        expression = stripped[:-1]
    if not expression.strip():
        raise problem("f-string: empty expression not allowed", line, column)
    conversion, spec, i = _conversion_and_spec(tok, body, end_expr, body_start, problem)
    value = _parsed(expression, line, column, problem, parse)
    if debug:
        pieces[-1] += debug
        if not conversion and not spec:
            conversion = "r"
    fields.append(value)
    conversions.append(conversion)
    specs.append(spec)
    pieces.append("")
    return i + 1
