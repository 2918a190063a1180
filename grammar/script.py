"""The Python of tutorial scripts, run by the Evaluator: blocks (if/for/while/with, def), augmented and
unpacking assignments, functions of one expression (def, lambda), truth values, f-string fields and the
few Python built-ins tutorials use (range, len, round, min, max, ...).

Blocks run on an explicit stack of frames, never by recursion, so nesting costs no Python stack; a script
runs at most `Evaluator.max_steps` statements (loop iterations included), and calls of the script's own
functions nest at most MAX_CALL_DEPTH deep. Nothing here evaluates Python: every value comes from the
Evaluator, every name from its tables.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, LimitError
from autodiff.grammar import syntax as S

if TYPE_CHECKING:
    from autodiff.grammar.evaluate import Evaluation, Evaluator

MAX_STEPS = 1_000_000  # statements a script may run, loop rounds included (the command line can change it)
MAX_CALL_DEPTH = 100  # calls of the script's own functions inside each other
MAX_LIST = 10_000_000  # items list() may build

SETTABLE = ("grad", "requires_grad", "data")  # tensor attributes a script may assign


class UserFunction:
    """A function of the script: `def f(x): return ...` or `lambda grad: ...`; it reads the script's names
    when it is called (no other closure), with its parameters in front of them."""

    __slots__ = ("body", "evaluator", "name", "params")

    def __init__(self, name: str, params: tuple[str, ...], body: S.Node, evaluator: Evaluator) -> None:
        self.name, self.params, self.body, self.evaluator = name, params, body, evaluator

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        ev = self.evaluator
        scope: dict[str, Any] = {}
        if len(args) > len(self.params):
            raise BadValueError(f"{self.name}() takes {len(self.params)} positional argument"
                                f"{'' if len(self.params) == 1 else 's'} but {len(args)} were given",
                                reason="arguments")
        scope.update(zip(self.params, args))
        for key, value in kwargs.items():
            if key not in self.params:
                raise BadValueError(f"{self.name}() got an unexpected keyword argument '{key}'", reason="arguments")
            if key in scope:
                raise BadValueError(f"{self.name}() got multiple values for argument '{key}'", reason="arguments")
            scope[key] = value
        missing = [p for p in self.params if p not in scope]
        if missing:
            raise BadValueError(f"{self.name}() missing required argument: '{missing[0]}'", reason="arguments")
        if len(ev.scopes) >= MAX_CALL_DEPTH:
            raise LimitError(f"function calls are nested more than {MAX_CALL_DEPTH} deep (a function that calls "
                             "itself never stops)", reason="call_depth")
        ev.scopes.append(scope)
        try:
            return run_body(ev, self.body, scope) if isinstance(self.body, tuple) else ev.expression(self.body)
        finally:
            ev.scopes.pop()


# ---------------------------------------------------------------------------- truth and formatting
def truth(value: Any) -> bool:
    """Python's truth value; a tensor's needs exactly one element, as in PyTorch."""
    if isinstance(value, Tensor):
        return bool(value)
    if value is None or isinstance(value, (bool, int, float, str, list, tuple, range)):
        return bool(value)
    return True


def format_field(value: Any, conversion: str, spec: str) -> str:
    """One f-string field, as Python formats it (a 0-d tensor formats as its number, as PyTorch's
    Tensor.__format__ does; any other tensor takes no format spec)."""
    from autodiff.grammar.evaluate import display

    if conversion:
        value = repr(value) if conversion == "r" else ascii(value) if conversion == "a" else display(value)
    if isinstance(value, Tensor):
        if value.ndim == 0:
            value = value.item() if value.dtype.kind == "f" else value.tolist()
        elif spec:
            raise BadValueError(f"unsupported format string passed to Tensor.__format__ ({spec!r} needs one number: "
                                "use .item() or index the tensor)", reason="format")
        else:
            return repr(value)
    if isinstance(value, (bool, int, float, str)) or value is None:
        try:
            return format(value, spec)
        except ValueError as error:
            raise BadValueError(f"{error}", reason="format") from None
    if spec:
        raise BadValueError(f"unsupported format string passed to {type(value).__name__}.__format__",
                            reason="format")
    return display(value)


def fstring(node: S.FString, values: list[Any]) -> str:
    """The text of an f-string, its fields' values given in order."""
    out = [node.pieces[0]]
    for value, conversion, spec, piece in zip(values, node.conversions, node.specs, node.pieces[1:]):
        out.append(format_field(value, conversion, spec))
        out.append(piece)
    return "".join(out)



