"""torch.nn.utils: clipping gradients by norm or by value, and parameters as one vector and back."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from autodiff.engine import Tensor, cat, no_grad, stack, tensor
from autodiff.engine.errors import BadValueError


def _with_grads(parameters: Any) -> list[Tensor]:
    items = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    return [p for p in items if p.grad is not None]


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Any = None) -> Tensor:
    """Scale the gradients in place so that their joint norm is at most max_norm; returns the norm before."""
    grads = [p.grad for p in _with_grads(parameters)]
    if not grads:
        return tensor(0.0)
    norm_type = float(norm_type)
    with no_grad():
        if math.isinf(norm_type):
            norms = [g.detach().abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else stack(norms).max()
        else:
            total = stack([g.detach().norm(norm_type) for g in grads]).norm(norm_type)
        if error_if_nonfinite and not math.isfinite(float(total)):
            raise BadValueError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                                "so it cannot be clipped. To disable this error and scale the gradients by the "
                                "non-finite norm anyway, set `error_if_nonfinite=False`", reason="clip_grad")
        coefficient = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coefficient.to(g.dtype))
    return total


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    """Clamp every gradient in place to [-clip_value, clip_value]."""
    with no_grad():
        for p in _with_grads(parameters):
            p.grad.clamp_(-clip_value, clip_value)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """Every parameter flattened into one vector, in order."""
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Write consecutive slices of vec into the parameters' data, in order."""
    offset = 0
    for p in parameters:
        count = p.numel()
        p.data = vec[offset:offset + count].view_as(p).data
        offset += count


__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]
