"""Reductions: sum, mean, max and min (whole, over dims, or with their indices), amax, amin, prod, var, std,
norm, logsumexp, softmax and log_softmax (the running ones, cumsum and the like, are in cumulative.py)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg, with_axis
from ..core.optable import KEPT, LINEAR_JVP, REDUCTION_JVP, REDUCTIONS, WIDENED, Grad, Op, declare
from ..core.recording import apply
from ..core.registry import BUILTINS, builtin
from ..core.return_types import ReturnTuple, return_type
from ..core.settings import as_dtype, check_dim, check_elements
from ..core.tensor import Tensor
from ..errors import BadValueError
from ..kernels.arrays import c_order, kept_shape
from ..kernels.summation import torch_sum
from .arithmetic import maximum, minimum
from .shapes import to

# This module defines torch's sum, max and min; Python's built-ins of those names are not used here.


# ---------------------------------------------------------------------------- the shared parts of the formulas
def reduced_count(s: Any) -> int:
    """How many elements each result element of a reduction over `s.dim` summarizes."""
    return math.prod(s.input_shape[d] for d in s.dim)


def expand_back(F: Any, t: Any, s: Any) -> Any:
    """A reduced value (the gradient or the result) broadcast back to the input's shape."""
    return F.expand(F.reshape(t, kept_shape(s.input_shape, s.dim)), s.input_shape)


def ratio(a: float, b: float) -> float:
    """a / b for the counts of var/std: inf (not an exception) when no degree of freedom is left."""
    return a / b if b else math.copysign(math.inf, a)


def _max_all_grad(F: Any, g: Any, s: Any) -> Any:
    values = F.values(s.self)
    result = F.values(s.result)
    mask = np.isnan(values) if np.isnan(result) else values == result
    return F.where(mask, g / int(np.count_nonzero(mask)), 0.0)


def _indices_grad(F: Any, g: Any, s: Any) -> Any:
    """Gradient of a max/min over `dim`: all of it to the selected element (PyTorch's choice)."""
    if not s.input_shape:  # a 0-d input is its own max
        return g
    indices = s.indices if s.keepdim else np.expand_dims(s.indices, s.dim)
    mask = np.zeros(s.input_shape, dtype=bool)
    np.put_along_axis(mask, indices, True, axis=s.dim)
    g = g if s.keepdim else F.unsqueeze(g, s.dim)
    return F.where(mask, F.expand(g, s.input_shape), 0.0)


def _take_dim(x: np.ndarray, *, dim: int, keepdim: bool, indices: np.ndarray) -> np.ndarray:
    """The values at `indices` along `dim` (indices as argmax/argmin return them)."""
    if x.ndim == 0:
        return x.copy()
    values = np.take_along_axis(x, indices if keepdim else np.expand_dims(indices, dim), axis=dim)
    return values if keepdim else np.squeeze(values, axis=dim)


def _extreme_grad(F: Any, g: Any, s: Any) -> Any:
    """amax/amin: the gradient shared evenly by the elements equal to the extreme."""
    values, result = F.values(s.self), np.asarray(F.values(s.result))
    mask = values == np.broadcast_to(result.reshape(kept_shape(s.input_shape, s.dim)), s.input_shape)
    count = np.broadcast_to(mask.sum(axis=s.dim, keepdims=True), s.input_shape)
    # PyTorch's (grad / count) * mask: where nothing equals the extreme (a nan), 0 * inf gives nan
    with np.errstate(divide="ignore", invalid="ignore"):
        return (expand_back(F, g, s) / count) * mask.astype(s.input_dtype)


