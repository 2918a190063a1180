"""Work bounded in time: SymPy's calls (simplify, solve, limit) and `diff`'s derivation can run for minutes
on an innocent-looking formula, in pure Python that checks no clock. `timed` runs the work in a worker
thread and waits at most `seconds`; past them the worker is *stopped*, not left running: an exception of
its own (`Abandoned`, not an Exception, so no `except Exception` inside SymPy swallows it) is raised in it at
its next Python instruction (CPython's PyThreadState_SetAsyncExc, called with the worker's own thread id),
so the memory it was filling is given back before the command goes on, and the process does not linger
after its answer. A thread that cannot be started (the process is at its memory cap) counts as a failure
of the work, not a crash.

The `seconds` are the worker's own CPU time where the platform has per-thread CPU clocks (Linux, macOS), so a
derivation gets the same answer on a busy machine as on an idle one (a wall-clock box turned 3 s of work into
a time-out under load); a wall-clock bound of WALL_FACTOR times as long still stops work that waits.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

STOP_SECONDS = 0.25  # how long a stopped worker is waited for as it unwinds (it gives back the memory it filled)
WALL_FACTOR = 4.0  # the wall-clock bound, in units of the CPU-time budget


class Abandoned(BaseException):
    """Raised inside a worker whose time is up; it unwinds the worker's work."""


class Outcome:
    """What a timed call gave: `value` when `done`, else why not (`timed_out`, or the exception it raised)."""

    __slots__ = ("done", "error", "timed_out", "value")

    def __init__(self, done: bool, value: Any = None, error: BaseException | None = None,
                 timed_out: bool = False) -> None:
        self.done, self.value, self.error, self.timed_out = done, value, error, timed_out


def timed(work: Callable[[], Any], seconds: float) -> Outcome:
    """work() in a worker thread, stopped after `seconds`; never raises what the work raised (see Outcome)."""
    box: list[Outcome] = []
    lock = threading.Lock()
    state = {"stopped": False}
    clock: list[int] = []

    def run() -> None:
        try:
            _own_clock(clock)
            try:
                outcome = Outcome(True, work())
            except Abandoned:
                return
            except BaseException as error:  # the work's own failure (RecursionError, MemoryError, SymPy's ...)
                outcome = Outcome(False, error=error)
            with lock:
                if not state["stopped"]:
                    box.append(outcome)
            _checkpoint()  # a stop sent while this thread waited for the lock is raised here, inside the try
        except Abandoned:
            pass

    worker = threading.Thread(target=run, daemon=True, name="autodiff-timed")
    try:
        worker.start()
    except RuntimeError as error:  # "can't start new thread": no memory left for its stack
        return Outcome(False, error=MemoryError(str(error)))
    try:
        _wait(worker, clock, seconds)
    except BaseException:  # Ctrl-C, or this thread is itself a worker being stopped: stop this one too
        _stop(worker, lock, state, box)
        raise
    return box[0] if _stop(worker, lock, state, box) else Outcome(False, timed_out=True)


def _stop(worker: threading.Thread, lock: Any, state: dict, box: list) -> bool:
    """Stop the worker unless it has answered (True: it has); a stopped worker gives back what it holds as it
    unwinds."""
    with lock:
        if box:
            return True
        state["stopped"] = True
        if worker.ident is not None and worker.is_alive():
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident), ctypes.py_object(Abandoned))
    worker.join(STOP_SECONDS)
    _release()
    return False


def _release() -> None:
    """After stopped work: what it left behind is given back. SymPy's caches keep results of the work's inner
    calls (each a formula that may be huge, scattered over the heap so that nothing around them can be
    returned either): an abandoned simplification left 1.9 GiB resident after the answer. The caches are
    emptied (they only save time), the garbage collected and malloc's free memory returned to the system."""
    import gc

    from autodiff.engine.kernels.allocator import trim_freed_memory

    cache = sys.modules.get("sympy.core.cache")
    if cache is not None:
        cache.clear_cache()
    gc.collect()
    trim_freed_memory()


def _own_clock(clock: list[int]) -> None:
    """Record the calling thread's CPU-time clock (asked by the thread itself: another thread's id may have
    expired by the time it is asked about)."""
    if hasattr(time, "pthread_getcpuclockid"):
        with contextlib.suppress(OSError):
            clock.append(time.pthread_getcpuclockid(threading.get_ident()))


def _cpu_seconds(clock: list[int]) -> float:
    """The worker's CPU time so far (0 before it has recorded its clock or where there is none)."""
    if not clock:
        return 0.0
    try:
        return time.clock_gettime(clock[0])
    except OSError:  # the thread has ended
        return 0.0


def _wait(worker: threading.Thread, clock: list[int], seconds: float) -> None:
    """Return when the worker has ended, used `seconds` of CPU time, or run WALL_FACTOR * seconds on the clock
    (without a CPU clock: `seconds` on the clock)."""
    has_clock = hasattr(time, "pthread_getcpuclockid")
    start = time.monotonic()
    deadline = start + (seconds * WALL_FACTOR if has_clock else seconds)
    while worker.is_alive():
        left = seconds - (_cpu_seconds(clock) if has_clock else time.monotonic() - start)
        wall = deadline - time.monotonic()
        if left <= 0 or wall <= 0:
            return
        worker.join(min(left, wall))


def _checkpoint() -> None:
    """Nothing: calling a Python function is where a pending asynchronous exception is raised."""


__all__ = ["Abandoned", "Outcome", "timed"]
