"""The engine's functions (torch.* names), the Tensor operators and methods, and the constructors.

Every differentiable function here resolves its arguments and calls `apply` with an entry of the op
table (ops.py); nothing computes a derivative outside that table. `BUILTINS` lists every public
function with its signature and the ops it may record: the language and `autodiff ops` read it.
"""

from __future__ import annotations

import math
import weakref
from collections import namedtuple
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import ops as _ops
from .autograd import Node, accumulator, edge_node
from .errors import AutogradError, BadValueError, LimitError, ShapeError
from .ops import OPS
from .tensor import STATE, Tensor, _check_dim, as_dtype, check_dims, check_elements

Number = (int, float)
# This module defines torch's sum, max, min, abs and pow; Python's built-ins of those names are not used here.


@dataclass(frozen=True)
class Builtin:
    """A public function: how to call it, which op-table entries it records, and whether x.name() works."""

    name: str
    fn: Callable[..., Any]
    signature: str
    ops: tuple[str, ...]
    summary: str
    method: bool


BUILTINS: dict[str, Builtin] = {}


def builtin(signature: str, ops: tuple[str, ...] = (), *, method: bool = True,
            summary: str = "") -> Callable[[Callable], Callable]:
    """Register a public function (and, with method=True, the Tensor method of the same name)."""

    def register(fn: Callable) -> Callable:
        name = signature.split("(", 1)[0]
        text = summary or (OPS[ops[0]].doc if ops else (fn.__doc__ or "").strip().split("\n")[0])
        BUILTINS[name] = Builtin(name, fn, signature, ops, text, method)
        return fn

    return register


# ---------------------------------------------------------------------------- recording
def _stale_view(x: Tensor) -> AutogradError:
    return AutogradError(
        "this tensor is a view (an indexing, view, reshape or transpose result) of a tensor that was "
        "written in place after the view was taken, so its values and its history disagree",
        hint="take the view again after the write",
        reason="stale_view",
    )


def apply(op: _ops.Op, inputs: Sequence[Any], params: dict | None = None,
          arrays: Sequence[Any] | None = None) -> Tensor:
    """Run op's forward on the inputs and, when one of them requires grad, record a Node for it.

    This is the hot path of every forward operation, hence the plain loops.
    """
    values = []
    needs = []
    recording = False
    for x in inputs:
        if isinstance(x, Tensor):
            if x._view_stamp is not None and x._view_stamp != x._version.value:
                raise _stale_view(x)
            values.append(x._data)
            needs.append(x._requires_grad)
            recording = recording or x._requires_grad
        else:
            values.append(x)
            needs.append(False)
    try:
        if op.noisy:  # ops that meet domain errors or overflow on finite input: no numpy warnings
            with np.errstate(all="ignore"):
                out = op.forward(*(arrays or values), **(params or {}))
        else:
            out = op.forward(*(arrays or values), **params) if params else op.forward(*(arrays or values))
    except MemoryError:
        raise LimitError(f"not enough memory for the result of {op.name}", reason="memory") from None
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if op.layout and out.ndim > 1:
        out = _ops.elementwise_layout(out, arrays or values)
    recorded = recording and STATE.grad_enabled
    result = _record(op, inputs, tuple(needs), params, out) if recorded else Tensor._make(out)
    if op.view and isinstance(inputs[0], Tensor):
        base = inputs[0]
        result._version = base._counter()
        result._view_stamp = result._version.value
        root = base._base() if base._base is not None else None
        result._base = weakref.ref(root if root is not None else base)
    return result


def _record(op: _ops.Op, inputs: Sequence[Any], needs: tuple, params: dict | None, out: np.ndarray) -> Tensor:
    """Make the Node of one operation: the nodes of its inputs, their shapes and dtypes, saved values.

    Stored as flat tuples: a long graph is many nodes, and fewer objects means less work for Python's
    garbage collector (which costs more than the arithmetic on scalars).
    """
    plan = op.saved_for[needs]
    saved = None
    save_result = False
    if plan:
        values: list = []
        for name, slot in plan:
            if name == "result":
                save_result = True
                values += (None, None, 0)
            elif slot is None:  # a parameter PyTorch saves as a tensor (max's indices): freed like one
                values += (params[name], None, 0)
            else:
                x = inputs[slot]
                if isinstance(x, Tensor):
                    counter = x._counter()
                    values += (x, counter, counter.value)
                else:
                    values += (x, None, 0)
        saved = values if save_result else tuple(values)
    nexts = []
    meta: list = []
    for x, flag in zip(inputs, needs):
        if flag:
            fn = x.grad_fn
            nexts.append(fn if fn is not None else accumulator(x))
            data = x._data
            meta += (data.shape, data.dtype)
        else:
            nexts.append(None)
            meta += (None, None)
    node = Node(op, tuple(nexts), tuple(meta), params, plan, saved)
    result = Tensor._make(out, node)
    if save_result:
        node._save_result(result)
    return result


