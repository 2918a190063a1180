"""torch.optim.Optimizer (param_groups, state, step(closure), zero_grad(set_to_none), state_dict and
load_state_dict) and PyTorch's CPU kernels in numpy that the optimizers' updates are written in.

Each update follows PyTorch's single-tensor implementation (the one it runs on the CPU) in its order of
operations and roundings: the numbers of an option are cast to the parameter's dtype where PyTorch's kernels
cast them, and where its compiled kernels fuse a multiply and an add (add_ with alpha, addcmul_, lerp_, mul_
then add_) the result is rounded once (floatmath.fma32/fma64). So SGD's parameters equal PyTorch's bit for bit
step after step. One difference is known: PyTorch's CPU sqrt (Intel MKL's) is within one unit in the last
place of the exact square root that numpy computes, so Adam, AdamW, RMSprop and Adagrad can differ from
PyTorch in the last bit of an update.
"""

from __future__ import annotations

import copy
import functools
import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..core.modes import enable_grad, no_grad
from ..core.tensor import RemovableHandle, Tensor
from ..errors import BadValueError, InvalidArgumentError, WrongTypeError
from ..kernels.floatmath import fma32, fma64
from ..nn.module import zero_grad_of


# ---------------------------------------------------------------------------- PyTorch's kernels, in numpy
def scalar(value: float, dtype: np.dtype) -> np.ndarray:
    """A Python number as PyTorch's CPU kernels see it: cast to the tensor's dtype."""
    return np.asarray(value, dtype)


def fma(a: Any, b: Any, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once, in c's dtype (a compiled kernel's fused multiply-add)."""
    return fma32(a, b, c) if c.dtype == np.float32 else fma64(a, b, c)


def add(a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """a.add(b, alpha=alpha): fmadd(b, alpha, a)."""
    return fma(b, scalar(alpha, a.dtype), a)


def addcmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a.addcmul(b, c, value=value): a + value * b * c, the last multiply and the add fused."""
    return fma(scalar(value, a.dtype) * b, c, a)


def addcdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a.addcdiv(b, c, value=value): a + value * b / c."""
    return a + scalar(value, a.dtype) * b / c


def lerp(a: np.ndarray, b: np.ndarray, weight: float) -> np.ndarray:
    """a.lerp(b, weight): a + w * (b - a) for |w| < 0.5, else b + (w - 1) * (b - a), each fused."""
    w = scalar(weight, a.dtype)
    if abs(float(w)) < 0.5:
        return fma(w, b - a, a)
    return fma(w - np.asarray(1, a.dtype), b - a, b)


def write(t: Tensor, values: np.ndarray) -> None:
    """values into t's memory (in place, as PyTorch's optimizers update), its version moved on."""
    t._data[...] = values
    t._bump_version()


# ---------------------------------------------------------------------------- the optimizer
COMMON = {"maximize": False, "foreach": None, "differentiable": False}


def require(ok: bool, message: str) -> None:
    """PyTorch's ValueError for a bad option of an optimizer's constructor."""
    if not ok:
        raise InvalidArgumentError(message)


def require_lr(options: dict[str, Any]) -> None:
    require(0.0 <= options["lr"], f"Invalid learning rate: {options['lr']}")  # noqa: SIM300 - PyTorch's order: its TypeError


def require_betas(options: dict[str, Any]) -> None:
    betas = options["betas"]
    require(0.0 <= betas[0] < 1.0, f"Invalid beta parameter at index 0: {betas[0]}")
    require(0.0 <= betas[1] < 1.0, f"Invalid beta parameter at index 1: {betas[1]}")


def require_nonnegative(options: dict[str, Any], key: str, label: str | None = None) -> None:
    """0 <= options[key], else 'Invalid {label} value: ...' (label: the key unless PyTorch words it otherwise)."""
    require(0.0 <= options[key], f"Invalid {label or key} value: {options[key]}")  # noqa: SIM300 - as PyTorch


def require_adam_options(options: dict[str, Any]) -> None:
    """The checks of Adam and its kin (Adamax, NAdam, RAdam), in PyTorch's order: lr, eps, betas, weight_decay."""
    require_lr(options)
    require_nonnegative(options, "eps", "epsilon")
    require_betas(options)
    require_nonnegative(options, "weight_decay")


def typename(value: Any) -> str:
    """torch.typename: torch.FloatTensor for a float32 tensor, the type's name for the rest."""
    if isinstance(value, Tensor):
        return {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "int64": "torch.LongTensor"}.get(
            str(value._data.dtype), "torch.Tensor")
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def with_step_hooks(step: Callable[..., Any]) -> Callable[..., Any]:
    """step() that runs the optimizer's step pre-hooks first (which may replace its arguments) and its post-hooks
    after, as PyTorch's Optimizer wraps every optimizer's step."""

    @functools.wraps(step)
    def hooked(*args: Any, **kwargs: Any) -> Any:
        self = args[0]  # the hooks see step()'s arguments with the optimizer first, as PyTorch's
        for hook in list(getattr(self, "step_pre_hooks", ())):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise BadValueError(f"{step} must return None or a tuple of (new_args, new_kwargs), but got "
                                        f"{result}.")
                args, kwargs = result
        out = step(*args, **kwargs)
        for hook in list(getattr(self, "step_post_hooks", ())):
            hook(self, args, kwargs)
        return out

    hooked.with_hooks = True  # type: ignore[attr-defined]
    return hooked


