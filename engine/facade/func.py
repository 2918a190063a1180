"""torch.func (and functorch, its older name): grad, vjp, jacrev, jvp, jacfwd, hessian, vmap, functional_call,
stack_module_state; functorch's make_functional over functional_call."""

from __future__ import annotations

from typing import Any

from autodiff.engine.errors import WrongTypeError
from autodiff.engine.nn.module import Module
from autodiff.engine.transforms.torch_func import (
    functional_call,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    stack_module_state,
    vjp,
    vmap,
)


def _make_functional(model: Any, buffers: bool) -> tuple:
    """(func, params[, buffers]) with func(params[, buffers], *args) calling the model with those tensors."""
    if not isinstance(model, Module):
        raise WrongTypeError(f"make_functional: expected a torch.nn.Module, got {type(model).__name__}",
                             reason="arguments")
    names = [name for name, _ in model.named_parameters()]
    buffer_names = [name for name, _ in model.named_buffers()] if buffers else []

    def call(params: Any, *rest: Any, **kwargs: Any) -> Any:
        values = dict(zip(names, params))
        args = rest
        if buffers:
            values.update(zip(buffer_names, rest[0] if rest else ()))
            args = rest[1:]
        return functional_call(model, values, tuple(args), kwargs)

    params = tuple(p for _, p in model.named_parameters())
    if buffers:
        return call, params, tuple(b for _, b in model.named_buffers())
    return call, params


def make_functional(model: Any) -> tuple:
    """functorch.make_functional(model): (func, params)."""
    return _make_functional(model, False)


def make_functional_with_buffers(model: Any) -> tuple:
    """functorch.make_functional_with_buffers(model): (func, params, buffers)."""
    return _make_functional(model, True)


__all__ = ["functional_call", "grad", "hessian", "jacfwd", "jacrev", "jvp", "make_functional",
           "make_functional_with_buffers", "stack_module_state", "vjp", "vmap"]
