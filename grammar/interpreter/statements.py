"""Statements (one rule each in SIMPLE, dispatched on the node's class): assignment to any target (names,
name[index], x.attribute, tuples unpacked), augmented assignment, imports, bare expressions; and
comprehensions, whose names live in a scope of their own."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, LimitError
from autodiff.grammar.interpreter.members import set_attribute
from autodiff.grammar.interpreter.pybuiltins import iterable_of
from autodiff.grammar.interpreter.values import Evaluation, kind, literal_tensor, range_length, truth
from autodiff.grammar.syntax import tree as S

MAX_CALL_DEPTH = 100  # comprehensions inside each other


# ---------------------------------------------------------------------------- simple statements
def _assign(interp: Any, stmt: S.Assign, result: Evaluation) -> None:
    value = interp.expression(stmt.value)
    if isinstance(value, list):
        value = interp.guard(lambda: literal_tensor(value), stmt.value)
    interp.names[stmt.name] = value
    result.root, result.root_name = value, stmt.name


def _index_assign(interp: Any, stmt: S.IndexAssign, result: Evaluation) -> None:
    scope = interp.scopes[-1] if interp.scopes and stmt.name in interp.scopes[-1] else interp.names
    target = scope.get(stmt.name)
    if target is None and stmt.name not in scope:
        raise interp.unknown(stmt.name, stmt)
    if not isinstance(target, Tensor):
        raise BadValueError(f"{stmt.name}[...] = ... needs {stmt.name} to be a tensor, "
                            f"not {kind(target)}").at(stmt.line, stmt.column)
    index = interp.index_of(stmt.index)
    value = interp.expression(stmt.value)
    interp.guard(lambda: engine.setitem(target, index, value), stmt)
    result.root, result.root_name = target, stmt.name


def _expression_statement(interp: Any, stmt: S.ExprStmt, result: Evaluation) -> None:
    value = interp.expression(stmt.value)
    result.root, result.root_name = value, None  # as documented: null for a bare expression


def _import(interp: Any, stmt: S.Import, result: Evaluation) -> None:
    interp.guard(lambda: interp.bind_module(stmt.module, stmt.alias), stmt)
    result.root, result.root_name = None, None


def _import_from(interp: Any, stmt: S.ImportFrom, result: Evaluation) -> None:
    interp.guard(lambda: interp.bind_from(stmt.module, stmt.names), stmt)
    result.root, result.root_name = None, None


def _assign_to(interp: Any, stmt: S.AssignTo, result: Evaluation) -> None:
    value = interp.expression(stmt.value)
    for target in stmt.targets:
        assign(interp, target, value)
    result.root, result.root_name = value, None


def _augmented_statement(interp: Any, stmt: S.AugAssign, result: Evaluation) -> None:
    value = augmented(interp, stmt)
    result.root, result.root_name = value, stmt.target.id if isinstance(stmt.target, S.Name) else None


SIMPLE: dict[type, Callable[[Any, Any, Evaluation], None]] = {
    S.Assign: _assign,
    S.IndexAssign: _index_assign,
    S.ExprStmt: _expression_statement,
    S.Import: _import,
    S.ImportFrom: _import_from,
    S.AssignTo: _assign_to,
    S.AugAssign: _augmented_statement,
}


def statement(interp: Any, stmt: S.Node, result: Evaluation) -> None:
    """Run one statement."""
    SIMPLE[type(stmt)](interp, stmt, result)
    result.root_statement = stmt


# ---------------------------------------------------------------------------- assignment
def assign(interp: Any, target: S.Node, value: Any, scope: dict | None = None) -> None:
    """Bind `value` to a target: a name, name[index], x.attribute, or a tuple/list of targets (unpacked).
    Names go to `scope` when given (a comprehension's), else to the program's names."""
    names = interp.names if scope is None else scope
    stack: list[tuple[S.Node, Any]] = [(target, value)]
    while stack:
        node, item = stack.pop()
        if isinstance(node, S.Name):
            names[node.id] = item
        elif isinstance(node, (S.TupleExpr, S.ListExpr)):
            items = _unpack(item, len(node.items), node)
            stack.extend(reversed(list(zip(node.items, items))))
        elif isinstance(node, S.Subscript):
            owner = interp.expression(node.value)
            if not isinstance(owner, Tensor):
                raise BadValueError(f"'{kind(owner)}' object does not support item assignment",
                                    reason="subscript").at(node.line, node.column)
            index = interp.index_of(node.index)
            interp.guard(lambda o=owner, i=index, v=item: engine.setitem(o, i, v), node)
        elif isinstance(node, S.Attribute):
            owner = interp.expression(node.value)
            interp.guard(lambda o=owner, a=node.attr, v=item: set_attribute(o, a, v), node)
        else:  # pragma: no cover - the parser allows no other target
            raise BadValueError("cannot assign to this").at(node.line, node.column)


def _unpack(value: Any, count: int, node: S.Node) -> list:
    if isinstance(value, (Tensor, list, tuple, range, str, enumerate, zip)):  # at most count + 1 items are taken
        items = list(itertools.islice(value, count + 1)) if not isinstance(value, Tensor) or value.ndim else None
    else:
        items = None
    if items is None:
        raise BadValueError(f"cannot unpack a non-iterable {kind(value)} object",
                            reason="unpack").at(node.line, node.column)
    if len(items) != count:
        few = "not enough" if len(items) < count else "too many"
        got = range_length(value) if isinstance(value, range) else \
            len(value) if isinstance(value, (list, tuple, str, Tensor)) else len(items)
        raise BadValueError(f"{few} values to unpack (expected {count}, got {got})",
                            reason="unpack").at(node.line, node.column)
    return items


_INPLACE = {"+": "add_", "-": "sub_", "*": "mul_", "/": "div_", "**": "pow_"}


def augmented(interp: Any, stmt: S.AugAssign) -> Any:
    """`target op= value`: a tensor target is updated in place (x += y is x.add_(y), as in PyTorch), a
    number is rebound; `x[i] op= y` writes x[i] op y back into x[i]."""
    target = stmt.target
    current = interp.expression(target)
    value = interp.expression(stmt.value)
    if isinstance(current, Tensor) and stmt.op in _INPLACE and not isinstance(target, S.Subscript):
        if isinstance(value, list):
            value = literal_tensor(value)
        method = engine.INPLACE[_INPLACE[stmt.op]]
        result = interp.guard(lambda: method(current, value), stmt)
    else:
        result = interp.guard(lambda: interp.operator(stmt.op, current, value), stmt)
    assign(interp, target, result)
    return result


def comprehension(interp: Any, node: S.ListComp) -> list:
    """`[element for target in iterable if ...]`: its names live in a scope of their own, as in Python 3."""
    items = interp.guard(lambda: iterable_of(interp.expression(node.iterable)), node.iterable)
    if len(interp.scopes) >= MAX_CALL_DEPTH:
        raise LimitError(f"comprehensions and calls are nested more than {MAX_CALL_DEPTH} deep",
                         reason="call_depth").at(node.line, node.column)
    scope = dict(interp.scopes[-1]) if interp.scopes else {}
    interp.scopes.append(scope)
    out: list = []
    try:
        for item in items:
            interp.count_step(node)
            assign(interp, node.target, item, scope)
            if all(truth(interp.condition(condition)) for condition in node.conditions):
                out.append(interp.expression(node.element))
    finally:
        interp.scopes.pop()
    return out
