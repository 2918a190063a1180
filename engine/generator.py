"""PyTorch's CPU random numbers, bit for bit.

PyTorch's default CPU generator (ATen's CPUGeneratorImpl) is a 32-bit Mersenne Twister (mt19937): a
seed s sets the 624-word state by the reference `init_genrand(s mod 2**32)` (so seeds that differ by a
multiple of 2**32 give the same numbers), and every draw is either one 32-bit word (`random()`) or two
(`random64()`, the first word the high half). numpy's MT19937 bit generator is the same algorithm: it is
given that state and draws the words (`random_raw`); the transforms that turn words into numbers are
PyTorch's, written here with numpy:

- uniform (`rand`, `uniform_`): float32 takes the low 24 bits of one word, float64 the low 53 bits of
  two, times 2**-24 / 2**-53; then fma(x, to - from, from), and `to` itself becomes `from`.
- normal (`randn`, `normal_`), two algorithms, as PyTorch's normal kernel chooses:
  * 16 or more elements, contiguous: all n uniforms first (float32: 24-bit, float64: 53-bit), then each
    full block of 16 is transformed in place by Box-Muller on pairs (j, j+8): r = sqrt(-2 log(1 - u[j])),
    theta = 2 pi u[j+8], u[j] = r cos(theta), u[j+8] = r sin(theta). When 16 does not divide n the last 16
    elements are drawn again (16 fresh uniforms) and transformed as one block, overwriting part of the
    previous block. float32 uses the AVX2 kernel's Cephes log/sincos (see floatmath.py); float64 the C
    library's log, sin and cos.
  * otherwise (fewer than 16 elements, or a non-contiguous tensor such as randn_like of a transposed
    input): one sample at a time, in memory order, in double precision whatever the dtype: two 53-bit
    uniforms u1, u2, r = sqrt(-2 log1p(-u2)), theta = 2 pi u1; r cos(theta) is returned and r sin(theta)
    kept for the next scalar draw (`manual_seed` forgets it).
  Then fma(sample, std, mean).

Without manual_seed a fresh generator is seeded from the operating system's randomness, as PyTorch's is
(by experiment, torch.initial_seed() differs from process to process in PyTorch 2.13; the constant
67280421310721 of c10's default_rng_seed_val seeds other generators, not the default CPU one).
numpy.random is imported on first use: importing it costs start-up time.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from .errors import BadValueError
from .floatmath import fma32, fma64, libm, log_avx2, sincos_avx2

MERSENNE_N = 624
SEED_LIMIT = 2**64
VECTORISED_MIN = 16  # PyTorch's normal kernel: the 16-at-a-time path from 16 elements on
TWO_PI = 2.0 * math.pi


def check_seed(seed: Any) -> int:
    """seed as an int in [0, 2**64), or a BadValueError."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise BadValueError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    if seed < 0:
        raise BadValueError(f"seed must be a non-negative integer, got {seed}")
    if seed >= SEED_LIMIT:
        raise BadValueError(f"seed must be less than 2**64, got {seed}")
    return seed


def mt19937_key(seed: int) -> np.ndarray:
    """The 624-word state mt19937's init_genrand makes from seed (its low 32 bits), as PyTorch seeds it."""
    key = [seed & 0xFFFFFFFF]
    x = key[0]
    for i in range(1, MERSENNE_N):
        x = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
        key.append(x)
    return np.array(key, dtype=np.uint32)


# One entry per vmap call running (vmap.py): True when it refuses random draws (randomness='error')
REFUSE_DRAWS: list[bool] = []


def refuse_draw() -> None:
    if REFUSE_DRAWS and REFUSE_DRAWS[-1]:
        raise BadValueError("vmap: called random operation while in randomness error mode. Please either use the "
                            "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
                            "of vmap", reason="randomness")


