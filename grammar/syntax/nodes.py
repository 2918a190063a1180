"""How the syntax tree's node classes are made (tree.py), without dataclasses' work at import: `@dataclass`
processes each class at import (fields, generated methods, a second class for the slots), 6-8 ms for the
tree's 45 classes at every start; `syntax_node` only remakes the class with its annotated fields as
`__slots__` and `__match_args__`, and `dataclasses` is imported only when a tree is misused."""

from __future__ import annotations

import inspect  # already imported by numpy
from typing import TypeVar

_N = TypeVar("_N")


def syntax_node(cls: type) -> type:
    """The class again, with its own annotated fields as slots and `__match_args__` (for __init__ and `match`):
    no instance dictionary, as dataclass(slots=True) makes it, for a fraction of its start-up cost."""
    fields = tuple(inspect.get_annotations(cls))
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    namespace.update(__slots__=fields, __match_args__=fields)
    return type(cls)(cls.__name__, cls.__bases__, namespace)


def frozen_error(message: str) -> AttributeError:
    """dataclasses' FrozenInstanceError (assigning to a field of a tree), imported only when it is raised."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


def moved(node: _N, line: int, column: int) -> _N:
    """A copy of the node that starts at another position (a parenthesised expression starts at its '(')."""
    # (Made again from its fields rather than by copy.copy: the copy module costs every start-up half a millisecond.)
    return type(node)(*[getattr(node, name) for name in node.__match_args__], line=line, column=column)
