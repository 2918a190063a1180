"""Where the test suite's time goes: sums pytest's `--durations=0` report by file and by room.

    python -m pytest -q -n 2 --durations=0 > durations.txt
    python benchmarks/suite.py durations.txt [--top 40]

Prints the seconds of each test file (setup, call and teardown together), of each room (the folder), and
the longest single tests (a test far longer than the rest ends an xdist run alone).
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

_LINE = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S+?)::(.+)$")


def read(path: Path) -> list[tuple[float, str, str]]:
    """(seconds, file, test) for each line of a --durations report."""
    rows = []
    for line in path.read_text(errors="replace").splitlines():
        found = _LINE.match(line)
        if found:
            rows.append((float(found[1]), found[3], found[4]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--top", type=int, default=30)
    options = parser.parse_args()
    rows = read(options.report)
    by_file: dict[str, float] = defaultdict(float)
    by_room: dict[str, float] = defaultdict(float)
    by_test: dict[str, float] = defaultdict(float)
    for seconds, file, test in rows:
        by_file[file] += seconds
        by_room[str(Path(file).parent)] += seconds
        by_test[f"{file}::{test}"] += seconds
    total = sum(by_file.values())
    print(f"{total:9.1f} s in all ({len(by_test)} tests)\n\nrooms:")
    for name, seconds in sorted(by_room.items(), key=lambda item: -item[1]):
        print(f"{seconds:9.1f}  {name}")
    print("\nfiles:")
    for name, seconds in sorted(by_file.items(), key=lambda item: -item[1])[: options.top]:
        print(f"{seconds:9.1f}  {name}")
    print("\ntests:")
    for name, seconds in sorted(by_test.items(), key=lambda item: -item[1])[: options.top]:
        print(f"{seconds:9.1f}  {name}")


if __name__ == "__main__":
    main()
