"""Textbook notation, read into the language before parsing, for the calculus commands (diff, check, table, plot,
jacobian, hessian, critical, tangent, limit, newton, gradient): what a student copies from a book, wherever the
language would reject it. `3x`, `2(x+1)`, `(x+1)(x-1)`, `sin x`, `x^2`, `π`, `θ`, `√x`, `x²`, `|x|`, `ln x`,
`log(x, 7)`, `log_2 x`, `sin^2(x)`, `sin^-1(x)`, `xy` (x times y, when x and y are variables of their own); an
equation `x^2 + y^2 = 25` is read as its two sides, and `f(x) = x^2` as the function's formula.

A program the language accepts is read as it is (`eval` and `run` never come here: `^` keeps Python's
meaning there). Nothing is evaluated: this is a rewriting of tokens into the language's text, which the
language's own parser then reads. No recursion: brackets are a stack.
"""

from __future__ import annotations

import functools
import keyword
import re

from autodiff.app.literals import is_plain_number
from autodiff.app.textbook.plain import as_written
from autodiff.app.textbook.questions import GREEK_LETTERS, derivative_question, equation_sides, function_definition
from autodiff.engine import BUILTINS
from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import parse

# Functions a book applies without brackets (sin x), when the name is not a variable of the question
_ELEMENTARY = frozenset(name for name in re.split(
    " ", "sin cos tan sec csc cot asin acos atan asec acsc acot arcsin arccos arctan sinh cosh tanh asinh acosh atanh "
    "arcsinh arccosh arctanh exp log ln log2 log10 sqrt cbrt abs erf") if name in BUILTINS)
_INVERSES = {"sin": "asin", "cos": "acos", "tan": "atan", "sec": "asec", "csc": "acsc", "cot": "acot",
             "sinh": "asinh", "cosh": "acosh", "tanh": "atanh"}
_CONSTANTS = frozenset(("pi", "e", "inf", "nan"))
GREEK = dict(zip(GREEK_LETTERS, re.split(
    " ", "alpha beta gamma delta epsilon zeta eta theta iota kappa lam mu nu xi omicron pi rho sigma sigma tau upsilon "
    "phi phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega")))
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+"))
_SYMBOLS = {"−": "-", "–": "-", "—": "-", "×": "*", "·": "*", "⋅": "*", "∗": "*", "÷": "/", "∞": "inf",
            "{": "(", "}": ")", "≤": "<=", "≥": ">=", "≠": "!="}
_ROOTS = {"√": "sqrt", "∛": "cbrt"}
# compiled on first use (re keeps it): a text taken as written (app.textbook.plain) needs no rewriting
_TOKEN = r"""
    (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+(?![A-Za-z_]))?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<str>'[^'\n]*'|"[^"\n]*")
  | (?P<sup>[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)
  | (?P<op>\*\*|//|==|!=|<=|>=|[-+*/^=<>%@&~.:\[\]])
  | (?P<open>\() | (?P<close>\)) | (?P<comma>,) | (?P<bar>\|) | (?P<sep>;|\n)
  | (?P<space>[ \t\r]+|\#[^\n]*)
"""
_BINARY_SPACED = frozenset(("+", "-", "=", "==", "!=", "<", "<=", ">", ">="))
_ENDS_ARGUMENT = frozenset(("+", "-", "*", "/", "//", "%", "@", "=", "==", "!=", "<", "<=", ">", ">="))


class Reading:
    """How a command read its program: the program in the language, what to show (`read_as`, None when it was
    taken as written), the two sides of an equation, and names read as variables although built-ins have them."""

    def __init__(self, program: str, read_as: str | None = None, equation: tuple[str, str] | None = None,
                 variables: list[str] | None = None, derivative: tuple[str, int] | None = None) -> None:
        self.program = program
        self.read_as = read_as
        self.equation = equation
        self.variables = [] if variables is None else variables
        self.derivative = derivative  # `d/dx x^3`, `d²/dx² ...`: the question asked, (x, 2)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and vars(self) == vars(other)

    __hash__ = None  # type: ignore[assignment]  # compared by value, so not hashable


