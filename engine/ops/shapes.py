"""Shapes, views and copies: reshape and view, flatten, t/transpose/permute, squeeze/unsqueeze, expand, the
dtype conversion `to`, clone and detach; and the views indexing records (select, slice) with the scatters
their gradients make (recorded inside backward with create_graph)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import coerce
from ..core.coerce import tensor_arg, with_axis
from ..core.devices import in_c_order
from ..core.optable import LINEAR_JVP, SHAPES, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import alias, builtin
from ..core.settings import as_dtype, check_dim, check_dims, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels.arrays import memory_order, slice_scatter, swapaxes


def _reshaped(F: Any, g: Any, s: Any) -> Any:
    return F.reshape(g, s.input_shape)


def _declare(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, **facts: Any) -> Op:
    facts.setdefault("group", SHAPES)
    facts.setdefault("jvp", LINEAR_JVP)  # views and copies: the same operation on the tangent
    return declare(Op(name, node, ("self",), forward, (Grad(formula, text),), doc, **facts))


T = _declare("t", "TBackward0", lambda x: x.T, lambda F, g, s: F.t(g), "grad.t()",
             "transpose of a matrix", view=True)
TRANSPOSE = _declare("transpose", "TransposeBackward0", lambda x, *, dim0, dim1: swapaxes(x, dim0, dim1),
                     lambda F, g, s: F.transpose(g, s.dim0, s.dim1), "grad.transpose(dim0, dim1)", "swap two dims",
                     view=True)
PERMUTE = _declare("permute", "PermuteBackward0", lambda x, *, dims: np.transpose(x, dims),
                   lambda F, g, s: F.permute(g, tuple(int(i) for i in np.argsort(s.dims))), "grad permuted back",
                   "reorder dims", view=True)
VIEW = _declare("view", "ViewBackward0", lambda x, *, shape: x.reshape(shape), _reshaped, "grad.reshape(self.shape)",
                "same data, new shape", view=True)
RESHAPE_ALIAS = _declare("reshape_alias", "ReshapeAliasBackward0", lambda x, *, shape: x.reshape(shape), _reshaped,
                         "grad.reshape(self.shape)",
                         "same data, new shape (reshape of non-contiguous data that a view can still express)",
                         view=True)
UNSAFE_VIEW = _declare("unsafe_view", "UnsafeViewBackward0", lambda x, *, shape: x.reshape(shape), _reshaped,
                       "grad.reshape(self.shape)", "new shape of a fresh copy (reshape of non-contiguous data)")
TO = _declare("to", "ToCopyBackward0",
             lambda x, *, dtype, contiguous=False: x.astype(dtype, order="C" if contiguous else memory_order(x)),
              lambda F, g, s: F.cast(g, s.input_dtype), "grad converted back to self's dtype",
              "convert to another dtype", noisy=True)
CLONE = _declare("clone", "CloneBackward0",
                 lambda x, *, contiguous=False: np.array(x, copy=True, order="C" if contiguous else memory_order(x)),
                 lambda F, g, s: g, "grad", "a copy")
ALIAS = _declare("alias", "AliasBackward0", lambda x: x[...], lambda F, g, s: g, "grad",
                 "the same data (x[...], x[:, :])", view=True)
UNSQUEEZE = _declare("unsqueeze", "UnsqueezeBackward0", lambda x, *, dim: np.expand_dims(x, dim),
                     lambda F, g, s: F.squeeze(g, s.dim),
                     "grad.squeeze(dim)", "insert a dim of size 1", view=True)
SQUEEZE = _declare("squeeze", "SqueezeBackward0", lambda x: x.reshape([n for n in x.shape if n != 1]), _reshaped,
                   "grad.reshape(self.shape)", "remove dims of size 1", view=True)
SQUEEZE_DIM = _declare("squeeze_dim", "SqueezeBackward1",
                       lambda x, *, dim: np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x[...],
                       lambda F, g, s: F.unsqueeze(g, s.dim) if s.input_shape and s.input_shape[s.dim] == 1 else g,
                       "grad.unsqueeze(dim)", "remove one dim of size 1", view=True)
SQUEEZE_DIMS = _declare("squeeze_dims", "SqueezeBackward2",
                        lambda x, *, dims: np.squeeze(x, tuple(d for d in dims if x.shape[d] == 1))
                        if x.ndim else x[...],
                        _reshaped, "grad.reshape(self.shape)", "remove the given dims where their size is 1", view=True)
SQUEEZE_VM = _declare("squeeze_vm", "SqueezeBackward4", lambda x, *, dim: np.squeeze(x, dim),
                      lambda F, g, s: F.unsqueeze(g, s.dim),
                      "grad.unsqueeze(dim)", "remove the dim matmul added to a vector", view=True)
EXPAND = _declare("expand", "ExpandBackward0", lambda x, *, shape: np.broadcast_to(x, shape),
                  lambda F, g, s: F.sum_to(g, s.input_shape), "grad summed back to self's shape",
                  "broadcast to a larger shape (no copy)", view=True)
SELECT = _declare("select", "SelectBackward0", lambda x, *, dim, index: x[(slice(None),) * dim + (index, ...)],
                  lambda F, g, s: F.select_backward(g, s.input_shape, s.dim, s.index),
                  "zeros of self's shape with grad at [index] along dim", "x[i] along a dim", view=True)
SLICE = _declare("slice", "SliceBackward0",
                 lambda x, *, dim, start, stop, step: x[(slice(None),) * dim + (slice(start, stop, step),)],
                 lambda F, g, s: F.slice_backward(g, s.input_shape, s.dim, s.start, s.stop, s.step),
                 "zeros of self's shape with grad at [start:stop:step] along dim", "x[a:b:c] along a dim", view=True)
SELECT_BACKWARD = _declare("select_backward", "SelectBackwardBackward0",
                           lambda g, *, shape, dim, index: slice_scatter(g, shape, (slice(None),) * dim + (index,)),
                           lambda F, g, s: F.index(g, (slice(None),) * s.dim + (s.index,)), "grad[index] along dim",
                           "scatter into zeros (the backward of select)", group=None)
SLICE_BACKWARD = _declare("slice_backward", "SliceBackwardBackward0",
                          lambda g, *, shape, dim, start, stop, step: slice_scatter(
                              g, shape, (slice(None),) * dim + (slice(start, stop, step),)),
                          lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(s.start, s.stop, s.step),)),
                          "grad[start:stop:step] along dim", "scatter into zeros (the backward of a slice)", group=None)


# ---------------------------------------------------------------------------- reshape and view
def _infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise BadValueError("only one dimension can be inferred (-1)")
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or numel % known:
            raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}", reason="reshape")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    if math.prod(shape) != numel:
        raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}", reason="reshape")
    return shape


def _viewable(data: np.ndarray, shape: tuple[int, ...]) -> bool:
    try:
        data.reshape(shape, copy=False)
    except ValueError:
        return False
    return True


@builtin("reshape(input, *shape)", ("view", "reshape_alias", "clone", "unsafe_view"))
def reshape(input: Any, *shape: Any) -> Tensor:
    """Same elements, new shape: a view when the memory layout allows, else a copy (as PyTorch).

    PyTorch records a view of contiguous data as ViewBackward0, of other data as ReshapeAliasBackward0,
    and a copy as UnsafeViewBackward0 over a C-ordered CloneBackward0.
    """
    x = tensor_arg(input)
    target = _infer_shape(coerce.sizes(shape, "shape", allow_minus_one=True), x.numel())
    if x._data.flags.c_contiguous:
        return apply(VIEW, (x,), {"shape": target})
    if _viewable(x._data, target):
        return apply(RESHAPE_ALIAS, (x,), {"shape": target})
    return apply(UNSAFE_VIEW, (apply(CLONE, (x,), {"contiguous": True}),), {"shape": target})


@builtin("view(input, *shape)", ("view",))
def view(input: Any, *shape: Any) -> Tensor:
    x = tensor_arg(input)
    target = _infer_shape(coerce.sizes(shape, "shape", allow_minus_one=True), x.numel())
    if not x._data.flags.c_contiguous and not _viewable(x._data, target):  # (C-ordered data views any shape)
        raise ShapeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.",
            reason="view",
        )
    return apply(VIEW, (x,), {"shape": target})


@builtin("flatten(input, start_dim=0, end_dim=-1)", ("view", "reshape_alias", "clone", "unsafe_view"))
def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    x = tensor_arg(input)
    if x.ndim == 0:
        return reshape(x, 1)
    start, end = check_dim(start_dim, x.ndim), check_dim(end_dim, x.ndim)
    if start > end:
        raise BadValueError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    shape = x._data.shape
    return reshape(x, *shape[:start], math.prod(shape[start:end + 1]), *shape[end + 1:])


@builtin("unflatten(input, dim, sizes)", ("view",))
def unflatten(input: Any, dim: int, sizes: Any) -> Tensor:
    """Dim `dim` split into `sizes` (one may be -1): a view (ViewBackward0), as PyTorch's."""
    x = tensor_arg(input)
    d = check_dim(dim, x.ndim)
    shape = x._data.shape
    parts = coerce.sizes(tuple(sizes) if isinstance(sizes, (list, tuple)) else (sizes,), "sizes",
                         allow_minus_one=True)
    known = math.prod(p for p in parts if p != -1)
    if (-1 not in parts and known != shape[d]) or (-1 in parts and (known == 0 or shape[d] % known)):
        raise ShapeError(f"unflatten: Provided sizes {list(parts)} don't multiply up to the size of dim {dim} "
                         f"({shape[d]}) in the input tensor", reason="view")
    return view(x, *shape[:d], *parts, *shape[d + 1:])


