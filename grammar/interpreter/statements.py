"""Statements: the simple ones (one rule each in SIMPLE, dispatched on the node's class), assignment to any
target (names, name[index], x.attribute, tuples unpacked), augmented assignment, comprehensions, and the
blocks of scripts (if/for/while/with, def), run on an explicit stack of frames, never by recursion, so
nesting costs no Python stack. Every statement a script runs counts against its step limit."""

from __future__ import annotations

import itertools
from collections import ChainMap
from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError, UnknownNameError
from autodiff.grammar.interpreter import sequences
from autodiff.grammar.interpreter.callables import define, enclosing
from autodiff.grammar.interpreter.members import delete_attribute, set_attribute
from autodiff.grammar.interpreter.torchlib import Profile
from autodiff.grammar.interpreter.values import (
    ClassBody,
    Evaluation,
    display,
    hashable,
    kind,
    range_length,
    script_type,
    second,
    truth,
)
from autodiff.grammar.syntax import tree as S

MAX_CALL_DEPTH = 100  # calls of the script's own functions (and comprehensions) inside each other


# ---------------------------------------------------------------------------- simple statements
def _assign(interp: Any, stmt: S.Assign, result: Evaluation) -> None:
    value = interp.expression(stmt.value)
    if isinstance(value, list) and not interp.policy.keeps_lists:
        value = interp.guard(lambda: engine.tensor(value), stmt.value)
    interp.names[stmt.name] = value
    result.root, result.root_name = value, stmt.name


def _index_assign(interp: Any, stmt: S.IndexAssign, result: Evaluation) -> None:
    scope = interp.scopes[-1] if interp.scopes and stmt.name in interp.scopes[-1] else interp.names
    target = scope.get(stmt.name)
    if target is None and stmt.name not in scope:
        raise interp.unknown(stmt.name, stmt)
    if isinstance(target, (dict, list)):  # group["lr"] = 0.01, values[0] = x: Python's item assignment
        key, value = interp.index_of(stmt.index), interp.expression(stmt.value)
        interp.guard(lambda: set_item(target, key, value), stmt)
        return
    if isinstance(target, script_type("numpy_subset", "NDArray")):
        from autodiff.grammar.interpreter.numpy_subset import set_item as set_array_item

        key, value = interp.index_of(stmt.index), interp.expression(stmt.value)
        interp.guard(lambda: set_array_item(target, key, value), stmt)
        return
    if not isinstance(target, Tensor):
        raise BadValueError(f"{stmt.name}[...] = ... needs {stmt.name} to be a tensor, "
                            f"not {kind(target)}").at(stmt.line, stmt.column)
    index = interp.index_of(stmt.index)
    value = interp.expression(stmt.value)
    interp.guard(lambda: engine.setitem(target, index, value), stmt)
    result.root, result.root_name = target, stmt.name


def set_item(target: dict | list, key: Any, value: Any) -> None:
    """d[key] = value on a dict, items[i] = value on a list (an index in range)."""
    if isinstance(target, dict):
        target[hashable(key)] = value
        return
    if isinstance(key, bool) or not isinstance(key, int) or not -len(target) <= key < len(target):
        raise BadValueError(f"list assignment index {key!r} out of range or not an integer", reason="index")
    target[key] = value


def _expression_statement(interp: Any, stmt: S.ExprStmt, result: Evaluation) -> None:
    value = interp.expression(stmt.value)
    result.root, result.root_name = value, None  # as documented: null for a bare expression
    if interp.on_expression is not None:
        interp.guard(lambda: interp.on_expression(value), stmt)


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


def _assert(interp: Any, stmt: S.Assert, result: Evaluation) -> None:
    if not truth(interp.condition(stmt.test)):
        message = "" if stmt.message is None else display(interp.expression(stmt.message))
        raise BadValueError(f"AssertionError{': ' + message if message else ''}",
                            reason="assertion").at(stmt.line, stmt.column)
    result.root, result.root_name = None, None


