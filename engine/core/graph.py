"""The backward graph: as in PyTorch, every recorded operation makes a `Node` (its `grad_fn`), edges point
from a node to the nodes of its inputs (`next_functions`), and a leaf that requires grad is reached
through its one `AccumulateGrad` node. Nodes offer a read-only inspection API (next_nodes, input_shapes,
saved_values); the executor that runs them is executor.py. A node computes its gradients in the vocabulary
it is given (numpy arrays, recorded tensors or SymPy expressions), so the same nodes serve every backend.
"""

from __future__ import annotations

import itertools
import math
import weakref
from typing import Any

import numpy as np

from ..errors import AutogradError
from .optable import Op
from .settings import STATE
from .tensor import Tensor

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

    # (_result_tangent, set only inside forward AD: (level, tangent) of the result the node saves, for create_graph)
    __slots__ = ("__weakref__", "_context", "_freed", "_meta", "_next", "_params", "_plan", "_pre_hooks",
                 "_result_tangent", "_retained", "_saved", "_seq", "op")

    def __init__(self, op: Op, next_nodes: tuple, meta: tuple, params: dict | None, plan: tuple,
                 saved: Any) -> None:
        self.op = op
        self._next = next_nodes  # the node of each input, None where the input needs no grad
        self._meta = meta  # (shape, dtype) of each input, flattened
        self._params = params
        self._plan = plan  # which saved values, as Op.saved_for gives them
        self._saved = saved  # (value, version counter, version when saved) per planned value, flattened
        self._freed = False
        self._seq = next(_sequence)
        self._pre_hooks: list | None = None
        self._retained: list | None = None
        locate = STATE.locate
        self._context = locate() if locate is not None else STATE.forward_context if STATE.anomaly else None

    @classmethod
    def of_values(cls, op: Op, next_nodes: tuple, values: tuple, params: dict | None, result: Any) -> Node:
        """A node recorded on values that are not tensors (SymPy expressions, for `autodiff diff`): they have
        no shape, dtype or version, and the node saves exactly what its formulas read, as for tensors."""
        plan = op.saved_for[tuple(n is not None for n in next_nodes)]
        saved = []
        for name, slot in plan:
            value = result if name == "result" else values[slot] if slot is not None else (params or {})[name]
            saved += (value, None, 0)
        return cls(op, next_nodes, ((), None) * len(next_nodes), params, plan, tuple(saved))

    collects = False  # see custom_function.py: a node the executor runs even without a gradient of its own

    def name(self) -> str:
        """PyTorch's name for this node, e.g. 'MulBackward0'."""
        return self.op.node

    @property
    def next_functions(self) -> tuple:
        """((node, input_nr), ...) per input, (None, 0) for an input that needs no grad (as PyTorch); input_nr is
        which output of that node the input is, for a node with several (multi_output.py)."""
        return tuple(edge(node) for node in self._next)

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
        return tuple(edge(node)[0] for node in self._next)

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

    def saved(self, name: str) -> Any:
        """PyTorch's `grad_fn._saved_NAME`: the input tensor saved as NAME (`self`, `other`: the tensor itself),
        the result (a tensor with this node as its grad_fn) or a parameter (`exponent`, `dim`); None for an
        input the formulas did not need; KeyError for a name this node does not have."""
        names = [n for n, _ in self._plan]
        if name not in names and name not in self.op.inputs and name != "result" and name not in (self._params or {}):
            raise KeyError(name)
        if self._freed:
            raise _second_time_error()
        if name in names:
            return self._context_of(True).__dict__[name]
        if self._params and name in self._params:
            return self._params[name]
        return None

    def __getattr__(self, name: str) -> Any:
        """`grad_fn._saved_self`, `_saved_exponent`, ...: saved(NAME) (called only when Python's lookup fails)."""
        if name.startswith("_saved_"):
            try:
                return self.saved(name[len("_saved_"):])
            except KeyError:
                pass
        raise AttributeError(f"'{self.name()}' object has no attribute '{name}'")

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

    def _context_of(self, create_graph: bool) -> Saved:
        s = Saved()
        if self._params:
            s.__dict__.update(self._params)
        meta = self._meta
        s.input_shape, s.input_dtype, s.input_shapes = meta[0], meta[1], meta[::2]
        saved = self._saved
        if saved is None:
            return s
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
                value = value if create_graph else value._data
            elif name == "result" and create_graph:
                result = Tensor._make(value, self)
                result._version = version
                held = getattr(self, "_result_tangent", None)  # forward-over-reverse: the result's tangent
                if held is not None and held[0] == STATE.forward_level:
                    result._tangent = held
                value = result
            s.__dict__[name] = value  # a name of the op's declared plan (never user text)
        return s

    def apply(self, grad: Any, F: Any) -> list:
        """The gradients for each input (None where an input needs none), each of the input's shape and dtype,
        computed in the vocabulary F (NumpyMath, TensorMath to record them for create_graph, or SymPyMath)."""
        if self._freed:
            raise _second_time_error()
        ctx = None if self.op.blind else self._context_of(F.records)
        outputs = []
        meta = self._meta
        i = 0
        for nxt, formula in zip(self._next, self.op.grads):
            if nxt is None:
                outputs.append(None)
            else:
                g = formula.fn(F, grad, ctx)  # None: no gradient (PyTorch's undefined one: slogdet's sign alone)
                # (an array of the input's shape and dtype already fits: F.fit would return it as it is)
                if g is not None and not (type(g) is np.ndarray and g.shape == meta[i] and g.dtype is meta[i + 1]):
                    g = F.fit(g, meta[i], meta[i + 1])
                outputs.append(g)
            i += 2
        return outputs


