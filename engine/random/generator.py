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

from ..errors import BadValueError
from ..kernels.floatmath import fma32, fma64, libm, log_avx2, sincos_avx2

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


DEFAULT_SEED = 67280421310721  # c10's default_rng_seed_val: what torch.Generator() starts from
STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState): what get_state() returns and set_state() takes
LEGACY_STATE_BYTES = 5048  # sizeof(THGeneratorState), which set_state() also takes
_NORMAL_AT = 24 + 8 * MERSENNE_N  # the legacy state's normal_x, normal_y, normal_rho, normal_is_valid


class Generator:
    """torch.Generator: PyTorch's CPU generator (mt19937: numpy's MT19937 bit generator), the seed it started from and
    the cached second sample of the last scalar Box-Muller pair. `Generator()` starts from PyTorch's default
    seed 67280421310721, as torch.Generator() does; pass it as `generator=` to the random functions."""

    def __init__(self, device: Any = "cpu") -> None:
        if str(device) != "cpu":
            raise BadValueError(f"Generator: only the CPU is supported, got device {device!r}", reason="device")
        self._bits: Any = None
        self._spare: Any = None  # an earlier seed's bit generator, to be seeded again (cheaper than a new one)
        self.next_normal: float | None = None
        self.seed_value = DEFAULT_SEED

    @property
    def device(self) -> str:
        return "cpu"

    def __repr__(self) -> str:
        return f"<torch.Generator object (seed {self.seed_value})>"

    def manual_seed(self, seed: Any) -> Generator:
        """Restart from seed (an int in [0, 2**64)), as torch.manual_seed does; returns the generator."""
        self.seed_value = check_seed(seed)
        self._spare = self._bits if self._bits is not None else self._spare  # seeded again on first draw
        self._bits = None
        self.next_normal = None
        return self

    def seed(self) -> int:
        """Restart from a seed drawn from the operating system's randomness, and return it (Generator.seed())."""
        seed = int.from_bytes(os.urandom(8), "little") & (2**63 - 1)
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        return self.seed_value

    def _bit_generator(self) -> Any:
        if self._bits is None:
            self._bits = _seeded(self.seed_value, self._spare)
            self._spare = None
        return self._bits

    def snapshot(self) -> tuple:
        """The generator's whole state, for restore (vmap's randomness='same' rewinds it)."""
        return self.seed_value, self._bit_generator().state, self.next_normal  # the state is a copy

    def restore(self, saved: tuple) -> None:
        self.seed_value, bits, self.next_normal = saved
        self._bit_generator().state = bits

    def get_state(self) -> Any:
        """The state as PyTorch's get_state() gives it: a uint8 tensor of 5,056 bytes laid out as ATen's
        CPUGeneratorImplState (seed, left, seeded, next, the 624 words as uint64, the cached normal sample), so
        that a state saved by PyTorch restores here and the other way round."""
        from ..core.tensor import Tensor

        fresh = self._bits is None
        state = self._bit_generator().state["state"]
        position = state["pos"]
        left, next_ = (1, 0) if fresh else (MERSENNE_N + 1 - position, position)
        cached = self.next_normal
        head = np.array([self.seed_value], "<u8").tobytes() + np.array([left, 1], "<i4").tobytes() \
            + np.array([next_], "<u8").tobytes()
        words = np.asarray(state["key"]).astype("<u8").tobytes()
        normal = np.array([0.0, 0.0 if cached is None else cached, 0.0], "<f8").tobytes() \
            + np.array([0 if cached is None else 1, 0], "<i4").tobytes()
        tail = np.array([0.0], "<f4").tobytes() + bytes(STATE_BYTES - LEGACY_STATE_BYTES - 4)
        return Tensor._make(np.frombuffer(head + words + normal + tail, dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> Generator:
        """Restore a state from get_state() (this engine's or PyTorch's); returns the generator."""
        data = np.asarray(getattr(new_state, "data", new_state))
        if data.dtype != np.uint8 or data.ndim != 1:
            raise BadValueError("set_state expects the uint8 tensor get_state() gives (a torch.ByteTensor)",
                                reason="generator_state")
        if data.size not in (STATE_BYTES, LEGACY_STATE_BYTES):
            raise BadValueError(f"Expected either a THGeneratorState of size {LEGACY_STATE_BYTES} or a "
                                f"CPUGeneratorImplState of size {STATE_BYTES} but found the input RNG state size "
                                f"to be {data.size}", reason="generator_state")
        raw = data.tobytes()
        seed = int(np.frombuffer(raw[:8], "<u8")[0])
        left, seeded = (int(v) for v in np.frombuffer(raw[8:16], "<i4"))
        next_ = int(np.frombuffer(raw[16:24], "<u8")[0])
        if not (seeded and 0 < left <= MERSENNE_N and next_ <= MERSENNE_N):
            raise BadValueError("Invalid mt19937 state", reason="generator_state")
        words = np.frombuffer(raw[24:_NORMAL_AT], "<u8").astype(np.uint32)
        self.seed_value = seed
        self._bits = _mt19937(words, MERSENNE_N + 1 - left)
        valid = int(np.frombuffer(raw[_NORMAL_AT + 24:_NORMAL_AT + 28], "<i4")[0])
        self.next_normal = float(np.frombuffer(raw[_NORMAL_AT + 8:_NORMAL_AT + 16], "<f8")[0]) if valid else None
        return self

    def words(self, n: int, wide: bool = False) -> np.ndarray:
        """The next n 32-bit words (PyTorch's random()), as uint32 (wide: as uint64, numpy's raw draws)."""
        refuse_draw()
        if n <= 0:
            return np.empty(0, np.uint64 if wide else np.uint32)
        raw = self._bit_generator().random_raw(n)  # MT19937's 32-bit words, held in uint64
        return raw if wide else raw.astype(np.uint32)

    def words64(self, n: int) -> np.ndarray:
        """The next n 64-bit draws (PyTorch's random64(): two words, the first the high half), as uint64."""
        refuse_draw()
        raw = self._bit_generator().random_raw(2 * n) if n > 0 else np.empty(0, np.uint64)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]


def _seeded(seed: int, bits: Any = None) -> Any:
    """numpy's MT19937 (bits, or a new one) in the state init_genrand(seed mod 2**32) makes, mt19937_key's, with
    pos 624 (the first draw regenerates the state first, as mt19937 with left_ == 1 does): numpy's legacy seeding
    (RandomState.seed of an MT19937) is that function, in C (a few us, where the key in Python is ~150)."""
    from numpy.random import MT19937, RandomState

    bits = MT19937(0) if bits is None else bits
    RandomState(bits).seed(seed & 0xFFFFFFFF)
    return bits


def _mt19937(key: np.ndarray, pos: int) -> Any:
    """numpy's MT19937 bit generator (the same algorithm as PyTorch's mt19937) in the state key, pos."""
    from numpy.random import MT19937

    bits = MT19937(0)
    bits.state = {"bit_generator": "MT19937", "state": {"key": np.asarray(key, dtype=np.uint32), "pos": pos}}
    return bits


def chosen(generator: Any) -> Generator:
    """The generator a random function draws from: `generator=` when given, else the default one."""
    if generator is None:
        return default_generator()
    if not isinstance(generator, Generator):
        raise BadValueError(f"generator must be a torch.Generator, got {type(generator).__name__}",
                            hint="make one with Generator().manual_seed(seed)", reason="generator")
    return generator


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
        if float(std) == 1.0:  # x*1 is exact, so the fused multiply-add is one rounded addition (randn())
            return (samples + float(mean)).astype(dtype)
        return fma64(samples, float(std), float(mean)).astype(dtype)


def normal_scalar(gen: Generator, n: int) -> np.ndarray:
    """n standard normal samples (float64) from PyTorch's one-at-a-time Box-Muller, with its cache."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen.next_normal is not None:
        out[0], gen.next_normal, start = gen.next_normal, None, 1
    pairs = (n - start + 1) // 2
    if 0 < pairs <= _FEW_PAIRS:  # the same steps on Python floats (each an IEEE operation, so the same bits)
        both = _box_muller_floats(gen, pairs)
        out[start:] = both[:n - start]
        if (n - start) % 2:
            gen.next_normal = both[-1]
    elif pairs:
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


_FEW_PAIRS = 8  # below this many Box-Muller pairs, Python floats beat numpy's per-call cost


def _box_muller_floats(gen: Generator, pairs: int) -> list[float]:
    """normal_scalar's Box-Muller pairs on Python floats: the uniforms as unit_uniform makes them (53 bits of
    each 64-bit draw, times 2**-53: exact), then the same roundings as the numpy steps (math's sqrt is IEEE's,
    as numpy's is; log1p, cos and sin are the C library's in both)."""
    mask = 2**53 - 1
    u = [(w & mask) * 2.0**-53 for w in gen.words64(2 * pairs).tolist()]
    both: list[float] = []
    for u1, u2 in zip(u[0::2], u[1::2]):
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = TWO_PI * u1
        both += (radius * math.cos(theta), radius * math.sin(theta))
    return both


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
    """The process's generator (torch.default_generator, what torch.manual_seed seeds), made on first use and
    seeded from the operating system's randomness, as PyTorch's is."""
    if not _DEFAULT:
        gen = Generator()
        gen.manual_seed(int.from_bytes(os.urandom(8), "little"))
        _DEFAULT.append(gen)
    return _DEFAULT[0]


def manual_seed(seed: Any) -> Generator:
    """Seed the default generator as torch.manual_seed(seed) does: a fresh mt19937 state and no cached
    normal sample. seed: an int in [0, 2**64). Returns the default generator."""
    check_seed(seed)
    return default_generator().manual_seed(seed)


def initial_seed() -> int:
    """The seed the default generator started from (torch.initial_seed())."""
    return default_generator().initial_seed()


def seed() -> int:
    """Seed the default generator from the operating system's randomness and return the seed (torch.seed())."""
    return default_generator().seed()


def get_rng_state() -> Any:
    """The default generator's state (torch.get_rng_state()): see Generator.get_state."""
    return default_generator().get_state()


def set_rng_state(new_state: Any) -> None:
    """Restore the default generator's state (torch.set_rng_state)."""
    default_generator().set_state(new_state)