def _delete(interp: Any, stmt: S.Delete, result: Evaluation) -> None:
    """del name / del obj.attr / del container[key], left to right, as Python does."""
    for target in stmt.targets:
        if isinstance(target, S.Name):
            if target.id not in interp.names:
                raise UnknownNameError(f"name '{target.id}' is not defined", reason="unknown_name",
                                       name=target.id).at(target.line, target.column)
            del interp.names[target.id]
        elif isinstance(target, S.Attribute):
            owner = interp.expression(target.value)
            interp.guard(lambda o=owner, a=target.attr: delete_attribute(o, a), target)
        else:
            owner, index = interp.expression(target.value), interp.index_of(target.index)
            interp.guard(lambda o=owner, i=index: _delete_item(o, i), target)
    result.root, result.root_name = None, None


def _delete_item(owner: Any, index: Any) -> None:
    if isinstance(owner, dict):
        if index not in owner:
            raise BadValueError(f"KeyError: {index!r}", reason="key")
        del owner[index]
        return
    if isinstance(owner, list) and (isinstance(index, slice) or (isinstance(index, int) and not isinstance(
            index, bool) and -len(owner) <= index < len(owner))):
        del owner[index]
        return
    if isinstance(owner, list):
        raise BadValueError(f"list index {index!r} out of range or not an integer", reason="index")
    raise BadValueError(f"'{kind(owner)}' object does not support item deletion", reason="subscript")


def _pass(interp: Any, stmt: S.Pass, result: Evaluation) -> None:
    result.root, result.root_name = None, None


SIMPLE: dict[type, Callable[[Any, Any, Evaluation], None]] = {
    S.Assign: _assign,
    S.IndexAssign: _index_assign,
    S.ExprStmt: _expression_statement,
    S.Import: _import,
    S.ImportFrom: _import_from,
    S.AssignTo: _assign_to,
    S.AugAssign: _augmented_statement,
    S.Assert: _assert,
    S.Pass: _pass,
    S.Delete: _delete,
}


def simple_statement(interp: Any, stmt: S.Node, result: Evaluation) -> None:
    """Run a statement that has no block."""
    rule = SIMPLE.get(type(stmt))
    if rule is None:  # break, continue and return outside their block: the parser refuses them
        raise BadValueError(f"'{type(stmt).__name__.lower()}' outside its block").at(stmt.line, stmt.column)
    rule(interp, stmt, result)
    result.root_statement = stmt


# ---------------------------------------------------------------------------- assignment
def assign(interp: Any, target: S.Node, value: Any, scope: dict | None = None) -> None:
    """Bind `value` to a target: a name, name[index], x.attribute, or a tuple/list of targets (unpacked).
    Names go to `scope` when given (a comprehension's), else to the script's names."""
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
            if isinstance(owner, (dict, list)):  # counts[0] += 1, table[key] = v (in a loop target too)
                key = interp.index_of(node.index)
                interp.guard(lambda o=owner, k=key, v=item: set_item(o, k, v), node)
                continue
            if isinstance(owner, script_type("numpy_subset", "NDArray")):
                from autodiff.grammar.interpreter.numpy_subset import set_item as set_array_item

                index = interp.index_of(node.index)
                interp.guard(lambda o=owner, i=index, v=item: set_array_item(o, i, v), node)
                continue
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
            value = engine.tensor(value)
        method = engine.INPLACE[_INPLACE[stmt.op]]
        result = interp.guard(lambda: method(current, value), stmt)
    elif isinstance(current, list) and interp.policy.keeps_lists and stmt.op == "+" \
            and isinstance(value, (list, tuple)):  # a script's `losses += [v]` extends the list in place
        result = interp.guard(lambda: sequences.extend(current, value), stmt)
    else:
        result = interp.guard(lambda: interp.operator(stmt.op, current, value), stmt)
    assign(interp, target, result)
    return result


def _iterable_of(value: Any) -> Any:
    """pytypes.iterable_of, imported when a loop or a comprehension first runs (a formula has none)."""
    from autodiff.grammar.interpreter.pytypes import iterable_of

    return iterable_of(value)


