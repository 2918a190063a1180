"""Building the syntax tree: one TreeBuilder method per rule action of the grammar (its `-> alias` names), each
given the kept children of its rule, so the tree grows bottom-up as the driver reduces; string literals
decoded without eval; the targets of assignments checked."""

from __future__ import annotations

import re
from collections.abc import Callable

from autodiff.grammar.syntax import tables
from autodiff.grammar.syntax.lexer import MAX_INT_DIGITS, SyntaxProblem, Token, shortened
from autodiff.grammar.syntax.nodes import moved
from autodiff.grammar.syntax.tree import (
    Assert,
    Assign,
    AssignTo,
    Attribute,
    AugAssign,
    BinOp,
    BoolOp,
    Break,
    Call,
    ClassDef,
    Constant,
    Continue,
    Decorated,
    Delete,
    DictComp,
    DictExpr,
    EllipsisIndex,
    Expr,
    ExprStmt,
    For,
    FString,
    FunctionDef,
    If,
    IfExp,
    Import,
    ImportFrom,
    IndexAssign,
    Lambda,
    ListComp,
    ListExpr,
    Name,
    Node,
    NoneIndex,
    Number,
    Parameters,
    Pass,
    Program,
    Return,
    Slice,
    Starred,
    String,
    Subscript,
    TupleExpr,
    UnaryOp,
    While,
    With,
)


class _Keyword:
    __slots__ = ("name", "value")

    def __init__(self, name: Token, value: Expr) -> None:
        self.name, self.value = name, value