def _operand(x: Any) -> Any:
    """A Tensor, or a Python number (kept as a number: it does not change the result's dtype)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, Number):
        return x
    if isinstance(x, np.generic) and np.issubdtype(type(x), np.number):
        return x.item()
    if isinstance(x, (np.ndarray, list, tuple)):
        return Tensor._make(_array_from(x, None))
    raise BadValueError(f"expected a tensor or a number, got {type(x).__name__}")


def _tensor_arg(x: Any, what: str = "input") -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float, list, tuple, np.ndarray, np.generic)):
        return Tensor._make(_array_from(x, None))
    raise BadValueError(f"{what} must be a tensor, got {type(x).__name__}")


def _broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast of two shapes, or a ShapeError that names both."""
    if a == b:
        return a
    result = []
    ndim = len(a) if len(a) > len(b) else len(b)
    for i in range(1, ndim + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            dim = ndim - i
            raise ShapeError(
                f"shapes {a} and {b} cannot be broadcast together: at dimension {dim} the sizes are {x} "
                f"and {y}, which must be equal or one of them 1",
                reason="broadcast", shapes=(a, b),
            )
        result.append(x if y == 1 else y)
    shape = tuple(reversed(result))
    check_elements(shape, "the broadcast result")
    return shape


def _binary(op: _ops.Op, a: Any, b: Any) -> Tensor:
    """An elementwise op of two operands: broadcasting checked, dtypes promoted as PyTorch does."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        da, db = a._data, b._data
        if da.shape != db.shape:
            _broadcast_shape(da.shape, db.shape)
        if da.dtype != db.dtype and (da.ndim == 0) != (db.ndim == 0):
            # A 0-d tensor does not decide the dtype of a result that has dimensions (PyTorch's rule).
            if da.ndim == 0:
                da = da.astype(db.dtype)
            else:
                db = db.astype(da.dtype)
            return apply(op, (a, b), None, (da, db))
    return apply(op, (a, b))


def _both(a: Any, b: Any) -> tuple[Any, Any]:
    a, b = _operand(a), _operand(b)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = Tensor._make(_array_from(a, None))
    return a, b


# ---------------------------------------------------------------------------- arithmetic
@builtin("add(input, other)", ("add",))
def add(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["add"], a, b) if isinstance(a, Tensor) else _binary(OPS["add"], b, a)


@builtin("sub(input, other)", ("sub", "rsub"))
def sub(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    if not isinstance(a, Tensor):
        return apply(OPS["rsub"], (b,), {"other": a})
    return _binary(OPS["sub"], a, b)


@builtin("mul(input, other)", ("mul",))
def mul(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["mul"], a, b) if isinstance(a, Tensor) else _binary(OPS["mul"], b, a)


@builtin("div(input, other)", ("div", "reciprocal", "mul"))
def div(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    if not isinstance(a, Tensor):  # number / tensor is recorded as reciprocal(tensor) * number
        return _binary(OPS["mul"], reciprocal(b), a)
    return _binary(OPS["div"], a, b)


@builtin("pow(input, exponent)", ("pow", "pow_tensor", "pow_scalar_base"))
def pow(input: Any, exponent: Any) -> Tensor:
    a, e = _both(input, exponent)
    if not isinstance(a, Tensor):
        return apply(OPS["pow_scalar_base"], (e,), {"base": a})
    if not isinstance(e, Tensor):
        return apply(OPS["pow"], (a,), {"exponent": e})
    return _binary(OPS["pow_tensor"], a, e)


@builtin("maximum(input, other)", ("maximum",))
def maximum(input: Any, other: Any) -> Tensor:
    return _binary(OPS["maximum"], _tensor_arg(input), _tensor_arg(other, "other"))


@builtin("minimum(input, other)", ("minimum",))
def minimum(input: Any, other: Any) -> Tensor:
    return _binary(OPS["minimum"], _tensor_arg(input), _tensor_arg(other, "other"))


def _unary(name: str, signature: str | None = None) -> Callable[[Any], Tensor]:
    op = OPS[name]

    def function(input: Any) -> Tensor:
        return apply(op, (_tensor_arg(input),))

    function.__name__ = name
    function.__doc__ = op.doc
    builtin(signature or f"{name}(input)", (name,))(function)
    return function


neg = _unary("neg")
exp = _unary("exp")
log = _unary("log")
sin = _unary("sin")
cos = _unary("cos")
tan = _unary("tan")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
relu = _unary("relu")
sqrt = _unary("sqrt")
abs = _unary("abs")
sign = _unary("sign")
reciprocal = _unary("reciprocal")
clone = _unary("clone")


@builtin("square(input)", ("pow",))
def square(input: Any) -> Tensor:
    """input ** 2 (recorded as PowBackward0, as PyTorch does)."""
    return apply(OPS["pow"], (_tensor_arg(input),), {"exponent": 2})


@builtin("clamp(input, min=None, max=None)", ("clamp",))
def clamp(input: Any, min: float | None = None, max: float | None = None) -> Tensor:
    if min is None and max is None:
        raise BadValueError("clamp: At least one of 'min' or 'max' must not be None")
    low = None if min is None else _number(min, "min")
    high = None if max is None else _number(max, "max")
    return apply(OPS["clamp"], (_tensor_arg(input),), {"min": low, "max": high})


def _number(x: Any, what: str) -> float:
    if isinstance(x, Tensor) and x._data.size == 1:
        return x.item()
    if isinstance(x, bool) or not isinstance(x, (int, float, np.number)):
        raise BadValueError(f"{what} must be a number, got {x!r}")
    return float(x)


# ---------------------------------------------------------------------------- reductions
def _dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """Normalize dim (an int or a sequence of ints) to sorted non-negative dims."""
    items = list(dim) if isinstance(dim, (list, tuple)) else [dim]
    dims = [_check_dim(d, ndim) for d in items]
    if len(set(dims)) != len(dims):
        raise BadValueError(f"dim {items} names a dimension more than once")
    if ndim == 0:  # dim 0 or -1 of a 0-d tensor: nothing to reduce over (PyTorch allows it)
        return ()
    return tuple(sorted(dims)) if dims else tuple(range(ndim))


def _check_reduced(x: Tensor, dims: tuple[int, ...], keepdim: Any) -> None:
    """A reduction's result is no larger than its input, except over an empty dim: ones(10**9, 0).sum(1)
    has 10**9 elements. Checked against the element limit before numpy allocates them."""
    if x._data.size == 0:
        shape = x._data.shape
        check_elements(tuple(1 if d in dims else n for d, n in enumerate(shape)) if keepdim
                       else tuple(n for d, n in enumerate(shape) if d not in dims), "the reduction's result")


@builtin("sum(input, dim=None, keepdim=False)", ("sum", "sum_dim"))
def sum(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    if dim is None:
        return apply(OPS["sum"], (x,))
    dims = _dims(dim, x.ndim)
    _check_reduced(x, dims, keepdim)
    return apply(OPS["sum_dim"], (x,), {"dim": dims, "keepdim": bool(keepdim)})


@builtin("mean(input, dim=None, keepdim=False)", ("mean", "mean_dim"))
def mean(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    if dim is None:
        return apply(OPS["mean"], (x,), {"count": x.numel()})
    dims = _dims(dim, x.ndim)
    _check_reduced(x, dims, keepdim)
    count = math.prod(x._data.shape[d] for d in dims) if x.ndim else 1
    return apply(OPS["mean_dim"], (x,), {"dim": dims, "keepdim": bool(keepdim), "count": count})


MinMax = namedtuple("MinMax", ["values", "indices"])


def _extreme(kind: str, input: Any, dim: Any, keepdim: bool, other: Any) -> Any:
    x = _tensor_arg(input)
    if isinstance(dim, Tensor) and other is None:
        dim, other = None, dim
    if other is not None:
        return maximum(x, other) if kind == "max" else minimum(x, other)
    if dim is None:
        if x.numel() == 0:
            raise BadValueError(f"{kind}(): Expected reduction dim to be specified for input.numel() == 0.")
        return apply(OPS[kind], (x,))
    d = _check_dim(dim, x.ndim)
    data = x._data if x.ndim else x._data.reshape(1)
    if data.shape[d] == 0:
        raise BadValueError(f"{kind}(): cannot take the {kind} over an empty dimension {dim}")
    pick = np.argmax if kind == "max" else np.argmin
    indices = pick(data, axis=d, keepdims=True)
    if not keepdim or x.ndim == 0:
        indices = np.squeeze(indices, axis=d)
    keep = bool(keepdim) and x.ndim > 0
    values = apply(OPS[f"{kind}_dim"], (x,), {"dim": d, "keepdim": keep, "indices": indices})
    return MinMax(values, Tensor._make(indices.astype(np.int64)))


@builtin("max(input, dim=None, keepdim=False)", ("max", "max_dim", "maximum"))
def max(input: Any, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:
    """Largest element; with dim, (values, indices) along it; with a tensor, the elementwise maximum."""
    return _extreme("max", input, dim, keepdim, other)


@builtin("min(input, dim=None, keepdim=False)", ("min", "min_dim", "minimum"))
def min(input: Any, dim: Any = None, keepdim: bool = False, *, other: Any = None) -> Any:
    """Smallest element; with dim, (values, indices) along it; with a tensor, the elementwise minimum."""
    return _extreme("min", input, dim, keepdim, other)


def _softmax_dim(x: Tensor, dim: Any, name: str) -> tuple[int, ...]:
    """The axes to normalize over, as a tuple: empty for a 0-d tensor (whose softmax is 1)."""
    if dim is None:
        if x.ndim > 1:
            raise BadValueError(f"{name}() needs dim= for a tensor of {x.ndim} dimensions, e.g. {name}(x, dim=-1)")
        dim = 0
    d = _check_dim(dim, x.ndim)
    return (d,) if x.ndim else ()


@builtin("softmax(input, dim)", ("softmax",))
def softmax(input: Any, dim: Any = None) -> Tensor:
    x = _tensor_arg(input)
    return apply(OPS["softmax"], (x,), {"dim": _softmax_dim(x, dim, "softmax")})


@builtin("log_softmax(input, dim)", ("log_softmax",))
def log_softmax(input: Any, dim: Any = None) -> Tensor:
    x = _tensor_arg(input)
    return apply(OPS["log_softmax"], (x,), {"dim": _softmax_dim(x, dim, "log_softmax")})


# ---------------------------------------------------------------------------- linear algebra
def _dims_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


@builtin("matmul(input, other)", ("dot", "mv", "mm", "unsqueeze", "squeeze_vm", "matmul"))
def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with numpy/PyTorch's rules for 1-D and batched operands."""
    a, b = _tensor_arg(input), _tensor_arg(other, "other")
    if a.ndim == 0 or b.ndim == 0:
        raise ShapeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return apply(OPS["squeeze_vm"], (mm(unsqueeze(a, 0), b),), {"dim": 0})
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    sa, sb = a._data.shape, b._data.shape
    inner_a = sa[-1]
    inner_b = sb[-2] if b.ndim > 1 else sb[0]
    if inner_a != inner_b:
        raise ShapeError(f"matmul: shapes {tuple(sa)} and {tuple(sb)} cannot be multiplied "
                         f"({inner_a} columns against {inner_b} rows)", reason="matmul", shapes=(sa, sb))
    batch = _broadcast_shape(sa[:-2], sb[:-2] if b.ndim > 1 else ())
    out = batch + ((sa[-2],) if a.ndim > 1 else ()) + ((sb[-1],) if b.ndim > 1 else ())
    check_elements(out, "the matmul result")
    return apply(OPS["matmul"], (a, b), {"other_ndim": b.ndim})


@builtin("mm(input, mat2)", ("mm",))
def mm(input: Any, mat2: Any) -> Tensor:
    a, b = _tensor_arg(input), _tensor_arg(mat2, "mat2")
    if a.ndim != 2 or b.ndim != 2:
        raise ShapeError(f"mm needs two matrices, got shapes {tuple(a.shape)} and {tuple(b.shape)}", reason="matmul")
    if a._data.shape[1] != b._data.shape[0]:
        raise ShapeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_dims_text(a._data.shape)} and "
            f"{_dims_text(b._data.shape)}): the first's columns must equal the second's rows",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    check_elements((a._data.shape[0], b._data.shape[1]), "the matrix product")
    return apply(OPS["mm"], (a, b))


