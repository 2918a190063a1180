"""Tensor.random_: whole numbers written in place, as PyTorch's CPU kernels draw them (bit for bit after
manual_seed, from the generator of generator.py).

- random_() with no bounds: one 64-bit draw per element for int64 and float64, one 32-bit word otherwise;
  the draw modulo (the dtype's largest value + 1), where a float's "largest value" is 2**digits (2**24 for
  float32, 2**53 for float64, 2**11 for float16), and a bool takes the draw's lowest bit.
- random_(to) and random_(from, to): [from, to); random_(from, None): from up to the dtype's largest value.
  Per element from + draw % (to - from), the draw a 64-bit one when to - from >= 2**28, else a 32-bit word.
- random_(-2**63, None) on int64, float32 or float64: the 64-bit draw itself, as a signed number.
DataLoader's RandomSampler seeds itself with `torch.empty((), dtype=torch.int64).random_()`.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core.inplace import overwrite_
from ..core.tensor import Tensor
from ..errors import BadValueError
from . import generator as generators

WIDE = 2**28  # ranges from this size on take a 64-bit draw per element
INT64_MIN = -(2**63)
FLOAT_DIGITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}
C_NAMES = {np.dtype(np.bool_): "bool", np.dtype(np.uint8): "unsigned char", np.dtype(np.int8): "signed char",
           np.dtype(np.int16): "short int", np.dtype(np.int32): "int", np.dtype(np.int64): "long int",
           np.dtype(np.float16): "c10::Half", np.dtype(np.float32): "float", np.dtype(np.float64): "double"}
FULL_RANGE_TYPES = (np.dtype(np.int64), np.dtype(np.float32), np.dtype(np.float64))


def largest(dtype: np.dtype) -> int:
    """The largest value random_ draws for dtype: 2**digits for a float, the maximum of an integer type."""
    if dtype.kind == "b":
        return 1
    if dtype.kind == "f":
        return 2 ** FLOAT_DIGITS[dtype]
    return int(np.iinfo(dtype).max)


def _draws(gen: generators.Generator, n: int, wide: bool) -> np.ndarray:
    return gen.words64(n) if wide else gen.words(n).astype(np.uint64)


def _whole(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise BadValueError(f"random_(): argument '{what}' must be int, not {type(x).__name__}",
                            reason="arguments")
    return int(x)


def _as_float(x: int, dtype: np.dtype) -> int:
    """x rounded to dtype and back to a whole number (what static_cast<scalar_t> then <int64_t> gives)."""
    with np.errstate(over="ignore"):
        value = np.array(x, np.float64).astype(dtype).astype(np.float64)
    return int(value) if np.isfinite(value) else (INT64_MIN if value < 0 else 2**63 - 1)


def _update_from(low: int, dtype: np.dtype) -> int:
    """PyTorch's update_from: a float tensor's lower bound moved up to one its dtype holds."""
    plus_one = _as_float(low + 1, dtype)
    if plus_one < low:
        return plus_one + (1 << (abs(low + 1).bit_length() - 1 - FLOAT_DIGITS[dtype] + 1))
    return low


def _update_to(high: int, dtype: np.dtype) -> int:
    """PyTorch's update_to: a float tensor's (exclusive) upper bound moved down to one its dtype holds."""
    minus_one = _as_float(high - 1, dtype)
    if minus_one >= high:
        return minus_one - (1 << (abs(high - 1).bit_length() - 1 - FLOAT_DIGITS[dtype] + 1))
    return high


def _check_range(low: int, to_inc: int, dtype: np.dtype) -> None:
    """PyTorch's check_from_to_in_range: an error out of the dtype's range; a warning past a float's 2**digits."""
    if dtype.kind == "f":
        smallest, top = float(np.finfo(dtype).min), float(np.finfo(dtype).max)
    else:
        smallest, top = (0, 1) if dtype.kind == "b" else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    for value, which in ((low, "from"), (to_inc, "to - 1")):
        if not smallest <= value <= top:
            raise BadValueError(f"{which} is out of bounds for {C_NAMES[dtype]}", reason="arguments")
    if dtype.kind == "f":
        digits = FLOAT_DIGITS[dtype]
        for value, which in ((low, "from"), (to_inc, "to - 1")):
            if not -(2**digits) <= value <= 2**digits:
                warnings.warn(f"{which} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{C_NAMES[dtype]} can support discrete uniform distribution only within this range.",
                              UserWarning, stacklevel=6)


