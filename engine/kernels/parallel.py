"""Large elementwise computations split over the CPU's cores, in cache-sized blocks.

numpy runs every ufunc on one core, one whole array at a time. For arrays of `THRESHOLD` elements or
more, a `Kernel` (a short chain of ufunc steps, like `1 / (1 + exp(-x))`) is run on contiguous chunks
of the flattened arrays, which the threads (one per core; numpy releases the GIL inside a ufunc) take in
turn, so that a chain of steps reads and writes memory that is still in the cache. Each step is the
ufunc numpy would call on the whole array, with the same operands in the same order and dtype:
elementwise results do not depend on how the array is cut, so they are bit-identical to the unsplit
computation (block boundaries are multiples of 1024 elements, keeping SIMD alignment too).

Only C-contiguous arrays of one float dtype, all of the result's shape, take this path (a stride-0
broadcast of one value counts as that value); anything else returns None and the caller computes as
before. The thread pool is made on the first large computation, so small programs and start-up never
pay for it.
"""

from __future__ import annotations

import _thread
import contextvars
import itertools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

THRESHOLD = 1 << 19  # elements from which splitting a transcendental function pays (see benchmarks/README.md)
CHEAP_THRESHOLD = 1 << 20  # the same for arithmetic, which is limited by memory bandwidth more than by the cores
# ufuncs that cost about a memory pass: they split only from CHEAP_THRESHOLD elements
CHEAP = frozenset({np.add, np.subtract, np.multiply, np.divide, np.negative, np.absolute, np.maximum, np.minimum,
                   np.floor, np.ceil, np.trunc, np.rint, np.sqrt, np.square})
# Elements per block, the unit of work the threads take in turn. Every ufunc call on a block takes the GIL
# back from the other thread (a futex wake-up, 5-15 us on this 2-CPU VM), so blocks are long enough for
# that to be lost in the arithmetic: a chain of steps on 128K elements (measured on 4M float32, quiet
# machine: sigmoid's backward 2.75 ms with 32K blocks, 1.40 ms with 128K; 8K blocks took 8 ms), whose
# steps then read what the step before left in the cache. A kernel of one step has no such reason for
# short blocks: it takes guided blocks (`chunks`: a quarter of the array first, then shares of what is
# left, down to 64K elements for a transcendental step and 256K for arithmetic), 14 blocks instead of 61 on
# 4M elements, and each call less costs ~8 us (4M float32, two threads: log 3.0 -> 2.75 ms, tanh 2.8 ->
# 2.4, exp 3.2 -> 2.7; benchmarks/README.md).
CHAIN_BLOCK, BLOCK, CHEAP_BLOCK = 1 << 17, 1 << 16, 1 << 18

_pool: Any = None
_pool_lock = _thread.allocate_lock()  # threading.Lock itself, without the threading module's import
_WORKERS = 0


def workers() -> int:
    """How many threads large computations use (the CPUs this process may run on)."""
    global _WORKERS
    if not _WORKERS:
        try:
            _WORKERS = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            _WORKERS = os.cpu_count() or 1
    return _WORKERS


def _executor() -> Any:
    """The thread pool, made on first use (the calling thread does one chunk itself)."""
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor

                _pool = ThreadPoolExecutor(max_workers=workers() - 1, thread_name_prefix="autodiff-elementwise")
    return _pool


Step = tuple  # (ufunc, operand, ...): an operand is "t" (the running value), an input's letter, or a number
_INPUTS = "abcd"


