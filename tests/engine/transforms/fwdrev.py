"""Forward-over-reverse runs of the op cases (cases.py), shared by tests/make_fwdrev_golden.py (PyTorch) and
test_fwdrev.py (the engine): each float input that requires grad becomes a dual tensor whose tangent requires grad
too; the result's tangent then has a graph, and backward through it (weighted by output_gradient) gives every
input and every tangent a gradient: the second-order term (inputs) and the first-order one (tangents)."""

from __future__ import annotations

from types import ModuleType
from typing import Any


def run_forward_over_reverse(lib: Any, fwad: Any, cases: ModuleType, c: Any) -> dict:
    """The tangent's value, its grad_fn's name and graph, and the gradients of backward through it (None where an
    input or tangent got none); the error's class when something fails."""
    leaves = cases.make_inputs(lib, c)
    tangents = [lib.tensor(cases.tangent_input(data), dtype=x.dtype, requires_grad=True)
                if rg and dt.startswith("float") else None
                for x, data, dt, rg in zip(leaves, c.inputs, c.dtypes, c.requires_grad)]
    try:
        with fwad.dual_level():
            duals = [x if t is None else fwad.make_dual(x, t) for x, t in zip(leaves, tangents)]
            out = c.fn(lib, *duals)
            tangent = fwad.unpack_dual(out).tangent
        if tangent is None:
            return {"tangent": None}
        record = {"tangent": cases.to_numpy(tangent).copy(), "requires_grad": bool(tangent.requires_grad),
                  "name": None if tangent.grad_fn is None else cases.strip_prefix(tangent.grad_fn.name())}
        record["graph"] = ([] if tangent.grad_fn is None
                           else cases.canonical_graph(tangent.grad_fn, leaves + [t for t in tangents if t is not None]))
        if tangent.requires_grad:
            weights = cases.output_gradient(c.id, tuple(tangent.shape))
            tangent.backward(lib.tensor(weights, dtype=tangent.dtype))
        grads = [t.grad for t in leaves] + [t.grad for t in tangents if t is not None]
        record["grads"] = [None if g is None else cases.to_numpy(g).copy() for g in grads]
        return record
    except Exception as error:  # the class of any failure is the record
        return {"error": type(error).__name__}
