"""The JSON documents of the README's JSON output section: strict JSON, non-finite numbers as strings."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from autodiff.engine import Tensor

# float32 values are written with the shortest decimal that reads back as the same float32 (0.745, not
# 0.7450000047683716); past this many elements the exact float64 expansion is written (much faster).
_SHORTEST_FLOAT32_UP_TO = 100_000


def values(array: np.ndarray | None) -> Any:
    """A number for a 0-d array, nested lists otherwise; nan/inf/-inf as strings; None stays None."""
    if array is None:
        return None
    array = np.asarray(array)
    finite = np.isfinite(array)
    if array.dtype == np.float32 and array.size <= _SHORTEST_FLOAT32_UP_TO:
        # str() of a numpy float32 is its shortest round-tripping decimal
        items = [float(str(v)) if ok else _non_finite(float(v)) for v, ok in zip(array.reshape(-1), finite.reshape(-1))]
        out = np.empty(array.size, dtype=object)
        out[:] = items
        return out.reshape(array.shape).tolist() if array.ndim else items[0]
    if finite.all():
        return array.tolist()
    out = array.astype(object)
    out[np.isnan(array)] = "nan"
    out[array == np.inf] = "inf"
    out[array == -np.inf] = "-inf"
    return out.tolist()


def _non_finite(x: float) -> str:
    return "nan" if x != x else ("inf" if x > 0 else "-inf")


def tensor_summary(name: str | None, t: Tensor) -> dict[str, Any]:
    return {
        "name": name,
        "value": values(t.data),
        "shape": list(t.shape),
        "dtype": t.dtype.name,
        "requires_grad": t.requires_grad,
        "grad_fn": t.grad_fn.name() if t.grad_fn is not None else None,
    }


def graph_document(graph: Any) -> dict[str, Any]:
    nodes = []
    for n in graph.nodes:
        record: dict[str, Any] = {"id": n.id, "name": n.name, "next": [list(e) if e else None for e in n.next]}
        if n.name == "AccumulateGrad":
            record["variable"] = n.variable
        nodes.append(record)
    return {"root": graph.root, "nodes": nodes}


def step_document(step: Any) -> dict[str, Any]:
    """One --explain step: the node (id as in `graph`), what it received, what each input got and why."""
    document: dict[str, Any] = {
        "step": step.index + 1,
        "pass": step.pass_number,
        "node": step.node_id,
        "name": step.name,
        "grad_in": values(step.grad_in),
        "received": [{"from_step": c.from_step + 1, "from_node": c.from_node, "values": values(c.values)}
                     for c in step.received],
        "grads_out": [values(r.result) for r in step.rules],
        "rules": [{"input": r.input, "rule": r.rule, "worked": r.worked or None,
                   "reduced_from": list(r.reduced_from) if r.reduced_from else None} for r in step.rules],
    }
    if step.name == "AccumulateGrad":
        document["variable"] = step.tensor
        document["grad_before"] = values(step.leaf_before)
        document["grad_after"] = values(step.leaf_after)
    return document


def dumps(document: Any) -> str:
    return json.dumps(document, allow_nan=False)
