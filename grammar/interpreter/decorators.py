"""Decorators (`@NAME` lines before a def or a class), as Python applies them: the decorator is called with the
definition and its result is bound instead. Grad-mode switches decorate as PyTorch's do: `@torch.no_grad()`,
`@torch.no_grad`, `@torch.enable_grad()`, `@torch.inference_mode()` and `@torch.set_grad_enabled(False)` run the
function in that mode; `@staticmethod` and `@classmethod` mark a class's functions;
`@once_differentiable` marks a custom Function's backward."""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.grammar.interpreter.values import Function, UserFunction

# The torch functions that make a grad mode: used bare (`@torch.no_grad`), they decorate as their result does.
MODE_FUNCTIONS = ("no_grad", "enable_grad", "inference_mode")


def decorate(interp: Any, decorator: Any, value: Any) -> Any:
    """The value a decorated definition binds."""
    if isinstance(decorator, Function) and decorator.name in MODE_FUNCTIONS:
        decorator = decorator.fn()
    if isinstance(decorator, engine.GradMode):
        return in_mode(interp, decorator.enabled, value)
    return interp.call_value(decorator, [value], {})


def in_mode(interp: Any, enabled: bool, function: Any) -> Function:
    """`function` run with grad mode on or off (restored after it, also when it fails)."""
    name = function.name if isinstance(function, (Function, UserFunction)) else "function"

    def run(*args: Any, **kwargs: Any) -> Any:
        with engine.GradMode(enabled):
            return interp.call_value(function, list(args), kwargs)

    return Function(name, run, None)

