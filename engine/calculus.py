"""The functions of a calculus course: inverse trigonometric and hyperbolic functions, logarithms and
exponentials in other bases, the error function, rounding, and the ones PyTorch does not have as
functions of their own (sec, csc, cot, cbrt), which are recorded as the primitive operations they are
made of, so the graph shows what was computed. numpy's spellings (arcsin, ...) and `ln` are aliases."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .constructors import _tensor_arg
from .errors import BadValueError, ShapeError
from .functions import _check_reduced, _dims, abs, cos, mul, pow, reciprocal, reshape, sign, sin, tan
from .ops import OPS, Grad, Op
from .recording import _binary, apply
from .registry import BUILTINS, alias, builtin
from .tensor import Tensor, _check_dim, check_elements


def _unary(name: str) -> Callable[[Any], Tensor]:
    op = OPS[name]

    def function(input: Any) -> Tensor:
        return apply(op, (_tensor_arg(input),))

    function.__name__ = name
    function.__doc__ = op.doc
    builtin(f"{name}(input)", (name,))(function)
    return function


asin = _unary("asin")
acos = _unary("acos")
atan = _unary("atan")
sinh = _unary("sinh")
cosh = _unary("cosh")
asinh = _unary("asinh")
acosh = _unary("acosh")
atanh = _unary("atanh")
log2 = _unary("log2")
log10 = _unary("log10")
log1p = _unary("log1p")
expm1 = _unary("expm1")
exp2 = _unary("exp2")
erf = _unary("erf")
erfc = _unary("erfc")
rsqrt = _unary("rsqrt")
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")
trunc = _unary("trunc")
frac = _unary("frac")


@builtin("atan2(input, other)", ("atan2",), summary="the angle of the point (other, input), in radians")
def atan2(input: Any, other: Any) -> Tensor:
    return _binary(OPS["atan2"], _tensor_arg(input), _tensor_arg(other, "other"))


@builtin("hypot(input, other)", ("hypot",))
def hypot(input: Any, other: Any) -> Tensor:
    return _binary(OPS["hypot"], _tensor_arg(input), _tensor_arg(other, "other"))


# ---------------------------------------------------------------------------- composites
@builtin("sec(input)", ("cos", "reciprocal"), method=False, summary="1 / cos(input), recorded as those two ops")
def sec(input: Any) -> Tensor:
    return reciprocal(cos(input))


@builtin("csc(input)", ("sin", "reciprocal"), method=False, summary="1 / sin(input), recorded as those two ops")
def csc(input: Any) -> Tensor:
    return reciprocal(sin(input))


@builtin("cot(input)", ("tan", "reciprocal"), method=False, summary="1 / tan(input), recorded as those two ops")
def cot(input: Any) -> Tensor:
    return reciprocal(tan(input))


@builtin("cbrt(input)", ("sign", "abs", "pow", "mul"), method=False,
         summary="the real cube root (cbrt(-8) is -2), recorded as sign(input) * abs(input) ** (1/3)")
def cbrt(input: Any) -> Tensor:
    x = _tensor_arg(input)
    return mul(sign(x), pow(abs(x), 1.0 / 3.0))


# ---------------------------------------------------------------------------- reductions
def _reduced(x: Tensor, dim: Any, keepdim: bool, name: str) -> tuple[tuple[int, ...], bool]:
    """dim as sorted dims (all of them for None or ()), checked like sum's."""
    dims = _dims(dim, x.ndim) if dim is not None and dim != () else tuple(range(x.ndim))
    _check_reduced(x, dims, keepdim)
    return dims, bool(keepdim)


@builtin("prod(input, dim=None, keepdim=False)", ("prod", "prod_dim"))
def prod(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "prod")
    return apply(OPS["prod" if dim is None else "prod_dim"], (x,), {"dim": dims, "keepdim": keep})


def _correction(unbiased: Any, correction: Any) -> int:
    if correction is not None:
        return int(correction)
    return 1 if unbiased is None or unbiased else 0


