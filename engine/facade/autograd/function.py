"""torch.autograd.Function for a script's own classes: static forward(ctx, ...) and backward(ctx, ...) (or the
newer forward(...) with setup_context(ctx, inputs, output)), called through `MyFunction.apply(...)`, which records
one node named `MyFunctionBackward` whose backward is the class's."""

from __future__ import annotations

import inspect
from typing import Any

from autodiff.engine import FunctionCtx, apply_function, once_differentiable


class Function:
    """Subclass it with @staticmethod forward and backward, and call `.apply(*args)` (never the class itself)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it with "
                                  "forward mode AD.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward without recording, then record one node for its outputs (`{cls.__name__}Backward`)."""
        setup = None if cls.setup_context is Function.setup_context else cls.setup_context
        if setup is not None:  # setup_context sees every input of forward, its defaults filled in (as PyTorch)
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        backward = cls.backward if cls.backward is not Function.backward else cls.vjp
        jvp = None if cls.jvp is Function.jvp else cls.jvp
        return apply_function(f"{cls.__name__}Backward", cls.forward, backward, args, kwargs, setup, jvp)


__all__ = ["Function", "FunctionCtx", "once_differentiable"]
