"""Building the syntax tree: one TreeBuilder method per rule action of the grammar (its `-> alias` names), each
given the kept children of its rule, so the tree grows bottom-up as the driver reduces; string literals
decoded without eval; the targets of assignments checked."""

from __future__ import annotations

import re

from autodiff.grammar.syntax import tables
from autodiff.grammar.syntax.lexer import MAX_INT_DIGITS, SyntaxProblem, Token, shortened
from autodiff.grammar.syntax.nodes import moved
from autodiff.grammar.syntax.tree import (
    Assign,
    AssignTo,
    Attribute,
    AugAssign,
    BinOp,
    BoolOp,
    Call,
    Constant,
    EllipsisIndex,
    Expr,
    ExprStmt,
    IfExp,
    Import,
    ImportFrom,
    IndexAssign,
    ListComp,
    ListExpr,
    Name,
    Node,
    NoneIndex,
    Number,
    Slice,
    String,
    Subscript,
    TupleExpr,
    UnaryOp,
)


class _Keyword:
    __slots__ = ("name", "value")

    def __init__(self, name: Token, value: Expr) -> None:
        self.name, self.value = name, value


# Hex digits are counted in escape(), to report a short \x, \u or \U; compiled at the first string with a backslash
# (re caches it), not at every start-up
_ESCAPE = r"\\(?:x([0-9A-Fa-f]{0,2})|u([0-9A-Fa-f]{0,4})|U([0-9A-Fa-f]{0,8})|N(\{[^}\n]*\})?|([0-7]{1,3})|([\s\S]))"
_SIMPLE_ESCAPES = dict(zip("\n\\'\"abfnrtv", ("", "\\", "'", '"', "\a", "\b", "\f", "\n", "\r", "\t", "\v")))


def _at(node: Node | Token) -> dict[str, int]:
    return {"line": node.line, "column": node.column}


def _check_target(target: Node, op: str) -> None:
    """targets.py's check of an assignment's (or a for loop's, a del's) target, imported when first needed (a
    formula has none)."""
    from autodiff.grammar.syntax.targets import check_target

    check_target(target, op)


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
        raise SyntaxProblem(f"invalid escape '{shortened(m.group())}' in a string", line, column) from None

    return re.sub(_ESCAPE, escape, body)


class TreeBuilder:
    """One method per rule action of the grammar (the `-> alias` names); each gets the kept children."""

    def __init__(self) -> None:
        # rules[i] = (nonterminal, build, number of symbols, keep) with keep None when every child is
        # kept, else (None if the first child's list is reused else 0, (index, splice?)...).
        self.rules = []
        for origin, action, spec in tables.RULES:
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
            from autodiff.grammar.syntax.targets import DESCRIBE_TARGET

            raise SyntaxProblem(f"'{op.value}' needs one target, not {DESCRIBE_TARGET[type(target)]}", **_at(target))
        _check_target(target, op.value)
        return AugAssign(target, op.value[:-1], value, **_at(target))

    def from_import(self, c: list) -> ImportFrom:
        names = next(item for item in c[3:] if isinstance(item, tuple))
        return ImportFrom(c[1], names, **_at(c[0]))

    def import_names(self, c: list) -> tuple:
        return tuple(item for item in c if isinstance(item, tuple))

    def import_name(self, c: list) -> tuple[str, str | None]:
        return (c[0].value, c[2].value if len(c) > 2 else None)

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
            raise SyntaxProblem(f"a '*' is missing: {shown}(...) multiplies in mathematics, not in Python; "
                                f"write {shown}*(...)", function.line, function.column)
        return Call(function, args, kwargs, **_at(function))

    def arguments(self, c: list) -> tuple[tuple[Expr, ...], tuple[tuple[str, Expr], ...]]:
        args: list[Expr] = []
        kwargs: dict[str, Expr] = {}
        for item in c:
            if isinstance(item, _Keyword):
                if item.name.value in kwargs:
                    raise SyntaxProblem(f"keyword argument '{item.name.value}' repeated", **_at(item.name))
                kwargs[item.name.value] = item.value
            elif kwargs:
                raise SyntaxProblem("positional argument follows keyword argument", **_at(item))
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
            raise SyntaxProblem(f"leading zeros are not allowed in an integer: write {text.lstrip('0')}", **_at(tok))
        if len(text) > MAX_INT_DIGITS:
            raise SyntaxProblem(
                f"the integer has {len(text):,} digits; the limit is {MAX_INT_DIGITS:,}", **_at(tok), limit=True
            )
        return Number(int(text), text, True, line=tok.line, column=tok.column)

    def string(self, c: list) -> String:
        return String("".join(_decode_string(tok) for tok in c), **_at(c[0]))

    def constant(self, c: list) -> Constant:
        return Constant({"True": True, "False": False, "None": None}[c[0].value], **_at(c[0]))

    def empty_tuple(self, c: list) -> TupleExpr:
        return TupleExpr((), **_at(c[0]))

    def paren(self, c: list) -> Expr:
        return moved(c[1], **_at(c[0]))  # the expression now starts at its '('

    def list(self, c: list) -> ListExpr:
        return ListExpr(tuple(c[1:-1]), **_at(c[0]))


def _first(c: list):
    return c[0]


def _identity(c: list) -> list:
    return c

