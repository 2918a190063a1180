"""Regenerate tests/engine/transforms/golden/forward.json: every case of tests/engine/ops/cases.py run in forward
mode by PyTorch (torch.autograd.forward_ad), each float input that requires grad made a dual tensor (cases.run_forward).

Run: .venv/bin/python tests/make_forward_golden.py        (needs torch; the test that reads the file does not)

Per case: the result's value and tangent (null: it has none), or the class of the error PyTorch raised. One
case per line, keys sorted; numbers as in golden/ops.json (make_golden.encode).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
import torch.autograd.forward_ad as fwad
from make_golden import encode, load_cases

HERE = Path(__file__).parent
OUT = HERE / "engine" / "transforms" / "golden" / "forward.json"


def build() -> str:
    """The golden file's text."""
    cases = load_cases()
    torch.set_default_dtype(torch.float32)
    records = []
    for c in cases.CASES:
        result = cases.run_forward(torch, fwad, c)
        record = {"id": c.id, "inputs": [encode(x) for x in c.inputs]}
        if "error" in result:
            record["error"] = result["error"]
        else:
            record.update(value=encode(result["value"]), tangent=encode(result["tangent"]),
                          shape=list(result["value"].shape))
        records.append(record)
    header = {"torch": torch.__version__.split("+")[0], "cases": len(records)}
    lines = [json.dumps(header, sort_keys=True)] + [json.dumps(r, sort_keys=True) for r in records]
    return '{"meta": ' + lines[0] + ',\n"cases": [\n' + ",\n".join(lines[1:]) + "\n]}\n"


def main() -> None:
    text = build()
    OUT.write_text(text)
    print(f"wrote {json.loads(text)['meta']['cases']} cases to {OUT.relative_to(HERE.parent)} "
          f"({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
