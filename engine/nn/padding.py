"""torch.nn.functional.pad: constant padding (ConstantPadNdBackward0; negative pads crop), and reflect and
replicate padding of the last 1, 2 or 3 dims (ReflectionPad1DBackward0 ... ReplicationPad3DBackward0). A
reflected or replicated result is the input taken at one index per output position, so its gradient is the
output's gradient added back at those indices (repeated positions add up); the constant one's is the output's
gradient cut back to the input's region. 'circular' is built as PyTorch builds it (_pad_circular): an empty
tensor, the input's slices copied into it, then its own slices copied into the pads (SliceBackward0 and
CopySlices nodes)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..ops.constructors import leaf
from ..ops.indexing import setitem
from ..ops.shapes import SLICE


def _constant(x: np.ndarray, *, pad: tuple[int, ...], value: float, shape: tuple[int, ...], src: tuple,
              dst: tuple) -> np.ndarray:
    out = np.full(shape, value, dtype=x.dtype)
    out[dst] = x[src]
    return out


def _constant_grad(F: Any, g: Any, s: Any) -> Any:
    """grad within the input's region (zeros where the input was cropped away)."""
    inside = F.index(g, s.dst)
    if all(part == slice(None) for part in s.src):
        return inside
    return F.index_put_add(tuple(s.input_shape), s.src, inside)


CONSTANT_PAD = declare(Op(
    "constant_pad_nd", "ConstantPadNdBackward0", ("self",), _constant,
    (Grad(_constant_grad, "constant_pad_nd(grad, -pad)"),), "padded with a constant (negative pads crop)",
    group=SHAPES, jvp=lambda F, t, s: _constant(t.self, pad=s.pad, value=0.0, shape=s.shape, src=s.src, dst=s.dst)))


def _taken(x: np.ndarray, *, where: tuple) -> np.ndarray:
    return np.ascontiguousarray(x[where])


def _put_back(F: Any, g: Any, s: Any) -> Any:
    # reads self (for its shape): PyTorch's reflection_pad/replication_pad backward saves the input
    return F.index_put_add(tuple(s.self.shape), s.where, g)


def _padding_op(mode: str, node: str, dims: int) -> Op:
    return declare(Op(f"{mode}_pad{dims}d", node, ("self",), _taken,
                      (Grad(_put_back, "grad added back at the positions each output element was taken from"),),
                      f"the last {dims} dim{'s' if dims > 1 else ''} padded with their {mode}ion"
                      if mode == "reflect" else f"the last {dims} dim{'s' if dims > 1 else ''} padded with the edge "
                      "values repeated", group=SHAPES, jvp=LINEAR_JVP))


PADDING_OPS = {
    ("reflect", n): _padding_op("reflect", f"ReflectionPad{n}DBackward0", n) for n in (1, 2, 3)
} | {("replicate", n): _padding_op("replicate", f"ReplicationPad{n}DBackward0", n) for n in (1, 2, 3)}


