"""torch.optim.lr_scheduler: LRScheduler (and its old name _LRScheduler) and the schedulers that multiply each
group's learning rate by a factor a step (LambdaLR, MultiplicativeLR, StepLR, MultiStepLR, ConstantLR, LinearLR,
ExponentialLR, PolynomialLR, CosineAnnealingLR).

Each is PyTorch's (2.13) own arithmetic in Python floats, in its order of operations (the chainable form: each
step's rate from the previous one; the closed form when step() is given an epoch), so the rates after every step
are PyTorch's digit for digit; state_dict() is the scheduler's attributes but the optimizer, as PyTorch's.
"""

from __future__ import annotations

import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from functools import wraps
from typing import Any

from ..core.tensor import Tensor
from ..errors import InvalidArgumentError, WrongTypeError
from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please use "
    "`scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the closed "
    "form is used instead of the new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")
ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call "
    "them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in "
    "PyTorch skipping the first value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler initialization. Please, make "
    "sure to call `optimizer.step()` before `lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
INITIAL_LR_MISSING = (
    "param 'initial_lr' is not specified in param_groups[{}] when resuming scheduler with last_epoch >= 0.\nThis "
    "typically happens when:\n1. You're trying to resume training from a checkpoint but haven't properly loaded the "
    "optimizer state\n2. You're using last_epoch >= 0 for a fresh training run (not recommended)")


# ---------------------------------------------------------------------------- helpers (PyTorch's)
def format_param(name: str, optimizer: Optimizer, param: Any) -> list[Any]:
    """One value a group: param itself if a list or tuple of the groups' length, else param for every group."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise InvalidArgumentError(
                f"{name} must have the same length as optimizer.param_groups. {name} has {len(param)} values, "
                f"param_groups has {len(optimizer.param_groups)}.")
    else:
        param = [param] * len(optimizer.param_groups)
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def group_values(optimizer: Optimizer, key: str) -> list[Any]:
    """Each group's value of key (a tensor's copy)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key] for g in optimizer.param_groups]


def set_group_value(group: dict[str, Any], key: str, value: Any) -> None:
    """group[key] = value (a tensor learning rate is filled in place, as PyTorch does)."""
    if isinstance(group[key], Tensor):
        group[key].fill_(float(value))
    else:
        group[key] = value


def check_optimizer(optimizer: Any) -> None:
    if not isinstance(optimizer, Optimizer):
        raise WrongTypeError(f"{type(optimizer).__name__} is not an Optimizer")


def track_step_called(optimizer: Optimizer) -> None:
    """Wrap optimizer.step so that it records that it was called (for the warning of a scheduler stepped first)."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = weakref.ref(optimizer)
    func = type(optimizer).step

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        opt = opt_ref()
        opt._opt_called = True
        return func(opt, *args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    optimizer.step = wrapper  # type: ignore[method-assign]


# ---------------------------------------------------------------------------- the base
class LRScheduler:
    """torch.optim.lr_scheduler.LRScheduler: base_lrs, last_epoch, step(), get_last_lr(), state_dict()."""

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(INITIAL_LR_MISSING.format(i))
        self.base_lrs: list[Any] = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        track_step_called(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's attributes but its optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Any]:
        """The learning rates of the last step(), one a group."""
        return self._last_lr

    def get_lr(self) -> list[Any]:
        raise NotImplementedError

    def warn_get_lr(self) -> None:
        """PyTorch's warning for get_lr() called outside step()."""
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=3)

    def step(self, epoch: int | None = None) -> None:
        """The next epoch's learning rates into the optimizer's groups (PyTorch's warnings included)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            set_group_value(group, "lr", lr)
        self._last_lr: list[Any] = group_values(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """The old name of LRScheduler."""


def lambdas_of(optimizer: Optimizer, lr_lambda: Any) -> list[Callable[[int], float]]:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise InvalidArgumentError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


class LambdaState(LRScheduler):
    """state_dict() and load_state_dict() of the schedulers with lr_lambdas (only callable objects' attributes)."""

    lr_lambdas: list[Callable[[int], float]]

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer; of lr_lambdas, the attributes of those that are callable objects."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for fn, saved in zip(self.lr_lambdas, lr_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class LambdaLR(LambdaState):
    """Each group's lr: its initial lr times lr_lambda(epoch)."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = lambdas_of(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        return [base_lr * fn(self.last_epoch) for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(LambdaState):
    """Each group's lr times lr_lambda(epoch) at every step."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = lambdas_of(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise WrongTypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self._is_initial:
            return group_values(self.optimizer, "lr")
        groups = self.optimizer.param_groups
        return [g["lr"] * fn(self.last_epoch) for fn, g in zip(self.lr_lambdas, groups, strict=True)]


class StepLR(LRScheduler):
    """Every step_size epochs, each group's lr times gamma."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return group_values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """At each milestone, each group's lr times gamma (times gamma**k for a milestone given k times)."""

    def __init__(self, optimizer: Optimizer, milestones: Any, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self.last_epoch not in self.milestones:
            return group_values(self.optimizer, "lr")
        return [g["lr"] * self.gamma ** self.milestones[self.last_epoch] for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ConstantLR(LRScheduler):
    """Each group's lr times factor until total_iters epochs."""

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise InvalidArgumentError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self.last_epoch == 0:
            return [g["lr"] * self.factor for g in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return group_values(self.optimizer, "lr")
        return [g["lr"] * (1.0 / self.factor) for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        return [base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Each group's lr from start_factor to end_factor times its initial lr, linearly over total_iters epochs."""

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise InvalidArgumentError(
                "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise InvalidArgumentError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self.last_epoch == 0:
            return [g["lr"] * self.start_factor for g in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return group_values(self.optimizer, "lr")
        change = self.end_factor - self.start_factor
        return [g["lr"] * (1.0 + change / (self.total_iters * self.start_factor + (self.last_epoch - 1) * change))
                for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        return [base_lr * (self.start_factor + (self.end_factor - self.start_factor)
                           * min(self.total_iters, self.last_epoch) / self.total_iters) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Each group's lr times gamma every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self._is_initial:
            return group_values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Each group's lr decayed as (1 - epoch / total_iters) ** power of its initial lr."""

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        if self._is_initial or self.last_epoch > self.total_iters:
            return group_values(self.optimizer, "lr")
        decay = ((1.0 - self.last_epoch / self.total_iters)
                 / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [g["lr"] * decay for g in self.optimizer.param_groups]

    def closed_form_lr(self) -> list[Any]:
        return [base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
                for base_lr in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Each group's lr along a cosine from its initial lr to eta_min over T_max epochs (and back)."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        groups, eta_min, t_max, epoch = self.optimizer.param_groups, self.eta_min, self.T_max, self.last_epoch
        if self._is_initial:
            return group_values(self.optimizer, "lr")
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base_lr - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                    for base_lr, _ in zip(self.base_lrs, groups, strict=True)]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [g["lr"] + (base_lr - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base_lr, g in zip(self.base_lrs, groups, strict=True)]
        return [(1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (g["lr"] - eta_min) + eta_min for g in groups]

    def closed_form_lr(self) -> list[Any]:
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base_lr in self.base_lrs]


SIMPLE_SCHEDULERS = {cls.__name__: cls for cls in (
    LRScheduler, _LRScheduler, LambdaLR, MultiplicativeLR, StepLR, MultiStepLR, ConstantLR, LinearLR, ExponentialLR,
    PolynomialLR, CosineAnnealingLR)}
