"""Throughput of `--batch -`: lines per second through the installed command, start-up included.

    python benchmarks/batch.py [--lines 2000] [--rounds 3] [--only one mixed ...] [--jobs 1 2] [--autodiff PATH]
    python benchmarks/batch.py --emit class --lines 20000 > answers.jsonl   (the lines of one kind, not timed)

Feeds LINES JSON lines (seeded) on standard input to the `autodiff` command next to this Python (or
--autodiff PATH), checks that every line was answered without error, and reports the median of ROUNDS
wall-clock runs as lines per second (with the best beside it: the machine may be shared), for each --jobs:

- `one`: `eval '(2*x)**3 + sin(x)' --batch -`, lines `{"x": <number>}` (one program, parsed once);
- `mixed`: `eval --batch -`, every line its own scalar program (`{"program": "0.73*x**3*sin(1.2*x)", "x": ..}`,
  2,000 different programs from a dozen templates and random coefficients: the parse cache rarely hits);
- `check`: `check --batch -`, every line a program and a student's answer (`"expect": {"x": ...}`), half of
  them right, at 5 points each (check's default);
- `check-right`, `check-wrong`: the same lines, all right answers or all wrong ones (every line its own
  program; the wrong ones are the mistakes app/mistakes.py names, and unnamed ones);
- `class-right`, `class-wrong`: a class's answers: 20 questions (programs), each line one student's answer to
  one of them (right ones written several ways; wrong ones as above), at a point of the student's own;
  `class`: the same, right and wrong lines in turn (docs/sharding.md's recipe is measured on these);
- `diff`: `diff --batch -`, every line its own program (SymPy derives and simplifies each).

The lines per CPU second (the command's user + system time) say the same on a loaded machine, where wall
clock does not. The issue's targets: eval 2,000 lines/s (`one`) and 1,000 (`mixed`); check 1,000 right and 200 wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time


def _command(path: str | None) -> str:
    if path:
        return path
    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    return beside if os.path.exists(beside) else (shutil.which("autodiff") or "autodiff")


# (program, its derivative, a derivative with a rule left out: the chain rule, or the product or quotient of the
# parts' derivatives; None where there is none to leave out) with coefficients a, b in (0.5, 2)
TEMPLATES = [
    ("{a}*x**3*sin({b}*x)", "{a}*(3*x**2*sin({b}*x) + {b}*x**3*cos({b}*x))", "{a}*3*x**2*{b}*cos({b}*x)"),
    ("exp(-{a}*x**2)", "-2*{a}*x*exp(-{a}*x**2)", None),
    ("log(1 + {a}*x**2)", "2*{a}*x/(1 + {a}*x**2)", "1/(1 + {a}*x**2)"),
    ("tanh({a}*x) + {b}*x**3", "{a}*(1 - tanh({a}*x)**2) + 3*{b}*x**2", "1 - tanh({a}*x)**2 + 3*{b}*x**2"),
    ("sqrt(x**2 + {a})", "x/sqrt(x**2 + {a})", "1/(2*sqrt(x**2 + {a}))"),
    ("{a}*sin(x)*cos({b}*x)", "{a}*(cos(x)*cos({b}*x) - {b}*sin(x)*sin({b}*x))", "-{a}*{b}*cos(x)*sin({b}*x)"),
    ("x/(1 + {a}*x**2)", "(1 - {a}*x**2)/(1 + {a}*x**2)**2", "1/(2*{a}*x)"),
    ("sigmoid({a}*x)", "{a}*sigmoid({a}*x)*(1 - sigmoid({a}*x))", "sigmoid({a}*x)*(1 - sigmoid({a}*x))"),
    ("{a}*x**4 - {b}*x**2 + 1", "4*{a}*x**3 - 2*{b}*x", None),
    ("exp({a}*x)*sin(x)", "exp({a}*x)*({a}*sin(x) + cos(x))", "{a}*exp({a}*x)*cos(x)"),
    ("atan({a}*x)", "{a}/(1 + {a}**2*x**2)", "1/(1 + {a}**2*x**2)"),
    ("(x + {a})**3", "3*(x + {a})**2", None),
]


# the mistakes app/mistakes.py names (and one it cannot), as wrong answers to a template's program
def _wrong(template: tuple[str, str, str | None], a: float, b: float, kind: int) -> str:
    program, derivative, rule_left_out = template
    if kind == 0:
        return f"-({derivative.format(a=a, b=b)})"  # a sign lost
    if kind == 1:
        return f"3*({derivative.format(a=a, b=b)})"  # off by a constant factor
    if kind == 2:
        return program.format(a=a, b=b)  # the function itself
    if kind == 3 and rule_left_out is not None:
        return rule_left_out.format(a=a, b=b)  # the chain, product or quotient rule left out
    return f"2*x + {a}"  # nothing to name


def _line(rng: random.Random, kind: str, i: int, template: tuple[str, str, str | None] | None = None,
          coefficients: tuple[float, float] | None = None) -> dict:
    x = round(rng.uniform(-2.0, 2.0), 6)
    template = template or rng.choice(TEMPLATES)
    a, b = coefficients or (round(rng.uniform(0.5, 2.0), 3), round(rng.uniform(0.5, 2.0), 3))
    line = {"program": template[0].format(a=a, b=b), "x": x}
    if kind == "check":
        line["expect"] = {"x": template[1].format(a=a, b=b) if i % 2 else f"2*x + {a}"}
    elif kind.endswith("right"):
        line["expect"] = {"x": template[1].format(a=a, b=b)}
    elif kind.endswith("wrong"):
        line["expect"] = {"x": _wrong(template, a, b, i % 5)}
    return line


def _lines(count: int, seed: int, kind: str) -> bytes:
    rng = random.Random(seed)
    questions = [(TEMPLATES[q % len(TEMPLATES)], (round(rng.uniform(0.5, 2.0), 3), round(rng.uniform(0.5, 2.0), 3)))
                 for q in range(20)]
    out = []
    for i in range(count):
        if kind == "one":
            out.append({"x": round(rng.uniform(-2.0, 2.0), 6)})
        elif kind.startswith("class"):
            template, coefficients = questions[rng.randrange(len(questions))]
            sort = kind if kind != "class" else ("class-right", "class-wrong")[i % 2]
            out.append(_line(rng, sort, rng.randrange(5), template, coefficients))
        else:
            out.append(_line(rng, kind, i))
    return "".join(json.dumps(line) + "\n" for line in out).encode()


ARGUMENTS = {"one": ["eval", "(2*x)**3 + sin(x)"], "mixed": ["eval"], "check": ["check"], "check-right": ["check"],
             "check-wrong": ["check"], "class-right": ["check"], "class-wrong": ["check"], "class": ["check"],
             "diff": ["diff"]}


def measure(command: str, kind: str, data: bytes, expected: int, jobs: int = 1) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the command's and its workers', user + system) for one run of the command over
    the data (after checking its answers)."""
    extra = ["--jobs", str(jobs)] if jobs != 1 else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([command, *ARGUMENTS[kind], "--batch", "-", *extra], input=data, capture_output=True,
                          check=False, env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    answers = done.stdout.decode().splitlines()
    failed = [a for a in answers if '"error"' in a]
    if (done.returncode != 0 and not kind.startswith(("check", "class"))) or len(answers) != expected or failed:
        sys.exit(f"batch run failed (exit {done.returncode}, {len(answers)} answers for {expected} lines): "
                 f"{(failed[:1] or [done.stderr.decode()[-300:]])[0]}")
    if kind.endswith("right") and any('"ok": false' in a for a in answers):
        sys.exit(f"a right answer was judged wrong: {next(a for a in answers if chr(34) + 'ok' in a)[:300]}")
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=list(ARGUMENTS), choices=list(ARGUMENTS))
    parser.add_argument("--jobs", nargs="*", type=int, default=[1])
    parser.add_argument("--autodiff", help="the autodiff command to run (default: the one beside this Python)")
    parser.add_argument("--emit", choices=list(ARGUMENTS), help="write LINES input lines of this kind and stop")
    args = parser.parse_args()
    if args.emit:
        sys.stdout.buffer.write(_lines(args.lines, 0, args.emit))
        return
    command = _command(args.autodiff)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"| batch | lines | --jobs | wall, median of {args.rounds} | lines/s (median) | lines/s (best) | "
          "lines per CPU second |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for kind in args.only:
        count = args.lines if kind != "diff" else max(1, args.lines // 10)
        data = _lines(count, 0, kind)
        for jobs in args.jobs:
            runs = [measure(command, kind, data, count, jobs) for _ in range(args.rounds)]
            times = [wall for wall, _ in runs]
            middle, cpu = statistics.median(times), statistics.median(c for _, c in runs)
            print(f"| `{' '.join(ARGUMENTS[kind])} --batch -` ({kind}) | {count:,} | {jobs} | {middle:.2f} s | "
                  f"{count / middle:,.0f} | {count / min(times):,.0f} | {count / cpu:,.0f} |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