def identity_or_membership(op: str, left: Any, right: Any) -> bool:
    """`is`, `is not`, `in`, `not in` (a tensor contains a number when an element equals it, as in PyTorch)."""
    from autodiff.grammar.evaluate import binary

    if op == "is":
        return left is right
    if op == "is not":
        return left is not right
    if isinstance(right, Tensor):
        found = bool(engine.eq(right, left).any()) if isinstance(left, (Tensor, int, float)) else False
    elif isinstance(right, (list, tuple, range)):
        found = any(truth(binary("==", item, left)) if isinstance(item, Tensor) else item == left
                    for item in right)
    elif isinstance(right, str) and isinstance(left, str):
        found = left in right
    else:
        raise BadValueError(f"argument of type '{type(right).__name__}' is not iterable", reason="operands")
    return found if op == "in" else not found


def modulo_or_floor(op: str, left: Any, right: Any) -> Any:
    """`%` and `//` of two numbers, as Python computes them."""
    if not (_is_plain_number(left) and _is_plain_number(right)):
        fix = "x - floor(x / y) * y" if op == "%" else "floor(x / y)"
        raise BadValueError(f"{op} works on numbers here, not tensors: write {fix}", reason="operands")
    if right == 0:
        raise BadValueError("integer division or modulo by zero" if isinstance(right, int) else
                            "float modulo" if op == "%" else "float floor division by zero", reason="zero_division")
    return left % right if op == "%" else left // right


# ---------------------------------------------------------------------------- Python built-ins
def _integer(value: Any, what: str) -> int:
    if isinstance(value, Tensor) and value.numel() == 1 and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadValueError(f"'{type(value).__name__}' object cannot be interpreted as an integer ({what})",
                            reason="arguments")
    return value


def _range(*args: Any) -> range:
    if not 1 <= len(args) <= 3:
        raise BadValueError(f"range expected 1 to 3 arguments, got {len(args)}", reason="arguments")
    numbers = [_integer(a, "range") for a in args]
    if len(numbers) == 3 and numbers[2] == 0:
        raise BadValueError("range() arg 3 must not be zero", reason="arguments")
    return range(*numbers)


def _len(value: Any) -> int:
    if isinstance(value, Tensor):
        return len(value)
    if isinstance(value, (list, tuple, str, range, engine.Size)):
        return len(value)
    raise BadValueError(f"object of type '{type(value).__name__}' has no len()", reason="arguments")


def _iterable(value: Any) -> Any:
    """What `for` and the built-ins may iterate: ranges, lists, tuples, strings, tensors (along dim 0)."""
    if isinstance(value, (range, list, tuple, str, enumerate, zip)):  # engine.Size is a tuple
        return value
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise BadValueError("iteration over a 0-d tensor", reason="iterate")
        return value
    raise BadValueError(f"'{type(value).__name__}' object is not iterable", reason="iterate")


def _enumerate(iterable: Any, start: int = 0) -> enumerate:
    return enumerate(_iterable(iterable), _integer(start, "enumerate start"))


def _zip(*iterables: Any) -> zip:
    return zip(*(_iterable(i) for i in iterables))


def _list(iterable: Any = ()) -> list:
    items = _iterable(iterable)
    if isinstance(items, range) and len(items) > MAX_LIST:
        raise LimitError(f"list() of {len(items):,} items; the limit is {MAX_LIST:,}", reason="elements")
    out = []
    for item in items:
        out.append(item)
        if len(out) > MAX_LIST:
            raise LimitError(f"list() of more than {MAX_LIST:,} items", reason="elements")
    return out


def _is_plain_number(value: Any) -> bool:
    return isinstance(value, (int, float))  # bools too, as in Python


def _numbers(args: tuple) -> list | None:
    """The numbers of min(a, b, ...) or min([a, b, ...]) when they are all Python numbers, else None."""
    items = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple, range)) else list(args)
    return items if items and all(_is_plain_number(i) for i in items) else None


def _builtin(name: str, *args: Any, **kwargs: Any) -> Any:
    """The tensor built-in `name`, called with its signature checked (a clear error, not a TypeError)."""
    import inspect

    builtin = engine.BUILTINS[name]
    try:
        inspect.signature(builtin.fn).bind(*args, **kwargs)
    except TypeError as error:
        raise BadValueError(f"{name}(): {error} (usage: {builtin.signature})", reason="arguments") from None
    return builtin.fn(*args, **kwargs)


