"""torch.optim.swa_utils: AveragedModel (stochastic weight averaging, or an exponential moving average with
get_ema_multi_avg_fn), SWALR (the SWA learning rate, annealed to), update_bn (the batch norms' statistics
recomputed over a loader) and the averaging functions, as PyTorch's (2.13) on the CPU: AveragedModel averages with
get_swa_avg_fn tensor by tensor unless given a function."""

from __future__ import annotations

import copy
import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.modes import no_grad
from ..core.tensor import Tensor
from ..errors import InvalidArgumentError
from ..nn.module import Module
from .optimizer import Optimizer, lerp, write
from .schedulers import LRScheduler, format_param


def check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise InvalidArgumentError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """Each averaged tensor lerped toward the model's by 1 - decay (in place)."""
    check_decay(decay)

    def ema_update(ema_param_list: Any, current_param_list: Any, _: Any) -> None:
        for ema, current in zip(ema_param_list, current_param_list, strict=True):
            if np.issubdtype(ema._data.dtype, np.floating):
                write(ema, lerp(ema._data, current._data, 1 - decay))
            else:
                write(ema, (ema._data * decay + current._data * (1 - decay)).astype(ema._data.dtype))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """Each averaged tensor lerped toward the model's by 1 / (n + 1): the running mean (in place)."""

    def swa_update(averaged_param_list: Any, current_param_list: Any, num_averaged: Any) -> None:
        weight = float(np.float32(1) / np.float32(float(num_averaged) + 1))  # 1 / (n + 1): a float32 tensor
        for averaged, current in zip(averaged_param_list, current_param_list, strict=True):
            write(averaged, lerp(averaged._data, current._data, weight))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Any]:
    """decay * averaged + (1 - decay) * current."""
    check_decay(decay)

    def ema_update(ema_param: Any, current_param: Any, num_averaged: Any) -> Any:
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., Any]:
    """averaged + (current - averaged) / (n + 1): the running mean."""

    def swa_update(averaged_param: Any, current_param: Any, num_averaged: Any) -> Any:
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of a model whose parameters are the average of the model's over update_parameters() calls."""

    def __init__(self, model: Module, device: Any = None, avg_fn: Callable[..., Any] | None = None,
                 multi_avg_fn: Callable[..., None] | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        self.register_buffer("n_averaged", Tensor._make(np.zeros((), np.int64)))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """The average moved toward model's parameters (and buffers, with use_buffers; else its buffers copied)."""
        if self.use_buffers:
            own = list(itertools.chain(self.module.parameters(), self.module.buffers()))
            theirs = list(itertools.chain(model.parameters(), model.buffers()))
        else:
            own, theirs = list(self.parameters()), list(model.parameters())
        count = int(self.n_averaged._data)
        pairs = list(zip(own, theirs))
        with no_grad():
            if count == 0:
                for averaged, current in pairs:
                    write(averaged, current._data)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn([a.detach() for a, _ in pairs], [c.detach() for _, c in pairs], self.n_averaged)
            else:
                avg_fn = self.avg_fn or get_swa_avg_fn()
                for averaged, current in pairs:
                    write(averaged, avg_fn(averaged.detach(), current.detach(), self.n_averaged)._data)
            if not self.use_buffers:
                for own_buffer, buffer in zip(self.module.buffers(), model.buffers(), strict=True):
                    write(own_buffer, buffer._data)
            write(self.n_averaged, self.n_averaged._data + 1)


def is_batch_norm(module: Any) -> bool:
    return any(kind.__name__ == "_BatchNorm" for kind in type(module).__mro__)


def update_bn(loader: Any, model: Module, device: Any = None) -> None:
    """The batch norms' running statistics recomputed as cumulative averages over one pass of loader."""
    momenta = {}
    for module in model.modules():
        if is_batch_norm(module):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with no_grad():
        for batch in loader:
            model(batch[0] if isinstance(batch, (list, tuple)) else batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Each group's lr annealed (cos or linear) to swa_lr over anneal_epochs, then held there."""

    def __init__(self, optimizer: Optimizer, swa_lr: Any, anneal_epochs: int = 10, anneal_strategy: str = "cos",
                 last_epoch: int = -1) -> None:
        swa_lrs = format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise InvalidArgumentError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise InvalidArgumentError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = cosine_anneal if anneal_strategy == "cos" else linear_anneal

    def get_lr(self) -> list[Any]:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
                          UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev_lrs = [initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(self.optimizer.param_groups, prev_lrs,
                                                                        strict=True)]

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer and the annealing function."""
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)


def linear_anneal(t: float) -> float:
    return t


def cosine_anneal(t: float) -> float:
    return (1 - math.cos(math.pi * t)) / 2


def initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
    """The lr before annealing by alpha, from the lr after it."""
    if alpha == 1:
        return swa_lr
    return (lr - alpha * swa_lr) / (1 - alpha)


SWA_UTILS = {"AveragedModel": AveragedModel, "SWALR": SWALR, "update_bn": update_bn,
             "get_ema_multi_avg_fn": get_ema_multi_avg_fn, "get_swa_multi_avg_fn": get_swa_multi_avg_fn,
             "get_ema_avg_fn": get_ema_avg_fn, "get_swa_avg_fn": get_swa_avg_fn}
