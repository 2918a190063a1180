"""torch.nn.modules: the same classes as torch.nn (`from torch.nn.modules import Module`)."""

from autodiff.engine import NN_MODULES, Module

globals().update(NN_MODULES)

__all__ = ["Module", *sorted(NN_MODULES)]
