"""The values a program works with besides the engine's tensors: dtypes as the language shows them, modules
(`torch`, `torch.nn.functional`), functions (built-ins, bound methods, the script's own), and what a run
produced (`Evaluation`); and how values print, format and test true, as Python does."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import AccumulateGrad, Node, Tensor
from autodiff.engine.errors import BadValueError, LimitError
from autodiff.grammar.syntax.tree import FString, Program
from autodiff.grammar.syntax.tree import Node as SyntaxNode


def second(name: str) -> type | tuple:
    """A type of the engine's second step (custom Functions, nn, optim, forward AD: engine/lazy.py) for an
    isinstance check, or () while that step is not loaded (no value can be one yet, and checking must not
    load it: `autodiff eval` never does)."""
    return getattr(engine, name) if engine.lazy.is_loaded() else ()


def script_type(module: str, name: str) -> type | tuple:
    """A class of one of the interpreter's script-only modules (classes, numpy_subset) for an isinstance check, or
    () while that module is not loaded: no value can be one yet, and checking must not load it (`autodiff eval`
    imports none of them; a script loads each when it first uses what it holds)."""
    loaded = sys.modules.get(f"autodiff.grammar.interpreter.{module}")
    return () if loaded is None else getattr(loaded, name)


class Evaluation:
    """What running a program produced: its names in binding order and the root (last statement). Written out
    rather than made by `dataclasses`, whose class creation costs every start-up (README, start-up)."""

    __slots__ = ("names", "program", "root", "root_name", "root_statement")

    def __init__(self, program: Program, names: dict[str, Any] | None = None, root: Any = None,
                 root_name: str | None = None, root_statement: SyntaxNode | None = None) -> None:
        self.program = program
        self.names = {} if names is None else names
        self.root = root
        self.root_name = root_name
        self.root_statement = root_statement

    def __repr__(self) -> str:
        return f"Evaluation(names={list(self.names)!r}, root_name={self.root_name!r}, root={self.root!r})"


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

    __slots__ = ("builtin", "fn", "name", "signature")

    def __init__(self, name: str, fn: Callable[..., Any], signature: str | None = None, builtin: Any = None) -> None:
        self.name, self.fn, self.signature = name, fn, signature
        self.builtin = builtin  # the engine's Builtin record when it is one (other backends run it from that)

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # when the engine calls it (jacobian(torch.sin, x))
        return self.fn(*args, **kwargs)


class UserFunction:
    """A function of the script: `def f(x): ...` or `lambda grad: ...`. Calling it is the interpreter's work
    (`call_user`): its parameters and names, then those of the functions it was defined in (`closure`: their
    scopes, innermost first, read when it runs, as Python's closures), then the script's. `params` is the
    syntax tree's Parameters; `defaults` and `kw_defaults` the values of its default expressions, computed when
    the function was defined (as Python does)."""

    __slots__ = ("body", "closure", "defaults", "interpreter", "kw_defaults", "name", "params")

    def __init__(self, name: str, params: Any, body: Any, interpreter: Any, defaults: tuple = (),
                 kw_defaults: tuple = (), closure: tuple[dict[str, Any], ...] = ()) -> None:
        self.name, self.params, self.body, self.interpreter = name, params, body, interpreter
        self.defaults, self.kw_defaults, self.closure = defaults, kw_defaults, closure

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.interpreter.call_user(self, args, kwargs)


class ClassBody(dict):
    """The names a class body assigns (its members): a scope the functions defined in it do not read (as in
    Python, a method reads the module's names, not the class body's)."""


class Origin:
    """The statement a node was recorded in, for anomaly reports: 'line 2: y = sqrt(x)'."""

    __slots__ = ("line", "text")

    def __init__(self, stmt: SyntaxNode, source: str) -> None:
        self.line = stmt.line
        lines = source.split("\n")
        self.text = lines[stmt.line - 1].strip() if 0 < stmt.line <= len(lines) else ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}"


MAX_LIST = 10_000_000  # items a built-in may gather from an iterable into a list (list(), sorted(), min(), ...)


def range_length(items: range) -> int:
    """len(range(...)) as an exact integer (Python's len() overflows past 2**63 - 1 items)."""
    start, stop, step = items.start, items.stop, items.step
    if step > 0:
        return max(0, (stop - start + step - 1) // step)
    return max(0, (start - stop - step - 1) // -step)


def gathered(items: Any, what: str) -> list:
    """The items of an iterable (already checked to be one) as a list, at most MAX_LIST of them: a huge
    range or an endless itertools.count is a limit error, not a hang or a machine's memory."""
    if isinstance(items, range) and range_length(items) > MAX_LIST:
        raise LimitError(f"{what} of {range_length(items):,} items; the limit is {MAX_LIST:,}", reason="elements")
    out = []
    for item in items:
        out.append(item)
        if len(out) > MAX_LIST:
            raise LimitError(f"{what} of more than {MAX_LIST:,} items", reason="elements")
    return out


# ---------------------------------------------------------------------------- Python's meaning of values
# The interpreter's own classes, named as Python names what they stand for (no message says Namespace)
_PYTHON_KINDS = {"Namespace": "module", "TypeFunction": "type", "Function": "builtin_function_or_method",
                 "UserFunction": "function", "DType": "torch.dtype"}


def kind(value: Any) -> str:
    """A value's type as messages name it: Python's and PyTorch's names, never the interpreter's classes."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, (Node, AccumulateGrad)):
        return value.name()
    if value is None:
        return "NoneType"
    name = type(value).__name__
    if name == "GradMode":  # torch.no_grad() is a `no_grad`, torch.enable_grad() an `enable_grad`
        return "enable_grad" if getattr(value, "enabled", False) else "no_grad"
    return _PYTHON_KINDS.get(name, name)


def shown(name: str, width: int = 60) -> str:
    """A name as an error message quotes it: a very long one is cut (the message stays one line)."""
    return name if len(name) <= width else f"{name[:width - 3]}..."


def truth(value: Any) -> bool:
    """Python's truth value; a tensor's needs exactly one element, as in PyTorch."""
    if isinstance(value, Tensor):
        return bool(value)
    if value is None or isinstance(value, (bool, int, float, str, list, tuple, range)):
        return bool(value)
    return True


def hashable(key: Any) -> Any:
    """A dictionary key: numbers, strings, None, booleans, tuples of those and tensors (by identity, as in
    PyTorch); a list is refused as Python refuses it."""
    if isinstance(key, (list, dict)):
        raise BadValueError(f"unhashable type: '{kind(key)}'", reason="unhashable")
    if isinstance(key, tuple):
        for item in key:
            hashable(item)
    return key


# Kinds of values whose print() differs from their repr (torch.device prints as `cpu`), registered by their modules
PRINTED_AS_STR: list[type] = []


def display(value: Any) -> str:
    """How print shows a value, as Python's print would: PyTorch's repr for tensors and nodes, str for
    strings, repr for the rest (a list prints as a list, [1, 2], as it does in Python)."""
    if isinstance(value, str) and not isinstance(value, DType):
        return value
    if PRINTED_AS_STR and isinstance(value, tuple(PRINTED_AS_STR)):
        return str(value)
    return repr(value)


def echo(value: Any) -> str | None:
    """How the REPL shows a bare expression's value, as Python's REPL does: its repr, nothing for None."""
    return None if value is None else repr(value)


def format_field(value: Any, conversion: str, spec: str) -> str:
    """One f-string field, as Python formats it (a 0-d tensor formats as its number, as PyTorch's
    Tensor.__format__ does; any other tensor takes no format spec)."""
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
        raise BadValueError(f"unsupported format string passed to {kind(value)}.__format__",
                            reason="format")
    return display(value)


def fstring(node: FString, values: list[Any]) -> str:
    """The text of an f-string, its fields' values given in order."""
    out = [node.pieces[0]]
    for value, conversion, spec, piece in zip(values, node.conversions, node.specs, node.pieces[1:]):
        out.append(format_field(value, conversion, spec))
        out.append(piece)
    return "".join(out)
