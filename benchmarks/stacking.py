"""Would stacking pay? N batch lines of one scalar program, each run alone (as `eval --batch` does) against
one run of the program on the N values stacked into a vector (as JAX's vmap would), in-process.

    python benchmarks/stacking.py [--lines 2000] [--rounds 5]

Reports, per line: the engine's run alone (parse excluded, as a batch parses once), the whole answer of
`eval --batch` (the run, the float64 precision re-run, the noise check and the JSON document), and the
stacked run (one forward and one backward on a vector, with a gradient of ones; correct only for programs
without data-dependent control flow and whose lines do not mix: elementwise programs). Best of ROUNDS.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time

import numpy as np

from autodiff import engine
from autodiff.app.config import Config
from autodiff.app.session import Binding, EvalRequest, parsed, run_eval

PROGRAMS = ["(2*x)**3 + sin(x)", "x**2*sin(x) + exp(-x**2)"]


def alone(program: str, xs: list[float]) -> float:
    request = EvalRequest(program, parsed=parsed(program))
    start = time.perf_counter()
    for x in xs:
        request.bindings = [Binding("x", x, True)]
        run_eval(request)
    return time.perf_counter() - start


def stacked(program: str, xs: list[float]) -> float:
    start = time.perf_counter()
    request = EvalRequest(program, [Binding("x", xs, True)], grad_tensor=engine.ones(len(xs)),
                          parsed=parsed(program))
    result = run_eval(request)
    json.dumps(result.grads["x"].tolist())
    return time.perf_counter() - start


def whole_batch(program: str, xs: list[float]) -> float:
    """The installed command's --batch loop in-process (every line's full answer, JSON written to a buffer)."""
    from autodiff.cli.main import main

    data = "".join(json.dumps({"x": x}) + "\n" for x in xs).encode()
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    sys.stdout = io.StringIO()
    start = time.perf_counter()
    try:
        main(["eval", program, "--batch", "-"])
    except SystemExit:
        pass
    finally:
        elapsed = time.perf_counter() - start
        sys.stdin, sys.stdout = stdin, stdout
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(0)
    xs = [rng.uniform(-2, 2) for _ in range(args.lines)]
    print("| program | engine run per line | whole --batch answer per line | stacked, per line | "
          "stacked vs engine run | stacked vs whole answer |\n|---|---:|---:|---:|---:|---:|")
    with Config("float32").applied(), np.errstate(all="ignore"):
        for program in PROGRAMS:
            a = min(alone(program, xs) for _ in range(args.rounds)) / args.lines
            s = min(stacked(program, xs) for _ in range(args.rounds)) / args.lines
            w = min(whole_batch(program, xs) for _ in range(max(1, args.rounds // 2))) / args.lines
            print(f"| `{program}` | {a * 1e6:.0f} µs | {w * 1e6:.0f} µs | {s * 1e6:.2f} µs | {a / s:.0f}x | "
                  f"{w / s:.0f}x |")


if __name__ == "__main__":
    main()
