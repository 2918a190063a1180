"""Recording: `apply` runs an op-table entry forward on its inputs and, when one of them requires grad
and grad mode is on, records its Node (the inputs' nodes, shapes and dtypes, and the saved values the
backward formulas need); `binary` first promotes the dtypes of two operands as PyTorch does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import AutogradError, BadValueError, LimitError
from ..kernels.arrays import elementwise_layout, number_of, on_numbers
from ..kernels.parallel import THRESHOLD
from .coerce import broadcast_shape, wrapped_number
from .dtypes import BY_NUMPY, TYPE_NAMES, result_type
from .graph import Node, accumulator
from .inplace import refresh_view
from .multi_output import MultiNode
from .optable import AS_SELF, FLOATING, KEPT, WIDENED, Op
from .settings import STATE
from .tensor import BaseRef, Tensor


def _stale_view(x: Tensor) -> AutogradError:
    return AutogradError(
        "this tensor is a view (an indexing, view, reshape or transpose result) of a tensor that was "
        "written in place after the view was taken, so its values and its history disagree",
        hint="take the view again after the write",
        reason="stale_view",
    )


_FLOAT32, _FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)
_FLOAT32_MAX = float(np.finfo(np.float32).max)


# PyTorch refuses these on bool tensors (a mask is inverted with ~)
BOOL_REFUSALS = {
    "sub": "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.",
    "neg": "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
           "the `~` or `logical_not()` operator instead.",
}
BOOL_REFUSALS["rsub"] = BOOL_REFUSALS["sub"]
BOOL_REFUSALS.update({name: f"\"{kernel}\" not implemented for 'Bool'" for name, kernel in (
    ("abs", "abs_cpu"), ("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"), ("round", "round"),
    ("mm", "addmm_impl_cpu_"), ("bmm", "bmm"), ("mv", "addmv_impl_cpu"), ("dot", "dot"),
    ("addmm", "addmm_impl_cpu_"))})
# ... and these when their operands' common dtype is bool (True // mask)
BOOL_RESULT_REFUSALS = {"div_mode": "div_floor_cpu", "floor_divide": "div_floor_cpu", "remainder": "remainder_cpu",
                        "remainder_tensor": "remainder_cpu",
                        "fmod": "fmod_cpu", "fmod_tensor": "fmod_cpu", "pow_tensor": "pow", "pow_scalar_base": "pow"}


# PyTorch refuses these on integer and bool tensors ({} is the tensor type's name: Long, Int, Bool, ...)
_MEAN = "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}"
_MOMENTS = "std and var only support floating point and complex dtypes"
_SOFTMAX = "\"softmax_lastdim_kernel_impl\" not implemented for '{}'"
INTEGER_REFUSALS = {"mean": _MEAN, "mean_dim": _MEAN, "var": _MOMENTS, "std": _MOMENTS, "var_mean": _MOMENTS,
                    "std_mean": _MOMENTS, "softmax": _SOFTMAX, "log_softmax": _SOFTMAX,
                    "norm": "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}"}


def refuse_bool(name: str, *values: Any) -> None:
    """PyTorch's error for op `name` (BOOL_REFUSALS) on a bool tensor (or array)."""
    masks = sum(1 for v in values if isinstance(v, (bool, np.bool_))
                or (getattr(v, "dtype", None) is not None and np.dtype(v.dtype).kind == "b"))
    if masks and name in BOOL_REFUSALS:
        message = BOOL_REFUSALS[name]
        if masks == 2 and name == "sub":
            message = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                       "`logical_xor()` operator instead.")
        raise BadValueError(message, reason="bool_arithmetic")