def _extreme(kind: str) -> Any:
    pick = min if kind == "min" else max

    def choose(*args: Any, **kwargs: Any) -> Any:
        numbers = _numbers(args) if not kwargs else None
        if numbers is not None:
            return pick(numbers)
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not args[0]:
            raise BadValueError(f"{kind}() arg is an empty sequence", reason="arguments")
        return _builtin(kind, *args, **kwargs)

    return choose


def _round(value: Any, ndigits: int | None = None) -> Any:
    if _is_plain_number(value):
        return round(value, ndigits) if ndigits is not None else round(value)
    if ndigits is not None:
        raise BadValueError("round(tensor, ndigits) is not supported: use round(x.item(), ndigits)",
                            reason="arguments")
    return _builtin("round", value)


def _abs(value: Any) -> Any:
    return abs(value) if _is_plain_number(value) else _builtin("abs", value)


def _sum(iterable: Any, *rest: Any, **kwargs: Any) -> Any:
    if not isinstance(iterable, (list, tuple, range, enumerate, zip)):  # a tensor (or a number): torch.sum
        return _builtin("sum", iterable, *rest, **kwargs)
    total = rest[0] if rest else kwargs.get("start", 0)
    for item in _iterable(iterable):
        total = total + item
    return total


def _tuple(iterable: Any = ()) -> tuple:
    return tuple(_list(iterable))


def _float(value: Any = 0.0) -> float:
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise BadValueError(f"could not convert string to float: {value!r}", reason="arguments") from None
    if not _is_plain_number(value):
        raise BadValueError(f"float() argument must be a number or a tensor, not '{type(value).__name__}'",
                            reason="arguments")
    return float(value)


def _int(value: Any = 0) -> int:
    number = _float(value) if not (isinstance(value, int) and not isinstance(value, Tensor)) else value
    if isinstance(number, float) and not math.isfinite(number):
        raise BadValueError(f"cannot convert float {number} to integer", reason="arguments")
    return int(number)


def _str(value: Any = "") -> str:
    from autodiff.grammar.evaluate import display

    return display(value)


def _bool(value: Any = False) -> bool:
    return truth(value)


def python_builtins() -> dict[str, tuple[Any, str]]:
    """The Python built-ins of scripts: name -> (function, usage). min, max, abs, round and sum keep the
    tensor built-ins' meaning for tensors."""
    return {
        "range": (_range, "range(stop) or range(start, stop[, step])"),
        "len": (_len, "len(value)"),
        "enumerate": (_enumerate, "enumerate(iterable, start=0)"),
        "zip": (_zip, "zip(a, b, ...)"),
        "list": (_list, "list(iterable)"),
        "tuple": (_tuple, "tuple(iterable)"),
        "min": (_extreme("min"), "min(a, b, ...), min(list) or min(input, dim=None, keepdim=False)"),
        "max": (_extreme("max"), "max(a, b, ...), max(list) or max(input, dim=None, keepdim=False)"),
        "round": (_round, "round(number, ndigits=None) or round(input)"),
        "abs": (_abs, "abs(number) or abs(input)"),
        "sum": (_sum, "sum(iterable, start=0) or sum(input, dim=None)"),
        "float": (_float, "float(value)"),
        "int": (_int, "int(value)"),
        "str": (_str, "str(value)"),
        "repr": (repr, "repr(value)"),
        "bool": (_bool, "bool(value)"),
    }


def comprehension(ev: Evaluator, node: S.ListComp) -> list:
    """`[element for target in iterable if ...]`: its names live in a scope of their own, as in Python 3."""
    iterable = ev.guard(lambda: _iterable(ev.expression(node.iterable)), node.iterable)
    if len(ev.scopes) >= MAX_CALL_DEPTH:
        raise LimitError(f"comprehensions and calls are nested more than {MAX_CALL_DEPTH} deep",
                         reason="call_depth").at(node.line, node.column)
    scope = dict(ev.scopes[-1]) if ev.scopes else {}
    ev.scopes.append(scope)
    out: list = []
    try:
        for item in iterable:
            ev.count_step(node)
            assign(ev, node.target, item, scope)
            if all(truth(ev.condition(condition)) for condition in node.conditions):
                out.append(ev.expression(node.element))
    finally:
        ev.scopes.pop()
    return out


