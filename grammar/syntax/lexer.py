"""The lexer of the language: source text to tokens, with the checks that give a precise message for what
is not part of the language (Python's blocks and statements, which point at `autodiff run`; operators
autodiff does not have, look-alike characters, invisible characters), and the limits on a program's size and
nesting. The token patterns come from the
generated tables (`_generated_parser.py`); the parser driver (`parser.py`) consumes the tokens."""

from __future__ import annotations

import functools
import keyword
import re

from autodiff.grammar.syntax import tables as _tables

MAX_SOURCE_CHARS = 1_000_000  # checked before lexing; parsing that much takes a few seconds
MAX_BRACKET_DEPTH = 500  # ( and [ open at once
MAX_PARSE_DEPTH = 5_000  # parser stack: bounds nesting without brackets too (- - - x, 2**2**2...)
MAX_INT_DIGITS = 4_000  # below Python's int() limit of 4,300 digits

_NOT_PYTHON = "is not part of the language (autodiff evaluates expressions, not Python)"
# Python's statements and blocks: a program that uses one is Python, for `autodiff run` (what each one is)
_PYTHON = {
    "def": "a function definition", "class": "a class", "while": "a while loop", "with": "a with block",
    "try": "try/except", "except": "try/except", "finally": "try/finally", "elif": "an if statement",
    "lambda": "a lambda", "return": "a return statement", "yield": "a generator", "break": "a loop",
    "continue": "a loop", "pass": "a block", "raise": "a raise statement", "global": "a global statement",
    "nonlocal": "a nonlocal statement", "del": "a del statement", "assert": "an assert statement",
    "async": "async code", "await": "async code",
}
# Keywords of the language that start a block of Python when they start a statement
_PYTHON_AT_START = {"for": "a for loop", "if": "an if statement", "else": "an if statement"}
RUN_POINTER = ("Python's blocks and statements are not part of autodiff's language, which reads expressions and "
               "assignments: put the program in a file and run it with `autodiff run FILE` (Python, with autodiff's "
               "torch)")
_RESERVED = frozenset(keyword.kwlist) - set(_tables.KEYWORDS)
# Python operators that start with a character the lexer does not know, longest first.
_FOREIGN_OPERATORS = "<<= >>= << >> &= |= ^= ^ ! { }".split()  # noqa: SIM905
# Unicode look-alikes of the language's characters, for "did you mean" hints (NFKC finds the rest).
_LOOKALIKES = dict(zip("−–—×·∗‘’“”÷", "---***''\"\"/"))
_STRING_PREFIXES = frozenset(("r", "u", "b", "br", "rb"))
_FSTRING_PREFIXES = frozenset(("f", "fr", "rf"))


def python_problem(word: str, what: str, line: int, column: int) -> SyntaxProblem:
    """A construct of Python that is not the language: a usage error pointing at `autodiff run`."""
    return SyntaxProblem(f"'{word}' starts {what}: {RUN_POINTER}", line, column, python=True)


class SyntaxProblem(Exception):
    """A mistake found somewhere inside; parse() turns it into the public error with an excerpt."""

    def __init__(self, message: str, line: int, column: int, limit: bool = False, python: bool = False) -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.limit = message, line, column, limit
        self.python = python  # Python that belongs in a file for `autodiff run` (a usage error)


class Token:
    """A terminal of the grammar: `type` is its name in autodiff.lark, `pos` its offset in the text."""

    __slots__ = ("column", "line", "pos", "type", "value")

    def __init__(self, type: str, value: str, pos: int, line: int, column: int) -> None:
        self.type, self.value, self.pos, self.line, self.column = type, value, pos, line, column

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.line}:{self.column})"


# Lexer -----------------------------------------------------------------------------------------

# Named groups in the generated order; `lastgroup` names the terminal that matched (the inner groups
# of a pattern close before its own group, so they never shadow it).
_PATTERN = "|".join(f"(?P<{name}>{regex})" for name, regex in _tables.TERMINALS)

@functools.cache
def _scanner() -> re.Pattern[str]:
    """The compiled pattern, compiled at the first lexing (re caches it too)."""
    return re.compile(_PATTERN)


