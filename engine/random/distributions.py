"""randint, randperm, normal, bernoulli and multinomial, and the in-place normal_ and uniform_: PyTorch's
CPU samplers, drawing from the generator of generator.py, so that after manual_seed they give PyTorch's
numbers bit for bit.

- randint(low, high, size): per element one 32-bit word when high - low < 2**28, else one 64-bit draw;
  low + word % (high - low). int64 (or the float dtype asked for).
- randperm(n): Fisher-Yates, for i in 0..n-2 swap i with i + word % (n - i) (one 32-bit word each).
- normal(mean, std, size) with numbers is normal_(mean, std) of a new tensor; with tensors, PyTorch draws
  standard normals of the broadcast shape and computes eps * std + mean (eps drawn with std when std is a
  number). PyTorch's gradient with respect to mean and std is zero; here the result has no history.
- bernoulli(p): one uniform per element, 1 where u < p (float32 p: 24-bit uniforms, float64: 53-bit);
  bernoulli(input, p) with a number p: 53-bit uniforms. PyTorch on Intel CPUs with MKL draws the scalar-p
  form from MKL's own stream instead: those numbers are not reproduced.
- exponential_(lambd): one 53-bit uniform u per element (two words), (-1 / lambd) * log1p(-u) in double with
  the C library's log1p, rounded to the tensor's dtype (PyTorch's CPU kernel; its MKL variant is not the one
  torch 2.13's CPU build runs for these tensors: checked against torch).
- multinomial without replacement (or one sample): exponential samples q = -log1p(-u) over the input,
  then the largest input / q (topk for several); with replacement: per row one 53-bit uniform per sample
  and a search of the normalised cumulative sums.
Results do not record a history (PyTorch records a zero gradient for bernoulli of a tensor that requires
grad); integer results are int64 tensors, as the indices of max(dim=...).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.coerce import sizes, tensor_arg
from ..core.inplace import overwrite_
from ..core.registry import builtin
from ..core.settings import as_dtype, check_elements
from ..core.tensor import FLOATING_ONLY, Tensor
from ..errors import AutogradError, BadValueError, LimitError, ShapeError
from ..kernels.floatmath import libm
from ..ops.constructors import leaf
from . import generator as generators

INT64 = np.dtype(np.int64)
INT64_RANGE = (-(2**63), 2**63 - 1)
RANDPERM_LIMIT = (2**32 - 1) // 20  # from this size on PyTorch shuffles with 64-bit draws (not reproduced)
RANDINT_WIDE = 2**28  # ranges from this size on take a 64-bit draw per element
MAX_CATEGORIES = 2**24


def _whole(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise BadValueError(f"{what} must be a whole number, got {x!r}")
    return int(x)


def _number(x: Any, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise BadValueError(f"{what} must be a number, got {x!r}")
    return float(x)


def _integer_dtype(dtype: Any) -> np.dtype:
    """int64 (None, 'int64', 'long') or one of the float dtypes."""
    if dtype is None or (isinstance(dtype, str) and dtype in ("int64", "long")):
        return INT64
    try:
        if not isinstance(dtype, str) and np.dtype(dtype) == INT64:
            return INT64
    except TypeError:
        pass
    return as_dtype(dtype)


def _result(values: np.ndarray, dtype: np.dtype, requires_grad: bool) -> Tensor:
    if requires_grad and dtype == INT64:
        raise AutogradError(FLOATING_ONLY,
                            hint="pass dtype=float32 (or float64), or drop requires_grad")
    return leaf(values.astype(dtype, copy=False), bool(requires_grad))


def _randint_bounds(args: tuple, low: Any, high: Any) -> tuple[int, int]:
    bounds = list(args)
    if high is not None:
        bounds.append(high)
    if low is not None:
        bounds.insert(0, low)
    if len(bounds) == 1:
        bounds.insert(0, 0)
    if len(bounds) != 2:
        raise BadValueError("randint takes (high, size) or (low, high, size)",
                            hint="e.g. randint(0, 10, (3,)) for 3 integers from 0 to 9")
    lo, hi = (_whole(b, name) for b, name in zip(bounds, ("low", "high")))
    if lo >= hi:
        raise BadValueError(f"random_ expects 'from' to be less than 'to', but got from={lo} >= to={hi}")
    if lo < INT64_RANGE[0] or hi - 1 > INT64_RANGE[1]:
        raise BadValueError(f"randint: low and high must lie within int64's range, got low={lo}, high={hi}")
    return lo, hi


@builtin("randint(low=0, high, size, generator=None, dtype=None, requires_grad=False)", method=False,
         summary="random integers from low up to (not including) high, int64")
def randint(*args: Any, size: Any = None, low: Any = None, high: Any = None, generator: Any = None,
            dtype: Any = None, requires_grad: bool = False) -> Tensor:
    if size is None:
        if not args:
            raise BadValueError("randint needs a size, e.g. randint(0, 10, (3,))")
        *args, size = args
    lo, hi = _randint_bounds(tuple(args), low, high)
    shape = sizes((size,))
    check_elements(shape)
    out_dtype = _integer_dtype(dtype)
    n, span = math.prod(shape), hi - lo
    gen = generators.chosen(generator)
    draws = gen.words(n, wide=True) if span < RANDINT_WIDE else gen.words64(n)
    values = (draws % np.uint64(span)).astype(np.int64)
    if lo:
        with np.errstate(over="ignore"):
            values += np.int64(lo)  # wraps like PyTorch's uint64 arithmetic for spans past 2**63
    return _result(values.reshape(shape), out_dtype, requires_grad)


@builtin("randperm(n, generator=None, dtype=None, requires_grad=False)", method=False,
         summary="a random permutation of 0..n-1, int64")
def randperm(n: Any, *, generator: Any = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    count = _whole(n, "n")
    if count < 0:
        raise BadValueError(f"n must be non-negative, got {count}")
    check_elements((count,))
    if count >= RANDPERM_LIMIT:
        raise LimitError(f"randperm({count}): PyTorch shuffles {RANDPERM_LIMIT:,} or more elements another way, "
                         "which autodiff does not reproduce", reason="elements")
    out_dtype = _integer_dtype(dtype)
    words = generators.chosen(generator).words(count - 1).tolist()
    perm = list(range(count))
    for i, word in enumerate(words):
        j = i + word % (count - i)
        perm[i], perm[j] = perm[j], perm[i]
    return _result(np.array(perm, dtype=np.int64), out_dtype, requires_grad)


def _float_data(t: Tensor, what: str) -> np.ndarray:
    if t._data.dtype.kind != "f":
        raise BadValueError(f"{what} must be a float tensor, got {t._data.dtype}")
    return t._data


def _check_std(std: float) -> None:
    if not std >= 0.0:
        raise BadValueError(f"normal expects std >= 0.0, but found std {std:g}")


@builtin("normal(mean, std=1.0, size=None, generator=None, dtype=None, requires_grad=False)", method=False,
         summary="normal random numbers with the given mean and standard deviation")
def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        if size is not None or dtype is not None or requires_grad:
            raise BadValueError("normal(mean, std) with a tensor mean or std takes its shape and dtype from them",
                                hint="drop size=, dtype= and requires_grad=")
        return _normal_of_tensors(mean, std, generators.chosen(generator))
    m, s = _number(mean, "mean"), _number(std, "std")
    if size is None:
        raise BadValueError("normal(mean, std) with two numbers needs a size, e.g. normal(0, 1, (3, 2))")
    _check_std(s)
    shape = sizes((size,))
    check_elements(shape)
    out_dtype = as_dtype(dtype)
    values = generators.normal(generators.chosen(generator), math.prod(shape), out_dtype, m, s)
    return leaf(values.reshape(shape), bool(requires_grad))


def _normal_of_tensors(mean: Any, std: Any, gen: generators.Generator) -> Tensor:
    tensors = [x for x in (mean, std) if isinstance(x, Tensor)]
    for t, what in ((mean, "mean"), (std, "std")):
        if isinstance(t, Tensor):
            _float_data(t, f"normal's {what}")
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        raise ShapeError(f"normal: the shapes of mean {list(mean.shape) if isinstance(mean, Tensor) else []} and "
                         f"std {list(std.shape) if isinstance(std, Tensor) else []} do not broadcast") from None
    check_elements(shape)
    out_dtype = np.result_type(*(t._data.dtype for t in tensors))
    with np.errstate(all="ignore"):
        m = mean._data.astype(out_dtype) if isinstance(mean, Tensor) else out_dtype.type(_number(mean, "mean"))
    if isinstance(std, Tensor):
        if std._data.size and not bool(np.all(std._data >= 0)):
            raise BadValueError("normal expects all elements of std >= 0.0")
        s, eps_std = std._data.astype(out_dtype), 1.0
    else:
        s, eps_std = None, _number(std, "std")
        _check_std(eps_std)
    eps = generators.normal(gen, math.prod(shape), out_dtype, 0.0, eps_std).reshape(shape)
    # PyTorch: normal_(0, std) then add_(mean), or normal_(0, 1), mul_(std), add_(mean): the same roundings
    with np.errstate(all="ignore"):
        values = (eps if s is None else eps * s) + m
    return leaf(np.asarray(values, dtype=out_dtype), False)


@builtin("bernoulli(input, p=None, generator=None)",
         summary="1 with probability p (input's values, or the number p), else 0")
def bernoulli(input: Any, p: Any = None, *, generator: Any = None) -> Tensor:
    data = _float_data(tensor_arg(input), "bernoulli's input")
    gen = generators.chosen(generator)
    if p is None:
        probs = np.array(data, order="C")  # PyTorch's result is contiguous: drawn in C order (0-d stays 0-d)
        if probs.size and not bool(np.all((probs >= 0) & (probs <= 1))):
            raise BadValueError("bernoulli: every probability in input must be in [0, 1]")
        u = generators.unit_uniform(gen, probs.size, data.dtype)
        return leaf((u.reshape(data.shape) < probs).astype(data.dtype), False)
    chance = _number(p, "p")
    if not 0 <= chance <= 1:
        raise BadValueError(f"bernoulli_ expects p to be in [0, 1], but got p={chance:g}")
    u = generators.unit_uniform(gen, data.size, np.dtype(np.float64))
    return leaf((u.reshape(data.shape) < chance).astype(data.dtype), False)


def _check_distribution(probs: np.ndarray, n_sample: int, replacement: bool) -> None:
    if probs.ndim not in (1, 2):
        raise ShapeError(f"prob_dist must be 1 or 2 dim, got {probs.ndim}")
    if n_sample <= 0:
        raise BadValueError("cannot sample n_sample <= 0 samples")
    categories = probs.shape[-1]
    if not replacement and n_sample > categories:
        raise BadValueError(f"cannot sample n_sample > prob_dist.size(-1) samples without replacement "
                            f"({n_sample} > {categories})")
    if categories > MAX_CATEGORIES:
        raise LimitError("number of categories cannot exceed 2^24", reason="elements")
    with np.errstate(invalid="ignore"):
        if probs.size and not bool(np.all((probs >= 0) & (probs < np.inf))):
            raise BadValueError("probability tensor contains either `inf`, `nan` or element < 0")
        if probs.size and bool(np.any(probs.reshape(-1, categories).sum(axis=1) == 0)):
            raise BadValueError("invalid multinomial distribution (sum of probabilities <= 0)")


@builtin("multinomial(input, num_samples, replacement=False, generator=None)",
         summary="indices drawn with the probabilities in input's last dim, int64")
def multinomial(input: Any, num_samples: Any, replacement: bool = False, *, generator: Any = None) -> Tensor:
    probs = _float_data(tensor_arg(input), "multinomial's input")
    n_sample = _whole(num_samples, "num_samples")
    _check_distribution(probs, n_sample, bool(replacement))
    check_elements((*probs.shape[:-1], n_sample))
    if probs.size == 0:
        return leaf(np.empty((*probs.shape[:-1], n_sample), np.int64), False)
    gen = generators.chosen(generator)
    if not replacement or n_sample == 1:
        return leaf(_by_exponential_race(gen, probs, n_sample), False)
    rows = probs.reshape(-1, probs.shape[-1])
    out = np.empty((rows.shape[0], n_sample), np.int64)
    for i, row in enumerate(rows):  # one row after the other, as PyTorch draws them
        cumulative = np.cumsum(row)
        cumulative = (cumulative / cumulative[-1]).astype(np.float64)
        cumulative[-1] = 1.0
        u = generators.unit_uniform(gen, n_sample, np.dtype(np.float64))
        out[i] = np.searchsorted(cumulative, u, side="left")
    return leaf(out.reshape(*probs.shape[:-1], n_sample), False)


def _by_exponential_race(gen: generators.Generator, probs: np.ndarray, n_sample: int) -> np.ndarray:
    """PyTorch's sampling without replacement: q ~ Exp(1) laid out as input, the largest input / q win."""
    u = generators.unit_uniform(gen, probs.size, np.dtype(np.float64))
    q = generators.in_memory_order(generators.empty_like(probs, probs.dtype),
                                   (-libm(math.log1p, -u)).astype(probs.dtype))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = probs / q
    if n_sample == 1:
        return np.argmax(ratio, axis=-1)[..., None]
    return np.argsort(-ratio, axis=-1, kind="stable")[..., :n_sample]


