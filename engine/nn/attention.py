"""torch.nn.functional.scaled_dot_product_attention as PyTorch's math path records it on the CPU when an input
requires grad: query and the transposed key each times sqrt(scale) (MulBackward1), their matmul, the mask added
(a boolean mask, or is_causal's lower triangle, as 0 and -inf), _safe_softmax over the last dim
(SafeSoftmaxBackward0: a row masked out entirely gives zeros, not nan), dropout when dropout_p > 0, and the matmul
with value."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import number, tensor_arg
from ..core.optable import REDUCTIONS, Grad, Op, declare
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


def _float_mask(mask: Tensor, dtype: np.dtype) -> Tensor:
    """A boolean mask as PyTorch's convert_boolean_attn_mask makes it: 0 where True, -inf where False."""
    return Tensor._make(np.where(mask._data, 0.0, -np.inf).astype(dtype))


@builtin("scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, "
         "scale=None, enable_gqa=False)", ("mul_scalar", "transpose", *MATMUL_OPS, "add", "safe_softmax", "mul"),
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
    scaled_q = apply(MUL_SCALAR, (q,), {"other": 0.0 - factor if negative else factor})
    scaled_k = apply(MUL_SCALAR, (transpose(k, -2, -1),), {"other": factor})
    attn = matmul(scaled_q, scaled_k)
    if mask is not None:
        attn = attn + mask
    attn = apply(SAFE_SOFTMAX, (attn,), {"dim": (attn.ndim - 1,)})
    if number(dropout_p, "dropout_p") > 0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, v)
