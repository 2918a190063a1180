"""torch.nn: Module (the base class of a script's models), Parameter, the layers, activations and losses of the
engine, and the submodules functional, init, parameter, modules and utils."""

from __future__ import annotations

from autodiff.engine.nn.containers import UninitializedBuffer, UninitializedParameter
from autodiff.engine.nn.function_modules import NN_MODULES
from autodiff.engine.nn.module import Module, Parameter

from . import functional, init, modules, parameter, utils

globals().update(NN_MODULES)

__all__ = ["Module", "Parameter", "UninitializedBuffer", "UninitializedParameter", "functional", "init", "modules",
           "parameter", "utils", *sorted(NN_MODULES)]
