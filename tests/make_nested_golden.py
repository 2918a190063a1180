"""Regenerate tests/engine/transforms/golden/nested.json: PyTorch's results of the nested torch.func transforms of
tests/engine/transforms/nested_cases.py (jacfwd(jacfwd(f)), jvp inside jvp, hessian of jacfwd...).

Run: .venv/bin/python tests/make_nested_golden.py            (needs torch; the test that reads the file does not)
     .venv/bin/python tests/make_nested_golden.py --compare  (the engine against torch: the largest differences)
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import torch
from make_golden import encode

HERE = Path(__file__).parent
ROOM = HERE / "engine" / "transforms"  # the tests that read the file, and its cases
OUT = ROOM / "golden" / "nested.json"


def load_cases():
    spec = importlib.util.spec_from_file_location("autodiff_nested_cases", ROOM / "nested_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _numpy(t) -> np.ndarray:
    return t.detach().numpy()


def main() -> None:
    cases = load_cases()
    torch.set_default_dtype(torch.float32)
    if "--compare" in sys.argv:
        sys.path.insert(0, str(HERE.parent.parent))
        from autodiff import engine as E
        from autodiff.engine.transforms import torch_func
        worst = 0.0
        for c in cases.CASES:
            theirs = cases.run(torch.func, torch, c, _numpy)
            ours = cases.run(torch_func, E, c, lambda t: t.numpy(force=True))
            diff = max(float(np.max(np.abs(a - b) / (1 + np.abs(a)))) for a, b in zip(theirs, ours))
            worst = max(worst, diff)
            print(f"{c.id}: shapes {[a.shape for a in theirs]} largest relative difference {diff:.3g}")
        print(f"{len(cases.CASES)} cases, largest relative difference {worst:.3g}")
        return
    records = [{"id": c.id, "results": [encode(a) for a in cases.run(torch.func, torch, c, _numpy)],
                "dtypes": [str(a.dtype) for a in cases.run(torch.func, torch, c, _numpy)]} for c in cases.CASES]
    header = {"torch": torch.__version__.split("+")[0], "cases": len(records)}
    lines = [json.dumps(header, sort_keys=True)] + [json.dumps(r, sort_keys=True) for r in records]
    OUT.write_text('{"meta": ' + lines[0] + ',\n"cases": [\n' + ",\n".join(lines[1:]) + "\n]}\n")
    print(f"wrote {len(records)} cases to {OUT.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
