"""The names torch.optim and torch.optim.lr_scheduler export, gathered from the optimizers' and schedulers' modules."""

from __future__ import annotations

from .combined_schedulers import COMBINED_SCHEDULERS
from .cyclic_schedulers import CYCLIC_SCHEDULERS
from .lbfgs import LBFGS
from .more_optimizers import MORE_OPTIMIZERS
from .optimizers import OPTIMIZERS as FIRST_OPTIMIZERS
from .schedulers import SIMPLE_SCHEDULERS

OPTIMIZERS = {**FIRST_OPTIMIZERS, **MORE_OPTIMIZERS, "LBFGS": LBFGS}
SCHEDULERS = {**SIMPLE_SCHEDULERS, **COMBINED_SCHEDULERS, **CYCLIC_SCHEDULERS}

__all__ = ["OPTIMIZERS", "SCHEDULERS"]
