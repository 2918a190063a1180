"""The floor under the engine's elementwise rows: numpy's and PyTorch's float32 kernels on one core.

    python benchmarks/kernels.py [--elements 65536] [--repeat 300]

Each kernel runs on an array that stays in the cache, into a preallocated output, on one thread, so the
figure is the kernel's arithmetic alone (nanoseconds per element, best of `--repeat`). The engine calls
numpy's kernels and splits large arrays over the cores (engine/kernels/parallel.py), so on the same number of
cores it cannot be faster than the ratio printed here: where numpy's kernel is slower than PyTorch's on
this CPU, an engine row made of that kernel stays above 1.0 whatever the engine does around it.
"""

from __future__ import annotations

import argparse
import time

KERNELS = ("sin", "cos", "exp", "log", "tanh", "sigmoid", "sqrt", "mul", "add", "sum")


def _best(f, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def _numpy(name: str, x, y, out):
    import numpy as np

    if name == "sigmoid":  # the engine's chain: 1 / (1 + exp(-x))
        def sigmoid():
            np.negative(x, out=out)
            np.exp(out, out=out)
            np.add(1, out, out=out)
            np.divide(1, out, out=out)
        return sigmoid
    if name == "sum":
        return lambda: np.add.reduce(x)
    if name in ("mul", "add"):
        f = np.multiply if name == "mul" else np.add
        return lambda: f(x, y, out=out)
    f = getattr(np, name)
    return lambda: f(x, out=out)


def _torch(name: str, x, y, out):
    import torch

    if name == "sum":
        return lambda: torch.sum(x)
    if name in ("mul", "add"):
        f = torch.mul if name == "mul" else torch.add
        return lambda: f(x, y, out=out)
    f = getattr(torch, name)
    return lambda: f(x, out=out)


def measure(elements: int, repeat: int) -> list[dict]:
    """ns per element of each kernel, numpy and (if installed) PyTorch, one thread, float32."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = (rng.random(elements) * 1.5 + 0.5).astype(np.float32)  # in every kernel's domain
    y = rng.standard_normal(elements).astype(np.float32)
    out = np.empty_like(x)
    try:
        import torch

        torch.set_num_threads(1)
        tx, ty, tout = torch.from_numpy(x), torch.from_numpy(y), torch.empty(elements)
    except ImportError:
        torch = None
    rows = []
    for name in KERNELS:
        ours = _best(_numpy(name, x, y, out), repeat) / elements * 1e9
        theirs = _best(_torch(name, tx, ty, tout), repeat) / elements * 1e9 if torch else None
        rows.append({"kernel": name, "numpy_ns": ours, "torch_ns": theirs,
                     "ratio": ours / theirs if theirs else None})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--elements", type=int, default=65_536)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    from engine import describe, machine  # benchmarks/engine.py, beside this script

    print(describe(machine()))
    print(f"float32, {args.elements:,} elements in the cache, one thread, best of {args.repeat}")
    print(f"{'kernel':<10}{'numpy ns/el':>13}{'torch ns/el':>13}{'ratio':>8}")
    for r in measure(args.elements, args.repeat):
        theirs = f"{r['torch_ns']:>13.2f}{r['ratio']:>8.2f}" if r["torch_ns"] else f"{'-':>13}{'-':>8}"
        print(f"{r['kernel']:<10}{r['numpy_ns']:>13.2f}{theirs}")


if __name__ == "__main__":
    main()
