"""torch.optim: SGD (momentum, dampening, nesterov, weight_decay), Adam and AdamW (amsgrad), RMSprop (centered,
momentum) and Adagrad, with param_groups, state, step(closure) and zero_grad(set_to_none); and
lr_scheduler.StepLR.

Each update follows PyTorch's single-tensor implementation (the one it runs on the CPU) in its order of
operations and roundings: the numbers of an option are cast to the parameter's dtype where PyTorch's kernels
cast them, and where its compiled kernels fuse a multiply and an add (add_ with alpha, addcmul_, lerp_, mul_
then add_) the result is rounded once (floatmath.fma32/fma64). So SGD's parameters equal PyTorch's bit for bit
step after step. One difference is known: PyTorch's CPU sqrt (Intel MKL's) is within one unit in the last
place of the exact square root that numpy computes, so Adam, AdamW, RMSprop and Adagrad can differ from
PyTorch in the last bit of an update.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.modes import enable_grad, no_grad
from ..core.tensor import Tensor
from ..errors import BadValueError
from ..kernels.floatmath import fma32, fma64
from ..kernels.parallel import owns_memory
from ..nn.module import zero_grad_of


# ---------------------------------------------------------------------------- PyTorch's kernels, in numpy
def _scalar(value: float, dtype: np.dtype) -> np.ndarray:
    """A Python number as PyTorch's CPU kernels see it: cast to the tensor's dtype."""
    return np.asarray(value, dtype)


def fma(a: Any, b: Any, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, in c's dtype (a compiled kernel's fused multiply-add)."""
    return fma32(a, b, c) if c.dtype == np.float32 else fma64(a, b, c)


