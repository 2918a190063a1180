"""Regenerate tests/engine/transforms/golden/fwdrev.json: every case of tests/engine/ops/cases.py run
forward-over-reverse by PyTorch (tests/engine/transforms/fwdrev.py: dual inputs whose tangents require grad; backward
through the result's tangent).

Run: .venv/bin/python tests/make_fwdrev_golden.py            (needs torch; the test that reads the file does not)
     .venv/bin/python tests/make_fwdrev_golden.py --compare  (the engine against torch: agreement counts, and
                                                              every case whose grad_fn name or graph differs)

Per case: the tangent's value (null: none), its grad_fn's name, the gradients of backward through it
(the inputs', then the tangents'), or the class of the error PyTorch raised. Numbers as in golden/ops.json.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import torch
import torch.autograd.forward_ad as fwad
from make_golden import encode, load_cases

HERE = Path(__file__).parent
ROOM = HERE / "engine" / "transforms"  # the tests that read the file, and its cases
OUT = ROOM / "golden" / "fwdrev.json"


def load_runner():
    spec = importlib.util.spec_from_file_location("autodiff_fwdrev", ROOM / "fwdrev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _encoded(result: dict) -> dict:
    if "error" in result or result["tangent"] is None:
        return result
    result = {k: v for k, v in result.items() if k != "graph"}  # the names are checked, not the whole graphs
    return {**result, "tangent": encode(result["tangent"]),
            "grads": [None if g is None else encode(g) for g in result["grads"]]}


def build() -> str:
    """The golden file's text."""
    cases, runner = load_cases(), load_runner()
    torch.set_default_dtype(torch.float32)
    records = [{"id": c.id, **_encoded(runner.run_forward_over_reverse(torch, fwad, cases, c))} for c in cases.CASES]
    header = {"torch": torch.__version__.split("+")[0], "cases": len(records)}
    lines = [json.dumps(header, sort_keys=True)] + [json.dumps(r, sort_keys=True) for r in records]
    return '{"meta": ' + lines[0] + ',\n"cases": [\n' + ",\n".join(lines[1:]) + "\n]}\n"


def _close(a, b) -> bool:
    """Equal values (a gradient of None and one of zeros count as equal: PyTorch's formulas reach some inputs with
    zeros where the engine's do not reach them)."""
    if a is None or b is None:
        return (a is None or not np.any(a)) and (b is None or not np.any(b))
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)


def _numeric_grads(E, cases, c) -> list:
    """Central differences of <weights, tangent> in each float64 input that requires grad (engine, no grad)."""
    from autodiff.engine.transforms import forward_ad as fwAD

    def weighted(inputs):
        with E.no_grad(), fwAD.dual_level():
            duals = [fwAD.make_dual(E.tensor(x, dtype=E.float64), E.tensor(cases.tangent_input(x), dtype=E.float64))
                     if rg else E.tensor(x, dtype=getattr(E, dt))
                     for x, dt, rg in zip(inputs, c.dtypes, c.requires_grad)]
            tangent = fwAD.unpack_dual(c.fn(E, *duals)).tangent
            return float((tangent.numpy(force=True) * cases.output_gradient(c.id, tuple(tangent.shape))).sum())
    found = []
    for i, (x, rg) in enumerate(zip(c.inputs, c.requires_grad)):
        if not rg:
            found.append(None)
            continue
        grad = np.zeros(x.shape)
        for k in np.ndindex(x.shape):
            steps = []
            for sign in (1, -1):
                moved = [y.copy() for y in c.inputs]
                moved[i][k] += sign * 1e-6
                steps.append(weighted(moved))
            grad[k] = (steps[0] - steps[1]) / 2e-6
        found.append(grad)
    return found


def compare() -> None:
    """Print how the engine agrees with torch on every case: tangents, gradients, grad_fn names, graphs."""
    sys.path.insert(0, str(HERE.parent.parent))
    from autodiff import engine as E
    from autodiff.engine.transforms import forward_ad as fwAD

    cases, runner = load_cases(), load_runner()
    torch.set_default_dtype(torch.float32)
    counts = dict.fromkeys(("cases", "both_error", "error_differs", "tangent", "grads", "name", "graph"), 0)
    for c in cases.CASES:
        theirs = runner.run_forward_over_reverse(torch, fwad, cases, c)
        ours = runner.run_forward_over_reverse(E, fwAD, cases, c)
        counts["cases"] += 1
        if "error" in theirs or "error" in ours:
            same = "error" in theirs and "error" in ours
            counts["both_error" if same else "error_differs"] += 1
            if not same:
                print(f"{c.id}: torch {theirs.get('error')}, engine {ours.get('error')}")
            continue
        counts["tangent"] += _close(theirs["tangent"], ours["tangent"])
        grads = len(theirs.get("grads", [])) == len(ours.get("grads", [])) and all(
            _close(a, b) for a, b in zip(theirs.get("grads", []), ours.get("grads", [])))
        counts["grads"] += grads
        counts["name"] += theirs.get("name") == ours.get("name")
        counts["graph"] += theirs.get("graph") == ours.get("graph")
        if not grads and all(dt == "float64" for dt in c.dtypes):
            numeric = _numeric_grads(E, cases, c)
            agree = [None if n is None else (np.allclose(n, 0 if a is None else a, rtol=1e-4, atol=1e-5),
                                             np.allclose(n, 0 if b is None else b, rtol=1e-4, atol=1e-5))
                     for n, a, b in zip(numeric, theirs["grads"], ours["grads"])]
            print(f"{c.id}: finite differences agree with (torch, engine): {agree}")
        if not grads or not _close(theirs["tangent"], ours["tangent"]):
            print(f"{c.id}: VALUES DIFFER (tangent {_close(theirs['tangent'], ours['tangent'])}, grads "
                  f"{[_close(a, b) for a, b in zip(theirs.get('grads', []), ours.get('grads', []))]}, "
                  f"engine's {[None if g is None else 'array' for g in ours.get('grads', [])]})")
        if theirs.get("name") != ours.get("name"):
            print(f"{c.id}: name torch {theirs.get('name')}, engine {ours.get('name')}")
    print(counts)


def main() -> None:
    if "--compare" in sys.argv:
        compare()
        return
    text = build()
    OUT.write_text(text)
    print(f"wrote {json.loads(text)['meta']['cases']} cases to {OUT.relative_to(HERE.parent)} "
          f"({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
