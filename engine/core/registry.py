"""The public functions of the engine (the built-ins of the language), each declared once.

A `Builtin` is how to call a function (its signature), which op-table entries it may record, a one-line
summary, whether `x.name()` works, and how a backend other than the engine (`autodiff diff`'s symbolic
one) runs it: as the one op it applies (`op`), as a `composite` of other built-ins, or by its `plan`.

- `function(op, ...)` declares an op together with the built-in that applies it to tensors (sin, atan2).
- `composite("sec(input)", lambda F, x: F.reciprocal(F.cos(x)), ...)` declares a built-in made of others,
  written against a namespace of built-ins `F`: the engine runs it on its own functions, the symbolic
  backend on its own; the ops it records are found by running it once on a tracer.
- `@builtin("clamp(input, min=None, max=None)", ("clamp",), plan=...)` registers a function written out.

The language (autodiff.grammar) and `autodiff ops` read `BUILTINS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .coerce import tensor_arg
from .optable import OPS, Op, declare
from .recording import apply, binary


class Builtin:
    """A public function: how to call it, which ops it records, and how other backends run it.

    - op: the one op it applies to its tensor arguments, in order
    - composite: lambda F, *args: its definition in other built-ins
    - plan: lambda R, *args, **kwargs: its ops, for other backends; R offers R.op(op, *inputs, **params) and
      R.is_constant(x) (x needs no gradient: a number, a constant)
    - functional: also torch.nn.functional.NAME; alias_of: the built-in it is another spelling of (ln: log)
    """

    def __init__(self, name: str, fn: Callable[..., Any], signature: str, ops: tuple[str, ...], summary: str,
                 method: bool, op: Op | None = None, composite: Callable[..., Any] | None = None,
                 plan: Callable[..., Any] | None = None, functional: bool = False, alias_of: str | None = None) -> None:
        self.name, self.fn, self.signature, self.ops = name, fn, signature, ops
        self.summary, self.method = summary, method
        self.op, self.composite, self.plan, self.functional, self.alias_of = op, composite, plan, functional, alias_of

    def __repr__(self) -> str:
        return f"Builtin({self.signature!r})"


class Table(dict):
    """The built-ins by name (`BUILTINS`). The package imports the rooms of the common built-ins with itself and
    leaves the rest (activations, cumulative ops, sorting, nn's functional layers, ...) to `completing`: asked for a
    name it does not hold, or read whole (iterated, counted, listed), the table first imports them, so that every
    reader sees every built-in and a one-shot `autodiff eval` loads only the rooms it reaches."""

    def __init__(self) -> None:
        super().__init__()
        self.completing: Callable[[], None] | None = None  # imports the rest; None once the table is complete

    def complete(self) -> None:
        """Import the rooms not imported yet (once)."""
        completing, self.completing = self.completing, None
        if completing is not None:
            completing()

    def __missing__(self, name: str) -> Builtin:
        if self.completing is not None:
            self.complete()
            if dict.__contains__(self, name):
                return dict.__getitem__(self, name)
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        if dict.__contains__(self, name):
            return True
        if self.completing is None:
            return False
        self.complete()
        return dict.__contains__(self, name)

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return dict.__getitem__(self, name) if name in self else default

    def __iter__(self) -> Any:
        self.complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.complete()
        return dict.__len__(self)

    def keys(self) -> Any:  # type: ignore[override]
        self.complete()
        return dict.keys(self)

    def values(self) -> Any:  # type: ignore[override]
        self.complete()
        return dict.values(self)

    def items(self) -> Any:  # type: ignore[override]
        self.complete()
        return dict.items(self)

    def loaded(self) -> dict[str, Builtin]:
        """The built-ins registered so far, without importing the rest."""
        return dict(dict.items(self))


BUILTINS = Table()


def _register(entry: Builtin) -> Builtin:
    if dict.__contains__(BUILTINS, entry.name):
        raise ValueError(f"built-in {entry.name} is registered twice")
    BUILTINS[entry.name] = entry
    return entry


def builtin(signature: str, ops: tuple[str, ...] = (), *, method: bool = True, summary: str = "",
            op: Op | None = None, plan: Callable[..., Any] | None = None,
            functional: bool = False) -> Callable[[Callable], Callable]:
    """Register a function written out (and, with method=True, the Tensor method of the same name). For other
    backends it applies `op` to its arguments (tensors first, then the op's parameters), or follows `plan`."""

    def register(fn: Callable) -> Callable:
        name = signature.split("(", 1)[0]
        text = summary or (OPS[ops[0]].doc if ops else (fn.__doc__ or "").strip().split("\n")[0])
        _register(Builtin(name, fn, signature, ops, text, method, op=op, plan=plan, functional=functional))
        return fn

    return register


def function(op: Op, *, signature: str | None = None, aliases: tuple[str, ...] = (), method: bool = True,
             functional: bool = False, summary: str = "") -> Callable[..., Any]:
    """Declare `op` and the built-in of the same name that applies it to its tensor arguments: `name(input)`
    for one input, `name(input, other)` for two (broadcast, dtypes promoted). Returns the function."""
    declare(op)
    if len(op.inputs) == 1:
        def fn(input: Any) -> Any:
            return apply(op, (tensor_arg(input),))
    else:
        def fn(input: Any, other: Any) -> Any:
            return binary(op, tensor_arg(input), tensor_arg(other, "other"))
    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = summary or op.doc
    default = f"{op.name}(input)" if len(op.inputs) == 1 else f"{op.name}(input, other)"
    _register(Builtin(op.name, fn, signature or default, (op.name,), summary or op.doc, method, op=op,
                      functional=functional))
    for name in aliases:
        alias(name, op.name)
    return fn


def composite(signature: str, definition: Callable[..., Any], summary: str, *, method: bool = False,
              aliases: tuple[str, ...] = (), functional: bool = False) -> Callable[..., Any]:
    """Declare a built-in made of other built-ins: `definition(F, *args)` with F a namespace of built-ins."""
    name = signature.split("(", 1)[0]

    def fn(*args: Any) -> Any:
        return definition(ENGINE_FUNCTIONS, *args)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = summary
    parameters = list(inspect.signature(definition).parameters.values())[1:]  # all but F
    fn.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    ops = traced_ops(definition, len(parameters))
    _register(Builtin(name, fn, signature, ops, summary, method, composite=definition,
                      functional=functional))
    for other in aliases:
        alias(other, name)
    return fn


def alias(name: str, target: str) -> None:
    """Register `name` as another spelling of the built-in `target` (numpy's arcsin for asin, ln for log)."""
    entry = BUILTINS[target]
    signature = name + entry.signature[len(target):]
    _register(Builtin(name, entry.fn, signature, entry.ops, f"{entry.summary} (alias of {target})", entry.method,
                      op=entry.op, composite=entry.composite, plan=entry.plan, functional=entry.functional,
                      alias_of=target))


def alias_of(name: str) -> str | None:
    """The built-in that `name` is an alias of, or None."""
    entry = BUILTINS.get(name)
    return None if entry is None else entry.alias_of


class Functions:
    """The built-ins as a namespace (F.cos(x) calls the built-in cos): what composites are written against."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        try:
            return BUILTINS[name].fn
        except KeyError:
            raise AttributeError(name) from None


ENGINE_FUNCTIONS = Functions()


class _Traced:
    """A placeholder value: composites may only pass it to built-ins."""


class _Tracer:
    """A namespace of built-ins that records which ops a definition records: a built-in's one op, or the ops
    its plan picks for placeholders (values that need gradients) and numbers, or else all of its ops."""

    def __init__(self) -> None:
        self.ops: list[str] = []

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in BUILTINS:
            raise AttributeError(f"a composite calls {name}, which is not a built-in (yet)")
        builtin = BUILTINS[name]

        def call(*args: Any, **kwargs: Any) -> _Traced:
            if builtin.op is not None:
                self.ops.append(builtin.op.name)
            elif builtin.plan is not None:
                builtin.plan(self, *args, **kwargs)
            else:
                self.ops.extend(builtin.ops)
            return _Traced()

        return call

    @staticmethod
    def is_constant(x: Any) -> bool:
        return not isinstance(x, _Traced)

    def op(self, op: Op, *inputs: Any, **params: Any) -> _Traced:
        self.ops.append(op.name)
        return _Traced()


def traced_ops(definition: Callable[..., Any], count: int) -> tuple[str, ...]:
    """The ops a composite records: those of the built-ins it calls, found by running it on `count` placeholders."""
    tracer = _Tracer()
    definition(tracer, *(_Traced() for _ in range(count)))
    return tuple(dict.fromkeys(tracer.ops))
