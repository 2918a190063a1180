"""Forward AD's tangents on tensors (forward_ad.py has the rest): a dual tensor holds `_tangent`, the pair (level,
tangent), read only while that level is open; the helpers the in-place writes use to keep it up to date.

A write into a dual tensor writes into its tangent too, in place (the tangents of its views share the memory).
Under forward-over-reverse (grad mode on, a tangent that requires grad) the tangent's write is recorded, as
PyTorch's CopySlices records it: x[i] = v gives x's tangent CopySlices of the tangents (zeros for v without one),
so backward through the tangent reaches both."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.settings import STATE
from ..core.tensor import Tensor


def tangent_of(tensor: Any) -> Tensor | None:
    """The tensor's tangent at the open level, or None."""
    held = getattr(tensor, "_tangent", None) if isinstance(tensor, Tensor) else None
    return held[1] if held is not None and held[0] == STATE.forward_level else None


def set_tangent(tensor: Tensor, tangent: Tensor | None) -> None:
    """Give the tensor its tangent at the open level (None: none)."""
    tensor._tangent = None if tangent is None else (STATE.forward_level, tangent)


def _own(x: Tensor) -> np.ndarray | None:
    """x's tangent array to write into (shared with its views' tangents), or None when it has none; a tangent
    that cannot be written is replaced by a copy first."""
    mine = tangent_of(x)
    if mine is None:
        return None
    if not mine._data.flags.writeable:
        mine = Tensor._make(np.array(mine._data, order="C"))
        set_tangent(x, mine)
    return mine._data


def write_tangent(x: Tensor, where: Any, src: Any) -> None:
    """After x[where] = src: src's tangent (or zeros) is written at `where` into x's tangent (made of zeros when x
    had none), in place, so the tangents of x's views see it as x's values do."""
    theirs = tangent_of(src)
    if _recorded(tangent_of(x), theirs):
        _write_recorded(x, where, theirs)
        return
    data = _own(x)
    if data is None:
        if theirs is None:
            return
        data = np.zeros_like(x._data)
        set_tangent(x, Tensor._make(data))
    data[where] = 0 if theirs is None else theirs._data


def carry_tangent(x: Tensor, result: Tensor) -> None:
    """After an in-place update of x computed as `result`: x's tangent takes the result's values (in place)."""
    theirs = tangent_of(result)
    if _recorded(tangent_of(x), theirs):
        _write_recorded(x, Ellipsis, theirs)
        return
    data = _own(x)
    if data is None:
        if theirs is not None:
            set_tangent(x, Tensor._make(np.array(theirs._data, order="C")))
        return
    data[...] = 0 if theirs is None else theirs._data


def _recorded(mine: Tensor | None, theirs: Tensor | None) -> bool:
    """True when the write into the tangent must be recorded: grad mode on and a tangent that requires grad."""
    return STATE.grad_enabled and any(t is not None and t._requires_grad for t in (mine, theirs))


def _write_recorded(x: Tensor, where: Any, theirs: Tensor | None) -> None:
    """x's tangent[where] = theirs (0 when None), recorded (tangent_writes.py) with the level closed."""
    level, STATE.forward_level = STATE.forward_level, 0
    try:
        found = STATE.tangent_write(x, where, theirs, level)
    finally:
        STATE.forward_level = level
    for tensor, tangent in found:
        set_tangent(tensor, tangent)


def tangent_of_level(tensor: Tensor, level: int) -> Tensor | None:
    """The tensor's tangent at `level` (open or not), or None."""
    held = getattr(tensor, "_tangent", None)
    return held[1] if held is not None and held[0] == level else None
