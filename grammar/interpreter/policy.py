"""What each way of running a program allows, as data: `autodiff eval`'s (EVAL), and a backend such as
`autodiff diff`'s brings a policy of its own (its formulas have no lists or strings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Any


@dataclass(frozen=True, eq=False, repr=False)  # each policy is made once, so equal means the same
class Policy:
    """The rules of one way of running programs."""

    name: str
    _: KW_ONLY
    python_builtins: bool = True  # range, len, min, abs, ... (Python's meaning on numbers)
    modules: tuple[str, ...] = ("torch",)  # modules a program may use without importing them
    # Syntax it refuses: node class name -> what to call it in the message (an expression or a statement)
    refused: Mapping[str, str] = field(default_factory=dict)
    # The error for a refused construct: refuse(what, node) -> an exception to raise (None: a generic one)
    refuse: Callable[[str, Any], Exception] | None = None
    unknown_hint: str = "assign {name} = ... first"  # the hint for a name nothing binds

    def __repr__(self) -> str:
        return f"Policy({self.name!r})"


EVAL = Policy("eval")
