"""torch.no_grad, torch.enable_grad and torch.inference_mode as PyTorch has them: context managers, and decorators
with or without parentheses (`@torch.no_grad()` and `@torch.no_grad`)."""

from __future__ import annotations

from typing import Any

from autodiff.engine import GradMode


class _Switch(GradMode):
    enabled_inside = False

    def __new__(cls, orig_func: Any = None, *args: Any, **kwargs: Any) -> Any:
        if callable(orig_func):  # used as a bare decorator: @torch.no_grad
            return cls()(orig_func)
        return super().__new__(cls)

    def __init__(self, orig_func: Any = None) -> None:
        super().__init__(self.enabled_inside)


class no_grad(_Switch):
    """Operations inside are not recorded."""


class enable_grad(_Switch):
    """Operations inside are recorded (inside a no_grad block too)."""

    enabled_inside = True


class inference_mode(GradMode):
    """inference_mode(mode=True): as no_grad when mode is True (autodiff has no inference tensors)."""

    def __new__(cls, mode: Any = True) -> Any:
        if callable(mode):
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        super().__init__(not mode)
