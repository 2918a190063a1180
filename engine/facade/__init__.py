"""`torch` as `autodiff run` and `autodiff repl` give it to a script: PyTorch's namespace over autodiff's engine.

The package mirrors PyTorch's layout (torch, torch.nn, torch.nn.functional, torch.optim, torch.autograd, torch.func,
torch.linalg, torch.utils.data, torch.distributions, ...); every name maps onto the engine, which does the work.
`installed()` puts the modules in `sys.modules` under PyTorch's names for the run of a script and takes them away
after it: importing autodiff never makes a `torch` (nor replaces a real one), and numpy, math, random or matplotlib
stay the real ones.
"""

from __future__ import annotations

import contextlib as _contextlib
import math as _math
import sys as _sys
from collections.abc import Iterator as _Iterator
from typing import Any as _Any

from autodiff import engine as _engine
from autodiff.engine import (
    Size,
    Tensor,
    get_default_dtype,
    is_anomaly_enabled,
    is_grad_enabled,
    set_default_dtype,
    set_grad_enabled,
    set_printoptions,
)
from autodiff.engine.core import devices as _devices
from autodiff.engine.core.devices import device
from autodiff.engine.random.generator import Generator, get_rng_state, initial_seed, set_rng_state

from . import functions

__version__ = "2.13.0+autodiff"  # the PyTorch release whose behaviour autodiff reproduces
pi, e, inf, nan = _math.pi, _math.e, _math.inf, _math.nan

# every built-in of the engine that PyTorch has as torch.NAME (constructors take device= and pin_memory=)
globals().update(functions.torch_functions())

from .grad_modes import enable_grad, inference_mode, no_grad
from .info import finfo, iinfo
from .serialization import load, save
from .tensors import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    as_tensor,
    from_numpy,
    is_floating_point,
    is_tensor,
    numel,
)


def where(condition: _Any, input: _Any = None, other: _Any = None) -> _Any:
    """torch.where(condition, input, other) elementwise; torch.where(condition): nonzero(condition, as_tuple=True)."""
    if input is None and other is None:
        return _engine.BUILTINS["nonzero"].fn(condition, as_tuple=True)
    return _engine.BUILTINS["where"].fn(condition, input, other)


def range(start: _Any = 0, end: _Any = None, step: _Any = 1, **options: _Any) -> _Any:
    """torch.range (deprecated in PyTorch, with its warning): start to end inclusive, in the default float dtype."""
    import warnings

    warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    return functions.on_the_cpu(_engine.BUILTINS["range"].fn)(start, end, step, **options)


def manual_seed(seed: _Any) -> Generator:
    """Seed PyTorch's default generator: the random numbers that follow are PyTorch's for that seed."""
    return _engine.manual_seed(seed) or _engine.default_generator()


def seed() -> int:
    """A new seed for the default generator, as torch.seed() draws one (from the system's entropy)."""
    import secrets

    chosen = secrets.randbits(63)
    manual_seed(chosen)
    return chosen


def set_num_threads(count: int) -> None:
    """Accepted (autodiff computes with numpy on the CPU; its thread count is numpy's own)."""


def get_num_threads() -> int:
    return 1


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Accepted: autodiff's algorithms are deterministic."""


def compile(model: _Any = None, **options: _Any) -> _Any:
    """torch.compile: the model (or function) itself, run as it is (there is no compiler here)."""
    if model is None:
        return lambda fn: fn
    return model


def get_default_device() -> device:
    return device("cpu")


def set_default_device(where: _Any) -> None:
    _devices.check_device(where)


# PyTorch's memory formats (torch.contiguous_format, torch.preserve_format, torch.channels_last, ...)
globals().update(_devices.MEMORY_FORMATS)
memory_format = _devices.memory_format

# PyTorch's dtypes, by every name it gives them (torch.float is torch.float32, torch.long is torch.int64)
globals().update(_engine.DTYPE_ALIASES)
dtype = _engine.DType

from . import (  # the submodules, which read the names above
    accelerator,
    autograd,
    backends,
    cuda,
    distributions,
    func,
    linalg,
    nn,
    optim,
    random,
    special,
    testing,
    utils,
)
from .func import vmap

del annotations

# What scripts reach for that autodiff does not have, with what to do instead
_MISSING = {name: "complex tensors are not available in autodiff (its tensors are real); keep the real and "
            "imaginary parts as two real tensors" for name in ("cfloat", "cdouble", "complex64", "complex128",
                                                                  "complex32", "view_as_complex", "polar", "complex")}


def __getattr__(name: str) -> _Any:
    """torch.default_generator (the process's generator, made on first use); an attribute torch has and autodiff
    does not: AttributeError, saying so (and what to do, where known)."""
    if name == "default_generator":
        return _engine.default_generator()
    hint = _MISSING.get(name)
    message = f"module 'torch' has no attribute '{name}'"
    raise AttributeError(f"{message}: {hint}" if hint else f"{message} (autodiff does not provide it)")

# ------------------------------------------------------------------------------------------------ installing
# PyTorch's module name -> the facade's module, for sys.modules
MODULES = {
    "torch": __name__,
    **{f"torch.{name}": f"{__name__}.{name}" for name in (
        "accelerator", "autograd", "autograd.functional", "autograd.forward_ad", "autograd.graph", "autograd.function",
        "autograd.profiler", "nn", "nn.functional", "nn.init", "nn.parameter", "nn.modules", "nn.utils", "optim",
        "optim.lr_scheduler", "optim.swa_utils", "func", "linalg", "special", "cuda", "backends", "backends.mps",
        "random", "testing", "utils", "utils.data", "distributions",
        *(f"distributions.{m}" for m in distributions.SUBMODULES))},
    "functorch": f"{__name__}.func",
    # torch.utils.data's submodules (one flat module each here)
    "torch.utils.data.dataset": f"{__name__}.utils.data", "torch.utils.data.dataloader": f"{__name__}.utils.data",
    "torch.utils.data.sampler": f"{__name__}.utils.samplers",
    "torch.optim.optimizer": f"{__name__}.optim",  # (from torch.optim.optimizer import Optimizer)
}


_WARNED: list = []  # PyTorch gives the warning of float(t) once a process (TORCH_WARN_ONCE)


def _scalar_warning() -> None:
    """PyTorch 2.13's warning for float(t) (and '%f' % t, math.sqrt(t)) of a tensor that requires grad."""
    if not _WARNED:
        _WARNED.append(True)
        import warnings

        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                      "Consider using tensor.detach() first.", UserWarning, stacklevel=3)


@_contextlib.contextmanager
def installed() -> _Iterator[None]:
    """PyTorch's module names answered by the facade inside the block; sys.modules as it was after it."""
    saved = {name: _sys.modules.get(name) for name in MODULES}
    renamed = set()
    for torch_name, own in MODULES.items():
        module = _sys.modules[own]
        if torch_name != "functorch" and own not in renamed:  # named as a script sees it (an ImportError says
            module.__name__ = torch_name                      # 'torch.nn', not ours)
            renamed.add(own)
        _sys.modules[torch_name] = module
    from autodiff.engine.core import tensor as _tensor

    warning, _tensor.SCALAR_WARNING[0] = _tensor.SCALAR_WARNING[0], _scalar_warning
    try:
        yield
    finally:
        _tensor.SCALAR_WARNING[0] = warning
        for name, module in saved.items():
            if module is None:
                _sys.modules.pop(name, None)
            else:
                _sys.modules[name] = module