def as_computed(op: Op, values: Sequence[Any]) -> list:
    """The inputs of an op with an integer or bool input, in the dtype it computes in (Op.integers), as PyTorch's
    kernels: FLOATING in the inputs' common dtype made floating (exp(int64) is float32), PROMOTED in their common
    dtype (an int64 tensor plus an int stays int64; numbers are made that dtype, wrapping as PyTorch's do),
    AS_SELF in the first input's, WIDENED integers and bools as int64; KEPT as they are."""
    rule = op.integers
    if op.name in BOOL_REFUSALS:
        refuse_bool(op.name, *values)
    if op.name in BOOL_RESULT_REFUSALS and all(v.dtype.kind == "b" for v in values if isinstance(v, np.ndarray)) \
            and not any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise BadValueError(f"\"{BOOL_RESULT_REFUSALS[op.name]}\" not implemented for 'Bool'",
                            hint="convert the mask first, e.g. mask.long()", reason="bool_arithmetic")
    refusal = INTEGER_REFUSALS.get(op.name)
    if refusal is not None:
        kind = next(v.dtype for v in values if isinstance(v, np.ndarray) and v.dtype.kind in "biu")
        raise BadValueError(refusal.format(TYPE_NAMES[BY_NUMPY[kind]]), hint="convert it first, e.g. x.float()",
                            reason="integer_input")
    if rule == KEPT:
        return list(values)
    if rule == WIDENED:
        return [v.astype(np.int64) if isinstance(v, np.ndarray) and v.dtype.kind in "biu" else v for v in values]
    if rule == AS_SELF:
        target = values[0].dtype
    else:
        target = result_type(values, STATE.default_dtype)
        if rule == FLOATING and target.kind != "f":
            target = STATE.default_dtype

    out = []
    for v in values:
        if isinstance(v, np.ndarray):
            out.append(v if v.dtype == target else v.astype(target))
        elif target.kind != "f" and isinstance(v, (int, float, np.number)) and not isinstance(v, bool):
            out.append(np.asarray(wrapped_number(v, target)).astype(target))  # 300 into int8 wraps, as in PyTorch
        else:
            out.append(v)
    return out


def apply(op: Op, inputs: Sequence[Any], params: dict | None = None,
          arrays: Sequence[Any] | None = None) -> Tensor:
    """Run op's forward on the inputs and, when one of them requires grad, record a Node for it.

    This is the hot path of every forward operation, hence the plain loops.
    """
    if op.numbers is not None and params is None and arrays is None:
        result = _on_numbers(op, inputs)
        if result is not None:
            return result
    values, needs = [], []
    recording = large = integral = False
    quiet = op.noisy  # numpy's warnings off: domain errors, overflow on finite input, float16's and float32's inf
    for x in inputs:
        if isinstance(x, Tensor):
            if x._view_stamp is not None and x._view_stamp != x._version.value:
                if x._base is None or x._base() is None:
                    raise _stale_view(x)
                refresh_view(x)  # its base was written in place since: AsStridedBackward0 of the base
            data = x._data
            kind = data.dtype
            if kind is not _FLOAT32 and kind is not _FLOAT64:  # integers and bools; float16 (70000 is inf, quietly)
                integral, quiet = integral or kind.kind != "f", quiet or kind.kind == "f"
            if data.size >= THRESHOLD:
                large = True
            values.append(data)
            needs.append(x._requires_grad)
            recording = recording or x._requires_grad
        else:
            quiet = quiet or (type(x) is float and not -_FLOAT32_MAX <= x <= _FLOAT32_MAX)  # float32 + 1e40: inf
            values.append(x)
            needs.append(False)
    if integral and arrays is None:  # an integer or bool input: the op's rule (Op.integers) says in which dtype it
        arrays = as_computed(op, values)  # computes (a caller giving the arrays has chosen it: sum(dtype=), cat)
    forward = op.forward
    if large and op.large_forward is not None:  # split over the cores (parallel.py)
        forward = op.large_forward
    try:
        if quiet:
            with np.errstate(all="ignore"):
                out = forward(*(arrays or values), **(params or {}))
        else:
            out = forward(*(arrays or values), **params) if params else forward(*(arrays or values))
    except MemoryError:
        raise LimitError(f"not enough memory for the result of {op.name}", reason="memory") from None
    if op.outputs or op.several:
        return _several(op, inputs, tuple(needs), params, out, recording and STATE.grad_enabled, arrays or values)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if op.elementwise and out.ndim > 1:
        out = elementwise_layout(out, arrays or values)
    # an integer or bool result is not differentiable: it has no history, as in PyTorch
    recorded = recording and STATE.grad_enabled and out.dtype.kind == "f"
    result = _record(op, inputs, tuple(needs), params, out) if recorded else Tensor._make(out)
    if STATE.forward_level:  # inside forward AD's dual_level: the result's tangent (transforms/forward_ad.py)
        STATE.tangent_rule(op, inputs, arrays or values, params, result)
    if op.view and isinstance(inputs[0], Tensor):
        _view_of(result, inputs[0])
    return result


