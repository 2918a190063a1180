"""How the engine runs one command: its default dtype, its random seed and its element limit, as one frozen
value, applied for the command's duration (engine.settings) instead of set for the whole process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import NamedTuple

from autodiff import engine

DEFAULT_MAX_ELEMENTS = 50_000_000


class Config(NamedTuple):
    """The engine's settings for a run: frozen, compared and hashed by its fields."""

    dtype: str = "float32"
    seed: int | None = None
    max_elements: int | None = DEFAULT_MAX_ELEMENTS

    @contextlib.contextmanager
    def applied(self) -> Iterator[Config]:
        """Run the block with these settings (restored after it); the seed, when given, seeds the generator."""
        with engine.settings(default_dtype=self.dtype, max_elements=self.max_elements):
            if self.seed is not None:
                engine.manual_seed(self.seed)
            yield self

    def but(self, **changes: object) -> Config:
        """The same settings with some changed (a float64 run of a float32 command, a check's own seed)."""
        return self._replace(**changes)
