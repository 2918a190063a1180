"""The names a program starts with: the engine's built-ins (read from `autodiff.engine.BUILTINS`, never a
second list), the `torch` module as tutorials use it (torch.autograd, torch.nn.functional, the legacy
constructors, grad-mode switches), mathematical constants, and the Python built-ins of scripts."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS, Tensor
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter import pybuiltins
from autodiff.grammar.interpreter.values import DType, Function, Namespace

# Mathematical constants, as Python numbers (so `x=pi/4` is a value and `sin(pi*x)` records one op).
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}

# torch.nn.functional (`import torch.nn.functional as F`): the built-ins declared as its members
FUNCTIONAL = tuple(name for name, b in BUILTINS.items() if b.functional and b.alias_of is None)

PYTHON_BUILTINS = {name: Function(name, fn, usage) for name, (fn, usage) in pybuiltins.python_builtins().items()}

# The modules `import` can bind: torch and the parts of it autodiff provides.
TORCH_MODULES = ([], ["autograd"], ["nn"], ["nn", "functional"])


def builtin_function(name: str) -> Function:
    """A built-in of the engine as a value of the language."""
    builtin = BUILTINS[name]
    return Function(name, builtin.fn, builtin.signature, builtin)


def _legacy_tensor(dtype: str | None) -> Callable[..., Tensor]:
    """torch.Tensor / torch.FloatTensor / torch.DoubleTensor: from data, or zeros of the given sizes."""

    def construct(*args: Any) -> Tensor:
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return engine.zeros(*args, dtype=dtype)
        if len(args) != 1:
            raise BadValueError("Tensor() takes the data (a number or nested lists), or sizes")
        data = args[0]
        return engine.tensor(list(data) if isinstance(data, tuple) else data, dtype=dtype)

    return construct


def _autograd_members() -> dict[str, Any]:
    return {
        "grad": Function("torch.autograd.grad", engine.grad,
                         "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)"),
        "backward": Function("torch.autograd.backward", engine.backward,
                             "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)"),
    }


def _linalg_members() -> dict[str, Any]:
    """torch.linalg: its norms and the matrix functions the engine has (det; inv is inverse)."""
    return {
        "norm": Function("torch.linalg.norm", engine.linalg_norm, "norm(input, ord=None, dim=None, keepdim=False)"),
        "vector_norm": builtin_function("vector_norm"),
        "det": builtin_function("det"),
        "inv": Function("torch.linalg.inv", BUILTINS["inverse"].fn, "inv(input)", BUILTINS["inverse"]),
    }


def _torch_members() -> dict[str, Any]:
    members: dict[str, Any] = {name: builtin_function(name) for name in BUILTINS}
    functional = Namespace("torch.nn.functional", {name: builtin_function(name) for name in FUNCTIONAL})
    members.update({
        "Tensor": Function("torch.Tensor", _legacy_tensor(None), "Tensor(data)"),
        "FloatTensor": Function("torch.FloatTensor", _legacy_tensor("float32"), "FloatTensor(data)"),
        "DoubleTensor": Function("torch.DoubleTensor", _legacy_tensor("float64"), "DoubleTensor(data)"),
        "manual_seed": Function("manual_seed", engine.manual_seed, "manual_seed(seed)"),
        "is_grad_enabled": Function("is_grad_enabled", engine.is_grad_enabled, "is_grad_enabled()"),
        "set_grad_enabled": Function("set_grad_enabled", engine.set_grad_enabled, "set_grad_enabled(mode)"),
        "no_grad": Function("no_grad", engine.no_grad, "no_grad()"),
        "enable_grad": Function("enable_grad", engine.enable_grad, "enable_grad()"),
        **CONSTANTS,
        "float32": DType("float32"),
        "float64": DType("float64"),
        "float": DType("float32"),
        "double": DType("float64"),
        "autograd": Namespace("torch.autograd", _autograd_members()),
        "nn": Namespace("torch.nn", {"functional": functional}),
        "linalg": Namespace("torch.linalg", _linalg_members()),
    })
    return members


# The `torch` module: built once and shared (nothing changes it; building it for each run cost 10% of a
# batch line).
TORCH = Namespace("torch", _torch_members())


def imported(module: str, alias: str | None) -> tuple[str, Namespace]:
    """What `import MODULE [as ALIAS]` binds: (name, module). numpy and friends are accepted, as tutorials
    import them; any use says why it fails."""
    parts = module.split(".")
    if parts[0] != "torch":
        return alias or parts[0], Namespace(module, {})
    if parts[1:] not in TORCH_MODULES:
        raise UnknownNameError(f"module '{module}' is not available: autodiff provides torch, torch.autograd and "
                               "torch.nn.functional")
    target = TORCH
    for part in parts[1:] if alias else ():  # `import torch.nn` binds torch, `... as nn` the module
        target = target.members[part]
    return alias or "torch", target
