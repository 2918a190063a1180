"""Linear algebra: matrix products (mm, mv, dot and matmul with numpy's rules for vectors and batches),
trace, det, inverse, outer, and diag (a vector as a diagonal matrix, or the diagonal of a matrix)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, tensor_arg
from ..core.optable import BILINEAR_JVP, KEPT, LINEAR_ALGEBRA, LINEAR_JVP, PROMOTED, WIDENED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..kernels import allocator
from .arithmetic import mul
from .shapes import CLONE, SQUEEZE_VM, UNSAFE_VIEW, expand, reshape, squeeze, t, transpose, unsqueeze


def _inverse(x: np.ndarray) -> np.ndarray:
    try:
        return allocator.inverse(x)
    except np.linalg.LinAlgError:
        raise BadValueError("inverse: the matrix is singular (its determinant is 0), so it has no inverse",
                            reason="singular") from None


def _declare(name: str, node: str, inputs: tuple[str, ...], forward: Any, grads: tuple[Grad, ...], doc: str,
             **facts: Any) -> Op:
    return declare(Op(name, node, inputs, forward, grads, doc, group=LINEAR_ALGEBRA, **facts))


def _mm_self_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's mm_mat1_backward: a column-major self gets its gradient as (mat2 @ grad.t()).t()."""
    return F.t(F.mm(s.mat2, F.t(g))) if s.self_column_major else F.mm(g, F.t(s.mat2))


def _mm_mat2_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's mm_mat2_backward: a column-major mat2 gets its gradient as (grad.t() @ self).t()."""
    return F.t(F.mm(F.t(g), s.self)) if s.mat2_column_major else F.mm(F.t(s.self), g)


MM = _declare("mm", "MmBackward0", ("self", "mat2"),
              lambda a, b, *, self_column_major=False, mat2_column_major=False: allocator.matmul(a, b),
              (Grad(_mm_self_grad, "grad @ mat2.t()"), Grad(_mm_mat2_grad, "self.t() @ grad")), "matrix @ matrix",
              jvp=BILINEAR_JVP, integers=PROMOTED)
BMM = _declare("bmm", "BmmBackward0", ("self", "mat2"), allocator.matmul,
               (Grad(lambda F, g, s: F.bmm(g, F.transpose(s.mat2, 1, 2)), "grad.bmm(mat2.transpose(1, 2))"),
                Grad(lambda F, g, s: F.bmm(F.transpose(s.self, 1, 2), g), "self.transpose(1, 2).bmm(grad)")),
               "batched matrix @ matrix (3-D)", jvp=BILINEAR_JVP, integers=PROMOTED)
MV = _declare("mv", "MvBackward0", ("self", "vec"), allocator.matmul,
              (Grad(lambda F, g, s: F.reshape(g, (-1, 1)) * s.vec, "outer(grad, vec)"),
               Grad(lambda F, g, s: F.mv(F.t(s.self), g), "self.T @ grad")), "matrix @ vector",
              jvp=BILINEAR_JVP, integers=PROMOTED)
DOT = _declare("dot", "DotBackward0", ("self", "other"), allocator.dot,
               (Grad(lambda F, g, s: g * s.other, "grad * other"), Grad(lambda F, g, s: g * s.self, "grad * self")),
               "vector . vector", jvp=BILINEAR_JVP, integers=PROMOTED)
TRACE = _declare("trace", "TraceBackward0", ("self",), lambda x: np.asarray(np.trace(x)),
                 (Grad(lambda F, g, s: g * np.eye(*s.input_shape, dtype=s.input_dtype), "grad * eye"),),
                 "sum of the diagonal", jvp=LINEAR_JVP, integers=WIDENED)
DET = _declare("det", "LinalgDetBackward0", ("self",), lambda x: np.asarray(allocator.det(x)).astype(x.dtype),
               (Grad(lambda F, g, s: F.unsqueeze(F.unsqueeze(g * s.result, -1), -1)
                     * F.transpose(F.inverse(s.self), -2, -1), "grad * result * inverse(self).T"),),
               "determinant (of each matrix of a batch)", noisy=True,
               jvp=lambda F, t, s: s.result * np.trace(F.matmul(F.inverse(s.self), t.self), axis1=-2, axis2=-1))
INVERSE = _declare("inverse", "LinalgInvExBackward0", ("self",), _inverse,
                   (Grad(lambda F, g, s: -F.matmul(F.matmul(F.transpose(s.result, -2, -1), g),
                                                  F.transpose(s.result, -2, -1)), "-result.T @ grad @ result.T"),),
                   "matrix inverse", noisy=True, jvp=lambda F, t, s: -F.matmul(F.matmul(s.result, t.self), s.result))