class Generator:
    """A CPU generator: the mt19937 state (engine/mersenne.py), the seed it started from and
    the cached second sample of the last scalar Box-Muller pair."""

    def __init__(self, seed: int | None = None) -> None:
        self._bits: Any = None
        self.next_normal: float | None = None
        self.seed = 0
        self.manual_seed(int.from_bytes(os.urandom(8), "little") if seed is None else seed)

    def manual_seed(self, seed: Any) -> Generator:
        """Restart from seed (an int in [0, 2**64)), as torch.manual_seed does."""
        self.seed = check_seed(seed)
        self._bits = None  # made on first draw
        self.next_normal = None
        return self

    def initial_seed(self) -> int:
        return self.seed

    def _bit_generator(self) -> Any:
        if self._bits is None:
            from autodiff.engine.mersenne import MT19937

            # pos 624: the first draw regenerates the state first, as mt19937 with left_ == 1 does
            self._bits = MT19937(mt19937_key(self.seed), MERSENNE_N)
        return self._bits

    def snapshot(self) -> tuple:
        """The generator's whole state, for restore (vmap's randomness='same' rewinds it)."""
        return self.seed, self._bit_generator().state, self.next_normal  # the state is a copy

    def restore(self, saved: tuple) -> None:
        self.seed, bits, self.next_normal = saved
        self._bit_generator().state = bits

    def words(self, n: int) -> np.ndarray:
        """The next n 32-bit words (PyTorch's random()), as uint32."""
        refuse_draw()
        if n <= 0:
            return np.empty(0, np.uint32)
        return self._bit_generator().random_raw(n).astype(np.uint32)

    def words64(self, n: int) -> np.ndarray:
        """The next n 64-bit draws (PyTorch's random64(): two words, the first the high half), as uint64."""
        refuse_draw()
        raw = self._bit_generator().random_raw(2 * n) if n > 0 else np.empty(0, np.uint64)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]


def unit_uniform(gen: Generator, n: int, dtype: np.dtype) -> np.ndarray:
    """n uniforms in [0, 1) of dtype (float32: 24 random bits from one word; float64: 53 from two)."""
    if np.dtype(dtype) == np.float32:
        return (gen.words(n) & np.uint32(0xFFFFFF)).astype(np.float32) * np.float32(2.0**-24)
    return (gen.words64(n) & np.uint64(2**53 - 1)).astype(np.float64) * 2.0**-53


