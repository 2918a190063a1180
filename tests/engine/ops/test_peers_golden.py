"""The peers' op tests (cases_peers*.py) against PyTorch's answers in golden/peers.json (no torch needed).

A case with `expect="agree"` must match: value, dtype, backward graph, every .grad (or the second derivatives);
a program PyTorch refuses must be refused. A case the table classifies as a missing op, an unsupported keyword
or a known disagreement must still fail, so that the table is updated when it is fixed. Regenerate the file
with tests/make_peers_golden.py after changing a table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autodiff import engine as E

from ..caseload import load_cases, load_peer_cases

cases = load_cases()
peers = load_peer_cases()
PEER_CASES = peers.load_tables()
GOLDEN_FILE = json.loads((Path(__file__).parent / "golden" / "peers.json").read_text())
GOLDEN = {record["id"]: record for record in GOLDEN_FILE["cases"]}


@pytest.fixture(autouse=True)
def default_dtype():
    previous = E.get_default_dtype()
    E.set_default_dtype("float32")
    yield
    E.set_default_dtype(previous)


def test_golden_file_and_tables_agree():
    assert GOLDEN_FILE["meta"]["cases"] == len(GOLDEN)
    assert list(GOLDEN) == [c.id for c in PEER_CASES], "a table changed: regenerate with tests/make_peers_golden.py"


@pytest.mark.parametrize("c", PEER_CASES, ids=lambda c: c.id)
def test_peer_case(c):
    golden = GOLDEN[c.id]
    assert golden["fingerprint"] == peers.fingerprint(c), "the case changed: regenerate"
    problems = peers.differences(peers.run(E, c, cases.canonical_graph), golden, [x.shape for x in c.inputs],
                                 graphs=c.reference is None)
    if c.expect == "agree":
        assert not problems, f"{c.source}: {c.program!r}: " + "; ".join(problems)
    else:
        assert problems, f"{c.source}: {c.program!r} now agrees with PyTorch: remove expect={c.expect!r}"
