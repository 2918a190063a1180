"""The syntax tree of an autodiff program, as `parse()` builds it.

Every node is a frozen, slotted class with `line` and `column`: 1-based, in characters (a tab counts
as one), of the node's first token; a parenthesised expression starts at its `(`. Construct nodes with
their fields in order and `line`/`column` by keyword: `BinOp("+", a, b, line=1, column=1)`.

Trees can be deep (a 20,000-term sum is a 20,000-deep left spine), so nothing here recurses over them:
nodes compare by identity (`eq=False`) and `repr()` goes through the iterative `dump()` (compare dumps).

Start-up: the classes are made by nodes.py's `syntax_node`, not by dataclasses (6-8 ms at every start); `Node`
supplies one `__init__` and the frozenness (assignment raises dataclasses.FrozenInstanceError).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from autodiff.grammar.syntax.nodes import frozen_error, syntax_node


@syntax_node
class Node:
    line: int
    column: int

    def __init__(self, *args: object, line: int, column: int, **kwargs: object) -> None:
        names: tuple[str, ...] = self.__match_args__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} fields, got {len(args)}")
        setter = object.__setattr__
        for name, value in zip(names, args):
            setter(self, name, value)
        for name in names[len(args) :]:
            if name not in kwargs:
                raise TypeError(f"{type(self).__name__} is missing the field {name!r}")
            setter(self, name, kwargs.pop(name))
        if kwargs:
            raise TypeError(f"{type(self).__name__} has no field {next(iter(kwargs))!r}")
        setter(self, "line", line)
        setter(self, "column", column)

    def __setattr__(self, name: str, value: object) -> None:
        raise frozen_error(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise frozen_error(f"cannot delete field {name!r}")

    def __setstate__(self, state: tuple) -> None:  # for copy.copy of a slotted, frozen object
        for name, value in state[1].items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {dump(self)} at {self.line}:{self.column}>"


# Expressions ------------------------------------------------------------------------------------


@syntax_node
class Number(Node):
    value: float | int
    text: str  # as written, e.g. "1e-3"
    is_int: bool  # written without '.' or exponent, so it may serve as an index, a size or a dim


@syntax_node
class String(Node):
    value: str  # escapes decoded; adjacent literals ('a' 'b') joined


@syntax_node
class Constant(Node):
    value: bool | None  # True, False or None


@syntax_node
class Name(Node):
    id: str


@syntax_node
class Attribute(Node):
    value: Expr
    attr: str


@syntax_node
class Call(Node):
    func: Expr
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...]  # in source order; names are unique, but '**' (a dictionary unpacked)


@syntax_node
class Slice(Node):
    start: Expr | None
    stop: Expr | None
    step: Expr | None


@syntax_node
class NoneIndex(Node):
    """`None` as an index item: a new axis of length 1 (numpy's newaxis)."""


@syntax_node
class EllipsisIndex(Node):
    """`...` as an index item."""


@syntax_node
class Subscript(Node):
    """`value[index]`. The index has one item per axis, as numpy reads it: x[1] has one item, x[:, 0] two,
    x[(0, 1)] two (a parenthesised tuple is the index itself) and x[()] none; a TupleExpr or ListExpr item
    (x[(0, 1),], x[[0, 1]]) is a sequence of positions along one axis."""

    value: Expr
    index: tuple[IndexItem, ...]


@syntax_node
class BinOp(Node):
    op: str  # one of + - * / ** @
    left: Expr
    right: Expr


@syntax_node
class UnaryOp(Node):
    op: str  # - or +
    operand: Expr


@syntax_node
class ListExpr(Node):
    items: tuple[Expr, ...]


@syntax_node
class TupleExpr(Node):
    items: tuple[Expr, ...]


@syntax_node
class BoolOp(Node):
    """`left and right`, `left or right`: Python's, with short-circuit (the value is one of the operands)."""

    op: str  # "and" or "or"
    left: Expr
    right: Expr


@syntax_node
class IfExp(Node):
    """`body if test else orelse`."""

    test: Expr
    body: Expr
    orelse: Expr


class Parameters(tuple):
    """The parameters of a `def` or a `lambda`, as Python has them: `names` are positional-or-keyword, the last
    `len(defaults)` of them with default values (expressions, computed when the function is defined); `star`
    is the name of *args ('' for a bare `*`, None without), `kwonly` the keyword-only names after it with their
    defaults (`kw_defaults`, None: required), `starstar` the name of **kwargs. A tuple of the six, named."""

    __slots__ = ()
    FIELDS = ("names", "defaults", "star", "kwonly", "kw_defaults", "starstar")

    def __new__(cls, names: tuple[str, ...] = (), defaults: tuple[Expr, ...] = (), star: str | None = None,
                kwonly: tuple[str, ...] = (), kw_defaults: tuple = (), starstar: str | None = None) -> Parameters:
        return tuple.__new__(cls, (names, defaults, star, kwonly, kw_defaults, starstar))

    names, defaults, star, kwonly, kw_defaults, starstar = (property(operator.itemgetter(i)) for i in range(6))

    def __repr__(self) -> str:
        return f"Parameters({', '.join(f'{n}={v!r}' for n, v in zip(self.FIELDS, self))})"

    def text(self) -> str:
        """The parameters as written, without default values: `x, y=..., *args, k=..., **kw`."""
        first = len(self.names) - len(self.defaults)
        parts = [name if i < first else f"{name}=..." for i, name in enumerate(self.names)]
        if self.star is not None:
            parts.append(f"*{self.star}")
        parts += [name if default is None else f"{name}=..." for name, default in zip(self.kwonly, self.kw_defaults)]
        if self.starstar is not None:
            parts.append(f"**{self.starstar}")
        return ", ".join(parts)


@syntax_node
class Lambda(Node):
    """`lambda a, b: expression`: a function of one expression (hooks); it reads the script's names."""

    params: Parameters
    body: Expr


@syntax_node
class Starred(Node):
    """`*value` among a call's arguments: its items become positional arguments (`f(*args)`). `**value` is a
    keyword argument named '**' (Call.kwargs), whose dictionary's items become keyword arguments."""

    value: Expr


@syntax_node
class DictExpr(Node):  # {key: value, ...}
    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]


