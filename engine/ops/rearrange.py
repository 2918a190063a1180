"""Rearranging elements: repeat and tile, expand_as, roll, flip (fliplr, flipud), tril and triu, diagonal,
movedim, split, chunk and unbind, hstack/vstack/dstack, atleast_1d/2d/3d and ravel. Each records PyTorch's
node. A split's pieces are one node each here (PyTorch's SplitBackward0 is one node with several outputs):
the values and gradients are the same, the graph has a node per piece used."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import coerce
from ..core.coerce import tensor_arg, with_axis
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import alias, builtin
from ..core.settings import check_dim, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .joins import cat
from .linalg import diagonal_positions
from .shapes import CLONE, VIEW, expand, permute, reshape, unsqueeze


def _declare(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, **facts: Any) -> Op:
    facts.setdefault("jvp", LINEAR_JVP)  # rearranging elements: the same rearrangement of the tangent
    return declare(Op(name, node, ("self",), forward, (Grad(formula, text),), doc, group=SHAPES, **facts))


def _repeat_grad(F: Any, g: Any, s: Any) -> Any:
    """The sum of grad's tiles: grad as (repeat, size) pairs per dim, summed over the repeats."""
    padded = (1,) * (len(s.repeats) - len(s.input_shape)) + tuple(s.input_shape)
    pairs = tuple(n for pair in zip(s.repeats, padded) for n in pair)
    summed = F.sum(F.reshape(g, pairs), tuple(range(0, len(pairs), 2)), False)
    return F.reshape(summed, s.input_shape)


def _unrolled(F: Any, g: Any, s: Any) -> Any:
    """grad rolled back: a gather along each rolled dim (the flattened tensor when dims is empty)."""
    shape = tuple(s.input_shape)
    if not s.dims:
        flat = F.reshape(g, (math.prod(shape),))
        return F.reshape(F.index(flat, ((np.arange(flat.shape[0]) + s.shifts[0]) % max(1, flat.shape[0]),)), shape)
    for shift, dim in zip(s.shifts, s.dims):
        g = F.index(g, (slice(None),) * dim + ((np.arange(shape[dim]) + shift) % max(1, shape[dim]),))
    return g


def _flipped(F: Any, g: Any, s: Any) -> Any:
    for dim in s.dims:
        g = F.index(g, (slice(None),) * dim + (np.arange(s.input_shape[dim] - 1, -1, -1),))
    return g


def _diagonal_grad(F: Any, g: Any, s: Any) -> Any:
    """zeros of self's shape with grad on the diagonal: the two dims moved last, grad put at their positions."""
    shape = tuple(s.input_shape)
    order = (*(d for d in range(len(shape)) if d not in (s.dim1, s.dim2)), s.dim1, s.dim2)
    moved = tuple(shape[d] for d in order)
    rows, cols = diagonal_positions(shape[s.dim1], shape[s.dim2], s.offset)
    return F.permute(F.index_put_add(moved, (Ellipsis, rows, cols), g), tuple(int(i) for i in np.argsort(order)))


def _slice_of(F: Any, g: Any, s: Any) -> Any:
    return F.slice_backward(g, s.input_shape, s.dim, s.start, s.stop, 1)


REPEAT = _declare("repeat", "RepeatBackward0", lambda x, *, repeats: np.tile(x, repeats), _repeat_grad,
                  "grad summed over the repeated copies", "copies of self along each dim")
ROLL = _declare("roll", "RollBackward0",
                lambda x, *, shifts, dims: np.roll(x, shifts, dims) if dims else np.roll(x, shifts[0]), _unrolled,
                "grad rolled back by -shifts", "elements shifted cyclically along dims")
FLIP = _declare("flip", "FlipBackward0", lambda x, *, dims: np.flip(x, dims).copy(), _flipped,
                "grad flipped along dims", "the order of elements reversed along dims")
TRIL = _declare("tril", "TrilBackward0", lambda x, *, mask: np.where(mask, x, 0).astype(x.dtype),
                lambda F, g, s: F.where(s.mask, g, 0.0), "grad.tril(diagonal)",
                "the lower triangle (on and below the diagonal + diagonal), zeros above")
