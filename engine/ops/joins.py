"""Joins: stack (tensors of one shape along a new dim) and cat (along an existing dim). They take any number
of tensors: the op of each count is made from the table's entry, with one formula per input."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg, with_axis
from ..core.dtypes import result_type
from ..core.optable import LINEAR_JVP, PROMOTED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import STATE, check_dim
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError

STACK = declare(Op("stack", "StackBackward0", ("tensors[0]",), lambda *xs, dim, spans: np.stack(xs, axis=dim),
                   (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (0,)), "grad[i] along dim"),),
                   "tensors of one shape along a new dim", jvp=LINEAR_JVP, integers=PROMOTED))
CAT = declare(Op("cat", "CatBackward0", ("tensors[0]",), lambda *xs, dim, spans: np.concatenate(xs, axis=dim),
                 (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(*s.spans[0]),)),
                       "the part of grad along dim that came from this tensor"),), "tensors joined along a dim",
                 jvp=LINEAR_JVP, integers=PROMOTED))

_JOINED: dict[tuple[str, int], Op] = {}


def _joined(base: Op, count: int) -> Op:
    """The op that stacks or concatenates `count` tensors: the table's entry, with one formula per input."""
    key = (base.name, count)
    op = _JOINED.get(key)
    if op is None:
        grads = tuple(Grad(_part(base.name, i), base.grads[0].text) for i in range(count))
        op = Op(base.name, base.node, tuple(f"tensors[{i}]" for i in range(count)), base.forward, grads, base.doc,
                jvp=base.jvp, integers=base.integers)
        _JOINED[key] = op
    return op


def _part(name: str, i: int) -> Any:
    """The gradient of input i: its slice of the gradient along dim."""
    if name == "stack":
        return lambda F, g, s: F.index(g, (slice(None),) * s.dim + (i,))
    return lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(*s.spans[i]),))


def _tensors(tensors: Any, name: str) -> list[Tensor]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise BadValueError(f"{name}() expects a non-empty list of tensors, e.g. {name}([x**2, sin(y)])",
                            reason="tensors")
    return [tensor_arg(t, f"each element of the list given to {name}()") for t in tensors]


@builtin("stack(tensors, dim=0)", ("stack",), method=False, summary="tensors of one shape along a new dim")
@with_axis
def stack(tensors: Any, dim: int = 0) -> Tensor:
    items = _tensors(tensors, "stack")
    shapes = {tuple(t.shape) for t in items}
    if len(shapes) != 1:
        raise ShapeError(f"stack expects each tensor to be equal size, got shapes {sorted(shapes)}", reason="stack",
                         shapes=tuple(sorted(shapes)))
    d = check_dim(dim, items[0].ndim + 1)
    return _join(items, STACK, {"dim": d}, [None] * len(items))


@builtin("cat(tensors, dim=0)", ("cat",), method=False, summary="tensors joined along an existing dim")
@with_axis
def cat(tensors: Any, dim: int = 0) -> Tensor:
    items = _tensors(tensors, "cat")
    d = check_dim(dim, max(items[0].ndim, 1))
    for t in items[1:]:
        if t.ndim != items[0].ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, items[0].shape)) if i != d):
            raise ShapeError(f"cat: the tensors must have the same shape except in dim {d}, got "
                             f"{tuple(items[0].shape)} and {tuple(t.shape)}", reason="cat")
    starts, position = [], 0
    for t in items:
        starts.append((position, position + t._data.shape[d]))
        position += t._data.shape[d]
    return _join(items, CAT, {"dim": d}, starts)


def _join(items: list[Tensor], base: Op, params: dict, spans: list) -> Tensor:
    dtype = result_type([t._data for t in items], STATE.default_dtype)  # PyTorch's promotion (int8, uint8: int16)
    arrays = [t._data if t._data.dtype == dtype else t._data.astype(dtype) for t in items]
    return apply(_joined(base, len(items)), items, {**params, "spans": tuple(spans)}, arrays)