@syntax_node
class DictComp(Node):  # {key: value for target in iterable if condition ...}
    key: Expr
    value: Expr
    target: Expr
    iterable: Expr
    conditions: tuple[Expr, ...]


@syntax_node
class FString(Node):
    """f"text {value!r:spec} text": `pieces` has one more item than `fields`; each field has its
    conversion ('' or 'r', 's', 'a') and its format spec (text, no nested fields)."""

    pieces: tuple[str, ...]
    fields: tuple[Expr, ...]
    conversions: tuple[str, ...]
    specs: tuple[str, ...]


@syntax_node
class ListComp(Node):
    """`[element for target in iterable if condition ...]` (a generator `(... for ...)` is built as this too)."""

    element: Expr
    target: Expr
    iterable: Expr
    conditions: tuple[Expr, ...]


# Statements -------------------------------------------------------------------------------------


@syntax_node
class Assign(Node):
    name: str
    value: Expr


@syntax_node
class IndexAssign(Node):
    name: str
    index: tuple[IndexItem, ...]
    value: Expr


@syntax_node
class ExprStmt(Node):
    value: Expr


@syntax_node
class Import(Node):
    module: str  # dotted, e.g. "torch.autograd"
    alias: str | None


@syntax_node
class ImportFrom(Node):  # from module import name [as alias], ...
    module: str
    names: tuple[tuple[str, str | None], ...]


@syntax_node
class AssignTo(Node):
    """Assignments that are not `name = value` or `name[index] = value`: `a, b = ...`, `x.grad = None`,
    `a = b = 0`. Each target is a Name, Subscript, Attribute, or a TupleExpr/ListExpr of targets."""

    targets: tuple[Expr, ...]
    value: Expr


