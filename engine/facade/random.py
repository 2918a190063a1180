"""torch.random: the default generator's seed and state."""

from __future__ import annotations

from typing import Any

from autodiff.engine.random.generator import Generator, default_generator, get_rng_state, initial_seed, set_rng_state


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator, as torch.manual_seed."""
    from autodiff import engine

    engine.manual_seed(seed)
    return default_generator()


def seed() -> int:
    from .. import facade

    return facade.seed()


__all__ = ["get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]
