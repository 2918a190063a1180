"""One-shot command latency: `autodiff eval` against the numpy-import floor and against PyTorch.

    python benchmarks/latency.py [--runs 21] [--autodiff PATH]

Runs are interleaved (each round runs every command once, in turn) and the table reports medians. The
floor is `python -c "import numpy"` on the same interpreter as the installed `autodiff`; the PyTorch
column is a Python script doing the same computation with torch.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

TORCH_SCRIPT = (
    "import torch, json\n"
    "x = torch.tensor(1.5, requires_grad=True)\n"
    "y = (2 * x) ** 3\n"
    "y.backward()\n"
    "print(json.dumps({'value': y.item(), 'grad': x.grad.item()}))\n"
)


def commands(autodiff: str, python: str, with_torch: bool) -> dict[str, list[str]]:
    table = {
        "python -c 'import numpy'": [python, "-c", "import numpy"],
        "eval --format json": [autodiff, "eval", "(2*x)**3", "x=1.5", "--format", "json"],
        "eval --trace --format plain": [autodiff, "eval", "(2*x)**3", "x=1.5", "--trace", "--format", "plain"],
    }
    if with_torch:
        table["the same with PyTorch"] = [python, "-c", TORCH_SCRIPT]
    return table


def measure(table: dict[str, list[str]], runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in table}
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": os.environ.get("PYTHONDONTWRITEBYTECODE", "")}
    for _ in range(runs):
        for name, command in table.items():
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--autodiff", default=shutil.which("autodiff") or "autodiff")
    args = parser.parse_args()
    # The interpreter that runs the installed command (its shebang), so the floor is on the same Python.
    with open(args.autodiff, encoding="utf-8", errors="replace") as f:
        first = f.readline()
    python = first[2:].strip() if first.startswith("#!") else sys.executable
    has_torch = subprocess.run([python, "-c", "import torch"], capture_output=True, check=False).returncode == 0
    medians = measure(commands(args.autodiff, python, has_torch), args.runs)
    floor = medians["python -c 'import numpy'"]
    print(f"median of {args.runs} interleaved runs; ratio to the numpy-import floor")
    print(f"{'command':<32}{'ms':>8}{'ratio':>8}")
    for name, seconds in medians.items():
        print(f"{name:<32}{seconds * 1e3:>8.1f}{seconds / floor:>8.2f}")
    if has_torch:
        torch_time = medians["the same with PyTorch"]
        print(f"eval --format json / PyTorch script: {medians['eval --format json'] / torch_time:.2f}")


if __name__ == "__main__":
    main()
