"""What each way of running a program allows, as data: `autodiff eval`'s (EVAL), and a backend such as
`autodiff diff`'s brings a policy of its own (its formulas have no lists or strings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Policy:
    """The rules of one way of running programs (each policy is made once, so equal means the same).

    - python_builtins: range, len, min, abs, ... (Python's meaning on numbers)
    - modules: modules a program may use without importing them
    - refused: syntax it refuses: node class name -> what to call it in the message (an expression or a statement)
    - refuse: the error for a refused construct: refuse(what, node) -> an exception to raise (None: a generic one)
    - unknown_hint: the hint for a name nothing binds
    """

    __slots__ = ("modules", "name", "python_builtins", "refuse", "refused", "unknown_hint")

    def __init__(self, name: str, *, python_builtins: bool = True, modules: tuple[str, ...] = ("torch",),
                 refused: Mapping[str, str] | None = None, refuse: Callable[[str, Any], Exception] | None = None,
                 unknown_hint: str = "assign {name} = ... first") -> None:
        self.name, self.python_builtins, self.modules = name, python_builtins, modules
        self.refused = {} if refused is None else refused
        self.refuse, self.unknown_hint = refuse, unknown_hint

    def __repr__(self) -> str:
        return f"Policy({self.name!r})"


EVAL = Policy("eval")
