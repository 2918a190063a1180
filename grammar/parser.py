"""`parse(source) -> Program`: text of the autodiff language to a syntax tree (no evaluation).

The grammar is `autodiff.lark`; `generate.py` compiles it with lark into the LALR(1) tables of
`_generated_parser.py`, and this module drives them: `lexer._tokens` lexes and filters, `_run` shifts and
reduces, calling a `_Builder` method per rule so the tree grows bottom-up. Nothing recurses over the
program, and nothing here imports lark or compiles the grammar: importing this module and parsing a
line costs about 6 ms (plus the `dataclasses` module, if nothing imported it before).


Every mistake raises `ParseError` (line, column and a caret excerpt) or `LimitError`; nothing else.
"""

from __future__ import annotations

import re
from dataclasses import replace

from autodiff.engine.errors import LimitError, ParseError
from autodiff.grammar import _generated_parser as _tables
from autodiff.grammar.lexer import (
    MAX_BRACKET_DEPTH,
    MAX_INT_DIGITS,
    MAX_PARSE_DEPTH,
    MAX_SOURCE_CHARS,
    Token,
    _Problem,
    _short,
    _tokens,
)
from autodiff.grammar.syntax import (
    Assert,
    Assign,
    AssignTo,
    Attribute,
    AugAssign,
    BinOp,
    BoolOp,
    Break,
    Call,
    Constant,
    Continue,
    EllipsisIndex,
    Expr,
    ExprStmt,
    For,
    FString,
    FunctionDef,
    If,
    IfExp,
    Import,
    IndexAssign,
    Lambda,
    ListComp,
    ListExpr,
    Name,
    Node,
    NoneIndex,
    Number,
    Pass,
    Program,
    Return,
    Slice,
    String,
    Subscript,
    TupleExpr,
    UnaryOp,
    While,
    With,
)

__all__ = ["MAX_BRACKET_DEPTH", "MAX_INT_DIGITS", "MAX_PARSE_DEPTH", "MAX_SOURCE_CHARS", "parse", "source_excerpt"]

# The LALR(1) driver -----------------------------------------------------------------------------


def _decode_table(row: str) -> dict[str, int]:
    """'NAME s6 RPAR r42' -> {'NAME': 6, 'RPAR': ~42}: a shift/goto is >= 0, a reduction is ~rule."""
    words = row.split()
    return {sym: int(act[1:]) if act[0] == "s" else ~int(act[1:]) for sym, act in zip(words[::2], words[1::2])}


_ACTIONS = [_decode_table(row) for row in _tables.STATES]
_END_STATE = _tables.END_STATE


def _is_terminal(symbol: str) -> bool:
    return symbol == "$END" or symbol.lstrip("_")[:1].isupper()


def _unit_reductions(under: int, top: int, kind: str, rules: list) -> int:
    """The state after every unit reduction that a `kind` lookahead triggers on top of `under`."""
    while True:
        action = _ACTIONS[top].get(kind)
        if action is None or action >= 0 or rules[~action][1] is not None:
            return top
        top = _ACTIONS[under][rules[~action][0]]


# (state under, state on top, lookahead) -> state after its chain of unit reductions (e.g. a number
# followed by '+' climbs atom, primary, power, factor, term): one lookup instead of five steps.
_UNIT_CACHE: dict[tuple[int, int, str], int] = {}


