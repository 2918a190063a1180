"""The node of an op with several differentiable outputs (var_mean, slogdet, eigh, svd; Op.outputs), as PyTorch
records one: one node for all of them, and an edge to it knows which output it came from (next_functions gives
(node, output number)). The first output's grad_fn is the node itself; each later output's is an OutputNode that
hands its gradient over to the node (the executor runs it first: it is the node's only way in), and that stands
for (the node, its number) everywhere the graph is inspected. The node runs once every output's gradient is in,
its formulas getting them as a tuple (None for an output no gradient reached)."""

from __future__ import annotations

import weakref
from typing import Any

from .graph import Node, Saved
from .settings import STATE
from .tensor import Tensor


class MultiNode(Node):
    """The one node of an op's several outputs."""

    __slots__ = ("count", "pending", "relays")

    collects = True  # the executor runs it even when only its later outputs delivered gradients

    def __init__(self, op: Any, next_nodes: tuple, meta: tuple, params: dict | None, plan: tuple, saved: Any) -> None:
        super().__init__(op, next_nodes, meta, params, plan, saved)
        self.pending: dict[int, Any] = {}  # the gradients of outputs 1.. handed over, by output number
        self.relays: dict[int, Any] = {}  # output number -> weak reference to its OutputNode
        self.count = len(op.outputs)  # how many outputs (recording sets it for an op with `several`)

    def output_node(self, index: int) -> Node:
        """The grad_fn of output number `index`: the node itself for the first, else its OutputNode."""
        if index == 0:
            return self
        ref = self.relays.get(index)
        node = ref() if ref is not None else None
        if node is None:
            node = OutputNode(self, index)
            self.relays[index] = weakref.ref(node)
        return node

    def apply(self, grad: Any, F: Any) -> list:
        grads = (grad, *(self.pending.pop(i, None) for i in range(1, self.count)))
        self.pending = {}
        if all(g is None for g in grads):
            return [None] * len(self._next)
        return super().apply(grads, F)

    def _context_of(self, create_graph: bool) -> Saved:
        """The saved values; with create_graph the saved outputs as tensors of this node (so the gradient's
        own graph reaches back through them, as PyTorch's saved results do)."""
        ctx = super()._context_of(create_graph)
        if create_graph:
            saved = self._saved
            held = getattr(self, "_result_tangent", None)  # forward-over-reverse: the outputs' tangents
            for i, (name, _) in enumerate(self._plan):
                if name in self.op.outputs:
                    index = self.op.outputs.index(name)
                    output = Tensor._make(saved[3 * i], self.output_node(index))
                    output._version = saved[3 * i + 1]
                    if held is not None and held[index] is not None and held[index][0] == STATE.forward_level:
                        output._tangent = held[index]
                    setattr(ctx, name, output)
        return ctx


class OutputNode(Node):
    """The grad_fn of a later output of an op with several: its gradient goes to the op's node, and it shows as
    that node (name, repr, next_functions); an edge to it is (the node, the output's number)."""

    __slots__ = ("index", "owner")

    def __init__(self, owner: MultiNode, index: int) -> None:
        super().__init__(owner.op, (owner,), ((), None), None, (), None)
        self.owner, self.index = owner, index

    @property
    def edge(self) -> tuple[Node, int]:
        return self.owner, self.index

    def __repr__(self) -> str:
        return repr(self.owner)

    @property
    def next_functions(self) -> tuple:
        return self.owner.next_functions

    @property
    def next_nodes(self) -> tuple:
        return self.owner.next_nodes

    @property
    def input_shapes(self) -> tuple:
        return self.owner.input_shapes

    @property
    def is_freed(self) -> bool:
        return self.owner.is_freed

    @property
    def metadata(self) -> dict:
        return self.owner.metadata

    def saved_values(self) -> dict[str, Any] | None:
        return self.owner.saved_values()

    def saved(self, name: str) -> Any:
        return self.owner.saved(name)

    def release(self) -> None:
        pass

    def apply(self, grad: Any, F: Any) -> list:
        pending = self.owner.pending
        pending[self.index] = grad if self.index not in pending else pending[self.index] + grad
        return [None]
