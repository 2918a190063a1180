"""Forward-mode AD, as torch.autograd.forward_ad gives it: inside `dual_level()`, `make_dual(primal, tangent)`
makes a dual tensor, every op then computes its result's tangent from its inputs' tangents by the op's
forward formula (`Op.jvp`: a formula, or one of the rules of optable.py), and `unpack_dual` reads the
tangent back. Leaving the level drops every tangent made in it. One level at a time, as in PyTorch.

Tangents are computed on arrays (NumpyMath) unless grad mode is on and an input or a tangent requires grad:
then they are computed on tensors in the recording vocabulary (tangent_graph.py), so that a tangent has a
grad_fn and backward through it works (forward-over-reverse), as in PyTorch.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np

from ..core.optable import BILINEAR_JVP, ELEMENTWISE_JVP, LINEAR_JVP, REDUCTION_JVP, Op
from ..core.recording import apply
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..core.vocabulary import NumpyMath
from ..errors import AutogradError, BadValueError, NotImplementedAutogradError, ShapeError
from ..ops.indexing import setitem
from ..ops.shapes import view
from .dual_tensors import set_tangent, tangent_of
from .tangent_graph import PRIMAL, graph_tangent, needs_graph
from .tangent_writes import write as _tangent_write  # noqa: F401  (registers the recorded writes)

_levels = itertools.count(1)


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal and the tangent (None when the tensor has none at this level)."""

    primal: Tensor
    tangent: Tensor | None


def enter_dual_level() -> int:
    """Start a level of forward AD (one at a time, as in PyTorch); its number."""
    if STATE.forward_level:
        raise AutogradError("Nested forward mode AD is not supported at the moment", reason="forward_ad")
    STATE.forward_level = next(_levels)
    return STATE.forward_level


def exit_dual_level(*, level: int | None = None) -> None:
    """End the level: every tangent made in it is gone."""
    if not STATE.forward_level or (level is not None and level != STATE.forward_level):
        raise AutogradError("Trying to exit a forward AD level that was not the last one that was created. "
                            "This is not supported.", reason="forward_ad")
    STATE.forward_level = 0


class dual_level:
    """`with dual_level():` the level inside which dual tensors live."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: object) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of `tensor` (ViewBackward0 when it requires grad) carrying `tangent` at the current level."""
    if not STATE.forward_level:
        raise AutogradError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                            "enter_dual_level() first.", reason="forward_ad")
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise BadValueError("make_dual(tensor, tangent): both must be tensors", reason="arguments")
    if tangent.dtype.kind != "f":
        raise BadValueError(f"Expected tangent to be floating point or complex, but got: torch.{tangent.dtype.name}",
                            reason="forward_ad")
    if tangent.shape != tensor.shape:
        raise ShapeError("Trying to set a forward gradient that has a different size than that of the original "
                         f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                         f"forward gradient is of size {list(tangent.shape)}.", reason="forward_ad")
    if tangent._data.strides != tensor._data.strides:  # another layout: its values copied into the primal's
        tangent = _relaid(tangent, tensor)
    dual = view(tensor, tuple(tensor.shape))
    set_tangent(dual, tangent)
    return dual


def _relaid(tangent: Tensor, tensor: Tensor) -> Tensor:
    """The tangent copied into a tensor of the primal's layout; the copy recorded (CopyBackwards, as PyTorch's
    copy_) when the tangent requires grad, so that backward through the result's tangent reaches it."""
    copied = Tensor._make(np.empty_like(tensor._data, dtype=tangent.dtype))
    if not (STATE.grad_enabled and tangent.requires_grad):
        copied._data[...] = tangent._data
        return copied
    level, STATE.forward_level = STATE.forward_level, 0
    try:
        setitem(copied, Ellipsis, tangent)
    finally:
        STATE.forward_level = level
    return copied


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """The primal and the tangent of a tensor: inside a level the primal is a view without the tangent
    (recorded as Identity), outside one the tensor itself."""
    if not isinstance(tensor, Tensor):
        raise BadValueError("unpack_dual(tensor): a tensor is needed", reason="arguments")
    tangent = tangent_of(tensor)
    if not STATE.forward_level:
        return UnpackedDualTensor(tensor, None)
    level_now, STATE.forward_level = STATE.forward_level, 0
    try:
        primal = apply(PRIMAL, (tensor,))
    finally:
        STATE.forward_level = level_now
    return UnpackedDualTensor(primal, tangent)


