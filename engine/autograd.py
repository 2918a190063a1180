"""The backward graph and the engine that runs it.

As in PyTorch: every recorded operation makes a `Node` (its `grad_fn`), edges point from a node to the
nodes of its inputs (`next_functions`), a leaf that requires grad is reached through its one
`AccumulateGrad` node, and backward is an iterative traversal that counts each node's incoming edges
and runs a node only when all of its gradients have arrived (so a value used twice gets the sum once).
"""

from __future__ import annotations

import heapq
import itertools
import math
import weakref
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from . import ops
from .errors import AutogradError
from .modes import GradMode
from .tensor import STATE, Tensor

_sequence = itertools.count()
_ACCUMULATE_PRIORITY = math.inf  # PyTorch runs AccumulateGrad as soon as it is ready


def _second_time_error() -> AutogradError:
    return AutogradError(
        "Trying to backward through the graph a second time (or directly access saved tensors after "
        "they have already been freed). Saved intermediate values of the graph are freed when you call "
        ".backward() or autograd.grad().",
        hint="Specify retain_graph=True on the first backward if you need to backward through the graph "
        "a second time.",
        reason="second_backward",
    )


class Node:
    """A recorded operation in the backward graph (what `tensor.grad_fn` returns)."""

    __slots__ = ("__weakref__", "_context", "_freed", "_meta", "_next", "_params", "_plan", "_pre_hooks",
                 "_retained", "_saved", "_seq", "op")

    def __init__(self, op: ops.Op, next_nodes: tuple, meta: tuple, params: dict | None, plan: tuple,
                 saved: Any) -> None:
        self.op = op
        self._next = next_nodes  # the node of each input, None where the input needs no grad
        self._meta = meta  # (shape, dtype) of each input, flattened
        self._params = params
        self._plan = plan  # which saved values, as ops.Op.saved_for gives them
        self._saved = saved  # (value, version counter, version when saved) per planned value, flattened
        self._freed = False
        self._seq = next(_sequence)
        self._pre_hooks: list | None = None
        self._retained: list | None = None
        self._context = STATE.forward_context if STATE.anomaly else None

    def name(self) -> str:
        """PyTorch's name for this node, e.g. 'MulBackward0'."""
        return self.op.node

    @property
    def next_functions(self) -> tuple:
        """((node, input_nr), ...) per input, (None, 0) for an input that needs no grad (as PyTorch)."""
        return tuple((node, 0) for node in self._next)

    def __repr__(self) -> str:
        return f"<{self.op.node} object at {id(self):#x}>"

    @property
    def metadata(self) -> dict:
        """Where the node was created (set in anomaly mode), as PyTorch's node.metadata."""
        return {} if self._context is None else {"context": self._context}

    # ------------------------------------------------------------ inspection (public, read-only)
    @property
    def next_nodes(self) -> tuple:
        """The node of each input, None where the input needs no grad."""
        return self._next

    @property
    def input_shapes(self) -> tuple:
        """The shape of each input, as recorded in the forward pass."""
        return self._meta[::2]

    @property
    def is_freed(self) -> bool:
        """True once a backward pass without retain_graph has freed the saved values."""
        return self._freed

    def saved_values(self) -> dict[str, Any] | None:
        """The values the backward formulas read (saved arrays, parameters, input shapes and dtypes), as
        numpy arrays and plain values; None once they are freed."""
        if self._freed:
            return None
        return dict(vars(self._context_of(False)))

    def _retain(self, tensor: Tensor) -> None:
        if self._retained is None:
            self._retained = []
        self._retained.append(weakref.ref(tensor))

    def _save_result(self, result: Tensor) -> None:
        """Fill the `result` entry (kept as its array and counter, so the node does not own the tensor)."""
        at = 3 * [name for name, _ in self._plan].index("result")
        counter = result._counter()
        self._saved[at:at + 3] = (result._data, counter, counter.value)
        self._saved = tuple(self._saved)

    def release(self) -> None:
        """Free the saved values (what backward does unless retain_graph)."""
        if self._saved:
            self._saved = None
            self._freed = True

    def _context_of(self, create_graph: bool) -> SimpleNamespace:
        values: dict[str, Any] = dict(self._params) if self._params else {}
        values["input_shape"], values["input_dtype"] = self._meta[0], self._meta[1]
        values["input_shapes"] = self._meta[::2]
        saved = self._saved
        for i, (name, _) in enumerate(self._plan):
            value, version, expected = saved[3 * i], saved[3 * i + 1], saved[3 * i + 2]
            if version is not None and version.value != expected:
                raise AutogradError(
                    "one of the variables needed for gradient computation has been modified by an "
                    f"inplace operation: [{np.dtype(value.dtype).name} {list(value.shape)}], which is {name} "
                    f"of {self.name()}, is at version {version.value}; expected version {expected} instead.",
                    hint="compute it again after the in-place write, or write into a clone",
                    reason="modified_inplace",
                )
            if isinstance(value, Tensor):
                values[name] = value if create_graph else value._data
            elif name == "result" and create_graph:
                result = Tensor._make(value, self)
                result._version = version
                values[name] = result
            else:
                values[name] = value
        return SimpleNamespace(**values)

    def apply(self, grad: Any, create_graph: bool) -> list:
        """The gradients for each input (None where an input needs none), each of the input's shape."""
        if self._freed:
            raise _second_time_error()
        F = ops.TensorMath if create_graph else ops.NumpyMath
        ctx = self._context_of(create_graph)
        outputs = []
        meta = self._meta
        for i, (nxt, formula) in enumerate(zip(self._next, self.op.grads)):
            if nxt is None:
                outputs.append(None)
                continue
            g = formula.fn(F, grad, ctx)
            shape, dtype = meta[2 * i], meta[2 * i + 1]
            if g.shape != shape:
                g = F.sum_to(g, shape)
            if g.dtype != dtype:
                g = _cast(g, dtype)
            outputs.append(g)
        return outputs