def uniform(gen: Generator, n: int, dtype: np.dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
    """n uniforms in [low, high) as PyTorch's uniform_ draws them, in memory order."""
    dtype = np.dtype(dtype)
    x = unit_uniform(gen, n, dtype)
    if (low, high) == (0, 1):
        return x
    with np.errstate(all="ignore"):  # huge bounds overflow to inf, as in PyTorch
        lo, hi = dtype.type(low), dtype.type(high)
        values = fma32(x, hi - lo, lo) if dtype == np.float32 else fma64(x, hi - lo, lo)
        return np.where(values == hi, lo, values).astype(dtype)


def normal(gen: Generator, n: int, dtype: np.dtype, mean: float = 0.0, std: float = 1.0,
           contiguous: bool = True) -> np.ndarray:
    """n normal samples as PyTorch's normal_ fills a tensor of n elements (in memory order)."""
    dtype = np.dtype(dtype)
    if n >= VECTORISED_MIN and contiguous:
        return _normal_blocks(gen, n, dtype, mean, std)
    samples = normal_scalar(gen, n)
    with np.errstate(all="ignore"):  # a huge mean or std overflows to inf, as in PyTorch
        return fma64(samples, float(std), float(mean)).astype(dtype)


def normal_scalar(gen: Generator, n: int) -> np.ndarray:
    """n standard normal samples (float64) from PyTorch's one-at-a-time Box-Muller, with its cache."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen.next_normal is not None:
        out[0], gen.next_normal, start = gen.next_normal, None, 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = unit_uniform(gen, 2 * pairs, np.dtype(np.float64))
        u1, u2 = u[0::2], u[1::2]
        radius = np.sqrt(-2.0 * libm(math.log1p, -u2))
        theta = TWO_PI * u1
        both = np.empty(2 * pairs, np.float64)
        both[0::2] = radius * libm(math.cos, theta)
        both[1::2] = radius * libm(math.sin, theta)
        out[start:] = both[:n - start]
        if (n - start) % 2:
            gen.next_normal = float(both[-1])
    return out


def _normal_blocks(gen: Generator, n: int, dtype: np.dtype, mean: float, std: float) -> np.ndarray:
    data = unit_uniform(gen, n, dtype)
    full = n - n % 16
    with np.errstate(all="ignore"):  # a huge mean or std overflows to inf, as in PyTorch
        data[:full] = normal_fill16(data[:full], dtype, mean, std)
        if n % 16:
            data[n - 16:] = normal_fill16(unit_uniform(gen, 16, dtype), dtype, mean, std)
    return data


def normal_fill16(data: np.ndarray, dtype: np.dtype, mean: float, std: float) -> np.ndarray:
    """PyTorch's NormalFill16 on each block of 16 uniforms: Box-Muller on the pairs (j, j + 8)."""
    blocks = data.reshape(-1, 16)
    out = np.empty_like(blocks)
    if dtype == np.float32:
        radius = np.sqrt(np.float32(-2.0) * log_avx2(np.float32(1.0) - blocks[:, :8]))
        sin, cos = sincos_avx2(np.float32(TWO_PI) * blocks[:, 8:])
        out[:, :8] = fma32(radius * cos, np.float32(std), np.float32(mean))
        out[:, 8:] = fma32(radius * sin, np.float32(std), np.float32(mean))
    else:
        radius = np.sqrt(-2.0 * libm(math.log, 1.0 - blocks[:, :8]))
        theta = TWO_PI * blocks[:, 8:]
        out[:, :8] = fma64(radius * libm(math.cos, theta), float(std), float(mean))
        out[:, 8:] = fma64(radius * libm(math.sin, theta), float(std), float(mean))
    return out.reshape(-1)


def layout_order(shape: tuple[int, ...], strides: tuple[int, ...]) -> list[int]:
    """The dims of an array from outermost to innermost as PyTorch orders them (TensorIterator's
    reorder_dimensions, empty_like's infer_dense_strides): by stride, a 0 stride (broadcast) ambiguous
    and left in place, equal strides with the larger size outside."""
    perm = list(range(len(shape) - 1, -1, -1))  # innermost first, as PyTorch sorts

    def should_swap(d0: int, d1: int) -> int:
        s0, s1 = abs(strides[d0]), abs(strides[d1])
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, len(perm)):  # insertion sort that steps over ambiguous pairs
        d1 = i
        for d0 in range(i - 1, -1, -1):
            order = should_swap(perm[d0], perm[d1])
            if order > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif order < 0:
                break
    return perm[::-1]


def empty_like(like: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A new dense array of like's shape with like's order of dims in memory (PyTorch's empty_like with
    preserve_format, also for an input with gaps: the dims keep their order)."""
    order = layout_order(like.shape, like.strides)
    return np.empty([like.shape[d] for d in order], dtype).transpose(np.argsort(order))


def in_memory_order(out: np.ndarray, values: np.ndarray) -> np.ndarray:
    """out filled with values (a flat array) in the order PyTorch's TensorIterator visits out's elements:
    along its dims from outermost to innermost in memory (see layout_order)."""
    view = out.transpose(layout_order(out.shape, out.strides))
    view[...] = values.reshape(view.shape)
    return out


_DEFAULT: list[Generator] = []


def default_generator() -> Generator:
    """The process's generator (what torch.manual_seed seeds), made on first use."""
    if not _DEFAULT:
        _DEFAULT.append(Generator())
    return _DEFAULT[0]


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator as torch.manual_seed(seed) does: a fresh mt19937 state and no cached
    normal sample. seed: an int in [0, 2**64)."""
    check_seed(seed)
    return default_generator().manual_seed(seed)


def initial_seed() -> int:
    """The seed the default generator started from (torch.initial_seed())."""
    return default_generator().initial_seed()
