"""How the engine runs one command: its default dtype, its random seed and its element limit, as one frozen
value, applied for the command's duration (engine.settings) instead of set for the whole process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from autodiff import engine
from autodiff.app import Record

DEFAULT_MAX_ELEMENTS = 50_000_000


class Config(Record):
    """The engine's settings for a run. Frozen, compared by its fields; written out rather than made by
    `dataclasses`, whose class creation costs every start-up (README, start-up)."""

    __slots__ = ("dtype", "max_elements", "seed")
    dtype: str
    seed: int | None
    max_elements: int | None

    def __init__(self, dtype: str = "float32", seed: int | None = None,
                 max_elements: int | None = DEFAULT_MAX_ELEMENTS) -> None:
        object.__setattr__(self, "dtype", dtype)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "max_elements", max_elements)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a Config")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a Config")

    __eq__ = Record.same_fields

    def __hash__(self) -> int:
        return hash((self.dtype, self.seed, self.max_elements))

    def __repr__(self) -> str:
        return f"Config(dtype={self.dtype!r}, seed={self.seed!r}, max_elements={self.max_elements!r})"

    @contextlib.contextmanager
    def applied(self) -> Iterator[Config]:
        """Run the block with these settings (restored after it); the seed, when given, seeds the generator."""
        with engine.settings(default_dtype=self.dtype, max_elements=self.max_elements):
            if self.seed is not None:
                engine.manual_seed(self.seed)
            yield self

    def but(self, **changes: object) -> Config:
        """The same settings with some changed (a float64 run of a float32 command, a check's own seed)."""
        return Config(**{"dtype": self.dtype, "seed": self.seed, "max_elements": self.max_elements, **changes})
