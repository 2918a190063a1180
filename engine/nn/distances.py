"""Distances and the losses made of them (torch.nn.functional), each recorded as PyTorch's C++ composite records
it: cosine_similarity (each input over its norm, the norms clamped to eps without recording, the product summed),
pairwise_distance (norm(x1 - x2 + eps): NormBackward1, AddBackward1, SubBackward0), triplet_margin_loss,
margin_ranking_loss and cosine_embedding_loss (ATen's formulas, then the reduction: MeanBackward0 or
SumBackward0), with the ATen overloads these composites record (AddBackward1, SubBackward1, NormBackward1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import broadcast_shape, number, tensor_arg
from ..core.optable import Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..core.tensormath import ADD_SCALAR, SUB_SCALAR
from ..errors import BadValueError, InvalidArgumentError, ShapeError
from ..ops.constructors import full_like, zeros_like
from ..ops.logic import where
from ..ops.reductions import NORM, reduced, vector_norm
from ..ops.shapes import clone, expand

REDUCTIONS = ("mean", "sum", "none")
EPSILON = 1e-12  # ATen's floor added to cosine_embedding_loss's squared magnitudes



# ---------------------------------------------------------------------------- ATen's overloads
# What PyTorch's C++ composites record and Python code never does: add and sub of a tensor and a number (the core's
# AddBackward1 and SubBackward1: `x1 - x2 + eps` in pairwise_distance, `cos - margin` in cosine_embedding_loss,
# `.add_(eps)` in rms_norm) and the p-norm over dims of at::norm (NormBackward1). Python's `x + 1` records
# AddBackward0 (the number wrapped as a tensor).
NORM_DIM = declare(Op(
    "norm_dim", "NormBackward1", ("self",), NORM.forward, (Grad(NORM.grads[0].fn, NORM.grads[0].text),),
    "the p-norm over dims (at::norm's overload)", noisy=True, jvp=NORM.jvp))


def add_scalar(x: Tensor, other: float) -> Tensor:
    """x + other, recorded as AddBackward1."""
    return apply(ADD_SCALAR, (x,), {"other": float(other)})


def sub_scalar(x: Tensor, other: float) -> Tensor:
    """x - other, recorded as SubBackward1."""
    return apply(SUB_SCALAR, (x,), {"other": float(other)})


def norm_dim(x: Tensor, p: float, dim: Any, keepdim: bool = False) -> Tensor:
    """The p-norm of x over dim, recorded as NormBackward1."""
    dims, keep = reduced(x, dim, keepdim)
    return apply(NORM_DIM, (x,), {"dim": dims, "keepdim": keep, "p": float(p)})


def add_number(x: Tensor, other: Any) -> Tensor:
    """x + other as ATen adds a Scalar (AddBackward1), or a tensor (AddBackward0)."""
    return x + other if isinstance(other, Tensor) else add_scalar(x, other)


def clamped_min(x: Tensor, low: float) -> Tensor:
    """x with its values raised to at least low in place, without recording (PyTorch's clamp_min_ under no_grad)."""
    np.maximum(x._data, low, out=x._data)
    return x


def reduction_of(reduction: Any, size_average: Any = None, reduce: Any = None) -> str:
    """The reduction named, or the one the deprecated size_average= / reduce= stand for (PyTorch's rule)."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        return "mean" if size_average and reduce else "sum" if reduce else "none"
    if not isinstance(reduction, str) or reduction not in REDUCTIONS:
        raise InvalidArgumentError(f"{reduction} is not a valid value for reduction", reason="reduction")
    return reduction


def reduced_loss(loss: Tensor, reduction: str) -> Tensor:
    """ATen's apply_loss_reduction: mean (MeanBackward0), sum (SumBackward0) or each term."""
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _floating(*tensors: Tensor) -> None:
    kinds = {t._data.dtype.kind for t in tensors}
    if not kinds & {"f", "c"}:
        raise BadValueError("expected common dtype to be floating point, yet common dtype is Long",
                            reason="dtype")


@builtin("cosine_similarity(x1, x2, dim=1, eps=1e-08)", ("expand", "norm", "clone", "div", "mul", "sum_dim"),
         method=False, functional=True)
def cosine_similarity(x1: Any, x2: Any, dim: Any = 1, eps: Any = 1e-8) -> Tensor:
    """The cosine of the angle between x1 and x2 along dim (broadcast together): each divided by its norm (at least
    eps), their product summed."""
    a, b = tensor_arg(x1, "x1"), tensor_arg(x2, "x2")
    _floating(a, b)
    if a.shape != b.shape:
        shape = broadcast_shape(tuple(a.shape), tuple(b.shape))
        a, b = expand(a, shape), expand(b, shape)
    low = number(eps, "eps")
    norm_a = clamped_min(clone(vector_norm(a, 2, dim, keepdim=True)), low)
    norm_b = clamped_min(clone(vector_norm(b, 2, dim, keepdim=True)), low)
    return ((a / norm_a) * (b / norm_b)).sum(dim)


@builtin("pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False)", ("sub", "add_scalar", "norm_dim"),
         method=False, functional=True)
def pairwise_distance(x1: Any, x2: Any, p: Any = 2.0, eps: Any = 1e-6, keepdim: Any = False) -> Tensor:
    """The p-norm of x1 - x2 + eps over the last dim."""
    a, b = tensor_arg(x1, "x1"), tensor_arg(x2, "x2")
    last = max(a.ndim, b.ndim) - 1
    return norm_dim(add_scalar(a - b, number(eps, "eps")), number(p, "p"), max(last, 0) if last >= 0 else None,
                    bool(keepdim))


@builtin("triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, "
         "size_average=None, reduce=None, reduction='mean')",
         ("sub", "add_scalar", "norm_dim", "minimum", "clamp_min", "mean", "sum"), method=False, functional=True)
def triplet_margin_loss(anchor: Any, positive: Any, negative: Any, margin: Any = 1.0, p: Any = 2, eps: Any = 1e-6,
                        swap: Any = False, size_average: Any = None, reduce: Any = None,
                        reduction: Any = "mean") -> Tensor:
    """max(margin + d(anchor, positive) - d(anchor, negative), 0), d the pairwise distance (swap: the smaller of
    d(anchor, negative) and d(positive, negative)), reduced."""
    how = reduction_of(reduction, size_average, reduce)
    if number(margin, "margin") <= 0:
        raise InvalidArgumentError(f"margin must be greater than 0, got {margin}", reason="margin")
    a, pos, neg = tensor_arg(anchor, "anchor"), tensor_arg(positive, "positive"), tensor_arg(negative, "negative")
    if not a.ndim == pos.ndim == neg.ndim:
        raise ShapeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                         f"dimensions, but got: anchor {a.ndim}D, positive {pos.ndim}D, and negative {neg.ndim}D "
                         "inputs", reason="loss_shape", shapes=(tuple(a.shape), tuple(pos.shape), tuple(neg.shape)))
    d_pos = pairwise_distance(a, pos, p, eps)
    d_neg = pairwise_distance(a, neg, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(pos, neg, p, eps))
    return reduced_loss((add_scalar(d_pos, number(margin, "margin")) - d_neg).clamp_min(0), how)


