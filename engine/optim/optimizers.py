"""torch.optim's first optimizers: SGD (momentum, dampening, nesterov, weight_decay, maximize), Adam and AdamW
(amsgrad, maximize), RMSprop (centered, momentum) and Adagrad, each in PyTorch's single-tensor order of operations
(see optimizer.py for the roundings)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.tensor import Tensor
from ..kernels.floatmath import fma32
from ..kernels.parallel import owns_memory
from .optimizer import (
    COMMON,
    Optimizer,
    add,
    addcdiv,
    addcmul,
    lerp,
    require,
    require_adam_options,
    require_lr,
    require_nonnegative,
    scalar,
    step_of,
    write,
    zeros_like,
)


class SGD(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-3, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False, **COMMON,
        "fused": None}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "momentum", "dampening", "weight_decay", "nesterov")

    def check(self, options: dict[str, Any]) -> None:
        require(not options["lr"] < 0.0, f"Invalid learning rate: {options['lr']}")
        require(not options["momentum"] < 0.0, f"Invalid momentum value: {options['momentum']}")
        require(not options["weight_decay"] < 0.0, f"Invalid weight_decay value: {options['weight_decay']}")
        require(not (options["nesterov"] and (options["momentum"] <= 0 or options["dampening"] != 0)),
                "Nesterov momentum requires a momentum and zero dampening")

    def update_group(self, params: list[Tensor], group: dict[str, Any]) -> None:
        """Plain SGD (no momentum, no weight decay) of float32 parameters, each the owner of its memory: p + (-lr)
        * grad is elementwise, so the group's parameters are updated as one flat array (one fma32 instead of one a
        parameter, which costs its dozen numpy calls even for a bias of 27), with the same bits."""
        if group["momentum"] != 0 or group["weight_decay"] != 0 or len(params) < 2 or any(
                p._data.dtype != np.float32 or p.grad._data.dtype != np.float32 or not owns_memory(p._data)
                or not p._data.flags.c_contiguous for p in params) or len({id(p) for p in params}) < len(params):
            super().update_group(params, group)
            return
        for p in params:
            self.state.setdefault(p, {})
        grads = np.concatenate([p.grad._data.reshape(-1) for p in params])
        values = fma32(-grads if group["maximize"] else grads, scalar(-group["lr"], np.dtype(np.float32)),
                       np.concatenate([p._data.reshape(-1) for p in params]))
        start = 0
        for p in params:
            write(p, values[start:start + p._data.size].reshape(p._data.shape))
            start += p._data.size

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if group["weight_decay"] != 0:
            grad = add(grad, p._data, group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = Tensor._make(np.array(grad, copy=True))
            else:
                write(buf, add(buf._data * scalar(momentum, buf.dtype), grad, 1 - group["dampening"]))
            grad = add(grad, buf._data, momentum) if group["nesterov"] else buf._data
        write(p, add(p._data, grad, -group["lr"]))


class Adam(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False, "maximize": False,
        "foreach": None, "capturable": False, "differentiable": False, "fused": None, "decoupled_weight_decay": False}

    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "betas", "eps", "weight_decay", "amsgrad")

    def check(self, options: dict[str, Any]) -> None:
        require_adam_options(options)

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)), exp_avg=zeros_like(p), exp_avg_sq=zeros_like(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        step = step_of(state)
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["weight_decay"]
        if decay != 0:
            if group["decoupled_weight_decay"]:
                write(p, p._data * scalar(1 - lr * decay, p.dtype))
            else:
                grad = add(grad, p._data, decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        write(exp_avg, lerp(exp_avg._data, grad, 1 - beta1))
        write(exp_avg_sq, addcmul(exp_avg_sq._data * scalar(beta2, p.dtype), grad, grad, 1 - beta2))
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        second = exp_avg_sq
        if group["amsgrad"]:
            second = state["max_exp_avg_sq"]
            write(second, np.maximum(second._data, exp_avg_sq._data))
        denom = np.sqrt(second._data) / scalar(bias_correction2_sqrt, p.dtype) + scalar(group["eps"], p.dtype)
        write(p, addcdiv(p._data, exp_avg._data, denom, -step_size))


class AdamW(Adam):
    DEFAULTS: ClassVar[dict[str, Any]] = {**Adam.DEFAULTS, "weight_decay": 1e-2, "decoupled_weight_decay": True}


class RMSprop(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "momentum": 0, "alpha": 0.99, "eps": 1e-8, "centered": False, "weight_decay": 0,
        "capturable": False, "foreach": None, "maximize": False, "differentiable": False}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "alpha", "eps", "weight_decay", "momentum", "centered",
                                             "capturable", "foreach", "maximize", "differentiable")

    def check(self, options: dict[str, Any]) -> None:
        require_lr(options)
        require_nonnegative(options, "eps", "epsilon")
        require_nonnegative(options, "momentum")
        require_nonnegative(options, "weight_decay")
        require_nonnegative(options, "alpha")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)), square_avg=zeros_like(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        step_of(state)
        if group["weight_decay"] != 0:
            grad = add(grad, p._data, group["weight_decay"])
        alpha, square_avg = group["alpha"], state["square_avg"]
        write(square_avg, addcmul(square_avg._data * scalar(alpha, p.dtype), grad, grad, 1 - alpha))
        if group["centered"]:
            grad_avg = state["grad_avg"]
            write(grad_avg, lerp(grad_avg._data, grad, 1 - alpha))
            avg = np.sqrt(addcmul(square_avg._data, grad_avg._data, grad_avg._data, -1))
        else:
            avg = np.sqrt(square_avg._data)
        avg = avg + scalar(group["eps"], p.dtype)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            write(buf, addcdiv(buf._data * scalar(group["momentum"], p.dtype), grad, avg, 1))
            write(p, add(p._data, buf._data, -group["lr"]))
        else:
            write(p, addcdiv(p._data, grad, avg, -group["lr"]))


class Adagrad(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "lr_decay": 0, "eps": 1e-10, "weight_decay": 0, "initial_accumulator_value": 0,
        "foreach": None, "maximize": False, "differentiable": False, "fused": None}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps",
                                             "foreach")

    def __init__(self, params: Any, *args: Any, **options: Any) -> None:
        """As PyTorch's, every parameter's state (step 0, sum = initial_accumulator_value) made at once."""
        super().__init__(params, *args, **options)
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p].update(step=Tensor._make(np.zeros((), np.float32)), sum=Tensor._make(
                    np.full_like(p._data, self.defaults["initial_accumulator_value"])))

    def check(self, options: dict[str, Any]) -> None:
        require_lr(options)
        for key in ("lr_decay", "weight_decay", "initial_accumulator_value"):
            require_nonnegative(options, key)
        require_nonnegative(options, "eps", "epsilon")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)),
                         sum=Tensor._make(np.full_like(p._data, group["initial_accumulator_value"])))
        step = step_of(state)
        if group["weight_decay"] != 0:
            grad = add(grad, p._data, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]
        write(total, addcmul(total._data, grad, grad, 1))
        std = np.sqrt(total._data) + scalar(group["eps"], p.dtype)
        write(p, addcdiv(p._data, grad, std, -clr))


OPTIMIZERS = {cls.__name__: cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad)}
