"""Regenerate tests/engine/ops/golden/ops.json by running every case of tests/engine/ops/cases.py with PyTorch.

Run: .venv/bin/python tests/make_golden.py        (needs torch; the tests that read the file do not)

Per case the file records the inputs (so a changed case without a regenerated file fails loudly), the
output's value and dtype, every input's .grad after backward, and the backward graph in the canonical
form of cases.canonical_graph. Numbers are written with Python's shortest round-trip repr; nan and
infinities as the strings "nan", "inf", "-inf". One case per line, keys sorted: diffs stay readable.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
OUT = HERE / "engine" / "ops" / "golden" / "ops.json"


def load_cases():
    spec = importlib.util.spec_from_file_location("autodiff_engine_cases", HERE / "engine" / "ops" / "cases.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def encode(value):
    """A numpy array (or None) as nested lists of floats, non-finite numbers spelled as strings."""
    if value is None:
        return None
    if isinstance(value, np.ndarray):
        return encode(value.astype(np.float64).tolist())
    if isinstance(value, list):
        return [encode(v) for v in value]
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return float(value)


def build() -> str:
    """The golden file's text."""
    cases = load_cases()
    torch.set_default_dtype(torch.float32)
    records = []
    for c in cases.CASES:
        result = cases.run_case(torch, c)
        records.append({
            "id": c.id,
            "inputs": [encode(x) for x in c.inputs],
            "dtypes": list(c.dtypes),
            "requires_grad": list(c.requires_grad),
            "value": encode(result["value"]),
            "shape": list(result["value"].shape),
            "dtype": result["dtype"],
            "grads": [encode(g) for g in result["grads"]],
            "grad_dtypes": result["grad_dtypes"],
            "graph": result["graph"],
        })
    header = {"torch": torch.__version__.split("+")[0], "cases": len(records)}
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