TRIU = _declare("triu", "TriuBackward0", lambda x, *, mask: np.where(mask, x, 0).astype(x.dtype),
                lambda F, g, s: F.where(s.mask, g, 0.0), "grad.triu(diagonal)",
                "the upper triangle (on and above the diagonal + diagonal), zeros below")
def _diagonal_view(x: np.ndarray, *, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """numpy's diagonal view, writable as PyTorch's is (y.diagonal().zero_() writes into y)."""
    view = np.diagonal(x, offset, dim1, dim2)
    if x.flags.writeable:
        view.flags.writeable = True
    return view


DIAGONAL = _declare("diagonal", "DiagonalBackward0", _diagonal_view, _diagonal_grad,
                    "zeros of self's shape with grad on the diagonal", "a diagonal, as the last dim (a view)",
                    view=True)
def _pieces_of(x: np.ndarray, *, dim: int, bounds: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, ...]:
    return tuple(_part(x, dim, start, stop) for start, stop in bounds)


def _pieces_grad(F: Any, g: Any, s: Any) -> Any:
    """Each piece's gradient in its place, zeros elsewhere (pieces no gradient reached: zeros)."""
    total = None
    for grad, (start, stop) in zip(g, s.bounds):
        if grad is not None:
            part = F.slice_backward(grad, s.input_shape, s.dim, start, stop, 1)
            total = part if total is None else total + part
    return total


def _slices_of(x: np.ndarray, *, dim: int) -> tuple[np.ndarray, ...]:
    return tuple(x[(slice(None),) * dim + (i,)] for i in range(x.shape[dim]))


def _slices_grad(F: Any, g: Any, s: Any) -> Any:
    total = None
    for i, grad in enumerate(g):
        if grad is not None:
            part = F.select_backward(grad, s.input_shape, s.dim, i)
            total = part if total is None else total + part
    return total


# split, chunk, unbind: one node for all the pieces (each a view of the input), as PyTorch records them
SPLIT = _declare("split", "SplitBackward0", _pieces_of, _pieces_grad, "the pieces' grads in their places",
                 "the pieces of split or chunk along dim", view=True, several=True)
SPLIT_SIZES = _declare("split_with_sizes", "SplitWithSizesBackward0", _pieces_of, _pieces_grad,
                       "the pieces' grads in their places", "the pieces of split with sizes along dim", view=True,
                       several=True)
# unsafe_split (ATen's recurrent cells chunk their gates with unsafe_chunk): split recorded as UnsafeSplitBackward0
UNSAFE_SPLIT = _declare("unsafe_split", "UnsafeSplitBackward0",
                        lambda x, **where: tuple(piece.copy() for piece in _pieces_of(x, **where)), _pieces_grad,
                        "the pieces' grads in their places", "the pieces of unsafe_chunk along dim (not views)",
                        several=True)
UNBIND = _declare("unbind", "UnbindBackward0", _slices_of, _slices_grad, "the slices' grads at their indices",
                  "the slices of unbind along dim", view=True, several=True)


def _part(x: np.ndarray, dim: int, start: int, stop: int) -> np.ndarray:
    return x[(slice(None),) * dim + (slice(start, stop),)]


# ---------------------------------------------------------------------------- repeat, tile, expand_as
@builtin("repeat(input, *sizes)", ("repeat",))
def repeat(input: Any, *sizes: Any) -> Tensor:
    """input's copies along each dim (numpy's tile): sizes has at least input's number of dims."""
    x = tensor_arg(input)
    repeats = coerce.sizes(sizes, "repeats")
    if len(repeats) < x.ndim:
        raise BadValueError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                            f"tensor (got {len(repeats)} for a tensor of {x.ndim})", reason="repeat")
    padded = (1,) * (len(repeats) - x.ndim) + tuple(x._data.shape)
    check_elements(tuple(r * n for r, n in zip(repeats, padded)), "the repeated tensor")
    return apply(REPEAT, (x,), {"repeats": repeats})


