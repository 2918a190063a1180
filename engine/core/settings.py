"""The engine's process-wide settings, as PyTorch keeps them: grad mode, the default dtype, the element limit,
anomaly detection, the label of what is being recorded and the observer of backward passes.

`settings(...)` changes some of them for a block and restores them after it; a front end runs each command
inside one instead of setting them for the whole process. The checks every new tensor passes (dtype names,
element and dimension limits) live here too, below the Tensor.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import BadValueError, LimitError
from .dtypes import BY_NUMPY, NAMES, DType

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
MAX_DIMS = 64  # numpy's (and PyTorch's) limit on a tensor's dimensions


class State:
    """Process-wide switches, as PyTorch keeps them (grad mode, default dtype, element limit)."""

    grad_enabled = True
    default_dtype = FLOAT_DTYPES[0]
    max_elements: int | None = None
    anomaly = False
    forward_context: object = None
    forward_level = 0  # the forward-AD level that is open (transforms/forward_ad.py), 0 when none
    tangent_rule = None  # forward_ad.record_tangent: gives an op's result its tangent inside a level
    # tangent_writes.write: dual_tensors.py's recorded write into a tangent (forward-over-reverse)
    tangent_write = None
    # Called as observer(node, grad_in, grads_out) for every node a backward pass runs, in order
    # (for AccumulateGrad: grads_out is (), and the call comes before .grad is updated); autodiff's
    # explanation of a pass reads it through it.
    observer = None
    # Called as pass_watcher(outputs, start) around every backward pass (backward() and grad()): start True before
    # it runs, False after it ran (autodiff run reports a script's passes through it, when asked to).
    pass_watcher = None
    # Called with no arguments when a node is recorded, its result kept as the node's context (where it was made:
    # autodiff run's file and line); None: the context is forward_context, in anomaly mode only.
    locate = None

    def __init__(self) -> None:
        # The switches as the instance's own attributes: every recorded op reads several, and CPython reads an
        # instance's attribute much faster than a class attribute through the instance.
        self.__dict__.update({name: value for name, value in vars(State).items() if not name.startswith("__")})


STATE = State()


def as_dtype(dtype: Any) -> np.dtype:
    """Resolve a dtype given as a DType (torch.int64), a name ("float32", "long", "torch.int64") or a numpy
    dtype, to its numpy dtype; None means the default float dtype."""
    if dtype is None:
        return STATE.default_dtype
    if isinstance(dtype, DType):
        return dtype.numpy
    if isinstance(dtype, str):
        resolved = NAMES.get(dtype)
        if resolved is None:
            raise BadValueError(f"unsupported dtype {dtype!r}: use one of {', '.join(sorted(_SHOWN))}",
                                reason="dtype")
        return resolved.numpy
    try:
        found = np.dtype(dtype)
    except TypeError:
        found = None
    if found is None or found not in BY_NUMPY:
        raise BadValueError(f"unsupported dtype {dtype!r}: use one of {', '.join(sorted(_SHOWN))}", reason="dtype")
    return found


_SHOWN = ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")


def as_float_dtype(dtype: Any) -> np.dtype:
    """Resolve a default dtype: float32 or float64 only (as torch.set_default_dtype)."""
    resolved = as_dtype(dtype)
    if resolved not in FLOAT_DTYPES:
        raise BadValueError(f"unsupported default dtype {BY_NUMPY[resolved]}: the default dtype is float32 or "
                            "float64", reason="dtype")
    return resolved


def check_elements(shape: tuple[int, ...], what: str = "tensor") -> None:
    """Refuse, before allocating, a result with more elements than the configured limit."""
    limit = STATE.max_elements
    if limit is None:
        return
    count = 1
    for size in shape:
        count *= size
    if count > limit:
        raise LimitError(
            f"{what} of shape {tuple(shape)} would have {count:,} elements, over the limit of {limit:,}",
            reason="elements",
        )


def nested_lists(shape: tuple[int, ...]) -> int:
    """How many lists the nested-list form of an array of this shape has (tolist(), JSON): an empty array of
    shape (10**12, 0) has no element but 10**12 empty lists."""
    total, count = 0, 1
    for size in shape[:-1]:
        count *= size
        if not count:
            break
        total += count
    return total + 1


def check_lists(shape: tuple[int, ...], what: str = "the tensor") -> None:
    """Refuse, before writing it, a nested-list form with more lists than the element limit."""
    limit = STATE.max_elements
    if limit is not None and len(shape) > 1 and nested_lists(shape) > limit:
        raise LimitError(f"{what} of shape {tuple(shape)} would be written as {nested_lists(shape):,} nested lists, "
                         f"over the limit of {limit:,} (empty lists count as elements)", reason="elements")


def check_dims(ndim: int, what: str = "the tensor") -> None:
    """Refuse, before numpy does with an internal error, a result with more dimensions than numpy allows."""
    if ndim > MAX_DIMS:
        raise LimitError(f"{what} would have {ndim} dimensions; a tensor has at most {MAX_DIMS}", reason="dims")


def check_dim(dim: int, ndim: int) -> int:
    """Wrap a possibly negative dim into range, with PyTorch's error when it is out of range."""
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise BadValueError(f"dim must be an integer, got {dim!r}")
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not low <= dim <= high:
        raise BadValueError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})",
            reason="dim",
        )
    return int(dim) % max(ndim, 1)


def _checked_limit(limit: int | None) -> int | None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise BadValueError(f"the element limit must be a positive integer, got {limit!r}")
    return limit


_UNSET: Any = object()


@contextlib.contextmanager
def settings(*, default_dtype: Any = _UNSET, max_elements: Any = _UNSET) -> Iterator[None]:
    """Inside the block, new tensors default to `default_dtype` and no tensor may have more than
    `max_elements` elements (None: no limit); both are restored after it, and a forward-AD level left open inside
    is closed. Omitted ones stay as they are."""
    previous, level = (STATE.default_dtype, STATE.max_elements), STATE.forward_level
    dtype = STATE.default_dtype if default_dtype is _UNSET else as_float_dtype(default_dtype)
    limit = STATE.max_elements if max_elements is _UNSET else _checked_limit(max_elements)
    STATE.default_dtype, STATE.max_elements = dtype, limit
    try:
        yield
    finally:
        STATE.default_dtype, STATE.max_elements = previous
        STATE.forward_level = level


def set_default_dtype(dtype: Any) -> None:
    """The dtype of new tensors made from numbers and lists ('float32' or 'float64'), for the whole process."""
    STATE.default_dtype = as_float_dtype(dtype)


def get_default_dtype() -> np.dtype:
    return STATE.default_dtype


def get_max_elements() -> int | None:
    return STATE.max_elements


def set_max_elements(limit: int | None) -> None:
    """Refuse (LimitError, before allocating) any tensor with more elements than limit; None: no limit."""
    STATE.max_elements = _checked_limit(limit)