def diagonal_positions(rows: int, cols: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """The (row, column) positions of a matrix's diagonal `offset` (above the main one when positive)."""
    n = max(0, min(rows - max(0, -offset), cols - max(0, offset)))
    first = np.arange(n) + max(0, -offset)
    return first, first + offset


def _embed_grad(F: Any, g: Any, s: Any) -> Any:
    n = s.input_shape[0] + abs(s.offset)
    return F.diagonal(g) if s.offset == 0 else F.index(g, diagonal_positions(n, n, s.offset))


def _diagonal_copy_grad(F: Any, g: Any, s: Any) -> Any:
    if s.offset == 0:
        return F.diagonal_backward(g, s.input_shape)
    return F.index_put_add(tuple(s.input_shape), diagonal_positions(*s.input_shape, s.offset), g)


DIAG_EMBED = _declare("diag_embed", "DiagEmbedBackward0", ("self",), lambda x, *, offset: np.diag(x, offset),
                      (Grad(_embed_grad, "the diagonal (offset) of grad"),), "a vector as a diagonal matrix",
                      jvp=LINEAR_JVP, integers=KEPT)
DIAGONAL_COPY = _declare("diagonal_copy", "DiagonalBackward0_copy", ("self",),
                         lambda x, *, offset: np.diagonal(x, offset).copy(),
                         (Grad(_diagonal_copy_grad, "zeros with grad on the diagonal (offset)"),),
                         "the diagonal of a matrix (a copy)", jvp=LINEAR_JVP, integers=KEPT)


# ---------------------------------------------------------------------------- products
def _dims_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


def _same_dtype(a: Tensor, b: Tensor) -> None:
    """Matrix products do not promote (PyTorch): float32 @ float64 is an error, not a float64 result."""
    if a._data.dtype != b._data.dtype:
        names = {"float32": "float", "float64": "double"}
        first, second = (names.get(x._data.dtype.name, x._data.dtype.name) for x in (a, b))
        raise BadValueError(
            f"expected m1 and m2 to have the same dtype, but got: {first} != {second}",
            hint="convert one of them first, e.g. a.double() @ b or a @ b.float()", reason="dtype")


MATMUL_OPS = ("dot", "mv", "mm", "bmm", "unsqueeze", "squeeze_vm", "squeeze_dim", "t", "transpose", "view",
               "reshape_alias", "clone", "unsafe_view", "expand")


@builtin("matmul(input, other)", MATMUL_OPS,
         summary="matrix product with numpy's rules for vectors and batches, recorded as PyTorch's at::matmul records "
                 "it (dot, mv, mm; a batch folded into mm/mv rows, or expanded and reshaped around bmm)")
def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with numpy/PyTorch's rules for 1-D and batched operands."""
    a, b = tensor_arg(input), tensor_arg(other, "other")
    if a._data.ndim == 2 and b._data.ndim == 2:  # the common case first (mm checks the dtypes)
        return mm(a, b)
    _same_dtype(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise ShapeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return apply(SQUEEZE_VM, (mm(unsqueeze(a, 0), b),), {"dim": 0})
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    sa, sb = a._data.shape, b._data.shape
    inner_a = sa[-1]
    inner_b = sb[-2] if b.ndim > 1 else sb[0]
    if inner_a != inner_b:
        raise ShapeError(f"matmul: shapes {tuple(sa)} and {tuple(sb)} cannot be multiplied "
                         f"({inner_a} columns against {inner_b} rows)", reason="matmul", shapes=(sa, sb))
    batch = broadcast_shape(sa[:-2], sb[:-2] if b.ndim > 1 else ())
    check_elements(batch + ((sa[-2],) if a.ndim > 1 else ()) + ((sb[-1],) if b.ndim > 1 else ()),
                   "the matmul result")
    return _folded(a, b) if _should_fold(a, b) else _batched(a, b)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """PyTorch's should_fold: the operand of 3 or more dims folds into the rows of an mm / mv (no bmm) when the
    other has 1 or 2 dims and either requires grad or the fold needs no copy."""
    larger = a.ndim >= b.ndim
    big, small = (a, b) if larger else (b, a)
    if not (big.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a.ndim == 2:
        return False
    if big.numel() == 0:
        return True
    shape = list(big._data.shape)
    strides = [n // big._data.itemsize for n in big._data.strides]
    if not larger:  # the batch of b.mT
        shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.ndim - 2))


def _folded(a: Tensor, b: Tensor) -> Tensor:
    """The batch folded into rows: (t1 reshaped to 2-D) @ t2, _unsafe_view back; for 2-D @ N-D, t1 = b.mT and the
    result transposed back and made contiguous (CloneBackward0, unless a dim of size 1 makes it so), as PyTorch."""
    flipped = b.ndim > a.ndim
    t1 = transpose(b, -2, -1) if flipped else a
    t2 = (t(a) if a.ndim == 2 else a) if flipped else b
    rows = t1._data.shape[:-1]
    folded = reshape(t1, math.prod(rows), t1._data.shape[-1])
    if t2.ndim == 1:
        return apply(UNSAFE_VIEW, (mv(folded, t2),), {"shape": rows})
    out = apply(UNSAFE_VIEW, (mm(folded, t2),), {"shape": (*rows, t2._data.shape[1])})
    if not flipped:
        return out
    out = transpose(out, -2, -1)  # .contiguous(): a copy only when the layout is not already C-ordered
    return out if out._data.flags.c_contiguous else apply(CLONE, (out,), {"contiguous": True})


def _batched(a: Tensor, b: Tensor) -> Tensor:
    """Both expanded to the broadcast batch, reshaped to 3-D, one bmm, _unsafe_view to the result's shape; a
    batch of one that requires grad against another 3-D batch is squeezed first (then folded), as PyTorch."""
    sa, sb = a._data.shape, b._data.shape
    if a.ndim == 3 and b.ndim == 3 and sa[0] != sb[0]:
        if sa[0] == 1 and a.requires_grad:
            return matmul(squeeze(a, 0), b)
        if sb[0] == 1 and b.requires_grad:
            return matmul(a, squeeze(b, 0))
    n, m1 = (sa[-2] if a.ndim > 1 else 1), sa[-1]
    m2, p = (sb[-2], sb[-1]) if b.ndim > 1 else (sb[0], 1)
    batch = broadcast_shape(sa[:-2], sb[:-2] if b.ndim > 1 else ())
    count = math.prod(batch)
    left = reshape(expand(a, *batch, n, m1), count, n, m1)
    if b.ndim == 1:
        right = unsqueeze(reshape(expand(b, *batch, m2), count, m2), 2)
        product = squeeze(bmm(left, right), -1)
    else:
        product = bmm(left, reshape(expand(b, *batch, m2, p), count, m2, p))
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return apply(UNSAFE_VIEW, (product,), {"shape": shape})


@builtin("mm(input, mat2)", ("mm",))
def mm(input: Any, mat2: Any) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(mat2, "mat2")
    _same_dtype(a, b)
    if a.ndim != 2 or b.ndim != 2:
        raise ShapeError(f"mm needs two matrices, got shapes {tuple(a.shape)} and {tuple(b.shape)}", reason="matmul")
    if a._data.shape[1] != b._data.shape[0]:
        raise ShapeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_dims_text(a._data.shape)} and "
            f"{_dims_text(b._data.shape)}): the first's columns must equal the second's rows",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    check_elements((a._data.shape[0], b._data.shape[1]), "the matrix product")
    return apply(MM, (a, b), {"self_column_major": column_major(a), "mat2_column_major": column_major(b)})


def column_major(x: Tensor) -> bool:
    """A matrix laid out by columns (strides (1, rows) in elements), as PyTorch's mm backward tests it."""
    data = x._data
    if data.ndim != 2:
        return False
    first, second = data.strides
    return first // data.itemsize == 1 and second // data.itemsize == data.shape[0]


@builtin("bmm(input, mat2)", ("bmm",))
def bmm(input: Any, mat2: Any) -> Tensor:
    """The matrix products of two batches of matrices of the same batch size: (b, n, m) @ (b, m, p)."""
    a, b = tensor_arg(input), tensor_arg(mat2, "mat2")
    for x, name in ((a, "batch1"), (b, "batch2")):
        if x.ndim != 3:
            raise ShapeError(f"{name} must be a 3D tensor", reason="matmul", shapes=(a.shape, b.shape))
    (batch, rows, inner), (batch2, inner2, cols) = a._data.shape, b._data.shape
    if (batch2, inner2) != (batch, inner):
        raise ShapeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, {inner}] but "
                         f"got: [{batch2}, {inner2}].", reason="matmul", shapes=(a.shape, b.shape))
    if a._data.dtype != b._data.dtype:
        names = {"float32": "Float", "float64": "Double"}
        raise BadValueError(f"expected scalar type {names.get(a.dtype.name, a.dtype.name)} but found "
                            f"{names.get(b.dtype.name, b.dtype.name)}", reason="dtype")
    check_elements((batch, rows, cols), "the batched matrix product")
    return apply(BMM, (a, b))


