"""Throughput of `autodiff eval PROGRAM --batch -`: lines per second through the installed command.

    python benchmarks/batch.py [--lines 10000] [--rounds 3] [--program '(2*x)**3 + sin(x)'] [--autodiff PATH]

Feeds LINES JSON lines (`{"x": <random number>}`, seeded) on standard input to the `autodiff` command
next to this Python (or --autodiff PATH), checks that every line was answered without error, and reports
the best of ROUNDS wall-clock runs, start-up included, as lines per second. The issue's target: 2,000.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time


def _command(path: str | None) -> str:
    if path:
        return path
    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    return beside if os.path.exists(beside) else (shutil.which("autodiff") or "autodiff")


def _lines(count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    return "".join(json.dumps({"x": rng.uniform(-2.0, 2.0)}) + "\n" for _ in range(count)).encode()


def measure(command: str, program: str, data: bytes, expected: int) -> float:
    """Seconds for one run of the command over the data (after checking its answers)."""
    start = time.perf_counter()
    done = subprocess.run([command, "eval", program, "--batch", "-"], input=data, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    answers = done.stdout.decode().splitlines()
    failed = [a for a in answers if '"error"' in a]
    if done.returncode != 0 or len(answers) != expected or failed:
        sys.exit(f"batch run failed (exit {done.returncode}, {len(answers)} answers for {expected} lines): "
                 f"{(failed[:1] or [done.stderr.decode()[-300:]])[0]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--program", default="(2*x)**3 + sin(x)")
    parser.add_argument("--autodiff", help="the autodiff command to run (default: the one beside this Python)")
    args = parser.parse_args()
    command = _command(args.autodiff)
    data = _lines(args.lines, seed=0)
    times = [measure(command, args.program, data, args.lines) for _ in range(args.rounds)]
    best = min(times)
    print(f"program: {args.program}")
    print(f"{args.lines:,} lines, best of {args.rounds}: {best:.3f} s = {args.lines / best:,.0f} lines/s "
          f"(start-up included; all runs: {', '.join(f'{t:.3f}' for t in times)} s)")


if __name__ == "__main__":
    main()
