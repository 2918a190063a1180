"""Throughput of `--batch -`: lines per second through the installed command, start-up included.

    python benchmarks/batch.py [--lines 2000] [--rounds 3] [--only one mixed check diff] [--autodiff PATH]

Feeds LINES JSON lines (seeded) on standard input to the `autodiff` command next to this Python (or
--autodiff PATH), checks that every line was answered without error, and reports the best of ROUNDS
wall-clock runs as lines per second:

- `one`: `eval '(2*x)**3 + sin(x)' --batch -`, lines `{"x": <number>}` (one program, parsed once);
- `mixed`: `eval --batch -`, every line its own scalar program (`{"program": "0.73*x**3*sin(1.2*x)", "x": ..}`,
  2,000 different programs from a dozen templates and random coefficients: the parse cache rarely hits);
- `check`: `check --batch -`, every line a program and a student's answer (`"expect": {"x": ...}`), half of
  them right, at 5 points each (check's default);
- `diff`: `diff --batch -`, every line its own program (SymPy derives and simplifies each).

The issue's target: 1,000 lines/s for scalar programs (`mixed`).
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


# (program, its derivative) with coefficients a, b in (0.5, 2)
TEMPLATES = [
    ("{a}*x**3*sin({b}*x)", "{a}*(3*x**2*sin({b}*x) + {b}*x**3*cos({b}*x))"),
    ("exp(-{a}*x**2)", "-2*{a}*x*exp(-{a}*x**2)"),
    ("log(1 + {a}*x**2)", "2*{a}*x/(1 + {a}*x**2)"),
    ("tanh({a}*x) + {b}*x**3", "{a}*(1 - tanh({a}*x)**2) + 3*{b}*x**2"),
    ("sqrt(x**2 + {a})", "x/sqrt(x**2 + {a})"),
    ("{a}*sin(x)*cos({b}*x)", "{a}*(cos(x)*cos({b}*x) - {b}*sin(x)*sin({b}*x))"),
    ("x/(1 + {a}*x**2)", "(1 - {a}*x**2)/(1 + {a}*x**2)**2"),
    ("sigmoid({a}*x)", "{a}*sigmoid({a}*x)*(1 - sigmoid({a}*x))"),
    ("{a}*x**4 - {b}*x**2 + 1", "4*{a}*x**3 - 2*{b}*x"),
    ("exp({a}*x)*sin(x)", "exp({a}*x)*({a}*sin(x) + cos(x))"),
    ("atan({a}*x)", "{a}/(1 + {a}**2*x**2)"),
    ("(x + {a})**3", "3*(x + {a})**2"),
]


def _lines(count: int, seed: int, kind: str) -> bytes:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        x = round(rng.uniform(-2.0, 2.0), 6)
        if kind == "one":
            out.append({"x": x})
            continue
        program, derivative = rng.choice(TEMPLATES)
        a, b = round(rng.uniform(0.5, 2.0), 3), round(rng.uniform(0.5, 2.0), 3)
        line = {"program": program.format(a=a, b=b), "x": x}
        if kind == "check":
            line["expect"] = {"x": derivative.format(a=a, b=b) if i % 2 else f"2*x + {a}"}
        out.append(line)
    return "".join(json.dumps(line) + "\n" for line in out).encode()


ARGUMENTS = {"one": ["eval", "(2*x)**3 + sin(x)"], "mixed": ["eval"], "check": ["check"], "diff": ["diff"]}


def measure(command: str, kind: str, data: bytes, expected: int) -> float:
    """Seconds for one run of the command over the data (after checking its answers)."""
    start = time.perf_counter()
    done = subprocess.run([command, *ARGUMENTS[kind], "--batch", "-"], input=data, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    answers = done.stdout.decode().splitlines()
    failed = [a for a in answers if '"error"' in a]
    if (done.returncode != 0 and kind != "check") or len(answers) != expected or failed:
        sys.exit(f"batch run failed (exit {done.returncode}, {len(answers)} answers for {expected} lines): "
                 f"{(failed[:1] or [done.stderr.decode()[-300:]])[0]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(ARGUMENTS), choices=list(ARGUMENTS))
    parser.add_argument("--autodiff", help="the autodiff command to run (default: the one beside this Python)")
    args = parser.parse_args()
    command = _command(args.autodiff)
    print(f"| batch | lines | best of {args.rounds} | lines/s |\n| --- | ---: | ---: | ---: |")
    for kind in args.only:
        count = args.lines if kind != "diff" else max(1, args.lines // 10)
        data = _lines(count, 0, kind)
        times = [measure(command, kind, data, count) for _ in range(args.rounds)]
        best = min(times)
        print(f"| `{' '.join(ARGUMENTS[kind])} --batch -` ({kind}) | {count:,} | {best:.2f} s | {count / best:,.0f} |")


if __name__ == "__main__":
    main()