@builtin("repeat_interleave(input, repeats, dim=None)", ("view", "unsqueeze", "expand", "clone"))
def repeat_interleave(input: Any, repeats: Any, dim: Any = None) -> Tensor:
    """Each element repeated `repeats` times along dim (flattened first when dim is None), as PyTorch records it
    for a number of repeats: UnsqueezeBackward0, ExpandBackward0, CloneBackward0, ViewBackward0."""
    x = tensor_arg(input)
    if isinstance(repeats, Tensor) and repeats.numel() == 1:
        repeats = repeats.item()
    if isinstance(repeats, bool) or not isinstance(repeats, (int, float, np.integer)) or repeats != int(repeats):
        raise BadValueError("repeat_interleave: repeats must be a whole number (a tensor of counts per element is "
                            "not available)", reason="repeats")
    r = int(repeats)
    if r < 0:
        raise BadValueError("repeat_interleave: repeats can not be negative", reason="repeats")
    if dim is None:
        x, d = reshape(x, -1), 0
    else:
        d = check_dim(dim, max(x.ndim, 1))
    shape = tuple(x.shape) or (1,)
    if x.ndim == 0:
        x = reshape(x, 1)
    spread = expand(unsqueeze(x, d + 1), *shape[:d + 1], r, *shape[d + 1:])
    check_elements(spread.shape, "the repeated tensor")
    return apply(VIEW, (apply(CLONE, (spread,), {"contiguous": True}),),
                 {"shape": (*shape[:d], shape[d] * r, *shape[d + 1:])})


@builtin("tile(input, dims)", ("repeat",))
def tile(input: Any, dims: Any) -> Tensor:
    """input's copies along each dim; dims shorter than input's are padded with leading 1s (RepeatBackward0)."""
    x = tensor_arg(input)
    reps = coerce.sizes((dims,), "dims")
    return repeat(x, (1,) * (x.ndim - len(reps)) + reps)


@builtin("expand_as(input, other)", ("expand",))
def expand_as(input: Any, other: Any) -> Tensor:
    """input broadcast to other's shape (ExpandBackward0)."""
    return expand(tensor_arg(input), tuple(tensor_arg(other, "other").shape))


@builtin("broadcast_to(input, size)", ("expand",))
def broadcast_to(input: Any, size: Any) -> Tensor:
    """input broadcast to `size` (ExpandBackward0), as expand does."""
    return expand(tensor_arg(input), size)


# ---------------------------------------------------------------------------- roll, flip, triangles, diagonals
def _dims(dims: Any, ndim: int) -> tuple[int, ...]:
    items = list(dims) if isinstance(dims, (list, tuple)) else [dims]
    out = tuple(check_dim(d, ndim) for d in items)
    if len(set(out)) != len(out):
        raise BadValueError(f"dims {items} name a dimension more than once", reason="dim")
    return out


@builtin("roll(input, shifts, dims=None)", ("roll",))
def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    x = tensor_arg(input)
    steps = tuple(int(v) for v in (shifts if isinstance(shifts, (list, tuple)) else [shifts]))
    axes = () if dims is None else _dims(dims, x.ndim)
    if (axes and len(steps) != len(axes)) or (not axes and len(steps) != 1):
        raise BadValueError(f"roll(): shifts and dimensions must align. shifts: {len(steps)}, dims: {len(axes)}",
                            reason="roll")
    return apply(ROLL, (x,), {"shifts": steps, "dims": axes})


@builtin("flip(input, dims)", ("flip",))
def flip(input: Any, dims: Any) -> Tensor:
    x = tensor_arg(input)
    return apply(FLIP, (x,), {"dims": _dims(dims, x.ndim)})


@builtin("fliplr(input)", ("flip",))
def fliplr(input: Any) -> Tensor:
    """input with the order of its columns (dim 1) reversed."""
    x = tensor_arg(input)
    if x.ndim < 2:
        raise BadValueError("fliplr(): Input must be >= 2-d.", reason="dims")
    return flip(x, [1])


@builtin("flipud(input)", ("flip",))
def flipud(input: Any) -> Tensor:
    """input with the order of its rows (dim 0) reversed."""
    x = tensor_arg(input)
    if x.ndim < 1:
        raise BadValueError("flipud(): Input must be >= 1-d.", reason="dims")
    return flip(x, [0])