@builtin("mv(input, vec)", ("mv",))
def mv(input: Any, vec: Any) -> Tensor:
    a, v = _tensor_arg(input), _tensor_arg(vec, "vec")
    if a.ndim != 2 or v.ndim != 1 or a._data.shape[1] != v._data.shape[0]:
        raise ShapeError(
            f"mv needs a matrix and a vector of matching size, got shapes {tuple(a.shape)} and {tuple(v.shape)}",
            reason="matmul", shapes=(a.shape, v.shape),
        )
    return apply(OPS["mv"], (a, v))


@builtin("dot(input, other)", ("dot",))
def dot(input: Any, other: Any) -> Tensor:
    a, b = _tensor_arg(input), _tensor_arg(other, "other")
    if a.ndim != 1 or b.ndim != 1:
        raise ShapeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors", reason="matmul",
                         shapes=(a.shape, b.shape))
    if a._data.shape != b._data.shape:
        raise ShapeError(
            f"dot: shapes {tuple(a.shape)} and {tuple(b.shape)} must have the same number of elements",
            reason="matmul", shapes=(a.shape, b.shape),
        )
    return apply(OPS["dot"], (a, b))


# ---------------------------------------------------------------------------- shapes and views
def _sizes(args: tuple, what: str = "size", allow_minus_one: bool = False) -> tuple[int, ...]:
    """Sizes given as ints or as one sequence (ones(2, 3), ones((2, 3)), ones(x.size()))."""
    if len(args) == 1 and isinstance(args[0], (list, tuple, Tensor)):
        values = args[0].tolist() if isinstance(args[0], Tensor) else args[0]
        args = tuple(values) if isinstance(values, (list, tuple)) else (values,)  # a 0-d tensor: one size
    sizes = []
    for n in args:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            huge = isinstance(n, float) and math.fabs(n) >= 2**63  # 10**20 is a float in the language
            raise BadValueError(f"{what} must be whole numbers, got {n!r}"
                                + (" (far too large for a tensor: numbers past 2**63 are floats)" if huge else ""),
                                reason="size")
        n = int(n)
        if n < 0 and not (allow_minus_one and n == -1):
            raise BadValueError(f"Trying to create tensor with negative dimension {n}: {list(args)}",
                                reason="size")
        sizes.append(n)
    check_dims(len(sizes))
    return tuple(sizes)


