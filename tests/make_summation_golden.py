"""Regenerate tests/engine/kernels/golden/summation.json: PyTorch's sums (one thread) of seeded float32 and float64
arrays in several layouts, over every dim, pairs of dims and all of them, written exactly (float.hex), so that
tests/engine/kernels/test_summation.py checks autodiff's order of addition without torch.

Run: .venv/bin/python tests/make_summation_golden.py        (needs torch; the test that reads the file does not)
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).parent / "engine" / "kernels" / "golden" / "summation.json"
SHAPES = [(5,), (7,), (9,), (40,), (600,), (3, 5), (5, 3), (9, 4), (12, 40), (40, 12), (2, 3, 4), (3, 17, 9),
          (5, 1, 20), (6, 2, 5, 3)]
LAYOUTS = ("c", "T", "sliced", "expanded")


def layout(base: torch.Tensor, name: str) -> torch.Tensor:
    """The tensor in one of LAYOUTS (tests/engine/kernels/test_summation.py makes the same numpy views)."""
    if name == "T":
        return base.permute(*reversed(range(base.ndim)))
    if name == "sliced":
        return base[..., ::2]
    if name == "expanded":
        return base[:1].expand(*base.shape)
    return base


def build() -> str:
    torch.set_num_threads(1)
    rng = np.random.default_rng(20261124)
    lines = []
    for shape, dtype in itertools.product(SHAPES, (np.float32, np.float64)):
        x = (rng.standard_normal(shape) * 10 ** rng.uniform(-2, 2, shape)).astype(dtype)
        sums = {}
        for name in LAYOUTS:
            if name in ("T", "sliced") and x.ndim < 2:
                continue
            t = layout(torch.from_numpy(x), name)
            dims = [None, *range(x.ndim), *itertools.combinations(range(x.ndim), 2)]
            summed = {str(d): t.sum() if d is None else t.sum(dim=d) for d in dims}
            sums[name] = {d: [float(v).hex() for v in s.reshape(-1).tolist()] for d, s in summed.items()}
        lines.append(json.dumps({"shape": list(shape), "dtype": np.dtype(dtype).name,
                                 "x": [float(v).hex() for v in x.reshape(-1).tolist()], "sums": sums}, sort_keys=True))
    return "[\n" + ",\n".join(lines) + "\n]\n"


if __name__ == "__main__":
    text = build()
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10)) - 1} arrays to {OUT} ({len(text):,} bytes)")