def _triangle(x: Tensor, diagonal: Any, lower: bool, name: str) -> Tensor:
    if x.ndim < 2:
        raise ShapeError(f"{name}: input tensor must have at least 2 dimensions", reason="matrix")
    rows, cols = x._data.shape[-2:]
    k = int(diagonal)
    mask = np.tri(rows, cols, k, dtype=bool) if lower else ~np.tri(rows, cols, k - 1, dtype=bool)
    return apply(TRIL if lower else TRIU, (x,), {"mask": mask})


@builtin("tril(input, diagonal=0)", ("tril",))
def tril(input: Any, diagonal: Any = 0) -> Tensor:
    return _triangle(tensor_arg(input), diagonal, True, "tril")


@builtin("triu(input, diagonal=0)", ("triu",))
def triu(input: Any, diagonal: Any = 0) -> Tensor:
    return _triangle(tensor_arg(input), diagonal, False, "triu")


@builtin("diagonal(input, offset=0, dim1=0, dim2=1)", ("diagonal",))
def diagonal(input: Any, offset: Any = 0, dim1: Any = 0, dim2: Any = 1) -> Tensor:
    x = tensor_arg(input)
    d1, d2 = check_dim(dim1, x.ndim), check_dim(dim2, x.ndim)
    if d1 == d2:
        raise BadValueError(f"diagonal dimensions cannot be identical {dim1}, {dim2}", reason="dim")
    return apply(DIAGONAL, (x,), {"offset": int(offset), "dim1": d1, "dim2": d2})


# ---------------------------------------------------------------------------- movedim, ravel, atleast_*
@builtin("movedim(input, source, destination)", ("permute",))
def movedim(input: Any, source: Any, destination: Any) -> Tensor:
    """input with the dims `source` moved to the positions `destination` (PermuteBackward0)."""
    x = tensor_arg(input)
    src, dst = _dims(source, x.ndim), _dims(destination, x.ndim)
    if len(src) != len(dst):
        raise BadValueError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain "
                            f"the same number of dims as destination ({list(dst)} dims)", reason="dim")
    order = [d for d in range(x.ndim) if d not in src]
    for to, frm in sorted(zip(dst, src)):
        order.insert(to, frm)
    return permute(x, tuple(order))


alias("moveaxis", "movedim")  # numpy's spelling, which PyTorch has too


@builtin("ravel(input)", ("view", "clone"))
def ravel(input: Any) -> Tensor:
    """input flattened: a view of contiguous data, else a view of a contiguous copy (CloneBackward0)."""
    x = tensor_arg(input)
    if not x._data.flags.c_contiguous:
        x = apply(CLONE, (x,), {"contiguous": True})
    return apply(VIEW, (x,), {"shape": (x.numel(),)})


def _atleast(x: Tensor, n: int) -> Tensor:
    if x.ndim >= n:
        return x
    if x.ndim == 0:
        return reshape(x, *(1,) * n)
    if n == 2 or x.ndim == 2:  # a vector as a row; a matrix with a last dim
        return unsqueeze(x, 0 if x.ndim == 1 else -1)
    return unsqueeze(unsqueeze(x, 0), -1)


def _each(tensors: tuple, n: int) -> Any:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return tuple(_atleast(tensor_arg(t), n) for t in tensors[0])
    out = tuple(_atleast(tensor_arg(t), n) for t in tensors)
    return out[0] if len(out) == 1 else out