@builtin("margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')",
         ("sub", "neg", "mul", "add_scalar", "clamp_min", "mean", "sum"), method=False, functional=True)
def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: Any = 0, size_average: Any = None,
                        reduce: Any = None, reduction: Any = "mean") -> Tensor:
    """max(-target * (input1 - input2) + margin, 0), reduced."""
    how = reduction_of(reduction, size_average, reduce)
    x1, x2, y = tensor_arg(input1, "input1"), tensor_arg(input2, "input2"), tensor_arg(target, "target")
    if not x1.ndim == x2.ndim == y.ndim:
        raise ShapeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: "
                         f"{_size(x1)}, input2: {_size(x2)}, target: {_size(y)} ", reason="loss_shape",
                         shapes=(tuple(x1.shape), tuple(x2.shape), tuple(y.shape)))
    return reduced_loss(add_scalar(-y * (x1 - x2), number(margin, "margin")).clamp_min(0), how)


def _size(t: Tensor) -> str:
    return f"torch.Size({list(t.shape)})"


@builtin("cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction='mean')",
         ("mul", "sum_dim", "add_scalar", "sqrt", "div", "sub", "sub_scalar", "clamp_min", "where", "add", "mean",
          "sum"), method=False, functional=True)
def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: Any = 0, size_average: Any = None,
                          reduce: Any = None, reduction: Any = "mean") -> Tensor:
    """1 - cos(input1, input2) where target is 1, max(cos - margin, 0) where it is -1, reduced."""
    how = reduction_of(reduction, size_average, reduce)
    x1, x2, y = tensor_arg(input1, "input1"), tensor_arg(input2, "input2"), tensor_arg(target, "target")
    d = y.ndim
    if d not in (0, 1):
        raise BadValueError("0D or 1D target tensor expected, multi-target not supported", reason="loss_shape")
    if (x1.ndim, x2.ndim) != (d + 1, d + 1):
        raise ShapeError(f"{d}D target tensor expects {d + 1}D input tensors, but found inputs with sizes "
                         f"{list(x1.shape)} and {list(x2.shape)}.", reason="loss_shape",
                         shapes=(tuple(x1.shape), tuple(x2.shape)))
    prod_sum = (x1 * x2).sum(d)
    square1 = add_scalar((x1 * x1).sum(d), EPSILON)
    square2 = add_scalar((x2 * x2).sum(d), EPSILON)
    cos = prod_sum / (square1 * square2).sqrt()
    zeros = zeros_like(cos)
    pos = full_like(cos, 1.0) - cos
    neg = sub_scalar(cos, number(margin, "margin")).clamp_min(0)
    labels = y._data
    return reduced_loss(where(Tensor._make(np.asarray(labels == 1)), pos, zeros) +
                        where(Tensor._make(np.asarray(labels == -1)), neg, zeros), how)
