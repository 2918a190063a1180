"""`autodiff graph`'s data: the backward graph below a tensor as plain records (each node once, in a fixed
depth-first order, found iteratively), and the graph observed through one backward pass (the gradient
each node received and passed on). eval's graph and its explanation of a pass use the records too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.app.session import EvalRequest, evaluate, root_tensor, run_eval
from autodiff.engine import AccumulateGrad, Tensor


# ---------------------------------------------------------------------------- the graph as records
@dataclass(eq=False, repr=False)
class GraphNode:
    """One node: its number, its name, its next functions (node number and input number, or None)."""

    id: int
    name: str
    next: list[tuple[int, int] | None]
    variable: str | None = None  # AccumulateGrad: the leaf's name
    tensor: str | None = None  # the named tensor this node produced, if any
    node: Any = None  # the engine node itself

    def __repr__(self) -> str:
        return f"GraphNode(id={self.id!r}, name={self.name!r}, next={self.next!r}, variable={self.variable!r})"


@dataclass(eq=False)
class Graph:
    """The nodes in depth-first order, and the root's number (None: the root needs no grad)."""

    root: int | None
    nodes: list[GraphNode]

    def __repr__(self) -> str:
        return f"Graph(root={self.root!r}, nodes={self.nodes!r})"


def graph_of(root: Tensor, names: dict[str, Any], extra: list[Tensor] | None = None) -> Graph:
    """The backward graph below root, each node once (depth-first, first visit order), iteratively.

    Nodes reachable only from the `extra` tensors (other tensors backward started from) follow, numbered after them.
    """
    starts = []
    for t in [root, *(extra or [])]:
        start = t.grad_fn
        if start is None and t.requires_grad:
            start = engine.grad_node(t)
        if start is not None:
            starts.append(start)
    if not starts:
        return Graph(None, [])
    leaf_names = {id(t): n for n, t in names.items() if isinstance(t, Tensor) and t.is_leaf}
    node_names = {id(t.grad_fn): n for n, t in names.items() if isinstance(t, Tensor) and t.grad_fn is not None}
    ids: dict[int, int] = {}
    order: list[Any] = []
    for start in starts:
        stack = [start]
        while stack:
            node = stack.pop()
            if id(node) in ids:
                continue
            ids[id(node)] = len(order)
            order.append(node)
            stack.extend(n for n in reversed(node.next_nodes) if n is not None)
    records = []
    for i, node in enumerate(order):
        is_leaf = isinstance(node, AccumulateGrad)
        records.append(GraphNode(
            id=i, name=node.name(),
            next=[(ids[id(n)], nr) if n is not None else None for n, nr in node.next_functions],
            variable=leaf_names.get(id(node.variable)) if is_leaf else None,
            tensor=None if is_leaf else node_names.get(id(node)),
            node=node,
        ))
    return Graph(0 if root.requires_grad else None, records)


# ---------------------------------------------------------------------------- observed through backward
class ObservedGraph:
    """The backward graph of one program run and, after a backward pass, what flowed through it."""

    __slots__ = ("backward", "graph", "passed", "received", "root", "root_name", "skipped_backward")

    def __init__(self, graph: Graph, root: Tensor, root_name: str | None, backward: bool,
                 received: dict[int, np.ndarray] | None = None,
                 passed: dict[int, list[np.ndarray | None]] | None = None, skipped_backward: str | None = None) -> None:
        self.graph, self.root, self.root_name, self.backward = graph, root, root_name, backward
        self.received = {} if received is None else received  # node id -> the gradient it received
        self.passed = {} if passed is None else passed  # node id -> per next entry
        self.skipped_backward = skipped_backward

    def __repr__(self) -> str:
        return f"ObservedGraph(graph={self.graph!r}, root_name={self.root_name!r}, backward={self.backward!r})"


def observed_graph(request: EvalRequest, backward: bool) -> ObservedGraph:
    """Evaluate the program; with `backward`, run backward from the root, watching every node it runs."""
    if not backward:
        _, evaluation = evaluate(request)
        root = root_tensor(evaluation)
        return ObservedGraph(graph_of(root, evaluation.names), root, evaluation.root_name, False)
    seen: dict[Any, tuple[np.ndarray, list[np.ndarray | None]]] = {}

    def observe(node: Any, grad_in: Any, grads_out: Any) -> None:
        received = None if grad_in is None else np.array(grad_in, copy=True)
        passed = [None if g is None else np.array(g, copy=True) for g in grads_out]
        if node in seen and received is not None and seen[node][0] is not None:  # a later pass adds up
            received = seen[node][0] + received
        seen[node] = (received, passed)

    with engine.observe(observe):
        result = run_eval(request)
    graph = graph_of(result.root, result.evaluation.names)
    observed = ObservedGraph(graph, result.root, result.evaluation.root_name, True,
                             skipped_backward=result.skipped_backward)
    for record in graph.nodes:
        entry = seen.get(record.node)
        if entry is not None:
            if entry[0] is not None:
                observed.received[record.id] = entry[0]
            observed.passed[record.id] = entry[1]
    return observed


__all__ = ["Graph", "GraphNode", "ObservedGraph", "graph_of", "observed_graph"]