def _run(tokens, builder: _Builder, brackets: list[Token]) -> list:
    """Shift and reduce until '$END' completes the program; returns the `start` rule's value."""
    actions, rules, unit_cache = _ACTIONS, builder.rules, _UNIT_CACHE
    states: list[int] = [_tables.START_STATE]
    values: list = []
    prev: Token | None = None
    opener: Token | None = None  # the keyword of the last block statement begun, for "expected an indented block"
    for tok in tokens:
        kind = tok.type
        if kind in _BLOCK_KEYWORDS:
            opener = tok
        while True:
            action = actions[states[-1]].get(kind)
            if action is None:
                raise _syntax_problem(tok, prev, states, brackets, opener)
            if action >= 0:  # shift
                states.append(action)
                values.append(tok)
                if len(states) > MAX_PARSE_DEPTH:
                    raise _Problem(
                        f"the program is nested too deeply for the parser (limit {MAX_PARSE_DEPTH:,})",
                        tok.line,
                        tok.column,
                        limit=True,
                    )
                prev = tok
                break
            origin, build, size, keep = rules[~action]
            if build is None:  # rules like `?term: factor` pass their one child through: only the state changes
                key = (states[-2], states[-1], kind)
                top = unit_cache.get(key)
                if top is None:
                    top = unit_cache[key] = _unit_reductions(states[-2], states[-1], kind, rules)
                states[-1] = top
                continue
            if size:
                args = values[-size:]
                del values[-size:]
                del states[-size:]
            else:
                args = []
            if keep is not None:  # drop punctuation, splice inlined rules
                children = args[0] if keep[0] is None else []  # reuse a left-recursive list: O(n), not O(n^2)
                for index, splice in keep[1:]:
                    if splice:
                        children.extend(args[index])
                    else:
                        children.append(args[index])
                args = children
            value = build(args)
            goto = actions[states[-1]][origin]
            states.append(goto)
            values.append(value)
            if kind == "$END" and goto == _END_STATE:
                return value
    raise AssertionError("the token stream ends with $END")  # pragma: no cover


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
_STATEMENT_START = frozenset(("_NL", "SEMICOLON", "_INDENT", "_DEDENT"))
_BLOCK_KEYWORDS = frozenset(("IF", "ELIF", "ELSE", "FOR", "WHILE", "WITH", "DEF"))


def _describe(tok: Token) -> str:
    if tok.type == "$END":
        return "end of program"
    if tok.type == "_NL":
        return "end of line" if tok.value else "end of program"
    if tok.type == "_INDENT":
        return "indent"
    if tok.type == "_DEDENT":
        return "unindent"
    if tok.type in ("NAME", "NUMBER"):
        return f"{tok.type.lower()} '{tok.value}'"
    if tok.type == "STRING":
        return f"string {_short(tok.value)}"
    return f"'{tok.value}'"


def _accepts(states: list[int], kind: str) -> bool:
    """Would the parser, in this state, take a token of this kind? (Simulates the reductions.)"""
    stack = list(states)
    while True:
        action = _ACTIONS[stack[-1]].get(kind)
        if action is None:
            return False
        if action >= 0:
            return True
        origin, _, spec = _tables.RULES[~action]
        if spec:
            del stack[-len(spec) :]
        stack.append(_ACTIONS[stack[-1]][origin])
        if kind == "$END" and stack[-1] == _END_STATE:
            return True


def _expected(states: list[int]) -> list[str]:
    """What could come next, in words: 'an expression', 'an operator', "')'", ..."""
    acceptable = {kind for kind in _ACTIONS[states[-1]] if _is_terminal(kind) and _accepts(states, kind)}
    if "NUMBER" in acceptable:  # (a NAME alone is wanted after '.', 'import' and 'as')
        return ["an expression"]
    words = ["an operator"] if acceptable & _BINARY else []
    words += [shown for kind, shown in _SHOWN_TERMINALS.items() if kind in acceptable]
    if acceptable & _STATEMENT_END:
        words.append("the end of the statement")
    return words


def _syntax_problem(tok: Token, prev: Token | None, states: list[int], brackets: list[Token],
                    opener: Token | None = None) -> _Problem:
    if _ACTIONS[states[-1]].get("_INDENT") is not None and opener is not None:  # as Python says it
        return _Problem(f"expected an indented block after '{opener.value}' on line {opener.line}", opener.line,
                        opener.column)
    if tok.type == "FOR" and prev is not None and prev.type not in _STATEMENT_START:
        return _Problem("unexpected 'for': a comprehension is written [EXPRESSION for NAME in ITERABLE], a "
                        "generator (EXPRESSION for NAME in ITERABLE) in its own parentheses", tok.line, tok.column)
    problem = _syntax_problem_here(tok, prev, states)
    if brackets and brackets[-1].line < problem.line:  # most likely the bracket was never closed
        opener = brackets[-1]
        problem.message += f" (the '{opener.value}' opened at line {opener.line}, column {opener.column} is still open)"
    return problem


