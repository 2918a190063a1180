"""torch.accelerator on a machine without one: nothing is available, as PyTorch's CPU build answers."""

from __future__ import annotations

from typing import Any


def is_available() -> bool:
    return False


def current_accelerator(check_available: bool = False) -> Any:
    return None


def device_count() -> int:
    return 0


__all__ = ["current_accelerator", "device_count", "is_available"]
