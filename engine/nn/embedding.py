"""torch.nn.functional.embedding and nn.Embedding: rows of a weight matrix looked up by integer indices, one
node as PyTorch records it (EmbeddingBackward0: the gradient of each looked-up row added into a zero matrix of
the weight's shape, nothing for padding_idx, divided by the index's count with scale_grad_by_freq). max_norm
renormalises the looked-up rows in place first (scale max_norm / (norm + 1e-7)), as PyTorch's embedding_renorm_.
nn.Embedding's weight is drawn from N(0, 1) (PyTorch's init.normal_), the padding row then zeroed."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.modes import no_grad
from ..core.optable import KEPT, LINEAR_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.settings import as_dtype, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError, OutOfRangeError
from .init import INIT_FUNCTIONS
from .module import Module, Parameter


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


def _padding(padding_idx: Any, rows: int) -> int | None:
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
    padding = _padding(padding_idx, rows)
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


class Embedding(Module):
    """A lookup table of num_embeddings vectors of embedding_dim numbers (weight ~ N(0, 1))."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Any = None, max_norm: Any = None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: Any = None, _freeze: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = _padding(padding_idx, num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            shape = (num_embeddings, embedding_dim)
            check_elements(shape, "the layer's weight")
            self.weight = Parameter(Tensor._make(np.empty(shape, as_dtype(dtype))), requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        INIT_FUNCTIONS["normal_"](self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight._data[self.padding_idx] = 0
                self.weight._bump_version()

    def settings(self) -> dict[str, Any]:
        return {"num_embeddings": self.num_embeddings, "embedding_dim": self.embedding_dim,
                "padding_idx": self.padding_idx}

    def forward(self, input: Any) -> Tensor:
        return embedding(input, self.member("weight"), self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            text += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            text += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse:
            text += ", sparse=True"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: Any = None, max_norm: Any = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Embedding:
        """An Embedding holding the given weights (frozen unless freeze=False)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)


EMBEDDING_LAYERS = {"Embedding": Embedding}

__all__ = ["EMBEDDING", "EMBEDDING_LAYERS", "Embedding", "embedding"]
