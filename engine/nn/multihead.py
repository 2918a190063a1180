"""nn.MultiheadAttention and the steps of PyTorch's F.multi_head_attention_forward it runs, in PyTorch's order
(so the recorded nodes are its own): the packed input projection (one linear for self-attention, unflattened into
q, k, v), the heads folded into the batch, then with need_weights the explicit path (query times sqrt(1 / head_dim),
baddbmm with the mask or bmm, softmax, dropout, bmm; the weights averaged over the heads unless
average_attn_weights=False), else scaled_dot_product_attention; then the output projection. Masks: a boolean mask
is -inf where True (PyTorch's _canonical_mask), key_padding_mask added to attn_mask. And TransformerEncoderLayer
and TransformerEncoder, made of those, as PyTorch's."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.registry import BUILTINS
from ..core.tensor import Tensor
from ..errors import BadValueError, InvalidArgumentError
from ..ops.linalg import bmm
from ..ops.reductions import softmax
from .attention import baddbmm, scaled_dot_product_attention
from .init import constant_, xavier_uniform_
from .layers import Dropout, Linear, ModuleList, empty_parameter
from .linear_functions import dropout, linear
from .module import Module
from .norm_layers import LayerNorm


def _canonical_mask(mask: Any, dtype: np.dtype) -> Tensor | None:
    if mask is None:
        return None
    mask = tensor_arg(mask)
    if mask._data.dtype == np.bool_:
        return Tensor._make(np.where(mask._data, -np.inf, 0.0).astype(dtype))
    if mask._data.dtype.kind != "f":
        raise BadValueError("only bool and floating types of masks are supported", reason="attention")
    return mask


def _in_projection(query: Tensor, key: Tensor, value: Tensor, w: Tensor, b: Tensor | None) -> tuple:
    """PyTorch's _in_projection_packed: q, k, v from one linear (self-attention), two (key is value) or three."""
    e = query.shape[-1]
    if key is value:
        if query is key:
            proj = linear(query, w, b).unflatten(-1, (3, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([e, 2 * e])
        b_q, b_kv = b.split([e, 2 * e]) if b is not None else (None, None)
        kv = linear(key, w_kv, b_kv).unflatten(-1, (2, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(query, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = b.chunk(3) if b is not None else (None, None, None)
    return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)


def _masks(attn_mask: Any, key_padding_mask: Any, dtype: np.dtype, bsz: int, heads: int, tgt: int,
           src: int) -> Tensor | None:
    """attn_mask (L, S) or (N * heads, L, S) and key_padding_mask (N, S) as one additive mask (N * heads, L, S)."""
    mask = _canonical_mask(attn_mask, dtype)
    if mask is not None:
        expected = (tgt, src) if mask.ndim == 2 else (bsz * heads, tgt, src)
        if tuple(mask.shape) != expected:
            raise BadValueError(f"The shape of the {mask.ndim}D attn_mask is {tuple(mask.shape)}, but should be "
                                f"{expected}.", reason="attention")
        if mask.ndim == 2:
            mask = mask.unsqueeze(0)
    padding = _canonical_mask(key_padding_mask, dtype)
    if padding is not None:
        padding = padding.view(bsz, 1, 1, src).expand(-1, heads, -1, -1).reshape(bsz * heads, 1, src)
        mask = padding if mask is None else mask + padding
    return mask


def multi_head_attention(module: MultiheadAttention, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Any,
                         need_weights: bool, attn_mask: Any, average_attn_weights: bool, is_causal: bool) -> tuple:
    """F.multi_head_attention_forward with the module's weights, for (L, N, E) inputs (or unbatched (L, E))."""
    batched = query.ndim == 3
    if not batched:
        query, key, value = (t.unsqueeze(1) for t in (query, key, value)) if key is not query else (
            (query.unsqueeze(1),) * 3)
    tgt, bsz, embed = query.shape
    heads, head_dim = module.num_heads, module.head_dim
    causal_kernel = False
    if is_causal and attn_mask is None:
        raise BadValueError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                            "method `generate_square_subsequent_mask` to create this mask.", reason="attention")
    if is_causal and key_padding_mask is None and not need_weights:  # the mask left to sdpa's is_causal
        attn_mask, causal_kernel = None, True
    q, k, v = _in_projection(query, key, value, module.member("in_proj_weight"), module.member("in_proj_bias"))
    src = k.shape[0]
    mask = _masks(attn_mask, key_padding_mask, query._data.dtype, bsz, heads, tgt, src)
    q = q.view(tgt, bsz * heads, head_dim).transpose(0, 1)
    k = k.view(src, bsz * heads, head_dim).transpose(0, 1)
    v = v.view(src, bsz * heads, head_dim).transpose(0, 1)
    p = module.dropout if module.training else 0.0
    out_w, out_b = module.out_proj.member("weight"), module.out_proj.member("bias")
    if need_weights:
        scaled = q * math.sqrt(1.0 / float(head_dim))
        weights = bmm(scaled, k.transpose(-2, -1)) if mask is None else baddbmm(mask, scaled, k.transpose(-2, -1))
        weights = softmax(weights, -1)
        if p > 0.0:
            weights = dropout(weights, p)
        out = bmm(weights, v).transpose(0, 1).reshape(tgt * bsz, embed)
        out = linear(out, out_w, out_b).view(tgt, bsz, embed)
        weights = weights.view(bsz, heads, tgt, src)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        return (out, weights) if batched else (out.squeeze(1), weights.squeeze(0))
    if mask is not None:
        mask = mask.unsqueeze(0) if mask.shape[0] == 1 and mask.ndim == 3 else mask.view(bsz, heads, -1, src)
    q, k, v = (t.view(bsz, heads, -1, head_dim) for t in (q, k, v))
    out = scaled_dot_product_attention(q, k, v, mask, p, causal_kernel)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt, embed)
    out = linear(out, out_w, out_b).view(tgt, bsz, embed)
    return (out if batched else out.squeeze(1)), None


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's output projection: a Linear under the name PyTorch prints."""


class MultiheadAttention(Module):
    """Attention over num_heads heads of embed_dim / num_heads each, with PyTorch's parameters and their init."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: Any = None, vdim: Any = None,
                 batch_first: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise InvalidArgumentError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                                       f"and num_heads={num_heads} instead", reason="attention")
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise BadValueError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim other than embed_dim "
                                "are not available", reason="attention")
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.kdim = self.vdim = embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise BadValueError("embed_dim must be divisible by num_heads", reason="attention")
        self.register_parameter("in_proj_weight", empty_parameter((3 * embed_dim, embed_dim), dtype))
        self.register_parameter("in_proj_bias", empty_parameter((3 * embed_dim,), dtype) if bias else None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        xavier_uniform_(self.member("in_proj_weight"))
        if bias:
            constant_(self.member("in_proj_bias"), 0.0)
            constant_(self.out_proj.member("bias"), 0.0)

    def settings(self) -> dict[str, Any]:
        return {"embed_dim": self.embed_dim, "num_heads": self.num_heads, "dropout": self.dropout,
                "batch_first": self.batch_first, "head_dim": self.head_dim}

    def forward(self, query: Any, key: Any, value: Any, key_padding_mask: Any = None, need_weights: bool = True,
                attn_mask: Any = None, average_attn_weights: bool = True, is_causal: bool = False) -> tuple:
        q, k, v = tensor_arg(query), tensor_arg(key), tensor_arg(value)
        same = key is query and value is key
        if self.batch_first and q.ndim == 3:
            if same:
                q = k = v = q.transpose(1, 0)
            else:
                q, k, v = (t.transpose(1, 0) for t in (q, k, v))
        elif same:
            k = v = q
        out, weights = multi_head_attention(self, q, k, v, key_padding_mask, need_weights, attn_mask,
                                            average_attn_weights, is_causal)
        if self.batch_first and q.ndim == 3:
            return out.transpose(1, 0), weights
        return out, weights


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with dropout, a residual connection and a LayerNorm (after,
    or before with norm_first), as PyTorch's TransformerEncoderLayer (its submodules in its order)."""

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1,
                 activation: Any = "relu", layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first,
                                            dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1, self.dropout2 = Dropout(dropout), Dropout(dropout)
        if isinstance(activation, str):
            if activation not in ("relu", "gelu"):
                raise BadValueError(f"activation should be relu/gelu, not {activation}", reason="transformer")
            activation = BUILTINS[activation].fn
        self.activation = activation

    def settings(self) -> dict[str, Any]:
        return {"norm_first": self.norm_first, "activation": self.activation}

    def forward(self, src: Any, src_mask: Any = None, src_key_padding_mask: Any = None,
                is_causal: bool = False) -> Tensor:
        x = tensor_arg(src)
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x: Tensor, mask: Any, padding: Any, is_causal: bool) -> Tensor:
        out = self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding, need_weights=False,
                             is_causal=is_causal)[0]
        return self.dropout1(out)

    def _ff_block(self, x: Tensor) -> Tensor:
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _clone(module: Module) -> Module:
    """copy.deepcopy(module) with its parameters' grads left behind (PyTorch's Parameter.__deepcopy__ copies none)."""
    clone = copy.deepcopy(module)
    for param in clone.parameters():
        param.grad = None
    return clone


class TransformerEncoder(Module):
    """num_layers copies of encoder_layer (deep copies: the same initial weights, as PyTorch's), then norm."""

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Any = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = ModuleList([_clone(encoder_layer) for _ in range(num_layers)])
        self.num_layers, self.norm = num_layers, norm

    def settings(self) -> dict[str, Any]:
        return {"num_layers": self.num_layers}

    def forward(self, src: Any, mask: Any = None, src_key_padding_mask: Any = None, is_causal: Any = None) -> Tensor:
        output = tensor_arg(src)
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=bool(is_causal), src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


MULTIHEAD_LAYERS = {cls.__name__: cls for cls in (MultiheadAttention, TransformerEncoderLayer, TransformerEncoder)}
