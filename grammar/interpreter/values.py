"""The values a program works with besides the engine's tensors: modules (`torch`, `torch.nn.functional`),
functions (built-ins and bound methods), what a run produced (`Evaluation`), where a node was recorded
(`Origin`); and how values are named in messages and tested true, as Python does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import AccumulateGrad, Node, Tensor
from autodiff.engine.errors import LimitError
from autodiff.grammar.syntax.tree import Node as SyntaxNode
from autodiff.grammar.syntax.tree import Program


def literal_tensor(value: Any) -> Tensor:
    """A number or list literal as a tensor, by the language's rule (docs/language.md): floating, of the default
    dtype (`[1, 2]` is float), unless it holds only booleans (a mask). engine.tensor infers int64 from whole
    numbers, as torch.tensor does; the language does not."""
    made, default = engine.tensor(value), engine.get_default_dtype()
    return made if made.dtype.kind == "b" or made.dtype == default else engine.to(made, default)


class Evaluation:
    """What running a program produced: its names in binding order and the root (last statement)."""

    __slots__ = ("names", "program", "root", "root_name", "root_statement")

    def __init__(self, program: Program, names: dict[str, Any] | None = None, root: Any = None,
                 root_name: str | None = None, root_statement: SyntaxNode | None = None) -> None:
        self.program, self.names = program, {} if names is None else names
        self.root, self.root_name, self.root_statement = root, root_name, root_statement

    def __repr__(self) -> str:
        return f"Evaluation(names={list(self.names)!r}, root_name={self.root_name!r}, root={self.root!r})"


class Namespace:
    """`torch` or `torch.nn.functional`: a fixed table of names."""

    __slots__ = ("members", "name")

    def __init__(self, name: str, members: dict[str, Any]) -> None:
        self.name, self.members = name, members

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class Function:
    """A callable of the language (a built-in, or a method bound to its object)."""

    __slots__ = ("builtin", "fn", "name", "signature")

    def __init__(self, name: str, fn: Callable[..., Any], signature: str | None = None, builtin: Any = None) -> None:
        self.name, self.fn, self.signature = name, fn, signature
        self.builtin = builtin  # the engine's Builtin record when it is one (other backends run it from that)

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # when the engine calls it
        return self.fn(*args, **kwargs)


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
    range is a limit error, not a hang or a machine's memory."""
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
