"""The engine loads in two steps: at import, the modules every formula needs (tensors, arithmetic, the
elementwise functions, reductions, shapes, backward); the rest (convolutions, decompositions, losses, nn
modules, optimizers, forward-mode AD, ...) the first time anything asks for a name they declare: a built-in,
an op, a Tensor method or an attribute of `autodiff.engine`.

The first step itself has a later part, the array operations (indexing, joins, gathers and scatters,
comparisons, matrix products, and the formulas' vocabulary on Tensors for create_graph=True): a formula of
scalars, `(2*x)**3`, never uses them, so they load at the first use of one of their names, or of an operator
that needs them (x[i], x @ y, x < y), or with the second step.

Measured on `autodiff eval '(2*x)**3' x=1.5` (python -X importtime): the 26 modules of the second step were 40%
of the engine's own import time, the six array operations a quarter of what was left. The registries below
make both invisible: a lookup of a name of the whole engine (names.py) that misses loads the part that declares
it, anything that lists all of them loads everything first, so every name is found and every listing is
whole; a name the engine never has is answered without loading."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Set
from typing import Any

# The modules loaded on first need, in the order their built-ins are listed (autodiff ops, suggestions).
DEFERRED = ("activations", "cumulative", "distributions", "pointwise", "rearrange", "sorting", "classification",
            "counting",
            "convolution", "custom", "decompositions", "einsum", "layers", "losses", "lossgrads", "moments",
            "padding", "pooling", "forward", "functional", "func", "gradcheck", "initializers", "modules",
            "nnfunctions", "nnlayers", "optim", "normalization", "nnnorm", "embedding", "lstmlayer", "recurrent",
            "nnrecurrent", "containers", "selecting", "scatterreduce")

# The first step's later part, the array operations, in the order they load (each after what it imports).
OPERATIONS = ("gathers", "indexing", "joins", "logic", "linalg", "tensormath")

_LOADED = [False]
_OPERATIONS_LOADED = [False]
AFTER_LOADING: list[Callable[[], None]] = []  # what the Tensor's API does with new built-ins (api.py), after each
AFTER_ALL: list[Callable[[], None]] = []  # what the package binds once the second step is loaded (__init__.py)


def load_operations() -> bool:
    """Import the array operations, once; True when this call loaded them."""
    if _OPERATIONS_LOADED[0]:
        return False
    _OPERATIONS_LOADED[0] = True
    for name in OPERATIONS:
        importlib.import_module(f"{__package__}.{name}")
    for hook in AFTER_LOADING:
        hook()
    return True


def load_all() -> bool:
    """Import the array operations and the second step, once; True when this call loaded the second step."""
    if _LOADED[0]:
        return False
    _LOADED[0] = True
    load_operations()
    for name in DEFERRED:
        importlib.import_module(f"{__package__}.{name}")
    for hook in (*AFTER_LOADING, *AFTER_ALL):
        hook()
    return True


def load_for(name: object, operations: frozenset[str], known: frozenset[str]) -> bool:
    """Load the part of the engine that declares `name`: the array operations when it is one of theirs, else
    everything when it is a name of the whole engine (`known`); True when this call loaded something."""
    if name in operations:
        return load_operations()
    return name in known and load_all()


def operation(module: str, name: str) -> Any:
    """A name of the array operations, loading them first (the first step's own code may need one)."""
    return _name_in(module, name, OPERATIONS, "the engine's array operations")


def late(module: str, name: str) -> Any:
    """A name of a module loaded second, imported when first used (a formula of the first step may need one);
    the array operations load first, so the built-ins are always registered in the same order."""
    return _name_in(module, name, DEFERRED, "the engine's second step")


def _name_in(module: str, name: str, part: tuple[str, ...], what: str) -> Any:
    if module not in part:
        raise ValueError(f"{module} is not a module of {what}")
    load_operations()
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


def operations_loaded() -> bool:
    """Whether the array operations are loaded."""
    return _OPERATIONS_LOADED[0]


def is_loaded() -> bool:
    """Whether every module of the engine is loaded."""
    return _LOADED[0]


class Registry(dict):
    """A name -> entry table (BUILTINS, OPS) that loads the part of the engine declaring a name of it (one of
    `operations` or `known`, the whole engine's names: names.py) when it is missing, and the whole engine when
    the whole table is read; a name it will never have is answered without loading anything, and a hit costs
    what a dict's costs."""

    def __init__(self, known: frozenset[str], operations: frozenset[str]) -> None:
        super().__init__()
        self._known, self._operations = known, operations

    def _load_for(self, key: object) -> bool:
        """Whether loading a part now brings `key` (a name of the whole engine, not yet here)."""
        return load_for(key, self._operations, self._known)

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
    """A set of names (the Tensor's methods) that loads the part of the engine declaring a name of it (one of
    `operations` or `known`) when it is missing, and the whole engine when the whole set is read (set
    operations go through these)."""

    def __init__(self, names: Iterable[str], known: frozenset[str], operations: frozenset[str]) -> None:
        self._names, self._known, self._operations = set(names), known, operations

    def __contains__(self, key: object) -> bool:
        return key in self._names or (load_for(key, self._operations, self._known) and key in self._names)

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
        """Add names (the built-ins of a part loaded later)."""
        self._names.update(names)