def _infer_shape(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if shape.count(-1) > 1:
        raise BadValueError("only one dimension can be inferred (-1)")
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or numel % known:
            raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}", reason="reshape")
        shape = tuple(numel // known if n == -1 else n for n in shape)
    if math.prod(shape) != numel:
        raise ShapeError(f"shape '{list(shape)}' is invalid for input of size {numel}", reason="reshape")
    return shape


def _viewable(data: np.ndarray, shape: tuple[int, ...]) -> bool:
    try:
        data.reshape(shape, copy=False)
    except ValueError:
        return False
    return True


@builtin("reshape(input, *shape)", ("view", "reshape_alias", "clone", "unsafe_view"))
def reshape(input: Any, *shape: Any) -> Tensor:
    """Same elements, new shape: a view when the memory layout allows, else a copy (as PyTorch).

    PyTorch records a view of contiguous data as ViewBackward0, of other data as ReshapeAliasBackward0,
    and a copy as UnsafeViewBackward0 over a C-ordered CloneBackward0.
    """
    x = _tensor_arg(input)
    target = _infer_shape(_sizes(shape, "shape", allow_minus_one=True), x.numel())
    if x._data.flags.c_contiguous:
        return apply(OPS["view"], (x,), {"shape": target})
    if _viewable(x._data, target):
        return apply(OPS["reshape_alias"], (x,), {"shape": target})
    return apply(OPS["unsafe_view"], (apply(OPS["clone"], (x,), {"contiguous": True}),), {"shape": target})


@builtin("view(input, *shape)", ("view",))
def view(input: Any, *shape: Any) -> Tensor:
    x = _tensor_arg(input)
    target = _infer_shape(_sizes(shape, "shape", allow_minus_one=True), x.numel())
    if not _viewable(x._data, target):
        raise ShapeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.",
            reason="view",
        )
    return apply(OPS["view"], (x,), {"shape": target})


@builtin("flatten(input, start_dim=0, end_dim=-1)", ("view", "reshape_alias", "clone", "unsafe_view"))
def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    x = _tensor_arg(input)
    if x.ndim == 0:
        return reshape(x, 1)
    start, end = _check_dim(start_dim, x.ndim), _check_dim(end_dim, x.ndim)
    if start > end:
        raise BadValueError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    shape = x._data.shape
    return reshape(x, *shape[:start], math.prod(shape[start:end + 1]), *shape[end + 1:])


@builtin("t(input)", ("t",))
def t(input: Any) -> Tensor:
    x = _tensor_arg(input)
    if x.ndim > 2:
        raise BadValueError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return apply(OPS["t"], (x,))


@builtin("transpose(input, dim0, dim1)", ("transpose",))
def transpose(input: Any, dim0: int, dim1: int) -> Tensor:
    x = _tensor_arg(input)
    return apply(OPS["transpose"], (x,), {"dim0": _check_dim(dim0, x.ndim), "dim1": _check_dim(dim1, x.ndim)})


