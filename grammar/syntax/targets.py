"""What may stand on the left of `=`, `op=`, `for ... in` and `del`: names, name[index], x.attribute and tuples
of those; anything else is a syntax error that names what it is (a number, a call, ...)."""

from __future__ import annotations

from autodiff.grammar.syntax.lexer import SyntaxProblem
from autodiff.grammar.syntax.tree import (
    Attribute,
    BinOp,
    Call,
    Constant,
    ListExpr,
    Name,
    Node,
    Number,
    String,
    Subscript,
    TupleExpr,
    UnaryOp,
)

DESCRIBE_TARGET = {
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


def check_target(target: Node, where: str) -> None:
    """A target of `=`, `op=`, `for` or `del` must be a name, name[index], x.attribute or a tuple of those."""
    stack = [target]
    while stack:
        item = stack.pop()
        if isinstance(item, (TupleExpr, ListExpr)) and where != "aug":
            stack.extend(item.items)
        elif not isinstance(item, (Name, Subscript, Attribute)):
            what = DESCRIBE_TARGET.get(type(item), "this")
            if where == "del":
                raise SyntaxProblem(f"cannot delete {what}: del takes names, attributes (obj.name) and items "
                                    "(d[key])", item.line, item.column)
            raise SyntaxProblem(f"cannot assign to {what}: the target of '{where}' must be a name, name[index], "
                                "x.attribute or a tuple of those", item.line, item.column)


__all__ = ["DESCRIBE_TARGET", "check_target"]
