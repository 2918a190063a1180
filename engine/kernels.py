"""Large elementwise operations split across the machine's cores.

numpy runs a ufunc on one core, but releases the GIL inside its loop; for arrays of a million elements
and more, cutting the work into one slice per core and running the slices on threads is close to
`cores` times faster (including the page faults of a freshly allocated result, which then happen in
parallel). The engine routes its large arrays through `Parallel`, an ndarray subclass whose
`__array_ufunc__` does this for the arithmetic and transcendental ufuncs, so the op table's forward
functions and backward formulas stay plain numpy expressions. Small arrays never see it.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

THRESHOLD = 1 << 19  # elements; below this a thread hand-off costs more than it saves


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


CORES = min(_cores(), 16)
_SPLIT = frozenset({np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.exp, np.log, np.sin,
                    np.cos, np.tan, np.tanh, np.sqrt, np.power, np.maximum, np.minimum, np.absolute, np.sign,
                    np.square, np.reciprocal})
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_pool: Any = None


def _executor() -> Any:
    global _pool
    if _pool is None:
        from concurrent.futures import ThreadPoolExecutor

        _pool = ThreadPoolExecutor(max_workers=CORES - 1, thread_name_prefix="autodiff-kernel")
    return _pool


def wrap(array: Any) -> Any:
    """`array` as a Parallel view when it is large enough to be worth splitting (else unchanged)."""
    if CORES > 1 and type(array) is np.ndarray and array.size >= THRESHOLD:
        return array.view(Parallel)
    return array


def unwrap(array: Any) -> Any:
    """A plain ndarray view of a Parallel array (what tensors hold and users see)."""
    return array.view(np.ndarray) if type(array) is Parallel else array


class Parallel(np.ndarray):
    """An ndarray whose large elementwise ufunc calls run on all cores (see the module docstring)."""

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        args = [x.view(np.ndarray) if type(x) is Parallel else x for x in inputs]
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(o.view(np.ndarray) if type(o) is Parallel else o for o in out)
        if method == "__call__" and ufunc in _SPLIT and set(kwargs) <= {"out"}:
            result = _split(ufunc, args, kwargs["out"][0] if out is not None else None)
            if result is not None:
                return out[0] if out is not None else result
        result = getattr(ufunc, method)(*args, **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return result.view(Parallel) if type(result) is np.ndarray else result


def _split(ufunc: np.ufunc, args: list[Any], out: np.ndarray | None) -> np.ndarray | None:
    """ufunc(*args) computed in one slice per core along the first axis; None when not applicable."""
    shapes = [np.shape(a) for a in args]
    try:
        shape = shapes[0] if len(shapes) == 1 else np.broadcast_shapes(*shapes)
    except ValueError:
        return None  # let numpy raise its own error
    rows = shape[0] if shape else 0
    if rows < 2 * CORES or math.prod(shape) < THRESHOLD:
        return None
    for a in args:
        if isinstance(a, np.ndarray) and a.dtype not in _FLOATS:
            return None
    if out is None:
        dtype = np.result_type(*args)
        if dtype not in _FLOATS:
            return None
        result = np.ndarray.__new__(Parallel, shape, dtype)  # owns its memory: the executor may reuse it
        target = result.view(np.ndarray)
    else:
        if out.shape != shape:
            return None
        result = target = out
    bounds = [rows * k // CORES for k in range(CORES + 1)]

    def work(k: int) -> None:
        lo, hi = bounds[k], bounds[k + 1]
        pieces = [a[lo:hi] if isinstance(a, np.ndarray) and a.ndim == len(shape) and a.shape[0] == rows else a
                  for a in args]
        # PyTorch gives inf/nan silently; threads do not inherit the caller's numpy error state anyway.
        with np.errstate(all="ignore"):
            ufunc(*pieces, out=target[lo:hi])

    futures = [_executor().submit(work, k) for k in range(1, CORES)]
    work(0)
    for future in futures:
        future.result()
    return result