@builtin("permute(input, *dims)", ("permute",))
def permute(input: Any, *dims: Any) -> Tensor:
    x = _tensor_arg(input)
    order = _sizes(dims, "dims", allow_minus_one=True) if dims else ()
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        order = tuple(dims[0])
    normalized = tuple(_check_dim(d, x.ndim) for d in order)
    if sorted(normalized) != list(range(x.ndim)):
        raise BadValueError(f"permute: dims {list(order)} must name each of the tensor's {x.ndim} dimensions once")
    return apply(OPS["permute"], (x,), {"dims": normalized})


@builtin("unsqueeze(input, dim)", ("unsqueeze",))
def unsqueeze(input: Any, dim: int) -> Tensor:
    x = _tensor_arg(input)
    check_dims(x.ndim + 1, "unsqueeze's result")
    return apply(OPS["unsqueeze"], (x,), {"dim": _check_dim(dim, x.ndim + 1)})


@builtin("squeeze(input, dim=None)", ("squeeze", "squeeze_dim"))
def squeeze(input: Any, dim: int | None = None) -> Tensor:
    x = _tensor_arg(input)
    if dim is None:
        return apply(OPS["squeeze"], (x,))
    return apply(OPS["squeeze_dim"], (x,), {"dim": _check_dim(dim, x.ndim)})


@builtin("expand(input, *sizes)", ("expand",))
def expand(input: Any, *sizes: Any) -> Tensor:
    x = _tensor_arg(input)
    target = list(_sizes(sizes, "sizes", allow_minus_one=True))
    shape = x._data.shape
    if len(target) < len(shape):
        raise ShapeError(
            f"expand: the number of sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})", reason="expand")
    lead = len(target) - len(shape)
    for i, n in enumerate(shape):
        want = target[lead + i]
        if want == -1:
            target[lead + i] = n
        elif n != want and n != 1:
            raise ShapeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({n}) at non-singleton "
                f"dimension {lead + i}.  Target sizes: {list(sizes if len(sizes) != 1 else sizes[0])}.  "
                f"Tensor sizes: {list(shape)}", reason="expand")
    if any(n == -1 for n in target[:lead]):
        raise ShapeError("expand: -1 is not allowed for a new leading dimension", reason="expand")
    check_elements(tuple(target), "the expanded tensor")
    return apply(OPS["expand"], (x,), {"shape": tuple(target)})


@builtin("to(input, dtype)", ("to",))
def to(input: Any, dtype: Any) -> Tensor:
    """The tensor converted to dtype ('float32' or 'float64'); itself when it already has it."""
    x = _tensor_arg(input)
    target = as_dtype(dtype)
    if x._data.dtype == target:
        return x
    return apply(OPS["to"], (x,), {"dtype": target})


@builtin("detach(input)", summary="the same values, cut from the graph (no gradient flows back)")
def detach(input: Any) -> Tensor:
    return _tensor_arg(input).detach()


def _where(condition: np.ndarray, input: Any, other: Any) -> Tensor:
    """Elementwise choice by a fixed boolean mask (used by backward formulas)."""
    a, b = _operand(input), _operand(other)
    if not isinstance(a, Tensor):
        a = Tensor._make(np.asarray(a, dtype=b.dtype))
    return apply(OPS["where"], (a, b), {"condition": condition})


# ---------------------------------------------------------------------------- indexing
def _normalize_index(x: Tensor, index: Any) -> list[tuple]:
    """Turn a Python index into steps: ('select', dim, i), ('slice', dim, a, b, c), ('unsqueeze', dim)."""
    items = list(index) if isinstance(index, tuple) else [index]
    for item in items:
        if isinstance(item, (Tensor, list, np.ndarray, bool)):
            raise BadValueError(
                "indexing with a tensor, a list or a boolean is not supported: use integers, slices, None and ...",
                reason="index")
        if not (item is None or item is Ellipsis or isinstance(item, (int, np.integer, slice))):
            raise BadValueError(f"invalid index {item!r}: use integers, slices (a:b:c), None and ...", reason="index")
    consumed = len([i for i in items if i is not None and i is not Ellipsis])
    if items.count(Ellipsis) > 1:
        raise BadValueError("an index can only have a single ellipsis ('...')", reason="index")
    if consumed > x.ndim:
        raise BadValueError(f"too many indices for tensor of dimension {x.ndim}", reason="index")
    selected = len([i for i in items if not (i is None or i is Ellipsis or isinstance(i, slice))])
    check_dims(x.ndim - selected + items.count(None), "the indexing result")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (x.ndim - consumed)
    steps, dim, shape = [], 0, list(x._data.shape)
    single = isinstance(index, slice)  # x[:] alone is recorded (SliceBackward0); x[...] is an alias
    for item in items:
        if item is None:
            steps.append(("unsqueeze", dim))
            shape.insert(dim, 1)
            dim += 1
        elif isinstance(item, slice):
            for part in (item.start, item.stop, item.step):
                if part is not None and (isinstance(part, bool) or not isinstance(part, (int, np.integer))):
                    raise BadValueError(f"slice indices must be integers or None, got {part!r}", reason="index")
            if item.step is not None and item.step == 0:
                raise BadValueError("slice step cannot be zero", reason="index")
            if item.step is not None and item.step < 0:
                raise BadValueError("step must be greater than zero (negative steps are not supported)",
                                    reason="index")
            start, stop, step = item.indices(shape[dim])
            full = start == 0 and stop == shape[dim] and step == 1
            if not full or single:
                steps.append(("slice", dim, start, stop, step))
                shape[dim] = len(range(start, stop, step))
            dim += 1
        else:
            size, i = shape[dim], int(item)
            if not -size <= i < size:
                raise BadValueError(f"index {i} is out of bounds for dimension {dim} with size {size}",
                                    reason="index")
            steps.append(("select", dim, i % size))
            shape.pop(dim)
    return steps