@builtin("atleast_1d(*tensors)", ("view",))
def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least 1 dim (a 0-d one as [x])."""
    return _each(tensors, 1)


@builtin("atleast_2d(*tensors)", ("view", "unsqueeze"))
def atleast_2d(*tensors: Any) -> Any:
    """Each tensor with at least 2 dims (a vector as a row)."""
    return _each(tensors, 2)


@builtin("atleast_3d(*tensors)", ("view", "unsqueeze"))
def atleast_3d(*tensors: Any) -> Any:
    """Each tensor with at least 3 dims (a vector as 1 x n x 1, a matrix as m x n x 1)."""
    return _each(tensors, 3)


def _listed(tensors: Any, name: str) -> list[Tensor]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise BadValueError(f"{name}() expects a non-empty list of tensors, e.g. {name}([x, y])", reason="tensors")
    return [tensor_arg(t) for t in tensors]


@builtin("hstack(tensors)", ("cat", "view"), method=False,
         summary="tensors joined column-wise (dim 1; dim 0 for vectors)")
def hstack(tensors: Any) -> Tensor:
    items = [_atleast(t, 1) for t in _listed(tensors, "hstack")]
    return cat(items, 0 if items[0].ndim == 1 else 1)


@builtin("vstack(tensors)", ("cat", "unsqueeze", "view"), method=False, summary="tensors joined row-wise (dim 0)")
def vstack(tensors: Any) -> Tensor:
    return cat([_atleast(t, 2) for t in _listed(tensors, "vstack")], 0)


@builtin("dstack(tensors)", ("cat", "unsqueeze", "view"), method=False, summary="tensors joined depth-wise (dim 2)")
def dstack(tensors: Any) -> Tensor:
    return cat([_atleast(t, 3) for t in _listed(tensors, "dstack")], 2)


# ---------------------------------------------------------------------------- split, chunk, unbind
def _pieces(x: Tensor, sizes: list[int], d: int, op: Op) -> tuple[Tensor, ...]:
    bounds, start = [], 0
    for n in sizes:
        bounds.append((start, start + n))
        start += n
    return tuple(apply(op, (x,), {"dim": d, "bounds": tuple(bounds)}))


@builtin("split(input, split_size_or_sections, dim=0)", ("split", "split_with_sizes"))
def split(input: Any, split_size_or_sections: Any, dim: Any = 0) -> tuple[Tensor, ...]:
    """input in pieces along dim: of split_size each (the last smaller), or of the sizes listed."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise BadValueError("split expects at least a 1-dimensional tensor", reason="split")
    d = check_dim(dim, x.ndim)
    size = x._data.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = list(coerce.sizes((split_size_or_sections,), "split sizes"))
        if sum(sizes) != size:
            raise BadValueError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                                f"at dimension {d}), but got split_sizes={sizes}", reason="split")
        return _pieces(x, sizes, d, SPLIT_SIZES)
    step = coerce.sizes((split_size_or_sections,), "split size")[0]
    if step == 0 and size:
        raise BadValueError("split(): split_size can only be 0 if dimension size is 0", reason="split")
    sizes = [min(step, size - start) for start in range(0, size, step)] if step else [0]
    return _pieces(x, sizes, d, SPLIT)


@builtin("chunk(input, chunks, dim=0)", ("split",))
@with_axis
def chunk(input: Any, chunks: Any, dim: Any = 0) -> tuple[Tensor, ...]:
    """input in `chunks` pieces of equal size along dim (the last smaller; fewer when they do not divide)."""
    x = tensor_arg(input)
    count = coerce.sizes((chunks,), "chunks")[0]
    if count <= 0:
        raise BadValueError(f"chunk expects `chunks` to be greater than 0, got: {count}", reason="split")
    d = check_dim(dim, x.ndim)
    size = x._data.shape[d] if x.ndim else 1
    return split(x, max(1, -(-size // count)), d)


def unsafe_chunk(x: Tensor, chunks: int, dim: int) -> tuple[Tensor, ...]:
    """x.unsafe_chunk(chunks, dim) as ATen's recurrent cells call it (UnsafeSplitBackward0): chunk's pieces."""
    size = x._data.shape[dim]
    step = max(1, -(-size // chunks))
    return _pieces(x, [min(step, size - start) for start in range(0, size, step)], dim, UNSAFE_SPLIT)


@builtin("unbind(input, dim=0)", ("unbind",))
@with_axis
def unbind(input: Any, dim: Any = 0) -> tuple[Tensor, ...]:
    """The slices of input along dim, each without that dim."""
    x = tensor_arg(input)
    if x.ndim == 0:
        raise BadValueError("Dimension specified as 0 but tensor has no dimensions", reason="dim")
    d = check_dim(dim, x.ndim)
    return tuple(apply(UNBIND, (x,), {"dim": d}))