_IGNORE = frozenset(_tables.IGNORE)
_KEYWORDS = _tables.KEYWORDS
_OPENERS = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}
_CLOSERS = {"RPAR": "LPAR", "RSQB": "LSQB", "RBRACE": "LBRACE"}
_CLOSING = {"LPAR": ")", "LSQB": "]", "LBRACE": "}"}
_ASSIGN_LIKE = frozenset({"PLUS", "MINUS", "STAR", "SLASH", "AT", "POW", "EQUAL", "COLON"})
_ADJACENT_SECOND = frozenset({"STRING"})  # see _check_adjacent
_WORDS = frozenset({"NAME", "NUMBER", "IMPORT", "AS", "TRUE", "FALSE", "NONE", "FROM"})
_STATEMENT_START = frozenset({"_NL", "SEMICOLON"})


class _Scan:
    """The lexer's state between tokens."""

    __slots__ = ("brackets", "line", "line_start", "prev", "text")

    def __init__(self, text: str, brackets: list[Token]) -> None:
        self.text, self.brackets = text, brackets
        self.line, self.line_start = 1, 0
        self.prev: Token | None = None  # the previous significant token


def tokens(text: str, brackets: list[Token]):  # -> Iterator[Token]
    """Lex `text`, drop newlines inside brackets and blank lines, and refuse what is not the language, token by
    token. Indentation is free (a shell user may indent a program's lines as they like).

    `brackets` is the caller's: it holds the brackets open so far, for error messages. Every line ends
    with an _NL, the last one too (an empty one, described as the end of the program).
    """
    match = _scanner().match
    scan = _Scan(text, brackets)
    pos, end = 0, len(text)
    while pos < end:
        m = match(text, pos)
        if m is None or m.end() == pos:
            raise _lex_problem(text, pos, scan.line, pos - scan.line_start + 1)
        kind, value = m.lastgroup, m.group()
        start, pos = pos, m.end()
        tok = None if kind in _IGNORE else Token(kind, value, start, scan.line, start - scan.line_start + 1)
        if "\n" in value:
            scan.line += value.count("\n")
            scan.line_start = start + value.rindex("\n") + 1
        if tok is None:
            continue
        if kind == "_NL":
            if scan.brackets or scan.prev is None or scan.prev.type == "_NL":
                continue  # implicit line joining inside brackets; a blank line
        else:
            _token(scan, tok, pos)
        prev = scan.prev
        if (
            prev is not None
            and (tok.type in _ADJACENT_SECOND or (prev.type == "NUMBER" and tok.type in _WORDS))
            and prev.pos + len(prev.value) == tok.pos
        ):
            _check_adjacent(text, prev, tok)
        scan.prev = tok
        yield tok
    yield from _end(scan, end)


def _token(scan: _Scan, tok: Token, pos: int) -> None:
    """Refuse what is not the language; keywords take their own type; brackets are counted."""
    kind, value, brackets = tok.type, tok.value, scan.brackets
    if kind in _ASSIGN_LIKE and scan.text.startswith("=", pos):
        both = scan.text[tok.pos : pos + 1]  # := and the like: caught here, before the parser sees the first
        raise SyntaxProblem(f"'{both}' {_NOT_PYTHON}", tok.line, tok.column)
    if kind == "NAME":
        tok.type = _KEYWORDS.get(value, "NAME")
        starts = scan.prev is None or scan.prev.type in _STATEMENT_START
        if value in _RESERVED:
            raise python_problem(value, _PYTHON.get(value, "Python code"), tok.line, tok.column)
        if starts and value in _PYTHON_AT_START:
            raise python_problem(value, _PYTHON_AT_START[value], tok.line, tok.column)
    elif kind == "AT" and (scan.prev is None or scan.prev.type in _STATEMENT_START):
        raise python_problem("@", "a decorator", tok.line, tok.column)
    elif kind in _OPENERS:
        if len(brackets) >= MAX_BRACKET_DEPTH:
            raise SyntaxProblem(f"brackets are nested more than {MAX_BRACKET_DEPTH} deep", tok.line, tok.column,
                                limit=True)
        brackets.append(tok)
    elif kind in _CLOSERS:
        if not brackets:
            raise SyntaxProblem(f"unexpected '{value}'", tok.line, tok.column)
        opener = brackets.pop()
        if opener.type != _CLOSERS[kind]:
            closer = _CLOSING[opener.type]
            raise SyntaxProblem(f"unexpected '{value}': the '{opener.value}' opened at line {opener.line}, column "
                                f"{opener.column} needs a '{closer}' first", tok.line, tok.column)