def variance(x: np.ndarray, *, dim: Any, keepdim: bool, correction: float, root: bool = False) -> np.ndarray:
    """np.var (np.std with root) without numpy's "Degrees of freedom <= 0" warning: with no more elements
    than the correction the result is nan or inf, as in PyTorch (whose warning the user sees as that value)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return c_order((np.std if root else np.var)(x, axis=dim, ddof=correction, keepdims=keepdim))


def _var_grad(F: Any, g: Any, s: Any) -> Any:
    mean = F.sum(s.self, s.dim, True) * ratio(1.0, reduced_count(s))
    return expand_back(F, g, s) * ratio(2.0, reduced_count(s) - s.correction) * (s.self - mean)


def _std_grad(F: Any, g: Any, s: Any) -> Any:
    mean = F.sum(s.self, s.dim, True) * ratio(1.0, reduced_count(s))
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = F.where(F.values(s.result) == 0, 0.0, g / s.result)  # PyTorch: 0 where the std is 0
    return expand_back(F, scaled, s) * ratio(1.0, reduced_count(s) - s.correction) * (s.self - mean)


def _norm_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's norm_backward for each p: none for p = 0 (an undefined gradient: .grad stays None, grad() finds
    the input unused), grad * sgn(self) for 1, grad * self / norm for 2, the
    extremes sharing grad for +-inf, else grad * sgn(self) * |self|**(p - 1) / norm**(p - 1); 0 where norm = 0."""
    norm, p = expand_back(F, s.result, s), s.p
    if p == 0:
        return None
    if p == 1:
        return expand_back(F, g, s) * F.sgn(s.self)
    if p == 2:  # grad * (self / norm).masked_fill_(norm == 0, 0): an infinite grad at norm 0 gives nan, as PyTorch
        with np.errstate(divide="ignore", invalid="ignore"):
            return expand_back(F, g, s) * F.where(F.values(norm) == 0, 0.0, s.self / norm)
    if math.isinf(p):
        mask = np.abs(F.values(s.self)) == F.values(norm)
        count = np.broadcast_to(mask.sum(axis=s.dim, keepdims=True), mask.shape)
        return F.sgn(s.self) * ((expand_back(F, g, s) / count) * mask.astype(s.input_dtype))
    size = s.self * F.sgn(s.self)
    if p < 1:
        scaled = F.where(F.values(s.self) == 0, 0.0, F.sgn(s.self) * F.pow(size, p - 1))
        return scaled * expand_back(F, g, s) * F.pow(norm, 1 - p)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = F.where(F.values(norm) == 0, 0.0, expand_back(F, g, s) / F.pow(norm, p - 1))
    return (F.sgn(s.self) * F.pow(size, p - 1) if p < 2 else s.self * F.pow(size, p - 2)) * scale


def _vector_norm(x: np.ndarray, *, dim: Any, keepdim: bool, p: float) -> np.ndarray:
    size = np.abs(x)
    if p == 2:
        out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
    elif math.isinf(p):
        out = (np.amax if p > 0 else np.amin)(size, axis=dim, keepdims=keepdim)
    elif p == 0:
        out = np.sum(size != 0, axis=dim, keepdims=keepdim).astype(x.dtype)
    elif p == 1:
        out = np.sum(size, axis=dim, keepdims=keepdim)
    else:
        out = np.sum(size**p, axis=dim, keepdims=keepdim) ** (1.0 / p)
    return c_order(np.asarray(out, dtype=x.dtype))


def _prod_grad(F: Any, g: Any, s: Any) -> Any:
    if not s.input_shape:  # PyTorch's prod_backward passes grad through for a 0-d input (a constant derivative)
        return g
    return expand_back(F, g, s) * F.prod_others(s.self, s.result, s.dim)


def _prod_all_grad(F: Any, g: Any, s: Any) -> Any:
    """PyTorch's prod_backward over all elements: without create_graph, zeros when two or more are zero
    (whatever grad is, nan included); else grad * (the product of the others)."""
    if not F.records and int((F.values(s.self) == 0).sum()) > 1:
        return F.zeros_like(s.self)
    return _prod_grad(F, g, s)


def _logsumexp(x: np.ndarray, dim: tuple[int, ...], keepdim: bool) -> np.ndarray:
    """max + log(sum(exp(x - max))), as PyTorch computes it (an infinite max is not subtracted)."""
    top = np.amax(x, axis=dim, keepdims=True) if x.size else np.zeros([1] * x.ndim, dtype=x.dtype)
    top = np.where(np.isinf(top), 0, top)
    out = np.log(np.sum(np.exp(x - top), axis=dim, keepdims=True)) + top
    return c_order(out if keepdim else np.squeeze(out, axis=dim))


def _logsumexp_grad(F: Any, g: Any, s: Any) -> Any:
    return expand_back(F, g, s) * F.exp(s.self - expand_back(F, s.result, s))


def _shifted(x: np.ndarray, dim: int) -> np.ndarray:
    """x minus its max along dim (for a stable exp); an empty x has no max and needs no shift."""
    return x - np.maximum.reduce(x, axis=dim, keepdims=True) if x.size else x  # (np.max's own call)


