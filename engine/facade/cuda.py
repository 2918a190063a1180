"""torch.cuda on a machine without CUDA: is_available() is False, as PyTorch's CPU build answers; seeding is
accepted (there is no CUDA generator to seed)."""

from __future__ import annotations

from typing import Any


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: Any) -> None:
    """Accepted and ignored, as PyTorch does without CUDA."""


manual_seed_all = manual_seed


def synchronize(device: Any = None) -> None:
    """Nothing to wait for on the CPU."""


def empty_cache() -> None:
    """Nothing to free on the CPU."""


__all__ = ["device_count", "empty_cache", "is_available", "manual_seed", "manual_seed_all", "synchronize"]
