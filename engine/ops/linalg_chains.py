"""torch.linalg.multi_dot (the chain of mm in the cheapest order, as PyTorch's), cond (by the singular values for
p = None, 2, -2; else norm(A) * norm(inv(A))) and matrix_rank (not differentiable)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.registry import BUILTINS, builtin
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from .indexing import getitem
from .linalg import inverse, mm
from .shapes import squeeze, unsqueeze, view


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The matrix-chain split points (PyTorch's matrix_chain_order): split[i][j] = k for (i..k)(k+1..j)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] == -1 or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(tensors: list[Tensor], split: list[list[int]]) -> Tensor:
    """The product of tensors[0..n-1] in the order of split (an explicit stack, no recursion)."""
    done: dict[tuple[int, int], Tensor] = {(i, i): t for i, t in enumerate(tensors)}
    stack = [(0, len(tensors) - 1)]
    while stack:
        i, j = stack[-1]
        k = split[i][j]
        left, right = (i, k), (k + 1, j)
        pending = [part for part in (right, left) if part not in done]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        done[(i, j)] = mm(done[left], done[right])
    return done[(0, len(tensors) - 1)]


@builtin("multi_dot(tensors)", ("mm", "unsqueeze", "view"), method=False)
def multi_dot(tensors: Any) -> Tensor:
    """torch.linalg.multi_dot: the product of matrices (the first and last may be vectors), in the cheapest order."""
    items = [tensor_arg(t, "tensors") for t in tensors]
    if len(items) < 2:
        raise BadValueError(f"multi_dot(): expected at least 2 tensors but got {len(items)}", reason="multi_dot")
    first, last = items[0], items[-1]
    if first.ndim not in (1, 2) or last.ndim not in (1, 2):
        raise ShapeError(f"multi_dot(): the first and last tensors must be 1D or 2D but got {first.ndim}D and "
                         f"{last.ndim}D", reason="multi_dot")
    for i, t in enumerate(items[1:-1], 1):
        if t.ndim != 2:
            raise ShapeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D", reason="multi_dot")
    shape = [*first._data.shape[:-1], *last._data.shape[1:]]
    if first.ndim == 1:
        items[0] = unsqueeze(first, 0)
    if last.ndim == 1:
        items[-1] = unsqueeze(last, -1)
    for i in range(1, len(items)):
        rows, cols = items[i]._data.shape[0], items[i - 1]._data.shape[1]
        if rows != cols:
            raise ShapeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(items[i - 1].shape)} and "
                             f"{list(items[i].shape)} cannot be multiplied", reason="multi_dot")
    if len(items) == 2:
        product = mm(items[0], items[1])
    elif len(items) == 3:  # PyTorch compares the two orders' costs
        a, b = items[0]._data.shape
        c, d = items[2]._data.shape
        cost_left, cost_right = a * c * (b + d), b * d * (a + c)
        product = (mm(items[0], mm(items[1], items[2])) if cost_left > cost_right
                   else mm(mm(items[0], items[1]), items[2]))
    else:
        dims = [items[0]._data.shape[0]] + [t._data.shape[1] for t in items]
        product = _chain(items, _chain_order(dims))
    return view(product, *shape)


@builtin("cond(A, p=None)", ("svd", "slice", "div", "squeeze_dim", "norm", "inverse", "nan_to_num",
                                        "reciprocal", "sum_dim"), method=False)
def cond(A: Any, p: Any = None) -> Tensor:
    """torch.linalg.cond: S_max / S_min for p = None or 2 (S_min / S_max for -2), sum(S) * sum(1 / S) for 'nuc'; else
    norm(A, p) * norm(inv(A), p), its nan made inf in place."""
    a = tensor_arg(A, "A")
    if a.ndim < 2:
        raise ShapeError("linalg.cond: The input tensor must have at least 2 dimensions.", reason="matrix")
    if p is None or p in (2, -2):
        values = BUILTINS["svdvals"].fn(a)
        big, small = getitem(values, (Ellipsis, slice(0, 1))), getitem(values, (Ellipsis, slice(-1, None)))
        ratio = BUILTINS["div"].fn(small, big) if p == -2 else BUILTINS["div"].fn(big, small)
        return squeeze(ratio, -1)
    if p == "nuc":  # sum(S) * sum(1 / S), from one svdvals
        values = BUILTINS["svdvals"].fn(a)
        return BUILTINS["mul"].fn(BUILTINS["sum"].fn(values, -1),
                                  BUILTINS["sum"].fn(BUILTINS["reciprocal"].fn(values), -1))
    norm = BUILTINS["matrix_norm"].fn
    return BUILTINS["mul"].fn(norm(a, p), norm(inverse(a), p)).nan_to_num_(math.inf)  # in place, as PyTorch


@builtin("matrix_rank(A, *, atol=None, rtol=None, hermitian=False)", method=False)
def matrix_rank(A: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Tensor:
    """torch.linalg.matrix_rank: the number of singular values above max(atol, rtol * S_max) (int64)."""
    a = tensor_arg(A, "A")
    if a.ndim < 2:
        raise ShapeError("linalg.matrix_rank: The input tensor A must have at least 2 dimensions.", reason="matrix")
    data = a._data
    values = np.abs(np.linalg.eigvalsh(data)) if hermitian else np.linalg.svd(data, compute_uv=False)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(data.dtype).eps * max(data.shape[-2:])
    largest = values.max(axis=-1, keepdims=True) if values.shape[-1] else np.zeros((*values.shape[:-1], 1))
    tol = np.maximum(0.0 if atol is None else atol, rtol * largest)
    return Tensor._make(np.asarray(np.sum(values > tol, axis=-1), dtype=np.int64))


@builtin("vander(x, *, N=None)", ("cumprod", "expand", "unsqueeze", "cat"), method=False)
def vander(x: Any, *, N: Any = None) -> Tensor:
    """torch.linalg.vander: the powers x**0 .. x**(N-1) along a new last dim, as PyTorch (a cat of ones and a
    cumprod of x expanded)."""
    t = tensor_arg(x, "x")
    n = (t._data.shape[-1] if t.ndim else 0) if N is None else N
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 1:
        raise BadValueError("N must be greater than 1.", reason="vander")
    shape = tuple(t._data.shape)
    powers = BUILTINS["cumprod"].fn(BUILTINS["expand"].fn(unsqueeze(t, -1), *shape, int(n) - 1), -1)
    ones = Tensor._make(np.ones((*shape, 1), dtype=powers._data.dtype))
    return BUILTINS["cat"].fn([ones, powers], -1)