def _syntax_problem_here(tok: Token, prev: Token | None, states: list[int]) -> _Problem:
    what = _describe(tok)
    if tok.type == "_INDENT":
        return _Problem("unexpected indent: this line is indented more than the one before it, which does not "
                        "end with ':'", tok.line, tok.column)
    if prev is None or prev.type in _STATEMENT_START:
        return _Problem(f"unexpected {what} at the start of a statement", tok.line, tok.column)
    line, column = tok.line, tok.column
    if tok.type in ("_NL", "$END", "_DEDENT"):  # point just after the last token, where something is missing
        line, column = prev.line, prev.column + len(prev.value)
        if "\n" in prev.value:
            line += prev.value.count("\n")
            column = len(prev.value) - prev.value.rindex("\n")
    expected = _expected(states)
    if tok.type in _EXPRESSION_START and "an operator" in expected:
        return _Problem(f"unexpected {what}: is an operator or ',' missing before it?", line, column)
    if not expected:  # pragma: no cover - every parser state accepts something
        return _Problem(f"unexpected {what}", line, column)
    listed = expected[0] if len(expected) == 1 else ", ".join(expected[:-1]) + " or " + expected[-1]
    return _Problem(f"unexpected {what}: expected {listed} after '{_short(prev.value)}'", line, column)


# Building the tree ------------------------------------------------------------------------------


class _Keyword:
    __slots__ = ("name", "value")

    def __init__(self, name: Token, value: Expr) -> None:
        self.name, self.value = name, value


_ESCAPE = re.compile(  # hex digits are counted in escape(), to report a short \x, \u or \U
    r"\\(?:x([0-9A-Fa-f]{0,2})|u([0-9A-Fa-f]{0,4})|U([0-9A-Fa-f]{0,8})|N(\{[^}\n]*\})?|([0-7]{1,3})|([\s\S]))"
)
_SIMPLE_ESCAPES = dict(zip("\n\\'\"abfnrtv", ("", "\\", "'", '"', "\a", "\b", "\f", "\n", "\r", "\t", "\v")))
_DESCRIBE_TARGET = {
    Number: "a number",
    String: "a string",
    Constant: "a constant",
    BinOp: "an operation",
    UnaryOp: "an operation",
    Call: "a function call",
    Attribute: "an attribute",
    ListExpr: "a list",
    TupleExpr: "a tuple",
    Subscript: "an indexed expression",
}


def _at(node: Node | Token) -> dict[str, int]:
    return {"line": node.line, "column": node.column}


def _decode_string(tok: Token) -> str:
    """The value of a string literal: Python's escapes, decoded without eval."""
    raw = tok.value
    quote = 3 if len(raw) >= 6 and raw[:3] in ("'''", '"""') else 1
    body = raw[quote:-quote]
    if "\\" not in body:
        return body

    def escape(m: re.Match) -> str:
        hex2, hex4, hex8, name, octal, other = m.groups()
        digits, width = next(((d, w) for d, w in ((hex2, 2), (hex4, 4), (hex8, 8)) if d is not None), (None, 0))
        if digits is not None:
            if len(digits) == width and int(digits, 16) <= 0x10FFFF:
                return chr(int(digits, 16))
        elif octal is not None:
            return chr(int(octal, 8))
        elif other is not None:
            return _SIMPLE_ESCAPES.get(other, m.group())  # unknown escapes stay, as in Python
        elif name is not None:
            import unicodedata

            try:
                return unicodedata.lookup(name[1:-1])
            except KeyError:
                pass
        before = raw[: quote + m.start()]
        line = tok.line + before.count("\n")
        column = len(before) - before.rindex("\n") if "\n" in before else tok.column + len(before)
        raise _Problem(f"invalid escape '{_short(m.group())}' in a string", line, column) from None

    return _ESCAPE.sub(escape, body)


