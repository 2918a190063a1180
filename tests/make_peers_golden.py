"""Regenerate tests/engine/ops/golden/peers.json by running every case of the peers' tables
(tests/engine/ops/cases_peers*.py) with PyTorch.

Run: .venv/bin/python tests/make_peers_golden.py        (needs torch; test_peers_golden.py does not)

Per case: a fingerprint of its program and inputs (a changed case without a regenerated file fails loudly),
the output's value, dtype and backward graph, every input's .grad (order 2: the second derivatives), or the
class of the error PyTorch raised. Numbers as tests/make_golden.py writes them; one case per line.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).parent
OUT = HERE / "engine" / "ops" / "golden" / "peers.json"


def _load(path: Path, name: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _compact(encode, value, dtype: str):
    """A float32 array's numbers as float32's shortest round-trip digits (half the characters of float64's)."""
    if value is None or dtype != "float32":
        return encode(value)
    flat = [float(str(v)) for v in np.asarray(value, dtype=np.float32).ravel()]
    return encode(np.array(flat, dtype=np.float64).reshape(np.shape(value)))


def record(peers, cases, c, encode) -> dict:
    """One case's line: PyTorch's answer (run at the default dtype float32, as the tests run the engine)."""
    result = peers.run(torch, c, cases.canonical_graph)
    entry = {"id": c.id, "fingerprint": peers.fingerprint(c)}
    if "value" in result:
        entry.update(value=_compact(encode, result["value"], result["dtype"]), shape=list(result["value"].shape),
                     dtype=result["dtype"],
                     graph=result["graph"])
    if "grads" in result:
        grads = result["grads"]
        entry.update(grads=[None if g is None else _compact(encode, g, str(g.dtype)) for g in grads],
                     grad_dtypes=[None if g is None else str(g.dtype) for g in result["grads"]])
    if "error" in result:
        entry["error"] = result["error"]
    return entry


def build() -> str:
    cases = _load(HERE / "engine" / "ops" / "cases.py", "autodiff_engine_cases")
    peers = _load(HERE / "engine" / "ops" / "cases_peers.py", "autodiff_peer_cases")
    encode = _load(HERE / "make_golden.py", "autodiff_make_golden").encode
    torch.set_default_dtype(torch.float32)
    records = [record(peers, cases, c, encode) for c in peers.load_tables()]
    header = json.dumps({"torch": torch.__version__.split("+")[0], "cases": len(records)}, sort_keys=True)
    return ('{"meta": ' + header + ',\n"cases": [\n' + ",\n".join(json.dumps(r, sort_keys=True) for r in records)
            + "\n]}\n")


def main() -> None:
    text = build()
    OUT.write_text(text)
    print(f"wrote {json.loads(text)['meta']['cases']} cases to {OUT.relative_to(HERE.parent)} "
          f"({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
