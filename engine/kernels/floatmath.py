"""Floating-point arithmetic exactly as PyTorch's compiled CPU kernels do it, in numpy.

PyTorch's random-number transforms round at places numpy does not: fused multiply-adds (one rounding for
a*b + c) and, for float32 normal samples drawn 16 at a time, the Cephes-style `log256_ps` and
`sincos256_ps` of ATen's avx_mathfun.h, compiled with FMA contraction in the AVX2 kernel that x86-64
machines with AVX2 or AVX-512 run. The functions here reproduce those roundings bit for bit:

- `fma32` / `fma64`: a*b + c rounded once, elementwise. float32 goes through float64 with round-to-odd
  (exact: the float32 product is exact in float64); float64 uses Dekker's exact product and the
  round-to-odd sum of Boldo and Melquiond, and Python's exact fractions where that cannot be exact.
- `log_avx2` / `sincos_avx2`: the float32 log and sin/cos of avx_mathfun.h, with the fused
  multiply-adds where the compiled kernel has them (read from its disassembly).
- `libm`: a function of Python's math module (the C library's, as PyTorch calls it) applied
  elementwise; numpy's own log/log1p differ from the C library's in the last bit for some inputs.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

F32 = np.float32


def libm(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """fn (math.log, math.sin, ...) on every element of a float64 array, as the C library computes it."""
    flat = np.ascontiguousarray(x, dtype=np.float64).reshape(-1)
    return np.fromiter(map(fn, flat.tolist()), np.float64, count=flat.size).reshape(np.shape(x))


def _round_to_odd(s: np.ndarray, err: np.ndarray) -> np.ndarray:
    """s + err (s the nearest float64, err the exact rest) rounded to odd: the neighbour with an odd last
    bit when the sum is not exact. A later rounding to fewer bits is then correct (no double rounding)."""
    even = (s.view(np.int64) & 1) == 0
    return np.where((err != 0) & even, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def fma32(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float32 a*b + c with a single rounding, elementwise (broadcasting)."""
    p = np.asarray(a, F32).astype(np.float64) * np.asarray(b, F32).astype(np.float64)  # exact
    c64 = np.asarray(c, F32).astype(np.float64)
    s = np.asarray(p + c64)
    # Rounding s to float32 is a second rounding; it can differ from one rounding of the exact sum only
    # when s lies halfway between two float32 numbers (or in float32's subnormal range, |s| < 2**-125, whose
    # results round to at most 2**-125): redo those, and any result that small.
    with np.errstate(invalid="ignore", over="ignore"):
        result = s.astype(F32)
        doubtful = ((s.view(np.int64) & 0x1FFFFFFF) == 0x10000000) | (np.abs(result) <= F32(2.0**-125))
        if not doubtful.any():
            return result
    p, c64 = np.broadcast_to(p, s.shape), np.broadcast_to(c64, s.shape)
    total, err = _two_sum(p[doubtful], c64[doubtful])
    s = s.copy()
    s[doubtful] = _round_to_odd(total, err)
    with np.errstate(over="ignore"):
        return s.astype(F32)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = a * 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = t - (t - a)
    return hi, a - hi


def fma64(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    """float64 a*b + c with a single rounding, elementwise (broadcasting)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                  np.asarray(c, np.float64))
    with np.errstate(all="ignore"):
        uh = a * b
        ah, al = _split(a)
        bh, bl = _split(b)
        ul = ((ah * bh - uh) + ah * bl + al * bh) + al * bl  # uh + ul == a*b exactly
        th, tl = _two_sum(c, uh)
        v, verr = _two_sum(tl, ul)
        result = th + _round_to_odd(v, verr)
        # Dekker's product is exact only away from overflow and underflow: redo those exactly
        exotic = ~np.isfinite(result) | (np.abs(c) > 2.0**995)
        for v in (a, b, uh):
            mag = np.abs(v)
            exotic |= (mag > 2.0**995) | ((mag < 2.0**-969) & (v != 0))
    if exotic.any():
        result = np.array(result, copy=True)
        for i in zip(*np.nonzero(exotic)):
            result[i] = _fma_exact(float(a[i]), float(b[i]), float(c[i]))
    return result


def _fma_exact(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    from fractions import Fraction  # rarely needed: not imported at start-up

    try:
        return float(Fraction(a) * Fraction(b) + Fraction(c))
    except OverflowError:
        return math.copysign(math.inf, a * b if a * b != 0 else c)


_LOG_P = (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
          -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)


def log_avx2(x: np.ndarray) -> np.ndarray:
    """avx_mathfun.h's log256_ps on float32, as ATen's AVX2 kernel computes it (nan for x <= 0)."""
    x = np.asarray(x, F32)
    invalid = x <= 0
    x = np.maximum(x, np.array(0x00800000, np.int32).view(F32))  # no denormals
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(F32) + F32(1)
    x = ((bits & ~0x7F800000) | np.array(0.5, F32).view(np.int32)).view(F32)  # mantissa in [0.5, 1)
    small = x < F32(0.707106781186547524)
    tmp = np.where(small, x, F32(0))
    x = x - F32(1)
    e = e - np.where(small, F32(1), F32(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, F32(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = fma32(y, x, F32(p))
    y = fma32(y * x, z, e * F32(-2.12194440e-4))
    y = fma32(-z, F32(0.5), y)
    x = x + y
    x = fma32(e, F32(0.693359375), x)
    return np.where(invalid, F32(np.nan), x)


def sincos_avx2(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun.h's sincos256_ps on float32 as ATen's AVX2 kernel computes it: (sin x, cos x)."""
    x = np.asarray(x, F32)
    sign_sin = x.view(np.uint32) & np.uint32(0x80000000)
    x = np.abs(x)
    j = (x * F32(1.27323954473516)).astype(np.int32)  # x * 4/pi, truncated
    j = (j + 1) & ~1
    y = j.astype(F32)
    sign_sin = sign_sin ^ ((j & 4) << 29).astype(np.uint32)
    sign_cos = ((~(j - 2) & 4) << 29).astype(np.uint32)
    use_sin_poly = (j & 2) == 0
    x = fma32(y, F32(-0.78515625), x)  # x - j*pi/4 in three parts
    x = fma32(y, F32(-2.4187564849853515625e-4), x)
    x = fma32(y, F32(-3.77489497744594108e-8), x)
    z = x * x
    cos_poly = fma32(F32(2.443315711809948e-5), z, F32(-1.388731625493765e-3))
    cos_poly = fma32(cos_poly, z, F32(4.166664568298827e-2))
    cos_poly = fma32(cos_poly * z, z, -(z * F32(0.5))) + F32(1)
    sin_poly = fma32(F32(-1.9515295891e-4), z, F32(8.3321608736e-3))
    sin_poly = fma32(sin_poly, z, F32(-1.6666654611e-1))
    sin_poly = fma32(sin_poly * z, x, x)
    sin_part = np.where(use_sin_poly, sin_poly, F32(0))
    cos_part = np.where(use_sin_poly, F32(0), cos_poly)
    s = cos_part + sin_part
    c = (cos_poly - cos_part) + (sin_poly - sin_part)
    return (s.view(np.uint32) ^ sign_sin).view(F32), (c.view(np.uint32) ^ sign_cos).view(F32)
