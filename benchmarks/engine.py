"""Engine throughput against PyTorch CPU, measured in one run.

    python benchmarks/engine.py [--elements 4000000] [--rounds 3] [--only NAME] [--cached] [--faults]

Each program (forward and backward) runs in a fresh worker process per library, so neither pays for
the other's imports or heap; rounds alternate engine and torch, and the table reports the median over
rounds of each worker's best time, and the engine/torch ratio (below 1.0: the engine is faster), with the
forward and the backward pass timed apart beside it (each the best of its own runs).

Elementwise throughput depends on the CPU (its SIMD width, how many cores) and on how numpy and PyTorch
were built for it, so the table is printed with the CPU model, numpy's SIMD extensions and both
libraries' thread counts (`machine()`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

PROGRAMS = {
    "cube_mean": "((2*x)**3).mean()",
    "sin_exp_tanh": "(sin(x)*exp(-x*x) + tanh(x)*x).sum()",
    "sigmoid_matmul": "sigmoid(A @ B).mean()",
    "outer_sum": "(u * v).sum()  # u (n, 1), v (1, n)",
    "sin": "sin(x).sum()",
    "exp": "exp(x).sum()",
    "tanh": "tanh(x).sum()",
    "sigmoid": "sigmoid(x).sum()",
    "log": "log(x).sum()  # x in [0.5, 2)",
    "scalar_chain": "50,000 alternating y*1.0001 and y+0.001 on a 0-d tensor",
}

TRANSCENDENTAL = ("sin", "exp", "tanh", "sigmoid", "log")


def machine() -> dict:
    """What makes elementwise figures differ between machines: the CPU, numpy's SIMD build, thread counts."""
    import os

    import numpy as np

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as umath
    features = getattr(umath, "__cpu_features__", {})
    dispatch = [f for f in getattr(umath, "__cpu_dispatch__", []) if features.get(f)]
    out = subprocess.run([sys.executable, __file__, "--info"], capture_output=True, text=True, check=False)
    info = json.loads(out.stdout) if out.returncode == 0 else {}
    return {"cpu": cpu, "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "numpy": np.__version__, "numpy_simd_baseline": list(getattr(umath, "__cpu_baseline__", [])),
            "numpy_simd_dispatch": dispatch, **info}


def _info() -> dict:
    """The worker side of machine(): torch's version, threads and SIMD level, and the engine's threads."""
    info: dict = {}
    try:
        import torch

        info.update(torch=torch.__version__, torch_threads=torch.get_num_threads(),
                    torch_simd=torch.backends.cpu.get_cpu_capability())
    except ImportError:
        pass
    try:
        from autodiff.engine.kernels import parallel

        info.update(engine_threads=parallel.workers(), engine_split_from=parallel.THRESHOLD)
    except ImportError:  # an engine from before the split kernels
        pass
    return info


def describe(info: dict) -> str:
    """machine() as two lines for a table's heading."""
    torch = f"torch {info.get('torch', '?')} ({info.get('torch_threads', '?')} threads, {info.get('torch_simd', '?')})"
    engine = (f"engine {info['engine_threads']} threads from {info['engine_split_from']:,} elements"
              if "engine_threads" in info else "engine single-threaded")
    return (f"CPU: {info['cpu']}, {info['cpus']} CPUs; {torch}; {engine}\n"
            f"numpy {info['numpy']} SIMD: baseline {' '.join(info['numpy_simd_baseline']) or '-'}, "
            f"dispatched {' '.join(info['numpy_simd_dispatch']) or '-'}")


def _inputs(lib, name: str, elements: int):
    import numpy as np

    rng = np.random.default_rng(0)
    side = round(elements ** 0.5)

    def leaf(shape: tuple[int, ...]):
        data = rng.standard_normal(shape).astype(np.float32)
        return lib.tensor(data, requires_grad=True)

    if name == "log":
        data = (rng.random(elements) * 1.5 + 0.5).astype(np.float32)
        return {"x": lib.tensor(data, requires_grad=True)}
    if name in TRANSCENDENTAL or name in ("cube_mean", "sin_exp_tanh"):
        return {"x": leaf((elements,))}
    if name == "sigmoid_matmul":
        return {"A": leaf((side, side)), "B": leaf((side, side))}
    if name == "outer_sum":
        return {"u": leaf((side, 1)), "v": leaf((1, side))}
    return {"s": lib.tensor(0.5, requires_grad=True)}


def _program(lib, name: str, t: dict):
    if name == "cube_mean":
        return ((2 * t["x"]) ** 3).mean()
    if name == "sin_exp_tanh":
        x = t["x"]
        return (lib.sin(x) * lib.exp(-x * x) + lib.tanh(x) * x).sum()
    if name == "sigmoid_matmul":
        return lib.sigmoid(t["A"] @ t["B"]).mean()
    if name == "outer_sum":
        return (t["u"] * t["v"]).sum()
    if name in TRANSCENDENTAL:
        return getattr(lib, name)(t["x"]).sum()
    y = t["s"]
    for i in range(50_000):
        y = y * 1.0001 if i % 2 else y + 0.001
    return y


def worker(library: str, name: str, elements: int, runs: int, cached: bool = False) -> float:
    """Best wall time of `runs` forward+backward passes (after one warm-up), in seconds.

    With `cached`, malloc keeps freed memory (autodiff.engine.kernels.allocator, as the autodiff command runs):
    applied to both libraries alike, so the comparison stays fair.
    """
    return phases(library, name, elements, runs, cached)["total"]


