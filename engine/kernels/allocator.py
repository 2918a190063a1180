"""Keeping freed memory for reuse (glibc only): opt-in, process-wide.

numpy takes every array's memory from malloc, and glibc gives large blocks back to the kernel as soon as
they are freed (or trims them off the heap's top). The next array of that size then starts from fresh
pages, which the kernel must fault in and zero: for a 16 MB array that costs about as much as computing
`sin` of it. A backward pass frees and allocates many arrays of the same sizes, and a repeated
computation does the same work again, so keeping freed blocks lets both reuse warm memory (PyTorch's
CPU allocator patterns happen to get that reuse from glibc already).

This changes malloc's behaviour for the whole process, so the engine never does it on import: the
`autodiff` command calls it at start, and a program embedding the engine may too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def cache_freed_memory(max_bytes: int = 512 << 20) -> bool:
    """Let malloc keep up to max_bytes of freed memory instead of returning it; True if it took effect.

    Blocks up to max_bytes / 2 come from the heap (not separate mappings), and up to max_bytes of free
    space may stay at the heap's top. A no-op (False) where the C library is not glibc.
    """
    libc = _glibc()
    if libc is None:
        return False
    return bool(libc.mallopt(M_MMAP_THRESHOLD, max_bytes // 2)) and bool(libc.mallopt(M_TRIM_THRESHOLD, max_bytes))


def _glibc() -> Any:
    """The C library through ctypes when it is glibc (it has mallopt and malloc_trim), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


# ---------------------------------------------------------------------------- room under the memory cap
# OpenBLAS maps a work buffer (32 MB in the builds numpy ships) at its first call, and when that mapping
# fails it ends the process with its own message: no exception reaches Python. Until a BLAS call has
# succeeded, a matrix product needs room for that buffer too (with some slack for the threads' own).
BLAS_BUFFER_BYTES = 64 << 20
_SMALL = 1 << 20  # below this (and once BLAS has its buffer), numpy's own MemoryError is a clean enough answer
_blas_ready = False


def memory_cap() -> int | None:
    """The process's data memory cap in bytes (RLIMIT_DATA), None when there is none or it cannot be read."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_DATA)[0]
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def data_bytes() -> int | None:
    """The data memory the process holds now (VmData: what RLIMIT_DATA counts), None where unknown."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def room() -> int | None:
    """Bytes the process may still take under its cap; None when it has no cap (or it cannot be read)."""
    cap = memory_cap()
    if cap is None:
        return None
    held = data_bytes()
    return None if held is None else cap - held


def trim_freed_memory() -> None:
    """Give the freed memory malloc keeps (cache_freed_memory) back to the system, so that it counts as room
    again (and no longer as the process's resident memory)."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def ensure_room(need: int, what: str) -> None:
    """Refuse, with a `limit` error, work that needs more memory than the process may still take."""
    left = room()
    if left is None or need <= left:
        return
    trim_freed_memory()
    left = room()
    if left is None or need <= left:
        return
    from ..errors import LimitError

    raise LimitError(f"not enough memory for {what}: it needs about {_mb(need)}, and {_mb(max(left, 0))} "
                     "are left under the memory cap", hint="use smaller sizes, or raise AUTODIFF_MAX_MEMORY",
                     reason="memory")


def _mb(count: int) -> str:
    return f"{count / (1 << 20):,.0f} MiB" if count >= 1 << 20 else f"{count:,} bytes"


def _copy_bytes(array: Any) -> int:
    """What numpy may copy of an operand before handing it to BLAS: one contiguous neither way."""
    flags = getattr(array, "flags", None)
    if flags is None or flags.c_contiguous or flags.f_contiguous:
        return 0
    return int(array.nbytes)


def blas_call(function: Callable[..., Any], arrays: Sequence[Any], out_bytes: int, what: str,
              **kwargs: Any) -> Any:
    """Call a BLAS/LAPACK-backed numpy function after checking there is room for its result, the copies of
    its operands numpy may make, and BLAS's buffer before its first call."""
    global _blas_ready
    need = out_bytes + sum(_copy_bytes(a) for a in arrays)
    if not _blas_ready:
        need += BLAS_BUFFER_BYTES
    if need > _SMALL or not _blas_ready:
        ensure_room(need, what)
    result = function(*arrays, **kwargs)
    _blas_ready = True
    return result


def matmul(a: Any, b: Any) -> Any:
    """np.matmul, with its memory checked first (see blas_call)."""
    import numpy as np

    if _blas_ready and type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == b.ndim == 2 and \
            (a.size + b.size + a.shape[0] * b.shape[1]) * 16 <= _SMALL:
        # small matrices (a training step's): the result and any copies, at 16 bytes an element at most, are
        # below _SMALL, so blas_call would check nothing
        return np.matmul(a, b)
    shape_a, shape_b = np.shape(a), np.shape(b)
    rows = shape_a[-2:-1] if len(shape_a) > 1 else ()
    cols = shape_b[-1:] if len(shape_b) > 1 else ()
    try:
        batch = np.broadcast_shapes(shape_a[:-2], shape_b[:-2])
    except ValueError:
        batch = ()  # numpy raises its own error about the shapes
    count = 1
    for n in (*batch, *rows, *cols):
        count *= n
    itemsize = np.result_type(a, b).itemsize
    return blas_call(np.matmul, (a, b), count * itemsize, "the matrix product")


def warm_blas() -> None:
    """Make BLAS take its buffer now (a tiny product), before a memory cap could make it fail later."""
    global _blas_ready
    import numpy as np

    np.ones((2, 2)) @ np.ones((2, 2))
    _blas_ready = True


def dot(a: Any, b: Any) -> Any:
    """np.dot of two vectors, with its memory checked first (see blas_call)."""
    import numpy as np

    return blas_call(np.dot, (a, b), 16, "the dot product")


def det(x: Any) -> Any:
    """np.linalg.det (LAPACK works on a copy), with its memory checked first (see blas_call)."""
    import numpy as np

    return blas_call(np.linalg.det, (x,), int(x.nbytes), "the determinant")


def inverse(x: Any) -> Any:
    """np.linalg.inv (the result and LAPACK's copy), with its memory checked first (see blas_call)."""
    import numpy as np

    return blas_call(np.linalg.inv, (x,), 2 * int(x.nbytes), "the inverse")