class _Param:
    """One parameter while `params` is built: its name, default and kind ('' plain, '*' or '**')."""

    __slots__ = ("default", "kind", "name", "token")

    def __init__(self, token: Token, name: str, default: Expr | None = None, kind: str = "") -> None:
        self.token, self.name, self.default, self.kind = token, name, default, kind


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

    def __init__(self, parse: Callable[[str], Program]) -> None:
        self.parse = parse  # for the fields of f-strings
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

    def pass_stmt(self, c: list) -> Pass:
        return Pass(**_at(c[0]))

    def break_stmt(self, c: list) -> Break:
        return Break(**_at(c[0]))

    def continue_stmt(self, c: list) -> Continue:
        return Continue(**_at(c[0]))

    def return_stmt(self, c: list) -> Return:
        return Return(c[1] if len(c) > 1 else None, **_at(c[0]))

    def del_stmt(self, c: list) -> Delete:
        _check_target(c[1], "del")
        return Delete(c[1].items if isinstance(c[1], TupleExpr) else (c[1],), **_at(c[0]))

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

    def params(self, c: list) -> Parameters:
        items = [_Param(item, item.value) if isinstance(item, Token) else item
                 for item in c if not (isinstance(item, Token) and item.type == "COMMA")]
        names, defaults, kwonly, kw_defaults = [], [], [], []
        star = starstar = None
        seen: set[str] = set()
        for item in items:
            if item.name in seen:
                raise SyntaxProblem(f"duplicate parameter '{item.name}'", **_at(item.token))
            if item.name:
                seen.add(item.name)
            if starstar is not None:
                raise SyntaxProblem("no parameter may follow **" + starstar, **_at(item.token))
            if item.kind == "*":
                if star is not None:
                    raise SyntaxProblem("* may appear only once among the parameters", **_at(item.token))
                star = item.name
            elif item.kind == "**":
                starstar = item.name
            elif star is not None:
                kwonly.append(item.name)
                kw_defaults.append(item.default)
            elif item.default is not None:
                names.append(item.name)
                defaults.append(item.default)
            elif defaults:
                raise SyntaxProblem("parameter without a default follows parameter with a default", **_at(item.token))
            else:
                names.append(item.name)
        if star == "" and not kwonly:
            raise SyntaxProblem("named arguments must follow bare *", **_at(items[-1].token))
        return Parameters(tuple(names), tuple(defaults), star, tuple(kwonly), tuple(kw_defaults), starstar)

    lambda_params = params

    def default_param(self, c: list) -> _Param:
        return _Param(c[0], c[0].value, c[1])

    def star_param(self, c: list) -> _Param:
        return _Param(c[0], c[1].value if len(c) > 1 else "", kind="*")

    def starstar_param(self, c: list) -> _Param:
        return _Param(c[0], c[1].value, kind="**")

    def funcdef(self, c: list) -> FunctionDef:
        keyword, name = c[0], c[1]
        params = c[2] if len(c) > 3 else Parameters()
        body = [stmt for stmt in c[-1] if not (isinstance(stmt, ExprStmt) and isinstance(stmt.value, String))]
        if len(body) == 1 and isinstance(body[0], Return) and body[0].value is not None:
            return FunctionDef(name.value, params, body[0].value, **_at(keyword))  # def f(x): return EXPR
        return FunctionDef(name.value, params, tuple(c[-1]), **_at(keyword))

    def classdef(self, c: list) -> ClassDef:
        keyword, name = c[0], c[1]
        bases: tuple = ()
        if len(c) > 3:
            args, kwargs = c[2]
            if kwargs:
                raise SyntaxProblem("a class takes no keyword arguments here (metaclass=...): write class "
                                    f"{name.value}(Base):", **_at(kwargs[0][1]))
            bases = args
        body = tuple(stmt for stmt in c[-1] if not (isinstance(stmt, ExprStmt) and isinstance(stmt.value, String)))
        return ClassDef(name.value, bases, body, **_at(keyword))

    def decorated(self, c: list) -> Decorated:
        *decorators, definition = c
        return Decorated(tuple(decorators), definition, **_at(decorators[0]))

    def decorator(self, c: list) -> Expr:
        return c[1]

    def from_import(self, c: list) -> ImportFrom:
        names = next(item for item in c[3:] if isinstance(item, tuple))
        return ImportFrom(c[1], names, **_at(c[0]))

    def import_names(self, c: list) -> tuple:
        return tuple(item for item in c if isinstance(item, tuple))

    def import_name(self, c: list) -> tuple[str, str | None]:
        return (c[0].value, c[2].value if len(c) > 2 else None)

    def dict(self, c: list) -> DictExpr:
        items = [item for item in c[1:-1] if isinstance(item, tuple)]
        return DictExpr(tuple(k for k, _ in items), tuple(v for _, v in items), **_at(c[0]))

    def dict_item(self, c: list) -> tuple:
        return (c[0], c[2])

    def dict_comp(self, c: list) -> DictComp:
        (key, value), (target, iterable, conditions) = c[1], c[2]
        return DictComp(key, value, target, iterable, conditions, **_at(c[0]))

    def star_arg(self, c: list) -> Starred:
        return Starred(c[1], **_at(c[0]))

    def starstar_arg(self, c: list) -> _Keyword:
        return _Keyword(Token("NAME", "**", c[0].pos, c[0].line, c[0].column), c[1])

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
        params = c[1] if len(c) > 2 else Parameters()
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
            raise SyntaxProblem(f"a '*' is missing: {shown}(...) multiplies in mathematics, not in Python; "
                                f"write {shown}*(...)", function.line, function.column)
        return Call(function, args, kwargs, **_at(function))

    def arguments(self, c: list) -> tuple[tuple[Expr, ...], tuple[tuple[str, Expr], ...]]:
        args: list[Expr] = []
        kwargs: dict[str, Expr] = {}
        for item in c:
            if isinstance(item, _Keyword):
                if item.name.value == "**":
                    kwargs[f"**{len(kwargs)}"] = item.value
                    continue
                if item.name.value in kwargs:
                    raise SyntaxProblem(f"keyword argument '{item.name.value}' repeated", **_at(item.name))
                kwargs[item.name.value] = item.value
            elif kwargs and not isinstance(item, Starred):
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

    def string(self, c: list) -> String | FString:
        if all(tok.type == "STRING" for tok in c):
            return String("".join(_decode_string(tok) for tok in c), **_at(c[0]))
        from autodiff.grammar.syntax.fstrings import join_strings  # (f-strings: scripts only)

        return join_strings(c, _decode_string, SyntaxProblem, self.parse)

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