def getitem(x: Tensor, index: Any) -> Tensor:
    """x[index] with PyTorch's recording: a chain of SelectBackward0/SliceBackward0/UnsqueezeBackward0."""
    result = x
    for step in _normalize_index(x, index):
        if step[0] == "select":
            result = apply(OPS["select"], (result,), {"dim": step[1], "index": step[2]})
        elif step[0] == "slice":
            result = apply(OPS["slice"], (result,), dict(zip(("dim", "start", "stop", "step"), step[1:])))
        else:
            result = apply(OPS["unsqueeze"], (result,), {"dim": step[1]})
    if result is x:
        result = apply(OPS["alias"], (x,))
    return result


def _numpy_index(x: Tensor, index: Any) -> tuple:
    """The numpy basic index equivalent to index, after PyTorch's checks."""
    where: list[Any] = []
    dim = 0
    for step in _normalize_index(x, index):
        kind, d = step[0], step[1]
        if kind == "unsqueeze":
            continue
        while dim < d:
            where.append(slice(None))
            dim += 1
        if kind == "select":
            where.append(step[2])
        else:
            where.append(slice(step[2], step[3], step[4]))
            dim += 1
    return tuple(where)


def setitem(x: Tensor, index: Any, value: Any) -> None:
    """x[index] = value, in place; recorded as CopySlices when a gradient can flow through it."""
    if x._view_stamp is not None:
        root = x._base() if x._base is not None else None
        if root is not None:
            raise BadValueError(
                "writing by index into a view of another tensor (a result of indexing, view, reshape, "
                "transpose, ...) is not supported",
                hint="write into the tensor it was taken from, e.g. y[0, 1] = ... instead of row = y[0]; row[1] = ...",
                reason="view_write",
            )
    x._check_inplace()
    where = _numpy_index(x, index)
    src = _operand(value)
    region = x._data[where]
    if isinstance(src, Tensor) and src._data.ndim and src._data.shape != region.shape:
        # As PyTorch's setitem: the value's leading 1-sized dims are dropped by a view, and the rest is
        # expanded to the written region; both are recorded (ViewBackward0, ExpandBackward0).
        lead = 0
        while lead < src._data.ndim and src._data.shape[lead] == 1:
            lead += 1
        stripped = src._data.shape[lead:]
        try:
            ok = np.broadcast_shapes(stripped, region.shape) == region.shape
        except ValueError:
            ok = False
        if not ok:
            raise ShapeError(
                f"shape mismatch: value tensor of shape {tuple(src.shape)} cannot be broadcast to indexing "
                f"result of shape {tuple(region.shape)}", reason="setitem", shapes=(src.shape, region.shape))
        src = view(src, stripped)
        if stripped != region.shape:
            src = expand(src, region.shape)
    src_data = src._data if isinstance(src, Tensor) else src
    recorded = STATE.grad_enabled and (x._requires_grad or (isinstance(src, Tensor) and src._requires_grad))
    if recorded:
        # x is a non-leaf here (a leaf that requires grad was refused above), so x.grad_fn is its history.
        base_node = x.grad_fn if x._requires_grad else None
        outside = np.ones(x._data.shape, dtype=bool)
        outside[where] = False
        meta = (x._data.shape, x._data.dtype) + (
            (src._data.shape, src._data.dtype) if isinstance(src, Tensor) else (None, None))
        nexts = (base_node, edge_node(src))
        op, params = OPS["copy_slices"], {"outside": outside, "where": where}
        # PyTorch frees CopySlices after a backward pass like a node with saved tensors: so does the plan
        plan = op.saved_for[tuple(n is not None for n in nexts)]
        saved = tuple(v for name, _ in plan for v in (params[name], None, 0))
        node = Node(op, nexts, meta, params, plan, saved)
    with np.errstate(all="ignore"):
        x._data[where] = src_data
    x._bump_version()
    if x._view_stamp is not None:
        x._view_stamp = x._version.value
    if recorded:
        x.grad_fn = node
        x._requires_grad = True


# ---------------------------------------------------------------------------- constructors
def _array_from(data: Any, dtype: np.dtype | None) -> np.ndarray:
    """A new float array from a number, nested lists of numbers (or one-element tensors), or an array."""
    if isinstance(data, Tensor):
        array = data._data
    elif isinstance(data, np.ndarray):
        array = data
    else:
        if isinstance(data, str):
            raise BadValueError(f"cannot make a tensor from the string {data!r}")
        try:
            array = np.array(data if not isinstance(data, (list, tuple)) else _plain(data))
        except (ValueError, TypeError) as error:
            raise BadValueError(f"cannot make a tensor from {_short(data)}: the nested lists must be "
                                f"rectangular and hold only numbers ({error})") from None
    if array.dtype.kind not in "fiub":
        raise BadValueError(f"cannot make a tensor from values of type {array.dtype}: numbers only")
    if dtype is None:
        keeps_own = isinstance(data, (np.ndarray, Tensor)) and array.dtype in (np.float32, np.float64)
        dtype = array.dtype if keeps_own else STATE.default_dtype
    check_elements(array.shape)
    return np.array(array, dtype=dtype, copy=True)


