"""The backward executor: an iterative traversal that counts each node's incoming edges and runs a node
only when all of its gradients have arrived (so a value used twice gets the sum once), in PyTorch's
order (the most recently created node first); and the public entry points backward() and grad().
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import parallel
from .errors import AutogradError
from .graph import AccumulateGrad, Node, _run_hooks, accumulator
from .modes import GradMode
from .tensor import STATE, Tensor
from .vocabulary import NumpyMath, TensorMath


def _retain_grads(node: Node, grad: Any, create_graph: bool) -> None:
    for ref in node._retained:
        tensor = ref()
        if tensor is None or tensor.grad_fn is not node:
            continue
        if tensor._grad is None:
            tensor._grad = grad if create_graph else Tensor._make(np.array(grad, copy=True))
        else:
            tensor._grad = tensor._grad + (grad if create_graph else Tensor._make(grad))


def _is_fresh(g: Any, grad_in: Any, earlier: list) -> bool:
    """True when g is a new array that nothing else references, so it may be updated in place."""
    return (isinstance(g, np.ndarray) and g.base is None and g is not grad_in
            and g.flags.writeable and not any(g is e for e in earlier))


def _execute(roots: list[tuple[Any, Any, bool]], keep_graph: bool, create_graph: bool,
             capture: dict | None = None) -> dict:
    """Run backward from `roots` [(node, grad, owned)], iteratively, counting dependencies.

    With `capture` ({node: None}), gradients arriving at those nodes are returned instead of being
    accumulated, and only the part of the graph that leads to them runs (autograd.grad).
    """
    dependencies, seen = _count_dependencies(node for node, _, _ in roots)
    needed = _ancestors(seen, capture) if capture is not None else None
    buffers: dict[Any, list] = {}
    for node, grad, owned in roots:
        _add_to_buffer(buffers, node, grad, owned, create_graph)
    ready: list = []
    tie = itertools.count()
    for node in buffers:
        if dependencies.get(node, 0) == 0:
            heapq.heappush(ready, (-node._seq, next(tie), node))

    F = TensorMath if create_graph else NumpyMath
    anomaly, observer = STATE.anomaly, STATE.observer
    while ready:
        _, _, node = heapq.heappop(ready)
        grad, owned = buffers.pop(node, (None, False))
        is_leaf_node = isinstance(node, AccumulateGrad)
        if grad is not None and not is_leaf_node:
            if node._pre_hooks:
                grad, owned = _run_hooks(node._pre_hooks, grad, owned, create_graph)
            if node._retained:
                _retain_grads(node, grad, create_graph)
        if capture is not None:
            if node in capture:
                if is_leaf_node:
                    grad, owned = _run_hooks(node.variable._hooks, grad, owned, create_graph)
                capture[node] = (grad, owned)
            if node not in needed or is_leaf_node:
                continue
        if is_leaf_node:
            if grad is not None:
                if observer is not None:  # before accumulating, so it can still see the old .grad
                    observer(node, grad, ())
                node.accumulate(grad, owned, create_graph)
            continue
        outputs = _run_node(node, grad, F, observer, anomaly)
        _pass_on(node, grad, outputs, buffers, dependencies, ready, tie, create_graph)
        if not keep_graph:
            node.release()
        # Drop this step's arrays now, not when the next step rebinds the names: the next node's
        # gradients would otherwise be computed while these are still alive (a higher memory peak).
        grad = outputs = None
    return capture or {}


def _count_dependencies(starts: Any) -> tuple[dict[Any, int], set]:
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


def _run_node(node: Node, grad: Any, F: Any, observer: Any, anomaly: bool) -> list:
    """One node's backward formulas: the gradient for each of its inputs (None where it needs none)."""
    outputs = node.apply(grad, F) if grad is not None else [None] * len(node._next)
    if observer is not None:
        observer(node, grad, outputs)
    if anomaly:
        _check_nan(node, outputs)
    return outputs


def _pass_on(node: Node, grad: Any, outputs: list, buffers: dict, dependencies: dict, ready: list, tie: Any,
             create_graph: bool) -> None:
    """Accumulate each output into the buffer of the node it goes to; queue the nodes now complete."""
    emitted: list = []
    for nxt, g in zip(node._next, outputs):
        if nxt is None:
            continue
        if g is not None:
            if not create_graph and not isinstance(g, np.ndarray):
                g = np.asarray(g)
            fresh = not create_graph and _is_fresh(g, grad, emitted)
            emitted.append(g)
            _add_to_buffer(buffers, nxt, g, fresh, create_graph)
        remaining = dependencies[nxt] - 1
        dependencies[nxt] = remaining
        if remaining == 0:
            heapq.heappush(ready, (-nxt._seq, next(tie), nxt))


def _add_to_buffer(buffers: dict, node: Any, grad: Any, owned: bool, create_graph: bool) -> None:
    entry = buffers.get(node)
    if entry is None:
        buffers[node] = [grad, owned]
    elif create_graph:
        entry[0] = entry[0] + grad
    elif entry[1]:
        if not (grad.size >= parallel.THRESHOLD and parallel.ADD.into(entry[0], entry[0], grad)):
            np.add(entry[0], grad, out=entry[0])
    else:
        total = parallel.ADD(entry[0], grad) if grad.size >= parallel.THRESHOLD else None
        entry[0] = np.asarray(entry[0] + grad) if total is None else total  # numpy: a scalar for 0-d operands
        entry[1] = True


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


