"""torch.optim.lr_scheduler: the learning-rate schedulers."""

from __future__ import annotations

from typing import Any

from ..errors import BadValueError
from .optimizer import Optimizer


class StepLR:
    """lr_scheduler.StepLR: every step_size calls of step(), each group's lr times gamma."""

    def __init__(self, optimizer: Any, step_size: Any, gamma: float = 0.1, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise BadValueError(f"{type(optimizer).__name__} is not an Optimizer", reason="scheduler")
        if isinstance(step_size, bool) or not isinstance(step_size, int) or step_size <= 0:
            raise BadValueError(f"step_size must be a positive integer, got {step_size!r}", reason="scheduler")
        self.optimizer, self.step_size, self.gamma = optimizer, step_size, gamma
        for group in optimizer.param_groups:
            group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.last_lr: list[float] = []
        self.step()

    def get_lr(self) -> list[float]:
        groups = self.optimizer.param_groups
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [group["lr"] for group in groups]
        return [group["lr"] * self.gamma for group in groups]

    def step(self, epoch: Any = None) -> None:
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self.last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def get_last_lr(self) -> list[float]:
        return list(self.last_lr)

    def state_dict(self) -> dict[str, Any]:
        return {"step_size": self.step_size, "gamma": self.gamma, "base_lrs": list(self.base_lrs),
                "last_epoch": self.last_epoch, "_last_lr": list(self.last_lr)}


SCHEDULERS = {"StepLR": StepLR}