# ---------------------------------------------------------------------------- dims
@builtin("t(input)", ("t",))
def t(input: Any) -> Tensor:
    x = tensor_arg(input)
    if x.ndim > 2:
        raise BadValueError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return apply(T, (x,))


@builtin("transpose(input, dim0, dim1)", ("transpose",))
def transpose(input: Any, dim0: int, dim1: int) -> Tensor:
    x = tensor_arg(input)
    return apply(TRANSPOSE, (x,), {"dim0": check_dim(dim0, x.ndim), "dim1": check_dim(dim1, x.ndim)})


alias("swapaxes", "transpose")  # numpy's spelling (and PyTorch's swapdims)
alias("swapdims", "transpose")


@builtin("permute(input, *dims)", ("permute",))
def permute(input: Any, *dims: Any) -> Tensor:
    """input with its dims reordered (negative dims count from the end)."""
    x = tensor_arg(input)
    order = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple, Tensor)) else dims
    if isinstance(order, Tensor):
        order = tuple(order.tolist())
    for d in order:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise BadValueError(f"permute: dims must be integers, got {d!r}", reason="dim")
    normalized = tuple(check_dim(d, x.ndim) for d in order)
    if sorted(normalized) != list(range(x.ndim)):
        raise BadValueError(f"permute: dims {list(order)} must name each of the tensor's {x.ndim} dimensions once")
    return apply(PERMUTE, (x,), {"dims": normalized})


