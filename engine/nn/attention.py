"""torch.nn.functional.scaled_dot_product_attention as PyTorch records it on the CPU: its flash kernel (one
node, ScaledDotProductFlashAttentionForCpuBackward0) for 4-D inputs of one head size without dropout or a float
mask; else its math path: query and the transposed key each times sqrt(scale) (MulBackward1), their matmul, the
mask added (a boolean mask, or is_causal's lower triangle, as 0 and -inf), _safe_softmax over the last dim
(SafeSoftmaxBackward0: a row masked out entirely gives zeros, not nan), dropout when dropout_p > 0, and the matmul
with value; and baddbmm (BaddbmmBackward0), which nn.MultiheadAttention's explicit path records."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import LINEAR_ALGEBRA, REDUCTIONS, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.tensor import Tensor
from ..core.tensormath import MUL_SCALAR
from ..errors import BadValueError, ShapeError
from ..ops.linalg import MATMUL_OPS, matmul
from ..ops.shapes import transpose
from .linear_functions import dropout


def _safe_softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    """softmax over dim, 0 for a slice that is -inf throughout (ATen's _safe_softmax)."""
    top = np.max(x, axis=dim, keepdims=True)
    masked = np.isneginf(top)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - np.where(masked, 0, top))
        out = e / np.add.reduce(e, axis=dim, keepdims=True)
    return np.ascontiguousarray(np.where(masked, 0, out), dtype=x.dtype)


SAFE_SOFTMAX = declare(Op(
    "safe_softmax", "SafeSoftmaxBackward0", ("self",), _safe_softmax,
    (Grad(lambda F, g, s: F.softmax_backward(g, s.result, s.dim), "result * (grad - sum(grad * result, dim))"),),
    "softmax over dim, 0 where a slice is all -inf", group=REDUCTIONS, noisy=True,
    jvp=lambda F, t, s: s.result * (t.self - F.sum(t.self * s.result, s.dim, True))))


def _attention_weights(q: np.ndarray, k: np.ndarray, *, mask: Any, scale: float) -> np.ndarray:
    """softmax(q @ k.T * scale + mask) over the last dim (a row masked out entirely: zeros)."""
    scores = np.matmul(q, np.swapaxes(k, -2, -1)) * scale
    if mask is not None:
        scores = scores + mask
    return _safe_softmax(scores.astype(q.dtype), dim=(-1,))


def _flash(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, mask: Any, scale: float) -> np.ndarray:
    out = np.matmul(_attention_weights(q, k, mask=mask, scale=scale), v)
    result = np.empty_like(q)  # PyTorch's CPU kernel lays the output out as the query
    result[...] = out
    return result


def _flash_grads(F: Any, g: Any, s: Any) -> tuple:
    """(dS, P): the scores' gradient through the softmax and the weights, from the saved inputs' values."""
    q, k = F.values(s.query), F.values(s.key)
    weights = _attention_weights(q, k, mask=s.mask, scale=s.scale)
    d_weights = F.matmul(g, F.transpose(s.value, -2, -1))
    return F.softmax_backward(d_weights, weights, (-1,)), weights


FLASH_ATTENTION = declare(Op(
    "flash_attention_cpu", "ScaledDotProductFlashAttentionForCpuBackward0", ("query", "key", "value"), _flash,
    (Grad(lambda F, g, s: F.matmul(_flash_grads(F, g, s)[0], s.key) * s.scale, "dS @ key * scale"),
     Grad(lambda F, g, s: F.matmul(F.transpose(_flash_grads(F, g, s)[0], -2, -1), s.query) * s.scale,
          "dS.mT @ query * scale"),
     Grad(lambda F, g, s: F.matmul(F.transpose(_flash_grads(F, g, s)[1], -2, -1), g), "P.mT @ grad")),
    "softmax(query @ key.mT * scale + mask) @ value in one kernel (PyTorch's CPU flash attention)",
    group=LINEAR_ALGEBRA, noisy=True))  # no forward formula: PyTorch has none either


def _float_mask(mask: Tensor, dtype: np.dtype) -> Tensor:
    """A boolean mask as PyTorch's convert_boolean_attn_mask makes it: 0 where True, -inf where False."""
    return Tensor._make(np.where(mask._data, 0.0, -np.inf).astype(dtype))


@builtin("scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, "
         "scale=None, enable_gqa=False)", ("flash_attention_cpu", "mul_scalar", "transpose", *MATMUL_OPS, "add",
                                    "safe_softmax", "mul"),
         method=False, functional=True)
