"""Record what real PyTorch prints for every script under examples/ (seeds/, basics/, tutorials/): the oracle of
tests/cli/scripts/test_run.py.

Run: .venv/bin/python tests/make_examples_golden.py        (needs torch; the tests that read the files do not)

The scripts are plain Python when `torch` is PyTorch. Each one runs here with a fresh namespace and its
stdout captured (PyTorch's warnings, on stderr, are dropped). Memory addresses (0x7f...) are replaced by
`0x...`, and the result is written beside the script:

- `NAME.expected`: everything the script printed;
- `NAME.error.json`, for a script that stops with an exception: the exception's type and message, the
  line and column PyTorch's traceback points at, and the documented error kind for that situation
  (from KINDS below; a new kind of failure must be added there on purpose).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import traceback
import warnings
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SUFFIX = ".py"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

# (exception type, words of PyTorch's message) -> the documented kind (README: errors).
KINDS = [
    ("RuntimeError", "backward through the graph a second time", "autograd"),
    ("RuntimeError", "grad can be implicitly created only for scalar outputs", "autograd"),
    ("RuntimeError", "Mismatch in shape", "autograd"),
    ("RuntimeError", "does not require grad", "autograd"),
    ("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation", "autograd"),
    ("RuntimeError", "must match the size of tensor", "shape"),
    ("AttributeError", "has no attribute", "name"),
    ("NameError", "is not defined", "name"),
]


def scripts() -> list[Path]:
    """Every example script, in the rooms of examples/ (a script of any room, or of none, is found), by number."""
    return sorted(EXAMPLES.rglob(f"*{SUFFIX}"), key=lambda path: path.name)


def normalize(text: str) -> str:
    """Output with memory addresses made comparable: `<AddBackward0 object at 0x...>`."""
    return ADDRESS.sub("0x...", text)


def kind_of(exception: BaseException) -> str:
    name, message = type(exception).__name__, str(exception)
    for type_name, words, kind in KINDS:
        if name == type_name and words in message:
            return kind
    raise SystemExit(f"no kind for {name}: {message}; add the situation to KINDS in {__file__}")


def record(path: Path) -> tuple[str, dict | None]:
    """Run one script with PyTorch: its normalized stdout, and its error record (None if it finished)."""
    code = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, {"__name__": "__main__", "__file__": str(path)})
        except Exception as exception:  # every failure is recorded, not raised
            frames = [f for f in traceback.extract_tb(exception.__traceback__) if f.filename == str(path)]
            frame = frames[-1]
            error = {
                "exception": type(exception).__name__,
                "message": str(exception).split("\n", 1)[0],
                "line": frame.lineno,
                "column": frame.colno + 1 if getattr(frame, "colno", None) is not None else None,
                "kind": kind_of(exception),
            }
    return normalize(out.getvalue()), error


def main() -> None:
    import torch

    found = scripts()
    if not found:
        raise SystemExit(f"no *{SUFFIX} scripts under {EXAMPLES}")
    for path in found:
        torch.set_default_dtype(torch.float32)
        stdout, error = record(path)
        stem = path.name[: -len(SUFFIX)]
        (path.parent / f"{stem}.expected").write_text(stdout, encoding="utf-8")
        error_path = path.parent / f"{stem}.error.json"
        if error is None:
            error_path.unlink(missing_ok=True)
        else:
            error_path.write_text(json.dumps(error, indent=2) + "\n", encoding="utf-8")
        status = f"stops: {error['exception']} at line {error['line']} ({error['kind']})" if error else "runs"
        print(f"{path.relative_to(EXAMPLES).as_posix()}: {len(stdout.splitlines())} lines, {status}", file=sys.stderr)


if __name__ == "__main__":
    main()