@builtin("mv(input, vec)", ("mv",))
def mv(input: Any, vec: Any) -> Tensor:
    a, v = tensor_arg(input), tensor_arg(vec, "vec")
    _same_dtype(a, v)
    if a.ndim != 2 or v.ndim != 1 or a._data.shape[1] != v._data.shape[0]:
        raise ShapeError(
            f"mv needs a matrix and a vector of matching size, got shapes {tuple(a.shape)} and {tuple(v.shape)}",
            reason="matmul", shapes=(a.shape, v.shape),
        )
    return apply(MV, (a, v))


@builtin("dot(input, other)", ("dot",))
def dot(input: Any, other: Any) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(other, "other")
    _same_dtype(a, b)
    if a.ndim != 1 or b.ndim != 1:
        raise ShapeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors", reason="matmul",
                         shapes=(a.shape, b.shape))
    if a._data.shape != b._data.shape:
        raise ShapeError(
            f"dot: shapes {tuple(a.shape)} and {tuple(b.shape)} must have the same number of elements",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    return apply(DOT, (a, b))


@builtin("outer(input, vec2)", ("view", "mul"), summary="the outer product of two vectors: a matrix")
def outer(input: Any, vec2: Any) -> Tensor:
    a, b = tensor_arg(input), tensor_arg(vec2, "vec2")
    if a.ndim != 1 or b.ndim != 1:
        raise ShapeError(f"outer() expects two vectors (1-D), got shapes {tuple(a.shape)} and {tuple(b.shape)}",
                         reason="matrix", shapes=(tuple(a.shape), tuple(b.shape)))
    return mul(reshape(a, a._data.shape[0], 1), b)


# ---------------------------------------------------------------------------- matrices
def _matrix(x: Tensor, name: str, square: bool = True) -> None:
    shape = tuple(x.shape)
    if len(shape) != 2 or (square and shape[0] != shape[1]):
        what = "a square matrix" if square else "a matrix"
        raise ShapeError(f"{name}() expects {what} (2-D), got shape {shape}", reason="matrix", shapes=(shape,))


def _square_matrices(x: Tensor, function: str) -> None:
    """A square matrix or a batch of them (..., n, n), as torch.linalg's functions take them."""
    shape = tuple(x.shape)
    if len(shape) < 2:
        raise ShapeError(f"{function}: The input tensor A must have at least 2 dimensions.", reason="matrix",
                         shapes=(shape,))
    if shape[-1] != shape[-2]:
        raise ShapeError(f"{function}: A must be batches of square matrices, but they are {shape[-2]} by "
                         f"{shape[-1]} matrices", reason="matrix", shapes=(shape,))


@builtin("trace(input)", ("trace",))
def trace(input: Any) -> Tensor:
    x = tensor_arg(input)
    _matrix(x, "trace", square=False)
    return apply(TRACE, (x,))


@builtin("det(input)", ("det",))
def det(input: Any) -> Tensor:
    x = tensor_arg(input)
    _square_matrices(x, "linalg.det")
    return apply(DET, (x,))


@builtin("inverse(input)", ("inverse",))
def inverse(input: Any) -> Tensor:
    x = tensor_arg(input)
    _square_matrices(x, "linalg.inv")
    return apply(INVERSE, (x,))


@builtin("diag(input, diagonal=0)", ("diag_embed", "diagonal_copy"),
         summary="a vector as a diagonal matrix, or the diagonal of a matrix (diagonal > 0: above the main one)")
def diag(input: Any, diagonal: Any = 0) -> Tensor:
    x = tensor_arg(input)
    if isinstance(diagonal, bool) or not isinstance(diagonal, (int, np.integer)):
        raise BadValueError(f"diag(): diagonal must be an integer, got {diagonal!r}", reason="diagonal")
    offset = int(diagonal)
    if x.ndim == 1:
        n = x._data.shape[0] + abs(offset)
        check_elements((n, n), "the diagonal matrix")
        return apply(DIAG_EMBED, (x,), {"offset": offset})
    if x.ndim == 2:
        return apply(DIAGONAL_COPY, (x,), {"offset": offset})
    raise ShapeError(f"diag() expects a vector or a matrix, got shape {tuple(x.shape)}", reason="matrix",
                     shapes=(tuple(x.shape),))