def _plain(data: Any) -> Any:
    """Nested lists with tensors replaced by their arrays (numpy stacks them without making a Python float
    of every value), checked iteratively and counted against the element limit before numpy allocates."""
    if not any(isinstance(x, (Tensor, list, tuple)) for x in data):
        return data
    out: list = []
    stack = [(data, out)]
    numbers, limit = 0, STATE.max_elements
    while stack:
        source, target = stack.pop()
        for item in source:
            if isinstance(item, Tensor):
                numbers += item._data.size
                if limit is not None and numbers > limit:
                    raise LimitError(f"the tensors in these lists hold more than {limit:,} numbers, over the "
                                     "element limit", hint="raise the limit (--max-elements) or use smaller sizes",
                                     reason="elements")
                target.append(item._data)
            elif isinstance(item, (list, tuple)):
                child: list = []
                target.append(child)
                stack.append((item, child))
            else:
                target.append(item)
    return out


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def _new(array: np.ndarray, requires_grad: bool) -> Tensor:
    t = Tensor._make(array)
    if requires_grad:
        t._requires_grad = True
    return t


@builtin("tensor(data, dtype=None, requires_grad=False)", method=False,
         summary="a tensor holding data (a number or nested lists)")
def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _new(_array_from(data, as_dtype(dtype) if dtype is not None else None), requires_grad)


def _filled(sizes: tuple, fill: float, dtype: Any, requires_grad: bool, like: np.ndarray | None = None) -> Tensor:
    shape = _sizes(sizes)
    check_elements(shape)
    try:
        if like is None:
            array = np.full(shape, fill, dtype=as_dtype(dtype))
        else:  # PyTorch's *_like keep the memory layout of a dense input (preserve_format)
            array = np.full_like(like, fill, dtype=as_dtype(dtype), order=_ops.memory_order(like))
    except MemoryError:
        raise LimitError(f"not enough memory for a tensor of shape {shape}", reason="memory") from None
    return _new(array, requires_grad)


