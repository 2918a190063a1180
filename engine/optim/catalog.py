"""The names torch.optim and torch.optim.lr_scheduler export, gathered from the optimizers' and schedulers' modules."""

from __future__ import annotations

from .optimizers import OPTIMIZERS as FIRST_OPTIMIZERS
from .schedulers import SCHEDULERS

OPTIMIZERS = {**FIRST_OPTIMIZERS}

__all__ = ["OPTIMIZERS", "SCHEDULERS"]
