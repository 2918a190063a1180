"""Record what real PyTorch prints for every script in tests/facade/scripts/ (and its rooms): the oracle of
tests/facade/test_facade_scripts.py (which runs the same scripts under `autodiff run`).

Run: .venv/bin/python tests/make_facade_golden.py [NAME ...]      (needs torch; the tests that read the files do not)

Each script runs here in a fresh namespace with the default dtype float32, its stdout captured (warnings dropped)
and memory addresses replaced by `0x...`; the output is written to tests/facade/golden/NAME.expected. A script that
stops with an exception has its last line of output `!! ExceptionType: first line of the message` appended, so the
tests check that autodiff stops at the same point with the same built-in exception.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent / "facade"
SCRIPTS = HERE / "scripts"
GOLDEN = HERE / "golden"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def normalize(text: str) -> str:
    return ADDRESS.sub("0x...", text)


def error_line(exception: BaseException) -> str:
    """How a script's stop is recorded: its exception's type and the first line of its message."""
    return f"!! {type(exception).__name__}: {str(exception).splitlines()[0] if str(exception) else ''}\n"


def record(path: Path) -> str:
    """The normalized stdout of one script under real PyTorch, with its exception line if it stops."""
    import torch

    torch.set_default_dtype(torch.float32)
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, {"__name__": "__main__", "__file__": str(path)})
        except Exception as exception:  # recorded, not raised
            print(error_line(exception), end="")
    return normalize(out.getvalue())


def main(names: list[str]) -> None:
    every = {path.stem: path for path in SCRIPTS.rglob("*.py")}  # the scripts are in rooms (nn/, optim/, ...)
    paths = [every[name] for name in names] if names else sorted(every.values(), key=lambda p: p.stem)
    GOLDEN.mkdir(exist_ok=True)
    for path in paths:
        text = record(path)
        (GOLDEN / f"{path.stem}.expected").write_text(text, encoding="utf-8")
        print(f"{path.name}: {len(text.splitlines())} lines", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
