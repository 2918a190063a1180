"""autodiff.engine: a numpy autograd engine with PyTorch's names and backward semantics.

    >>> from autodiff import engine as torch
    >>> x = torch.tensor(1.5, requires_grad=True)
    >>> y = (2 * x) ** 3
    >>> y.backward()
    >>> x.grad
    tensor(54.)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import functions as _functions
from .autograd import AccumulateGrad, Node, backward, grad
from .errors import (
    KINDS,
    AutodiffError,
    AutogradError,
    BadValueError,
    InputError,
    LimitError,
    ParseError,
    ShapeError,
    UnknownNameError,
    UsageError,
)
from .functions import BUILTINS, Builtin, MinMax, apply, getitem, manual_seed, setitem
from .ops import OPS, Grad, Op
from .tensor import STATE, Size, Tensor, as_dtype

float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)

# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ...
globals().update({name: entry.fn for name, entry in BUILTINS.items()})


class _GradMode(contextlib.ContextDecorator):
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __enter__(self) -> None:
        self.previous = STATE.grad_enabled
        STATE.grad_enabled = self.enabled

    def __exit__(self, *exc: object) -> None:
        STATE.grad_enabled = self.previous


def no_grad() -> _GradMode:
    """Context manager (or decorator) in which operations are not recorded."""
    return _GradMode(False)


def enable_grad() -> _GradMode:
    return _GradMode(True)


def set_grad_enabled(mode: bool) -> _Restore:
    """Switch recording on or off; also usable as a context manager that restores the previous mode."""
    previous = STATE.grad_enabled
    STATE.grad_enabled = bool(mode)
    return _Restore(previous)


class _Restore(contextlib.AbstractContextManager):
    def __init__(self, previous: bool) -> None:
        self.previous = previous

    def __exit__(self, *exc: object) -> None:
        STATE.grad_enabled = self.previous


def is_grad_enabled() -> bool:
    return STATE.grad_enabled


def set_default_dtype(dtype: Any) -> None:
    """The dtype of new tensors made from numbers and lists ('float32' or 'float64')."""
    STATE.default_dtype = as_dtype(dtype)


def get_default_dtype() -> np.dtype:
    return STATE.default_dtype


def set_max_elements(limit: int | None) -> None:
    """Refuse (LimitError, before allocating) any tensor with more elements than limit; None: no limit."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise BadValueError(f"the element limit must be a positive integer, got {limit!r}")
    STATE.max_elements = limit


@contextlib.contextmanager
def detect_anomaly(check_nan: bool = True) -> Iterator[None]:
    """Within it, backward stops at the first node whose gradient has a nan, naming where it was made."""
    previous = STATE.anomaly
    STATE.anomaly = check_nan
    try:
        yield
    finally:
        STATE.anomaly = previous


@contextlib.contextmanager
def forward_context(label: object) -> Iterator[None]:
    """Label the nodes recorded inside (e.g. with the statement that created them) for anomaly reports."""
    previous = STATE.forward_context
    STATE.forward_context = label
    try:
        yield
    finally:
        STATE.forward_context = previous


__all__ = [
    "BUILTINS", "KINDS", "OPS", "AccumulateGrad", "AutodiffError", "AutogradError", "BadValueError", "Builtin",
    "Grad", "InputError", "LimitError", "MinMax", "Node", "Op", "ParseError", "ShapeError", "Size", "Tensor",
    "UnknownNameError", "UsageError", "apply", "backward", "detect_anomaly", "enable_grad", "float32", "float64",
    "forward_context", "get_default_dtype", "getitem", "grad", "is_grad_enabled", "manual_seed", "no_grad",
    "set_default_dtype", "set_grad_enabled", "set_max_elements", "setitem", *BUILTINS,
]
del _functions
