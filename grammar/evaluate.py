"""Evaluate a parsed program: every operation becomes an engine call, so the graph builds as it runs.

Nothing here evaluates Python. Names resolve to bound values, to the engine's built-ins (read from
`autodiff.engine.BUILTINS`, never a second list) or to the few script helpers (`print`, `torch.Tensor`,
...). Attributes and methods come from explicit allow-lists per kind of value, so no Python object is
reachable through `.`. The tree is walked with an explicit stack: a 20,000-term sum needs no recursion.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS, AccumulateGrad, Node, Tensor
from autodiff.engine.errors import AutodiffError, BadValueError, UnknownNameError
from autodiff.grammar import script
from autodiff.grammar import syntax as S

# Integers stay exact only while they are this small; beyond, arithmetic on numbers is in floats.
_MAX_EXACT_INT = 2**63


@dataclass
class Evaluation:
    """What running a program produced: its names in binding order and the root (last statement)."""

    program: S.Program
    names: dict[str, Any] = field(default_factory=dict)
    root: Any = None
    root_name: str | None = None
    root_statement: S.Node | None = None


class DType(str):
    """A dtype as the language shows it (torch.float32); as a string it is the engine's name for it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.{str.__str__(self)}"

    __str__ = __repr__


class Namespace:
    """`torch`, `torch.autograd` or an unsupported module (`np`): a fixed table of names."""

    __slots__ = ("members", "name")

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self.name, self.members = name, members

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class Function:
    """A callable of the language (a built-in, a method bound to its object, or a script helper)."""

    __slots__ = ("fn", "name", "signature")

    def __init__(self, name: str, fn: Callable[..., Any], signature: str | None = None) -> None:
        self.name, self.fn, self.signature = name, fn, signature

    def __repr__(self) -> str:
        return f"<function {self.name}>"


# ---------------------------------------------------------------------------- what `.` can reach
TENSOR_ATTRIBUTES = {
    "T": lambda t: t.T,
    "mT": lambda t: t.mT,
    "shape": lambda t: t.shape,
    "grad": lambda t: t.grad,
    "data": lambda t: t.data_alias(),  # PyTorch's .data: the same memory, outside the graph, its own version
    "requires_grad": lambda t: t.requires_grad,
    "is_leaf": lambda t: t.is_leaf,
    "grad_fn": lambda t: t.grad_fn,
    "dtype": lambda t: DType(t.dtype.name),
    "ndim": lambda t: t.ndim,
    "retains_grad": lambda t: t.retains_grad,
}
TENSOR_METHODS = {name for name, b in BUILTINS.items() if b.method} | {
    "backward", "retain_grad", "zero_", "fill_", "item", "tolist", "size", "dim", "numel", "detach_",
    "requires_grad_", "float", "double", "add_", "sub_", "mul_", "div_", "pow_", "clamp_", "abs_", "register_hook",
    "normal_", "uniform_",
}
NODE_ATTRIBUTES = {
    "next_functions": lambda n: n.next_functions,
    "variable": lambda n: n.variable if isinstance(n, AccumulateGrad) else _no_attribute(n, "variable"),
    "metadata": lambda n: n.metadata,
}
NODE_METHODS = {"name"}


def _no_attribute(value: Any, attr: str) -> Any:
    # PyTorch raises AttributeError here: an unknown name for this kind of node, like any unknown member.
    raise UnknownNameError(f"'{_kind(value)}' object has no attribute '{attr}' (only AccumulateGrad nodes, the "
                           "leaves of the graph, have a variable)", reason="attribute")


def _kind(value: Any) -> str:
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, (Node, AccumulateGrad)):
        return value.name()
    if value is None:
        return "NoneType"
    return type(value).__name__


# ---------------------------------------------------------------------------- script helpers
def _legacy_tensor(dtype: str) -> Callable[..., Tensor]:
    """torch.Tensor / torch.FloatTensor / torch.DoubleTensor: from data, or zeros of the given sizes."""

    def construct(*args: Any) -> Tensor:
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return engine.zeros(*args, dtype=dtype)
        if len(args) != 1:
            raise BadValueError("Tensor() takes the data (a number or nested lists), or sizes")
        return engine.tensor(_as_data(args[0]), dtype=dtype)

    return construct