@syntax_node
class AugAssign(Node):
    """`target op= value` (op is one of + - * / ** // % @): in place on a tensor, as PyTorch does."""

    target: Expr  # a Name, Subscript or Attribute
    op: str
    value: Expr


@syntax_node
class Pass(Node):
    """`pass`."""


@syntax_node
class Break(Node):
    """`break`."""


@syntax_node
class Continue(Node):
    """`continue`."""


@syntax_node
class Return(Node):
    """`return value` (value None: `return` alone), inside a function's body."""

    value: Expr | None


@syntax_node
class Delete(Node):
    targets: tuple[Expr, ...]  # del a, b.attr, c[k]


@syntax_node
class Assert(Node):
    test: Expr
    message: Expr | None


@syntax_node
class If(Node):
    test: Expr
    body: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]  # an `elif` is an If alone in its parent's orelse


@syntax_node
class For(Node):
    target: Expr  # a Name, or a TupleExpr of names
    iter: Expr
    body: tuple[Stmt, ...]


@syntax_node
class While(Node):
    test: Expr
    body: tuple[Stmt, ...]


@syntax_node
class With(Node):
    context: Expr
    alias: str | None
    body: tuple[Stmt, ...]


@syntax_node
class FunctionDef(Node):
    """`def name(params): ...`: body is the return expression of a one-line function (`return EXPR` alone),
    else the tuple of its statements (run with locals of their own, until a `return`)."""

    name: str
    params: Parameters
    body: Expr | tuple


@syntax_node
class ClassDef(Node):
    """`class Name(base, ...): body`: the body's assignments and definitions become the class's attributes."""

    name: str
    bases: tuple[Expr, ...]
    body: tuple


@syntax_node
class Decorated(Node):
    """`@decorator` lines before a def or a class: the definition, then each decorator from the nearest one."""

    decorators: tuple[Expr, ...]
    definition: FunctionDef | ClassDef


@syntax_node
class Program(Node):
    statements: tuple[Stmt, ...]
    source: str  # the program text with \r\n and \r turned into \n; positions refer to it


Expr = (Number | String | Constant | Name | Attribute | Call | Subscript | BinOp | UnaryOp | ListExpr | TupleExpr
        | BoolOp | IfExp | Lambda | FString | ListComp | Starred | DictExpr | DictComp)
IndexItem = Expr | Slice | NoneIndex | EllipsisIndex
Stmt = (Assign | IndexAssign | ExprStmt | Import | AssignTo | AugAssign | Pass | Break | Continue | Return | Assert
        | Delete | If | For | While | With | FunctionDef | ImportFrom | ClassDef | Decorated)
BLOCKS = (If, For, While, With, FunctionDef, ClassDef, Decorated)  # statements with bodies (scripts only)


# dump -------------------------------------------------------------------------------------------


def _call_parts(node: Call) -> list[Node | str]:
    kwargs: list[Node | str] = []
    for name, value in node.kwargs:
        kwargs += ["(=", name, value, ")"]
    return ["call", node.func, *node.args, *kwargs]


def _fstring_parts(node: FString) -> list[Node | str]:
    parts: list[Node | str] = ["fstring", repr(node.pieces[0])]
    for field, conversion, spec, piece in zip(node.fields, node.conversions, node.specs, node.pieces[1:]):
        parts += [field, f"!{conversion}" if conversion else "", f":{spec!r}" if spec else "", repr(piece)]
    return [p for p in parts if p != ""]