def scaled_dot_product_attention(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: Any = 0.0,
                                 is_causal: Any = False, scale: Any = None, enable_gqa: Any = False) -> Tensor:
    """softmax(query @ key.T * scale + mask) @ value over the last two dims (scale: 1 / sqrt(E) by default)."""
    q, k, v = tensor_arg(query, "query"), tensor_arg(key, "key"), tensor_arg(value, "value")
    if min(q.ndim, k.ndim, v.ndim) < 2:
        raise ShapeError("scaled_dot_product_attention(): query, key and value need at least 2 dims",
                         reason="attention", shapes=(tuple(q.shape), tuple(k.shape), tuple(v.shape)))
    if not q._data.dtype == k._data.dtype == v._data.dtype:
        raise BadValueError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                            f"{q.dtype} key.dtype: {k.dtype} and value.dtype: {v.dtype} instead.", reason="attention")
    if enable_gqa and q._data.shape[-3:-2] != k._data.shape[-3:-2]:
        raise BadValueError("scaled_dot_product_attention(): enable_gqa with fewer key heads is not available",
                            reason="attention")
    factor = math.sqrt(1.0 / math.sqrt(q._data.shape[-1]) if scale is None else abs(number(scale, "scale")))
    negative = scale is not None and number(scale, "scale") < 0
    mask = None
    if is_causal:
        if attn_mask is not None:
            raise BadValueError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                                "is_causal=True", reason="attention")
        length, source = q._data.shape[-2], k._data.shape[-2]
        mask = _float_mask(Tensor._make(np.tril(np.ones((length, source), bool))), q._data.dtype)
    elif attn_mask is not None:
        mask = tensor_arg(attn_mask, "attn_mask")
        if mask._data.dtype == np.bool_:
            mask = _float_mask(mask, q._data.dtype)
    flash = (q.ndim == k.ndim == v.ndim == 4 and q._data.shape[-1] == k._data.shape[-1] == v._data.shape[-1]
             and number(dropout_p, "dropout_p") == 0 and (attn_mask is None or tensor_arg(attn_mask)._data.dtype
                                                         == np.bool_))
    if flash:  # PyTorch's CPU picks its flash kernel for these (one node)
        scale_value = 1.0 / math.sqrt(q._data.shape[-1]) if scale is None else number(scale, "scale")
        return apply(FLASH_ATTENTION, (q, k, v), {"mask": None if mask is None else mask._data,
                                                  "scale": scale_value})
    scaled_q = apply(MUL_SCALAR, (q,), {"other": 0.0 - factor if negative else factor})
    scaled_k = apply(MUL_SCALAR, (transpose(k, -2, -1),), {"other": factor})
    attn = matmul(scaled_q, scaled_k)
    if mask is not None:
        attn = attn + mask
    attn = apply(SAFE_SOFTMAX, (attn,), {"dim": (attn.ndim - 1,)})
    if number(dropout_p, "dropout_p") > 0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, v)


def _baddbmm(x: np.ndarray, b1: np.ndarray, b2: np.ndarray, *, beta: float, alpha: float, shape: tuple) -> np.ndarray:
    product = np.matmul(b1, b2)
    out = product if alpha == 1 else product * alpha
    return np.ascontiguousarray(out + (x if beta == 1 else x * beta), dtype=product.dtype)


def _baddbmm_tangent(F: Any, t: Any, s: Any) -> Any:
    terms = [] if t.self is None else [t.self * s.beta]
    if t.batch1 is not None:
        terms.append(F.bmm(t.batch1, s.batch2) * s.alpha)
    if t.batch2 is not None:
        terms.append(F.bmm(s.batch1, t.batch2) * s.alpha)
    out = terms[0]
    for term in terms[1:]:
        out = out + term
    return out


BADDBMM = declare(Op(
    "baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), _baddbmm,
    (Grad(lambda F, g, s: F.sum_to(g * s.beta if s.beta != 1 else g, s.shape), "sum_to(grad * beta, self's shape)"),
     Grad(lambda F, g, s: F.bmm(g, F.transpose(s.batch2, 1, 2)) * s.alpha, "grad @ batch2.mT * alpha"),
     Grad(lambda F, g, s: F.bmm(F.transpose(s.batch1, 1, 2), g) * s.alpha, "batch1.mT @ grad * alpha")),
    "beta * self + alpha * batch1 @ batch2", group=LINEAR_ALGEBRA, jvp=_baddbmm_tangent))


@builtin("baddbmm(input, batch1, batch2, beta=1, alpha=1)", ("baddbmm",))
def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """beta * input + alpha * (batch1 @ batch2), batch1 (b, n, m) and batch2 (b, m, p); input broadcasts."""
    x, b1, b2 = tensor_arg(input), tensor_arg(batch1, "batch1"), tensor_arg(batch2, "batch2")
    if b1.ndim != 3 or b2.ndim != 3:
        raise BadValueError("batch1 must be a 3D tensor" if b1.ndim != 3 else "batch2 must be a 3D tensor",
                            reason="baddbmm")
    return apply(BADDBMM, (x, b1, b2), {"beta": float(beta), "alpha": float(alpha), "shape": tuple(x.shape)})
