"""Custom autograd Functions, as `torch.autograd.Function` has them: `apply_function` runs a forward without
recording (its ctx collects what backward needs), then records one node for the outputs, named as PyTorch
names it (`ExpBackward` for a class `Exp`), whose backward is the caller's function. Gradients reach it as
tensors (recorded when the pass has create_graph=True, so double backward works through backward's own
operations), and it returns one gradient per forward input, checked and summed to the input's shape.

A Function with several outputs records one node; outputs after the first reach it through a relay node
each (PyTorch keeps an output number on each edge instead), which hands its gradient over to the node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import AutogradError, BadValueError
from ..kernels.arrays import sum_to
from ..transforms.dual_tensors import set_tangent, tangent_of
from .graph import Node, accumulator
from .modes import GradMode
from .optable import Op
from .settings import STATE
from .tensor import Tensor

_CUSTOM = Op("custom_function", "CustomFunctionBackward", (), None, ())


class FunctionCtx:
    """The `ctx` of a custom Function: what forward saves for backward, and facts about the call."""

    # (no __slots__: a Function's forward stores what it likes on ctx, ctx.constant = 2, as in PyTorch)

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self.to_save: tuple | None = None  # (tensor, version counter, version) per saved tensor
        self.non_differentiable: list[Tensor] = []
        self.dirty: list[Tensor] = []
        self.materialize_grads = True
        self.node: CustomNode | None = None

    def save_for_backward(self, *tensors: Any) -> None:
        saved = []
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise BadValueError("save_for_backward can only save variables, but argument "
                                    f"{len(saved)} is not a Variable ({type(t).__name__})",
                                    hint="store other values on ctx itself: ctx.value = ...", reason="arguments")
            saved.append(None if t is None else (t, t._counter(), t._counter().value))
        self.to_save = tuple(saved)

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self.non_differentiable.extend(tensors)

    def mark_dirty(self, *tensors: Tensor) -> None:
        self.dirty.extend(tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self) -> tuple:
        if self.node is not None and self.node.is_freed:
            raise AutogradError(
                "Trying to backward through the graph a second time (or directly access saved tensors after "
                "they have already been freed). Saved intermediate values of the graph are freed when you call "
                ".backward() or autograd.grad().",
                hint="Specify retain_graph=True on the first backward if you need to backward through the graph "
                "a second time.", reason="second_backward")
        out = []
        for entry in self.to_save or ():
            if entry is None:
                out.append(None)
                continue
            t, counter, version = entry
            if counter.value != version:
                raise AutogradError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{t.dtype.name} {list(t.shape)}] is at version {counter.value}; expected version "
                    f"{version} instead.", reason="modified_inplace")
            out.append(t)
        return tuple(out)


class CustomNode(Node):
    """The node of a custom Function's outputs: its backward is the caller's function."""

    __slots__ = ("backward", "ctx", "label", "outputs", "pending")

    collects = True  # the executor runs it even when only relays delivered (see executor._call)

    def __init__(self, label: str, backward: Callable[..., Any], ctx: FunctionCtx, next_nodes: tuple,
                 meta: tuple, outputs: tuple) -> None:
        super().__init__(_CUSTOM, next_nodes, meta, None, (), None)
        self.label, self.backward, self.ctx = label, backward, ctx
        self.outputs = outputs  # (shape, dtype) of each output, None for one that is not a tensor
        self.pending: dict[int, Any] = {}  # gradients relays handed over, by output number

    def name(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.label} object at {id(self):#x}>"

    def release(self) -> None:
        self._saved = None
        self._freed = True

    def saved_values(self) -> dict[str, Any] | None:
        return None if self._freed else {}

    def apply(self, grad: Any, F: Any) -> list:
        if grad is None and not self.pending:
            return [None] * len(self._next)
        if self._freed and self.ctx.to_save:
            self.ctx.saved_tensors  # noqa: B018 - raises the second-time error
        grads = [grad, *(self.pending.pop(i, None) for i in range(1, len(self.outputs)))]
        self.pending = {}
        tensors = [self._incoming(g, i, F) for i, g in enumerate(grads)]
        returned = self.backward(self.ctx, *tensors)
        returned = returned if isinstance(returned, tuple) else (returned,)
        return self._outgoing(returned, F)

    def _incoming(self, g: Any, index: int, F: Any) -> Any:
        if g is not None:
            return F.as_tensor(g)
        if self.outputs[index] is None or not self.ctx.materialize_grads:
            return None
        shape, dtype = self.outputs[index]
        zeros = np.zeros(shape, dtype=dtype)
        return Tensor._make(zeros)

    def _outgoing(self, returned: tuple, F: Any) -> list:
        count = len(self._next)
        if len(returned) < count or any(r is not None for r in returned[count:]):
            raise AutogradError(f"function {self.label} returned an incorrect number of gradients (expected "
                                f"{count}, got {len(returned)})", reason="custom_function")
        out = []
        for i, (nxt, g) in enumerate(zip(self._next, returned)):
            if nxt is None or g is None:
                out.append(None)
                continue
            if not isinstance(g, Tensor):
                raise AutogradError(f"function {self.label} returned a gradient different than None at position "
                                    f"{i + 1}, but the corresponding forward input was not a Variable",
                                    reason="custom_function")
            shape, dtype = self._meta[2 * i], self._meta[2 * i + 1]
            if tuple(g.shape) != shape:
                try:
                    np.broadcast_shapes(shape, tuple(g.shape))
                    sum_to(np.empty(g.shape, dtype=np.bool_), shape)
                except ValueError:
                    raise AutogradError(f"Function {self.label} returned an invalid gradient at index {i} - got "
                                        f"{list(g.shape)} but expected shape compatible with {list(shape)}",
                                        reason="custom_function") from None
            out.append(F.fit(F.of_tensor(g), shape, dtype))
        return out


class RelayNode(Node):
    """Output number `index` (> 0) of a custom Function with several outputs: hands its gradient to the node."""

    __slots__ = ("index", "owner")

    def __init__(self, owner: CustomNode, index: int) -> None:
        super().__init__(_CUSTOM, (owner,), ((), None), None, (), None)
        self.owner, self.index = owner, index

    def name(self) -> str:
        return self.owner.label

    def __repr__(self) -> str:
        return repr(self.owner)

    @property
    def next_functions(self) -> tuple:
        return self.owner.next_functions

    def release(self) -> None:
        pass

    def apply(self, grad: Any, F: Any) -> list:
        pending = self.owner.pending
        pending[self.index] = grad if self.index not in pending else pending[self.index] + grad
        return [None]


def apply_function(label: str, forward: Callable[..., Any], backward: Callable[..., Any], args: tuple,
                   kwargs: dict, setup_context: Callable[..., Any] | None = None,
                   jvp: Callable[..., Any] | None = None) -> Any:
    """`MyFunction.apply(*args)`: forward without recording (and without forward AD: the Function's own `jvp` gives
    its outputs' tangents), then one node named `label` for its outputs."""
    needs = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    ctx = FunctionCtx(needs)
    level, STATE.forward_level = STATE.forward_level, 0
    try:
        with GradMode(False):
            if setup_context is None:
                result = forward(ctx, *args, **kwargs)
            else:
                result = forward(*args, **kwargs)
                setup_context(ctx, args, result)
    finally:
        STATE.forward_level = level
    several = isinstance(result, tuple)
    outputs = list(result) if several else [result]
    dual = level and any(tangent_of(a) is not None for a in args)
    if dual and jvp is None:
        raise AutogradError("You must implement the jvp function for custom autograd.Function to use it with forward "
                            "mode AD.", hint="define @staticmethod def jvp(ctx, *tangents) returning the outputs' "
                            "tangents", reason="forward_ad")
    if not (any(needs) and STATE.grad_enabled):
        if dual:
            outputs = [_fresh_output(o, args) for o in outputs]
            _forward_tangents(ctx, jvp, args, outputs)
            return tuple(outputs) if several else outputs[0]
        return result
    outputs = [_fresh_output(o, args) for o in outputs]
    next_nodes, meta = [], []
    for a, need in zip(args, needs):
        next_nodes.append((a._grad_fn if a._grad_fn is not None else accumulator(a)) if need else None)
        meta += (tuple(a.shape), a.dtype) if need else (None, None)
    shapes = tuple((tuple(o.shape), o.dtype) if isinstance(o, Tensor) else None for o in outputs)
    node = CustomNode(label, backward, ctx, tuple(next_nodes), tuple(meta), shapes)
    ctx.node = node
    excluded = {id(t) for t in ctx.non_differentiable}
    for i, o in enumerate(outputs):
        if isinstance(o, Tensor) and id(o) not in excluded and o.dtype.kind == "f":
            o._grad_fn = node if i == 0 else RelayNode(node, i)
            o._requires_grad = True
    if dual:  # after the node: what jvp computes from the outputs is recorded, as in PyTorch
        _forward_tangents(ctx, jvp, args, outputs)
    return tuple(outputs) if several else outputs[0]


def _forward_tangents(ctx: FunctionCtx, jvp: Callable[..., Any] | None, args: tuple, outputs: list) -> None:
    """The outputs' tangents, from the Function's jvp(ctx, *input tangents) (zeros for a tensor without one)."""
    tangents = [(tangent_of(a) if tangent_of(a) is not None else Tensor._make(np.zeros_like(a._data)))
                if isinstance(a, Tensor) else None for a in args]
    level, STATE.forward_level = STATE.forward_level, 0
    try:
        found = jvp(ctx, *tangents)
    finally:
        STATE.forward_level = level
    found = list(found) if isinstance(found, tuple) else [found]
    for output, tangent in zip(outputs, found):
        if isinstance(output, Tensor) and isinstance(tangent, Tensor):
            set_tangent(output, tangent)


def _fresh_output(output: Any, args: tuple) -> Any:
    """An output that is one of the inputs (returned as it is) becomes a new tensor on the same memory."""
    if isinstance(output, Tensor) and (any(output is a for a in args) or output._grad_fn is not None):
        alias = Tensor._make(output._data)
        alias._version = output._counter()
        return alias
    return output


class DelayedError(Node):
    """The node of a gradient computed by a backward marked @once_differentiable: differentiating it again fails."""

    __slots__ = ()

    def __init__(self, next_nodes: tuple) -> None:
        super().__init__(_CUSTOM, next_nodes, ((), None) * len(next_nodes), None, (), None)

    def name(self) -> str:
        return "DelayedError"

    def __repr__(self) -> str:
        return f"<DelayedError object at {id(self):#x}>"

    def release(self) -> None:
        pass

    def apply(self, grad: Any, F: Any) -> list:
        raise AutogradError("trying to differentiate twice a function that was marked with @once_differentiable",
                            reason="once_differentiable")


def once_differentiable(backward: Callable[..., Any]) -> Callable[..., Any]:
    """torch.autograd.function.once_differentiable: backward runs without recording; when the pass records
    (create_graph=True), its gradients get a node that refuses to be differentiated."""

    def wrapper(ctx: Any, *grads: Any) -> Any:
        with GradMode(False):
            result = backward(ctx, *grads)
        if not STATE.grad_enabled:
            return result
        inputs = [g for g in grads if isinstance(g, Tensor) and g.requires_grad]
        if not inputs:
            return result
        nodes = tuple(g._grad_fn if g._grad_fn is not None else accumulator(g) for g in inputs)
        several = isinstance(result, tuple)
        outs = []
        for r in (result if several else (result,)):
            if isinstance(r, Tensor):
                r = Tensor._make(r._data, DelayedError(nodes))
            outs.append(r)
        return tuple(outs) if several else outs[0]

    return wrapper