@builtin("var(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("var",))
def var(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "var")
    return apply(OPS["var"], (x,), {"dim": dims, "keepdim": keep, "correction": _correction(unbiased, correction)})


@builtin("std(input, dim=None, unbiased=True, keepdim=False, correction=None)", ("std",))
def std(input: Any, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "std")
    return apply(OPS["std"], (x,), {"dim": dims, "keepdim": keep, "correction": _correction(unbiased, correction)})


@builtin("logsumexp(input, dim, keepdim=False)", ("logsumexp",))
def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "logsumexp")
    return apply(OPS["logsumexp"], (x,), {"dim": dims, "keepdim": keep})


@builtin("amax(input, dim=(), keepdim=False)", ("amax",))
def amax(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "amax")
    if x._data.size == 0:
        raise BadValueError("amax(): the input is empty, so it has no largest element", reason="empty")
    return apply(OPS["amax"], (x,), {"dim": dims, "keepdim": keep})


@builtin("amin(input, dim=(), keepdim=False)", ("amin",))
def amin(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    dims, keep = _reduced(x, dim, keepdim, "amin")
    if x._data.size == 0:
        raise BadValueError("amin(): the input is empty, so it has no smallest element", reason="empty")
    return apply(OPS["amin"], (x,), {"dim": dims, "keepdim": keep})


@builtin("norm(input, p=2, dim=None, keepdim=False)", ("norm",))
def norm(input: Any, p: Any = 2, dim: Any = None, keepdim: bool = False) -> Tensor:
    x = _tensor_arg(input)
    if p not in (2, 2.0, "fro", None):
        raise BadValueError(f"norm(): only the Euclidean norm (p=2) is available, got p={p!r}",
                            hint="for another p, write (abs(x) ** p).sum() ** (1 / p)", reason="norm")
    dims, keep = _reduced(x, dim, keepdim, "norm")
    return apply(OPS["norm"], (x,), {"dim": dims, "keepdim": keep})


@builtin("cumsum(input, dim)", ("cumsum",))
def cumsum(input: Any, dim: int) -> Tensor:
    x = _tensor_arg(input)
    return apply(OPS["cumsum"], (x,), {"dim": _check_dim(dim, max(x.ndim, 1)) if x.ndim else 0})


@builtin("cumprod(input, dim)", ("cumprod",))
def cumprod(input: Any, dim: int) -> Tensor:
    x = _tensor_arg(input)
    return apply(OPS["cumprod"], (x,), {"dim": _check_dim(dim, max(x.ndim, 1)) if x.ndim else 0})


# ---------------------------------------------------------------------------- linear algebra
def _matrix(x: Tensor, name: str, square: bool = True) -> None:
    shape = tuple(x.shape)
    if len(shape) != 2 or (square and shape[0] != shape[1]):
        what = "a square matrix" if square else "a matrix"
        raise ShapeError(f"{name}() expects {what} (2-D), got shape {shape}", reason="matrix", shapes=(shape,))


@builtin("trace(input)", ("trace",))
def trace(input: Any) -> Tensor:
    x = _tensor_arg(input)
    _matrix(x, "trace", square=False)
    return apply(OPS["trace"], (x,))


@builtin("det(input)", ("det",))
def det(input: Any) -> Tensor:
    x = _tensor_arg(input)
    _matrix(x, "det")
    return apply(OPS["det"], (x,))


@builtin("inverse(input)", ("inverse",))
def inverse(input: Any) -> Tensor:
    x = _tensor_arg(input)
    _matrix(x, "inverse")
    return apply(OPS["inverse"], (x,))


@builtin("outer(input, vec2)", ("view", "mul"), summary="the outer product of two vectors: a matrix")
def outer(input: Any, vec2: Any) -> Tensor:
    a, b = _tensor_arg(input), _tensor_arg(vec2, "vec2")
    if a.ndim != 1 or b.ndim != 1:
        raise ShapeError(f"outer() expects two vectors (1-D), got shapes {tuple(a.shape)} and {tuple(b.shape)}",
                         reason="matrix", shapes=(tuple(a.shape), tuple(b.shape)))
    return mul(reshape(a, a._data.shape[0], 1), b)


@builtin("diag(input)", ("diag_embed", "diagonal_copy"),
         summary="a vector as a diagonal matrix, or the diagonal of a matrix")
def diag(input: Any) -> Tensor:
    x = _tensor_arg(input)
    if x.ndim == 1:
        n = x._data.shape[0]
        check_elements((n, n), "the diagonal matrix")
        return apply(OPS["diag_embed"], (x,))
    if x.ndim == 2:
        return apply(OPS["diagonal_copy"], (x,))
    raise ShapeError(f"diag() expects a vector or a matrix, got shape {tuple(x.shape)}", reason="matrix",
                     shapes=(tuple(x.shape),))


# ---------------------------------------------------------------------------- stack and cat
def _tensors(tensors: Any, name: str) -> list[Tensor]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise BadValueError(f"{name}() expects a non-empty list of tensors, e.g. {name}([x**2, sin(y)])",
                            reason="tensors")
    return [_tensor_arg(t, f"each element of the list given to {name}()") for t in tensors]


def _joined(name: str, count: int) -> Op:
    """The op that stacks or concatenates `count` tensors: the table's entry, with one Grad per input."""
    key = (name, count)
    op = _JOINED.get(key)
    if op is None:
        base = OPS[name]
        grads = tuple(Grad(_part(name, i), base.grads[0].text) for i in range(count))
        op = Op(name, base.node, tuple(f"tensors[{i}]" for i in range(count)), base.forward, grads, base.doc)
        _JOINED[key] = op
    return op


def _part(name: str, i: int) -> Any:
    """The gradient of input i: its slice of the gradient along dim."""
    if name == "stack":
        return lambda F, g, s: F.index(g, (slice(None),) * s.dim + (i,))
    return lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(*s.spans[i]),))