def _softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    e = np.exp(shifted)
    e /= np.add.reduce(e, axis=dim, keepdims=True)  # (np.sum's)
    return c_order(e)


def _log_softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    return c_order(shifted - np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True)))


def _over(fn: Any) -> Any:
    """A numpy reduction as an op's forward over `dim`, keeping dims or not."""
    return lambda x, *, dim, keepdim: fn(x, axis=dim, keepdims=keepdim)


def _declare(name: str, node: str, forward: Any, formula: Any, text: str, doc: str, **facts: Any) -> Op:
    facts.setdefault("jvp", REDUCTION_JVP)  # each element reaches one result: backward of ones, times the tangent
    return declare(Op(name, node, ("self",), forward, (Grad(formula, text),), doc, group=REDUCTIONS, **facts))


# ---------------------------------------------------------------------------- the ops
SUM = _declare("sum", "SumBackward0", lambda x: torch_sum(x), lambda F, g, s: F.expand(g, s.input_shape),
               "grad expanded to self's shape", "sum of all elements", jvp=LINEAR_JVP, integers=WIDENED)
SUM_DIM = _declare("sum_dim", "SumBackward1", lambda x, *, dim, keepdim: c_order(torch_sum(x, dim, keepdim)),
                   lambda F, g, s: expand_back(F, g, s), "grad expanded over the summed dims", "sum over dims",
                   jvp=LINEAR_JVP, integers=WIDENED)
# PyTorch's mean is its sum divided by the count (np.mean would add in another order, and warn for an empty
# input: 0/0 is nan, as in PyTorch)
MEAN = _declare("mean", "MeanBackward0", lambda x, *, count: torch_sum(x) / count,
                lambda F, g, s: F.expand(g / s.count, s.input_shape), "grad / numel expanded to self's shape",
                "mean of all elements", noisy=True, jvp=LINEAR_JVP)
MEAN_DIM = _declare("mean_dim", "MeanBackward1",
                    lambda x, *, dim, keepdim, count: c_order(torch_sum(x, dim, keepdim) / count),
                    lambda F, g, s: expand_back(F, g / s.count, s), "grad / count expanded over the averaged dims",
                    "mean over dims", noisy=True, jvp=LINEAR_JVP)
MAX = _declare("max", "MaxBackward1", lambda x: np.max(x), _max_all_grad,
               "grad shared evenly by the elements equal to the max", "largest element", integers=KEPT)
MIN = _declare("min", "MinBackward1", lambda x: np.min(x), _max_all_grad,
               "grad shared evenly by the elements equal to the min", "smallest element", integers=KEPT)
MAX_DIM = _declare("max_dim", "MaxBackward0", _take_dim, _indices_grad, "grad to the position of the max along dim",
                   "max over a dim", saved=("indices",), integers=KEPT)
MIN_DIM = _declare("min_dim", "MinBackward0", _take_dim, _indices_grad, "grad to the position of the min along dim",
                   "min over a dim", saved=("indices",), integers=KEPT)
AMAX = _declare("amax", "AmaxBackward0", _over(np.amax), _extreme_grad,
                "grad shared evenly by the elements equal to the max", "largest element over dims", integers=KEPT)
AMIN = _declare("amin", "AminBackward0", _over(np.amin), _extreme_grad,
                "grad shared evenly by the elements equal to the min", "smallest element over dims", integers=KEPT)
SOFTMAX = _declare("softmax", "SoftmaxBackward0", _softmax,
                   lambda F, g, s: F.softmax_backward(g, s.result, s.dim),
                   "result * (grad - sum(grad * result, dim))", "exp(self) / sum(exp(self), dim)", noisy=True,
                   jvp=lambda F, t, s: s.result * (t.self - F.sum(t.self * s.result, s.dim, True)))
LOG_SOFTMAX = _declare("log_softmax", "LogSoftmaxBackward0", _log_softmax,
                       lambda F, g, s: F.log_softmax_backward(g, s.result, s.dim),
                       "grad - exp(result) * sum(grad, dim)",
                       "self - log(sum(exp(self), dim))", noisy=True,
                       jvp=lambda F, t, s: t.self - F.sum(F.exp(s.result) * t.self, s.dim, True))
PROD = _declare("prod", "ProdBackward0", _over(np.prod), _prod_all_grad,
                "grad * (the product of the other elements); 0 where two or more elements are 0 (without create_graph)",
                "product",
                noisy=True, integers=WIDENED)