def name(text: str) -> str:
    """A variable's name as the language spells it (θ is theta), for bindings and the variables of a question."""
    return text if text.isascii() else "".join(GREEK.get(c, c) for c in text)


def read(text: str, variables: tuple[str, ...] | list[str] = (), equations: bool = False) -> Reading:
    """The program as the language reads it; in textbook notation where the language would reject it. With
    `equations`, a last statement `A = B` whose left side is not a name is an equation (A - B = 0). Short
    texts are read once (a batch repeats its programs and answers): each call gets a Reading of its own."""
    if not variables and is_plain_number(text):  # a binding's value as repr() writes it (a batch line's)
        return Reading(text)
    if len(text) > _REMEMBERED_CHARS:
        return _read(text, variables, equations)
    program, read_as, equation, names, derivative = _remembered(text, tuple(variables), equations)
    return Reading(program, read_as, equation, list(names), derivative)


_REMEMBERED_CHARS = 2_000


@functools.lru_cache(maxsize=1024)
def _remembered(text: str, variables: tuple[str, ...], equations: bool) -> tuple:
    reading = _read(text, variables, equations)
    return reading.program, reading.read_as, reading.equation, tuple(reading.variables), reading.derivative


def _read(text: str, variables: tuple[str, ...] | list[str] = (), equations: bool = False) -> Reading:
    question = derivative_question(text)
    if question is not None:
        variable = name(question[0])
        reading = read(question[2], [*variables, variable], equations)
        reading.derivative = (variable, question[1])
        reading.read_as = reading.read_as or reading.program
        return reading
    declared = {name(v) for v in variables}
    if as_written(text, declared):  # most of a batch's texts: known as they are without rewriting them
        return Reading(text)
    definition = function_definition(text)
    if definition is not None:
        text = definition
    sides = equation_sides(text, equations)
    if sides is not None:
        left, right = (_rewrite(side, declared) for side in sides)
        return Reading(f"({left[0]}) - ({right[0]})", f"{left[0]} = {right[0]}", (left[0], right[0]),
                       sorted({*left[1], *right[1]}))
    one_line = "\n" not in text.strip()
    if not one_line and _parses(text):  # a program of several lines in the language: as written (indentation)
        return Reading(text)
    program, builtins_read = _rewrite(text, declared)
    if not one_line and not _parses(program):
        return Reading(text)  # the language's own message, for the text as written
    if program.replace(" ", "") == text.replace(" ", ""):
        return Reading(text, None, None, builtins_read)
    return Reading(program, program, None, builtins_read)


def _parses(text: str) -> bool:
    try:
        parse(text)
    except AutodiffError:
        return False
    return True