class _Builder:
    """One method per rule action of the grammar (the `-> alias` names); each gets the kept children."""

    def __init__(self) -> None:
        # rules[i] = (nonterminal, build, number of symbols, keep) with keep None when every child is
        # kept, else (None if the first child's list is reused else 0, (index, splice?)...).
        self.rules = []
        for origin, action, spec in _tables.RULES:
            if action == "_":
                build = _identity  # the children list is already a fresh one
            elif action == "" and spec == "k":
                build = None  # see _run
            elif action == "":
                build = _first
            else:
                build = getattr(self, action)
            keep = None
            if set(spec) != {"k"} and spec:
                kept = [(i, how == "s") for i, how in enumerate(spec) if how != "d"]
                keep = (None, *kept[1:]) if kept and kept[0] == (0, True) else (0, *kept)
            self.rules.append((origin, build, len(spec), keep))

    # statements

    def start(self, c: list) -> list:
        return c

    def expr_stmt(self, c: list) -> ExprStmt:
        return ExprStmt(c[0], **_at(c[0]))

    def assign(self, c: list) -> Assign | IndexAssign | AssignTo:
        *targets, value = c
        if len(targets) == 1:
            target = targets[0]
            if isinstance(target, Name):
                return Assign(target.id, value, **_at(target))
            if isinstance(target, Subscript) and isinstance(target.value, Name):
                return IndexAssign(target.value.id, target.index, value, **_at(target))
        for target in targets:
            _check_target(target, "=")
        return AssignTo(tuple(targets), value, **_at(targets[0]))

    def aug_assign(self, c: list) -> AugAssign:
        target, op, value = c
        if isinstance(target, (TupleExpr, ListExpr)):
            raise _Problem(f"'{op.value}' needs one target, not {_DESCRIBE_TARGET[type(target)]}", **_at(target))
        _check_target(target, op.value)
        return AugAssign(target, op.value[:-1], value, **_at(target))

    def pass_stmt(self, c: list) -> Pass:
        return Pass(**_at(c[0]))

    def break_stmt(self, c: list) -> Break:
        return Break(**_at(c[0]))

    def continue_stmt(self, c: list) -> Continue:
        return Continue(**_at(c[0]))

    def return_stmt(self, c: list) -> Return:
        return Return(c[1] if len(c) > 1 else None, **_at(c[0]))

    def assert_stmt(self, c: list) -> Assert:
        return Assert(c[1], c[2] if len(c) > 2 else None, **_at(c[0]))

    # blocks

    def suite(self, c: list) -> tuple:
        return tuple(c)

    def if_stmt(self, c: list) -> If:
        keyword, test, body, *clauses = c
        orelse: tuple = ()
        for clause in reversed(clauses):  # elif chains become nested Ifs, built from the last one
            if clause[0] == "else":
                orelse = clause[1]
            else:
                orelse = (If(clause[1], clause[2], orelse, line=clause[0].line, column=clause[0].column),)
        return If(test, body, orelse, **_at(keyword))

    def elif_clause(self, c: list) -> tuple:
        return (c[0], c[1], c[2])

    def else_clause(self, c: list) -> tuple:
        return ("else", c[1])

    def for_stmt(self, c: list) -> For:
        keyword, target, _, iterable, body = c
        _check_target(target, "for")
        return For(target, iterable, body, **_at(keyword))

    def while_stmt(self, c: list) -> While:
        return While(c[1], c[2], **_at(c[0]))

    def with_stmt(self, c: list) -> With:
        alias = c[3].value if len(c) > 3 else None
        return With(c[1], alias, c[-1], **_at(c[0]))

    def params(self, c: list) -> tuple[str, ...]:
        names = tuple(tok.value for tok in c if tok.type == "NAME")
        for i, name in enumerate(names):
            if name in names[:i]:
                raise _Problem(f"duplicate parameter '{name}'", **_at(c[0]))
        return names

    lambda_params = params

    def funcdef(self, c: list) -> FunctionDef:
        keyword, name = c[0], c[1]
        params = c[2] if len(c) > 3 else ()
        body = [stmt for stmt in c[-1] if not (isinstance(stmt, ExprStmt) and isinstance(stmt.value, String))]
        if len(body) == 1 and isinstance(body[0], Return) and body[0].value is not None:
            return FunctionDef(name.value, params, body[0].value, **_at(keyword))  # def f(x): return EXPR
        return FunctionDef(name.value, params, tuple(c[-1]), **_at(keyword))

    # expressions (Python's)

    def comp_for(self, c: list) -> tuple:
        target = c[1]
        _check_target(target, "for")
        return (target, c[3], tuple(c[5::2]))

    def list_comp(self, c: list) -> ListComp:
        target, iterable, conditions = c[2]
        return ListComp(c[1], target, iterable, conditions, **_at(c[0]))

    def call_generator(self, c: list) -> Call:
        function, _, element, (target, iterable, conditions), _ = c
        generator = ListComp(element, target, iterable, conditions, **_at(c[1]))
        return Call(function, (generator,), (), **_at(function))

    def if_exp(self, c: list) -> IfExp:
        return IfExp(c[2], c[0], c[4], **_at(c[0]))

    def lambda_exp(self, c: list) -> Lambda:
        params = c[1] if len(c) > 2 else ()
        return Lambda(params, c[-1], **_at(c[0]))

    def bool_op(self, c: list) -> BoolOp:
        return BoolOp(c[1].value, c[0], c[2], **_at(c[0]))

    def not_op(self, c: list) -> UnaryOp:
        return UnaryOp("not", c[1], **_at(c[0]))

    def compare(self, c: list) -> BinOp | BoolOp:
        # a < b < c is (a < b) and (b < c), as in Python (b is evaluated for each of its comparisons)
        links = [BinOp(c[i], c[i - 1], c[i + 1], line=c[i - 1].line, column=c[i - 1].column)
                 for i in range(1, len(c) - 1, 2)]
        chain = links[-1]
        for link in reversed(links[:-1]):
            chain = BoolOp("and", link, chain, line=link.line, column=link.column)
        return chain

    def comp_op(self, c: list) -> str:
        return " ".join(tok.value for tok in c)

    def import_stmt(self, c: list) -> Import:
        return Import(c[1], c[3].value if len(c) > 2 else None, **_at(c[0]))

    def dotted_name(self, c: list) -> str:
        return ".".join(tok.value for tok in c)

    # expressions

    def tuple(self, c: list) -> TupleExpr:
        return TupleExpr(tuple(c), **_at(c[0]))

    def binop(self, c: list) -> BinOp:
        left = c[0]
        return BinOp(c[1].value, left, c[2], line=left.line, column=left.column)

    def unary(self, c: list) -> UnaryOp:
        return UnaryOp(c[0].value, c[1], **_at(c[0]))

    def call(self, c: list) -> Call:
        args, kwargs = c[1] if len(c) > 1 else ((), ())
        function = c[0]
        if isinstance(function, (Number, BinOp, UnaryOp, ListExpr)):  # 2(x+1), (x+1)(x-1): nothing to call
            shown = function.text if isinstance(function, Number) else "(...)"
            raise _Problem(f"a '*' is missing: {shown}(...) multiplies in mathematics, not in Python; "
                           f"write {shown}*(...)", function.line, function.column)
        return Call(function, args, kwargs, **_at(function))

    def arguments(self, c: list) -> tuple[tuple[Expr, ...], tuple[tuple[str, Expr], ...]]:
        args: list[Expr] = []
        kwargs: dict[str, Expr] = {}
        for item in c:
            if isinstance(item, _Keyword):
                if item.name.value in kwargs:
                    raise _Problem(f"keyword argument '{item.name.value}' repeated", **_at(item.name))
                kwargs[item.name.value] = item.value
            elif kwargs:
                raise _Problem("positional argument follows keyword argument", **_at(item))
            else:
                args.append(item)
        return tuple(args), tuple(kwargs.items())

    def keyword(self, c: list) -> _Keyword:
        return _Keyword(c[0], c[1])

    def attribute(self, c: list) -> Attribute:
        return Attribute(c[0], c[1].value, **_at(c[0]))

    def subscript(self, c: list) -> Subscript:
        return Subscript(c[0], c[1], **_at(c[0]))

    def subscripts(self, c: list) -> tuple:
        items = [child for child in c if not isinstance(child, Token)]  # c has the ',' tokens too
        if len(items) == len(c) == 1 and isinstance(items[0], TupleExpr):
            items = items[0].items  # x[(a, b)] is x[a, b], as in Python; x[(a, b),] is not
        # `None` as an index item is a new axis (x[(None)] too, as in numpy).
        return tuple(NoneIndex(**_at(i)) if isinstance(i, Constant) and i.value is None else i for i in items)

    def slice(self, c: list) -> Slice:
        parts: list[Expr | None] = [None]
        for child in c:
            if isinstance(child, Token):  # a ':'
                parts.append(None)
            else:
                parts[-1] = child
        parts += [None] * (3 - len(parts))
        return Slice(parts[0], parts[1], parts[2], **_at(c[0]))

    def ellipsis(self, c: list) -> EllipsisIndex:
        return EllipsisIndex(**_at(c[0]))

    def name(self, c: list) -> Name:
        tok = c[0]
        return Name(tok.value, line=tok.line, column=tok.column)

    def number(self, c: list) -> Number:
        tok = c[0]
        text = tok.value
        if not text.isdigit():
            return Number(float(text), text, False, line=tok.line, column=tok.column)
        if len(text) > 1 and text[0] == "0" and text.strip("0"):
            raise _Problem(f"leading zeros are not allowed in an integer: write {text.lstrip('0')}", **_at(tok))
        if len(text) > MAX_INT_DIGITS:
            raise _Problem(
                f"the integer has {len(text):,} digits; the limit is {MAX_INT_DIGITS:,}", **_at(tok), limit=True
            )
        return Number(int(text), text, True, line=tok.line, column=tok.column)

    def string(self, c: list) -> String | FString:
        if all(tok.type == "STRING" for tok in c):
            return String("".join(_decode_string(tok) for tok in c), **_at(c[0]))
        from autodiff.grammar.fstrings import join_strings

        return join_strings(c, _decode_string, _Problem, parse)

    def constant(self, c: list) -> Constant:
        return Constant({"True": True, "False": False, "None": None}[c[0].value], **_at(c[0]))

    def empty_tuple(self, c: list) -> TupleExpr:
        return TupleExpr((), **_at(c[0]))

    def paren(self, c: list) -> Expr:
        return replace(c[1], **_at(c[0]))  # the expression now starts at its '('

    def list(self, c: list) -> ListExpr:
        return ListExpr(tuple(c[1:-1]), **_at(c[0]))


