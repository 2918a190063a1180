"""torch.nn.functional.embedding (nn.Embedding is in layers.py): rows of a weight matrix looked up by integer
indices, one node as PyTorch records it (EmbeddingBackward0: the gradient of each looked-up row added into a zero
matrix of the weight's shape, nothing for padding_idx, divided by the index's count with scale_grad_by_freq).
max_norm renormalises the looked-up rows in place first (scale max_norm / (norm + 1e-7)), as PyTorch's
embedding_renorm_."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.modes import no_grad
from ..core.optable import KEPT, LINEAR_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, OutOfRangeError


def _embedding_grad(F: Any, g: Any, s: Any) -> Any:
    rows = F.reshape(g, (-1, s.weight_shape[1]))
    if s.scale is not None:
        rows = rows * s.scale
    return F.index_put_add(s.weight_shape, (s.flat,), rows)


EMBEDDING = declare(Op("embedding", "EmbeddingBackward0", ("weight",),
                       lambda w, *, indices, **_: w[indices],
                       (Grad(_embedding_grad, "zeros of weight's shape with grad's rows added at indices "
                                              "(none at padding_idx)"),),
                       "rows of weight at integer indices (torch.nn.functional.embedding)",
                       saved=("flat",), jvp=LINEAR_JVP, integers=KEPT))


def _indices(input: Any) -> np.ndarray:
    data = input._data if isinstance(input, Tensor) else np.asarray(input)
    if data.dtype.kind not in "iu":
        kind = {"f": "Float", "b": "Bool"}.get(data.dtype.kind, str(data.dtype))
        kind = "Double" if data.dtype == np.float64 else kind
        raise BadValueError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                            f"Long, Int; but got torch.{kind}Tensor instead (while checking arguments for embedding)",
                            reason="embedding")
    return data.astype(np.int64, copy=False)


def padding_row(padding_idx: Any, rows: int) -> int | None:
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return int(padding_idx) + rows if padding_idx < 0 else int(padding_idx)


def _renorm_(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """The rows at indices scaled in place to a norm of at most max_norm (not recorded)."""
    data = weight._data
    for row in np.unique(indices):
        norm = float(np.sum(np.abs(data[row].astype(np.float64)) ** norm_type) ** (1.0 / norm_type))
        if norm > max_norm:
            data[row] *= np.asarray(max_norm / (norm + 1e-7), data.dtype)
    weight._bump_version()


@builtin("embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, "
         "sparse=False)", ("embedding",), method=False, functional=True)
def embedding(input: Any, weight: Any, padding_idx: Any = None, max_norm: Any = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of weight (num_embeddings, dim) at the integer indices of input: shape input.shape + (dim,)."""
    w = tensor_arg(weight, "weight")
    if w.ndim != 2:
        raise BadValueError("'weight' must be 2-D", reason="embedding")
    indices = _indices(input)
    rows = w._data.shape[0]
    if indices.size and (indices.max() >= rows or indices.min() < 0):
        raise OutOfRangeError("index out of range in self", reason="index")
    padding = padding_row(padding_idx, rows)
    if max_norm is not None:
        with no_grad():
            _renorm_(w, indices, float(max_norm), float(norm_type))
    flat = indices.reshape(-1)
    scale = None
    if padding is not None or scale_grad_by_freq:
        scale = np.ones((flat.size, 1), w._data.dtype)
        if scale_grad_by_freq:
            counts = np.bincount(flat, minlength=rows)
            scale[:, 0] = 1.0 / counts[flat]
        if padding is not None:
            scale[flat == padding] = 0
    check_elements((*indices.shape, w._data.shape[1]), "the embedding's result")
    return apply(EMBEDDING, (w,), {"indices": indices, "flat": flat, "scale": scale,
                                   "weight_shape": w._data.shape})


__all__ = ["EMBEDDING", "embedding", "padding_row"]
