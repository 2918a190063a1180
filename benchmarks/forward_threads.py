"""Where the engine's forward pass spends its two threads, op by op (issue 45 item 4).

    python benchmarks/forward_threads.py [--elements 4000000] [--rounds 15] [--threads N] [--json]

Runs each forward op of `cube_mean` and `sin_exp_tanh` (benchmarks/engine.py) alone, `rounds` times, and
reports per op the medians (and ranges) of: wall time, the process's CPU time (every thread), and from
`parallel.run` (wrapped here, the engine untouched) how many split runs the op made, how many blocks each
thread took and the CPU and wall time each thread spent inside its blocks. CPU time per thread is far more
stable than wall time on a shared machine; an op whose blocks all land on one thread, or that makes no
split run, used one core. Put another build of the engine first on PYTHONPATH to compare it in the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time


def ops(lib, elements: int) -> dict:
    """The forward ops of cube_mean and sin_exp_tanh, each a call of no arguments on prepared inputs."""
    import numpy as np

    x = lib.tensor(np.random.default_rng(0).standard_normal(elements).astype(np.float32), requires_grad=True)
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
            "r.sum()": lambda: r.sum()}


def instrument(parallel) -> list:
    """Wrap parallel.run so that every split run is logged: blocks, CPU and wall seconds inside them per thread."""
    log: list = []
    original = parallel.run

    def run(block, out, inputs, size):
        threads: dict = {}

        def timed(o, i, lo, hi):
            c, w = time.thread_time(), time.perf_counter()
            block(o, i, lo, hi)
            c, w = time.thread_time() - c, time.perf_counter() - w
            entry = threads.setdefault(threading.get_ident(), [0, 0.0, 0.0])
            entry[0] += 1
            entry[1] += c
            entry[2] += w

        original(timed, out, inputs, size)
        log.append(threads)

    parallel.run = run
    return log


def measure(elements: int, rounds: int, threads: int) -> dict:
    """Per op: lists over rounds of wall, process CPU, runs, and per-thread (blocks, CPU, wall) sorted by blocks."""
    from autodiff import engine as lib
    from autodiff.engine.kernels import parallel

    if threads:
        parallel._WORKERS = threads
    log = instrument(parallel)
    found: dict = {}
    for name, call in ops(lib, elements).items():
        call()
        call()
        rows = found[name] = {"wall": [], "cpu": [], "runs": [], "threads": []}
        for _ in range(rounds):
            log.clear()
            c, w = time.process_time(), time.perf_counter()
            result = call()
            w, c = time.perf_counter() - w, time.process_time() - c
            del result
            rows["wall"].append(w * 1e3)
            rows["cpu"].append(c * 1e3)
            rows["runs"].append(len(log))
            per: dict = {}
            for run in log:
                for ident, (blocks, cpu, wall) in run.items():
                    entry = per.setdefault(ident, [0, 0.0, 0.0])
                    entry[0] += blocks
                    entry[1] += cpu * 1e3
                    entry[2] += wall * 1e3
            rows["threads"].append(sorted(per.values(), reverse=True))
    return found


def summary(found: dict) -> list[str]:
    """One line per op: medians [min-max] of wall and CPU ms, split runs, blocks and block CPU ms per thread."""
    lines = []
    for name, rows in found.items():
        def span(values: list) -> str:
            return f"{statistics.median(values):6.2f} [{min(values):.2f}-{max(values):.2f}]"
        width = max((len(t) for t in rows["threads"]), default=0)
        threads = []
        for k in range(width):
            blocks = [t[k][0] if k < len(t) else 0 for t in rows["threads"]]
            cpu = [t[k][1] if k < len(t) else 0.0 for t in rows["threads"]]
            inside = [t[k][2] if k < len(t) else 0.0 for t in rows["threads"]]
            threads.append(f"t{k}: {statistics.median(blocks):4.1f} blocks, cpu {statistics.median(cpu):5.2f}, "
                           f"wall {statistics.median(inside):5.2f}")
        lines.append(f"{name:9s} wall {span(rows['wall'])} cpu {span(rows['cpu'])} "
                     f"runs {statistics.median(rows['runs']):.0f}  " + "; ".join(threads))
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
