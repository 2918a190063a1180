"""torch.optim.lr_scheduler's cyclical schedulers: CyclicLR, OneCycleLR (both cycle the momentum, or Adam's beta1,
too) and CosineAnnealingWarmRestarts; PyTorch's (2.13) code, its arithmetic in Python floats."""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from functools import partial
from typing import Any

from ..errors import InvalidArgumentError
from .optimizer import Optimizer
from .schedulers import LRScheduler, check_optimizer, format_param, group_values, set_group_value

CYCLIC_MODES = ("triangular", "triangular2", "exp_range")
NO_MOMENTUM = "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"


def set_momentum(group: dict[str, Any], momentum: float, use_beta1: bool) -> None:
    """The group's momentum (beta1 of an optimizer with betas)."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def start_momentums(optimizer: Optimizer, base_momentum: Any, max_momentum: Any, first: bool) -> tuple[list, list]:
    """The groups' (base, max) momentums; each group starts at its max momentum when the schedule starts."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise InvalidArgumentError(NO_MOMENTUM)
    use_beta1 = "betas" in optimizer.defaults
    bases = format_param("base_momentum", optimizer, base_momentum)
    maxes = format_param("max_momentum", optimizer, max_momentum)
    if first:
        for top, bottom, group in zip(maxes, bases, optimizer.param_groups, strict=True):
            set_momentum(group, top, use_beta1)
            group["max_momentum"] = top
            group["base_momentum"] = bottom
    return bases, maxes


class CyclicLR(LRScheduler):
    """Each group's lr between base_lr and max_lr along triangles (the momentum the other way)."""

    def __init__(self, optimizer: Optimizer, base_lr: Any, max_lr: Any, step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum: float = 0.8, max_momentum: float = 0.9,
                 last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                set_group_value(group, "lr", lr)
        self.max_lrs = format_param("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in CYCLIC_MODES and scale_fn is None:
            raise InvalidArgumentError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums, self.max_momentums = start_momentums(
                optimizer, base_momentum, max_momentum, last_epoch == -1)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref: Callable[[float], float] = triangular_scale
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = triangular2_scale
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(exp_range_scale, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The amplitude's scale at cycle (or iteration) x."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        scale_factor = x / self.step_ratio if x <= self.step_ratio else (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(at)
               for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            momentums = [top - (top - bottom) * scale_factor * self.scale_fn(at)
                         for bottom, top in zip(self.base_momentums, self.max_momentums, strict=True)]
            for group, momentum in zip(self.optimizer.param_groups, momentums, strict=True):
                set_momentum(group, momentum, self.use_beta1)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer and the scale function (a callable object's attributes kept)."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


def triangular_scale(x: float) -> float:
    return 1.0


def triangular2_scale(x: float) -> float:
    return 1 / 2.0 ** (x - 1)


def exp_range_scale(gamma: float, x: float) -> float:
    return gamma**x


class CosineAnnealingWarmRestarts(LRScheduler):
    """Each group's lr along a cosine from its initial lr to eta_min, restarted after T_0, T_0 * T_mult, ... epochs."""

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise InvalidArgumentError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise InvalidArgumentError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise InvalidArgumentError(f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        return [self.eta_min + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
                for base_lr in self.base_lrs]

    def step(self, epoch: Any = None) -> None:
        """The next epoch (or epoch, fractional allowed): T_cur and T_i moved on, the lrs set."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise InvalidArgumentError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult**n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            lrs = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs, strict=True):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")


def one_cycle_phases(total_steps: int, pct_start: float, three_phase: bool) -> list[dict[str, Any]]:
    """OneCycleLR's phases: where each ends, and the group keys of its start and end lr and momentum."""
    up = {"end_step": float(pct_start * total_steps) - 1, "start_lr": "initial_lr", "end_lr": "max_lr",
          "start_momentum": "max_momentum", "end_momentum": "base_momentum"}
    if not three_phase:
        return [up, {"end_step": total_steps - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                     "start_momentum": "base_momentum", "end_momentum": "max_momentum"}]
    return [up, {"end_step": float(2 * pct_start * total_steps) - 2, "start_lr": "max_lr", "end_lr": "initial_lr",
                 "start_momentum": "base_momentum", "end_momentum": "max_momentum"},
            {"end_step": total_steps - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
             "start_momentum": "max_momentum", "end_momentum": "max_momentum"}]


def total_steps_of(total_steps: Any, epochs: Any, steps_per_epoch: Any) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise InvalidArgumentError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise InvalidArgumentError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise InvalidArgumentError(f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}")
        return epochs * steps_per_epoch
    raise InvalidArgumentError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def anneal_cos(start: float, end: float, pct: float) -> float:
    return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)


def anneal_linear(start: float, end: float, pct: float) -> float:
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr up from max_lr / div_factor to max_lr, then down far below (momentum the other way)."""

    def __init__(self, optimizer: Optimizer, max_lr: Any, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True, base_momentum: Any = 0.85,
                 max_momentum: Any = 0.95, div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None:
        check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = total_steps_of(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = one_cycle_phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise InvalidArgumentError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise InvalidArgumentError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = format_param("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.use_beta1 = "betas" in optimizer.defaults
            start_momentums(optimizer, base_momentum, max_momentum, last_epoch == -1)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self.warn_get_lr()
        anneal = anneal_cos if self._anneal_func_type == "cos" else anneal_linear
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise InvalidArgumentError(
                f"Tried to step {step_num} times. The specified number of total steps is {self.total_steps}")
        lrs = []
        last = len(self._schedule_phases) - 1
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step_num <= end_step or i == last:
                    pct = (step_num - start_step) / (end_step - start_step)
                    lrs.append(anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        set_momentum(group, anneal(group[phase["start_momentum"]], group[phase["end_momentum"]],
                                                   pct), self.use_beta1)
                    break
                start_step = phase["end_step"]
        return lrs


CYCLIC_SCHEDULERS = {cls.__name__: cls for cls in (CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR)}
