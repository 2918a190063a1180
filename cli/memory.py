"""The memory cap of an autodiff process (Linux, RLIMIT_DATA): set when a command starts computing, so that
`autodiff --help`, `--version` and shell completion never import the engine (numpy, BLAS).

What the process holds after start-up, plus half of what the machine has available, or AUTODIFF_MAX_MEMORY
in all: --max-elements bounds each tensor, this bounds them all together, so that a program holding many
large tensors gets a `limit` error instead of the kernel's out-of-memory killer."""

from __future__ import annotations

import os
import re

OWN_PROCESS = False  # main() sets it when the process is the `autodiff` command itself (not a test's caller)
_DONE = False


def prepare() -> None:
    """Cap the memory and keep freed memory for reuse, once, in the command's own process (a bad
    AUTODIFF_MAX_MEMORY is a usage error). numpy is imported here, first, rather than from deep inside the
    engine's imports: on CPython before 3.13.13 a call that crosses the end of a 16 KB chunk of the frame stack
    allocates and frees a chunk each time (python/cpython#142183), and numpy's import, started some 20 calls
    further down, did so about 1,000 times (20-25 ms of a command's start)."""
    import numpy  # noqa: F401

    global _DONE
    if not OWN_PROCESS or _DONE:
        return
    _DONE = True
    problem = _cap_memory()
    if problem is not None:
        from autodiff.engine.errors import UsageError

        raise UsageError(problem)
    from autodiff.engine.kernels.allocator import cache_freed_memory

    cache_freed_memory()  # large arrays reuse freed memory instead of faulting in fresh pages


MEMORY_SHARE = 0.5  # the default cap: this share of the machine's available memory (and swap), per process
MIN_MEMORY = 32 << 20  # AUTODIFF_MAX_MEMORY leaves at least this much above what the process holds at start


def _cap_memory() -> str | None:
    """Cap the process's data memory (Linux, RLIMIT_DATA): what it holds after start-up, plus half of what
    the machine has available, or AUTODIFF_MAX_MEMORY=BYTES in all. --max-elements bounds each tensor;
    this bounds them all together, so that a program holding many large tensors gets a `limit` error
    instead of the kernel's out-of-memory killer, and leaves the machine usable. A bad AUTODIFF_MAX_MEMORY
    is returned as a usage error's message; otherwise best effort: where the numbers cannot be read or the
    limit set, nothing changes."""
    from autodiff.engine.kernels.allocator import data_bytes, warm_blas

    text = os.environ.get("AUTODIFF_MAX_MEMORY", "").strip()
    requested = None
    if text:
        requested = parse_bytes(text)
        if requested is None:
            return (f"AUTODIFF_MAX_MEMORY={text[:60]!r} is not a size: give bytes, e.g. 2000000000, or with a unit "
                    "K, M, G or T (powers of 1024), e.g. 2G")
    try:
        import resource

        warm_blas()  # numpy and BLAS take their start-up memory and buffers before the cap can refuse them
        held = data_bytes()
        if held is None:
            return None
        if requested is not None:
            if requested < held + MIN_MEMORY:
                return (f"AUTODIFF_MAX_MEMORY={text[:60]} is too small: autodiff holds {held >> 20} MiB after "
                        f"start-up and needs at least {(held + MIN_MEMORY + (1 << 20) - 1) >> 20} MiB")
            cap = requested
        else:
            cap = held + int(MEMORY_SHARE * _available_memory())
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
    except (ImportError, OSError, ValueError, KeyError):
        pass
    return None


def _available_memory() -> int:
    """The machine's available memory and free swap (/proc/meminfo)."""
    with open("/proc/meminfo") as f:
        info = {key: int(rest.split()[0]) * 1024 for key, _, rest in (line.partition(":") for line in f)}
    return info["MemAvailable"] + info.get("SwapFree", 0)


_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_bytes(text: str) -> int | None:
    """A size in bytes: digits, optionally with a unit K, M, G or T (powers of 1024; `2G`, `512MiB`, `1.5G`)."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?:([KMGT])(?:I?B)?|B)?", text.strip().upper())
    if match is None:
        return None
    value = float(match.group(1)) * _UNITS[match.group(2) or ""]
    return int(value) if 0 < value < 1 << 62 else None
