"""torch.optim's Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD and Adafactor, each in PyTorch's single-tensor order of
operations (the one it runs on the CPU) with its roundings (see optimizer.py): the numbers of an option cast to
the parameter's dtype where PyTorch's kernels cast them, state['step'] (and NAdam's mu_product, ASGD's eta and mu)
float32 tensors as PyTorch keeps them. Rprop and ASGD use no square root and equal PyTorch bit for bit; the others
within a few ulps (PyTorch's CPU sqrt, see optimizer.py; Adafactor's norms also add in numpy's order)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.tensor import Tensor
from .optimizer import (
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

NO_STATE = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}


def float32_tensor(value: float) -> Tensor:
    return Tensor._make(np.asarray(value, np.float32))


def with_weight_decay(p: Tensor, grad: np.ndarray, group: dict[str, Any]) -> np.ndarray:
    """grad + weight_decay * p (L2), or p scaled by 1 - lr * weight_decay first (decoupled, as AdamW)."""
    decay = group["weight_decay"]
    if decay == 0:
        return grad
    if group.get("decoupled_weight_decay"):
        write(p, p._data * scalar(1 - group["lr"] * decay, p.dtype))
        return grad
    return add(grad, p._data, decay)


class Adadelta(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1.0, "rho": 0.9, "eps": 1e-6, "weight_decay": 0, "maximize": False, "capturable": False,
        "foreach": None, "differentiable": False}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "rho", "eps", "weight_decay", "foreach")

    def check(self, options: dict[str, Any]) -> None:
        require_lr(options)
        require(0.0 <= options["rho"] <= 1.0, f"Invalid rho value: {options['rho']}")
        require_nonnegative(options, "eps", "epsilon")
        require_nonnegative(options, "weight_decay")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=float32_tensor(0), square_avg=zeros_like(p), acc_delta=zeros_like(p))
        step_of(state)
        grad = with_weight_decay(p, grad, group)
        rho, eps = group["rho"], scalar(group["eps"], p.dtype)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        write(square_avg, addcmul(square_avg._data * scalar(rho, p.dtype), grad, grad, 1 - rho))
        std = np.sqrt(square_avg._data + eps)
        delta = np.sqrt(acc_delta._data + eps) / std * grad
        write(acc_delta, addcmul(acc_delta._data * scalar(rho, p.dtype), delta, delta, 1 - rho))
        write(p, add(p._data, delta, -group["lr"]))


class Adamax(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 2e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, **NO_STATE}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "betas", "eps", "weight_decay", "foreach")

    def check(self, options: dict[str, Any]) -> None:
        require_adam_options(options)

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=float32_tensor(0), exp_avg=zeros_like(p), exp_inf=zeros_like(p))
        step = step_of(state)
        grad = with_weight_decay(p, grad, group)
        (beta1, beta2), exp_avg, exp_inf = group["betas"], state["exp_avg"], state["exp_inf"]
        write(exp_avg, lerp(exp_avg._data, grad, 1 - beta1))
        write(exp_inf, np.maximum(exp_inf._data * scalar(beta2, p.dtype), np.abs(grad) + scalar(group["eps"], p.dtype)))
        clr = group["lr"] / (1 - beta1**step)
        write(p, addcdiv(p._data, exp_avg._data, exp_inf._data, -clr))


class NAdam(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 2e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "momentum_decay": 4e-3,
        "decoupled_weight_decay": False, "maximize": False, "foreach": None, "capturable": False,
        "differentiable": False}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "betas", "eps", "weight_decay", "momentum_decay",
                                             "decoupled_weight_decay")

    def check(self, options: dict[str, Any]) -> None:
        require_adam_options(options)
        require_nonnegative(options, "momentum_decay")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=float32_tensor(0), mu_product=float32_tensor(1), exp_avg=zeros_like(p),
                         exp_avg_sq=zeros_like(p))
        step = step_of(state)
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["momentum_decay"]
        bias_correction2 = 1 - beta2**step
        grad = with_weight_decay(p, grad, group)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        mu_product = state["mu_product"]
        write(mu_product, mu_product._data * np.float32(mu))
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        write(exp_avg, lerp(exp_avg._data, grad, 1 - beta1))
        write(exp_avg_sq, addcmul(exp_avg_sq._data * scalar(beta2, p.dtype), grad, grad, 1 - beta2))
        denom = np.sqrt(exp_avg_sq._data / scalar(bias_correction2, p.dtype)) + scalar(group["eps"], p.dtype)
        product = float(mu_product._data)
        mu_product_next = product * mu_next
        values = addcdiv(p._data, grad, denom, -lr * (1.0 - mu) / (1.0 - product))
        write(p, addcdiv(values, exp_avg._data, denom, -lr * mu_next / (1.0 - mu_product_next)))


class RAdam(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "maximize": False, "foreach": None,
        "capturable": False, "decoupled_weight_decay": False, "differentiable": False}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "betas", "eps", "weight_decay", "decoupled_weight_decay")

    def check(self, options: dict[str, Any]) -> None:
        require_adam_options(options)

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=float32_tensor(0), exp_avg=zeros_like(p), exp_avg_sq=zeros_like(p))
        step = step_of(state)
        lr, (beta1, beta2), dtype = group["lr"], group["betas"], p.dtype
        grad = with_weight_decay(p, grad, group)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        write(exp_avg, lerp(exp_avg._data, grad, 1 - beta1))
        write(exp_avg_sq, addcmul(exp_avg_sq._data * scalar(beta2, dtype), grad, grad, 1 - beta2))
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = exp_avg._data / scalar(bias_correction1, dtype) * scalar(lr, dtype)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2**step / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            root = np.sqrt(exp_avg_sq._data) + scalar(group["eps"], dtype)
            adaptive = np.asarray(1, dtype) / root * scalar(bias_correction2**0.5, dtype)  # scalar / t: 1/t * scalar
            corrected = corrected * adaptive * scalar(rect, dtype)
        write(p, add(p._data, corrected, -1.0))


class Rprop(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "etas": (0.5, 1.2), "step_sizes": (1e-6, 50), **NO_STATE}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "etas", "step_sizes")

    def check(self, options: dict[str, Any]) -> None:
        require_lr(options)
        etas = options["etas"]
        require(0.0 < etas[0] < 1.0 < etas[1], f"Invalid eta values: {etas[0]}, {etas[1]}")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        dtype = p.dtype
        if not state:
            state.update(step=float32_tensor(0), prev=zeros_like(p),
                         step_size=Tensor._make(np.full_like(grad, group["lr"])))
        step_of(state)
        (etaminus, etaplus), (smallest, largest) = group["etas"], group["step_sizes"]
        prev, step_size = state["prev"], state["step_size"]
        sign = np.sign(grad * prev._data)
        factor = np.where(sign > 0, scalar(etaplus, dtype), np.where(sign < 0, scalar(etaminus, dtype),
                                                                     np.asarray(1, dtype)))
        write(step_size, np.clip(step_size._data * factor, scalar(smallest, dtype), scalar(largest, dtype)))
        grad = np.where(factor == scalar(etaminus, dtype), np.asarray(0, dtype), grad)
        write(p, addcmul(p._data, np.sign(grad), step_size._data, -1))
        write(prev, grad)


class ASGD(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "lambd": 1e-4, "alpha": 0.75, "t0": 1e6, "weight_decay": 0, **NO_STATE}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "lambd", "alpha", "t0", "weight_decay", "foreach", "maximize",
                                             "differentiable", "capturable")

    def check(self, options: dict[str, Any]) -> None:
        require_lr(options)
        require_nonnegative(options, "weight_decay")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        lr, lambd = group["lr"], group["lambd"]
        if not state:
            state.update(step=float32_tensor(0), eta=float32_tensor(lr), mu=float32_tensor(1), ax=zeros_like(p))
        step = step_of(state)
        grad = add(grad, p._data, group["weight_decay"]) if group["weight_decay"] != 0 else grad
        eta = float(state["eta"]._data)
        values = p._data * scalar(1 - lambd * eta, p.dtype)
        write(p, add(values, grad, -eta))
        ax, mu = state["ax"], state["mu"]
        if float(mu._data) != 1:
            write(ax, ax._data + (p._data - ax._data) * mu._data.astype(p.dtype))
        else:
            write(ax, p._data)
        write(state["eta"], np.asarray(lr / (1 + lambd * lr * step) ** group["alpha"], np.float32))
        write(mu, np.asarray(1 / max(1, step - group["t0"]), np.float32))





def norm_of(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """The 2-norm (over axis, kept) in values' dtype, as torch.norm."""
    if axis is None:
        return np.sqrt(np.sum(values * values, dtype=values.dtype))
    return np.sqrt(np.sum(values * values, axis=axis, keepdims=True, dtype=values.dtype))


