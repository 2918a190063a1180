"""In-place writes and views, as PyTorch records them.

A tensor written in place gets a new `grad_fn` for the write (`ZeroBackward0`, `FillBackward2`): the
gradient that reaches it no longer flows to what it held before. When the tensor written is a view of
another (its *base*), the write is recorded on the base as `CopySlices` (the written region's gradient
replaced by the write's), and the view's history becomes `AsStridedBackward0` of the base: a view is
always its base's current values at its positions. A view whose base was written after the view was
taken gets the same regenerated history the next time it is used (`refresh_view`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..errors import AutogradError, BadValueError, ShapeError
from ..kernels import parallel
from ..kernels.arrays import as_strided_scatter, memory_order
from ..transforms.dual_tensors import carry_tangent, set_tangent, tangent_of, write_tangent
from .dtypes import can_cast, cast_error
from .graph import Node, edge_node
from .optable import AS_SELF, ELEMENTWISE_JVP, KEPT, LINEAR_JVP, Grad, Op, declare
from .settings import STATE
from .tensor import Tensor


def _zero(F: object, g: object, s: object) -> object:
    return F.zeros_like(g)  # type: ignore[attr-defined]


# A view regenerated after an in-place write (recorded here; applied only inside backward).
AS_STRIDED = declare(Op("as_strided", "AsStridedBackward0", ("self",), lambda x, *, index: x.reshape(-1)[index],
                        (Grad(lambda F, g, s: F.as_strided_backward(g, s.input_shape, s.index),
                              "zeros of the base's shape with grad at the view's positions"),),
                        "a view of a tensor written in place", jvp=LINEAR_JVP, integers=KEPT))
AS_STRIDED_SCATTER = declare(Op("as_strided_scatter", "AsStridedScatterBackward0", ("self",),
                                lambda g, *, shape, index: as_strided_scatter(g, shape, index),
                                (Grad(lambda F, g, s: F.as_strided(g, s.index), "grad at the view's positions"),),
                                "the backward of a view of a tensor written in place", jvp=LINEAR_JVP,
                                integers=AS_SELF))
# self.copy_(src): a write to the whole tensor (y[:] = v, recorded by setitem), and the copy of a gradient that
# .grad keeps after a create_graph pass
COPY = declare(Op("copy_", "CopyBackwards", ("self", "src"), lambda _, x: np.array(x, copy=True, order=memory_order(x)),
                  (Grad(_zero, "0"), Grad(lambda F, g, s: g, "grad (summed to the value's shape)")),
                  "self[...] = src, the whole tensor", jvp=LINEAR_JVP, integers=AS_SELF))
FILL_TENSOR = declare(Op("fill_tensor", "FillBackward3", ("self", "value"), None,  # y[...] = 5
                         (Grad(_zero, "0"), Grad(lambda F, g, s: F.sum(g, None, False), "grad.sum()")),
                         "self[...] = value, a number or a 0-d tensor, the whole tensor", jvp=lambda F, t, s: t.value,
                         integers=AS_SELF))
ZERO = declare(Op("zero_", "ZeroBackward0", ("self",), np.zeros_like, (Grad(_zero, "0"),),
                  "fill with zeros, in place", jvp=ELEMENTWISE_JVP, integers=KEPT))
FILL = declare(Op("fill_", "FillBackward2", ("self",), lambda x, *, value: np.full_like(x, value), (Grad(_zero, "0"),),
                  "fill with a number, in place", jvp=ELEMENTWISE_JVP, integers=KEPT))
# recorded by setitem, never applied directly; zero_/fill_ on a view record it with `self` alone
COPY_SLICES = declare(Op("copy_slices", "CopySlices", ("self", "src"), None,
                         (Grad(lambda F, g, s: F.where(s.outside, g, 0.0), "grad with the written region zeroed"),
                          Grad(lambda F, g, s: F.index(g, s.where), "grad[index] (summed to the value's shape)")),
                         "self[index] = src", saved=("outside", "where"), integers=AS_SELF))
# self[mask] = src, self[indices] = src: index_put_, recorded by setitem
INDEX_PUT = declare(Op("index_put_", "IndexPutBackward0", ("self", "values"), None,
                       (Grad(lambda F, g, s: F.where(s.outside, g, 0.0), "grad with the written positions zeroed"),
                        Grad(lambda F, g, s: F.index(g, s.where), "grad[indices] (summed to the values' shape)")),
                       "self[indices] = values", saved=("outside", "where"), integers=AS_SELF))


def base_of(t: Tensor) -> Tensor | None:
    """The tensor whose memory the view t shares (None for a tensor that is not a view)."""
    return t._base() if t._base is not None else None


def view_index(t: Tensor, base: Tensor) -> np.ndarray:
    """For each element of the view t: the position of the element of `base` it shares (C order, flat)."""
    return array_positions(t._data, base._data)


def array_positions(data: np.ndarray, root: np.ndarray) -> np.ndarray:
    """For each element of the array `data` (a view of root's memory): the C-order flat position in root."""
    itemsize = root.itemsize
    offset = (data.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // itemsize
    strides = [s // itemsize for s in data.strides]
    memory = np.full(data.shape, offset, dtype=np.int64)  # the memory position (in elements) of each
    for dim, stride in enumerate(strides):
        shape = [1] * data.ndim
        shape[dim] = data.shape[dim]
        memory = memory + np.arange(data.shape[dim], dtype=np.int64).reshape(shape) * stride
    if root.flags.c_contiguous:
        return memory
    # a base laid out in another order: map memory positions to C-order positions
    root_strides = [s // itemsize for s in root.strides]
    position = np.zeros(root.shape, dtype=np.int64)
    for dim, stride in enumerate(root_strides):
        shape = [1] * root.ndim
        shape[dim] = root.shape[dim]
        position = position + np.arange(root.shape[dim], dtype=np.int64).reshape(shape) * stride
    c_of_memory = np.empty(max(root.size, 1), dtype=np.int64)
    c_of_memory[position.reshape(-1)] = np.arange(root.size, dtype=np.int64)
    return c_of_memory[memory]


def _as_strided_node(t: Tensor, base: Tensor) -> Node:
    """t as a view of base's current history (AsStridedBackward0)."""
    return Node(AS_STRIDED, (edge_node(base),), (base._data.shape, base._data.dtype),
                {"index": view_index(t, base)}, (), None)


def refresh_view(t: Tensor) -> None:
    """Bring a view's history up to date after its base was written in place (PyTorch regenerates it)."""
    base = base_of(t)
    if base is not None:
        if base._requires_grad and STATE.grad_enabled:
            t._grad_fn = _as_strided_node(t, base)
            t._requires_grad = True
        elif base._requires_grad:
            t._requires_grad = True
    t._view_stamp = t._counter().value


def fresh(t: Tensor) -> Tensor:
    """t, its history brought up to date when it is a view whose memory was written since it was last used
    (through its base, another view, detach() or .data): PyTorch regenerates a view's grad_fn when it is read."""
    if t._view_stamp is not None and t._view_stamp != t._counter().value and base_of(t) is not None:
        refresh_view(t)
    return t


def _check_leaf(t: Tensor, base: Tensor | None) -> None:
    if not STATE.grad_enabled:
        return
    if base is not None and base._grad_fn is None and base._requires_grad:
        raise AutogradError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation.",
            hint="write into a copy (clone()) or inside no_grad()", reason="leaf_inplace")
    t._check_inplace()


def fill_(t: Tensor, value: float, op_name: str) -> Tensor:
    """t.zero_() (op zero_) or t.fill_(value) (op fill_), recorded as PyTorch records them."""
    base = base_of(t)
    _check_leaf(t, base)
    if base is not None and t._view_stamp != t._counter().value:
        refresh_view(t)
    op = ZERO if op_name == "zero_" else FILL
    params = {} if op_name == "zero_" else {"value": value}
    if base is None:
        node = None
        if STATE.grad_enabled and t._requires_grad:
            node = Node(op, (edge_node(t),), (t._data.shape, t._data.dtype), params or None, (), None)
        with np.errstate(all="ignore"):
            t._data[...] = value
        if STATE.forward_level:
            write_tangent(t, Ellipsis, value)
        t._bump_version()
        if t._view_stamp is not None:
            t._view_stamp = t._counter().value
        if node is not None:
            t._grad_fn = node
        return t
    recorded = STATE.grad_enabled and base._requires_grad
    node = None
    if recorded:
        region = np.zeros(math.prod(base._data.shape), dtype=bool)
        region[view_index(t, base).reshape(-1)] = True
        outside = ~region.reshape(base._data.shape)
        copy_slices = COPY_SLICES  # with `self` alone: nothing flows to a number written
        params = {"outside": outside}
        plan = copy_slices.saved_for[(True, False)]
        saved = tuple(v for name, _ in plan for v in (params[name], None, 0))
        node = Node(copy_slices, (edge_node(base),), (base._data.shape, base._data.dtype), params, plan, saved)
    with np.errstate(all="ignore"):
        t._data[...] = value
    if STATE.forward_level:
        write_tangent(t, Ellipsis, value)
    t._bump_version()
    if node is not None:
        base._grad_fn = node
    refresh_view(t)
    return t


def write_view(t: Tensor, where: tuple, src: object, src_data: object) -> None:
    """t[where] = src where t is a view of a base: recorded as PyTorch records it, CopySlices on the base (the
    written region's gradient goes to src, the rest to what the base held), and t's history regenerated as
    AsStridedBackward0 of the base. src is already fitted to the region (a tensor or a number)."""
    base = base_of(t)
    _check_leaf(t, base)
    if t._view_stamp != t._counter().value:
        refresh_view(t)
    src_grad = isinstance(src, Tensor) and src._requires_grad
    recorded = STATE.grad_enabled and (base._requires_grad or src_grad)
    node = None
    if recorded:
        view = where if any(w is Ellipsis for w in where) else (*where, Ellipsis)  # a view even for t[2]
        positions = array_positions(t._data[view], base._data)
        outside = np.ones(base._data.shape, dtype=bool)
        outside.reshape(-1)[positions.reshape(-1)] = False
        region = np.unravel_index(positions, base._data.shape) if base._data.ndim else ()
        nexts = (edge_node(base), edge_node(src))
        meta = (base._data.shape, base._data.dtype) + (
            (src._data.shape, src._data.dtype) if isinstance(src, Tensor) else (None, None))
        params = {"outside": outside, "where": region}
        plan = COPY_SLICES.saved_for[tuple(n is not None for n in nexts)]
        saved = tuple(v for name, _ in plan for v in (params[name], None, 0))
        node = Node(COPY_SLICES, nexts, meta, params, plan, saved)
    with np.errstate(all="ignore"):
        t._data[where] = src_data
    if STATE.forward_level:  # forward AD: the view's tangent (shared with its base's) is written the same way
        _share_base_tangent(t, base, src)
        write_tangent(t, where, src)
    t._bump_version()
    if node is not None:
        base._grad_fn = node
        base._requires_grad = True
    refresh_view(t)


def _share_base_tangent(t: Tensor, base: Tensor, src: object) -> None:
    """A tangent written into a view of a base that has none (a dual copied into a slice of a plain tensor, as
    pad(mode='circular') does): the base gets a tangent of zeros, and the view the part of it it sees, so that
    the base and its other views see the write (as PyTorch's)."""
    if tangent_of(src) is None or tangent_of(base) is not None or tangent_of(t) is not None:
        return
    data = np.zeros_like(base._data)
    offset = t._data.__array_interface__["data"][0] - base._data.__array_interface__["data"][0]
    if not data.flags.c_contiguous and not data.flags.f_contiguous:
        return  # a base whose memory has gaps: the view keeps a tangent of its own (write_tangent)
    set_tangent(base, Tensor._make(data))
    set_tangent(t, Tensor._make(np.ndarray(t._data.shape, t._data.dtype, buffer=data, offset=offset,
                                           strides=t._data.strides)))


def overwrite_(t: Tensor, write: Callable[[np.ndarray], None], name: str) -> Tensor:
    """t.normal_(), t.uniform_(): `write` puts fresh values into t's memory. Not recorded: where PyTorch
    would record the write (a tensor with a history that requires grad, outside no_grad) it is refused."""
    base = base_of(t)
    _check_leaf(t, base)
    if STATE.grad_enabled and (base if base is not None else t)._requires_grad:
        raise AutogradError(f"{name} on a tensor that requires grad is not recorded by autodiff",
                            hint="call it inside no_grad(), or on x.detach()", reason="random_inplace")
    if base is not None and t._view_stamp != t._counter().value:
        refresh_view(t)
    write(t._data)
    t._bump_version()
    if base is not None:
        refresh_view(t)
    elif t._view_stamp is not None:
        t._view_stamp = t._counter().value
    return t


_PLAIN_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def plain_update_(t: Tensor, other: object, ufunc: np.ufunc) -> bool:
    """t += other (ufunc np.add; subtract, multiply, divide likewise) straight into t's memory when nothing is to be
    recorded: t and other float32 or float64 tensors of one dtype and shape, neither requiring grad nor a view (an
    optimizer's `p.data += -lr * p.grad`). The same bits as update_'s `t + other` copied into t, without the
    operation's node, the copy of t and the checks that cannot fail here; False when the case is not this one."""
    if (type(other) is not Tensor or t._requires_grad or other._requires_grad or t._base is not None
            or other._view_stamp is not None or STATE.forward_level):
        return False
    a, b = t._data, other._data
    if a.dtype != b.dtype or a.shape != b.shape or a.dtype not in _PLAIN_DTYPES or not a.flags.writeable:
        return False
    if a.size < parallel.CHEAP_THRESHOLD or not parallel.binary(ufunc).into(a, a, b):  # large: split as the op is
        ufunc(a, b, out=a)
    t._bump_version()
    if t._view_stamp is not None:
        t._view_stamp = t._counter().value
    return True


def update_(t: Tensor, compute: Callable[[Tensor], Tensor], name: str) -> Tensor:
    """t.add_(y) and the other in-place updates: `compute` gives the new value from t's current one (an
    ordinary recorded operation), which is then written into t's memory; t takes the operation's node as
    its grad_fn (AddBackward0 for add_, as PyTorch records it) and its version counter moves on."""
    base = base_of(t)
    _check_leaf(t, base)
    if base is not None and t._view_stamp != t._counter().value:
        refresh_view(t)
    recording = STATE.grad_enabled
    # The operation sees t's current value and history; a copy, when recording, so that what its node saves
    # is not the memory about to be written (PyTorch saves the original self the same way).
    before = Tensor._make(t._data.copy() if recording else t._data, t._grad_fn)
    before._requires_grad = t._requires_grad
    if STATE.forward_level:
        set_tangent(before, tangent_of(t))
    result = compute(before)
    if not can_cast(result._data.dtype, t._data.dtype):
        raise BadValueError(cast_error(result._data.dtype, t._data.dtype),
                            hint="convert the tensor first, e.g. x = x.float()", reason="inplace_dtype")
    if result._data.shape != t._data.shape:
        raise ShapeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                         f"{list(result._data.shape)}", reason="inplace_broadcast")
    if base is not None and recording and result._requires_grad:  # dC[ix] += demb[k, j]: the result written into
        write_view(t, (Ellipsis,), result, result._data)  # the view, CopySlices on its base, as PyTorch records it
        return t
    with np.errstate(all="ignore"):
        np.copyto(t._data, result._data, casting="unsafe")
    if STATE.forward_level:
        carry_tangent(t, result)
    t._bump_version()
    if t._view_stamp is not None:
        t._view_stamp = t._counter().value
    if recording and result._grad_fn is not None:
        t._grad_fn = result._grad_fn
        t._requires_grad = True
    return t
