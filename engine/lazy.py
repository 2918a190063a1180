"""The engine loads in two steps: at import, the modules every program needs (tensors, arithmetic, the
elementwise functions, reductions, shapes, indexing, matrix products, backward); the rest (convolutions,
decompositions, losses, nn modules, optimizers, forward-mode AD, ...) the first time anything asks for a
name they declare: a built-in, an op, a Tensor method or an attribute of `autodiff.engine`.

Measured on `autodiff eval '(2*x)**3' x=1.5` (python -X importtime): the 26 deferred modules were 40% of the
engine's own import time. The registries below make the second step invisible: a lookup of a name of the
whole engine (names.py) that misses, and anything that lists all of them, loads the rest first, so every
name is found and every listing is whole; a name the engine never has is answered without loading."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Set
from typing import Any

# The modules loaded on first need, in the order their built-ins are listed (autodiff ops, suggestions).
DEFERRED = ("activations", "cumulative", "distributions", "pointwise", "rearrange", "sorting", "classification",
            "convolution", "custom", "decompositions", "einsum", "layers", "losses", "lossgrads", "moments",
            "padding", "pooling", "forward", "functional", "func", "gradcheck", "initializers", "modules",
            "nnfunctions", "nnlayers", "optim")

_LOADED = [False]
AFTER_LOADING: list[Callable[[], None]] = []  # what the Tensor's API does with the new built-ins (api.py)


def load_all() -> bool:
    """Import the deferred modules, once; True when this call loaded them."""
    if _LOADED[0]:
        return False
    _LOADED[0] = True
    for name in DEFERRED:
        importlib.import_module(f"{__package__}.{name}")
    for hook in AFTER_LOADING:
        hook()
    return True


def late(module: str, name: str) -> Any:
    """A name of a module loaded second, imported when first used (a formula of the first step may need one)."""
    if module not in DEFERRED:
        raise ValueError(f"{module} is not a module of the engine's second step")
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


def is_loaded() -> bool:
    """Whether every module of the engine is loaded."""
    return _LOADED[0]


class Registry(dict):
    """A name -> entry table (BUILTINS, OPS) that loads the rest of the engine when a name of it (one of
    `known`, the whole engine's names: names.py) is missing or the whole table is read; a name it will never
    have is answered without loading anything, and a hit costs what a dict's costs."""

    def __init__(self, known: frozenset[str]) -> None:
        super().__init__()
        self._known = known

    def _load_for(self, key: object) -> bool:
        """Whether loading the rest now brings `key` (it is a name of the whole engine, not yet here)."""
        return key in self._known and load_all()

    def __missing__(self, key: Any) -> Any:
        if self._load_for(key):
            return self[key]
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or (self._load_for(key) and dict.__contains__(self, key))

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key) or self._load_for(key):
            return dict.get(self, key, default)
        return default

    def __iter__(self) -> Iterator[Any]:
        load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        load_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        load_all()
        return dict.keys(self)

    def values(self) -> Any:
        load_all()
        return dict.values(self)

    def items(self) -> Any:
        load_all()
        return dict.items(self)

    def copy(self) -> dict:
        load_all()
        return dict(dict.items(self))

    def __reversed__(self) -> Iterator[Any]:
        load_all()
        return dict.__reversed__(self)

    def __repr__(self) -> str:
        load_all()
        return dict.__repr__(self)

    def __eq__(self, other: object) -> bool:
        load_all()
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def own(self, key: Any) -> bool:
        """Whether `key` is registered now (loads nothing)."""
        return dict.__contains__(self, key)

    def entries_now(self) -> list[tuple[Any, Any]]:
        """The entries registered so far (loads nothing)."""
        return list(dict.items(self))


class NameSet(Set):
    """A set of names (the Tensor's methods) that loads the rest of the engine when a name of it (one of
    `known`) is missing or the whole set is read (set operations go through these)."""

    def __init__(self, names: Iterable[str], known: frozenset[str]) -> None:
        self._names, self._known = set(names), known

    def __contains__(self, key: object) -> bool:
        return key in self._names or (key in self._known and load_all() and key in self._names)

    def __iter__(self) -> Iterator[str]:
        load_all()
        return iter(self._names)

    def __len__(self) -> int:
        load_all()
        return len(self._names)

    def __repr__(self) -> str:
        load_all()
        return f"NameSet({sorted(self._names)!r})"

    def update(self, names: Iterable[str]) -> None:
        """Add names (the built-ins of the modules loaded second)."""
        self._names.update(names)
