"""torch.optim.lr_scheduler: the engine's schedulers."""

from autodiff.engine.optim.catalog import SCHEDULERS

globals().update(SCHEDULERS)

__all__ = sorted(SCHEDULERS)
