"""The seed tutorials replayed through `autodiff eval --format json`, against PyTorch 2.13's numbers.

golden/seed_cases.json is the acceptance floor of the project (../shared/acceptance/cases.json): each
case gives the command line, the values PyTorch computes, and for --trace the graph in canonical form.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

CASES = json.loads((Path(__file__).parent / "golden" / "seed_cases.json").read_text())


def _numbers(value):
    """JSON values to float arrays (non-finite strings to floats, None stays None)."""
    if value is None:
        return None
    return np.asarray(value if not isinstance(value, str) else float(value), dtype=float)


def _close(got, want, rtol, atol):
    if want is None or got is None:
        assert got is None and want is None
        return
    np.testing.assert_allclose(_numbers(got), _numbers(want), rtol=rtol, atol=atol)


def canonical(graph):
    """Depth-first preorder over next (ids in first-visit order), as the oracle writes graphs."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    order, ids, stack = [], {}, [graph["root"]]
    while stack:
        node_id = stack.pop()
        if node_id in ids:
            continue
        ids[node_id] = len(order)
        order.append(node_id)
        stack.extend(reversed([e[0] for e in nodes[node_id]["next"] if e is not None]))
    return [{"name": nodes[i]["name"],
             "next": [[ids[e[0]], e[1]] if e is not None else None for e in nodes[i]["next"]],
             "variable": nodes[i].get("variable")} for i in order]


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["id"] for c in CASES["cases"]])
def test_seed_case(cli, case):
    out = cli(*case["args"])
    assert out.code == 0, out.stderr
    doc = out.json()
    rtol, atol = case.get("rtol", 1e-6), case.get("atol", 1e-8)
    if "value" in case:
        _close(doc["root"]["value"], case["value"], rtol, atol)
    for name, want in case.get("grads", {}).items():
        _close(doc["grads"][name], want, rtol, atol)
    if "passes" in case:
        assert len(doc["passes"]) == len(case["passes"])
        for got, want in zip(doc["passes"], case["passes"]):
            for name, values in want.items():
                _close(got["grads"][name], values, rtol, atol)
    if "graph" in case:
        assert canonical(doc["graph"]) == case["graph"]


@pytest.mark.parametrize("case", CASES["errors"], ids=[c["id"] for c in CASES["errors"]])
def test_seed_error(cli, case):
    out = cli(*case["args"])
    assert out.code == case["exit"]
    error = out.json()["error"]
    assert error["kind"] == case["kind"]
    for word in case["contains"]:
        assert word.lower() in error["message"].lower()
    assert "Traceback" not in out.stderr