def _check_target(target: Node, where: str) -> None:
    """A target of `=`, `op=` or `for` must be a name, name[index], x.attribute or a tuple of those."""
    stack = [target]
    while stack:
        item = stack.pop()
        if isinstance(item, (TupleExpr, ListExpr)) and where != "aug":
            stack.extend(item.items)
        elif not isinstance(item, (Name, Subscript, Attribute)):
            what = _DESCRIBE_TARGET.get(type(item), "this")
            raise _Problem(f"cannot assign to {what}: the target of '{where}' must be a name, name[index], "
                           "x.attribute or a tuple of those", item.line, item.column)


def _first(c: list):
    return c[0]


def _identity(c: list) -> list:
    return c


_BUILDER = _Builder()


# Public ------------------------------------------------------------------------------------------


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


def parse(source: str) -> Program:
    """Parse a program of the autodiff language into a `Program` (see syntax.py); no evaluation.

    Raises ParseError (kind `syntax`, with line/column and a caret excerpt in the message) for any
    mistake, or LimitError (kind `limit`) for programs over MAX_SOURCE_CHARS, MAX_BRACKET_DEPTH,
    MAX_PARSE_DEPTH or MAX_INT_DIGITS.
    """
    if len(source) > MAX_SOURCE_CHARS:
        raise LimitError(f"the program has {len(source):,} characters; the limit is {MAX_SOURCE_CHARS:,}")
    text = source[1:] if source.startswith("\ufeff") else source  # a byte-order mark from an editor
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    brackets: list[Token] = []
    try:
        statements = _run(_tokens(text, brackets), _BUILDER, brackets)
    except _Problem as problem:
        excerpt = source_excerpt(text, problem.line, problem.column)
        if problem.limit:
            raise LimitError(problem.message, line=problem.line, column=problem.column, excerpt=excerpt) from None
        raise ParseError(
            f"{problem.message}\n{excerpt}",
            line=problem.line,
            column=problem.column,
            summary=problem.message,
            excerpt=excerpt,
        ) from None
    _check_blocks(statements, text)
    return Program(tuple(statements), text, line=1, column=1)