def phases(library: str, name: str, elements: int, runs: int, cached: bool = False) -> dict[str, float]:
    """Best wall times of the forward pass, the backward pass and both, over `runs` (seconds each), and the
    median minor page faults and system CPU seconds of each pass (`forward_faults`, `forward_sys`, ...): a
    fresh array's pages are faulted in and zeroed by the kernel, which is system time, not arithmetic."""
    if cached:
        from autodiff.engine.kernels.allocator import cache_freed_memory

        cache_freed_memory()
    if library == "torch":
        import torch as lib
    else:
        from autodiff import engine as lib
    tensors = _inputs(lib, name, elements)
    best = {"forward": float("inf"), "backward": float("inf"), "total": float("inf")}
    faults = {"forward_faults": [], "backward_faults": [], "forward_sys": [], "backward_sys": []}
    for i in range(runs + 1):
        for leaf in tensors.values():
            leaf.grad = None
        before = _usage()
        start = time.perf_counter()
        root = _program(lib, name, tensors)
        middle = time.perf_counter()
        between = _usage()
        root.backward()
        end = time.perf_counter()
        after = _usage()
        if i:
            for key, elapsed in (("forward", middle - start), ("backward", end - middle), ("total", end - start)):
                best[key] = min(best[key], elapsed)
            for key, (a, b) in (("forward", (before, between)), ("backward", (between, after))):
                faults[f"{key}_faults"].append(b[0] - a[0])
                faults[f"{key}_sys"].append(b[1] - a[1])
    return {**best, **{key: statistics.median(values) for key, values in faults.items()}}


def _usage() -> tuple[int, float]:
    """The process's minor page faults and system CPU seconds so far (zeros where resource is missing)."""
    try:
        import resource
    except ImportError:
        return 0, 0.0
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_minflt, usage.ru_stime


def measure(library: str, name: str, elements: int, runs: int, cached: bool = False) -> float:
    """Best forward+backward time of a worker process, in seconds."""
    return measure_phases(library, name, elements, runs, cached)["total"]


def measure_phases(library: str, name: str, elements: int, runs: int, cached: bool = False) -> dict[str, float]:
    """Best forward, backward and total times of a worker process, in seconds."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", library, "--only", name, "--elements", str(elements),
         "--runs", str(runs), *(["--cached"] if cached else [])],
        check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--elements", type=int, default=4_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="")
    parser.add_argument("--worker", choices=("engine", "torch"))
    parser.add_argument("--info", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cached", action="store_true",
                        help="both libraries with malloc keeping freed memory (as the autodiff command runs)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--faults", action="store_true",
                        help="also print each pass's page faults and system CPU ms (medians over runs)")
    args = parser.parse_args()
    if args.info:
        print(json.dumps(_info()))
        return
    if args.worker:
        print(json.dumps(phases(args.worker, args.only, args.elements, args.runs, args.cached)))
        return
    names = [n for n in PROGRAMS if n.startswith(args.only)]
    results = []
    for name in names:
        times: dict[str, list[dict[str, float]]] = {"engine": [], "torch": []}
        for _ in range(args.rounds):
            for library in ("engine", "torch"):
                times[library].append(measure_phases(library, name, args.elements, args.runs, args.cached))
        row: dict = {"program": name, "expression": PROGRAMS[name]}
        for library in ("engine", "torch"):
            for phase in ("forward", "backward", "total"):
                median = statistics.median(t[phase] for t in times[library])
                row[f"{library}_ms" if phase == "total" else f"{library}_{phase}_ms"] = median * 1e3
        for library in ("engine", "torch"):
            for key in ("forward_faults", "backward_faults", "forward_sys", "backward_sys"):
                row[f"{library}_{key}"] = statistics.median(t[key] for t in times[library])
        row["ratio"] = row["engine_ms"] / row["torch_ms"]
        results.append(row)
    info = machine()
    if args.json:
        print(json.dumps({"machine": info, "results": results}, indent=1))
        return
    print(describe(info))
    allocator = "malloc keeping freed memory" if args.cached else "default malloc"
    print(f"float32, {args.elements:,} elements, median of {args.rounds} rounds of best-of-{args.runs}, {allocator}")
    print(f"{'program':<16}{'engine ms':>12}{'torch ms':>12}{'ratio':>8}   forward ms (engine/torch)   backward ms")
    for r in results:
        print(f"{r['program']:<16}{r['engine_ms']:>12.1f}{r['torch_ms']:>12.1f}{r['ratio']:>8.2f}   "
              f"{r['engine_forward_ms']:>10.1f} / {r['torch_forward_ms']:<10.1f}   "
              f"{r['engine_backward_ms']:>8.1f} / {r['torch_backward_ms']:.1f}")
    if args.faults:
        print(f"{'page faults, system ms':<28}{'engine forward':>16}{'torch forward':>16}{'engine backward':>18}"
              f"{'torch backward':>17}")
        for r in results:
            cells = [f"{r[f'{lib}_{phase}_faults']:,.0f}, {r[f'{lib}_{phase}_sys'] * 1e3:.1f}"
                     for phase in ("forward", "backward") for lib in ("engine", "torch")]
            print(f"{r['program']:<28}{cells[0]:>16}{cells[1]:>16}{cells[2]:>18}{cells[3]:>17}")


if __name__ == "__main__":
    main()