def add(a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """a.add(b, alpha=alpha): fmadd(b, alpha, a)."""
    return fma(b, _scalar(alpha, a.dtype), a)


def addcmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a.addcmul(b, c, value=value): a + value * b * c, the last multiply and the add fused."""
    return fma(_scalar(value, a.dtype) * b, c, a)


def addcdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a.addcdiv(b, c, value=value): a + value * b / c."""
    return a + _scalar(value, a.dtype) * b / c


def lerp(a: np.ndarray, b: np.ndarray, weight: float) -> np.ndarray:
    """a.lerp(b, weight): a + w * (b - a) for |w| < 0.5, else b + (w - 1) * (b - a), each fused."""
    w = _scalar(weight, a.dtype)
    if abs(float(w)) < 0.5:
        return fma(w, b - a, a)
    return fma(w - np.asarray(1, a.dtype), b - a, b)


def _write(t: Tensor, values: np.ndarray) -> None:
    """values into t's memory (in place, as PyTorch's optimizers update), its version moved on."""
    t._data[...] = values
    t._bump_version()


# ---------------------------------------------------------------------------- the optimizer
COMMON = {"maximize": False, "foreach": None, "differentiable": False}


class Optimizer:
    """torch.optim.Optimizer: param_groups (dicts: 'params' and the options), state (per parameter)."""

    DEFAULTS: ClassVar[dict[str, Any]] = {}

    def __init__(self, params: Any, **options: Any) -> None:
        unknown = [k for k in options if k not in self.DEFAULTS]
        if unknown:
            raise BadValueError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{unknown[0]}'",
                                reason="arguments")
        self.defaults = {**self.DEFAULTS, **options}
        self.check(self.defaults)
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[Tensor, dict[str, Any]] = {}
        if isinstance(params, Tensor):
            raise BadValueError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                                "but got torch.FloatTensor", reason="optimizer")
        groups = list(params)
        if not groups:
            raise BadValueError("optimizer got an empty parameter list", reason="optimizer")
        for group in groups if isinstance(groups[0], dict) else [{"params": groups}]:
            self.add_param_group(group)

    def check(self, options: dict[str, Any]) -> None:
        lr = options.get("lr")
        if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not lr >= 0:
            raise BadValueError(f"Invalid learning rate: {lr}", reason="optimizer")
        for key in ("momentum", "weight_decay", "eps", "lr_decay", "initial_accumulator_value", "alpha"):
            value = options.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise BadValueError(f"Invalid {key.replace('_', ' ')} value: {value}", reason="optimizer")

    def add_param_group(self, param_group: Any) -> None:
        """A group of parameters with options of its own (the others from the optimizer's defaults)."""
        if not isinstance(param_group, dict):
            raise BadValueError(f"param_group must be a dict, but got {type(param_group).__name__}",
                                reason="optimizer")
        params = param_group.get("params")
        params = [params] if isinstance(params, Tensor) else list(params) if params is not None else []
        for p in params:
            if not isinstance(p, Tensor):
                raise BadValueError(f"optimizer can only optimize Tensors, but one of the params is "
                                    f"{type(p).__name__}", reason="optimizer")
            if not p.is_leaf:
                raise BadValueError("can't optimize a non-leaf Tensor", reason="optimizer")
        group = {**param_group, "params": params}
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        self.check(group)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise BadValueError("some parameters appear in more than one parameter group", reason="optimizer")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                zero_grad_of(p, set_to_none)

    def step(self, closure: Any = None) -> Any:
        """One update of every parameter that has a gradient (closure: re-evaluates the loss first)."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                self.update_group([p for p in group["params"] if p.grad is not None], group)
        return loss

    def update_group(self, params: list[Tensor], group: dict[str, Any]) -> None:
        """One update of each parameter of a group that has a gradient, in order."""
        for p in params:
            grad = p.grad._data
            self.update(p, -grad if group["maximize"] else grad, group, self.state.setdefault(p, {}))

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        raise NotImplementedError  # pragma: no cover - every optimizer defines it

    def state_dict(self) -> dict[str, Any]:
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            numbers = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": numbers})
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index and s}
        return {"state": state, "param_groups": groups}

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _zeros(p: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(p._data))


def _step_of(state: dict[str, Any]) -> float:
    """state['step'] += 1 (a float32 tensor, as PyTorch keeps it); its value as a Python number."""
    step = state["step"]
    _write(step, step._data + np.float32(1))
    return float(step._data)


class SGD(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-3, "momentum": 0, "dampening": 0, "weight_decay": 0, "nesterov": False, **COMMON,
        "fused": None}

    def check(self, options: dict[str, Any]) -> None:
        super().check(options)
        if options["nesterov"] and (options["momentum"] <= 0 or options["dampening"] != 0):
            raise BadValueError("Nesterov momentum requires a momentum and zero dampening", reason="optimizer")

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
        values = fma32(-grads if group["maximize"] else grads, _scalar(-group["lr"], np.dtype(np.float32)),
                       np.concatenate([p._data.reshape(-1) for p in params]))
        start = 0
        for p in params:
            _write(p, values[start:start + p._data.size].reshape(p._data.shape))
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
                _write(buf, add(buf._data * _scalar(momentum, buf.dtype), grad, 1 - group["dampening"]))
            grad = add(grad, buf._data, momentum) if group["nesterov"] else buf._data
        _write(p, add(p._data, grad, -group["lr"]))


class Adam(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False, "maximize": False,
        "foreach": None, "capturable": False, "differentiable": False, "fused": None, "decoupled_weight_decay": False}

    def check(self, options: dict[str, Any]) -> None:
        super().check(options)
        betas = options["betas"]
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise BadValueError(f"betas must be a pair of numbers, got {betas!r}", reason="optimizer")
        for i, beta in enumerate(betas):
            if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0.0 <= beta < 1.0:
                raise BadValueError(f"Invalid beta parameter at index {i}: {beta}", reason="optimizer")

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)), exp_avg=_zeros(p), exp_avg_sq=_zeros(p))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _zeros(p)
        step = _step_of(state)
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["weight_decay"]
        if decay != 0:
            if group["decoupled_weight_decay"]:
                _write(p, p._data * _scalar(1 - lr * decay, p.dtype))
            else:
                grad = add(grad, p._data, decay)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        _write(exp_avg, lerp(exp_avg._data, grad, 1 - beta1))
        _write(exp_avg_sq, addcmul(exp_avg_sq._data * _scalar(beta2, p.dtype), grad, grad, 1 - beta2))
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        second = exp_avg_sq
        if group["amsgrad"]:
            second = state["max_exp_avg_sq"]
            _write(second, np.maximum(second._data, exp_avg_sq._data))
        denom = np.sqrt(second._data) / _scalar(bias_correction2_sqrt, p.dtype) + _scalar(group["eps"], p.dtype)
        _write(p, addcdiv(p._data, exp_avg._data, denom, -step_size))


class AdamW(Adam):
    DEFAULTS: ClassVar[dict[str, Any]] = {**Adam.DEFAULTS, "weight_decay": 1e-2, "decoupled_weight_decay": True}


class RMSprop(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "momentum": 0, "alpha": 0.99, "eps": 1e-8, "centered": False, "weight_decay": 0,
        "capturable": False, "foreach": None, "maximize": False, "differentiable": False}

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)), square_avg=_zeros(p))
            if group["momentum"] > 0:
                state["momentum_buffer"] = _zeros(p)
            if group["centered"]:
                state["grad_avg"] = _zeros(p)
        _step_of(state)
        if group["weight_decay"] != 0:
            grad = add(grad, p._data, group["weight_decay"])
        alpha, square_avg = group["alpha"], state["square_avg"]
        _write(square_avg, addcmul(square_avg._data * _scalar(alpha, p.dtype), grad, grad, 1 - alpha))
        if group["centered"]:
            grad_avg = state["grad_avg"]
            _write(grad_avg, lerp(grad_avg._data, grad, 1 - alpha))
            avg = np.sqrt(addcmul(square_avg._data, grad_avg._data, grad_avg._data, -1))
        else:
            avg = np.sqrt(square_avg._data)
        avg = avg + _scalar(group["eps"], p.dtype)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            _write(buf, addcdiv(buf._data * _scalar(group["momentum"], p.dtype), grad, avg, 1))
            _write(p, add(p._data, buf._data, -group["lr"]))
        else:
            _write(p, addcdiv(p._data, grad, avg, -group["lr"]))


class Adagrad(Optimizer):
    DEFAULTS: ClassVar[dict[str, Any]] = {
        "lr": 1e-2, "lr_decay": 0, "eps": 1e-10, "weight_decay": 0, "initial_accumulator_value": 0,
        "foreach": None, "maximize": False, "differentiable": False, "fused": None}

    def update(self, p: Tensor, grad: np.ndarray, group: dict[str, Any], state: dict[str, Any]) -> None:
        if not state:
            state.update(step=Tensor._make(np.zeros((), np.float32)),
                         sum=Tensor._make(np.full_like(p._data, group["initial_accumulator_value"])))
        step = _step_of(state)
        if group["weight_decay"] != 0:
            grad = add(grad, p._data, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]
        _write(total, addcmul(total._data, grad, grad, 1))
        std = np.sqrt(total._data) + _scalar(group["eps"], p.dtype)
        _write(p, addcdiv(p._data, grad, std, -clr))


# ---------------------------------------------------------------------------- learning-rate schedulers
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


OPTIMIZERS = {cls.__name__: cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad)}
SCHEDULERS = {"StepLR": StepLR}