class Adafactor(Optimizer):
    """torch.optim.Adafactor: factored second moments (a row and a column factor for a matrix), relative steps."""

    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "beta2_decay": -0.8, "eps": (None, 1e-3), "d": 1.0, "weight_decay": 0.0, "foreach": None,
        "maximize": False}
    POSITIONAL: ClassVar[tuple[str, ...]] = ("lr", "beta2_decay", "eps", "d", "weight_decay")

    def check(self, options: dict[str, Any]) -> None:
        lr, eps, d = options["lr"], options["eps"], options["d"]
        require(0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}")  # noqa: SIM300 - PyTorch's order
        require(0.0 >= options["beta2_decay"], f"beta2_decay should be <= 0 but is: {options['beta2_decay']}")  # noqa: SIM300
        require(eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}")  # noqa: SIM300
        require(0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}")  # noqa: SIM300
        require(1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}")  # noqa: SIM300
        require(0.0 <= options["weight_decay"], f"weight_decay should be >= 0 but is: {options['weight_decay']}")  # noqa: SIM300

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        dtype = p._data.dtype
        if not state:
            state["step"] = float32_tensor(0)
            if grad.ndim > 1:
                state["row_var"] = Tensor._make(np.zeros((*grad.shape[:-1], 1), dtype))
                state["col_var"] = Tensor._make(np.zeros((*grad.shape[:-2], 1, grad.shape[-1]), dtype))
            else:
                state["variance"] = zeros_like(p)
        lr, (eps1, eps2) = group["lr"], group["eps"]
        eps1 = float(np.finfo(dtype).eps) if eps1 is None else eps1
        step = step_of(state)
        one_minus_beta2_t = step ** group["beta2_decay"]
        rho_t = min(lr, 1 / step**0.5)
        alpha = max(eps2, float(norm_of(p._data)) / p._data.size**0.5) * rho_t
        if group["weight_decay"] != 0:
            write(p, p._data * scalar(1 - lr * group["weight_decay"], dtype))
        if grad.ndim > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            write(row_var, lerp(row_var._data, np.square(norm_of(grad, -1)) / scalar(grad.shape[-1], dtype),
                                one_minus_beta2_t))
            write(col_var, lerp(col_var._data, np.square(norm_of(grad, -2)) / scalar(grad.shape[-2], dtype),
                                one_minus_beta2_t))
            estimate = np.matmul(row_var._data, col_var._data)
            estimate = estimate / np.maximum(np.mean(row_var._data, axis=-2, keepdims=True, dtype=dtype),
                                             scalar(eps1, dtype))
        else:
            variance = state["variance"]
            write(variance, lerp(variance._data, grad * grad, one_minus_beta2_t))
            estimate = variance._data.copy()
        update = np.asarray(1, dtype) / np.sqrt(np.maximum(estimate, scalar(eps1 * eps1, dtype))) * grad
        denom = max(1.0, float(norm_of(update)) / (update.size**0.5 * group["d"]))
        write(p, add(p._data, update, -alpha / denom))
MORE_OPTIMIZERS = {cls.__name__: cls for cls in (Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD, Adafactor)}