def _check_blocks(statements: list, text: str) -> None:
    """break and continue belong in a loop (not across a function's body), return in a function: as Python
    says at compile time, before anything runs."""
    stack: list[tuple[tuple, bool, bool]] = [(tuple(statements), False, False)]
    while stack:
        body, in_loop, in_function = stack.pop()
        for stmt in body:
            problem = None
            if isinstance(stmt, (Break, Continue)) and not in_loop:
                problem = f"'{type(stmt).__name__.lower()}' outside loop"
            elif isinstance(stmt, Return) and not in_function:
                problem = "'return' outside function (a function is def NAME(PARAMETERS): followed by its body)"
            if problem is not None:
                excerpt = source_excerpt(text, stmt.line, stmt.column)
                raise ParseError(f"{problem}\n{excerpt}", line=stmt.line, column=stmt.column, summary=problem,
                                 excerpt=excerpt)
            if isinstance(stmt, (For, While)):
                stack.append((stmt.body, True, in_function))
            elif isinstance(stmt, If):
                stack.append((stmt.body, in_loop, in_function))
                stack.append((stmt.orelse, in_loop, in_function))
            elif isinstance(stmt, With):
                stack.append((stmt.body, in_loop, in_function))
            elif isinstance(stmt, FunctionDef) and isinstance(stmt.body, tuple):
                stack.append((stmt.body, False, True))
