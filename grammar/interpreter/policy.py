"""What each way of running a program allows, as data: `autodiff eval` (EVAL) and `autodiff run` (SCRIPT)
differ in a few rules, and a backend such as `autodiff diff`'s brings a policy of its own (its formulas
have no lists, strings or scripts)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Policy:
    """The rules of one way of running programs."""

    name: str
    keeps_lists: bool = False  # an assigned list stays a list (a script's), else it becomes a tensor
    prints: bool = False  # print() exists (scripts)
    python_builtins: bool = True  # range, len, min, abs, ... (with Python's meaning on numbers)
    modules: tuple[str, ...] = ("torch",)  # modules a program may use without importing them
    # Syntax it refuses: node class name -> what to call it in the message (an expression or a statement)
    refused: Mapping[str, str] = field(default_factory=dict)
    # The error for a refused construct: refuse(what, node) -> an exception to raise (None: a generic one)
    refuse: Callable[[str, Any], Exception] | None = None
    unknown_hint: str = "assign {name} = ... first"  # the hint for a name nothing binds


EVAL = Policy("eval")
SCRIPT = Policy("script", keeps_lists=True, prints=True, unknown_hint="assign {name} = ... before this line")
