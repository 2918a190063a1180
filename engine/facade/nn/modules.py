"""torch.nn.modules: the same classes as torch.nn (`from torch.nn.modules import Module`)."""

from autodiff.engine.nn.function_modules import NN_MODULES
from autodiff.engine.nn.module import Module

globals().update(NN_MODULES)

__all__ = ["Module", *sorted(NN_MODULES)]