def _check_nan(node: Node, outputs: list) -> None:
    for i, g in enumerate(outputs):
        values = g._data if isinstance(g, Tensor) else g
        if values is not None and np.isnan(values).any():
            where = f" (created by: {node._context})" if node._context is not None else ""
            raise AutogradError(
                f"Function '{node.name()}' returned nan values in its {i}th output{where}.",
                reason="anomaly", node=node.name(), context=node._context,
                line=getattr(node._context, "line", None),
            )


# ---------------------------------------------------------------------------- public entry points
def _root_grad(t: Tensor, gradient: Any, index: int, create_graph: bool) -> tuple[Any, bool]:
    """The gradient a backward pass starts from, checked against the output it belongs to."""
    if gradient is None:
        if t._data.size != 1:
            shape = tuple(t.shape)
            raise AutogradError(
                f"grad can be implicitly created only for scalar outputs: this output has shape {shape}, "
                f"{t._data.size} elements",
                hint=f"pass a gradient of shape {shape} (e.g. ones({', '.join(map(str, shape))})) or reduce "
                "the output to a scalar first, e.g. with .sum()",
                reason="implicit_nonscalar", shape=shape,
            )
        ones = np.ones(t._data.shape, dtype=t._data.dtype)
        return (Tensor._make(ones) if create_graph else ones), True
    if isinstance(gradient, Tensor):
        values = gradient._data
    else:
        from .constructors import _array_from

        values = _array_from(gradient, t._data.dtype)
    if values.shape != t._data.shape:
        raise AutogradError(
            f"Mismatch in shape: grad_output[{index}] has a shape of {tuple(values.shape)} and "
            f"output[{index}] has a shape of {tuple(t._data.shape)}: the gradient must have the output's shape",
            hint="for a one-element output, leave the gradient out (it defaults to 1)"
            if t._data.size == 1 else None,
            reason="grad_shape", grad_shape=tuple(values.shape), shape=tuple(t._data.shape),
        )
    if create_graph:
        grad = gradient if isinstance(gradient, Tensor) else Tensor._make(values)
        return (TensorMath.cast(grad, t._data.dtype) if grad.dtype != t._data.dtype else grad), False
    if values.dtype != t._data.dtype:
        return values.astype(t._data.dtype), True
    return values, False


def _roots(tensors: Sequence[Tensor], gradients: Sequence[Any], create_graph: bool) -> list:
    roots = []
    for i, (t, g) in enumerate(zip(tensors, gradients)):
        if not isinstance(t, Tensor):
            raise AutogradError(f"backward needs tensors, got {type(t).__name__}")
        if not t._requires_grad:
            raise AutogradError(
                f"element {i} of tensors does not require grad and does not have a grad_fn",
                hint="backward starts from a value computed from a tensor with requires_grad=True",
                reason="no_grad",
            )
        grad, owned = _root_grad(t, g, i, create_graph)
        roots.append((t.grad_fn if t.grad_fn is not None else accumulator(t), grad, owned))
    return roots


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate the gradients of `tensors` into the .grad of the leaves (torch.autograd.backward)."""
    tensors = _as_list(tensors)
    gradients = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(tensors)
    if len(gradients) != len(tensors):
        raise AutogradError(f"got {len(gradients)} gradients for {len(tensors)} tensors")
    keep_graph = create_graph if retain_graph is None else bool(retain_graph)
    with GradMode(create_graph), np.errstate(all="ignore"):
        roots = _roots(tensors, gradients, create_graph)
        if inputs is None:
            _execute(roots, keep_graph, create_graph)
            return
        targets = _as_list(inputs)
        capture = {_target_node(t): None for t in targets}
        captured = _execute(roots, keep_graph, create_graph, capture)
        for t in targets:
            grad, owned = captured.get(_target_node(t)) or (None, False)
            if grad is None:
                continue
            if t.grad_fn is None:
                accumulator(t).accumulate(grad, owned, create_graph)
            else:
                t._grad = _as_tensor(grad, owned, create_graph) if t._grad is None else t._grad + _as_tensor(
                    grad, False, create_graph)


def _target_node(t: Tensor) -> Any:
    if not isinstance(t, Tensor) or not t._requires_grad:
        raise AutogradError("One of the differentiated Tensors does not require grad", reason="input_no_grad")
    return t.grad_fn if t.grad_fn is not None else accumulator(t)


def _as_tensor(grad: Any, owned: bool, create_graph: bool) -> Tensor:
    if create_graph:
        return grad
    return Tensor._make(grad if owned else np.array(grad, copy=True))


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool = False) -> tuple[Tensor | None, ...]:
    """The gradients of `outputs` with respect to `inputs`, without touching any .grad."""
    outputs = _as_list(outputs)
    gradients = _as_list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    inputs_list = _as_list(inputs)
    keep_graph = create_graph if retain_graph is None else bool(retain_graph)
    with GradMode(create_graph), np.errstate(all="ignore"):
        roots = _roots(outputs, gradients, create_graph)
        nodes = [_target_node(t) for t in inputs_list]
        captured = _execute(roots, keep_graph, create_graph, dict.fromkeys(nodes))
    results: list[Tensor | None] = []
    for node in nodes:
        grad_value, owned = captured.get(node) or (None, False)
        if grad_value is None:
            if not allow_unused:
                raise AutogradError(
                    "One of the differentiated Tensors appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.",
                    reason="unused_input",
                )
            results.append(None)
        else:
            results.append(_as_tensor(grad_value, owned, create_graph))
    return tuple(results)