def _bounds(dtype: np.dtype, low: Any, high: Any) -> tuple[int, int]:
    """(from, range) of random_from_to, checked and adjusted as PyTorch's random_from_to_impl does."""
    lo = _whole(low, "from")
    if high is not None:
        hi = _whole(high, "to")
        if not lo < hi:
            raise BadValueError(f"random_ expects 'from' to be less than 'to', but got from={lo} >= to={hi}",
                                reason="arguments")
        if dtype.kind == "f":
            lo, hi = _update_from(lo, dtype), _update_to(hi, dtype)
            if not lo < hi:
                raise BadValueError("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, "
                                    f"but got from={lo} >= to={hi}", reason="arguments")
        _check_range(lo, hi - 1, dtype)
        return lo, hi - lo
    to_inc = largest(dtype)
    if dtype.kind == "f":
        lo = _update_from(lo, dtype)
        if not lo < to_inc:
            raise BadValueError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted "
                                f"to dtype, but got from={lo} > to_inc={to_inc}", reason="arguments")
    _check_range(lo, to_inc, dtype)
    return lo, to_inc - lo + 1


def plan(dtype: np.dtype, low: Any = None, high: Any = None) -> tuple[int, int] | str:
    """What random_(low, high) draws for a dtype tensor: "default" (no bounds), "full" (the whole int64 range) or
    (from, range); bounds checked (and warned about) as PyTorch's random_ checks them."""
    dtype = np.dtype(dtype)
    if low is None and high is None:
        return "default"
    if low is not None and high is None and _whole(low, "from") == INT64_MIN:
        if dtype not in FULL_RANGE_TYPES:
            raise BadValueError("random_full_64_bits_range_kernel_cpu handles only int64, double, float and "
                                "bfloat16", reason="arguments")
        return "full"
    return _bounds(dtype, 0 if low is None else low, high)


def values(gen: generators.Generator, n: int, dtype: np.dtype, how: tuple[int, int] | str) -> np.ndarray:
    """n whole numbers as random_ of a dtype tensor of n elements draws them, `how` from plan (int64 or float64)."""
    dtype = np.dtype(dtype)
    if how == "default":
        if dtype.kind == "b":
            return (gen.words(n) & np.uint32(1)).astype(np.int64)
        draws = _draws(gen, n, dtype in (np.dtype(np.int64), np.dtype(np.float64)))
        return (draws % np.uint64(largest(dtype) + 1)).astype(np.int64)
    if how == "full":
        return gen.words64(n).view(np.int64)
    lo, span = how
    offsets = _draws(gen, n, span >= WIDE) % np.uint64(span)
    if dtype.kind == "f":
        return offsets.astype(np.float64) + float(lo)
    with np.errstate(over="ignore"):
        return offsets.astype(np.int64) + np.int64(lo)


def random_(t: Tensor, *bounds: Any, generator: Any = None, **named: Any) -> Tensor:
    """t.random_(), t.random_(to), t.random_(from, to): t overwritten with whole numbers, PyTorch's draws."""
    dtype = t._data.dtype
    how = plan(dtype, *_arguments(bounds, named))
    gen = generators.chosen(generator)

    def write(data: np.ndarray) -> None:
        if data.size:
            generators.in_memory_order(data, values(gen, data.size, dtype, how).astype(dtype))

    return overwrite_(t, write, "random_")


def _arguments(bounds: tuple, named: dict) -> tuple[Any, Any]:
    """(from, to) of random_'s three forms: (), (to), (from, to); from= and to= by name."""
    unknown = set(named) - {"from", "to", "from_"}
    if unknown or len(bounds) > 2:
        raise BadValueError("random_() takes (), (to) or (from, to), and generator=", reason="arguments")
    low = named.get("from", named.get("from_"))
    high = named.get("to")
    if len(bounds) == 1:
        if low is not None:
            return low, bounds[0]
        return (None, None) if bounds[0] is None and high is None else (0, bounds[0]) if high is None \
            else (bounds[0], high)
    if len(bounds) == 2:
        return bounds
    if low is None and high is not None:
        low = 0
    return low, high


__all__ = ["largest", "plan", "random_", "values"]
