"""Every benchmark in one run, as a table of ratios against PyTorch (and the other references).

    python benchmarks/run.py [--quick] [--json]

| row | measured | reference | target |
| --- | --- | --- | --- |
| engine throughput, 4M and 16M float32 elements | forward+backward | PyTorch CPU, same program | <= 1.0 |
| (the programs include one row per transcendental: sin, exp, tanh, sigmoid, log) | | | |
| scalar chain | microseconds per op (forward+backward) | PyTorch | <= 1.0 |
| peak memory of a 10M-element program | growth of peak RSS over the import footprint | PyTorch | <= 1.0 |
| one-shot CLI latency | `autodiff eval ... --format json` | `python -c "import numpy"` | <= 1.5 |
| --batch throughput | lines per second | (target 2,000 lines/s) | |
| parse time of a 1 MB program | seconds | CPython's own `ast.parse` of the same text | |

Each engine/PyTorch measurement runs in a fresh worker process per library (see engine.py), so neither
pays for the other's imports, heap or allocator state. Run it on a quiet machine: the ratios of
interleaved runs are robust, the absolute numbers are not. The table is printed with the machine's
description (CPU model, numpy's SIMD build, thread counts: engine.machine()), which explains most of
the differences between machines.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import batch
import latency

import engine

MEMORY_ELEMENTS = 10_000_000


def memory_worker(library: str) -> float:
    """Growth of this process's peak RSS (MiB) over its footprint after importing the library."""
    import resource

    if library == "torch":
        import torch as lib
    else:
        from autodiff import engine as lib
    import numpy as np

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    data = np.random.default_rng(0).standard_normal(MEMORY_ELEMENTS).astype(np.float32)
    x = lib.tensor(data, requires_grad=True)
    del data
    (lib.sin(x) * lib.exp(-x * x) + lib.tanh(x) * x).sum().backward()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (after - before) / 1024


def memory(library: str) -> float:
    out = subprocess.run([sys.executable, __file__, "--memory-worker", library], capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


def parse_time(size: int = 1_000_000) -> tuple[float, float]:
    """(autodiff's parse, CPython's ast.parse) of the same ~1 MB program, best of three, in seconds."""
    import ast

    from autodiff.grammar.syntax import parse

    line = "y = sin(x) * 2.5 + (x - 1) ** 2 / 3\n"
    text = (line * (size // len(line) + 1))[: size - size % len(line)]
    best = [float("inf"), float("inf")]
    for _ in range(3):
        for i, fn in enumerate((parse, ast.parse)):
            start = time.perf_counter()
            fn(text)
            best[i] = min(best[i], time.perf_counter() - start)
    return best[0], best[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, no 16M programs")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--memory-worker", choices=("engine", "torch"))
    args = parser.parse_args()
    if args.memory_worker:
        print(memory_worker(args.memory_worker))
        return
    rounds, runs = (1, 3) if args.quick else (3, 5)
    rows: list[dict] = []

    def add(row: str, ours: float, reference: float, unit: str, target: float | None) -> None:
        rows.append({"row": row, "autodiff": ours, "reference": reference, "unit": unit,
                     "ratio": ours / reference if reference else None, "target": target})
        print(f"  {row}: {ours:.4g} vs {reference:.4g} {unit}", file=sys.stderr)

    sizes = [4_000_000] if args.quick else [4_000_000, 16_000_000]
    # Both libraries run with the same malloc settings: glibc's default, and keeping freed memory (as the
    # autodiff command runs; see engine/kernels/allocator.py).
    modes = [(True, "cached malloc")] if args.quick else [(False, "default malloc"), (True, "cached malloc")]
    for cached, label in modes:
        for elements in sizes:
            for name in engine.PROGRAMS:
                if name == "scalar_chain":
                    continue
                repeat = runs if elements < 10**7 else 2
                times = {"engine": [], "torch": []}
                for _ in range(rounds):
                    for library in ("engine", "torch"):
                        times[library].append(engine.measure(library, name, elements, repeat, cached))
                add(f"{name}, {elements // 1_000_000}M, {label}", _median(times["engine"]) * 1e3,
                    _median(times["torch"]) * 1e3, "ms", 1.0)
    chain = {"engine": [], "torch": []}
    for _ in range(rounds):
        for library in ("engine", "torch"):
            chain[library].append(engine.measure(library, "scalar_chain", 0, runs))
    add("scalar chain, per op", _median(chain["engine"]) / 50_000 * 1e6, _median(chain["torch"]) / 50_000 * 1e6,
        "us", 1.0)
    grown = {library: _median([memory(library) for _ in range(rounds)]) for library in ("engine", "torch")}
    add(f"peak memory growth, {MEMORY_ELEMENTS // 1_000_000}M elements", grown["engine"], grown["torch"], "MiB", 1.0)
    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    command = beside if os.path.exists(beside) else (latency.shutil.which("autodiff") or "autodiff")
    medians = latency.measure(latency.commands(command, sys.executable, False), 11 if args.quick else 21)
    floor = medians["python -c 'import numpy'"]
    add("CLI latency, eval --format json", medians["eval --format json"] * 1e3, floor * 1e3, "ms", 1.5)
    add("CLI latency, eval --trace --format plain", medians["eval --trace --format plain"] * 1e3, floor * 1e3,
        "ms", 1.5)
    lines = 10_000
    data = batch._lines(lines, 0, "one")
    timed = [batch.measure(command, "one", data, lines) for _ in range(rounds)]  # (wall, CPU) seconds
    add("--batch throughput, eval, one program", lines / min(wall for wall, _ in timed), 2000.0, "lines/s", None)
    add("--batch lines per CPU second (the same runs)", lines / min(cpu for _, cpu in timed), 2000.0, "lines/s",
        None)
    ours, cpython = parse_time()
    add("parse a 1 MB program", ours, cpython, "s (vs ast.parse)", None)
    info = engine.machine()
    if args.json:
        print(json.dumps({"machine": info, "rows": rows}, indent=1))
        return
    print(f"\n{engine.describe(info)}")
    print(f"{'measurement':<52}{'autodiff':>12}{'reference':>12}{'ratio':>8}{'target':>8}  unit")
    for r in rows:
        ratio = f"{r['ratio']:.2f}" if r["ratio"] is not None else ""
        target = f"{r['target']:.1f}" if r["target"] else ""
        print(f"{r['row']:<52}{r['autodiff']:>12.4g}{r['reference']:>12.4g}{ratio:>8}{target:>8}  {r['unit']}")


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    main()
