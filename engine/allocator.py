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

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def cache_freed_memory(max_bytes: int = 512 << 20) -> bool:
    """Let malloc keep up to max_bytes of freed memory instead of returning it; True if it took effect.

    Blocks up to max_bytes / 2 come from the heap (not separate mappings), and up to max_bytes of free
    space may stay at the heap's top. A no-op (False) where the C library is not glibc.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, max_bytes // 2)) and bool(mallopt(M_TRIM_THRESHOLD, max_bytes))
