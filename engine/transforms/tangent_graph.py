"""Forward-over-reverse: a tangent that records its own graph. When grad mode is on and an op's input or an
input's tangent requires grad, the op's forward formula is computed in the recording vocabulary (TensorMath,
the one create_graph backward uses) on tensors: the primals (each input that requires grad seen through
PyTorch's `_fw_primal` view, recorded as Identity), the result, and the tangents. The tangent then has a
grad_fn, and backward through it differentiates the tangent with respect to the primals and the tangents, as
PyTorch's. Without anything requiring grad, forward_ad.py computes tangents on plain arrays (NumpyMath) instead.

An op whose forward formula is written with numpy's functions (NUMPY_RULES: np.trace, a kernel of arrays) gets
its tangent by reverse mode instead: the op's backward formulas, recorded, give the vector-Jacobian product
vjp(u) for a placeholder u; <vjp(u), t> is linear in u, so its gradient in u (create_graph) is the tangent J t,
recorded as the backward of the backward formulas (other node names than PyTorch's formulas, the same values
and gradients)."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..core.autograd import grad as gradients
from ..core.optable import BILINEAR_JVP, ELEMENTWISE_JVP, KEPT, LINEAR_JVP, REDUCTION_JVP, Grad, Op, declare
from ..core.recording import apply
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..core.tensormath import TensorMath
from ..ops.shapes import expand, reshape, to

# unpack_dual's primal, and a formula's view of a primal input (PyTorch's _fw_primal): the same values, without
# the tangent (a view PyTorch names Identity)
PRIMAL = declare(Op("unpack_dual", "Identity", ("self",), lambda x: x.view(), (Grad(lambda F, g, s: g, "grad"),),
                    "the primal of a dual tensor", view=True, jvp=LINEAR_JVP, integers=KEPT))

# Ops whose forward formula is written on numpy arrays (np.trace, np.where on values, a kernel of arrays): with
# something requiring grad, their tangent is found by reverse mode (_by_reverse).
NUMPY_RULES = frozenset({"cumprod", "logcumsumexp", "det", "solve", "slogdet", "convolution", "var_mean", "std_mean",
                         "pinv", "eigh", "svd", "constant_pad_nd", "smooth_l1_loss_backward", "huber_loss_backward",
                         "mse_loss_backward"})


def needs_graph(op: Op, inputs: Sequence[Any], tangents: Sequence[Any]) -> bool:
    """True when the tangent of op's result must record a graph: grad mode on, and an input or a tangent
    requires grad (and the op's formula can be computed on tensors)."""
    if not STATE.grad_enabled:
        return False
    return (any(isinstance(x, Tensor) and x._requires_grad for x in inputs)
            or any(t is not None and t._requires_grad for t in tangents))


def graph_tangent(op: Op, inputs: Sequence[Any], values: Sequence[Any], tangents: Sequence[Any],
                  params: dict, result: Any) -> Any:
    """The tangent of op's result (a tuple of them for an op with several outputs), computed on tensors with
    the forward level closed (the formula's own ops carry no tangents)."""
    level, STATE.forward_level = STATE.forward_level, 0
    try:
        primals = [_primal(x, v) for x, v in zip(inputs, values)]
        filled = [_zeros(v) if t is None and _is_float_array(v) else t for v, t in zip(values, tangents)]
        found = _rule(op, primals, filled, params, result)
        if found is None:  # an undefined tangent (scatter_reduce's prod)
            return None
        if op.outputs or op.several:
            return tuple(_fitted(f, r) for f, r in zip(found, result))
        return _fitted(found, result)
    finally:
        STATE.forward_level = level


def _primal(x: Any, value: Any) -> Any:
    """A formula's view of an input: an input that requires grad through Identity (PyTorch's _fw_primal), in the
    dtype the op computed in; any other array as a tensor without history; a number itself."""
    if isinstance(x, Tensor) and x._requires_grad:
        primal = apply(PRIMAL, (x,))
        return primal if primal.dtype == getattr(value, "dtype", primal.dtype) else to(primal, value.dtype)
    return Tensor._make(value) if isinstance(value, np.ndarray) else value


def _zeros(value: np.ndarray) -> Tensor:
    return Tensor._make(np.zeros_like(value))


def _is_float_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


def _fitted(tangent: Any, result: Tensor) -> Tensor:
    """The tangent as a tensor of the result's shape and dtype."""
    if not isinstance(tangent, Tensor):
        tangent = Tensor._make(np.array(np.asarray(tangent), dtype=result.dtype))
    if tangent.dtype != result.dtype:
        tangent = to(tangent, result.dtype)
    if tangent.shape != result.shape:
        tangent = expand(tangent, tuple(result.shape))
    return tangent


def _rule(op: Op, primals: list, tangents: list, params: dict, result: Any) -> Any:
    rule, F = op.jvp, TensorMath
    if op.name in NUMPY_RULES:
        return _by_reverse(op, primals, tangents, params, result)
    if rule == LINEAR_JVP:
        return apply(op, tangents, params)
    if rule == BILINEAR_JVP:
        parts = [apply(op, [t if j == i else v for j, v in enumerate(primals)], params)
                 for i, t in enumerate(tangents) if t is not None]
        return _total(parts)
    out = result[0] if isinstance(result, tuple) else result
    s = _saved(op, primals, params, result)
    if rule == ELEMENTWISE_JVP:
        s.input_shapes, s.input_shape = (tuple(out.shape),) * len(primals), tuple(out.shape)
        return _total([grad.fn(F, _broadcast(t, tuple(out.shape)), s)
                       for grad, t in zip(op.grads, tangents) if t is not None])
    if rule == REDUCTION_JVP:
        return _reduced(op, s, tangents, params, out)
    t = SimpleNamespace(**dict(zip(op.inputs, tangents)))
    return rule(F, t, s)


def _reduced(op: Op, s: SimpleNamespace, tangents: list, params: dict, out: Tensor) -> Tensor:
    """Each input element reaches one output element: backward of ones, times the tangent, summed."""
    ones = Tensor._make(np.ones(out.shape, dtype=out.dtype))
    slopes = [(grad.fn(TensorMath, ones, s), t) for grad, t in zip(op.grads, tangents) if t is not None]
    parts = [slope * t for slope, t in slopes if slope is not None]  # None: an undefined gradient
    if not parts:  # (norm with p = 0): a zero tangent, without history
        return Tensor._make(np.zeros(out.shape, dtype=out.dtype))
    total = _total(parts)
    if tuple(total.shape) == tuple(out.shape):  # nothing reduced (a loss with reduction='none')
        return total
    dim = params.get("dim")
    if dim is None:
        return reshape(TensorMath.sum(total, tuple(range(total.ndim)), False), tuple(out.shape))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return reshape(TensorMath.sum(total, dims, bool(params.get("keepdim"))), tuple(out.shape))


def _by_reverse(op: Op, primals: list, tangents: list, params: dict, result: Any) -> Any:
    """J t as the gradient in u of <vjp(u), t>: the op's backward formulas recorded on a placeholder gradient u
    (zeros that require grad), differentiated again with create_graph, so the tangent is recorded."""
    outs = result if isinstance(result, tuple) else (result,)
    holders = [Tensor._make(np.zeros(o.shape, dtype=o.dtype)).requires_grad_(True) for o in outs]
    s = _saved(op, primals, params, result)
    g = tuple(holders) if isinstance(result, tuple) else holders[0]
    total = None
    for grad, primal, t in zip(op.grads, primals, tangents):
        if t is None or not isinstance(primal, Tensor) or primal.dtype.kind != "f":
            continue
        vjp = grad.fn(TensorMath, g, s)
        if vjp is None:
            continue
        term = TensorMath.sum(TensorMath.fit(vjp, tuple(primal.shape), primal.dtype) * t, None, False)
        total = term if total is None else total + term
    found = gradients(total, holders, create_graph=True, allow_unused=True) if total is not None else ()
    found = [f if f is not None else Tensor._make(np.zeros(h.shape, dtype=h.dtype))
             for f, h in zip(found or [None] * len(holders), holders)]
    return tuple(found) if isinstance(result, tuple) else found[0]


def _broadcast(t: Tensor, shape: tuple[int, ...]) -> Tensor:
    return t if tuple(t.shape) == shape else expand(t, shape)


def _total(parts: list) -> Any:
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _saved(op: Op, primals: list, params: dict, result: Any) -> SimpleNamespace:
    """What a formula reads of `s`, on tensors: the inputs by slot name, the result, the parameters, the input
    shapes (as forward_ad.py's _saved on arrays)."""
    first = primals[0] if primals else None
    shapes = tuple(tuple(np.shape(p._data if isinstance(p, Tensor) else p)) for p in primals)
    outputs = dict(zip(op.outputs, result)) if op.outputs else {}
    out = result[0] if isinstance(result, tuple) and not op.outputs else result
    return SimpleNamespace(**params, **dict(zip(op.inputs, primals)), **outputs, result=out,
                           input_shape=shapes[0] if shapes else (), input_dtype=getattr(first, "dtype", None),
                           input_shapes=shapes)