# ---------------------------------------------------------------------------- assignment
def assign(ev: Evaluator, target: S.Node, value: Any, scope: dict | None = None) -> None:
    """Bind `value` to a target: a name, name[index], x.attribute, or a tuple/list of targets (unpacked).
    Names go to `scope` when given (a comprehension's), else to the script's names."""
    names = ev.names if scope is None else scope
    stack: list[tuple[S.Node, Any]] = [(target, value)]
    while stack:
        node, item = stack.pop()
        if isinstance(node, S.Name):
            names[node.id] = item
        elif isinstance(node, (S.TupleExpr, S.ListExpr)):
            items = _unpack(item, len(node.items), node)
            stack.extend(reversed(list(zip(node.items, items))))
        elif isinstance(node, S.Subscript):
            owner = ev.expression(node.value)
            if not isinstance(owner, Tensor):
                raise BadValueError(f"'{type(owner).__name__}' object does not support item assignment",
                                    reason="subscript").at(node.line, node.column)
            index = ev.index_of(node.index)
            ev.guard(lambda o=owner, i=index, v=item: engine.setitem(o, i, v), node)
        elif isinstance(node, S.Attribute):
            owner = ev.expression(node.value)
            ev.guard(lambda o=owner, a=node.attr, v=item: set_attribute(o, a, v), node)
        else:  # pragma: no cover - the parser allows no other target
            raise BadValueError("cannot assign to this").at(node.line, node.column)


def _unpack(value: Any, count: int, node: S.Node) -> list:
    if isinstance(value, Tensor):
        items = list(value) if value.ndim else None
    elif isinstance(value, (list, tuple, range, str, enumerate, zip)):
        items = list(value) if not isinstance(value, range) or len(value) <= MAX_LIST else None
    else:
        items = None
    if items is None:
        raise BadValueError(f"cannot unpack a non-iterable {type(value).__name__} object",
                            reason="unpack").at(node.line, node.column)
    if len(items) != count:
        few = "not enough" if len(items) < count else "too many"
        raise BadValueError(f"{few} values to unpack (expected {count}, got {len(items)})",
                            reason="unpack").at(node.line, node.column)
    return items


def set_attribute(owner: Any, attr: str, value: Any) -> None:
    """x.grad = ..., x.requires_grad = ..., x.data = ...: the attributes a script may set."""
    if not isinstance(owner, Tensor):
        raise BadValueError(f"cannot set attribute '{attr}' of a {type(owner).__name__}", reason="attribute")
    if attr not in SETTABLE:
        raise BadValueError(f"attribute '{attr}' of a tensor cannot be assigned (only {', '.join(SETTABLE)} can)",
                            reason="attribute")
    if attr == "grad":
        owner.grad = value
    elif attr == "requires_grad":
        if not isinstance(value, bool):
            raise BadValueError(f"requires_grad must be True or False, got {type(value).__name__}",
                                reason="attribute")
        owner.requires_grad_(value)
    else:
        owner.set_data(value)


_INPLACE = {"+": Tensor.add_, "-": Tensor.sub_, "*": Tensor.mul_, "/": Tensor.div_, "**": Tensor.pow_}


def augmented(ev: Evaluator, stmt: S.AugAssign) -> Any:
    """`target op= value`: a tensor target is updated in place (x += y is x.add_(y), as in PyTorch), a
    number is rebound; `x[i] op= y` writes x[i] op y back into x[i]."""
    from autodiff.grammar.evaluate import binary

    target = stmt.target
    current = ev.expression(target)
    value = ev.expression(stmt.value)
    if isinstance(current, Tensor) and stmt.op in _INPLACE and not isinstance(target, S.Subscript):
        if isinstance(value, list):
            value = engine.tensor(value)
        method = _INPLACE[stmt.op]
        result = ev.guard(lambda: method(current, value), stmt)
    else:
        result = ev.guard(lambda: binary(stmt.op, current, value), stmt)
    assign(ev, target, result)
    return result


# ---------------------------------------------------------------------------- blocks
class _Frame:
    """A body being run: its statements, the next one's index, and what runs it (a loop, a with)."""

    __slots__ = ("body", "context", "index", "items", "node")

    def __init__(self, body: tuple, node: S.Node | None = None, items: Any = None, context: Any = None) -> None:
        self.body, self.node, self.items, self.context, self.index = body, node, items, context, 0


_CONTEXTS = (engine.GradMode,)


