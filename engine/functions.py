"""The engine's differentiable functions (torch.* names): arithmetic, reductions, linear algebra, shapes.

Every differentiable function here resolves its arguments and calls `apply` with an entry of the op
table (ops.py); nothing computes a derivative outside that table. `BUILTINS` lists every public
function with its signature and the ops it may record: the language and `autodiff ops` read it.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from .constructors import _number, _operand, _sizes, _tensor_arg
from .errors import BadValueError, ShapeError
from .ops import OPS
from .recording import _binary, _both, _broadcast_shape, apply
from .registry import builtin
from .tensor import Tensor, _check_dim, as_dtype, check_dims, check_elements

# This module defines torch's sum, max, min, abs and pow; Python's built-ins of those names are not used here.


# ---------------------------------------------------------------------------- arithmetic
def _wrapped(a: Any, b: Any) -> Any:
    """torch.add(2, x) and the like: a number first is wrapped as a 0-d tensor of the other's dtype (so the
    node is the tensor-tensor one, with no edge for the number: DivBackward0, SubBackward0, ...)."""
    if not isinstance(a, Tensor) and isinstance(b, Tensor):
        return Tensor._make(np.asarray(a, dtype=b._data.dtype))
    return a


@builtin("add(input, other)", ("add",))
def add(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["add"], _wrapped(a, b), b)


@builtin("sub(input, other)", ("sub", "rsub"))
def sub(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["sub"], _wrapped(a, b), b)


def rsub(tensor: Tensor, number: Any) -> Tensor:
    """`number - tensor`, the operator: RsubBackward1 (torch.sub(number, tensor) is SubBackward0)."""
    a, b = _both(number, tensor)
    if not isinstance(a, Tensor):
        return apply(OPS["rsub"], (b,), {"other": a})
    return _binary(OPS["sub"], a, b)


@builtin("mul(input, other)", ("mul",))
def mul(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["mul"], _wrapped(a, b), b)


@builtin("div(input, other)", ("div", "reciprocal", "mul"))
def div(input: Any, other: Any) -> Tensor:
    a, b = _both(input, other)
    return _binary(OPS["div"], _wrapped(a, b), b)


def rdiv(tensor: Tensor, number: Any) -> Tensor:
    """`number / tensor`, the operator: recorded as reciprocal(tensor) * number, as PyTorch's __rtruediv__."""
    a, b = _both(number, tensor)
    if not isinstance(a, Tensor):
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


def _check_reduced(x: Tensor, dims: tuple[int, ...], keepdim: Any, what: str = "the reduction's result") -> None:
    """A reduction's result is no larger than its input, except over an empty dim: ones(10**9, 0).sum(1)
    has 10**9 elements. Checked against the element limit before numpy allocates them."""
    if x._data.size == 0:
        shape = x._data.shape
        check_elements(tuple(1 if d in dims else n for d, n in enumerate(shape)) if keepdim
                       else tuple(n for d, n in enumerate(shape) if d not in dims), what)


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
    dims = _softmax_dim(x, dim, "softmax")
    _check_reduced(x, dims, True, f"softmax's hidden sum along dim {dims[0] if dims else 0}")
    return apply(OPS["softmax"], (x,), {"dim": dims})


@builtin("log_softmax(input, dim)", ("log_softmax",))
def log_softmax(input: Any, dim: Any = None) -> Tensor:
    x = _tensor_arg(input)
    dims = _softmax_dim(x, dim, "log_softmax")
    _check_reduced(x, dims, True, f"log_softmax's hidden sum along dim {dims[0] if dims else 0}")
    return apply(OPS["log_softmax"], (x,), {"dim": dims})


# ---------------------------------------------------------------------------- linear algebra
def _dims_text(shape: tuple[int, ...]) -> str:
    return "x".join(str(n) for n in shape)


def _same_dtype(a: Tensor, b: Tensor) -> None:
    """Matrix products do not promote (PyTorch): float32 @ float64 is an error, not a float64 result."""
    if a._data.dtype != b._data.dtype:
        names = {"float32": "float", "float64": "double"}
        first, second = (names.get(x._data.dtype.name, x._data.dtype.name) for x in (a, b))
        raise BadValueError(
            f"expected m1 and m2 to have the same dtype, but got: {first} != {second}",
            hint="convert one of them first, e.g. a.double() @ b or a @ b.float()", reason="dtype")


@builtin("matmul(input, other)", ("dot", "mv", "mm", "unsqueeze", "squeeze_vm", "matmul"))
def matmul(input: Any, other: Any) -> Tensor:
    """Matrix product with numpy/PyTorch's rules for 1-D and batched operands."""
    a, b = _tensor_arg(input), _tensor_arg(other, "other")
    _same_dtype(a, b)
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
    _same_dtype(a, b)
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
    _same_dtype(a, v)
    if a.ndim != 2 or v.ndim != 1 or a._data.shape[1] != v._data.shape[0]:
        raise ShapeError(
            f"mv needs a matrix and a vector of matching size, got shapes {tuple(a.shape)} and {tuple(v.shape)}",
            reason="matmul", shapes=(a.shape, v.shape),
        )
    return apply(OPS["mv"], (a, v))


@builtin("dot(input, other)", ("dot",))
def dot(input: Any, other: Any) -> Tensor:
    a, b = _tensor_arg(input), _tensor_arg(other, "other")
    _same_dtype(a, b)
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
