"""One-shot start-up: each command's wall time as a ratio to `python -c "import numpy"`, in one run.

    python benchmarks/startup.py [--rounds 15] [--autodiff PATH] [--write benchmarks/README.md] [--only NAME ...]

Every round runs every command once, in turn, each paired with a run of the floor just before it (odd rounds)
or just after it (even rounds), so a burst of load on this noisy machine falls on both alike and neither order
counts; the table reports the median of the rounds, and each ratio is the median of the ratios of the pairs. The floor
is `python -c "import numpy"` on the interpreter of the installed `autodiff` (its shebang); `python -c
"import click"` is shown as the reference for the commands that compute nothing (`--version`, `--help`,
completion), and `python -c "import sympy"` for the commands that import SymPy (their bound is SymPy's ratio
+ 1.0), beside SymPy used once (its first sum imports two more of its packages) and SymPy with numpy.
The bounds (issue 42): --version, --help and completion <= 0.7; eval <= 1.5; check <= 1.6.

Why pairs: with one floor run per round, the first command that imports numpy after the click-only ones ran
0.05-0.12 slower relative to the floor than it does elsewhere in the round, whichever command it was (eval
--trace: 1.29 there, 1.13-1.18 elsewhere; measured 2026-11-24, benchmarks/README.md).

`--write FILE` replaces the table between the markers `<!-- startup-table -->` and
`<!-- /startup-table -->` in FILE (benchmarks/README.md's one-shot table is regenerated this way).
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import time

# The SymPy commands' bound: SymPy's own import (its ratio to the floor, measured in the same run) + 1.0
SYMPY_PLUS_ONE = -1.0
# (label, arguments after `autodiff`, environment, target ratio to the floor (SYMPY_PLUS_ONE: see above) or None)
COMMANDS: list[tuple[str, list[str], dict[str, str], float | None]] = [
    ("autodiff --version", ["--version"], {}, 0.7),
    ("autodiff --help", ["--help"], {}, 0.7),
    ("shell completion (`autodiff ev<TAB>`)", [], {"_AUTODIFF_COMPLETE": "bash_complete", "COMP_WORDS": "autodiff ev",
                                                   "COMP_CWORD": "1"}, 0.7),
    ("`eval '(2*x)**3' x=1.5 --format json`", ["eval", "(2*x)**3", "x=1.5", "--format", "json"], {}, 1.5),
    ("`eval ... --trace --format plain`", ["eval", "(2*x)**3", "x=1.5", "--trace", "--format", "plain"], {}, 1.5),
    ("`check 'x**2*sin(x)' x=1.5 --expect ...`", ["check", "x**2*sin(x)", "x=1.5", "--expect",
                                                  "x=2*x*sin(x) + x**2*cos(x)", "--format", "json"], {}, 1.6),
    ("`diff '(2*x)**3'`", ["diff", "(2*x)**3", "--format", "plain"], {}, SYMPY_PLUS_ONE),
    ("`critical 'x**3-3*x'`", ["critical", "x**3-3*x", "--format", "plain"], {}, SYMPY_PLUS_ONE),
    ("`tangent 'x**2' x=1`", ["tangent", "x**2", "x=1", "--format", "plain"], {}, SYMPY_PLUS_ONE),
    ("`limit 'sin(x)/x' x=0`", ["limit", "sin(x)/x", "x=0", "--format", "plain"], {}, SYMPY_PLUS_ONE),
    ("`graph 'x*y' x=1 y=2 --format json`", ["graph", "x*y", "x=1", "y=2", "--format", "json"], {}, None),
    ("`table 'sin(x)' x=0:1`", ["table", "sin(x)", "x=0:1", "--format", "csv"], {}, None),
]
FLOOR = "`python -c 'import numpy'` (the floor)"
CLICK = "`python -c 'import click'`"
SYMPY = "`python -c 'import sympy'`"
# SymPy's first sum of two terms imports sympy.tensor.tensor and sympy.combinatorics (Add.flatten), which its
# import does not: every SymPy command pays this before computing anything (benchmarks/README.md, fifth pass)
SYMPY_USED = "`python -c 'import sympy; sympy.Symbol(\"x\") - 1'` (SymPy used once)"
SYMPY_NUMPY = "`python -c 'import sympy, numpy'`"


def interpreter(autodiff: str) -> str:
    """The Python that runs the installed command (its shebang), so the floor is on the same interpreter."""
    with open(autodiff, encoding="utf-8", errors="replace") as f:
        first = f.readline()
    return first[2:].strip() if first.startswith("#!") else sys.executable


def table_of(autodiff: str, python: str, only: list[str]) -> dict[str, tuple[list[str], dict[str, str], float | None]]:
    table: dict[str, tuple[list[str], dict[str, str], float | None]] = {
        FLOOR: ([python, "-c", "import numpy"], {}, None),
        CLICK: ([python, "-c", "import click"], {}, None),
        SYMPY: ([python, "-c", "import sympy"], {}, None),
        SYMPY_USED: ([python, "-c", "import sympy; sympy.Symbol('x') - 1"], {}, None),
        SYMPY_NUMPY: ([python, "-c", "import sympy, numpy"], {}, None),
    }
    for label, args, env, target in COMMANDS:
        if not only or any(word in label for word in only):
            table[label] = ([autodiff, *args], env, target)
    return table


Times = dict[str, list[tuple[float, float]]]  # command -> (its seconds, the seconds of the floor run next to it)


def measure(table: dict[str, tuple[list[str], dict[str, str], float | None]], rounds: int) -> Times:
    """Seconds per round for every command, each paired with a floor run next to it (one warm-up round first,
    not counted)."""
    times: Times = {name: [] for name in table}
    base = {**os.environ, "NO_COLOR": "1"}

    def seconds(name: str) -> float:
        command, env, _ = table[name]
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**base, **env},
                              check=False)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"{name}: exit {done.returncode} ({' '.join(command)})")
        return elapsed

    for round_number in range(rounds + 1):
        for name in table:
            if name == FLOOR:
                elapsed = floor = seconds(FLOOR)
            elif round_number % 2:  # the floor first in odd rounds, second in even ones (ABBA): neither order counts
                floor, elapsed = seconds(FLOOR), seconds(name)
            else:
                elapsed, floor = seconds(name), seconds(FLOOR)
            if round_number:
                times[name].append((elapsed, floor))
    return times


def markdown(table: dict[str, tuple[list[str], dict[str, str], float | None]], times: Times, rounds: int) -> str:
    lines = [f"Measured {datetime.date.today().isoformat()} by `python benchmarks/startup.py` ({os.cpu_count()} CPUs; "
             f"median of {rounds} rounds; ratio = the median of the ratios to a floor run next to each command).",
             "", "| command | median | ratio to the floor | target |", "| --- | ---: | ---: | ---: |"]
    sympy = statistics.median(t / f for t, f in times[SYMPY]) if SYMPY in times else None
    for name, (_, _, target) in table.items():
        ratio = statistics.median(t / f for t, f in times[name])
        if target == SYMPY_PLUS_ONE:
            target = None if sympy is None else round(sympy + 1.0, 2)
        mark = "" if target is None else (f"<= {target}" + (" ✓" if ratio <= target else " ✗"))
        lines.append(f"| {name} | {statistics.median(t for t, _ in times[name]) * 1e3:.0f} ms | {ratio:.2f} | {mark} |")
    return "\n".join(lines) + "\n"


def write_into(path: str, text: str) -> None:
    start, end = "<!-- startup-table -->", "<!-- /startup-table -->"
    with open(path, encoding="utf-8") as f:
        content = f.read()
    if start not in content or end not in content:
        sys.exit(f"{path} has no {start} ... {end} markers")
    head, rest = content.split(start, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{head}{start}\n{text}{end}{tail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--autodiff", help="the autodiff command (default: the one beside this Python)")
    parser.add_argument("--write", metavar="FILE", help="rewrite the marked start-up table in FILE")
    parser.add_argument("--only", nargs="*", default=[], help="only the commands whose label contains a word")
    args = parser.parse_args()
    beside = os.path.join(os.path.dirname(sys.executable), "autodiff")
    autodiff = args.autodiff or (beside if os.path.exists(beside) else shutil.which("autodiff") or "autodiff")
    table = table_of(autodiff, interpreter(autodiff), args.only)
    times = measure(table, args.rounds)
    text = markdown(table, times, args.rounds)
    print(text)
    if args.write:
        write_into(args.write, text)


if __name__ == "__main__":
    main()