def comprehension(interp: Any, node: S.ListComp | S.DictComp) -> list | dict:
    """`[element for target in iterable if ...]` (or `{key: value for ...}`): its names live in a scope of
    their own, as in Python 3."""
    items = interp.guard(lambda: _iterable_of(interp.expression(node.iterable)), node.iterable)
    if len(interp.scopes) >= MAX_CALL_DEPTH:
        raise LimitError(f"comprehensions and calls are nested more than {MAX_CALL_DEPTH} deep",
                         reason="call_depth").at(node.line, node.column)
    scope = dict(interp.scopes[-1]) if interp.scopes else {}
    interp.scopes.append(scope)
    pairs = isinstance(node, S.DictComp)
    out: Any = {} if pairs else []
    try:
        for item in items:
            interp.count_step(node)
            assign(interp, node.target, item, scope)
            if all(truth(interp.condition(condition)) for condition in node.conditions):
                if pairs:
                    key = interp.expression(node.key)
                    out[interp.guard(lambda k=key: hashable(k), node.key)] = interp.expression(node.value)
                else:
                    out.append(interp.expression(node.element))
    finally:
        interp.scopes.pop()
    return out


# ---------------------------------------------------------------------------- blocks
class _Frame:
    """A body being run: its statements, the next one's index, and what runs it (a loop, a with)."""

    __slots__ = ("body", "context", "index", "items", "node")

    def __init__(self, body: tuple, node: S.Node | None = None, items: Any = None, context: Any = None) -> None:
        self.body, self.node, self.items, self.context, self.index = body, node, items, context, 0


def run_block(interp: Any, stmt: S.Node, result: Evaluation) -> None:
    """Run a block statement (if, for, while, with, def) to its end, with an explicit stack of frames."""
    frames: list[_Frame] = []
    try:
        _start(interp, stmt, frames, result)
        _run(interp, frames, result)  # (a `return` outside a function is refused by the parser)
    except BaseException:
        _leave_all(frames)  # every open `with` restores its grad mode
        raise
    result.root, result.root_name, result.root_statement = None, None, stmt


def script_names(names: dict[str, Any]) -> dict[str, Any]:
    """The script's own names, under the scopes of the functions running (interp.names' last map)."""
    return names.maps[-1] if isinstance(names, ChainMap) else names


def run_body(interp: Any, body: tuple, local: dict[str, Any], closure: tuple[dict[str, Any], ...] = ()) -> Any:
    """Run a function's statements until a `return` (or their end: None), with `local` as its names.

    The names a function assigns are its own, as in Python: while it runs, interp.names reads `local` first,
    then the scopes of the functions it was defined in (`closure`), then the script's names, and writes go to
    `local` (a ChainMap); the caller's locals are not visible.
    """
    outer = interp.names
    interp.names = ChainMap(local, *closure, script_names(outer))
    frames = [_Frame(body)]
    try:
        returned = _run(interp, frames, Evaluation(S.Program((), "", line=1, column=1)))  # (what it binds: unused)
        return None if returned is None or returned.value is None else interp.expression(returned.value)
    finally:
        _leave_all(frames)  # after `return` inside a `with`, or an error: grad modes restored
        interp.names = outer


def _run(interp: Any, frames: list[_Frame], result: Evaluation) -> S.Return | None:
    """Run the open bodies until none is left, or until a `return` statement, which is given back."""
    while frames:
        frame = frames[-1]
        if frame.index < len(frame.body):
            inner = frame.body[frame.index]
            frame.index += 1
            interp.count_step(inner)
            if isinstance(inner, S.Return):
                return inner
            if isinstance(inner, (S.Break, S.Continue)):
                _leave_loop(frames, inner)
            elif isinstance(inner, S.BLOCKS):
                _start(interp, inner, frames, result)
            else:
                simple_statement(interp, inner, result)
            continue
        _next_round(interp, frames)
    return None


def _leave_all(frames: list[_Frame]) -> None:
    """Leave every open body, innermost first: each `with` restores its grad mode."""
    while frames:
        frame = frames.pop()
        if frame.context is not None:
            frame.context.__exit__(None, None, None)


