"""Regenerate tests/engine/core/golden/dtypes.json by running every case of tests/engine/core/dtype_cases.py with
PyTorch.

Run: .venv/bin/python tests/make_dtypes_golden.py        (needs torch; the test that reads the file does not)

Per case the file records the result's dtype (`torch.int64`), shape, values (integers and bools exactly, floats
as Python's repr of the float64 value: float16 and float32 values are exactly representable) and repr, or the
name of the exception PyTorch raised. One case per line, keys sorted.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import torch

HERE = Path(__file__).parent
ROOM = HERE / "engine" / "core"  # the tests that read the file, and its cases
OUT = ROOM / "golden" / "dtypes.json"


def load_cases():
    spec = importlib.util.spec_from_file_location("autodiff_dtype_cases", ROOM / "dtype_cases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def record(case, lib) -> dict:
    try:
        result = case.fn(lib)
    except Exception as error:  # what PyTorch refuses, the engine must refuse too
        return {"id": case.id, "error": type(error).__name__}
    array = lib.array(result)
    return {"id": case.id, "dtype": str(result.dtype), "shape": list(array.shape),
            "values": array.reshape(-1).tolist(), "repr": repr(result)}


def build() -> str:
    cases = load_cases()
    torch.set_default_dtype(torch.float32)
    lib = cases.Lib(torch, True)
    records = [record(c, lib) for c in cases.CASES]
    header = {"torch": torch.__version__.split("+")[0], "cases": len(records)}
    lines = [json.dumps(r, sort_keys=True) for r in records]
    return '{"meta": ' + json.dumps(header, sort_keys=True) + ',\n"cases": [\n' + ",\n".join(lines) + "\n]}\n"


if __name__ == "__main__":
    OUT.write_text(build(), encoding="utf-8")
    print(f"wrote {OUT}")