@builtin("ones(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of ones")
def ones(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled(size, 1.0, dtype, requires_grad)


@builtin("zeros(*size, dtype=None, requires_grad=False)", method=False, summary="a tensor of zeros")
def zeros(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled(size, 0.0, dtype, requires_grad)


@builtin("full(size, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="a tensor filled with one value")
def full(size: Any, fill_value: float, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _filled((size,), _number(fill_value, "fill_value"), dtype, requires_grad)


class _Random:
    generator = None  # made on first use: importing numpy.random costs more than the rest of the engine


def manual_seed(seed: int) -> None:
    """Make rand/randn reproducible (numpy's PCG64, so the numbers differ from PyTorch's)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BadValueError(f"seed must be a non-negative integer, got {seed!r}")
    _Random.generator = np.random.default_rng(int(seed))


def _random(sizes: tuple, dtype: Any, requires_grad: bool, normal: bool, like: np.ndarray | None = None) -> Tensor:
    shape = _sizes(sizes)
    check_elements(shape)
    resolved = as_dtype(dtype)
    if _Random.generator is None:
        _Random.generator = np.random.default_rng()
    gen = _Random.generator
    array = gen.standard_normal(shape, dtype=resolved) if normal else gen.random(shape, dtype=resolved)
    if like is not None:  # the same values, in the memory layout of a dense input (preserve_format)
        laid_out = np.empty_like(like, dtype=resolved, order=_ops.memory_order(like))
        laid_out[...] = array
        array = laid_out
    return _new(np.asarray(array), requires_grad)


@builtin("rand(*size, dtype=None, requires_grad=False)", method=False, summary="uniform random numbers in [0, 1)")
def rand(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _random(size, dtype, requires_grad, normal=False)


@builtin("randn(*size, dtype=None, requires_grad=False)", method=False, summary="standard normal random numbers")
def randn(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _random(size, dtype, requires_grad, normal=True)


@builtin("arange(start=0, end, step=1, dtype=None, requires_grad=False)", method=False,
         summary="values from start up to (not including) end")
def arange(start: float, end: float | None = None, step: float = 1, *, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    start, end, step = _number(start, "start"), _number(end, "end"), _number(step, "step")
    if step == 0:
        raise BadValueError("arange: step must be nonzero")
    if not all(math.isfinite(v) for v in (start, end, step)):
        raise BadValueError("arange: start, end and step must be finite")
    if (end - start) * step < 0:
        raise BadValueError("arange: upper bound and larger bound inconsistent with step sign")
    span = (end - start) / step
    if not span < 2**63:  # inf for arange(0, 1e300, 1e-300): no int to round it to
        raise LimitError(f"arange: {start:g} to {end:g} in steps of {step:g} is more than 2**63 elements",
                         hint="raise step, or narrow start and end", reason="elements")
    count = math.ceil(span)
    check_elements((count,))
    return _new((start + step * np.arange(count, dtype=np.float64)).astype(as_dtype(dtype)), requires_grad)


@builtin("linspace(start, end, steps, dtype=None, requires_grad=False)", method=False,
         summary="steps evenly spaced values from start to end")
def linspace(start: float, end: float, steps: int, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    (count,) = _sizes((steps,), "steps")
    check_elements((count,))
    values = np.linspace(_number(start, "start"), _number(end, "end"), count, dtype=np.float64)
    return _new(values.astype(as_dtype(dtype)), requires_grad)


@builtin("eye(n, m=None, dtype=None, requires_grad=False)", method=False, summary="the identity matrix")
def eye(n: int, m: int | None = None, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    rows, cols = _sizes((n, n if m is None else m))
    check_elements((rows, cols))
    return _new(np.eye(rows, cols, dtype=as_dtype(dtype)), requires_grad)


def _like(x: Any, dtype: Any) -> tuple[np.ndarray, Any]:
    t = _tensor_arg(x)
    return t._data, (t._data.dtype if dtype is None else dtype)


@builtin("ones_like(input, dtype=None, requires_grad=False)", method=False, summary="ones of input's shape")
def ones_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 1.0, dt, requires_grad, like=data)


@builtin("zeros_like(input, dtype=None, requires_grad=False)", method=False, summary="zeros of input's shape")
def zeros_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, 0.0, dt, requires_grad, like=data)


@builtin("full_like(input, fill_value, dtype=None, requires_grad=False)", method=False,
         summary="input's shape filled with one value")
def full_like(input: Any, fill_value: float, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _filled(data.shape, _number(fill_value, "fill_value"), dt, requires_grad, like=data)


@builtin("rand_like(input, dtype=None, requires_grad=False)", method=False, summary="uniform random, input's shape")
def rand_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=False, like=data)


@builtin("randn_like(input, dtype=None, requires_grad=False)", method=False, summary="normal random, input's shape")
def randn_like(input: Any, *, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    data, dt = _like(input, dtype)
    return _random(data.shape, dt, requires_grad, normal=True, like=data)


# ---------------------------------------------------------------------------- the create_graph vocabulary
class _TensorMath:
    """NumpyMath's vocabulary on Tensors, through recorded operations (for create_graph=True)."""

    exp = staticmethod(exp)
    log = staticmethod(log)
    sin = staticmethod(sin)
    cos = staticmethod(cos)
    sqrt = staticmethod(sqrt)
    sign = staticmethod(sign)
    matmul = staticmethod(matmul)
    pow = staticmethod(pow)
    where = staticmethod(_where)
    permute = staticmethod(lambda x, dims: permute(x, dims))
    transpose = staticmethod(transpose)
    unsqueeze = staticmethod(unsqueeze)
    reshape = staticmethod(lambda x, shape: reshape(x, shape))
    expand = staticmethod(lambda x, shape: expand(x, shape))
    index = staticmethod(getitem)
    cast = staticmethod(to)

    @staticmethod
    def mul_sum_to(a: Tensor, b: Any, shape: tuple[int, ...]) -> Tensor:
        return _TensorMath.sum_to(a * b, shape)

    @staticmethod
    def tanh_backward(g: Tensor, result: Tensor) -> Tensor:
        return g * (1 - result * result)

    @staticmethod
    def sigmoid_backward(g: Tensor, result: Tensor) -> Tensor:
        return g * (1 - result) * result

    @staticmethod
    def pow_backward(g: Tensor, x: Tensor, exponent: float) -> Tensor:
        return g * (exponent * pow(x, exponent - 1))

    @staticmethod
    def sqrt_backward(g: Tensor, result: Tensor) -> Tensor:
        return g / (2 * result)

    @staticmethod
    def values(x: Any) -> Any:
        return x._data if isinstance(x, Tensor) else x

    @staticmethod
    def sum(x: Tensor, dims: tuple[int, ...], keepdim: bool) -> Tensor:
        return sum(x, dims, keepdim)

    @staticmethod
    def sum_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
        if g.shape == shape:
            return g
        lead = g.ndim - len(shape)
        if lead < 0:
            return reshape(g, shape)
        dims = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1)
        reduced = sum(g, dims, True) if dims else g
        return reshape(reduced, shape) if lead else reduced

    @staticmethod
    def select_backward(g: Tensor, shape: tuple[int, ...], dim: int, index: int) -> Tensor:
        return apply(OPS["select_backward"], (g,), {"shape": shape, "dim": dim, "index": index})

    @staticmethod
    def slice_backward(g: Tensor, shape: tuple[int, ...], dim: int, start: int, stop: int, step: int) -> Tensor:
        return apply(OPS["slice_backward"], (g,),
                     {"shape": shape, "dim": dim, "start": start, "stop": stop, "step": step})


_ops.TensorMath = _TensorMath


# ---------------------------------------------------------------------------- Tensor operators and methods
def _reflected(fn: Callable) -> Callable:
    return lambda self, other: fn(other, self)


def _fast(op_name: str, general: Callable) -> Callable:
    """A Tensor operator that goes straight to the op for a Python number (the common scalar case)."""
    op = OPS[op_name]

    def operator(self: Tensor, other: Any) -> Tensor:
        if type(other) is float or type(other) is int:
            return apply(op, (self, other))
        return general(self, other)

    return operator


def _install_tensor_api() -> None:
    T = Tensor
    T.__add__ = T.__radd__ = _fast("add", add)
    T.__sub__ = _fast("sub", sub)
    T.__rsub__ = _reflected(sub)
    T.__mul__ = T.__rmul__ = _fast("mul", mul)
    T.__truediv__ = _fast("div", div)
    T.__rtruediv__ = _reflected(div)
    T.__pow__ = lambda self, other: pow(self, other)
    T.__rpow__ = _reflected(pow)
    T.__matmul__ = lambda self, other: matmul(self, other)
    T.__rmatmul__ = _reflected(matmul)
    T.__neg__ = lambda self: neg(self)
    T.__pos__ = lambda self: self
    T.__abs__ = lambda self: abs(self)
    T.__getitem__ = getitem
    T.__setitem__ = setitem
    T.T = property(lambda self: permute(self, tuple(reversed(range(self.ndim)))))
    T.mT = property(lambda self: transpose(self, -2, -1))
    for name, entry in BUILTINS.items():
        if entry.method and not hasattr(T, name):
            setattr(T, name, entry.fn)
    T.float = lambda self: to(self, "float32")
    T.double = lambda self: to(self, "float64")


_install_tensor_api()