def _end(scan: _Scan, end: int):  # -> Iterator[Token]
    """The last line's end and $END."""
    if scan.brackets:
        opener = scan.brackets[-1]
        raise SyntaxProblem(f"unclosed '{opener.value}' opened at line {opener.line}, column {opener.column}",
                            opener.line, opener.column)
    column = end - scan.line_start + 1
    if scan.prev is not None and scan.prev.type != "_NL":
        yield Token("_NL", "", end, scan.line, column)  # the last line's end (described as the end of the program)
    yield Token("$END", "", end, scan.line, column)


def _check_adjacent(text: str, prev: Token, tok: Token) -> None:
    """Two tokens with nothing between them that spell something outside the language."""
    both = text[prev.pos : tok.pos + len(tok.value)]
    if prev.type == "NUMBER" and tok.type in _WORDS:
        if prev.value == "0" and tok.value[:1] in "xXoObB" and tok.type == "NAME":
            base = {"x": "hexadecimal", "o": "octal", "b": "binary"}[tok.value[0].lower()]
            raise SyntaxProblem(f"invalid number '{shortened(both)}': {base} literals are not part of the language; "
                                "write the number in decimal", prev.line, prev.column)
        if tok.value.startswith("_"):
            raise SyntaxProblem(f"invalid number '{shortened(both)}': '_' between digits is not part of the language; "
                                "write the digits without it", prev.line, prev.column)
        hint = ""
        if tok.type == "NAME" and tok.value[0] not in "eEjJ":
            hint = f"; to multiply, write '{prev.value}*{tok.value}'"
        elif tok.value in ("j", "J"):
            hint = (": complex numbers are not part of the language (tensors are float32 or float64); keep the real "
                    "and imaginary parts as two real numbers or tensors")
        raise SyntaxProblem(f"invalid number '{shortened(both)}'{hint}", prev.line, prev.column)
    if tok.type == "STRING" and prev.type == "NAME" and prev.value.lower() in _FSTRING_PREFIXES:
        raise python_problem(prev.value + tok.value[:1], "an f-string", prev.line, prev.column)
    if tok.type == "STRING" and prev.type == "NAME" and prev.value.lower() in _STRING_PREFIXES:
        raise SyntaxProblem(f"string prefix '{prev.value}' {_NOT_PYTHON}: write a plain string", prev.line, prev.column)


def _lex_problem(text: str, pos: int, line: int, column: int) -> SyntaxProblem:
    """Why nothing of the language starts at `pos`."""
    ch = text[pos]
    if ch in "'\"":
        triple = "triple-quoted " if text.startswith(ch * 3, pos) else ""
        return SyntaxProblem(f"unterminated {triple}string", line, column)
    if ch == "\\":
        return SyntaxProblem("unexpected '\\': a backslash may only end a line, to continue it", line, column)
    for op in _FOREIGN_OPERATORS:
        if text.startswith(op, pos):
            if op == "^":
                return SyntaxProblem("'^' is not a power in Python (it is exclusive or): write ** for a power, "
                                     "e.g. x**2 for x^2", line, column)
            return SyntaxProblem(f"'{op}' {_NOT_PYTHON}", line, column)
    return SyntaxProblem(_invalid_character(ch), line, column)


def _invalid_character(ch: str) -> str:
    import unicodedata  # only on this error path

    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    shown = f"'{ch}' ({code})" if ch.isprintable() and not ch.isspace() else f"{code} ({name})" if name else code
    message = f"invalid character {shown}"
    suggestion = _LOOKALIKES.get(ch) or unicodedata.normalize("NFKC", ch)
    if ch.isspace() or unicodedata.category(ch) == "Cf":
        return message + "; it is an invisible or unusual space: delete it or type a plain space"
    if suggestion != ch and len(suggestion) == 1 and suggestion.isascii() and suggestion.isprintable():
        return message + f"; did you mean '{suggestion}'?"
    if ch.isidentifier():
        return message + "; names use only ASCII letters, digits and '_'"
    return message


def shortened(text: str, limit: int = 24) -> str:
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