def _view_of(result: Tensor, base: Tensor) -> None:
    """The result of a view op shares its base's version counter and remembers the base's own base (or it)."""
    result._version = base._counter()
    result._view_stamp = result._version.value
    root = base._base() if base._base is not None else None
    result._base = BaseRef(root if root is not None else base)


def _on_numbers(op: Op, inputs: Sequence[Any]) -> Tensor | None:
    """An arithmetic op (Op.numbers) of a 0-d float tensor and a number or a 0-d tensor of its dtype, computed on
    Python floats (kernels.arrays.on_numbers: numpy's result to the bit), or None for apply's general path."""
    a, b = inputs
    if type(a) is not Tensor or a._view_stamp is not None or STATE.forward_level:
        return None
    x = a._data
    dtype = x.dtype
    if x.shape or (dtype is not _FLOAT32 and dtype is not _FLOAT64):
        return None
    if type(b) is Tensor:
        y = b._data
        if y.shape or y.dtype is not dtype or b._view_stamp is not None:
            return None
        y = float(y)
        needs = (a._requires_grad, b._requires_grad)
    else:
        y = number_of(b, dtype)
        if y is None:
            return None
        needs = (a._requires_grad, False)
    out = on_numbers(op.numbers, float(x), y, dtype)
    if out is None:
        return None
    if (needs[0] or needs[1]) and STATE.grad_enabled:
        return _record(op, inputs, needs, None, out)
    return Tensor._make(out)


def _several(op: Op, inputs: Sequence[Any], needs: tuple, params: dict | None, out: Any, recorded: bool,
             values: Sequence[Any]) -> tuple[Tensor, ...]:
    """An op with several outputs (Op.outputs): one tensor each, sharing one node (multi_output.py) when recorded,
    with the outputs its formulas read saved by name."""
    arrays = [np.asarray(o) for o in out]
    if not recorded:
        results = tuple(Tensor._make(a) for a in arrays)
    else:
        plan = op.saved_for[needs]
        node = MultiNode(op, *_edges(inputs, needs), params, plan, _saved_values(op, plan, inputs, params))
        node.count = len(arrays)
        results = tuple(Tensor._make(a, node.output_node(i)) for i, a in enumerate(arrays))
        if any(name in op.outputs for name, _ in plan):
            saved = list(node._saved)
            for i, (name, _) in enumerate(plan):
                if name in op.outputs:
                    result = results[op.outputs.index(name)]
                    counter = result._counter()
                    saved[3 * i:3 * i + 3] = (result._data, counter, counter.value)
            node._saved = tuple(saved)
    if op.view and isinstance(inputs[0], Tensor):  # views of the input, each (split, unbind)
        base = inputs[0]
        root = base._base() if base._base is not None else None
        for result in results:
            result._version = base._counter()
            result._view_stamp = result._version.value
            result._base = BaseRef(root if root is not None else base)
    if STATE.forward_level:
        STATE.tangent_rule(op, inputs, values, params, results)
    return results