def _as_data(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value


def _unsupported_module(name: str) -> Namespace:
    return Namespace(name, {})


def _autograd_members() -> dict[str, Any]:
    return {
        "grad": Function("torch.autograd.grad", engine.grad,
                         "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)"),
        "backward": Function("torch.autograd.backward", engine.backward,
                             "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)"),
    }


_TORCH_MEMBERS: dict[str, Any] = {}


def _torch_namespace() -> Namespace:
    """A `torch` namespace. Its table is built once and shared (nothing changes it): building it for each
    Evaluator cost 10% of a batch line."""
    if not _TORCH_MEMBERS:
        _TORCH_MEMBERS.update(_torch_members())
    return Namespace("torch", _TORCH_MEMBERS)


def _torch_members() -> dict[str, Any]:
    members: dict[str, Any] = {name: Function(name, b.fn, b.signature) for name, b in BUILTINS.items()}
    members.update({
        "Tensor": Function("torch.Tensor", _legacy_tensor(None), "Tensor(data)"),
        "FloatTensor": Function("torch.FloatTensor", _legacy_tensor("float32"), "FloatTensor(data)"),
        "DoubleTensor": Function("torch.DoubleTensor", _legacy_tensor("float64"), "DoubleTensor(data)"),
        "manual_seed": Function("manual_seed", engine.manual_seed, "manual_seed(seed)"),
        "is_grad_enabled": Function("is_grad_enabled", engine.is_grad_enabled, "is_grad_enabled()"),
        "set_grad_enabled": Function("set_grad_enabled", engine.set_grad_enabled, "set_grad_enabled(mode)"),
        "no_grad": Function("no_grad", engine.no_grad, "no_grad()"),
        "enable_grad": Function("enable_grad", engine.enable_grad, "enable_grad()"),
        **CONSTANTS,
        "float32": DType("float32"),
        "float64": DType("float64"),
        "float": DType("float32"),
        "double": DType("float64"),
        "autograd": Namespace("torch.autograd", _autograd_members()),
        "nn": Namespace("torch.nn", {"functional": Namespace("torch.nn.functional", {
            name: Function(name, BUILTINS[name].fn, BUILTINS[name].signature) for name in FUNCTIONAL})}),
    })
    return members


# torch.nn.functional (`import torch.nn.functional as F`): the loss functions and activations tutorials use
FUNCTIONAL = ("mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "relu", "sigmoid",
              "tanh", "softmax", "log_softmax")


# Mathematical constants, as Python numbers (so `x=pi/4` is a value and `sin(pi*x)` records one op).
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}


