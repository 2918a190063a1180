"""`autodiff table` over 10,001 points: one vectorised run against point-by-point runs, in one process.

    .venv/bin/python benchmarks/table.py
"""

from __future__ import annotations

import time

import numpy as np

from autodiff import engine
from autodiff.app.calculus.table import _run, grid, table


def main() -> None:
    engine.set_default_dtype("float64")
    points = grid(0.0, 10.0, 0.001)
    program = "sin(x) * exp(-x) + x**2"
    best = min(_timed(lambda: table(program, "x", points, [], 2)) for _ in range(5))
    sample = points[:500]
    each = min(_timed(lambda: [_run(program, "x", np.asarray(x), [], 2) for x in sample]) for _ in range(3))
    print(f"{len(points):,} points, value + 2 derivatives: vectorised {best * 1e3:.1f} ms; "
          f"point by point {each / len(sample) * len(points) * 1e3:.0f} ms (estimated from {len(sample)} points)")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
