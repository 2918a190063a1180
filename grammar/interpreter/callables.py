"""The script's own functions as Python calls them: a `def` or `lambda` made into a UserFunction (its default
values computed once, when it is defined), and the arguments of a call bound to its parameters with
Python's rules and messages (defaults, *args, keyword-only parameters, **kwargs); `f(*items, **mapping)`
at the call site spread into plain arguments."""

from __future__ import annotations

from collections import ChainMap
from typing import Any

from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError
from autodiff.grammar.interpreter.values import ClassBody, UserFunction, kind

REQUIRED = object()  # a keyword-only parameter without a default


class Spread:
    """The value of `*items` among a call's arguments, until the call spreads it."""

    __slots__ = ("items",)

    def __init__(self, value: Any) -> None:
        if isinstance(value, Tensor):
            if value.ndim == 0:
                raise BadValueError("argument after * must be an iterable, not a 0-d tensor", reason="arguments")
            self.items = list(value)
        elif isinstance(value, (list, tuple, range, str, dict)):
            self.items = list(value)
        else:
            raise BadValueError(f"argument after * must be an iterable, not {kind(value)}", reason="arguments")


def spread(positional: list, keywords: dict) -> tuple[list, dict]:
    """The arguments of a call with `*items` and `**mapping` spread into plain ones."""
    if any(isinstance(a, Spread) for a in positional):
        flat: list = []
        for a in positional:
            flat.extend(a.items if isinstance(a, Spread) else (a,))
        positional = flat
    if any(k.startswith("**") for k in keywords):
        merged: dict = {}
        for key, value in keywords.items():
            pairs = _mapping(value).items() if key.startswith("**") else ((key, value),)
            for name, item in pairs:
                if name in merged:
                    raise BadValueError(f"got multiple values for keyword argument '{name}'", reason="arguments")
                merged[name] = item
        keywords = merged
    return positional, keywords


def _mapping(value: Any) -> dict:
    if not isinstance(value, dict):
        raise BadValueError(f"argument after ** must be a mapping, not {kind(value)}", reason="arguments")
    for key in value:
        if not isinstance(key, str):
            raise BadValueError("keywords must be strings", reason="arguments")
    return value


def define(interp: Any, name: str, params: Any, body: Any) -> UserFunction:
    """A UserFunction of a `def` or a `lambda`, its default values computed now."""
    defaults = tuple(interp.expression(d) for d in params.defaults)
    kw_defaults = tuple(REQUIRED if d is None else interp.expression(d) for d in params.kw_defaults)
    return UserFunction(name, params, body, interp, defaults, kw_defaults, enclosing(interp))


def enclosing(interp: Any) -> tuple[dict[str, Any], ...]:
    """The scopes a function defined now reads after its own (its closure): those of the calls, lambdas and
    comprehensions it is defined in, innermost first (the live dicts: a name assigned there later is seen, as
    Python's cells are), never a class body's nor the script's own names."""
    found: list[dict[str, Any]] = []
    candidates = [interp.scopes[-1]] if interp.scopes else []
    if isinstance(interp.names, ChainMap):
        candidates += interp.names.maps[:-1]
    for scope in candidates:
        if not isinstance(scope, ClassBody) and all(scope is not seen for seen in found):
            found.append(scope)
    return tuple(found)


def bind(function: UserFunction, args: tuple, kwargs: dict) -> dict[str, Any]:
    """The arguments of a call of the script's function, bound to its parameters, as Python checks them."""
    params, name = function.params, function.name
    names = params.names
    scope: dict[str, Any] = dict(zip(names, args))
    extra = args[len(names):]
    if extra and params.star is None:
        given = len(args)
        raise BadValueError(f"{name}() takes {len(names)} positional argument{'' if len(names) == 1 else 's'} "
                            f"but {given} {'was' if given == 1 else 'were'} given", reason="arguments")
    if params.star:
        scope[params.star] = tuple(extra)
    rest: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key in scope and key in names:
            raise BadValueError(f"{name}() got multiple values for argument '{key}'", reason="arguments")
        if key in names or key in params.kwonly:
            scope[key] = value
        elif params.starstar is not None:
            rest[key] = value
        else:
            raise BadValueError(f"{name}() got an unexpected keyword argument '{key}'", reason="arguments")
    first_default = len(names) - len(params.defaults)
    for i, param in enumerate(names):
        if param not in scope:
            if i < first_default:
                raise BadValueError(f"{name}() missing required argument: '{param}'", reason="arguments")
            scope[param] = function.defaults[i - first_default]
    for param, default in zip(params.kwonly, function.kw_defaults):
        if param not in scope:
            if default is REQUIRED:
                raise BadValueError(f"{name}() missing required keyword-only argument: '{param}'",
                                    reason="arguments")
            scope[param] = default
    if params.starstar is not None:
        scope[params.starstar] = rest
    return scope
