"""tinygrad's op tests (test/backend/test_ops.py, class TestOps), ported: see cases_peers.py.

tinygrad's helper checks forward and backward against torch in float32, on inputs drawn uniformly in
[low, high) (default [-2, 2)), backward from `out.sum()`. Here the same programs, shapes and ranges, in float32,
backward from fixed weights instead of a plain sum. Shapes over a few hundred elements are scaled down to
keep the golden file small (the rank and any size the program names are kept).
"""

from __future__ import annotations

from typing import Any


def table(P: Any) -> Any:
    t = P.Table("tinygrad", "test/backend/test_ops.py::TestOps")
    f = P.F32

    def add(test: str, program: str, *inputs: Any, **options: Any) -> None:
        t.add(test, program, *inputs, dtype=options.pop("dtype", f), **options)

    add("test_add", "x + y", (5, 7), (5, 7))
    add("test_add", "x + y", (), ())
    add("test_add3", "x + y + z", (5, 7), (5, 7), (5, 7))
    return t
