"""Where the engine's forward pass spends its two threads, op by op (issue 45 item 4).

    python benchmarks/forward_threads.py [--elements 4000000] [--rounds 15] [--threads N] [--json]

Runs each forward op of `cube_mean`, `sin_exp_tanh` and `log` (benchmarks/engine.py) alone, `rounds` times, and
reports per op the medians (and ranges) of: wall time, the process's CPU time (every thread), and from
`parallel.run` (wrapped here, the engine untouched) how many split runs the op made, how many blocks each
thread took and the CPU and wall time each thread spent inside its blocks. CPU time per thread is far more
stable than wall time on a shared machine; an op whose blocks all land on one thread, or that makes no
split run, used one core. Put another build of the engine first on PYTHONPATH to compare it in the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time


def ops(lib, elements: int) -> dict:
    """The forward ops of cube_mean, sin_exp_tanh and log, each a call of no arguments on prepared inputs."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal(elements).astype(np.float32), requires_grad=True)
    w = lib.tensor((rng.random(elements) * 1.5 + 0.5).astype(np.float32), requires_grad=True)  # log's x
    lw = lib.log(w)
    y = 2 * x
    z = y ** 3
    n = -x
    m = n * x
    s, e, t = lib.sin(x), lib.exp(m), lib.tanh(x)
    p, q = s * e, t * x
    r = p + q
    return {"2*x": lambda: 2 * x, "y**3": lambda: y ** 3, "z.mean()": lambda: z.mean(),
            "-x": lambda: -x, "n*x": lambda: n * x, "sin(x)": lambda: lib.sin(x), "exp(m)": lambda: lib.exp(m),
            "tanh(x)": lambda: lib.tanh(x), "s*e": lambda: s * e, "t*x": lambda: t * x, "p+q": lambda: p + q,
            "r.sum()": lambda: r.sum(), "log(w)": lambda: lib.log(w), "lw.sum()": lambda: lw.sum()}


def instrument(parallel) -> list:
    """Wrap parallel.run so that every split run is logged: per thread [blocks, CPU ms, wall ms inside them, ms
    from the run's start to its first block]."""
    log: list = []
    original = parallel.run

    def run(block, out, inputs, size, *more):  # (more: `guided`, in engines that have it)
        threads: dict = {}
        began = time.perf_counter()

        def timed(o, i, lo, hi):
            c, w = time.thread_time(), time.perf_counter()
            block(o, i, lo, hi)
            entry = threads.setdefault(threading.get_ident(), [0, 0.0, 0.0, (w - began) * 1e3])
            entry[0] += 1
            entry[1] += (time.thread_time() - c) * 1e3
            entry[2] += (time.perf_counter() - w) * 1e3

        original(timed, out, inputs, size, *more)
        log.append(threads)

    parallel.run = run
    return log


def switches() -> int:
    """Voluntary context switches of the process's threads so far (0 where /proc is missing)."""
    total = 0
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/status", encoding="ascii") as f:
                total += sum(int(line.split()[1]) for line in f if line.startswith("voluntary_ctxt_switches"))
    except OSError:
        pass
    return total


def measure(elements: int, rounds: int, threads: int) -> dict:
    """Per op, lists over rounds: wall and process CPU ms, voluntary switches, split runs, and per thread
    [blocks, CPU ms, wall ms, first block's start ms] (summed over the op's runs), the busiest thread first."""
    from autodiff import engine as lib
    from autodiff.engine.kernels import parallel

    if threads:
        parallel._WORKERS = threads
    log = instrument(parallel)
    found: dict = {}
    for name, call in ops(lib, elements).items():
        call()
        call()
        rows = found[name] = {"wall": [], "cpu": [], "switches": [], "runs": [], "threads": []}
        for _ in range(rounds):
            log.clear()
            before = switches()
            c, w = time.process_time(), time.perf_counter()
            result = call()
            w, c = time.perf_counter() - w, time.process_time() - c
            rows["switches"].append(switches() - before)
            del result
            rows["wall"].append(w * 1e3)
            rows["cpu"].append(c * 1e3)
            rows["runs"].append(len(log))
            per: dict = {}
            for run in log:
                for ident, (blocks, cpu, wall, first) in run.items():
                    entry = per.setdefault(ident, [0, 0.0, 0.0, first])
                    entry[0] += blocks
                    entry[1] += cpu
                    entry[2] += wall
            rows["threads"].append(sorted(per.values(), reverse=True))
    return found


def summary(found: dict) -> list[str]:
    """One line per op: medians [min-max] of wall and CPU ms, switches, split runs, and per thread its blocks, CPU
    and wall ms inside them and when it started (medians)."""
    lines = []
    for name, rows in found.items():
        def span(values: list) -> str:
            return f"{statistics.median(values):6.2f} [{min(values):.2f}-{max(values):.2f}]"
        width = max((len(t) for t in rows["threads"]), default=0)
        threads = []
        for k in range(width):
            column = [[t[k][i] if k < len(t) else 0 for t in rows["threads"]] for i in range(4)]
            blocks, cpu, inside, first = (statistics.median(c) for c in column)
            threads.append(f"t{k}: {blocks:4.1f} blocks, cpu {cpu:5.2f}, wall {inside:5.2f}, from {first:4.2f}")
        lines.append(f"{name:9s} wall {span(rows['wall'])} cpu {span(rows['cpu'])} "
                     f"sw {statistics.median(rows['switches']):3.0f} runs {statistics.median(rows['runs']):.0f}  "
                     + "; ".join(threads))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--elements", type=int, default=4_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--threads", type=int, default=0, help="the engine's threads (default: its own choice)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = measure(args.elements, args.rounds, args.threads)
    if args.json:
        print(json.dumps(found))
        return
    print("\n".join(summary(found)))


if __name__ == "__main__":
    main()
