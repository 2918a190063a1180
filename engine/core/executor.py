"""The backward executor: an iterative traversal that counts each node's incoming edges and runs a node only
when all of its gradients have arrived (so a value used twice gets the sum once), in PyTorch's order (the
most recently created node first), as PyTorch's engine.cpp does (compute_dependencies, evaluate_function,
call_function).

It knows nodes only through `Node.apply` and computes in the vocabulary `F` its caller gives it: NumpyMath
for an ordinary pass, TensorMath for create_graph=True, SymPyMath for `autodiff diff`. How gradients are
added up (in place on numpy arrays the pass owns, out of place on tensors and expressions) is F's.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

import numpy as np

from ..errors import AutogradError
from .graph import Node, run_hooks
from .settings import STATE


class _Run:
    """The state of one backward pass: gradients waiting at each node, and the nodes ready to run."""

    def __init__(self, F: Any, dependencies: dict[Any, int]) -> None:
        self.F = F
        self.dependencies = dependencies
        self.buffers: dict[Any, list] = {}
        self.ready: list = []
        self.tie = itertools.count()

    def send(self, node: Any, grad: Any, owned: bool) -> None:
        """Add a gradient into the buffer of the node it goes to."""
        entry = self.buffers.get(node)
        if entry is None:
            self.buffers[node] = [grad, owned]
        else:
            self.F.add_to(entry, grad)

    def queue(self, node: Any) -> None:
        heapq.heappush(self.ready, (-node._seq, next(self.tie), node))

    def arrived(self, node: Any) -> None:
        """One more of node's incoming edges has delivered (or had nothing to deliver)."""
        remaining = self.dependencies[node] - 1
        self.dependencies[node] = remaining
        if remaining == 0:
            self.queue(node)


def execute(roots: list[tuple[Any, Any, bool]], F: Any, keep_graph: bool, capture: dict | None = None) -> dict:
    """Run backward from `roots` [(node, grad, owned)] in the vocabulary F, iteratively, counting dependencies.

    With `capture` ({node: None}), gradients arriving at those nodes are returned instead of being
    accumulated, and only the part of the graph that leads to them runs (autograd.grad). Floating-point exceptions
    (inf - inf, 0 * inf, an overflow) give PyTorch's nan and inf without numpy's RuntimeWarnings, as PyTorch's
    backward gives them silently.
    """
    with np.errstate(all="ignore"):
        return _execute(roots, F, keep_graph, capture)


def _execute(roots: list[tuple[Any, Any, bool]], F: Any, keep_graph: bool, capture: dict | None) -> dict:
    dependencies, seen = count_dependencies(node for node, _, _ in roots)
    needed = _ancestors(seen, capture) if capture is not None else None
    run = _Run(F, dependencies)
    for node, grad, owned in roots:
        run.send(node, grad, owned)
    for node in run.buffers:
        if dependencies.get(node, 0) == 0:
            run.queue(node)
    anomaly, observer = STATE.anomaly, STATE.observer
    ready, buffers = run.ready, run.buffers
    while ready:
        _, _, node = heapq.heappop(ready)
        grad, owned = buffers.pop(node, (None, False))
        leaf = node.op is None  # AccumulateGrad, or a GraphInput
        if grad is not None and not leaf and (node._pre_hooks or node._retained):
            grad, owned = _before_node(node, grad, owned, F)
        if capture is not None:
            if node in capture:
                capture[node] = run_hooks(node.hooks, grad, owned, F) if leaf else (grad, owned)
            if node not in needed or leaf:
                continue
        if leaf:
            if grad is not None:
                if observer is not None:  # before accumulating, so it can still see the old .grad
                    observer(node, grad, ())
                node.accumulate(grad, owned, F)
            continue
        if observer is None and not anomaly and grad is not None:  # (_call's common case)
            outputs = node.apply(grad, F)
        else:
            outputs = _call(node, grad, F, observer, anomaly)
        _pass_on(run, node, grad, outputs)
        if not keep_graph:
            node.release()
        # Drop this step's arrays now, not when the next step rebinds the names: the next node's
        # gradients would otherwise be computed while these are still alive (a higher memory peak).
        grad = outputs = None
    return capture or {}


def count_dependencies(starts: Any) -> tuple[dict[Any, int], set]:
    """How many edges reach each node of the graph below `starts`, and the set of its nodes."""
    dependencies: dict[Any, int] = {}
    stack = list(starts)
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt in node._next:
            if nxt is not None:
                dependencies[nxt] = dependencies.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return dependencies, seen


def _before_node(node: Node, grad: Any, owned: bool, F: Any) -> tuple[Any, bool]:
    """The node's pre-hooks (registered on its tensor), then the .grad of tensors that retain it."""
    if node._pre_hooks:
        grad, owned = run_hooks(node._pre_hooks, grad, owned, F)
    if node._retained:
        for ref in node._retained:
            tensor = ref()
            if tensor is not None and tensor._grad_fn is node:
                tensor._grad = F.retained(tensor._grad, grad)
    return grad, owned


def _call(node: Node, grad: Any, F: Any, observer: Any, anomaly: bool) -> list:
    """One node's backward formulas: the gradient for each of its inputs (None where it needs none)."""
    # (a custom Function's node may run without a gradient of its own: its other outputs' relays delivered)
    outputs = node.apply(grad, F) if grad is not None or node.collects else [None] * len(node._next)
    if observer is not None:
        observer(node, grad, outputs)
    if anomaly:
        _check_nan(node, outputs, F)
    return outputs


def _pass_on(run: _Run, node: Node, grad: Any, outputs: list) -> None:
    """Send each output to the node of its input; queue the nodes now complete (run.send and run.arrived, written
    out: this runs for every edge of the graph)."""
    sent: list = []
    F, buffers, dependencies = run.F, run.buffers, run.dependencies
    for nxt, g in zip(node._next, outputs):
        if nxt is None:
            continue
        if g is not None:
            g, fresh = F.emitted(g, grad, sent)
            sent.append(g)
            entry = buffers.get(nxt)
            if entry is None:
                buffers[nxt] = [g, fresh]
            else:
                F.add_to(entry, g)
        remaining = dependencies[nxt] - 1
        dependencies[nxt] = remaining
        if remaining == 0:
            heapq.heappush(run.ready, (-nxt._seq, next(run.tie), nxt))


def _ancestors(nodes: set, targets: dict) -> set:
    """The targets and every node from which one of them can be reached."""
    parents: dict[Any, list] = {}
    for node in nodes:
        for nxt in node._next:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
    needed = set()
    stack = [t for t in targets if t in nodes]
    while stack:
        node = stack.pop()
        if node in needed:
            continue
        needed.add(node)
        stack.extend(parents.get(node, ()))
    return needed


def _check_nan(node: Node, outputs: list, F: Any) -> None:
    for i, g in enumerate(outputs):
        values = None if g is None else F.values(g)
        if values is not None and np.isnan(values).any():
            where = f" (created by: {node._context})" if node._context is not None else ""
            raise AutogradError(
                f"Function '{node.name()}' returned nan values in its {i}th output{where}.",
                reason="anomaly", node=node.name(), context=node._context,
                line=getattr(node._context, "line", None),
            )
