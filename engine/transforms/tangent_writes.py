"""In-place writes into a dual tensor under forward-over-reverse (dual_tensors.py decides when): the tangent's write is
recorded as PyTorch records it, x[i] = v giving x's tangent CopySlices of the two tangents (zeros for a value
without one), zero_()/fill_() a fill of it, add_() and the other updates a copy of the result's tangent.

A view's tangent is made a view of its base's tangent (as PyTorch's tangents of views are), so that the write is
recorded on the base's tangent and every other view of it reads the write with its graph (circular padding
writes through views of one tensor). A tangent that cannot be written in place (a leaf that requires grad, a view
of one, a broadcast view) is replaced by its clone first (CloneBackward0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.inplace import base_of, refresh_view
from ..core.settings import STATE
from ..core.tensor import BaseRef, Tensor
from ..ops.indexing import setitem
from ..ops.shapes import clone
from .dual_tensors import tangent_of_level


def write(x: Tensor, where: Any, theirs: Tensor | None, level: int) -> list[tuple[Tensor, Tensor]]:
    """x's tangent at `level`, [where] = theirs (0 when None), recorded; the (tensor, new tangent) pairs to set."""
    found = []
    mine = tangent_of_level(x, level)
    base = base_of(x)
    if base is not None:
        whole = tangent_of_level(base, level)
        if whole is None:
            whole = Tensor._make(np.zeros_like(base._data))
            found.append((base, whole))
        view = _view_of(x, base, whole) if _writable(whole) else None
        if view is not None:
            mine = view
    if mine is None:
        mine = Tensor._make(np.zeros_like(x._data))
    elif not _writable(mine):
        mine = clone(mine)
    setitem(mine, where, theirs if theirs is not None else 0.0)
    found.append((x, mine))
    return found


def _view_of(x: Tensor, base: Tensor, whole: Tensor) -> Tensor | None:
    """The view of the base's tangent `whole` that x is of the base (same offset and strides), or None when the
    two do not share a layout."""
    if whole._data.strides != base._data.strides or whole._data.dtype != base._data.dtype or not (
            whole._data.flags.c_contiguous or whole._data.flags.f_contiguous):
        return None
    offset = x._data.__array_interface__["data"][0] - base._data.__array_interface__["data"][0]
    data = np.ndarray(x._data.shape, x._data.dtype, buffer=whole._data, offset=offset, strides=x._data.strides)
    view = Tensor._make(data)
    view._version = whole._counter()
    view._base = BaseRef(whole)
    refresh_view(view)  # AsStridedBackward0 of the base's tangent when it has a history
    return view


def _writable(t: Tensor) -> bool:
    """t can be written in place without an error: writable memory, not a leaf that requires grad or a view of one."""
    base = base_of(t)
    for own in (t, base):
        if own is not None and own._requires_grad and own._grad_fn is None:
            return False
    return t._data.flags.writeable and (base is None or base._data.flags.writeable)


STATE.tangent_write = write
