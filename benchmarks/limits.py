"""How soon the limits answer: the refusals and bounded derivations the tests check by their answers only.

    .venv/bin/python benchmarks/limits.py [--runs 3] [--autodiff PATH]

Each command runs as its own process; the table gives the median wall time and the median CPU time (user +
system) of the process. The time boxes of `diff` and SymPy count the worker's CPU time (app/timebox.py), so
on a busy machine the wall time grows and the answer does not. The times as measured when the tests
asserted them (2026-11): the parser's nesting limits under 1 s, `eval --order 40` of `x**x` under 15 s,
`diff` of 1,000 variables 8 s (16.6-17.9 s under load, past the 15 s box of the time: now CPU time),
`diff 'x**x' --order 10` refused after its 15 s box, a 1,000,000-element tensor printed in under 0.1 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

NAMES = [f"x{i}" for i in range(1, 1001)]
COMMANDS = {
    "parse: 100,000 nested brackets (limit)": ["eval", "(" * 100_000 + "x" + ")" * 100_000, "x=1"],
    "parse: a 1,000,001-character program (limit)": ["eval", "x" * 1_000_001],
    "eval x**x --order 40 (limit: the graph grows too fast)": ["eval", "x**x", "x=2", "--order", "40"],
    "diff of 1,000 variables at a point": ["diff", "+".join(NAMES), *(f"{n}=1" for n in NAMES), "--format", "plain"],
    "diff x**x --order 10 (limit: the 15 s box)": ["diff", "x**x", "--order", "10"],
    "diff (-(-(-2**10**10)))*x (limit: digits)": ["diff", "(-(-(-2**10**10)))*x", "--format", "plain"],
    "print a 1000 x 1000 tensor (summarised)": ["eval", "arange(1000000.).reshape(1000, 1000)"],
}


def measure(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    default = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"
    parser.add_argument("--autodiff", default=default)
    args = parser.parse_args()
    print(f"| command | wall (median of {args.runs}) | CPU |\n| --- | ---: | ---: |")
    for name, argv in COMMANDS.items():
        runs = [measure([args.autodiff, *argv]) for _ in range(args.runs)]
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"| {name} | {wall:.2f} s | {cpu:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