PROD_DIM = _declare("prod_dim", "ProdBackward1", _over(np.prod), _prod_grad,
                    "grad * (the product of the other elements)", "product over a dim", noisy=True, integers=WIDENED)
VAR = _declare("var", "VarBackward0", variance, _var_grad, "grad * 2 * (self - mean) / (n - correction)", "variance",
               noisy=True)
STD = _declare("std", "StdBackward0",
               lambda x, *, dim, keepdim, correction: variance(x, dim=dim, keepdim=keepdim, correction=correction,
                                                                root=True),
               _std_grad, "grad * (self - mean) / (result * (n - correction))", "standard deviation", noisy=True)
LOGSUMEXP = _declare("logsumexp", "LogsumexpBackward0", lambda x, *, dim, keepdim: _logsumexp(x, dim, keepdim),
                     _logsumexp_grad, "grad * exp(self - result)", "log(sum(exp(self)))", noisy=True)
NORM = _declare("norm", "LinalgVectorNormBackward0", _vector_norm, _norm_grad,
                "grad * sgn(self) * abs(self)**(p - 1) / result**(p - 1) (grad * self / result for p = 2)",
                "the p-norm (sum(abs(self)**p)**(1/p); max(abs(self)) for p = inf)", noisy=True)


# ---------------------------------------------------------------------------- dims
def reduced_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """Normalize dim (an int or a sequence of ints) to sorted non-negative dims."""
    items = list(dim) if isinstance(dim, (list, tuple)) else [dim]
    dims = [check_dim(d, ndim) for d in items]
    if len(set(dims)) != len(dims):
        raise BadValueError(f"dim {items} names a dimension more than once")
    if ndim == 0:  # dim 0 or -1 of a 0-d tensor: nothing to reduce over (PyTorch allows it)
        return ()
    return tuple(sorted(dims)) if dims else tuple(range(ndim))


def check_reduced(x: Tensor, dims: tuple[int, ...], keepdim: Any, what: str = "the reduction's result") -> None:
    """A reduction's result is no larger than its input, except over an empty dim: ones(10**9, 0).sum(1)
    has 10**9 elements. Checked against the element limit before numpy allocates them."""
    if x._data.size == 0:
        shape = x._data.shape
        check_elements(tuple(1 if d in dims else n for d, n in enumerate(shape)) if keepdim
                       else tuple(n for d, n in enumerate(shape) if d not in dims), what)


def reduced(x: Tensor, dim: Any, keepdim: bool) -> tuple[tuple[int, ...], bool]:
    """dim as sorted dims (all of them for None or ()), checked like sum's."""
    dims = reduced_dims(dim, x.ndim) if dim is not None and dim != () else tuple(range(x.ndim))
    check_reduced(x, dims, keepdim)
    return dims, bool(keepdim)


# ---------------------------------------------------------------------------- the functions
@builtin("sum(input, dim=None, keepdim=False, dtype=None)", ("sum", "sum_dim"))
@with_axis
def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """With dtype, input's values are converted first and summed in it (the node stays SumBackward0)."""
    x = tensor_arg(input)
    arrays = None if dtype is None else (x._data.astype(as_dtype(dtype)),)
    if dim is None:
        return apply(SUM, (x,), None, arrays)
    dims = reduced_dims(dim, x.ndim)
    check_reduced(x, dims, keepdim)
    return apply(SUM_DIM, (x,), {"dim": dims, "keepdim": bool(keepdim)}, arrays)