class Saved:
    """What a node's formulas read as `s`: its saved values, its parameters and its inputs' shapes and dtypes
    (input_shape, input_dtype, input_shapes), as attributes."""


def edge(node: Any) -> tuple[Any, int]:
    """(node, output number) of an edge to `node`: an output after the first of an op with several outputs is
    reached through its OutputNode (multi_output.py), which stands for (the op's node, the output's number)."""
    return (node, 0) if node is None else getattr(node, "edge", (node, 0))


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

    @property
    def hooks(self) -> list | None:
        """The hooks registered on the leaf (run before its gradient is accumulated)."""
        return self.variable._hooks

    def accumulate(self, grad: Any, owned: bool, F: Any) -> None:
        """Add a gradient (computed in the vocabulary F) into the leaf's .grad."""
        variable = self.variable
        grad, owned = run_hooks(variable._hooks, grad, owned, F)
        current = variable._grad
        if F.records:
            # PyTorch stores a copy of the first gradient (CopyBackwards when it has a graph), then adds out of place
            variable._grad = F.copy_grad(grad) if current is None else current + grad
        elif current is None:
            data = grad if owned and grad.flags.writeable else np.array(grad, copy=True)
            variable._grad = Tensor._make(data)
        elif current._data.flags.writeable:
            np.add(current._data, grad, out=current._data)
            current._bump_version()
        else:  # a gradient kept from a create_graph pass may be a broadcast view: add out of place
            current._data = current._data + grad
            current._bump_version()


class GraphInput:
    """A leaf of a graph recorded on values that are not tensors (`autodiff diff`'s symbols): the executor
    captures the gradient that reaches it."""

    __slots__ = ("__weakref__", "name")
    op = None
    next_functions = ()
    next_nodes = ()
    hooks = None
    _next = ()
    _seq = _ACCUMULATE_PRIORITY

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<GraphInput {self.name}>"


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
    return t._grad_fn if t._grad_fn is not None else accumulator(t)


def graph_size(t: Tensor, most: int | None = None) -> int:
    """The number of nodes in t's backward graph (counting stops past `most`)."""
    start = t._grad_fn
    seen: set[int] = set()
    stack = [start] if start is not None else []
    while stack and (most is None or len(seen) <= most):
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(n for n in node._next if n is not None)
    return len(seen)


def graph_bytes(t: Tensor) -> int:
    """The bytes of the arrays t's backward graph keeps saved (each array counted once): what the graph
    holds in memory beyond its nodes."""
    start = t._grad_fn
    seen: set[int] = set()
    arrays: set[int] = set()
    total = 0
    stack = [start] if start is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        saved = getattr(node, "_saved", None)
        if saved and not getattr(node, "_freed", False):
            for value in saved:
                if isinstance(value, Tensor):
                    value = value._data
                if isinstance(value, np.ndarray) and id(value) not in arrays:
                    arrays.add(id(value))
                    total += value.nbytes
        stack.extend(n for n in node._next if n is not None)
    return total


def edge_node(x: Any) -> Any:
    """The node an operation on x points to: x's grad_fn, its AccumulateGrad, or None (needs no grad)."""
    if isinstance(x, Tensor) and x._requires_grad:
        return x._grad_fn if x._grad_fn is not None else accumulator(x)
    return None


def run_hooks(hooks: list | None, grad: Any, owned: bool, F: Any) -> tuple[Any, bool]:
    """Call each hook with the gradient (as a tensor); a tensor it returns replaces the gradient. A hook may
    also change the gradient in place (g.zero_()), as in PyTorch: it gets a copy of its own to write into."""
    if not hooks:
        return grad, owned
    for hook in list(hooks):
        if not F.records and not (owned and grad.flags.writeable):
            grad, owned = np.array(grad, copy=True), True
        given = F.as_tensor(grad)
        replaced = hook(given)
        if replaced is None:
            grad = F.of_tensor(given)  # (changed in place, maybe)
            continue
        if not isinstance(replaced, Tensor):
            raise AutogradError(f"expected a Tensor, but a hook returned '{type(replaced).__name__}'",
                                hint="a hook returns a tensor of the gradient's shape, or None", reason="hook")
        if replaced.shape != given.shape or replaced.dtype != given.dtype:
            change = "size" if replaced.shape != given.shape else "type"
            raise AutogradError(f"a hook has changed the {change} of value (the gradient is "
                                f"{_described(given)}, the hook returned {_described(replaced)})",
                                hint="a hook returns a tensor of the gradient's shape and dtype, or None",
                                reason="hook")
        grad = F.of_tensor(replaced)
        owned = False
    return grad, owned


def _described(t: Tensor) -> str:
    return f"{t.dtype} of shape {list(t.shape)}"
