"""torch.autograd: grad and backward, custom Functions, the functional API, forward-mode AD, gradcheck, anomaly
detection and grad modes, all the engine's."""

from __future__ import annotations

from typing import Any

from autodiff.engine import Tensor, backward, grad, set_grad_enabled
from autodiff.engine.core.settings import STATE
from autodiff.engine.errors import WrongTypeError
from autodiff.engine.transforms.gradcheck import gradcheck, gradgradcheck

from ..grad_modes import enable_grad, inference_mode, no_grad
from . import forward_ad, function, functional, graph, profiler
from .function import Function


def Variable(data: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:
    """torch.autograd.Variable(t, requires_grad=...): deprecated; a new leaf on the same memory, as PyTorch's."""
    if not isinstance(data, Tensor):
        raise WrongTypeError(f"Variable data has to be a tensor, but got {type(data).__name__}", reason="arguments")
    return data.detach().requires_grad_(bool(requires_grad))


class set_detect_anomaly:
    """Anomaly detection on or off from now on (and, as a context manager, back as it was after the block)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.previous = STATE.anomaly
        STATE.anomaly = bool(mode) and bool(check_nan)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        STATE.anomaly = self.previous


class detect_anomaly(set_detect_anomaly):
    """Inside the block (or a decorated function), backward stops at the first node whose gradient has a nan,
    naming the node and where it was made."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        self.previous = STATE.anomaly

    def __enter__(self) -> None:
        self.previous = STATE.anomaly
        STATE.anomaly = self.check_nan

    def __call__(self, fn: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)

        return wrapped


__all__ = ["Function", "Variable", "backward", "detect_anomaly", "enable_grad", "forward_ad", "function",
           "functional", "grad", "gradcheck", "gradgradcheck", "graph", "inference_mode", "no_grad", "profiler",
           "set_detect_anomaly", "set_grad_enabled"]
