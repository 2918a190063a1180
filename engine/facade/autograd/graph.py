"""torch.autograd.graph: the graph's node type; hooks on saved tensors are not part of autodiff and say so."""

from __future__ import annotations

from typing import Any

from autodiff.engine import Node
from autodiff.engine.errors import BadValueError

NO_SAVED_HOOKS = ("hooks on saved tensors are not part of autodiff: tensor.register_hook(fn) runs fn on a gradient, "
                  "and grad_fn._saved_self and ctx.saved_tensors show what a node saved")


class saved_tensors_hooks:
    """Refused with a clear message: autodiff keeps saved tensors as they are."""

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        raise BadValueError(NO_SAVED_HOOKS, reason="saved_tensors_hooks")


class save_on_cpu(saved_tensors_hooks):
    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        return None  # everything is on the CPU already

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


__all__ = ["Node", "save_on_cpu", "saved_tensors_hooks"]
