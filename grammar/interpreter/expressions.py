"""Expressions: the value of an expression, computed with an explicit stack (post-order), so a 20,000-term sum
needs no recursion. Each kind of node has its rule in one of two tables, as lark's Interpreter and Python's
ast.NodeVisitor dispatch on the node's class: LEAVES (a value from the node alone) and COMBINE (a value
from the node and its children's values). `and`, `or` and `A if C else B` decide which child to evaluate
next, as Python's short-circuit does. The program's arithmetic is the backend's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff.engine.errors import AutodiffError, BadValueError, LimitError
from autodiff.grammar.interpreter.values import truth
from autodiff.grammar.syntax import tree as S


def _number(interp: Any, node: S.Number) -> Any:
    return interp.backend.number(node.value, node.text)


LEAVES: dict[type, Callable[[Any, Any], Any]] = {
    S.Number: _number,
    S.Name: lambda interp, node: interp.lookup(node),
    S.String: lambda interp, node: node.value,
    S.Constant: lambda interp, node: node.value,
    S.ListComp: lambda interp, node: interp.comprehension(node),
    S.NoneIndex: lambda interp, node: None,
    S.EllipsisIndex: lambda interp, node: Ellipsis,
}


def slice_of(node: S.Slice, args: list[Any]) -> slice:
    """a:b:c from the values of its parts (each may be missing)."""
    parts = iter(args)
    start = next(parts) if node.start is not None else None
    stop = next(parts) if node.stop is not None else None
    step = next(parts) if node.step is not None else None
    for part in (start, stop, step):
        if part is not None and (isinstance(part, bool) or not isinstance(part, int)):
            raise BadValueError(f"slice indices must be integers, got {part!r}", reason="index")
    if step == 0:  # refused for every value it may index (a list of strings too), as Python and PyTorch refuse it
        raise BadValueError("slice step cannot be zero", reason="index")
    return slice(start, stop, step)


COMBINE: dict[type, Callable[[Any, Any, list], Any]] = {
    S.BinOp: lambda interp, node, args: interp.operator(node.op, args[0], args[1]),
    S.UnaryOp: lambda interp, node, args: interp.backend.unary(node.op, args[0]),
    S.Attribute: lambda interp, node, args: interp.backend.attribute(args[0], node.attr),
    S.Call: lambda interp, node, args: interp.call(node, args),
    S.Subscript: lambda interp, node, args: interp.index(args[0], args[1:]),
    S.ListExpr: lambda interp, node, args: list(args),
    S.TupleExpr: lambda interp, node, args: tuple(args),
    S.Slice: lambda interp, node, args: slice_of(node, args),
}


def children(node: S.Node) -> tuple:
    """The children whose values a COMBINE rule receives, in order."""
    kind = type(node)
    if kind is S.BinOp:
        return (node.left, node.right)
    if kind is S.UnaryOp:
        return (node.operand,)
    if kind is S.Attribute:
        return (node.value,)
    if kind is S.Call:
        return (node.func, *node.args, *(v for _, v in node.kwargs))
    if kind is S.Subscript:
        return (node.value, *node.index)
    if kind is S.ListExpr or kind is S.TupleExpr:
        return node.items
    if kind is S.Slice:
        return tuple(part for part in (node.start, node.stop, node.step) if part is not None)
    return ()


def evaluate(interp: Any, root: S.Node) -> Any:
    """The value of the expression `root`, computed with an explicit stack (post-order)."""
    stack: list[tuple[S.Node, bool]] = [(root, False)]
    values: list[Any] = []
    refused = interp.policy.refused
    while stack:
        node, ready = stack.pop()
        kind = type(node)
        if not ready and refused and kind.__name__ in refused:
            raise interp.refusal(kind.__name__, node)
        leaf = LEAVES.get(kind)
        if leaf is not None:
            values.append(leaf(interp, node))
        elif kind is S.BoolOp or kind is S.IfExp:
            _short_circuit(interp, node, ready, stack, values)
        elif not ready:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children(node)))
        else:
            count = len(children(node))
            args = values[len(values) - count:] if count else []
            if count:
                del values[len(values) - count:]
            values.append(_combine(interp, node, args))
    return values[0]


def _short_circuit(interp: Any, node: S.Node, ready: bool, stack: list, values: list) -> None:
    """`and`/`or` and `A if C else B`: the left operand (or the test) first; the rest depends on its truth."""
    if not ready:
        stack.append((node, True))
        stack.append((node.left if type(node) is S.BoolOp else node.test, False))
        return
    first = values.pop()
    value = interp.guard(lambda: truth(first), node)
    if type(node) is S.IfExp:
        stack.append((node.body if value else node.orelse, False))
    elif value == (node.op == "or"):
        values.append(first)
    else:
        stack.append((node.right, False))


def _combine(interp: Any, node: S.Node, args: list[Any]) -> Any:
    rule = COMBINE.get(type(node))
    if rule is None:
        raise BadValueError(f"cannot evaluate {type(node).__name__}").at(node.line, node.column)
    try:
        return rule(interp, node, args)
    except AutodiffError as error:
        raise error.at(node.line, node.column) from None
    except RecursionError:  # a pathological value (e.g. a huge nested list) inside numpy
        raise LimitError("the value is nested too deeply", reason="nesting").at(node.line, node.column) from None
