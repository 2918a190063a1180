"""The modules torch.nn and torch.optim as scripts import them: nn.Module (a base class for the script's own
models), nn.Parameter, the layers, activations and losses autodiff provides (each a type as well as a
constructor, so `isinstance(m, nn.Linear)` works), nn.init, nn.functional; the optimizers and
optim.lr_scheduler. The objects they make are the engine's; nnmembers.py says what a script reaches on them."""

from __future__ import annotations

import inspect
from typing import Any

from autodiff import engine
from autodiff.grammar.interpreter.classes import NN_MODULE
from autodiff.grammar.interpreter.pytypes import TypeFunction
from autodiff.grammar.interpreter.values import Function, Namespace, second


def _signature(name: str, cls: Any) -> str:
    return f"{name}{inspect.signature(cls)}"


def _type(prefix: str, name: str, cls: Any) -> TypeFunction:
    return TypeFunction(f"{prefix}.{name}", cls, _signature(name, cls), lambda v, cls=cls: isinstance(v, cls))


def nn_namespace(functional: Namespace) -> Namespace:
    """torch.nn."""
    members: dict[str, Any] = {name: _type("torch.nn", name, cls) for name, cls in engine.NN_MODULES.items()}
    members.update({
        "Module": NN_MODULE,
        "Parameter": TypeFunction("torch.nn.parameter.Parameter", engine.parameter, "Parameter(data=None, "
                                  "requires_grad=True)", lambda v: isinstance(v, second("Parameter"))),
        "functional": functional,
        "init": Namespace("torch.nn.init", {name: Function(f"torch.nn.init.{name}", fn, _signature(name, fn))
                                            for name, fn in engine.INIT_FUNCTIONS.items()}),
    })
    return Namespace("torch.nn", members)


def optim_namespace() -> Namespace:
    """torch.optim, with lr_scheduler."""
    members: dict[str, Any] = {name: _type("torch.optim", name, cls) for name, cls in engine.OPTIMIZERS.items()}
    members["Optimizer"] = TypeFunction("torch.optim.Optimizer", engine.Optimizer, "Optimizer(params, defaults)",
                                        lambda v: isinstance(v, second("Optimizer")))
    members["lr_scheduler"] = Namespace("torch.optim.lr_scheduler", {
        name: _type("torch.optim.lr_scheduler", name, cls) for name, cls in engine.SCHEDULERS.items()})
    return Namespace("torch.optim", members)
