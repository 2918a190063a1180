"""Running reductions along one dim: cumsum, cumprod (whose gradient handles zeros as PyTorch's
cumprod_backward does), cummax and cummin (with their indices), and logcumsumexp."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.coerce import tensor_arg, with_axis
from ..core.optable import KEPT, LINEAR_JVP, REDUCTIONS, WIDENED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import builtin
from ..core.return_types import return_type
from ..core.settings import as_dtype, check_dim
from ..core.tensor import Tensor


# ---------------------------------------------------------------------------- numpy kernels
def accumulated(fn: Any, x: np.ndarray, axis: int) -> np.ndarray:
    """np.cumsum / np.cumprod as PyTorch's CPU kernels run them: the running value is kept in double for float32
    and the half types (ATen's acc_type), each element rounded to the input's dtype. numpy's own float32 running
    sum drifts: over 1,022 elements a cumprod's gradient differed from PyTorch's in the fourth digit."""
    if x.dtype.kind == "f" and x.dtype.itemsize < 8:
        return fn(x, axis=axis, dtype=np.float64).astype(x.dtype)
    return fn(x, axis=axis, dtype=x.dtype if x.dtype.kind in "iu" else None)


def reverse_cumsum(g: np.ndarray, dim: int) -> np.ndarray:
    """The sum of g from each position to the end along dim (PyTorch's flip, cumsum, flip)."""
    if g.ndim == 0:
        return g
    return np.flip(accumulated(np.cumsum, np.flip(g, dim), dim), dim)


def cumprod_backward(g: np.ndarray, x: np.ndarray, result: np.ndarray, dim: int) -> np.ndarray:
    """The gradient of cumprod along dim, zeros included. Before a slice's first zero z1 the gradient is
    reverse_cumsum(grad * result) / x over [.., z1); at z1 it is the sum over [z1, z2) (z2 the second zero)
    of grad times the running product with x[z1] taken as 1; after z1 it is 0."""
    if x.ndim == 0 or x.shape[dim] <= 1:
        return g
    zero = x == 0
    w = g * result
    if not zero.any():
        return reverse_cumsum(w, dim) / x
    count = np.cumsum(zero, axis=dim)
    before = count == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        part = reverse_cumsum(np.where(before, w, 0), dim) / np.where(before, x, 1)
    first = zero & (count == 1)
    running = np.cumprod(np.where(first, 1, x), axis=dim)
    at_first = np.sum(np.where(count == 1, g * running, 0), axis=dim, keepdims=True)
    return np.where(first, at_first, np.where(before, part, 0)).astype(g.dtype, copy=False)


def _running(fn: Any) -> Any:
    """A numpy running reduction as an op's forward, accumulated as PyTorch does (an integer input in its own
    dtype); a 0-d input keeps its shape."""
    return lambda x, *, dim: accumulated(fn, x, dim).reshape(x.shape)


def _logcumsumexp(x: np.ndarray, *, dim: int) -> np.ndarray:
    """log(cumsum(exp(x))) along dim, stable: np.logaddexp.accumulate."""
    if x.size == 0:
        return x.copy()
    return np.logaddexp.accumulate(x.reshape(x.shape or (1,)), axis=dim).reshape(x.shape)


def _logcumsumexp_grad(F: Any, g: Any, s: Any) -> Any:
    """sum over j >= k of grad[j] * exp(self[k] - result[j]); on arrays in log space, with the positive and
    negative parts of grad apart (so nothing overflows), as PyTorch's logcumsumexp_backward."""
    if not s.input_shape or s.input_shape[s.dim] <= 1:
        return g
    if F.records:
        top = float(np.max(F.values(s.result))) if F.values(s.result).size else 0.0
        return F.exp(s.self - top) * F.reverse_cumsum(g * F.exp(top - s.result), s.dim)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        parts = []
        for sign in (1, -1):
            logs = np.where(sign * g > 0, np.log(np.abs(g)), -np.inf) - s.result
            rev = np.flip(np.logaddexp.accumulate(np.flip(logs, s.dim), axis=s.dim), s.dim)
            parts.append(np.exp(rev + s.self))
        return parts[0] - parts[1]


def _cum_extreme(kind: str) -> Any:
    """cummax/cummin's forward: the running extreme along dim, with the index it came from (the last of equal
    values, and nan once one is met, as PyTorch's kernel)."""
    better = np.greater_equal if kind == "max" else np.less_equal

    def forward(x: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
        if x.ndim == 0:
            return x.copy(), np.zeros((), dtype=np.int64)
        moved = np.moveaxis(x, dim, 0)
        values = np.empty_like(moved)
        indices = np.zeros(moved.shape, dtype=np.int64)
        if moved.shape[0]:
            best, where = moved[0].copy(), np.zeros(moved.shape[1:], dtype=np.int64)
            for i in range(moved.shape[0]):  # a loop over one dim, vectorized over the others
                item = moved[i]
                take = np.isnan(item) | (~np.isnan(best) & better(item, best))
                best, where = np.where(take, item, best), np.where(take, i, where)
                values[i], indices[i] = best, where
        return np.moveaxis(values, 0, dim).copy(), np.moveaxis(indices, 0, dim).copy()

    return forward


# ---------------------------------------------------------------------------- the ops
def _declare(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, **facts: Any) -> Op:
    return declare(Op(name, node, ("self",), forward, (Grad(formula, text),), doc, group=REDUCTIONS, **facts))


def _cumprod_jvp(F: Any, t: Any, s: Any) -> np.ndarray:
    """sum over j <= k of t[j] * (the product of self[i], i <= k, i != j): result * cumsum(t / self) without a
    zero, else term by term along dim."""
    x, tangent = s.self, t.self
    if x.ndim == 0:
        return tangent
    if np.all(x != 0):
        return s.result * accumulated(np.cumsum, tangent / x, s.dim)
    x, tangent = np.moveaxis(x, s.dim, 0), np.moveaxis(tangent, s.dim, 0)
    before = np.cumprod(np.concatenate([np.ones_like(x[:1]), x[:-1]]), axis=0)  # products of the earlier ones
    out = np.zeros_like(x)
    for j in range(x.shape[0]):
        running = tangent[j] * before[j]
        for k in range(j, x.shape[0]):
            if k > j:
                running = running * x[k]
            out[k] += running
    return np.moveaxis(out, 0, s.dim)


def _logcumsumexp_jvp(F: Any, t: Any, s: Any) -> np.ndarray:
    """sum over j <= k of t[j] * exp(self[j] - result[k]), the positive and negative parts of t apart in logs."""
    if s.self.ndim == 0:
        return t.self
    parts = []
    for sign in (1, -1):
        logs = np.where(sign * t.self > 0, np.log(np.abs(t.self)), -np.inf) + s.self
        parts.append(np.exp(np.logaddexp.accumulate(logs, axis=s.dim) - s.result))
    return parts[0] - parts[1]


CUMSUM = _declare("cumsum", "CumsumBackward0", _running(np.cumsum), lambda F, g, s: F.reverse_cumsum(g, s.dim),
                  "grad summed from the end along dim", "running sum along dim", noisy=True, jvp=LINEAR_JVP,
                  integers=WIDENED)
CUMPROD = _declare("cumprod", "CumprodBackward0", _running(np.cumprod),
                   lambda F, g, s: F.cumprod_backward(g, s.self, s.result, s.dim),
                   "(grad * result) summed from the end along dim, / self (zeros handled apart)",
                   "running product along dim", noisy=True, jvp=_cumprod_jvp, integers=WIDENED)
LOGCUMSUMEXP = _declare("logcumsumexp", "LogcumsumexpBackward0", _logcumsumexp, _logcumsumexp_grad,
                        "sum over j >= k of grad[j] * exp(self[k] - result[j])", "log(cumsum(exp(self))) along dim",
                        noisy=True, jvp=_logcumsumexp_jvp)
CUMMAX = _declare("cummax", "CummaxBackward0", lambda x, *, dim, indices: _take(x, dim, indices),
                  lambda F, g, s: F.scatter_add(tuple(s.self.shape), s.dim, s.indices, g),
                  "grad added up at the positions the running max came from", "running max along dim",
                  saved=("indices",), jvp=LINEAR_JVP, integers=KEPT)
CUMMIN = _declare("cummin", "CumminBackward0", lambda x, *, dim, indices: _take(x, dim, indices),
                  lambda F, g, s: F.scatter_add(tuple(s.self.shape), s.dim, s.indices, g),
                  "grad added up at the positions the running min came from", "running min along dim",
                  saved=("indices",), jvp=LINEAR_JVP, integers=KEPT)


def _take(x: np.ndarray, dim: int, indices: np.ndarray) -> np.ndarray:
    return x.copy() if x.ndim == 0 else np.take_along_axis(x, indices, axis=dim)


# ---------------------------------------------------------------------------- the functions
CUMMAX_RESULT = return_type("cummax", ("values", "indices"))
CUMMIN_RESULT = return_type("cummin", ("values", "indices"))


def _dim(x: Tensor, dim: Any) -> int:
    """dim checked as PyTorch does (a 0-d tensor has dims 0 and -1), as a non-negative dim."""
    return check_dim(dim, x.ndim)


@builtin("cumsum(input, dim, dtype=None)", ("cumsum",))
@with_axis
def cumsum(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """With dtype, input's values are converted first and summed in it (the node stays CumsumBackward0)."""
    x = tensor_arg(input)
    return apply(CUMSUM, (x,), {"dim": _dim(x, dim)}, None if dtype is None else (x._data.astype(as_dtype(dtype)),))


@builtin("cumprod(input, dim, dtype=None)", ("cumprod",))
@with_axis
def cumprod(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    x = tensor_arg(input)
    return apply(CUMPROD, (x,), {"dim": _dim(x, dim)}, None if dtype is None else (x._data.astype(as_dtype(dtype)),))


@builtin("logcumsumexp(input, dim)", ("logcumsumexp",))
@with_axis
def logcumsumexp(input: Any, dim: int) -> Tensor:
    x = tensor_arg(input)
    return apply(LOGCUMSUMEXP, (x,), {"dim": _dim(x, dim)})


def _cumulative_extreme(kind: str, input: Any, dim: Any) -> Any:
    x = tensor_arg(input)
    d = _dim(x, dim)
    _, indices = _cum_extreme(kind)(x._data, d)
    values = apply(CUMMAX if kind == "max" else CUMMIN, (x,), {"dim": d, "indices": indices})
    return (CUMMAX_RESULT if kind == "max" else CUMMIN_RESULT)(values, Tensor._make(indices))


@builtin("cummax(input, dim)", ("cummax",))
@with_axis
def cummax(input: Any, dim: int) -> Any:
    """(values, indices): the running max along dim and where each came from."""
    return _cumulative_extreme("max", input, dim)


@builtin("cummin(input, dim)", ("cummin",))
@with_axis
def cummin(input: Any, dim: int) -> Any:
    """(values, indices): the running min along dim and where each came from."""
    return _cumulative_extreme("min", input, dim)
