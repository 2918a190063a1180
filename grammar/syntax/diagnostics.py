"""What a syntax error says: the token in words, what the parser expected instead, the likely cause (an
unclosed bracket, a missing operator), and the caret excerpt of the source."""

from __future__ import annotations

from autodiff.grammar.syntax.lexer import SyntaxProblem, Token, shortened
from autodiff.grammar.syntax.states import ACTIONS, accepts, is_terminal

# Syntax error messages --------------------------------------------------------------------------

_EXPRESSION_START = frozenset(("NAME", "NUMBER", "STRING", "LPAR", "LSQB", "PLUS", "MINUS", "TILDE", "TRUE", "FALSE",
                               "NONE"))
# + and - also start expressions, so they do not count
_BINARY = frozenset(("STAR", "SLASH", "AT", "POW", "COMPARE", "VBAR", "AMPER"))
_STATEMENT_END = frozenset(("_NL", "SEMICOLON", "$END"))
_SHOWN_TERMINALS = dict(
    RPAR="')'", RSQB="']'", COMMA="','", COLON="':'", EQUAL="'='", DOT="'.'", AS="'as'", IN="'in'", ELSE="'else'",
    NAME="a name"
)
_STATEMENT_START = frozenset(("_NL", "SEMICOLON"))



def describe(tok: Token) -> str:
    if tok.type == "$END":
        return "end of program"
    if tok.type == "_NL":
        return "end of line" if tok.value else "end of program"
    if tok.type in ("NAME", "NUMBER"):
        return f"{tok.type.lower()} '{tok.value}'"
    if tok.type == "STRING":
        return f"string {shortened(tok.value)}"
    return f"'{tok.value}'"



def _expected(states: list[int]) -> list[str]:
    """What could come next, in words: 'an expression', 'an operator', "')'", ..."""
    acceptable = {kind for kind in ACTIONS[states[-1]] if is_terminal(kind) and accepts(states, kind)}
    if "NUMBER" in acceptable:  # (a NAME alone is wanted after '.', 'import' and 'as')
        return ["an expression"]
    words = ["an operator"] if acceptable & _BINARY else []
    words += [shown for kind, shown in _SHOWN_TERMINALS.items() if kind in acceptable]
    if acceptable & _STATEMENT_END:
        words.append("the end of the statement")
    return words


def syntax_problem(tok: Token, prev: Token | None, states: list[int], brackets: list[Token]) -> SyntaxProblem:
    if tok.type == "FOR" and prev is not None and prev.type not in _STATEMENT_START:
        return SyntaxProblem("unexpected 'for': a comprehension is written [EXPRESSION for NAME in ITERABLE], a "
                             "generator (EXPRESSION for NAME in ITERABLE) in its own parentheses", tok.line, tok.column)
    problem = _problem_here(tok, prev, states)
    if brackets and brackets[-1].line < problem.line:  # most likely the bracket was never closed
        opener = brackets[-1]
        problem.message += f" (the '{opener.value}' opened at line {opener.line}, column {opener.column} is still open)"
    return problem


def _problem_here(tok: Token, prev: Token | None, states: list[int]) -> SyntaxProblem:
    what = describe(tok)
    if prev is None or prev.type in _STATEMENT_START:
        return SyntaxProblem(f"unexpected {what} at the start of a statement", tok.line, tok.column)
    line, column = tok.line, tok.column
    if tok.type in ("_NL", "$END"):  # point just after the last token, where something is missing
        line, column = prev.line, prev.column + len(prev.value)
        if "\n" in prev.value:
            line += prev.value.count("\n")
            column = len(prev.value) - prev.value.rindex("\n")
    expected = _expected(states)
    if tok.type in _EXPRESSION_START and "an operator" in expected:
        return SyntaxProblem(f"unexpected {what}: is an operator or ',' missing before it?", line, column)
    if not expected:  # pragma: no cover - every parser state accepts something
        return SyntaxProblem(f"unexpected {what}", line, column)
    listed = expected[0] if len(expected) == 1 else ", ".join(expected[:-1]) + " or " + expected[-1]
    return SyntaxProblem(f"unexpected {what}: expected {listed} after '{shortened(prev.value)}'", line, column)


# Building the tree ------------------------------------------------------------------------------


def source_excerpt(source: str, line: int, column: int, width: int = 80) -> str:
    """The source line (at most `width` characters of it) and a caret under `column`, on two lines."""
    start = 0
    for _ in range(line - 1):
        start = source.find("\n", start) + 1
        if start == 0:
            return ""
    stop = source.find("\n", start)
    text = source[start : stop if stop >= 0 else len(source)]
    caret = column - 1
    prefix = suffix = ""
    if len(text) > width:  # a window around the column
        left = max(0, min(caret - width // 2, len(text) - width))
        prefix, suffix = ("..." if left else ""), ("..." if left + width < len(text) else "")
        text, caret = text[left : left + width], caret - left
    shown, pad = [prefix], [" " * len(prefix)]
    for i, ch in enumerate(text):
        if ch == "\t":
            piece, space = ch, ch  # keep tabs so the caret lines up in a terminal
        elif ch.isprintable():
            piece, space = ch, " " * _width(ch)
        else:  # control characters, invisible spaces, lone surrogates
            piece = repr(ch)[1:-1]
            space = " " * len(piece)
        shown.append(piece)
        if i < caret:
            pad.append(space)
    pad.append(" " * max(0, caret - len(text)))
    return "".join(shown) + suffix + "\n" + "".join(pad) + "^"


def _width(ch: str) -> int:
    if ch.isascii():
        return 1
    import unicodedata

    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
