"""What each way of running a program allows, as data: `autodiff eval`'s (EVAL), and a backend such as
`autodiff diff`'s brings a policy of its own (its formulas have no lists or strings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Policy:
    """The rules of one way of running programs (frozen; each policy is made once, so equal means the same).
    Written out rather than made by `dataclasses`, whose class creation costs every start-up (README, start-up)."""

    __slots__ = ("modules", "name", "python_builtins", "refuse", "refused", "unknown_hint")

    def __init__(self, name: str, *, python_builtins: bool = True,
                 modules: tuple[str, ...] = ("torch",), refused: Mapping[str, str] | None = None,
                 refuse: Callable[[str, Any], Exception] | None = None,
                 unknown_hint: str = "assign {name} = ... first") -> None:
        setter = object.__setattr__
        setter(self, "name", name)
        setter(self, "python_builtins", python_builtins)  # range, len, min, abs, ... (Python's meaning on numbers)
        setter(self, "modules", modules)  # modules a program may use without importing them
        # Syntax it refuses: node class name -> what to call it in the message (an expression or a statement)
        setter(self, "refused", {} if refused is None else refused)
        # The error for a refused construct: refuse(what, node) -> an exception to raise (None: a generic one)
        setter(self, "refuse", refuse)
        setter(self, "unknown_hint", unknown_hint)  # the hint for a name nothing binds

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Policy")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Policy")

    def __repr__(self) -> str:
        return f"Policy({self.name!r})"


EVAL = Policy("eval")