# ---------------------------------------------------------------------------- the tangent of an op's result
def record_tangent(op: Op, inputs: Sequence[Any], values: Sequence[Any], params: dict | None, result: Any) -> None:
    """Give `result` its tangent when an input has one (recording.apply calls this inside a level); an op with
    several outputs gives each of its results (a tuple) its own."""
    tangents = [tangent_of(x) for x in inputs]
    if all(t is None for t in tangents):
        return
    if op.jvp is None:
        raise NotImplementedAutogradError(
            f"Trying to use forward AD with {op.name} that does not support it because it has not been implemented "
            "yet.", hint="compute this derivative in reverse mode (backward or torch.autograd.functional.jvp)",
            reason="forward_ad")
    params = params or {}
    if needs_graph(op, inputs, tangents):
        found = graph_tangent(op, inputs, values, tangents, params, result)
        _set_tangents(op, result, found)
        return
    arrays = [t._data if t is not None else None for t in tangents]
    if op.outputs or op.several:
        with np.errstate(all="ignore"):
            found = _rule(op, list(values), arrays, params, tuple(r._data for r in result))
        _set_tangents(op, result, [Tensor._make(np.array(np.broadcast_to(np.asarray(out).astype(
            r._data.dtype, copy=False), r._data.shape), order="C")) for r, out in zip(result, found)])
        return
    with np.errstate(all="ignore"):
        out = _rule(op, list(values), arrays, params, result._data)
    if out is None:  # a formula whose tangent is undefined (scatter_reduce's prod): the result is not dual
        return
    out = np.asarray(out)
    if not (op.view and out.shape == result._data.shape and out.dtype == result._data.dtype):
        out = np.array(np.broadcast_to(out.astype(result._data.dtype, copy=False), result._data.shape), order="C")
    _set_tangents(op, result, Tensor._make(out))  # a view's tangent is the same view of its input's tangent


def _set_tangents(op: Op, result: Any, found: Any) -> None:
    """Give the result (each result of an op with several outputs) its tangent; a node that saves its result
    keeps the result's tangent too (for create_graph backward inside the level)."""
    if op.outputs or op.several:
        for r, tangent in zip(result, found):
            set_tangent(r, tangent)
        node = result[0]._grad_fn
        if node is not None and any(name in op.outputs for name, _ in node._plan):
            node._result_tangent = tuple(r._tangent for r in result)  # the saved outputs' tangents: create_graph
        return
    set_tangent(result, found)
    if result._grad_fn is not None and any(name == "result" for name, _ in result._grad_fn._plan):
        result._grad_fn._result_tangent = result._tangent  # the node saves the result's values: and its tangent


def _rule(op: Op, values: list, tangents: list, params: dict, out: np.ndarray) -> Any:
    rule, F = op.jvp, NumpyMath
    if rule == LINEAR_JVP:
        return op.forward(*_filled(values, tangents), **params)
    if rule == BILINEAR_JVP:
        parts = [op.forward(*(t if j == i else v for j, v in enumerate(values)), **params)
                 for i, t in enumerate(tangents) if t is not None]
        return _total(parts)
    s = _saved(op, values, params, out)
    if rule == ELEMENTWISE_JVP:
        # each formula gives its input's contribution at every output element: not summed to the input's shape
        s.input_shapes, s.input_shape = (out.shape,) * len(values), out.shape
        return _total([grad.fn(F, np.broadcast_to(t, out.shape), s)
                       for grad, t in zip(op.grads, tangents) if t is not None])
    if rule == REDUCTION_JVP:
        ones = np.ones(out.shape, dtype=out.dtype)
        slopes = [(grad.fn(F, ones, s), t) for grad, t in zip(op.grads, tangents) if t is not None]
        parts = [np.asarray(slope) * t for slope, t in slopes if slope is not None]  # None: an undefined gradient
        if not parts:  # (norm with p = 0): its tangent is zero
            return np.zeros(out.shape, dtype=out.dtype)
        total = _total(parts)
        if total.shape == out.shape:  # nothing reduced (a loss with reduction='none')
            return total
        if "dim" not in params or params["dim"] is None:
            return np.sum(total).reshape(out.shape)
        return np.sum(total, axis=params["dim"], keepdims=bool(params.get("keepdim"))).reshape(out.shape)
    t = SimpleNamespace(**dict(zip(op.inputs, _filled(values, tangents))))
    return rule(F, t, s)


def _filled(values: list, tangents: list) -> list:
    """Each input's tangent, zeros for a tensor input without one (a number or an index stays itself)."""
    return [t if t is not None else np.zeros_like(v) if _is_float_array(v) else v for v, t in zip(values, tangents)]


def _is_float_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _total(parts: list) -> Any:
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _saved(op: Op, values: list, params: dict, out: np.ndarray) -> SimpleNamespace:
    """What a formula reads of `s`: the inputs by slot name, the result, the parameters, the input shapes."""
    first = values[0] if values else None
    shapes = tuple(np.shape(v) for v in values)
    outputs = dict(zip(op.outputs, out)) if op.outputs else {}
    return SimpleNamespace(**params, **dict(zip(op.inputs, values)), **outputs, result=out,
                           input_shape=np.shape(first), input_dtype=getattr(first, "dtype", None), input_shapes=shapes)


STATE.tangent_rule = record_tangent

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]
