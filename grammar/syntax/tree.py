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
class Program(Node):
    statements: tuple[Stmt, ...]
    source: str  # the program text with \r\n and \r turned into \n; positions refer to it


Expr = (Number | String | Constant | Name | Attribute | Call | Subscript | BinOp | UnaryOp | ListExpr | TupleExpr
        | BoolOp | IfExp | ListComp)
IndexItem = Expr | Slice | NoneIndex | EllipsisIndex
Stmt = Assign | IndexAssign | ExprStmt | Import | AssignTo | AugAssign | ImportFrom


# dump -------------------------------------------------------------------------------------------


def _call_parts(node: Call) -> list[Node | str]:
    kwargs: list[Node | str] = []
    for name, value in node.kwargs:
        kwargs += ["(=", name, value, ")"]
    return ["call", node.func, *node.args, *kwargs]


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
    ImportFrom: lambda n: ["from", n.module, *(f"{a} as {b}" if b else a for a, b in n.names)],
    ListComp: lambda n: ["listcomp", n.element, n.target, n.iterable, *n.conditions],
    AssignTo: lambda n: ["=", *n.targets, n.value],
    AugAssign: lambda n: [f"{n.op}=", n.target, n.value],
}


def _parts(node: Node) -> list[Node | str]:
    """The s-expression of one node: strings to print and child nodes to expand in their place."""
    parts = _PARTS.get(type(node))
    if parts is None:
        raise TypeError(f"not a syntax node: {node!r}")
    return parts(node)


_LEAVES = (Number, String, Constant, Name, NoneIndex, EllipsisIndex)


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