# ---------------------------------------------------------------------------- tokens
def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: numbers, names (Greek letters spelt out), operators, brackets, bars, roots."""
    out: list[tuple[str, str]] = []
    token = re.compile(_TOKEN, re.VERBOSE)
    pos = 0
    while pos < len(text):
        c = text[pos]
        if c in GREEK:
            out.append(("name", GREEK[c]))
            pos += 1
            continue
        if c in _SYMBOLS:
            symbol = _SYMBOLS[c]
            out.append(("name", symbol) if symbol == "inf" else ("open", "(") if symbol == "(" else
                       ("close", ")") if symbol == ")" else ("op", symbol))
            pos += 1
            continue
        if c in _ROOTS:
            out.append(("root", _ROOTS[c]))
            pos += 1
            continue
        m = token.match(text, pos)
        if m is None:
            out.append(("other", c))
            pos += 1
            continue
        kind = m.lastgroup or "other"
        if kind == "name" and keyword.iskeyword(m.group()):
            kind = "kw"
        if kind != "space":
            value = m.group()
            out.append(("sup", "".join(_SUPERSCRIPTS[s] for s in value)) if kind == "sup" else
                       ("op", "**") if value == "^" else (kind, value))
        pos = m.end()
    return out


def _singles(tokens: list[tuple[str, str]], declared: set[str]) -> set[str]:
    """The one-letter variables of the text: those written alone, those declared, and x, y and z."""
    return {v for k, v in tokens if k == "name" and len(v) == 1} | {d for d in declared if len(d) == 1} | \
        {"x", "y", "z"}


def _split_names(tokens: list[tuple[str, str]], declared: set[str]) -> list[tuple[str, str]]:
    """`xy` as x*y when x and y are variables of their own; `sinx` as sin x."""
    singles = _singles(tokens, declared)
    out: list[tuple[str, str]] = []
    for i, (kind, value) in enumerate(tokens):
        follows = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
        known = value in declared or value in BUILTINS or value in _CONSTANTS or follows == ("op", "=")
        if kind != "name" or known or len(value) < 2 or not value.isalpha() or (i and tokens[i - 1] == ("op", ".")):
            out.append((kind, value))
            continue
        prefix = max((f for f in _ELEMENTARY if value.startswith(f)), key=len, default="")
        rest = value[len(prefix):]
        suffix = max((f for f in _ELEMENTARY if value.endswith(f)), key=len, default="")
        head = value[:len(value) - len(suffix)]
        if prefix and (rest in declared or rest in singles or rest in _CONSTANTS or len(rest) == 1):
            out += [("name", prefix), ("name", rest)]
        elif suffix and head and follows[0] in ("open", "name", "num") and all(c in singles for c in head):  # xsin x
            out += [*(("name", c) for c in head), ("name", suffix)]
        else:
            pieces = _pieces(value, singles | declared | _CONSTANTS)
            out += [(kind, value)] if pieces is None else \
                [("name", pieces[0]), *(("part", p) for p in pieces[1:])]
    return out


def _pieces(word: str, known: set[str]) -> list[str] | None:
    """A word that is no name of its own as a product of known names (xy, xe: x*e, pix: pi*x), in the fewest
    pieces; None when it is not one. Dynamic programming over the word's prefixes (no recursion)."""
    best: list[list[str] | None] = [[]] + [None] * len(word)
    for end in range(1, len(word) + 1):
        for start in range(end):
            piece, before = word[start:end], best[start]
            if before is not None and piece in known and (best[end] is None or len(before) + 1 < len(best[end])):
                best[end] = [*before, piece]
    found = best[len(word)]
    return found if found is not None and len(found) > 1 else None


# ---------------------------------------------------------------------------- the rewriting
class _Frame:
    __slots__ = ("after_comma", "base", "content", "factor", "kind", "log", "start", "suffix")

    def __init__(self, kind: str, suffix: str = "", start: int = 0, base: str | None = None, log: bool = False) -> None:
        self.kind = kind  # "paren", "bar", "arg" (a function's argument without brackets), "root" (one factor)
        self.suffix = suffix  # the power written after it closes: sin^2 x is sin(x)**2
        self.start = start  # the output position where its function begins (a bracket goes there for a log's base)
        self.base = base  # log_b x: divided by log(b)
        self.log = log  # log(x, b) may follow: a comma makes the rest the base
        self.after_comma = False  # inside the base of log(x, b)
        self.content = False  # an operand has been written inside
        self.factor = False  # a function's argument without brackets has its one factor (cos y e^z: cos(y)*e^z)