def run_block(ev: Evaluator, stmt: S.Node, result: Evaluation) -> None:
    """Run a block statement (if, for, while, with, def) to its end, with an explicit stack of frames."""
    frames: list[_Frame] = []
    try:
        _start(ev, stmt, frames, result)
        _run(ev, frames, result)  # (a `return` outside a function is refused by the parser)
    except BaseException:
        _leave_all(frames)  # every open `with` restores its grad mode
        raise
    result.root, result.root_name, result.root_statement = None, None, stmt


def run_body(ev: Evaluator, body: tuple, local: dict[str, Any]) -> Any:
    """Run a function's statements until a `return` (or their end: None), with `local` as its names.

    The names a function assigns are its own, as in Python: while it runs, ev.names reads `local` first and
    then the script's names, and writes go to `local` (a ChainMap); the caller's locals are not visible.
    """
    from collections import ChainMap

    from autodiff.grammar.evaluate import Evaluation  # (evaluate imports this module)

    outer = ev.names
    script_names = outer.maps[-1] if isinstance(outer, ChainMap) else outer
    ev.names = ChainMap(local, script_names)
    frames = [_Frame(body)]
    try:
        returned = _run(ev, frames, Evaluation(S.Program((), "", line=1, column=1)))  # (what it binds: unused)
        return None if returned is None or returned.value is None else ev.expression(returned.value)
    finally:
        _leave_all(frames)  # after `return` inside a `with`, or an error: grad modes restored
        ev.names = outer


def _run(ev: Evaluator, frames: list[_Frame], result: Evaluation) -> S.Return | None:
    """Run the open bodies until none is left, or until a `return` statement, which is given back."""
    while frames:
        frame = frames[-1]
        if frame.index < len(frame.body):
            inner = frame.body[frame.index]
            frame.index += 1
            ev.count_step(inner)
            if isinstance(inner, S.Return):
                return inner
            if isinstance(inner, (S.Break, S.Continue)):
                _leave_loop(frames, inner)
            elif isinstance(inner, S.BLOCKS):
                _start(ev, inner, frames, result)
            else:
                ev.simple_statement(inner, result)
            continue
        _next_round(ev, frames)
    return None


def _leave_all(frames: list[_Frame]) -> None:
    """Leave every open body, innermost first: each `with` restores its grad mode."""
    while frames:
        frame = frames.pop()
        if frame.context is not None:
            frame.context.__exit__(None, None, None)


def _start(ev: Evaluator, stmt: S.Node, frames: list[_Frame], result: Evaluation) -> None:
    if isinstance(stmt, S.If):
        frames.append(_Frame(stmt.body if truth(ev.condition(stmt.test)) else stmt.orelse))
    elif isinstance(stmt, S.For):
        iterable = ev.guard(lambda: _iterable(ev.expression(stmt.iter)), stmt.iter)
        frame = _Frame(stmt.body, stmt, iter(iterable))
        frames.append(frame)
        if not _next_item(ev, frame):
            frames.pop()
    elif isinstance(stmt, S.While):
        if truth(ev.condition(stmt.test)):
            frames.append(_Frame(stmt.body, stmt))
    elif isinstance(stmt, S.With):
        context = ev.expression(stmt.context)
        if not isinstance(context, _CONTEXTS):
            raise BadValueError(f"with needs torch.no_grad(), torch.enable_grad() or torch.set_grad_enabled(...), "
                                f"not {type(context).__name__}", reason="context").at(stmt.line, stmt.column)
        entered = context.__enter__()
        frames.append(_Frame(stmt.body, stmt, context=context))
        if stmt.alias is not None:
            ev.names[stmt.alias] = entered
    elif isinstance(stmt, S.FunctionDef):
        ev.names[stmt.name] = UserFunction(stmt.name, stmt.params, stmt.body, ev)


def _next_item(ev: Evaluator, frame: _Frame) -> bool:
    """Bind the loop's next item to its target; False at the end."""
    stmt = frame.node
    try:
        item = next(frame.items)
    except StopIteration:
        return False
    except AutodiffError as error:
        raise error.at(stmt.iter.line, stmt.iter.column) from None
    assign(ev, stmt.target, item)
    frame.index = 0
    return True


def _next_round(ev: Evaluator, frames: list[_Frame]) -> None:
    """The body of frames[-1] ran to its end: loop again, or leave it."""
    frame = frames[-1]
    node = frame.node
    if isinstance(node, S.For):
        ev.count_step(node)
        if _next_item(ev, frame):
            return
    elif isinstance(node, S.While):
        ev.count_step(node)
        if truth(ev.condition(node.test)):
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
