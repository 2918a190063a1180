"""The engine's backend: a program's values are tensors, Python numbers and the language's other values, and
its operations are engine calls, so the autograd graph is recorded as the program runs."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError
from autodiff.grammar.interpreter import members, operators
from autodiff.grammar.interpreter.prelude import CONSTANTS
from autodiff.grammar.interpreter.values import Function, kind, literal_tensor


class EngineBackend:
    """Tensors and numbers, computed by the engine (see backend.Backend)."""

    @staticmethod
    def number(value: int | float, text: str) -> int | float:
        return value if value < operators.MAX_EXACT_INT else operators.big_integer(value)

    @staticmethod
    def constant(name: str) -> float:
        return CONSTANTS[name]

    @staticmethod
    def unbound(name: str) -> None:
        return None  # every name of an engine program must be bound

    operator = staticmethod(operators.binary)
    unary = staticmethod(operators.unary)
    attribute = staticmethod(members.attribute)

    @staticmethod
    def call(function: Any, args: list, kwargs: dict) -> Any:
        if not isinstance(function, Function):
            hint = "to multiply, write a '*' before the '('" if isinstance(function, (Tensor, int, float)) else None
            raise BadValueError(f"'{kind(function)}' object is not callable", hint=hint, reason="not_callable")
        try:
            bound = signature(function.fn).bind(*args, **kwargs)
        except TypeError as error:
            raise arguments_error(function.name, error, function.signature) from None
        if function.builtin is not None and function.builtin.name in FLOAT_CONSTRUCTORS:
            _floating_by_default(function.builtin.name, bound)
        return function.fn(*bound.args, **bound.kwargs)

    @staticmethod
    def index(value: Any, items: list) -> Any:
        index = as_index(items)
        if isinstance(value, Tensor):
            return engine.getitem(value, index)
        if isinstance(value, list) and isinstance(index, (int, slice)) and not isinstance(index, bool) \
                and any(not isinstance(v, (int, float, list)) for v in value):
            return _list_item(value, index)  # a list of tensors, modules, ...: Python's list indexing
        if isinstance(value, list):
            return engine.getitem(literal_tensor(value), index)
        if isinstance(value, tuple) and isinstance(index, int) and not isinstance(index, bool):
            if not -len(value) <= index < len(value):
                raise BadValueError(f"index {index} is out of range for a tuple of {len(value)} items",
                                    reason="index")
            return value[index]
        raise BadValueError(f"'{kind(value)}' object is not subscriptable", reason="subscript")


# The language's rule (README, `autodiff eval`): numbers make floating tensors. These constructors infer int64
# from whole numbers, as PyTorch's do, so without a dtype= the language gives them the default float dtype; and
# where()'s number branches are floating tensors (PyTorch's where(c, 0, 1) is int64).
FLOAT_CONSTRUCTORS = frozenset({"tensor", "arange", "full", "where"})


def _floating_by_default(name: str, bound: inspect.BoundArguments) -> None:
    """Give a constructor call without a dtype the default float dtype (tensor() of booleans stays a mask)."""
    if name == "where":
        for side in ("input", "other"):
            value = bound.arguments.get(side)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                bound.arguments[side] = literal_tensor(value)
        return
    if bound.arguments.get("dtype") is not None:
        return
    if name == "tensor" and engine.tensor(bound.arguments.get("data")).dtype == engine.bool_:
        return
    bound.arguments["dtype"] = engine.get_default_dtype()


def _list_item(value: list, index: int | slice) -> Any:
    if isinstance(index, int) and not -len(value) <= index < len(value):
        raise BadValueError(f"index {index} is out of range for a list of {len(value)} items", reason="index")
    return value[index]


def arguments_error(name: str, error: TypeError, usage: str | None) -> BadValueError:
    """A call whose arguments do not fit the function: what Python said, and how to call it."""
    return BadValueError(f"{name}(): {error}" + (f" (usage: {usage})" if usage else ""), reason="arguments")


def as_index(items: list[Any]) -> Any:
    """The items of `x[...]` as the engine's index: one item alone, else a tuple. A tuple item (`x[(0, 1),]`) is a
    sequence of positions, so it stays inside the index tuple: alone it would be read as the whole index."""
    for item in items:
        if isinstance(item, float) and item.is_integer():
            raise BadValueError(f"an index must be an integer, got {item!r}", reason="index")
    return items[0] if len(items) == 1 and not isinstance(items[0], tuple) else tuple(items)


_SIGNATURES: dict[Any, inspect.Signature] = {}


def signature(fn: Callable[..., Any]) -> inspect.Signature:
    """The signature to check a call against (for a method, without the object it is bound to)."""
    function = getattr(fn, "__func__", fn)
    found = _SIGNATURES.get(function)
    if found is None:
        found = _SIGNATURES[function] = inspect.signature(function)
    if function is not fn:
        return found.replace(parameters=list(found.parameters.values())[1:])
    return found