_JOINED: dict[tuple[str, int], Op] = {}


@builtin("stack(tensors, dim=0)", ("stack",), method=False, summary="tensors of one shape along a new dim")
def stack(tensors: Any, dim: int = 0) -> Tensor:
    items = _tensors(tensors, "stack")
    shapes = {tuple(t.shape) for t in items}
    if len(shapes) != 1:
        raise ShapeError(f"stack expects each tensor to be equal size, got shapes {sorted(shapes)}", reason="stack",
                         shapes=tuple(sorted(shapes)))
    d = _check_dim(dim, items[0].ndim + 1)
    return _join(items, "stack", {"dim": d}, [None] * len(items))


@builtin("cat(tensors, dim=0)", ("cat",), method=False, summary="tensors joined along an existing dim")
def cat(tensors: Any, dim: int = 0) -> Tensor:
    items = _tensors(tensors, "cat")
    d = _check_dim(dim, max(items[0].ndim, 1))
    for t in items[1:]:
        if t.ndim != items[0].ndim or any(a != b for i, (a, b) in enumerate(zip(t.shape, items[0].shape)) if i != d):
            raise ShapeError(f"cat: the tensors must have the same shape except in dim {d}, got "
                             f"{tuple(items[0].shape)} and {tuple(t.shape)}", reason="cat")
    starts, position = [], 0
    for t in items:
        starts.append((position, position + t._data.shape[d]))
        position += t._data.shape[d]
    return _join(items, "cat", {"dim": d}, starts)


def _join(items: list[Tensor], name: str, params: dict, spans: list) -> Tensor:
    dtype = np.result_type(*(t._data.dtype for t in items))
    arrays = [t._data.astype(dtype) for t in items]
    return apply(_joined(name, len(items)), items, {**params, "spans": tuple(spans)}, arrays)


# numpy's and mathematics' spellings
for _alias, _target in (("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"), ("arctan2", "atan2"),
                        ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh"), ("ln", "log")):
    alias(_alias, _target)

__all__ = [name for name in BUILTINS]
