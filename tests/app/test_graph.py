"""autodiff.app.graph: the backward graph as records, observed through a backward pass."""

from __future__ import annotations

from autodiff import engine
from autodiff.app.graph import observed_graph
from autodiff.app.session import Binding, EvalRequest


def tutorial3() -> EvalRequest:
    return EvalRequest("c = a + b; e = c * d", [Binding("a", 2, True), Binding("b", 3, True), Binding("d", 4, True)])


def test_observed_graph_records_what_each_node_received_and_passed():
    observed = observed_graph(tutorial3(), backward=True)
    names = [(n.name, n.variable or n.tensor) for n in observed.graph.nodes]
    assert names == [("MulBackward0", "e"), ("AddBackward0", "c"), ("AccumulateGrad", "a"),
                     ("AccumulateGrad", "b"), ("AccumulateGrad", "d")]
    assert {i: float(g) for i, g in observed.received.items()} == {0: 1.0, 1: 4.0, 2: 4.0, 3: 4.0, 4: 5.0}
    assert [float(g) for g in observed.passed[0]] == [4.0, 5.0]
    assert observed.passed[2] == []
    assert engine.STATE.observer is None


def test_observed_graph_without_backward():
    observed = observed_graph(tutorial3(), backward=False)
    assert not observed.backward and observed.received == {} and len(observed.graph.nodes) == 5
    assert observed.root_name == "e"