def _edges(inputs: Sequence[Any], needs: tuple) -> tuple[tuple, tuple]:
    """The node of each input that needs a gradient (None for the others), and each one's shape and dtype."""
    if len(needs) == 2:  # a binary op, written out: this runs for every recorded op
        a, b = inputs
        if needs[0]:
            na = a._grad_fn if a._grad_fn is not None else accumulator(a)
            da = a._data
            if needs[1]:
                nb = b._grad_fn if b._grad_fn is not None else accumulator(b)
                db = b._data
                return (na, nb), (da.shape, da.dtype, db.shape, db.dtype)
            return (na, None), (da.shape, da.dtype, None, None)
        if needs[1]:
            nb = b._grad_fn if b._grad_fn is not None else accumulator(b)
            db = b._data
            return (None, nb), (None, None, db.shape, db.dtype)
        return (None, None), (None, None, None, None)
    nexts = []
    meta: list = []
    for x, flag in zip(inputs, needs):
        if flag:
            fn = x._grad_fn
            nexts.append(fn if fn is not None else accumulator(x))
            data = x._data
            meta += (data.shape, data.dtype)
        else:
            nexts.append(None)
            meta += (None, None)
    return tuple(nexts), tuple(meta)


def _saved_values(op: Op, plan: tuple, inputs: Sequence[Any], params: dict | None) -> Any:
    """The saved values of a node, flat: (value, version counter, version) per planned name; None where the
    value is the result (filled once the result exists); None when nothing is saved."""
    if not plan:
        return None
    values: list = []
    for name, slot in plan:
        if slot is not None:  # an input (`result` and the outputs have no slot)
            x = inputs[slot]
            if isinstance(x, Tensor):
                counter = x._version
                if counter is None:
                    counter = x._counter()
                values += (x, counter, counter.value)
            else:
                values += (x, None, 0)
        elif name == "result" or name in op.outputs:
            values += (None, None, 0)
        else:  # a parameter PyTorch saves as a tensor (max's indices): freed like one
            values += (params[name], None, 0)
    return values


def _record(op: Op, inputs: Sequence[Any], needs: tuple, params: dict | None, out: np.ndarray) -> Tensor:
    """Make the Node of one operation: the nodes of its inputs, their shapes and dtypes, saved values.

    Stored as flat tuples: a long graph is many nodes, and fewer objects means less work for Python's
    garbage collector (which costs more than the arithmetic on scalars).
    """
    plans = op.saved_for
    plan = plans.get(needs)  # (dict.get: the plans' own lookup, a subclass's, costs more)
    if plan is None:
        plan = plans[needs]
    if not plan:
        return Tensor._make(out, Node(op, *_edges(inputs, needs), params, plan, None))
    saved = _saved_values(op, plan, inputs, params)
    if ("result", None) not in plan:
        return Tensor._make(out, Node(op, *_edges(inputs, needs), params, plan, tuple(saved)))
    node = Node(op, *_edges(inputs, needs), params, plan, saved)
    result = Tensor._make(out, node)
    node._save_result(result)
    return result


def binary(op: Op, a: Any, b: Any, params: dict | None = None) -> Tensor:
    """An elementwise op of two operands (and its parameters): broadcasting checked, dtypes promoted as PyTorch
    does (an integer or bool operand by the op's rule, in apply)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        da, db = a._data, b._data
        if da.shape != db.shape:
            broadcast_shape(da.shape, db.shape)
        if da.dtype != db.dtype and (da.ndim == 0) != (db.ndim == 0) and da.dtype.kind == db.dtype.kind == "f":
            # A 0-d tensor does not decide the dtype of a result that has dimensions (PyTorch's rule).
            with np.errstate(over="ignore"):  # (a float64 number past float32's range is inf, quietly)
                if da.ndim == 0:
                    da = da.astype(db.dtype)
                else:
                    db = db.astype(da.dtype)
            return apply(op, (a, b), params, (da, db))
    return apply(op, (a, b), params)