class _Writer:
    """The output tokens, with the frames open and whether the last token ends an operand."""

    def __init__(self, declared: set[str]) -> None:
        self.out: list[str] = []
        self.opens: dict[int, int] = {}  # brackets to open before out[i] (a log's base): no insert, no O(n) shift
        self.frames: list[_Frame] = []
        self.ended = False
        self.declared = declared
        self.builtins_read: set[str] = set()

    def emit(self, text: str, ends: bool) -> None:
        self.out.append(text)
        self.ended = False
        if ends:
            self.mark()

    def open_before(self, index: int) -> None:
        self.opens[index] = self.opens.get(index, 0) + 1

    def tokens(self) -> list[str]:
        """The output, with the brackets opened before earlier tokens."""
        if not self.opens:
            return self.out
        return [piece for i, token in enumerate(self.out) for piece in ("(",) * self.opens.get(i, 0) + (token,)]

    def mark(self) -> None:
        """An operand has just ended: the frames open around it, up to a bracket, have content. A frame that has
        it already has it down to that bracket (marks go all the way down), so the walk stops there: each
        frame is walked once, and 20,000 nested roots are linear, not quadratic."""
        self.ended = True
        for frame in reversed(self.frames):
            if frame.content:
                break
            frame.content = True
            if frame.kind in ("paren", "bar"):
                break

    def close(self, frame: _Frame) -> None:
        """Write the end of a frame: its bracket, a base's division, a power."""
        if frame.after_comma:
            self.out += [")", ")"]
        else:
            self.out.append(")")
            if frame.base is not None:
                self.open_before(frame.start)
                self.out += ["/", "log", "(", frame.base, ")", ")"]
        if frame.suffix:
            self.out += ["**", frame.suffix if not frame.suffix.startswith("-") else f"({frame.suffix})"]
        self.mark()
        self.factor_written()

    def factor_written(self) -> None:
        """A factor (a variable, a bracket, a call), not a coefficient (2, pi), ends: an argument without
        brackets is complete (sin 2pi x is sin(2*pi*x), cos y e^z is cos(y)*e**z)."""
        if self.frames and self.frames[-1].kind == "arg":
            self.frames[-1].factor = True

    def close_arguments(self, single_only: bool = False) -> None:
        """Close the brackets-free arguments open on top (only one-factor ones with single_only)."""
        while self.frames and self.frames[-1].kind in (("root",) if single_only else ("arg", "root")):
            frame = self.frames[-1]
            if not frame.content:
                return
            self.frames.pop()
            self.close(frame)

    def operand(self, function: bool = False, glued: bool = False) -> None:
        """Before an operand: close what it cannot continue, and write the multiplication a book leaves out.
        A function (sin x cos x) or a second factor (cos y e^z) ends an argument without brackets; a letter
        glued to the one before (sin xy) does not."""
        if not self.ended:
            return
        self.close_arguments(single_only=True)
        top = self.frames[-1] if self.frames else None
        if top is not None and top.kind == "arg" and top.content and (function or (top.factor and not glued)):
            self.close_arguments()
        self.close_arguments(single_only=True)
        self.out.append("*")
        self.ended = False


def _rewrite(text: str, declared: set[str]) -> tuple[str, list[str]]:
    """The text in the language, and the built-in names it read as variables."""
    tokens = _split_names(_tokens(text), declared)
    w = _Writer(declared)
    i = 0
    while i < len(tokens):
        i = _step(w, tokens, i)
    w.close_arguments()
    return _render(w.tokens()), sorted(w.builtins_read)


def _is_function(value: str, follows: tuple[str, str], declared: set[str]) -> bool:
    if value in declared or value not in BUILTINS:
        return value.startswith("log_") and value not in declared
    return follows[0] == "open" or value in _ELEMENTARY


def _step(w: _Writer, tokens: list[tuple[str, str]], i: int) -> int:
    """Write token i (and what it takes with it); the index of the next token."""
    kind, value = tokens[i]
    glued = kind == "part"  # a letter of a word read as a product (xy), after the first
    kind = "name" if glued else kind
    follows = tokens[i + 1] if i + 1 < len(tokens) else ("", "")
    if kind == "name" and not glued and _is_function(value, follows, w.declared):
        return _function(w, tokens, i)
    if kind == "name" and follows[0] == "open" and len(value) > 1 and value not in w.declared:
        w.operand()  # gelu(x): a call of a function the language may not have (it says so), not gelu*(x)
        w.emit(value, False)
    elif kind in ("num", "name", "str"):
        w.operand(glued=glued)
        if kind == "name" and value in BUILTINS and value not in w.declared:
            w.builtins_read.add(value)
        w.emit(value, True)
        if kind != "num" and value not in _CONSTANTS:
            w.factor_written()
    elif kind == "sup":
        w.out += ["**", value if not value.startswith("-") else f"({value})"]
        w.mark()
    elif kind == "root":
        w.operand()
        w.emit(value, False)
        w.emit("(", False)
        w.frames.append(_Frame("paren" if follows[0] == "open" else "root"))
        return i + 1 + (follows[0] == "open")
    elif kind == "kw":
        if w.ended:
            w.close_arguments()
        w.emit(f" {value} ", value in ("True", "False", "None"))
    elif kind == "open":
        w.operand()
        w.emit("(", False)
        w.frames.append(_Frame("paren"))
    elif kind in ("close", "comma", "bar"):
        _bracket(w, kind)
    elif kind == "sep":
        w.close_arguments()
        w.emit("\n" if value == "\n" else ";", False)
    else:
        if value in _ENDS_ARGUMENT and w.ended:
            w.close_arguments()
        w.emit(value, False)
    return i + 1