class Evaluator:
    """Runs statements against one environment of names.

    mode "eval" is `autodiff eval` (no printing); mode "script" is `autodiff run`, where `print` exists
    and writes through `write`. `on_statement` (optional) is called before each statement runs.
    """

    def __init__(self, *, mode: str = "eval", write: Callable[[str], None] | None = None,
                 max_steps: int = script.MAX_STEPS) -> None:
        self.mode = mode
        self.write = write
        self.max_steps = max_steps
        self.steps = 0
        self.scopes: list[dict[str, Any]] = []  # the parameters of the script's functions being called
        self.on_expression: Callable[[Any], None] | None = None  # the REPL shows bare expressions' values
        self.names: dict[str, Any] = {}
        self.torch = _torch_namespace()
        self.modules: dict[str, Namespace] = {"torch": self.torch}

    # ------------------------------------------------------------------ statements
    def run(self, program: S.Program, evaluation: Evaluation | None = None) -> Evaluation:
        """Run every statement in order; errors carry the line and column of the failing part."""
        result = evaluation or Evaluation(program)
        for statement in program.statements:
            self.statement(statement, result)
        result.names = self.names
        return result

    def statement(self, stmt: S.Node, result: Evaluation) -> None:
        """Run one statement and record it as the root so far."""
        with engine.forward_context(_Origin(stmt, result.program.source)) if engine.is_anomaly_enabled() else _nothing:
            if isinstance(stmt, S.BLOCKS):
                self.count_step(stmt)
                script.run_block(self, stmt, result)
            else:
                self.simple_statement(stmt, result)

    def simple_statement(self, stmt: S.Node, result: Evaluation) -> None:
        """Run a statement that has no block."""
        if isinstance(stmt, S.Assign):
            value = self.expression(stmt.value)
            if isinstance(value, list) and self.mode != "script":  # a script's list stays a list, as in Python
                value = self._tensor(value, stmt.value)
            self.names[stmt.name] = value
            result.root, result.root_name = value, stmt.name
        elif isinstance(stmt, S.IndexAssign):
            target = self.names.get(stmt.name)
            if target is None and stmt.name not in self.names:
                raise self._unknown(stmt.name, stmt)
            if not isinstance(target, Tensor):
                raise BadValueError(f"{stmt.name}[...] = ... needs {stmt.name} to be a tensor, "
                                    f"not {_kind(target)}").at(stmt.line, stmt.column)
            index = self._index(self._items(stmt.index))
            value = self.expression(stmt.value)
            self._guard(lambda: engine.setitem(target, index, value), stmt)
            result.root, result.root_name = target, stmt.name
        elif isinstance(stmt, S.ExprStmt):
            value = self.expression(stmt.value)
            result.root, result.root_name = value, None  # as documented: null for a bare expression
            if self.on_expression is not None:
                self.on_expression(value)
        elif isinstance(stmt, S.Import):
            self._import(stmt)
            result.root, result.root_name = None, None
        elif isinstance(stmt, S.AssignTo):
            value = self.expression(stmt.value)
            for target in stmt.targets:
                script.assign(self, target, value)
            result.root, result.root_name = value, None
        elif isinstance(stmt, S.AugAssign):
            value = script.augmented(self, stmt)
            name = stmt.target.id if isinstance(stmt.target, S.Name) else None
            result.root, result.root_name = value, name
        elif isinstance(stmt, S.Assert):
            if not script.truth(self.condition(stmt.test)):
                message = "" if stmt.message is None else display(self.expression(stmt.message))
                raise BadValueError(f"AssertionError{': ' + message if message else ''}",
                                    reason="assertion").at(stmt.line, stmt.column)
            result.root, result.root_name = None, None
        elif isinstance(stmt, S.Pass):
            result.root, result.root_name = None, None
        else:  # break, continue and return outside their block: the parser refuses them
            raise BadValueError(f"'{type(stmt).__name__.lower()}' outside its block").at(stmt.line, stmt.column)
        result.root_statement = stmt

    def condition(self, node: S.Node) -> Any:
        """The value of an `if`/`while`/`assert` test (its truth is taken by the caller)."""
        value = self.expression(node)
        try:
            script.truth(value)
        except AutodiffError as error:
            raise error.at(node.line, node.column) from None
        return value

    def count_step(self, stmt: S.Node) -> None:
        """One more statement run; past `max_steps`, a limit error (an endless loop stops here)."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise engine.LimitError(
                f"the script ran {self.max_steps:,} statements (loop rounds included), the limit",
                reason="steps",
            ).at(stmt.line, stmt.column)

    def index_of(self, index: tuple) -> Any:
        return self._index(self._items(index))

    def guard(self, action: Callable[[], Any], node: S.Node) -> Any:
        """Run `action`, placing an error it raises at `node`."""
        return self._guard(action, node)

    def _import(self, stmt: S.Import) -> None:
        parts = stmt.module.split(".")
        if parts[0] == "torch":
            if parts[1:] not in ([], ["autograd"], ["nn"], ["nn", "functional"]):
                raise UnknownNameError(f"module '{stmt.module}' is not available: autodiff provides torch, "
                                       "torch.autograd and torch.nn.functional").at(stmt.line, stmt.column)
            target = self.torch
            for part in parts[1:] if stmt.alias else ():  # `import torch.nn` binds torch, `... as nn` the module
                target = target.members[part]
            self.modules[stmt.alias or "torch"] = target
        else:
            # Tutorials import numpy and friends; the import is accepted, and any use says why it fails.
            self.modules[stmt.alias or parts[0]] = _unsupported_module(stmt.module)

    # ------------------------------------------------------------------ expressions
    def expression(self, root: S.Node) -> Any:
        """The value of an expression, computed with an explicit stack (post-order)."""
        stack: list[tuple[S.Node, bool]] = [(root, False)]
        values: list[Any] = []
        while stack:
            node, ready = stack.pop()
            kind = type(node)
            if kind is S.Number:
                value = node.value
                values.append(value if value < _MAX_EXACT_INT else _big_integer(value))
            elif kind is S.Name:
                values.append(self._lookup(node))
            elif kind is S.String or kind is S.Constant:
                values.append(node.value)
            elif kind is S.Lambda:
                values.append(script.UserFunction("<lambda>", node.params, node.body, self))
            elif kind is S.ListComp:
                values.append(script.comprehension(self, node))
            elif kind is S.BoolOp or kind is S.IfExp:
                if not ready:  # the left operand (or the test) first; the rest depends on its truth
                    stack.append((node, True))
                    stack.append((node.left if kind is S.BoolOp else node.test, False))
                    continue
                first = values.pop()
                truth = self._guard(lambda v=first: script.truth(v), node)
                if kind is S.IfExp:
                    stack.append((node.body if truth else node.orelse, False))
                elif truth == (node.op == "or"):
                    values.append(first)
                else:
                    stack.append((node.right, False))
            elif not ready:
                stack.append((node, True))
                stack.extend((child, False) for child in reversed(_children(node)))
            else:
                count = len(_children(node))
                args = values[len(values) - count:] if count else []
                if count:
                    del values[len(values) - count:]
                values.append(self._combine(node, args))
        return values[0]

    def _combine(self, node: S.Node, args: list[Any]) -> Any:
        kind = type(node)
        try:
            if kind is S.BinOp:
                return _binary(node.op, args[0], args[1])
            if kind is S.UnaryOp:
                return _unary(node.op, args[0])
            if kind is S.Attribute:
                return self._attribute(args[0], node.attr)
            if kind is S.Call:
                return self._call(node, args)
            if kind is S.Subscript:
                return self._subscript(args[0], args[1:], node)
            if kind is S.ListExpr:
                return list(args)
            if kind is S.TupleExpr:
                return tuple(args)
            if kind is S.Slice:
                return _slice_of(node, args)
            if kind is S.NoneIndex:
                return None
            if kind is S.EllipsisIndex:
                return Ellipsis
            if kind is S.FString:
                return script.fstring(node, args)
        except AutodiffError as error:
            raise error.at(node.line, node.column) from None
        except RecursionError:  # a pathological value (e.g. a huge nested list) inside numpy
            raise engine.LimitError("the value is nested too deeply", reason="nesting").at(node.line, node.column) \
                from None
        raise BadValueError(f"cannot evaluate {kind.__name__}").at(node.line, node.column)

    def _guard(self, action: Callable[[], Any], node: S.Node) -> Any:
        try:
            return action()
        except AutodiffError as error:
            raise error.at(node.line, node.column) from None

    def _lookup(self, node: S.Name) -> Any:
        name = node.id
        if self.scopes and name in self.scopes[-1]:
            return self.scopes[-1][name]
        if name in self.names:
            return self.names[name]
        if name in self.modules:
            return self.modules[name]
        helper = _PYTHON_BUILTINS.get(name)
        if helper is not None:
            return helper
        builtin = BUILTINS.get(name)
        if builtin is not None:
            return Function(name, builtin.fn, builtin.signature)
        if name in CONSTANTS:  # after the program's own names: a tutorial may assign `e = c * d`
            return CONSTANTS[name]
        if name == "print" and self.mode == "script":
            return Function("print", self._print, "print(*values)")
        raise self._unknown(name, node)

    def _unknown(self, name: str, node: S.Node) -> UnknownNameError:
        import difflib

        close = difflib.get_close_matches(name, list(self.names), n=1) or _close_builtin(name)
        suggestion = f"; did you mean '{close[0]}'?" if close else ""
        if (close and close[0] in BUILTINS) or name.startswith("_"):  # (a binding cannot have a name starting with _)
            bind = ""
        elif self.mode == "script":  # a script has no bindings: the name must be assigned before its use
            bind = f"assign {_shown(name)} = ... before this line"
        else:
            bind = f"assign {_shown(name)} = ... first"
        if name == "print":
            return UnknownNameError("print is only available in scripts (autodiff run)",
                                    line=node.line, column=node.column)
        # Outside scripts the name could also be bound from outside the program: reason "unbound_name" lets a
        # front end say how (the command line has an option for it).
        reason = "unbound_name" if bind and self.mode != "script" else "unknown_name"
        return UnknownNameError(f"unknown name '{_shown(name)}'{suggestion}", hint=bind or None, reason=reason,
                                name=name, shown=_shown(name), line=node.line, column=node.column)

    def _attribute(self, value: Any, attr: str) -> Any:
        if attr.startswith("_"):
            raise UnknownNameError(f"'{attr}': names starting with '_' are not part of the language",
                                   reason="private")
        if isinstance(value, Tensor):
            getter = TENSOR_ATTRIBUTES.get(attr)
            if getter is not None:
                return getter(value)
            if attr in TENSOR_METHODS:
                return Function(attr, getattr(value, attr), _method_signature(attr))
            raise _unknown_member("tensor", attr, [*TENSOR_ATTRIBUTES, *TENSOR_METHODS])
        if isinstance(value, Namespace):
            member = value.members.get(attr)
            if member is None:
                if not value.members:
                    raise UnknownNameError(f"{value.name}.{attr}: the module {value.name} is not available in "
                                           "autodiff (use the torch functions instead)", reason="module")
                raise _unknown_member(value.name, attr, list(value.members))
            return member
        if isinstance(value, (Node, AccumulateGrad)):
            getter = NODE_ATTRIBUTES.get(attr)
            if getter is not None:
                return getter(value)
            if attr in NODE_METHODS:
                return Function(attr, getattr(value, attr), f"{attr}()")
            raise _unknown_member(value.name(), attr, [*NODE_ATTRIBUTES, *NODE_METHODS])
        if isinstance(value, engine.MinMax) and attr in ("values", "indices"):
            return getattr(value, attr)
        if isinstance(value, engine.Size) and attr == "numel":
            return Function("numel", value.numel, "numel()")
        if isinstance(value, engine.RemovableHandle) and attr == "remove":
            return Function("remove", value.remove, "remove()")
        if isinstance(value, list) and attr == "append":
            return Function("append", value.append, "append(value)")
        if isinstance(value, list):  # a list literal used as a tensor: [1, 2].sum()
            return self._attribute(engine.tensor(value), attr)
        if value is None:
            raise BadValueError(f"None has no attribute '{attr}' (a .grad is None until a backward pass reaches "
                                "it; a non-leaf's .grad needs retain_grad())", reason="none_attribute")
        raise BadValueError(f"'{_kind(value)}' object has no attribute '{attr}'", reason="attribute")

    def _call(self, node: S.Call, args: list[Any]) -> Any:
        function, positional = args[0], args[1:1 + len(node.args)]
        keywords = dict(zip((k for k, _ in node.kwargs), args[1 + len(node.args):]))
        if isinstance(function, script.UserFunction):
            return function(*positional, **keywords)
        if not isinstance(function, Function):
            hint = "to multiply, write a '*' before the '('" if isinstance(function, (Tensor, int, float)) else None
            raise BadValueError(f"'{_kind(function)}' object is not callable", hint=hint, reason="not_callable")
        try:
            bound = _signature(function.fn).bind(*positional, **keywords)
        except TypeError as error:
            usage = f" (usage: {function.signature})" if function.signature else ""
            raise BadValueError(f"{function.name}(): {error}{usage}", reason="arguments") from None
        return function.fn(*bound.args, **bound.kwargs)

    def _subscript(self, value: Any, items: list[Any], node: S.Subscript) -> Any:
        index = self._index(items)
        if isinstance(value, Tensor):
            return engine.getitem(value, index)
        if isinstance(value, list):
            return engine.getitem(engine.tensor(value), index)
        if isinstance(value, tuple) and isinstance(index, int) and not isinstance(index, bool):
            if not -len(value) <= index < len(value):
                raise BadValueError(f"index {index} is out of range for a tuple of {len(value)} items",
                                    reason="index")
            return value[index]
        raise BadValueError(f"'{_kind(value)}' object is not subscriptable", reason="subscript")

    def _items(self, index: tuple) -> list[Any]:
        return [self.expression(item) for item in index]

    @staticmethod
    def _index(items: list[Any]) -> Any:
        cleaned = []
        for item in items:
            if isinstance(item, float) and item.is_integer():
                raise BadValueError(f"an index must be an integer, got {item!r}", reason="index")
            cleaned.append(item)
        return cleaned[0] if len(cleaned) == 1 else tuple(cleaned)

    def _tensor(self, value: list, node: S.Node) -> Tensor:
        return self._guard(lambda: engine.tensor(value), node)

    def _print(self, *values: Any, sep: str = " ", end: str = "\n") -> None:
        text = sep.join(display(v) for v in values) + end
        if self.write is not None:
            self.write(text)


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_nothing = _Nothing()


class _Origin:
    """The statement a node was recorded in, for anomaly reports: 'line 2: y = sqrt(x)'."""

    __slots__ = ("line", "text")

    def __init__(self, stmt: S.Node, source: str) -> None:
        self.line = stmt.line
        lines = source.split("\n")
        self.text = lines[stmt.line - 1].strip() if 0 < stmt.line <= len(lines) else ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}"


def _children(node: S.Node) -> tuple:
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
    if kind is S.FString:
        return node.fields
    if kind is S.Slice:
        return tuple(part for part in (node.start, node.stop, node.step) if part is not None)
    return ()


def _slice_of(node: S.Slice, args: list[Any]) -> slice:
    parts = iter(args)
    start = next(parts) if node.start is not None else None
    stop = next(parts) if node.stop is not None else None
    step = next(parts) if node.step is not None else None
    for part in (start, stop, step):
        if part is not None and (isinstance(part, bool) or not isinstance(part, int)):
            raise BadValueError(f"slice indices must be integers, got {display(part)}", reason="index")
    return slice(start, stop, step)


_SIGNATURES: dict[Any, inspect.Signature] = {}


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    """The signature to check a call against (for a method, without the object it is bound to)."""
    function = getattr(fn, "__func__", fn)
    signature = _SIGNATURES.get(function)
    if signature is None:
        signature = _SIGNATURES[function] = inspect.signature(function)
    if function is not fn:
        return signature.replace(parameters=list(signature.parameters.values())[1:])
    return signature


def _method_signature(name: str) -> str | None:
    builtin = BUILTINS.get(name)
    if builtin is None:
        return None
    inside = builtin.signature.split("(", 1)[1].rstrip(")")
    rest = [p.strip() for p in inside.split(",")][1:]
    return f"{name}({', '.join(rest)})"


def _unknown_member(owner: str, attr: str, known: list[str]) -> UnknownNameError:
    import difflib

    close = difflib.get_close_matches(attr, known, n=1)
    suggestion = f"; did you mean '{close[0]}'?" if close else ""
    if owner == "torch.nn" and attr[:1].isupper():  # nn.Linear, nn.MSELoss, ...: classes
        suggestion = (": nn modules are classes, which scripts do not have; write the weights as tensors "
                      "(w = torch.randn(2, 3, requires_grad=True)) and the loss with torch.nn.functional")
    return UnknownNameError(f"{owner} has no attribute or method '{_shown(attr)}'{suggestion}",
                            reason="unknown_member")


def _close_builtin(name: str) -> list[str]:
    """The built-in a misspelt name most likely meant: a close spelling (sine: sin), or one that shares a
    prefix of four letters or more (arctg: arctan, not tan); aliases count as names of their own."""
    import difflib

    known = [*BUILTINS, *CONSTANTS]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
    if close:
        return close
    lower = name.lower()
    prefixed = [k for k in known if len(k) >= 4 and len(lower) >= 4 and k[:4] == lower[:4]]
    if prefixed:
        return [max(prefixed, key=lambda k: difflib.SequenceMatcher(None, lower, k).ratio())]
    return []


def _shown(name: str, width: int = 60) -> str:
    """A name as an error message quotes it: a very long one is cut (the message stays one line)."""
    return name if len(name) <= width else f"{name[:width - 3]}..."


# ---------------------------------------------------------------------------- arithmetic
def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_COMPARISONS = {"<": engine.lt, "<=": engine.le, ">": engine.gt, ">=": engine.ge, "==": engine.eq, "!=": engine.ne}
_PYTHON_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
                   ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _compare_or_logic(op: str, left: Any, right: Any) -> Any:
    """A comparison (a boolean tensor, or a Python bool for two numbers) or & / | on booleans."""
    plain = (int, float, bool)
    if isinstance(left, plain) and isinstance(right, plain):
        if op in _PYTHON_COMPARE:
            return _PYTHON_COMPARE[op](left, right)
        if isinstance(left, bool) and isinstance(right, bool):
            return (left and right) if op == "&" else (left or right)
        raise BadValueError(f"{op} combines booleans (comparisons), got {_kind(left)} and {_kind(right)}",
                            hint="compare first, e.g. (x > 0) & (x < 1)", reason="operands")
    if isinstance(left, list):
        left = engine.tensor(left)
    if isinstance(right, list):
        right = engine.tensor(right)
    for side in (left, right):
        if not isinstance(side, (Tensor, *plain)):
            raise BadValueError(f"unsupported operand types for {op}: {_kind(left)} and {_kind(right)}",
                                reason="operands")
    if op in _COMPARISONS:
        return _COMPARISONS[op](left, right)
    return engine.logical_and(left, right) if op == "&" else engine.logical_or(left, right)


def binary(op: str, left: Any, right: Any) -> Any:
    """`left op right` for every binary operator of the language."""
    return _binary(op, left, right)


def _binary(op: str, left: Any, right: Any) -> Any:
    if op in _COMPARISONS or op in ("&", "|"):
        return _compare_or_logic(op, left, right)
    if op in ("is", "is not", "in", "not in"):
        return script.identity_or_membership(op, left, right)
    if op in ("%", "//"):
        return script.modulo_or_floor(op, left, right)
    if _is_number(left) and _is_number(right):
        return _number_arithmetic(op, left, right)
    if isinstance(left, list):
        left = engine.tensor(left)
    if isinstance(right, list):
        right = engine.tensor(right)
    if not isinstance(left, Tensor) and not isinstance(right, Tensor):
        raise BadValueError(f"unsupported operand types for {op}: {_kind(left)} and {_kind(right)}",
                            reason="operands")
    for side in (left, right):
        if isinstance(side, Function):  # `x*t` with no t: t is the built-in transpose, not a value
            raise UnknownNameError(
                f"'{side.name}' is a built-in function, not a value: is a variable named {side.name} missing?",
                hint=f"assign {side.name} = ... first, or use another name", reason="builtin_as_value",
                name=side.name, shown=side.name)
        if not isinstance(side, Tensor) and not _is_number(side):
            raise BadValueError(f"unsupported operand types for {op}: {_kind(left)} and {_kind(right)}",
                                reason="operands")
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return left / right
    if op == "**":
        return left ** right
    if op == "@":
        return engine.matmul(left, right)
    raise BadValueError(f"unknown operator {op}")


def _big_integer(value: int | float) -> float:
    """An integer literal past _MAX_EXACT_INT, as a float (inf past float's range, as 1e999 is)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _number_arithmetic(op: str, a: float, b: float) -> float | int:
    """Python numbers combined as Python would, kept finite-time: no gigantic integers."""
    exact = isinstance(a, int) and isinstance(b, int)
    try:
        if op == "+":
            result = a + b
        elif op == "-":
            result = a - b
        elif op == "*":
            result = a * b if not exact or abs(a).bit_length() + abs(b).bit_length() < 128 else float(a) * float(b)
        elif op == "/":
            return a / b if b != 0 else (math.copysign(math.inf, a) * math.copysign(1, b) if a else math.nan)
        elif op == "**":
            if exact and 0 <= b <= 64 and abs(a) < 2**32:
                result = a**b
            else:
                result = float(a) ** float(b)
                if isinstance(result, complex):
                    return math.nan
        else:
            raise BadValueError(f"{op} needs at least one tensor operand (matrices): both sides are numbers",
                                reason="operands")
    except OverflowError:
        return math.inf
    except ZeroDivisionError:
        return math.inf
    if isinstance(result, int) and abs(result) >= _MAX_EXACT_INT:
        return float(result)
    return result


def _unary(op: str, value: Any) -> Any:
    if op == "not":
        return not script.truth(value)
    if isinstance(value, list):
        value = engine.tensor(value)
    if op == "~":
        if isinstance(value, bool):
            return not value
        if isinstance(value, Tensor):
            return engine.logical_not(value)
        raise BadValueError(f"~ negates booleans (comparisons), got {_kind(value)}", reason="operands")
    if _is_number(value) or isinstance(value, Tensor):
        return -value if op == "-" else value
    raise BadValueError(f"bad operand type for unary {op}: {_kind(value)}", reason="operands")


_PYTHON_BUILTINS = {name: Function(name, fn, usage) for name, (fn, usage) in script.python_builtins().items()}


def display(value: Any) -> str:
    """How print shows a value, as Python's print would: PyTorch's repr for tensors and nodes, str for
    strings, repr for the rest (a list prints as a list, [1, 2], as it does in Python)."""
    if isinstance(value, str) and not isinstance(value, DType):
        return value
    return repr(value)


def echo(value: Any) -> str | None:
    """How the REPL shows a bare expression's value, as Python's REPL does: its repr, nothing for None."""
    return None if value is None else repr(value)