# The s-expression of each kind of node: strings to print and child nodes to expand in their place.
_PARTS: dict[type, Callable[[Any], list]] = {
    Number: lambda n: [n.text],
    String: lambda n: [repr(n.value)],
    Constant: lambda n: [repr(n.value)],
    Name: lambda n: [n.id],
    NoneIndex: lambda n: ["newaxis"],
    EllipsisIndex: lambda n: ["..."],
    BinOp: lambda n: [n.op, n.left, n.right],
    UnaryOp: lambda n: [n.op, n.operand],
    Attribute: lambda n: [".", n.value, n.attr],
    Call: _call_parts,
    Subscript: lambda n: ["[]", n.value, *n.index],
    Slice: lambda n: [":", *("_" if p is None else p for p in (n.start, n.stop, n.step))],
    ListExpr: lambda n: ["list", *n.items],
    TupleExpr: lambda n: ["tuple", *n.items],
    Assign: lambda n: ["=", n.name, n.value],
    IndexAssign: lambda n: ["[]=", n.name, *n.index, n.value],
    ExprStmt: lambda n: ["expr", n.value],
    Import: lambda n: ["import", n.module] + ([n.alias] if n.alias else []),
    Program: lambda n: ["program", *n.statements],
    BoolOp: lambda n: [n.op, n.left, n.right],
    IfExp: lambda n: ["ifexp", n.test, n.body, n.orelse],
    Lambda: lambda n: ["lambda", f"({n.params.text()})", n.body],
    Starred: lambda n: ["*", n.value],
    DictExpr: lambda n: ["dict", *(x for pair in zip(n.keys, n.values) for x in pair)],
    DictComp: lambda n: ["dictcomp", n.key, n.value, n.target, n.iterable, *n.conditions],
    ImportFrom: lambda n: ["from", n.module, *(f"{a} as {b}" if b else a for a, b in n.names)],
    ClassDef: lambda n: ["class", n.name, *n.bases, *n.body],
    Decorated: lambda n: ["@", *n.decorators, n.definition],
    FString: _fstring_parts,
    ListComp: lambda n: ["listcomp", n.element, n.target, n.iterable, *n.conditions],
    AssignTo: lambda n: ["=", *n.targets, n.value],
    AugAssign: lambda n: [f"{n.op}=", n.target, n.value],
    Pass: lambda n: ["pass"],
    Break: lambda n: ["break"],
    Continue: lambda n: ["continue"],
    Return: lambda n: ["return"] + ([n.value] if n.value is not None else []),
    Assert: lambda n: ["assert", n.test] + ([n.message] if n.message is not None else []),
    Delete: lambda n: ["del", *n.targets],
    If: lambda n: ["if", n.test, "(then", *n.body, ")", "(else", *n.orelse, ")"],
    For: lambda n: ["for", n.target, n.iter, *n.body],
    While: lambda n: ["while", n.test, *n.body],
    With: lambda n: ["with", n.context, *([n.alias] if n.alias else []), *n.body],
    FunctionDef: lambda n: ["def", n.name, f"({n.params.text()})", n.body],
}


def _parts(node: Node) -> list[Node | str]:
    """The s-expression of one node: strings to print and child nodes to expand in their place."""
    parts = _PARTS.get(type(node))
    if parts is None:
        raise TypeError(f"not a syntax node: {node!r}")
    return parts(node)


_LEAVES = (Number, String, Constant, Name, NoneIndex, EllipsisIndex, Pass, Break, Continue)


def dump(node: Node, positions: bool = False) -> str:
    """A compact s-expression of the tree, e.g. `(= y (** (- x) 2))`, built without recursion.

    Leaves print as their text; with `positions`, every node is followed by `@line:column`.
    """
    out: list[str] = []
    stack: list[Node | str] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        parts = _parts(item)
        where = f"@{item.line}:{item.column}" if positions else ""
        if isinstance(item, _LEAVES):
            out.append(f"{parts[0]}{where}")
            continue
        # Push "(head@pos child child ...)" in reverse so the head comes out first.
        stack.append(")")
        for part in reversed(parts[1:]):
            stack.append(part)
            if part != ")":
                stack.append(" ")
        out.append(f"({parts[0]}{where}")
    return "".join(out)