@builtin("mean(input, dim=None, keepdim=False)", ("mean", "mean_dim"))
@with_axis
def mean(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = tensor_arg(input)
    if dim is None:
        return apply(MEAN, (x,), {"count": x.numel()})
    dims = reduced_dims(dim, x.ndim)
    check_reduced(x, dims, keepdim)
    count = math.prod(x._data.shape[d] for d in dims) if x.ndim else 1
    return apply(MEAN_DIM, (x,), {"dim": dims, "keepdim": bool(keepdim), "count": count})


# torch.return_types.max / .min: (values, indices)
MAX_RESULT, MIN_RESULT = return_type("max", ("values", "indices")), return_type("min", ("values", "indices"))
MinMax = ReturnTuple  # what max, min, cummax, cummin, sort and topk return over a dim


def _extreme(kind: str, input: Any, dim: Any, keepdim: bool, other: Any) -> Any:
    x = tensor_arg(input)
    if isinstance(dim, Tensor) and other is None:
        dim, other = None, dim
    if other is not None:
        return maximum(x, other) if kind == "max" else minimum(x, other)
    if dim is None:
        if x.numel() == 0:
            raise BadValueError(f"{kind}(): Expected reduction dim to be specified for input.numel() == 0.")
        return apply(MAX if kind == "max" else MIN, (x,))
    d = check_dim(dim, x.ndim)
    data = x._data if x.ndim else x._data.reshape(1)
    if data.shape[d] == 0:
        raise BadValueError(f"{kind}(): cannot take the {kind} over an empty dimension {dim}")
    pick = np.argmax if kind == "max" else np.argmin
    indices = pick(data, axis=d, keepdims=True)
    if not keepdim or x.ndim == 0:
        indices = np.squeeze(indices, axis=d)
    keep = bool(keepdim) and x.ndim > 0
    values = apply(MAX_DIM if kind == "max" else MIN_DIM, (x,), {"dim": d, "keepdim": keep, "indices": indices})
    return (MAX_RESULT if kind == "max" else MIN_RESULT)(values, Tensor._make(indices.astype(np.int64)))


@builtin("max(input, dim=None, keepdim=False)", ("max", "max_dim", "maximum"))
@with_axis
def max(input: Any, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:
    """Largest element; with dim, (values, indices) along it; with a tensor, the elementwise maximum."""
    return _extreme("max", input, dim, keepdim, other)


@builtin("min(input, dim=None, keepdim=False)", ("min", "min_dim", "minimum"))
@with_axis
def min(input: Any, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:
    """Smallest element; with dim, (values, indices) along it; with a tensor, the elementwise minimum."""
    return _extreme("min", input, dim, keepdim, other)


def _softmax_dim(x: Tensor, dim: Any, name: str) -> tuple[int, ...]:
    """The axes to normalize over, as a tuple: empty for a 0-d tensor (whose softmax is 1)."""
    if dim is None:
        if x.ndim > 1:
            raise BadValueError(f"{name}() needs dim= for a tensor of {x.ndim} dimensions, e.g. {name}(x, dim=-1)")
        dim = 0
    d = check_dim(dim, x.ndim)
    return (d,) if x.ndim else ()


@builtin("softmax(input, dim, dtype=None)", ("softmax", "to"), functional=True)
@with_axis
def softmax(input: Any, dim: Any = None, dtype: Any = None) -> Tensor:
    """exp(input) / sum(exp(input), dim); with dtype=, input is converted first (ToCopyBackward0)."""
    x = tensor_arg(input) if dtype is None else to(tensor_arg(input), dtype)
    dims = _softmax_dim(x, dim, "softmax")
    check_reduced(x, dims, True, f"softmax's hidden sum along dim {dims[0] if dims else 0}")
    return apply(SOFTMAX, (x,), {"dim": dims})


@builtin("log_softmax(input, dim, dtype=None)", ("log_softmax", "to"), functional=True)
@with_axis
def log_softmax(input: Any, dim: Any = None, dtype: Any = None) -> Tensor:
    """input - log(sum(exp(input), dim)); with dtype=, input is converted first (ToCopyBackward0)."""
    x = tensor_arg(input) if dtype is None else to(tensor_arg(input), dtype)
    dims = _softmax_dim(x, dim, "log_softmax")
    check_reduced(x, dims, True, f"log_softmax's hidden sum along dim {dims[0] if dims else 0}")
    return apply(LOG_SOFTMAX, (x,), {"dim": dims})


def log_softmax_along(x: Tensor, dim: int) -> Tensor:
    """log_softmax(x, dim) for a dim already checked (cross_entropy's class dim), without the call's wrappers."""
    check_reduced(x, (dim,), True, f"log_softmax's hidden sum along dim {dim}")
    return apply(LOG_SOFTMAX, (x,), {"dim": (dim,)})


@builtin("prod(input, dim=None, keepdim=False, dtype=None)", ("prod", "prod_dim"))
@with_axis
def prod(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    x = tensor_arg(input) if dtype is None else to(tensor_arg(input), dtype)
    dims, keep = reduced(x, dim, keepdim)
    return apply(PROD if dim is None else PROD_DIM, (x,), {"dim": dims, "keepdim": keep})


def correction_of(unbiased: Any, correction: Any) -> int:
    if correction is not None:
        return int(correction)
    return 1 if unbiased is None or unbiased else 0


@builtin("var(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("var",))
@with_axis
def var(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool) and unbiased is None:  # x.var(False): the unbiased flag (PyTorch's overload)
        dim, unbiased = None, dim
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    return apply(VAR, (x,), {"dim": dims, "keepdim": keep, "correction": correction_of(unbiased, correction)})


@builtin("std(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("std",))
@with_axis
def std(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    if isinstance(dim, bool) and unbiased is None:  # x.std(False): the unbiased flag (PyTorch's overload)
        dim, unbiased = None, dim
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    return apply(STD, (x,), {"dim": dims, "keepdim": keep, "correction": correction_of(unbiased, correction)})


@builtin("logsumexp(input, dim, keepdim=False)", ("logsumexp",))
@with_axis
def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Tensor:
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    return apply(LOGSUMEXP, (x,), {"dim": dims, "keepdim": keep})


@builtin("amax(input, dim=(), keepdim=False)", ("amax",))
@with_axis
def amax(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    if x._data.size == 0:
        raise BadValueError("amax(): the input is empty, so it has no largest element", reason="empty")
    return apply(AMAX, (x,), {"dim": dims, "keepdim": keep})


@builtin("amin(input, dim=(), keepdim=False)", ("amin",))
@with_axis
def amin(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    x = tensor_arg(input)
    dims, keep = reduced(x, dim, keepdim)
    if x._data.size == 0:
        raise BadValueError("amin(): the input is empty, so it has no smallest element", reason="empty")
    return apply(AMIN, (x,), {"dim": dims, "keepdim": keep})


def _order(p: Any, name: str) -> float:
    if p is None or p == "fro":
        return 2.0
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise BadValueError(f"{name}(): p must be a number (inf and -inf too) or 'fro', got {p!r}",
                            hint="the nuclear norm is p='nuc'; other matrix norms are not available", reason="norm")
    return float(p)


def _norm(x: Tensor, p: float, dim: Any, keepdim: Any, name: str) -> Tensor:
    dims, keep = reduced(x, dim, keepdim)
    if math.isinf(p) and x._data.size == 0:
        raise BadValueError(f"{name}(): cannot compute the inf norm of an empty tensor", reason="empty")
    return apply(NORM, (x,), {"dim": dims, "keepdim": keep, "p": p})


@builtin("norm(input, p='fro', dim=None, keepdim=False)", ("norm",))
@with_axis
def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Tensor:
    """The p-norm of input's elements (over dim): p a number, inf or -inf; 'fro' (the default) is p = 2; 'nuc'
    the nuclear norm of matrices (nuclear_norm)."""
    if isinstance(p, str) and p == "nuc":
        return BUILTINS["nuclear_norm"].fn(input, dim, keepdim)
    return _norm(tensor_arg(input), _order(p, "norm"), dim, keepdim, "norm")


@builtin("vector_norm(input, ord=2, dim=None, keepdim=False)", ("norm",), method=False)
def vector_norm(input: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False) -> Tensor:
    """torch.linalg.vector_norm: the ord-norm of input's elements (over dim), LinalgVectorNormBackward0."""
    return _norm(tensor_arg(input), _order(ord, "vector_norm"), dim, keepdim, "vector_norm")


def linalg_norm(input: Any, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Tensor:
    """torch.linalg.norm: a vector norm of a vector or over one dim; of a matrix, 'fro' (the default) only."""
    x = tensor_arg(input)
    matrix = (dim is None and x.ndim == 2) or (isinstance(dim, (list, tuple)) and len(dim) == 2)
    if matrix and ord not in (None, "fro"):
        raise BadValueError(f"linalg.norm(): the matrix norm ord={ord!r} is not available (only 'fro')",
                            hint="for a vector norm over all elements, use torch.linalg.vector_norm", reason="norm")
    return _norm(x, _order(ord, "linalg.norm"), dim, keepdim, "linalg.norm")


def prod_others(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """For each element, the product of the other elements of its group along `dims` (zeros included)."""
    moved = np.moveaxis(x, dims, tuple(range(x.ndim - len(dims), x.ndim)))
    shape = moved.shape
    flat = moved.reshape((*shape[:x.ndim - len(dims)], -1))
    ones = np.ones((*flat.shape[:-1], 1), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], axis=-1), axis=-1), -1)
    return np.moveaxis((left * right).reshape(shape), tuple(range(x.ndim - len(dims), x.ndim)), dims)