def _positions(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position along a dim of size n padded by (before, after): the input position it takes."""
    c = np.arange(-before, n + after)
    if mode == "replicate":
        return np.clip(c, 0, n - 1)
    c = np.abs(c)  # reflect: -c before the start, 2 (n - 1) - c past the end
    return np.where(c > n - 1, 2 * (n - 1) - c, c)


def _pads(pad: Any) -> tuple[int, ...]:
    if isinstance(pad, Tensor):
        pad = pad.tolist()
    if not isinstance(pad, (list, tuple)):
        raise BadValueError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not {type(pad).__name__}",
                            reason="arguments")
    for i, p in enumerate(pad):
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise BadValueError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but found element of "
                                f"type {type(p).__name__} at pos {i}", reason="arguments")
    if len(pad) % 2:
        raise BadValueError("Padding length must be divisible by 2", reason="pad")
    return tuple(int(p) for p in pad)


def _per_dim(pads: tuple[int, ...], ndim: int) -> list[tuple[int, int, int]]:
    """(dim, before, after) for each padded dim: the pairs of `pad` start from the last dim."""
    return [(ndim - 1 - i, pads[2 * i], pads[2 * i + 1]) for i in range(len(pads) // 2)]


@builtin("pad(input, pad, mode='constant', value=None)",
         ("constant_pad_nd", *(op.name for op in PADDING_OPS.values()), "slice", "copy_slices"),
         method=False, functional=True)
def pad(input: Any, pad: Any, mode: Any = "constant", value: Any = None) -> Tensor:
    """torch.nn.functional.pad: pad = (before, after) pairs from the last dim backwards; mode 'constant' (value,
    default 0; negative pads crop), 'reflect', 'replicate' or 'circular' (the last 1, 2 or 3 dims)."""
    x = tensor_arg(input)
    pads = _pads(pad)
    shape = x._data.shape
    if len(pads) // 2 > x.ndim:
        raise ShapeError(f"Padding length should be less than or equal to two times the input dimension but got "
                         f"padding length {len(pads)} and input of dimension {x.ndim}", reason="pad",
                         shapes=(tuple(shape),))
    if mode == "constant":
        return _constant_pad(x, pads, value)
    if mode not in ("reflect", "replicate", "circular"):
        raise BadValueError(f"Unrecognised padding mode {mode}", reason="pad")
    if value is not None:
        raise BadValueError(f'Padding mode "{mode}" doesn\'t take in value argument', reason="pad")
    dims = len(pads) // 2
    if dims not in (1, 2, 3) or x.ndim not in (dims + 1, dims + 2):
        raise ShapeError(f"Padding size {len(pads)} is not supported for {x.ndim}D input tensor.", reason="pad",
                         shapes=(tuple(shape),))
    if mode == "circular":
        return _circular_pad(x, pads)
    index: list[Any] = [slice(None)] * (x.ndim - dims)
    positions = []
    for d, before, after in reversed(_per_dim(pads, x.ndim)):
        n = shape[d]
        if n == 0:
            raise ShapeError(f"pad(): dimension {d} of the input has size 0, which cannot be {mode}-padded",
                             reason="pad", shapes=(tuple(shape),))
        if mode == "reflect" and (before >= n or after >= n):
            raise BadValueError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                                f"but got: padding ({before}, {after}) at dimension {d} of input {list(shape)}",
                                reason="pad")
        if n + before + after < 0:  # none left is an empty result, as in PyTorch
            raise ShapeError(f"pad(): the input size {n} of dimension {d}, padded by ({before}, {after}), leaves "
                             "fewer than no elements", reason="pad", shapes=(tuple(shape),))
        positions.append(_positions(n, before, after, mode))
    if not any(len(p) for p in positions):  # PyTorch: one padded dim may be left empty, not all of them
        raise ShapeError(f"pad(): the input {list(shape)} is too small: padded by {list(pads)}, no padded "
                         "dimension keeps an element", reason="pad", shapes=(tuple(shape),))
    index += list(np.ix_(*positions))
    out_shape = tuple(shape[: x.ndim - dims]) + tuple(len(p) for p in positions)
    check_elements(out_shape, "the padded tensor")
    return apply(PADDING_OPS[(mode, dims)], (x,), {"where": tuple(index)})


def _constant_pad(x: Tensor, pads: tuple[int, ...], value: Any) -> Tensor:
    if value is None:
        value = 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise BadValueError(f"pad(): argument 'value' must be a number, not {type(value).__name__}", reason="pad")
    shape = list(x._data.shape)
    src: list[slice] = [slice(None)] * x.ndim
    dst: list[slice] = [slice(None)] * x.ndim
    for d, before, after in _per_dim(pads, x.ndim):
        n = shape[d]
        size = n + before + after
        if size < 0:
            raise ShapeError(f"The input size {n}, plus negative padding {before} and {after} resulted in a negative "
                             f"output size, which is invalid. Check dimension {d} of your input.", reason="pad",
                             shapes=(tuple(x.shape),))
        first, last = max(-before, 0), n - max(-after, 0)
        kept = max(last - first, 0)
        if first > 0 or kept < n:  # cropped
            src[d] = slice(first, first + kept)
        dst[d] = slice(max(before, 0), max(before, 0) + kept)
        shape[d] = size
    check_elements(tuple(shape), "the padded tensor")
    return apply(CONSTANT_PAD, (x,), {"pad": pads, "value": float(value), "shape": tuple(shape), "src": tuple(src),
                                      "dst": tuple(dst)})


def _slice(x: Tensor, dim: int, start: int, stop: int) -> Tensor:
    return apply(SLICE, (x,), {"dim": dim, "start": start, "stop": stop, "step": 1})


def _circular_pad(x: Tensor, pads: tuple[int, ...]) -> Tensor:
    """PyTorch's _pad_circular, step by step: the input (cropped by negative pads) copied into the middle of an
    empty tensor, then for each dim from the last, its left pad copied from the result's end and its right pad
    from its start (corners are written twice, as there)."""
    shape, per_dim = x._data.shape, _per_dim(pads, x.ndim)
    out_shape = list(shape)
    for d, before, after in per_dim:
        if before > shape[d] or after > shape[d]:
            raise BadValueError("Padding value causes wrapping around more than once.", reason="pad")
        out_shape[d] = shape[d] + before + after
        if out_shape[d] < 0:
            raise ShapeError("Negative padding value is resulting in an empty dimension", reason="pad",
                             shapes=(tuple(shape),))
    check_elements(tuple(out_shape), "the padded tensor")
    out = leaf(np.empty(out_shape, dtype=x._data.dtype), False)
    middle, src = out, x  # written through views of out, as PyTorch's copy_ into out's slices (CopySlices)
    for d, before, after in per_dim:
        middle = _slice(middle, d, max(before, 0), out_shape[d] - max(after, 0))
        src = _slice(src, d, max(-before, 0), shape[d] - max(-after, 0))
    setitem(middle, Ellipsis, src)
    for d, before, after in per_dim:
        size = out_shape[d]
        if before > 0:
            setitem(_slice(out, d, 0, before), Ellipsis,
                    _slice(out, d, size - before - max(after, 0), size - max(after, 0)))
        if after > 0:
            start = max(before, 0)
            setitem(_slice(out, d, size - after, size), Ellipsis, _slice(out, d, start, start + after))
    return out
