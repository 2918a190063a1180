"""The interpreter runs a program against a backend: it walks the syntax tree (names, statements, blocks,
functions, Python's values) and asks its backend for every value of the program's own arithmetic. The
engine's backend (engine_backend.py) makes tensors and records the autograd graph; `autodiff diff` gives
SymPy expressions and records the same operations on symbols."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Backend(Protocol):
    """What the values of a program are, and what its operations do to them."""

    def number(self, value: int | float, text: str) -> Any:
        """A number literal (`text` as written: 0.1 is 1/10 to an exact backend)."""

    def constant(self, name: str) -> Any:
        """One of the mathematical constants pi, e, inf, nan."""

    def unbound(self, name: str) -> Any:
        """A name nothing binds: a value (a free variable, to a symbolic backend), or None for an error."""

    def operator(self, op: str, left: Any, right: Any) -> Any:
        """`left op right` for the binary operators (+ - * / ** @ % // comparisons & | is in)."""

    def unary(self, op: str, value: Any) -> Any:
        """`op value` for - + ~ not."""

    def call(self, function: Any, args: list, kwargs: dict) -> Any:
        """A built-in (or another callable value that is not the script's own function) called."""

    def index(self, value: Any, items: list) -> Any:
        """`value[items]` (one item per axis; slices, None and ... as values)."""

    def attribute(self, value: Any, name: str) -> Any:
        """`value.name`."""
