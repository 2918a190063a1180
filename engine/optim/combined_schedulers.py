"""torch.optim.lr_scheduler's schedulers made of others (SequentialLR, ChainedScheduler) and ReduceLROnPlateau,
which follows a metric: PyTorch's (2.13) code, its arithmetic in Python floats."""

from __future__ import annotations

import math
import warnings
from bisect import bisect_right
from typing import Any

from ..errors import BadValueError, InvalidArgumentError, WrongTypeError
from .optimizer import Optimizer
from .schedulers import EPOCH_DEPRECATION_WARNING, LRScheduler, check_optimizer, group_values, set_group_value


def check_schedulers(owner: str, optimizer: Any, schedulers: Any) -> None:
    """PyTorch's checks of the schedulers a SequentialLR or a ChainedScheduler is made of."""
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise WrongTypeError(f"{owner} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise InvalidArgumentError(
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be "
                f"specified when calling `step`, but got one at index {i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise InvalidArgumentError(
                f"{owner} expects all schedulers to belong to the same optimizer, but got scheduler "
                f"{type(scheduler).__name__} at index {i} has {scheduler.optimizer}, which is different from "
                f"{type(optimizer).__name__}.")


class SchedulersState(LRScheduler):
    """state_dict() and load_state_dict() of a scheduler made of others (theirs in a list)."""

    _schedulers: list[Any]

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer, and each scheduler's state_dict()."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = schedulers
        for scheduler, saved in zip(self._schedulers, schedulers):
            scheduler.load_state_dict(saved)


class SequentialLR(SchedulersState):
    """The schedulers one after the other, each from its milestone on."""

    def __init__(self, optimizer: Optimizer, schedulers: list[Any], milestones: list[int],
                 last_epoch: int = -1) -> None:
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise InvalidArgumentError(f"{owner} expects at least one scheduler, but got no scheduler.")
        check_schedulers(owner, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise InvalidArgumentError(
                "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
                f"milestone points, but got number of schedulers {len(schedulers)} and the number of milestones to "
                f"be equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """last_epoch -= 1 in every scheduler inside (nested ones included; by a stack, not recursion)."""
        stack = [self if sched is None else sched]
        while stack:
            current = stack.pop()
            if hasattr(current, "_schedulers"):
                stack.extend(reversed(current._schedulers))
            elif hasattr(current, "last_epoch"):
                current.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(SchedulersState):
    """Every scheduler's step() at each step, in order."""

    def __init__(self, schedulers: Any, optimizer: Optimizer | None = None) -> None:
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise InvalidArgumentError(f"{owner} expects at least one scheduler to be chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        check_schedulers(owner, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:  # type: ignore[override]
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")


class ReduceLROnPlateau(LRScheduler):
    """Each group's lr times factor when the metric given to step() has not improved for patience epochs."""

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: Any = 0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise InvalidArgumentError("Factor should be < 1.0.")
        self.factor = factor
        check_optimizer(optimizer)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise InvalidArgumentError(f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = group_values(self.optimizer, "lr")
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self) -> None:
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics: Any, epoch: Any = None) -> None:  # type: ignore[override]
        """One epoch's metric: the lrs reduced after patience epochs without improvement."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = group_values(self.optimizer, "lr")

    def _reduce_lr(self, epoch: Any) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise BadValueError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs from when "
                    f"`ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due to a new param group "
                    "being added to the optimizer. Please modify the `min_lrs` field to match the length of the "
                    "`optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for i, group in enumerate(groups):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                set_group_value(group, "lr", new_lr)

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        """Whether a improves on best by more than the threshold."""
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min" and self.threshold_mode == "abs":
            return a < best - self.threshold
        if self.mode == "max" and self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in {"min", "max"}:
            raise InvalidArgumentError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise InvalidArgumentError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode)


COMBINED_SCHEDULERS = {cls.__name__: cls for cls in (SequentialLR, ChainedScheduler, ReduceLROnPlateau)}
