"""Every case of cases.py against PyTorch's answers recorded in golden/ops.json (no torch needed).

Value, dtype, every input's .grad and the canonical backward graph must match. Regenerate the file
with tests/make_golden.py after changing a case.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from tolerance import assert_close as close

from autodiff import engine as E
from autodiff.engine import BUILTINS, OPS, Tensor

from ..caseload import load_cases

cases = load_cases()
GOLDEN_FILE = json.loads((Path(__file__).parent / "golden" / "ops.json").read_text())
GOLDEN = {record["id"]: record for record in GOLDEN_FILE["cases"]}
CASES = {c.id: c for c in cases.CASES}
NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}

# Ops that no public function records directly: they only appear inside the graph that
# create_graph=True builds for a backward formula (the backward of select/slice, and the fixed-mask
# choice that relu, clamp, max, ... use in their formulas).
INTERNAL_OPS = {"select_backward"}
# Ops without a derivative (PyTorch's NotImplemented node: backward through them is an error), so no golden case
# can backpropagate through them; their values are in cases (through an input without grad) and their errors in
# test_floor_divide.py.
NOT_DIFFERENTIABLE = {"floor_divide"}



def decode(value, dtype: str) -> np.ndarray:
    def walk(v):
        if isinstance(v, list):
            return [walk(x) for x in v]
        return NON_FINITE.get(v, v) if isinstance(v, str) else v

    return np.array(walk(value), dtype=dtype)


def assert_close(actual: np.ndarray, expected: np.ndarray, dtype: str, what: str) -> None:
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    close(actual, expected, dtype, what)


@pytest.fixture(autouse=True)
def default_dtype():
    previous = E.get_default_dtype()
    E.set_default_dtype("float32")
    yield
    E.set_default_dtype(previous)


def test_golden_file_and_cases_agree():
    assert GOLDEN_FILE["meta"]["cases"] == len(GOLDEN)
    assert list(GOLDEN) == list(CASES), "cases.py changed: regenerate with tests/make_golden.py"


@pytest.mark.parametrize("case_id", list(GOLDEN))
def test_case(case_id):
    golden, c = GOLDEN[case_id], CASES[case_id]
    assert [np.asarray(x).tolist() for x in c.inputs] == golden["inputs"], "inputs changed: regenerate"
    assert list(c.dtypes) == golden["dtypes"] and list(c.requires_grad) == golden["requires_grad"]

    result = cases.run_case(E, c)

    assert result["dtype"] == golden["dtype"]
    assert list(result["value"].shape) == golden["shape"]
    assert_close(result["value"], decode(golden["value"], golden["dtype"]).reshape(golden["shape"]),
                 golden["dtype"], "value")
    assert result["grad_dtypes"] == golden["grad_dtypes"]
    for i, (grad, expected, dtype) in enumerate(zip(result["grads"], golden["grads"], golden["grad_dtypes"])):
        if expected is None:
            assert grad is None, f"input {i} should have no .grad"
            continue
        assert grad is not None, f"input {i} has no .grad"
        assert_close(grad, decode(expected, dtype).reshape(c.inputs[i].shape), dtype, f"grad of input {i}")
    if c.engine_graph is None:
        assert result["graph"] == golden["graph"]
    else:  # a documented difference: the engine's own graph, which must really differ from PyTorch's
        assert c.note
        assert result["graph"] == list(c.engine_graph)
        assert result["graph"] != golden["graph"]


# Ops that share PyTorch's node with another (add with alpha is AddBackward0, as add is): a case of the node counts
# for all of them, and each has cases of its own (add_alpha, sub_alpha...)
SHARED_NODES = {"AddBackward0": {"add", "add_alpha"}, "SubBackward0": {"sub", "sub_alpha"}}


def _op_names_by_node() -> dict[str, set[str]]:
    names: dict[str, set[str]] = {}
    for op in OPS.values():
        assert op.node not in names or op.node in SHARED_NODES, f"two ops named {op.node}"
        names.setdefault(op.node, set()).add(op.name)
    assert all(names[node] == ops for node, ops in SHARED_NODES.items())
    return names


def test_every_op_has_a_golden_case():
    by_node = _op_names_by_node()
    seen = set()
    for case_id, golden in GOLDEN.items():
        graph = CASES[case_id].engine_graph or golden["graph"]
        seen |= {op for node in graph if node["name"] in by_node for op in by_node[node["name"]]}
    assert set(OPS) >= INTERNAL_OPS | NOT_DIFFERENTIABLE, "an op was renamed or removed: update INTERNAL_OPS"
    assert all(OPS[name].node == "NotImplemented" for name in NOT_DIFFERENTIABLE)
    missing = set(OPS) - INTERNAL_OPS - NOT_DIFFERENTIABLE - seen
    assert not missing, f"ops without a golden case: {sorted(missing)}"
    assert not (INTERNAL_OPS & seen), "an 'internal' op is reachable from a case: remove it from INTERNAL_OPS"


def test_every_differentiable_builtin_is_called_by_a_case(monkeypatch):
    """Each function that records an op (and detach) is used as E.name(...) or x.name(...) by some case."""
    wanted = {name for name, entry in BUILTINS.items() if entry.ops} | {"detach"}
    used: set[str] = set()

    class RecordingLib:
        def __getattr__(self, name):
            used.add(name)
            return getattr(E, name)

    def recording(name, method):
        def call(self, *args, **kwargs):
            used.add(name)
            return method(self, *args, **kwargs)
        return call

    for name in wanted:
        if hasattr(Tensor, name):
            monkeypatch.setattr(Tensor, name, recording(name, getattr(Tensor, name)))
    lib = RecordingLib()
    for c in cases.CASES:
        c.fn(lib, *cases.make_inputs(E, c))
    missing = wanted - used
    assert not missing, f"public differentiable functions without a case: {sorted(missing)}"