def user_defaults(args: tuple, options: dict[str, Any]) -> dict[str, Any]:
    """The defaults a script's own Optimizer subclass passes: Optimizer.__init__(self, params, defaults)."""
    given = [*args, *options.values()]
    if len(given) != 1 or set(options) - {"defaults"}:
        raise WrongTypeError("Optimizer.__init__() takes 3 positional arguments: 'self', 'params' and 'defaults'")
    return dict(given[0])


class Optimizer:
    """torch.optim.Optimizer: param_groups (dicts: 'params' and the options), state (per parameter)."""

    DEFAULTS: ClassVar[dict[str, Any]] = {}
    POSITIONAL: ClassVar[tuple[str, ...]] = ()  # the options PyTorch's constructor takes by position, in order

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's own step() (a script's optimizer's too) runs the step hooks, as PyTorch's."""
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if callable(step) and not getattr(step, "with_hooks", False):
            cls.step = with_step_hooks(step)  # type: ignore[method-assign]

    def __init__(self, params: Any, *args: Any, **options: Any) -> None:
        """The engine's optimizers take their options (by name or PyTorch's positions); a script's own subclass
        calls Optimizer.__init__(params, defaults) as PyTorch's."""
        if type(self).DEFAULTS is Optimizer.DEFAULTS:
            self.defaults = user_defaults(args, options)
        else:
            self.defaults = self.options_of(args, options)
            self.check(self.defaults)
        self.param_groups: list[dict[str, Any]] = []
        self.state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        self.step_pre_hooks: list[Callable[..., Any]] = []
        self.step_post_hooks: list[Callable[..., Any]] = []
        if isinstance(params, Tensor):
            raise WrongTypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                                 f"but got {typename(params)}")
        groups = list(params)
        if not groups:
            raise InvalidArgumentError("optimizer got an empty parameter list")
        for group in groups if isinstance(groups[0], dict) else [{"params": groups}]:
            self.add_param_group(group)

    def options_of(self, args: tuple, options: dict[str, Any]) -> dict[str, Any]:
        """The defaults with the options given by position and by name, as Python binds PyTorch's signature."""
        name = type(self).__name__
        if len(args) > len(self.POSITIONAL):
            raise WrongTypeError(f"{name}.__init__() takes from 2 to {len(self.POSITIONAL) + 2} positional arguments "
                                 f"but {len(args) + 2} were given")
        for key, value in zip(self.POSITIONAL, args):
            if key in options:
                raise WrongTypeError(f"{name}.__init__() got multiple values for argument '{key}'")
            options[key] = value
        unknown = [k for k in options if k not in self.DEFAULTS]
        if unknown:
            raise WrongTypeError(f"{name}.__init__() got an unexpected keyword argument '{unknown[0]}'")
        return {**self.DEFAULTS, **options}

    def check(self, options: dict[str, Any]) -> None:
        """PyTorch's checks of the constructor's options (ValueError); none for a script's own optimizer."""

    def add_param_group(self, param_group: Any) -> None:
        """A group of parameters with options of its own (the others from the optimizer's defaults)."""
        if not isinstance(param_group, dict):
            raise WrongTypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, set):
            raise WrongTypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                                 "of tensors in sets will change between runs. Please use a list instead.")
        params = param_group["params"] = [params] if isinstance(params, Tensor) else list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]
        if names:
            if len(names) != len(params):
                raise InvalidArgumentError("all optimizer params should be with/without names. Some param names are "
                                           "missing")
            params = param_group["params"] = [p[1] for p in params]
            param_group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                raise WrongTypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not (p.is_leaf or p.retains_grad):
                raise InvalidArgumentError("can't optimize a non-leaf Tensor")
        for key, value in self.defaults.items():
            param_group.setdefault(key, value)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                raise InvalidArgumentError(
                    "all optimizer param groups should be with/without names. cannot add param group "
                    f"{'with names' if 'param_names' in param_group else 'without names'} to the optimizer")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise InvalidArgumentError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

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

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """hook(optimizer, args, kwargs) before each step(): None, or the (args, kwargs) step() then takes."""
        self.step_pre_hooks.append(hook)
        return RemovableHandle(self.step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """hook(optimizer, args, kwargs) after each step()."""
        self.step_post_hooks.append(hook)
        return RemovableHandle(self.step_post_hooks, hook)

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

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """The groups' options and the parameters' state of a state_dict() (parameters matched by position)."""
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(self.param_groups) != len(saved_groups):
            raise InvalidArgumentError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise InvalidArgumentError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        id_map = {i: p for g, s in zip(self.param_groups, saved_groups) for i, p in zip(s["params"], g["params"])}
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for key, values in state_dict["state"].items():
            if key not in id_map:
                state[key] = values
                continue
            param = id_map[key]
            state[param] = {name: cast_state(param, name, value) for name, value in values.items()}
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.state = state
        self.param_groups = saved_groups

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


Optimizer.step = with_step_hooks(Optimizer.step)  # type: ignore[method-assign]


def cast_state(param: Tensor, key: str, value: Any) -> Any:
    """A loaded state tensor in the parameter's dtype (a copy only if it differs; 'step' kept), as PyTorch."""
    if not isinstance(value, Tensor) or key == "step" or value._data.dtype == param._data.dtype:
        return value
    if not np.issubdtype(param._data.dtype, np.floating):
        return value
    return Tensor._make(value._data.astype(param._data.dtype))


def zeros_like(p: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(p._data))


def step_of(state: dict[str, Any]) -> float:
    """state['step'] += 1 (a float32 tensor, as PyTorch keeps it); its value as a Python number."""
    step = state["step"]
    write(step, step._data + np.float32(1))
    return float(step._data)