def _start(interp: Any, stmt: S.Node, frames: list[_Frame], result: Evaluation) -> None:
    if isinstance(stmt, S.If):
        frames.append(_Frame(stmt.body if truth(interp.condition(stmt.test)) else stmt.orelse))
    elif isinstance(stmt, S.For):
        items = interp.guard(lambda: _iterable_of(interp.expression(stmt.iter)), stmt.iter)
        frame = _Frame(stmt.body, stmt, iter(items))
        frames.append(frame)
        if not _next_item(interp, frame):
            frames.pop()
    elif isinstance(stmt, S.While):
        if truth(interp.condition(stmt.test)):
            frames.append(_Frame(stmt.body, stmt))
    elif isinstance(stmt, S.With):
        context = interp.expression(stmt.context)
        if not isinstance(context, (engine.GradMode, second("dual_level"), Profile)):
            raise BadValueError(f"with needs torch.no_grad(), torch.enable_grad(), torch.set_grad_enabled(...), "
                                f"torch.autograd.forward_ad.dual_level() or torch.autograd.profiler.profile(), "
                                f"not {type(context).__name__}", reason="context").at(stmt.line, stmt.column)
        entered = context.__enter__()
        frames.append(_Frame(stmt.body, stmt, context=context))
        if stmt.alias is not None:
            interp.names[stmt.alias] = entered
    elif isinstance(stmt, (S.FunctionDef, S.ClassDef, S.Decorated)):
        interp.names[_defined_name(stmt)] = definition(interp, stmt)


def _defined_name(stmt: S.Node) -> str:
    return stmt.definition.name if isinstance(stmt, S.Decorated) else stmt.name


def definition(interp: Any, stmt: S.Node) -> Any:
    """The value a def or a class statement binds (decorators applied, the nearest first)."""
    if isinstance(stmt, S.Decorated):
        from autodiff.grammar.interpreter.decorators import decorate  # (scripts only: imported by the first one)

        decorators = [interp.expression(d) for d in stmt.decorators]  # evaluated first, as Python does
        value = definition(interp, stmt.definition)  # (a Decorated holds a def or a class, never another one)
        for decorator, node in zip(reversed(decorators), reversed(stmt.decorators)):
            value = interp.guard(lambda d=decorator, v=value: decorate(interp, d, v), node)
        return value
    if isinstance(stmt, S.FunctionDef):
        return interp.guard(lambda: define(interp, stmt.name, stmt.params, stmt.body), stmt)
    bases = [interp.expression(b) for b in stmt.bases]
    if len(interp.scopes) >= MAX_CALL_DEPTH:
        raise LimitError(f"classes and calls are nested more than {MAX_CALL_DEPTH} deep",
                         reason="call_depth").at(stmt.line, stmt.column)
    members: dict[str, Any] = ClassBody()
    outside = enclosing(interp)  # a class body (and so its methods) reads the functions' names it is defined in
    interp.scopes.append(members)
    try:
        run_body(interp, stmt.body, members, outside)
    finally:
        interp.scopes.pop()
    from autodiff.grammar.interpreter.classes import make_class  # (scripts only: imported by the first class)

    return interp.guard(lambda: make_class(interp, stmt.name, bases, members), stmt)


def _next_item(interp: Any, frame: _Frame) -> bool:
    """Bind the loop's next item to its target; False at the end."""
    stmt = frame.node
    try:
        item = next(frame.items)
    except StopIteration:
        return False
    except AutodiffError as error:
        raise error.at(stmt.iter.line, stmt.iter.column) from None
    assign(interp, stmt.target, item)
    frame.index = 0
    return True


def _next_round(interp: Any, frames: list[_Frame]) -> None:
    """The body of frames[-1] ran to its end: loop again, or leave it."""
    frame = frames[-1]
    node = frame.node
    if isinstance(node, S.For):
        interp.count_step(node)
        if _next_item(interp, frame):
            return
    elif isinstance(node, S.While):
        interp.count_step(node)
        if truth(interp.condition(node.test)):
            frame.index = 0
            return
    frames.pop()
    if frame.context is not None:
        frame.context.__exit__(None, None, None)


def _leave_loop(frames: list[_Frame], stmt: S.Node) -> None:
    """break: leave the innermost loop; continue: go to its next round (leaving the bodies inside it)."""
    while frames:
        frame = frames[-1]
        if isinstance(frame.node, (S.For, S.While)):
            if isinstance(stmt, S.Break):
                frames.pop()
            else:
                frame.index = len(frame.body)
            return
        frames.pop()
        if frame.context is not None:
            frame.context.__exit__(None, None, None)