@builtin("unsqueeze(input, dim)", ("unsqueeze",))
@with_axis
def unsqueeze(input: Any, dim: int) -> Tensor:
    x = tensor_arg(input)
    check_dims(x.ndim + 1, "unsqueeze's result")
    return apply(UNSQUEEZE, (x,), {"dim": check_dim(dim, x.ndim + 1)})


@builtin("squeeze(input, dim=None)", ("squeeze", "squeeze_dim", "squeeze_dims"))
@with_axis
def squeeze(input: Any, dim: int | tuple | None = None) -> Tensor:
    """Dims of size 1 removed: all of them, the one dim, or those of a tuple of dims (SqueezeBackward2)."""
    x = tensor_arg(input)
    if dim is None:
        return apply(SQUEEZE, (x,))
    if isinstance(dim, (list, tuple)):
        dims = tuple(check_dim(d, x.ndim) for d in dim)
        if len(set(dims)) != len(dims):
            raise BadValueError(f"dim {next(d for d in dims if dims.count(d) > 1)} appears multiple times in the "
                                "list of dims", reason="dim")
        return apply(SQUEEZE_DIMS, (x,), {"dims": dims})
    return apply(SQUEEZE_DIM, (x,), {"dim": check_dim(dim, x.ndim)})


@builtin("expand(input, *sizes)", ("expand",))
def expand(input: Any, *sizes: Any) -> Tensor:
    x = tensor_arg(input)
    target = list(coerce.sizes(sizes, "sizes", allow_minus_one=True))
    shape = x._data.shape
    if len(target) < len(shape):
        raise ShapeError(
            f"expand: the number of sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})", reason="expand")
    lead = len(target) - len(shape)
    target_sizes = list(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else list(sizes)
    for i, n in enumerate(shape):
        want = target[lead + i]
        if want == -1:
            target[lead + i] = n
        elif n != want and n != 1:
            raise ShapeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({n}) at non-singleton "
                f"dimension {lead + i}.  Target sizes: {target_sizes}.  "
                f"Tensor sizes: {list(shape)}", reason="expand")
    if any(n == -1 for n in target[:lead]):
        raise ShapeError("expand: -1 is not allowed for a new leading dimension", reason="expand")
    check_elements(tuple(target), "the expanded tensor")
    return apply(EXPAND, (x,), {"shape": tuple(target)})


# ---------------------------------------------------------------------------- copies
@builtin("to(input, dtype)", ("to",))
def to(input: Any, dtype: Any = None, *, copy: bool = False, memory_format: Any = None) -> Tensor:
    """The tensor converted to dtype (a dtype, its name, or a tensor whose dtype to take); itself when it already
    has it, unless copy=True (a copy recorded as a conversion, ToCopyBackward0, as PyTorch records it). A floating
    tensor made integer is rounded towards zero, as PyTorch's. A conversion or copy keeps the input's memory order,
    or is in C order with torch.contiguous_format."""
    x = tensor_arg(input)
    c_order = in_c_order(memory_format, "to")
    target = x._data.dtype if dtype is None else dtype._data.dtype if isinstance(dtype, Tensor) else as_dtype(dtype)
    if x._data.dtype == target and not copy:
        return x
    return apply(TO, (x,), {"dtype": target, "contiguous": True} if c_order else {"dtype": target})


@builtin("clone(input, memory_format=None)", ("clone",), op=CLONE)
def clone(input: Any, *, memory_format: Any = None) -> Tensor:
    """A copy, recorded (CloneBackward0): in the input's memory order, or C order with torch.contiguous_format."""
    x = tensor_arg(input)
    return apply(CLONE, (x,), {"contiguous": True}) if in_c_order(memory_format, "clone") else apply(CLONE, (x,))


@builtin("detach(input)", summary="the same values, cut from the graph (no gradient flows back)")
def detach(input: Any) -> Tensor:
    return tensor_arg(input).detach()
