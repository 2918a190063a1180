"""torch.optim: the engine's optimizers (PyTorch's update rules, step for step), Optimizer, lr_scheduler."""

from autodiff.engine.optim.catalog import OPTIMIZERS
from autodiff.engine.optim.optimizer import Optimizer

from . import lr_scheduler, swa_utils

globals().update(OPTIMIZERS)

__all__ = ["Optimizer", "lr_scheduler", "swa_utils", *sorted(OPTIMIZERS)]
