"""The peers' op tests (cases_peers*.py) with PyTorch itself (skipped without torch): golden/peers.json must be
what PyTorch answers now (the file was made by tests/make_peers_golden.py from these tables with this PyTorch,
not edited), so that test_peers_golden.py, which checks the engine against the file, checks it against PyTorch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autodiff import engine as E

from ..caseload import load_cases, load_peer_cases

torch = pytest.importorskip("torch")

cases = load_cases()
peers = load_peer_cases()
PEER_CASES = peers.load_tables()
GOLDEN = {r["id"]: r for r in json.loads((Path(__file__).parent / "golden" / "peers.json").read_text())["cases"]}


@pytest.fixture(autouse=True)
def default_dtype():
    previous, previous_torch = E.get_default_dtype(), torch.get_default_dtype()
    E.set_default_dtype("float32")
    torch.set_default_dtype(torch.float32)
    yield
    E.set_default_dtype(previous)
    torch.set_default_dtype(previous_torch)


@pytest.mark.parametrize("part", range(3))
def test_golden_file_is_pytorchs_answer(part):
    """The file's records against PyTorch now, for every third case (the suite's time budget), in three parts so
    that xdist spreads them; test_peers_golden.py's fingerprints cover every case's definition."""
    for c in PEER_CASES[::3][part::3]:
        live = peers.run(torch, c, cases.canonical_graph)
        problems = peers.differences(live, GOLDEN[c.id], [x.shape for x in c.inputs])
        assert not problems, f"{c.id}: golden/peers.json is not PyTorch's answer: {problems}"
