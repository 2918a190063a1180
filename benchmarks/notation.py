"""Reading textbook notation (app/textbook/notation.py) as the nesting grows: each form at 5,000, 10,000 and 20,000
levels, best of 3, and the ratio of each time to the one before (2 is linear; before issue 44's fix 10,000
nested roots took 13 s and 20,000 took 30 s through the command).

    .venv/bin/python benchmarks/notation.py
"""

from __future__ import annotations

import itertools
import time

from autodiff.app.textbook.notation import read

FORMS = {
    "√√...x": lambda n: "√" * n + "x",
    "sin sin ... x": lambda n: "sin " * n + "x",
    "log_2 log_2 ... x": lambda n: "log_2 " * n + "x",
    "((...x...))": lambda n: "(" * n + "x" + ")" * n,
    "|...|x|...|": lambda n: "|" * n + "x" + "|" * n,
}
SIZES = (5_000, 10_000, 20_000)


def best(text: str, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        read(text)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    print(f"{'form':<20}" + "".join(f"{n:>12,}" for n in SIZES) + "   ratios")
    for label, make in FORMS.items():
        times = [best(make(n)) for n in SIZES]
        ratios = "  ".join(f"{b / a:.2f}" for a, b in itertools.pairwise(times))
        print(f"{label:<20}" + "".join(f"{t * 1000:>10.1f}ms" for t in times) + f"   {ratios}")


if __name__ == "__main__":
    main()
