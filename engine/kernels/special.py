"""Special functions numpy does not have, elementwise on arrays as PyTorch's CPU kernels compute them (ATen's
Math.h): erfinv (a rational first guess and two Newton steps), lgamma (the C library's, as std::lgamma),
digamma and trigamma (recurrence to x >= 10 or 6, then the asymptotic series; reflection below 0 and 0.5),
polygamma(n >= 2) as (-1)**(n+1) n! zeta(n + 1, x) (Cephes' Hurwitz zeta), and i0 (Cephes' Chebyshev series).
Each computes in float64 and returns the input's floating dtype (float64 for integers)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .arrays import erf, erfc

PI = math.pi
_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)
_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
              -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
              8.33333333333333333333e-2)
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042e-16


def _dtype(x: np.ndarray) -> np.dtype:
    return x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)


def _cast(result: Any, dtype: np.dtype) -> np.ndarray:
    """The float64 result in the input's dtype (float32's overflow is inf, without numpy's warning)."""
    with np.errstate(over="ignore"):
        return np.asarray(result, dtype=dtype)


def _f64(x: Any) -> tuple[np.ndarray, np.dtype]:
    x = np.asarray(x)
    return x.astype(np.float64), _dtype(x)


def erfinv(y: Any) -> np.ndarray:
    """The inverse error function: nan outside [-1, 1], +-inf at +-1 (PyTorch's calc_erfinv)."""
    y, dtype = _f64(y)
    with np.errstate(all="ignore"):
        size = np.abs(y)
        z = y * y
        a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
        central = y * (((a[3] * z + a[2]) * z + a[1]) * z + a[0]) / (
            (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0)
        t = np.sqrt(-np.log((1.0 - size) / 2.0))
        tail = np.copysign(((c[3] * t + c[2]) * t + c[1]) * t + c[0], y) / ((d[1] * t + d[0]) * t + 1.0)
        x = np.where(size <= 0.7, central, tail)
        tail_side = size > 0.7
        for _ in range(2):  # two Newton steps, on erfc(|x|) - (1 - |y|) in the tails (1 - |y| is exact there)
            slope = (2.0 / math.sqrt(PI)) * np.exp(-x * x)
            central_step = (erf(x) - y) / slope
            tail_step = np.sign(y) * ((1.0 - size) - erfc(np.abs(x))) / slope
            x = x - np.where(tail_side, tail_step, central_step)
        x = np.where(size == 1.0, np.copysign(np.inf, y), x)
        x = np.where(size > 1.0, np.nan, x)
    return _cast(x, dtype)


def _lgamma_one(v: float) -> float:
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0 and the negative integers
        return math.inf


_LGAMMA = np.frompyfunc(_lgamma_one, 1, 1)


def lgamma(x: Any) -> np.ndarray:
    """log|gamma(x)|: inf at the poles (0 and the negative integers) and at +-inf (the C library's lgamma)."""
    x, dtype = _f64(x)
    return _cast(np.asarray(_LGAMMA(x), dtype=np.float64), dtype)


def digamma(x: Any) -> np.ndarray:
    """psi(x) = d/dx lgamma(x): -inf at +0, inf at -0, nan at the negative integers and -inf (calc_digamma)."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        negative = x < 0
        reflected = np.where(negative, 1.0 - x, x)
        result = _digamma_positive(reflected)
        correction = PI / np.tan(PI * np.fmod(x, 1.0))
        result = np.where(negative, result - correction, result)
        result = np.where(negative & (x == np.trunc(x)), np.nan, result)
        result = np.where(x == 0, np.copysign(np.inf, -x), result)
    return _cast(result, dtype)


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    """digamma for x > 0 (and nan, inf): recurrence up to 10, then the asymptotic series."""
    result = np.zeros_like(x)
    x = x.copy()
    low = x < 10
    while low.any():
        result[low] -= 1.0 / x[low]
        x[low] += 1.0
        low = x < 10
    z = 1.0 / (x * x)
    series = np.zeros_like(x)
    for coefficient in _DIGAMMA_A:
        series = series * z + coefficient
    series = np.where(x < 1.0e17, z * series, 0.0)
    return np.where(x == 10, result + _PSI_10, result + np.log(x) - 0.5 / x - series)


def trigamma(x: Any) -> np.ndarray:
    """polygamma(1, x): reflection below 0.5, six steps of the recurrence, then the asymptotic series."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        small = x < 0.5
        sin_pi_x = np.sin(PI * x)
        result = np.where(small, -(PI * PI) / (sin_pi_x * sin_pi_x), 0.0)
        x = np.where(small, 1.0 - x, x)
        for _ in range(6):
            result = result + 1.0 / (x * x)
            x = x + 1.0
        ixx = 1.0 / (x * x)
        result = result + (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6 - ixx * (1.0 / 30 - ixx * (1.0 / 42)))) / x
        result = np.where(small, -result, result)
    return _cast(result, dtype)