def normal_(t: Tensor, mean: Any = 0.0, std: Any = 1.0, *, generator: Any = None) -> Tensor:
    """t overwritten with normal samples as PyTorch's normal_ draws them (in t's memory order)."""
    m, s = _number(mean, "mean"), _number(std, "std")
    _check_std(s)
    _check_float(t, "normal_")
    gen = generators.chosen(generator)

    def write(data: np.ndarray) -> None:
        values = generators.normal(gen, data.size, data.dtype, m, s, contiguous=data.flags.c_contiguous)
        generators.in_memory_order(data, values)

    return overwrite_(t, write, "normal_")


def uniform_(t: Tensor, low: Any = 0.0, high: Any = 1.0, *, generator: Any = None) -> Tensor:
    """t overwritten with uniform samples from [low, high) as PyTorch's uniform_ draws them."""
    lo, hi = _number(low, "from"), _number(high, "to")
    _check_float(t, "uniform_")
    if not lo <= hi:
        raise BadValueError(f"uniform_ expects to return a [from, to) range, but found from={lo:g} > to={hi:g}")
    limit = float(np.finfo(t._data.dtype).max)
    with np.errstate(all="ignore"):
        span = float(np.asarray(hi, t._data.dtype) - np.asarray(lo, t._data.dtype))
    if not span <= limit:
        raise BadValueError(f"uniform_ expects to-from <= {limit:g}, but found to={hi:g} and from={lo:g}")

    gen = generators.chosen(generator)

    def write(data: np.ndarray) -> None:
        values = generators.uniform(gen, data.size, data.dtype, lo, hi)
        generators.in_memory_order(data, values)

    return overwrite_(t, write, "uniform_")


def exponential_(t: Tensor, lambd: Any = 1.0, *, generator: Any = None) -> Tensor:
    """t overwritten with Exp(lambd) samples as PyTorch's CPU exponential_ draws them (in t's memory order)."""
    rate = _number(lambd, "lambd")
    if not rate > 0.0:
        raise BadValueError(f"exponential_ expects lambda > 0.0, but found lambda={rate:g}")
    if t._data.dtype.kind != "f":
        raise BadValueError("Exponential distribution is a continuous probability distribution. dtype must be a "
                            f"floating point but you specified {t._data.dtype}")
    gen = generators.chosen(generator)

    def write(data: np.ndarray) -> None:
        u = generators.unit_uniform(gen, data.size, np.dtype(np.float64))
        with np.errstate(all="ignore"):
            values = (-1.0 / rate) * libm(math.log1p, -u)
        generators.in_memory_order(data, values.astype(data.dtype))

    return overwrite_(t, write, "exponential_")


def _check_float(t: Tensor, name: str) -> None:
    if t._data.dtype.kind != "f":
        raise BadValueError(f"{name} needs a float tensor, got {t._data.dtype}")