class Kernel:
    """A chain of ufunc steps on `arity` same-shaped inputs (a, b, ...), each step writing the running value `t`.

    Its results' memory is reused (result_array) unless `keep` is False: a kernel whose result is often a
    temporary of a numpy expression (`F.exp(d) + 1`) leaves it to numpy, which then computes in place in it
    (numpy reuses an array only Python's stack refers to; a remembered one never is).

    `unit` is the same chain without its products by input a, on the other inputs (b becomes a, ...): used when a
    is the number one (a gradient of a sum, broadcast), since 1 * x is x to the bit (-0.0, inf and nan included).
    """

    __slots__ = ("_numbers", "_plan", "arity", "block", "keep", "steps", "threshold", "unit")

    def __init__(self, arity: int, *steps: Step, keep: bool = True, unit: Kernel | None = None) -> None:
        self.arity = arity
        self.keep = keep
        self.unit = unit
        self.steps = steps
        cheap = all(step[0] in CHEAP for step in steps)
        self.threshold = CHEAP_THRESHOLD if cheap else THRESHOLD
        self.block = CHAIN_BLOCK if len(steps) > 1 else CHEAP_BLOCK if cheap else BLOCK
        # _block's values are [t, the numbers..., the inputs' blocks...]: each step as (ufunc, index of its first
        # operand, index of its second or -1), its result written into t
        self._numbers = tuple(n for _, *names in steps for n in names if not isinstance(n, str))
        first_input = 1 + len(self._numbers)
        numbers = iter(range(1, first_input))

        def index(name: Any) -> int:
            if name == "t":
                return 0
            return first_input + _INPUTS.index(name) if isinstance(name, str) else next(numbers)

        self._plan = tuple((ufunc, index(names[0]), index(names[1]) if len(names) > 1 else -1)
                           for ufunc, *names in steps)

    def __call__(self, *args: Any) -> np.ndarray | None:
        """The result as a new array, or None when the arguments do not suit the split path."""
        operands = _operands(args, self.threshold)
        if operands is None:
            return None
        flat, shape, dtype = operands
        if self.unit is not None and _is_one(flat[0]):
            out = self.unit(*args[1:])
            if out is not None:
                return out
        out = result_array(shape, dtype) if self.keep else np.empty(shape, dtype=dtype)
        run(self._block, out.reshape(-1), flat, self.block, len(self._plan) == 1)
        return out

    def into(self, out: np.ndarray, *args: Any) -> bool:
        """Compute into `out` (which may be one of the inputs); False (nothing done) when unsuited."""
        operands = _operands(args, self.threshold)
        if operands is None or out.shape != operands[1] or out.dtype != operands[2] or not out.flags.c_contiguous:
            return False
        run(self._block, out.reshape(-1), operands[0], self.block, len(self._plan) == 1)
        return True

    def _block(self, out: np.ndarray, inputs: list, lo: int, hi: int) -> None:
        t = out[lo:hi]
        values = [t, *self._numbers]
        for x in inputs:
            values.append(x[lo:hi] if type(x) is np.ndarray and x.ndim == 1 else x)
        for ufunc, i, j in self._plan:
            if j < 0:
                ufunc(values[i], out=t)
            else:
                ufunc(values[i], values[j], out=t)