def zeta(s: float, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function sum over k >= 0 of (q + k) ** -s, for s > 1 (Cephes' zeta, as ATen's)."""
    q = np.asarray(q, dtype=np.float64)
    with np.errstate(all="ignore"):
        total = np.power(q, -s)
        a, b = q.copy(), np.zeros_like(q)
        done = ~np.isfinite(q)
        i = 0
        while True:
            active = ~done & ((i < 9) | (a <= 9.0))
            if not active.any():
                break
            i += 1
            a = np.where(active, a + 1.0, a)
            b = np.where(active, np.power(a, -s), b)
            total = np.where(active, total + b, total)
            done |= active & (-_MACHEP * total < b) & (b < _MACHEP * total)
        w, tail, k, factor = a, total + b * a / (s - 1.0) - 0.5 * b, 0.0, np.ones_like(q)
        converged = done.copy()
        for coefficient in _ZETA_A:
            factor = factor * (s + k)
            b = b / w
            term = factor * b / coefficient
            tail = np.where(converged, tail, tail + term)
            converged |= np.abs(term / tail) < _MACHEP
            k += 1.0
            factor = factor * (s + k)
            b = b / w
            k += 1.0
        result = np.where(done, total, tail)
        result = np.where((q <= 0) & (q == np.floor(q)), np.inf, result)
        if s != math.floor(s):
            result = np.where((q <= 0) & (q != np.floor(q)), np.nan, result)
        return np.where(np.isnan(q) | (q == np.inf), np.nan, result)


def polygamma(n: int, x: Any) -> np.ndarray:
    """The n-th derivative of digamma: digamma for 0, trigamma for 1, (-1)**(n+1) n! zeta(n + 1, x) above."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        result = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0)) * zeta(n + 1.0, x)
    return _cast(result, dtype)


_I0_A = (-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
         1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
         -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
         9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
         -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
         1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
         -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
         1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
         -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
         1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1)
_I0_B = (-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
         3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
         1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
         -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
         7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
         -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
         3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
         2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
         8.04490411014108831608e-1)


def _chbevl(x: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    b0, b1, b2 = np.full_like(x, coefficients[0]), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x: Any) -> np.ndarray:
    """The modified Bessel function of the first kind, order 0 (Cephes' i0, as ATen's calc_i0)."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        size = np.abs(x)
        near = np.exp(size) * _chbevl(size / 2.0 - 2.0, _I0_A)
        far = np.exp(size) * _chbevl(32.0 / size - 2.0, _I0_B) / np.sqrt(size)
        result = np.where(size <= 8.0, near, far)
    return _cast(result, dtype)


_I1_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
         -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
         3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
         -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
         9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
         -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
         4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
         -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
         2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
         -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
         -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
         -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
         4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
         -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
         3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
         -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
         -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
         7.78576235018280120474e-1)


def i1(x: Any) -> np.ndarray:
    """The modified Bessel function of the first kind, order 1 (Cephes' i1, as ATen's calc_i1): i0's derivative."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        size = np.abs(x)
        near = np.exp(size) * size * _chbevl(size / 2.0 - 2.0, _I1_A)
        far = np.exp(size) * _chbevl(32.0 / size - 2.0, _I1_B) / np.sqrt(size)
        result = np.where(size <= 8.0, near, far)
        result = np.where(x < 0, -result, result)
    return _cast(result, dtype)


def ndtr(x: Any) -> np.ndarray:
    """The standard normal distribution function, (1 + erf(x / sqrt(2))) / 2 as PyTorch's special.ndtr."""
    x, dtype = _f64(x)
    return np.asarray((1.0 + erf(x * math.sqrt(0.5))) * 0.5, dtype=dtype)


def _lower_tail(x: np.ndarray) -> np.ndarray:
    """Phi(x) accurate in the lower tail: erfc(-x / sqrt(2)) / 2."""
    return 0.5 * erfc(-x * math.sqrt(0.5))


def ndtri(p: Any) -> np.ndarray:
    """The standard normal quantile, Phi^-1(p): -inf at 0, inf at 1, nan outside [0, 1]. sqrt(2) erfinv(2p - 1)
    (an asymptotic first guess in the far tails), then Newton steps on the tail nearer p, where Phi is exact."""
    p, dtype = _f64(p)
    with np.errstate(all="ignore"):
        lower = np.minimum(p, 1.0 - p)  # exact for p >= 1/2
        t = np.sqrt(-2.0 * np.log(lower))
        far = -(t - (np.log(t) + math.log(2.0 * PI) / 2.0) / t)  # the quantile of `lower` for lower < 1e-8
        x = np.where(lower < 1e-8, far, math.sqrt(2.0) * erfinv(2.0 * lower - 1.0))
        for _ in range(3):
            density = np.exp(-0.5 * x * x) / math.sqrt(2.0 * PI)
            x = x - (_lower_tail(x) - lower) / density
        x = np.where(p < 0.5, x, -x) + 0.0  # (ndtri(0.5) is 0.0, not -0.0)
        x = np.where(p == 0.0, -np.inf, np.where(p == 1.0, np.inf, x))
        x = np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)
    return _cast(x, dtype)


def erfcx(x: Any) -> np.ndarray:
    """The scaled complementary error function exp(x**2) * erfc(x), by its asymptotic series from 25 on (where
    erfc underflows): inf below about -26.6, 0 at inf."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        direct = np.exp(x * x) * erfc(x)
        z2 = 1.0 / (x * x)
        series = (1.0 + z2 * (-0.5 + z2 * (0.75 + z2 * (-1.875 + z2 * 6.5625)))) / (x * math.sqrt(PI))
        result = np.where(x < 25.0, direct, series)
    return _cast(result, dtype)


def log_ndtr(x: Any) -> np.ndarray:
    """log Phi(x), without underflow in the lower tail (PyTorch's calc_log_ndtr)."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        t = x * math.sqrt(0.5)
        low = np.log(erfcx(np.where(x < -1.0, -t, 1.0)) / 2.0) - t * t
        high = np.log1p(-erfc(t) / 2.0)
        result = np.where(x < -1.0, low, high)
    return _cast(result, dtype)


def entr(x: Any) -> np.ndarray:
    """-x log x: 0 at 0, -inf below 0, nan at nan (PyTorch's special.entr)."""
    x, dtype = _f64(x)
    with np.errstate(all="ignore"):
        result = np.where(x > 0, -x * np.log(x), np.where(x == 0, 0.0, -np.inf))
        result = np.where(np.isnan(x), np.nan, result)
    return _cast(result, dtype)
