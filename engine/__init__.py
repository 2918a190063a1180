"""autodiff.engine: a numpy autograd engine with PyTorch's names and backward semantics.

    >>> from autodiff import engine as torch
    >>> x = torch.tensor(1.5, requires_grad=True)
    >>> y = (2 * x) ** 3
    >>> y.backward()
    >>> x.grad
    tensor(54.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import calculus as _calculus
from . import constructors as _constructors
from . import distributions as _distributions  # randint, randperm, normal, bernoulli, multinomial
from . import functions as _functions
from . import logic as _logic
from . import losses as _losses  # registers the loss functions of torch.nn.functional
from . import methods as _methods  # installs the Tensor operators and methods
from .autograd import backward, grad
from .constructors import manual_seed
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
from .formatting import set_printoptions
from .functions import MinMax
from .graph import AccumulateGrad, Node, grad_node, graph_bytes, graph_size
from .indexing import getitem, setitem
from .modes import (
    GradMode,
    detect_anomaly,
    enable_grad,
    forward_context,
    is_anomaly_enabled,
    is_grad_enabled,
    no_grad,
    observe,
    set_grad_enabled,
)
from .ops import GROUPS as OP_GROUPS
from .ops import OPS, Grad, Op
from .recording import apply
from .registry import BUILTINS, Builtin
from .tensor import STATE, RemovableHandle, Size, Tensor, as_dtype

float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)

# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ...
globals().update({name: entry.fn for name, entry in BUILTINS.items()})


def set_default_dtype(dtype: Any) -> None:
    """The dtype of new tensors made from numbers and lists ('float32' or 'float64')."""
    STATE.default_dtype = as_dtype(dtype)


def get_default_dtype() -> np.dtype:
    return STATE.default_dtype


def get_max_elements() -> int | None:
    return STATE.max_elements


def set_max_elements(limit: int | None) -> None:
    """Refuse (LimitError, before allocating) any tensor with more elements than limit; None: no limit."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise BadValueError(f"the element limit must be a positive integer, got {limit!r}")
    STATE.max_elements = limit


__all__ = [
    "BUILTINS", "KINDS", "OPS", "OP_GROUPS", "AccumulateGrad", "AutodiffError", "AutogradError", "BadValueError",
    "Builtin", "Grad", "GradMode", "InputError", "LimitError", "MinMax", "Node", "Op", "ParseError",
    "RemovableHandle", "ShapeError", "Size", "Tensor", "UnknownNameError", "UsageError", "apply", "backward",
    "detect_anomaly", "enable_grad",
    "float32", "float64", "forward_context", "get_default_dtype", "get_max_elements", "getitem", "grad",
    "grad_node", "graph_bytes", "graph_size", "is_anomaly_enabled", "is_grad_enabled", "manual_seed", "no_grad",
    "observe",
    "set_default_dtype", "set_grad_enabled", "set_max_elements", "set_printoptions", "setitem", *BUILTINS,
]
del _calculus, _constructors, _distributions, _functions, _logic, _losses, _methods
