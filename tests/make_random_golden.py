"""Regenerate tests/engine/random/golden/random.json by running every case of tests/engine/random/random_cases.py with
PyTorch.

Run: .venv/bin/python tests/make_random_golden.py        (needs torch; the test that reads the file does not)

Per case the file records each result's dtype, shape and values, exactly: floats with Python's shortest
round-trip repr of the float64 value (a float32 value is exactly representable), int64 as integers.
Arrays of more than 32 elements are recorded by their first 8 values and the SHA-256 of their
little-endian bytes in C order. One case per line, keys sorted.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
ROOM = HERE / "engine" / "random"  # the tests that read the file, and its cases
OUT = ROOM / "golden" / "random.json"
FULL = 32  # arrays up to this many elements are written out whole


def load_cases():
    spec = importlib.util.spec_from_file_location("autodiff_random_cases", ROOM / "random_cases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()).hexdigest()


def encode(array: np.ndarray) -> dict:
    """dtype, shape and values (or head and digest) of one result."""
    record = {"dtype": str(array.dtype), "shape": list(array.shape)}
    flat = array.reshape(-1).tolist()
    if array.size <= FULL:
        record["values"] = flat
    else:
        record["head"] = flat[:8]
        record["sha256"] = digest(array)
    return record


def build() -> str:
    cases = load_cases()
    torch.set_default_dtype(torch.float32)
    lib = cases.Lib(torch, True)
    records = [{"id": c.id, "results": [encode(a) for a in c.run(lib)]} for c in cases.CASES]
    header = {"torch": torch.__version__.split("+")[0], "cpu_capability": torch.backends.cpu.get_cpu_capability(),
              "cases": len(records)}
    lines = [json.dumps(header, sort_keys=True)] + [json.dumps(r, sort_keys=True) for r in records]
    return '{"meta": ' + lines[0] + ',\n"cases": [\n' + ",\n".join(lines[1:]) + "\n]}\n"


def main() -> None:
    text = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {json.loads(text)['meta']['cases']} cases to {OUT.relative_to(HERE.parent)} "
          f"({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