def _bracket(w: _Writer, kind: str) -> None:
    """A closing bracket, a comma, or an absolute-value bar (opening where an operand may begin)."""
    if kind == "bar" and (not w.ended or not any(f.kind == "bar" for f in w.frames)):
        w.operand()
        w.emit("abs", False)
        w.emit("(", False)
        w.frames.append(_Frame("bar"))
        return
    w.close_arguments()
    top = w.frames[-1] if w.frames else None
    if kind == "comma":
        if top is not None and top.log and not top.after_comma:  # log(x, b): the rest is the base
            w.out += [")", "/", "log", "("]
            w.open_before(top.start)
            top.after_comma = True
            w.ended = False
            return
        w.emit(",", False)
        return
    if top is None or (kind == "bar") != (top.kind == "bar"):
        w.emit(")" if kind == "close" else "|", True)  # unbalanced: the language's parser says where
        return
    w.frames.pop()
    w.close(top)


def _power(tokens: list[tuple[str, str]], i: int) -> tuple[str | None, int]:
    """The exponent a function name carries (sin^2, sin^-1, sin^(-1), sin²), and the index after it."""
    kinds = tokens[i:i + 6]
    if kinds and kinds[0][0] == "sup":
        return kinds[0][1], i + 1
    if not kinds or kinds[0] != ("op", "**"):
        return None, i
    rest = kinds[1:]
    if rest[:1] and rest[0][0] == "num":
        return rest[0][1], i + 2
    if len(rest) >= 2 and rest[0] == ("op", "-") and rest[1][0] == "num":
        return "-" + rest[1][1], i + 3
    if len(rest) >= 4 and rest[0][0] == "open" and rest[1] == ("op", "-") and rest[2][0] == "num" \
            and rest[3][0] == "close":
        return "-" + rest[2][1], i + 5
    return None, i


def _function(w: _Writer, tokens: list[tuple[str, str]], i: int) -> int:
    """A function name: its power or inverse (sin^2, sin^-1), then its argument, in brackets or not."""
    value = tokens[i][1]
    base = None
    if value.startswith("log_"):
        base = value[4:]
        value = {"2": "log2", "10": "log10", "e": "log"}.get(base, "log")
        base = None if value != "log" or base == "e" else base
    power, j = _power(tokens, i + 1)
    if power == "-1" and value in _INVERSES:
        value, power = _INVERSES[value], None
    value = "log" if value == "ln" else value
    w.operand(function=True)
    start = len(w.out)
    w.emit(value, False)
    w.emit("(", False)
    follows = tokens[j] if j < len(tokens) else ("", "")
    suffix = power or ""
    if follows[0] == "open":
        w.frames.append(_Frame("paren", suffix=suffix, start=start, base=base, log=value == "log" and base is None))
        return j + 1
    w.frames.append(_Frame("arg", suffix=suffix, start=start, base=base))
    return j


def _render(out: list[str]) -> str:
    """The tokens as text: spaces around + - = and comparisons (not around a sign), after commas."""
    text: list[str] = []
    previous = None
    for token in out:
        if token in ("\n", ";"):
            text.append("\n" if token == "\n" else "; ")
            previous = None
            continue
        unary = previous is None or previous in ("(", ",", "**", "*", "/", *_BINARY_SPACED)
        if token in _BINARY_SPACED and not (token in "+-" and unary):
            text.append(f" {token} ")
        elif token == ",":
            text.append(", ")
        else:
            text.append(token)
        previous = token
    return _outer("".join(text).strip())


def _outer(text: str) -> str:
    """Without brackets around the whole program: (log(x)/log(7)) is log(x)/log(7)."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and i < len(text) - 1:
            return text
    return text[1:-1]