def _cast(g: Any, dtype: np.dtype) -> Any:
    if isinstance(g, Tensor):
        from .functions import to

        return to(g, dtype)
    return g.astype(dtype)


class AccumulateGrad:
    """The node of a leaf that requires grad: adds the incoming gradient into `variable.grad`."""

    __slots__ = ("__weakref__", "variable")
    op = None
    next_functions = ()
    next_nodes = ()
    input_shapes = ()
    is_freed = False
    _next = ()
    _seq = _ACCUMULATE_PRIORITY

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable

    def name(self) -> str:
        return "AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"

    @property
    def metadata(self) -> dict:
        return {}

    def saved_values(self) -> dict[str, Any]:
        """An AccumulateGrad saves nothing."""
        return {}

    def accumulate(self, grad: Any, owned: bool, create_graph: bool) -> None:
        variable = self.variable
        grad, owned = _run_hooks(variable._hooks, grad, owned, create_graph)
        current = variable._grad
        if create_graph:
            variable._grad = grad if current is None else current + grad
        elif current is None:
            data = grad if owned and grad.flags.writeable else np.array(grad, copy=True)
            variable._grad = Tensor._make(data)
        else:
            np.add(current._data, grad, out=current._data)
            current._bump_version()


def accumulator(t: Tensor) -> AccumulateGrad:
    """The one AccumulateGrad node of a leaf (held weakly, as PyTorch does, by the tensor)."""
    ref = t._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(t)
        t._accumulator = weakref.ref(node)
    return node


def grad_node(t: Tensor) -> Any:
    """Where backward enters t: its grad_fn, or for a leaf that requires grad its AccumulateGrad node."""
    return t.grad_fn if t.grad_fn is not None else accumulator(t)


def graph_size(t: Tensor, most: int | None = None) -> int:
    """The number of nodes in t's backward graph (counting stops past `most`)."""
    start = t.grad_fn
    seen: set[int] = set()
    stack = [start] if start is not None else []
    while stack and (most is None or len(seen) <= most):
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(n for n in node._next if n is not None)
    return len(seen)


def edge_node(x: Any) -> Any:
    """The node an operation on x points to: x's grad_fn, its AccumulateGrad, or None (needs no grad)."""
    if isinstance(x, Tensor) and x._requires_grad:
        return x.grad_fn if x.grad_fn is not None else accumulator(x)
    return None


def _run_hooks(hooks: list | None, grad: Any, owned: bool, create_graph: bool) -> tuple[Any, bool]:
    if not hooks:
        return grad, owned
    for hook in list(hooks):
        wrapped = grad if create_graph else Tensor._make(grad)
        replaced = hook(wrapped)
        if replaced is not None:
            if not isinstance(replaced, Tensor):
                raise AutogradError(f"a hook returned {type(replaced).__name__}; it must return a Tensor or None")
            grad = replaced if create_graph else replaced._data
            owned = False
    return grad, owned


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
    dependencies: dict[Any, int] = {}
    stack = [node for node, _, _ in roots]
    seen = set(stack)
    while stack:
        node = stack.pop()
        for nxt in node._next:
            if nxt is not None:
                dependencies[nxt] = dependencies.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)

    needed = None
    if capture is not None:
        needed = _ancestors(seen, capture)

    buffers: dict[Any, list] = {}
    for node, grad, owned in roots:
        _add_to_buffer(buffers, node, grad, owned, create_graph)
    ready: list = []
    tie = itertools.count()
    for node in buffers:
        if dependencies.get(node, 0) == 0:
            heapq.heappush(ready, (-node._seq, next(tie), node))

    anomaly = STATE.anomaly
    observer = STATE.observer
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
        outputs = node.apply(grad, create_graph) if grad is not None else [None] * len(node._next)
        if observer is not None:
            observer(node, grad, outputs)
        if anomaly:
            _check_nan(node, outputs)
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
        if not keep_graph:
            node.release()
        # Drop this step's arrays now, not when the next step rebinds the names: the next node's
        # gradients would otherwise be computed while these are still alive (a higher memory peak).
        grad = outputs = emitted = g = None
    return capture or {}


def _add_to_buffer(buffers: dict, node: Any, grad: Any, owned: bool, create_graph: bool) -> None:
    entry = buffers.get(node)
    if entry is None:
        buffers[node] = [grad, owned]
    elif create_graph:
        entry[0] = entry[0] + grad
    elif entry[1]:
        np.add(entry[0], grad, out=entry[0])
    else:
        entry[0] = np.asarray(entry[0] + grad)  # numpy gives a scalar for 0-d operands: keep an array
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
        from .functions import _array_from

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
        return (_cast(grad, t._data.dtype) if grad.dtype != t._data.dtype else grad), False
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