# ---------------------------------------------------------------------------- results' memory, reused
# A fresh array's pages are faulted in and zeroed by the OS on first write: for a 16 MB result that costs about
# as much as computing it. glibc gives a large freed block back to the OS once enough free memory lies at the
# top of its heap, which the end of every backward pass leaves there, so each forward pass after one faulted
# its results in again (sin_exp_tanh at 4M float32: ~3,800 faults, 30-40 ms of system time a forward pass).
# The kernels remember their recent results instead and reuse one as soon as nothing else refers to it.
# Under a memory cap (RLIMIT_DATA: the autodiff command sets one) at most an eighth of it is remembered, and an
# allocation that fails forgets the free ones and tries again.
SPARE_BYTES = 256 << 20  # the kernels' results remembered (in use or free), at most
_made: list = []  # those results, oldest first
_made_lock = _thread.allocate_lock()
_free_count = 0  # sys.getrefcount() of a remembered array nothing else refers to, as result_array reads it
_free_base = 0  # the same of its byte buffer (a view of the result refers to the buffer, not to the result)
_spare_bytes = -1  # SPARE_BYTES, or less under a memory cap (read on first use)
# A result's data starts at a multiple of 64 bytes (AVX-512's vector, a cache line). numpy's large arrays start 16
# bytes past one (malloc's header), and on this AVX-512 Xeon a float32 product or sum written there costs ~30% more
# than at an aligned address (4M elements, one thread: 6.1-6.6 ms against 4.5), sin, exp and tanh reading from
# there ~10% more (benchmarks/README.md, fourth pass). The values are the same: only the addresses differ.
ALIGNMENT = 64


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialised C-ordered array whose data starts at a multiple of ALIGNMENT bytes: a view of a byte buffer
    (its `base`, which every further view of it refers to as well)."""
    nbytes = _size(shape) * dtype.itemsize
    raw = np.empty(nbytes + ALIGNMENT, dtype=np.uint8)
    start = -raw.__array_interface__["data"][0] % ALIGNMENT
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def _base_references(a: np.ndarray) -> int:
    base = a.base
    return sys.getrefcount(base)


_sole_base = 0  # _base_references() of an array that alone refers to its byte buffer (measured on first use)


def owns_memory(a: np.ndarray) -> bool:
    """Whether no other array shares a's memory, as numpy can tell: `a` owns its data, or it is the one array on a
    byte buffer that owns it (an aligned_empty result nothing has taken a view of)."""
    global _sole_base
    if a.base is None:
        return True
    if type(a.base) is not np.ndarray or a.base.base is not None:
        return False
    if not _sole_base:  # measured, not assumed (the same call on a new result)
        _sole_base = _base_references(aligned_empty((1,), np.dtype(np.float64)))
    return _base_references(a) == _sole_base


def result_array(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialised array for a kernel's result (aligned_empty): a remembered one that nothing refers to any more
    (its memory is warm), else a new one, remembered while SPARE_BYTES allows (the oldest are forgotten first)."""
    global _free_count, _free_base, _spare_bytes
    if not _free_count:  # measured, not assumed: how many references the loops below see on a free array
        for probe in [aligned_empty((1,), np.dtype(np.float64))]:
            _free_count = sys.getrefcount(probe)
            _free_base = sys.getrefcount(probe.base)
        from .allocator import memory_cap

        cap = memory_cap()
        _spare_bytes = SPARE_BYTES if cap is None else min(SPARE_BYTES, cap // 8)
    with _made_lock:
        for a in _made:
            if (sys.getrefcount(a) == _free_count and sys.getrefcount(a.base) == _free_base and a.shape == shape
                    and a.dtype == dtype):
                return a
        try:
            out = aligned_empty(shape, dtype)
        except MemoryError:
            kept = []
            for a in _made:  # forget the free ones (the same loop as above, so the same count of references)
                if sys.getrefcount(a) != _free_count or sys.getrefcount(a.base) != _free_base:
                    kept.append(a)
            a = None
            _made[:] = kept
            out = aligned_empty(shape, dtype)
        limit = min(SPARE_BYTES, _spare_bytes)
        held = out.nbytes
        for a in _made:
            held += a.nbytes
        while _made and held > limit:
            held -= _made.pop(0).nbytes
        if held <= limit:
            _made.append(out)
        return out


def release() -> None:
    """Forget the remembered results (the free ones go back to malloc)."""
    with _made_lock:
        _made.clear()


def _operands(args: Sequence[Any], threshold: int) -> tuple[list, tuple[int, ...], np.dtype] | None:
    """The arguments flattened (arrays) or kept (numbers), their common shape and dtype; None if unsuited."""
    shape = dtype = None
    for x in args:
        if type(x) is np.ndarray:
            if x.ndim == 0:
                continue
            if shape is None:
                shape, dtype = x.shape, x.dtype
            elif x.shape != shape or x.dtype != dtype:
                return None
    if shape is None or dtype.kind != "f" or _size(shape) < threshold:
        return None
    flat: list = []
    for x in args:
        if type(x) is np.ndarray:
            if x.ndim == 0:
                if x.dtype != dtype:
                    return None
                flat.append(x)
            elif x.flags.c_contiguous:
                flat.append(x.reshape(-1))
            elif not any(x.strides):  # a broadcast single value (the gradient of a sum)
                flat.append(x.reshape(-1)[:1].reshape(()))
            else:
                return None
        elif type(x) is float or type(x) is int:
            flat.append(x)
        else:
            return None
    return flat, shape, dtype


def _is_one(x: Any) -> bool:
    """Whether an operand as _operands gives it is the number one (a Python number or a 0-d array)."""
    if type(x) is np.ndarray:
        return x.ndim == 0 and bool(x == 1)
    return (type(x) is float or type(x) is int) and x == 1


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def run(block: Callable[[np.ndarray, list, int, int], None], out: np.ndarray, inputs: list, size: int,
        guided: bool = False) -> None:
    """Call block(out, inputs, lo, hi) over [0, out.size) in blocks of `size` elements, on every worker; with
    `guided`, in blocks of a share of what is left (`chunks`), at least `size` elements.

    The threads take the next block in turn (a shared counter) rather than a fixed share each: when another
    process holds a core, the thread that runs keeps working and the total never waits for a stalled share.
    """
    n = out.size
    bounds = chunks(n, size, workers()) if guided else range(0, n + size, size)
    count = len(bounds) - 1 if guided else -(-n // size)
    blocks = itertools.count()  # next() on it is atomic under the GIL

    def work() -> None:
        i = next(blocks)
        while i < count:
            block(out, inputs, bounds[i], min(bounds[i + 1], n))
            i = next(blocks)

    if count == 1 or workers() == 1:
        work()
        return
    pool = _executor()
    # numpy's error handling (np.errstate) is a context variable (numpy >= 2.0): each worker runs in a copy of the
    # caller's context, so takes the caller's (a copy is cheap; np.geterr() and an errstate cost ~10 us a call)
    futures = [pool.submit(contextvars.copy_context().run, work) for _ in range(min(workers(), count) - 1)]
    try:
        work()
    finally:
        for f in futures:
            f.result()


def chunks(n: int, size: int, parts: int) -> list[int]:
    """The boundaries of guided blocks over [0, n): each block takes 1 / (2 * parts) of what is left, rounded down
    to a multiple of 1024 elements, and at least `size` (the last one what remains): few blocks, the last ones small
    enough that a thread held up by a busy core leaves little for the other to wait for."""
    bounds = [0]
    lo = 0
    while lo < n:
        lo = min(n, lo + max(size, (n - lo) // (2 * parts) & ~1023))
        bounds.append(lo)
    return bounds


# ---------------------------------------------------------------------------- the kernels the engine uses
def unary(ufunc: np.ufunc, keep: bool = True) -> Kernel:
    """ufunc(a) as a kernel."""
    return Kernel(1, (ufunc, "a"), keep=keep)


def binary(ufunc: np.ufunc) -> Kernel:
    """ufunc(a, b) as a kernel."""
    return Kernel(2, (ufunc, "a", "b"))


SIGMOID = Kernel(1, (np.negative, "a"), (np.exp, "t"), (np.add, 1, "t"), (np.divide, 1, "t"))  # 1 / (1 + exp(-a))
# the backward kernels of tanh, sigmoid and sin, a the gradient: with a gradient of one, a pass less (`unit`)
TANH_BACKWARD = Kernel(2, (np.multiply, "b", "b"), (np.subtract, 1, "t"), (np.multiply, "a", "t"),  # a*(1 - b*b)
                       unit=Kernel(1, (np.multiply, "a", "a"), (np.subtract, 1, "t")))
SIGMOID_BACKWARD = Kernel(2, (np.subtract, 1, "b"), (np.multiply, "a", "t"), (np.multiply, "t", "b"),  # a*(1-b)*b
                          unit=Kernel(1, (np.subtract, 1, "a"), (np.multiply, "t", "a")))
SIN_BACKWARD = Kernel(2, (np.cos, "b"), (np.multiply, "a", "t"), unit=unary(np.cos))  # a * cos(b)
SQUARE = Kernel(1, (np.multiply, "a", "a"))  # a * a
CUBE = Kernel(1, (np.multiply, "a", "a"), (np.multiply, "t", "a"))  # (a * a) * a
SCALE_TWICE = Kernel(2, (np.multiply, "a", "t"), (np.multiply, "b", "t"))  # b * (a * t), into t: pow's backward
# pow's backward g * (exponent * x**(exponent - 1)) in one pass for the exponents 2 and 3 (a: exponent, b: g, c: x)
POW_BACKWARD = {2: Kernel(3, (np.multiply, "a", "c"), (np.multiply, "b", "t")),
                3: Kernel(3, (np.multiply, "c", "c"), (np.multiply, "a", "t"), (np.multiply, "b", "t"))}
ADD = binary(np.add)
NEGATIVE = unary(np.negative)
MULTIPLY = binary(np.multiply)
DIVIDE = binary(np.divide)


def splitting(kernel: Kernel, fallback: Callable[..., Any]) -> Callable[..., Any]:
    """fallback(*args), computed by the kernel when the arguments are large and suit it."""
    def forward(*args: Any) -> Any:
        for x in args:
            if type(x) is np.ndarray and x.size >= THRESHOLD:
                out = kernel(*args)
                return fallback(*args) if out is None else out
        return fallback(*args)
    return forward
