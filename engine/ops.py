"""The table of differentiable operations: each one declared once.

An `Op` gives the forward computation (on numpy arrays), one backward formula per tensor input, and
the name of the node PyTorch records for it. Formulas are written in one vocabulary, `F`, that exists
twice: `NumpyMath` (plain arrays, for an ordinary backward pass) and the engine's own functions (for
`create_graph=True`, so that the backward pass is itself recorded and can be differentiated again).
Inside a formula, `g` is the gradient of the op's output and `s` holds the saved values: the inputs by
their slot names (`self`, `other`, ...), `result`, and the op's parameters. A Grad's `uses` names what
it needs saved (inputs, `result`, or a parameter PyTorch saves as a tensor, like max's `indices`); a
node that saved something cannot run a second time once backward has freed it.

Formulas return the gradient for the input's *broadcast* shape; the executor reduces it to the
input's own shape in one place (`sum_to`), as PyTorch's engine does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

VIEW_OPS = frozenset({"t", "transpose", "permute", "view", "reshape_alias", "alias", "unsqueeze", "squeeze",
                      "squeeze_dim", "squeeze_vm", "expand", "select", "slice"})

# Ops whose forward can meet a domain error or overflow on finite input (log(0), 1/0, exp(100)): they
# run with numpy's warnings off, as PyTorch gives inf/nan silently. The others skip that cost (about a
# microsecond an op); the CLI silences numpy for its whole run anyway.
NOISY_OPS = frozenset({"div", "pow", "pow_tensor", "pow_scalar_base", "exp", "log", "tan", "sigmoid", "sqrt",
                       "reciprocal", "softmax", "log_softmax", "mean", "mean_dim", "sin", "cos"})


# Elementwise ops of several tensors: their result takes the memory layout PyTorch gives it
# (see elementwise_layout), which decides whether a later reshape is a view or a copy.
MULTI_INPUT_ELEMENTWISE_OPS = frozenset({"add", "sub", "mul", "div", "pow_tensor", "maximum", "minimum", "where"})


@dataclass(frozen=True)
class Grad:
    """A backward formula for one input: `fn(F, g, s)`, the saved values it `uses`, and its text."""

    fn: Callable[[Any, Any, Any], Any]
    text: str
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One differentiable operation: forward, one Grad per tensor input, PyTorch's node name."""

    name: str
    node: str
    inputs: tuple[str, ...]
    forward: Callable[..., np.ndarray]
    grads: tuple[Grad, ...]
    doc: str = ""
    view: bool = field(init=False)  # the result shares the input's memory (see VIEW_OPS)
    noisy: bool = field(init=False)  # numpy would warn on some finite inputs (see NOISY_OPS)
    layout: bool = field(init=False)  # the result's layout follows PyTorch's rule (MULTI_INPUT_ELEMENTWISE_OPS)
    saved_for: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", self.name in VIEW_OPS)
        object.__setattr__(self, "noisy", self.name in NOISY_OPS)
        object.__setattr__(self, "layout", self.name in MULTI_INPUT_ELEMENTWISE_OPS)
        # For every combination of inputs that require grad: which saved values the formulas need,
        # as (name, slot index or None for `result`) pairs. PyTorch saves only these.
        table = {}
        for needs in itertools.product((False, True), repeat=len(self.inputs)):
            names: list[str] = []
            for flag, grad in zip(needs, self.grads):
                if flag:
                    names.extend(u for u in grad.uses if u not in names)
            table[needs] = tuple((n, self.inputs.index(n) if n in self.inputs else None) for n in names)
        object.__setattr__(self, "saved_for", table)


# ---------------------------------------------------------------------------- numpy vocabulary
# Memory layout matters to the graph: reshape records a view when the layout allows and a copy
# otherwise, so results keep the layout PyTorch gives them. Copies keep a dense input's layout
# (PyTorch's preserve_format) and are C-ordered otherwise; reductions over dims, softmax and
# number ** tensor are always C-ordered in PyTorch, where numpy would follow the input's order.
def _c_order(x: Any) -> np.ndarray:
    """x as a C-ordered array (a 0-d result stays 0-d, unlike with np.ascontiguousarray)."""
    return np.asarray(x, order="C")


def memory_order(x: np.ndarray) -> str:
    """'K' when x is dense and non-overlapping (every element once, no gaps), else 'C'."""
    expected = x.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(x.strides, x.shape) if n != 1):
        if stride != expected:
            return "C"
        expected *= size
    return "K"


def elementwise_layout(out: np.ndarray, inputs: Any) -> np.ndarray:
    """`out` laid out in memory as PyTorch lays out the result of an elementwise op on `inputs`.

    numpy settles inputs with conflicting layouts (x.T + y) in favour of C order; PyTorch's
    TensorIterator keeps a layout shared by all inputs, and otherwise orders the dims by the strides
    of the first input that orders them (broadcast dims have no say).
    """
    for x in inputs:  # the common case first: C-ordered inputs give a C-ordered result in both
        if type(x) is np.ndarray and not x.flags.c_contiguous:
            break
    else:
        return out
    arrays = [x for x in inputs if isinstance(x, np.ndarray) and x.ndim]
    shape, ndim = out.shape, out.ndim
    first = arrays[0]
    if all(x.shape == shape and x.strides == first.strides for x in arrays) and memory_order(first) == "K":
        order = sorted(range(ndim), key=lambda d: -first.strides[d])  # outermost dim first
    else:
        strides = []
        for x in arrays:
            lead = ndim - x.ndim
            strides.append([0] * lead + [0 if n == 1 and shape[lead + i] != 1 else abs(st)
                                         for i, (n, st) in enumerate(zip(x.shape, x.strides))])

        def should_swap(d0: int, d1: int) -> int:
            for st in strides:
                if st[d0] == 0 or st[d1] == 0:
                    continue
                if st[d0] != st[d1]:
                    return -1 if st[d0] < st[d1] else 1
                if shape[d0] > shape[d1]:
                    return 1
            return 0

        perm = list(range(ndim - 1, -1, -1))  # innermost dim first; an insertion sort as TensorIterator's
        for i in range(1, ndim):
            d1 = i
            for d0 in range(i - 1, -1, -1):
                comparison = should_swap(perm[d0], perm[d1])
                if comparison > 0:
                    perm[d0], perm[d1] = perm[d1], perm[d0]
                    d1 = d0
                elif comparison < 0:
                    break
        order = perm[::-1]
    if out.transpose(order).flags.c_contiguous:
        return out
    relaid = np.empty([shape[d] for d in order], dtype=out.dtype).transpose(np.argsort(order))
    relaid[...] = out
    return relaid


def _power(x: Any, exponent: float) -> Any:
    """x ** exponent with small integer exponents by multiplication (what PyTorch's kernel does)."""
    if exponent == 2:
        return x * x
    if exponent == 3:
        return x * x * x
    if exponent == 1:
        return x.copy(order=memory_order(x)) if isinstance(x, np.ndarray) else x
    if exponent == 0.5:
        return np.sqrt(x)
    if exponent == -1:
        return 1.0 / x
    if exponent == -2:
        return 1.0 / (x * x)
    if exponent == 0:
        return np.ones_like(x, order=memory_order(x)) if isinstance(x, np.ndarray) else np.ones_like(x)
    return np.power(x, exponent)


def _swapaxes(x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
    """np.swapaxes, also for a 0-d array (PyTorch transposes it to itself)."""
    return np.swapaxes(x, dim0, dim1) if x.ndim else x[...]


def _sum_to(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum a broadcast gradient back down to `shape` (the one place broadcasting is undone)."""
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    if lead < 0:  # an assignment dropped leading 1-sized dims of the value
        return g.reshape(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, size in enumerate(shape) if size == 1 and g.shape[lead + i] != 1
    )
    reduced = g.sum(axis=axes, keepdims=True) if axes else g
    return reduced.reshape(shape) if lead else reduced


def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a reduction over `dims` with keepdim=True."""
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def _expand_reduced(F: Any, g: Any, s: Any) -> Any:
    """Broadcast the gradient of a reduction over `dim` back to the input's shape."""
    return F.expand(F.reshape(g, kept_shape(s.input_shape, s.dim)), s.input_shape)


def _slice_scatter(g: np.ndarray, shape: tuple[int, ...], where: tuple) -> np.ndarray:
    out = np.zeros(shape, dtype=g.dtype)
    out[where] = g
    return out


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
CONTRACT_AT = 1 << 16  # elements of the broadcast product from which a contraction beats building it


def _mul_sum_to(a: Any, b: Any, shape: tuple[int, ...] | None) -> Any:
    if type(b) is not np.ndarray:  # a Python number: nothing broadcasts (the common scalar case, kept cheap)
        return a * b
    sa, sb = a.shape, b.shape
    if sa == shape and (sb == sa or sb == ()):
        return a * b
    product_shape = sa if sb == sa or sb == () else np.broadcast_shapes(sa, sb)
    if product_shape == tuple(shape):
        return a * b
    full, target = math.prod(product_shape), math.prod(shape)
    if full < CONTRACT_AT or full < 4 * target or len(product_shape) > len(_LETTERS):
        return _sum_to(a * b, tuple(shape))
    n, lead = len(product_shape), len(product_shape) - len(shape)
    kept = [k for k in range(n) if k >= lead and (shape[k - lead] != 1 or product_shape[k] == 1)]

    def operand(x: Any) -> tuple[str, np.ndarray]:
        # Axes that broadcast (size 1, or stride 0 as in an expanded gradient) carry no letter: the
        # contraction then works on the real data, never on a materialized broadcast.
        x = np.asarray(x)
        offset = n - x.ndim
        axes = [k for k in range(x.ndim) if x.shape[k] != 1 and x.strides[k] != 0]
        index = tuple(slice(None) if k in axes else 0 for k in range(x.ndim))
        return "".join(_LETTERS[offset + k] for k in axes), x[index]

    (sa, xa), (sb, xb) = operand(a), operand(b)
    present = [k for k in kept if _LETTERS[k] in sa or _LETTERS[k] in sb]
    reduced = np.einsum(f"{sa},{sb}->{''.join(_LETTERS[k] for k in present)}", xa, xb, optimize=True)
    # A summed axis along which neither operand varies adds up equal terms: multiply by its length.
    repeats = math.prod(product_shape[k] for k in range(n)
                        if k not in kept and _LETTERS[k] not in sa and _LETTERS[k] not in sb)
    if repeats != 1:
        reduced = reduced * repeats
    # Kept axes that no operand varies along: the sum is the same for every position on them.
    kept_shape = [product_shape[k] if k in present else 1 for k in kept]
    reduced = np.asarray(reduced).reshape(kept_shape)
    full_kept = [product_shape[k] for k in kept]
    return np.array(np.broadcast_to(reduced, full_kept)).reshape(shape)


def _fresh(x: Any) -> np.ndarray:
    """x itself if it is an array this formula just made (so it may be overwritten), else a copy."""
    return x if isinstance(x, np.ndarray) and x.base is None and x.flags.writeable else np.array(x)


class NumpyMath:
    """The formula vocabulary on plain numpy arrays (no graph is recorded).

    The *_backward helpers are PyTorch's backward formulas of the same names computed in place on one
    fresh array: numpy does not reuse a temporary combined with a Python number (`1 - r*r` allocates
    twice), and on large tensors every fresh array costs its page faults.
    """

    # sum_to(a * b, shape): when broadcasting made a * b much larger than shape, a contraction (einsum,
    # BLAS) that never builds the product; the gradient of a broadcast multiplication.
    mul_sum_to = staticmethod(_mul_sum_to)

    @staticmethod
    def tanh_backward(g: Any, result: Any) -> np.ndarray:
        """g * (1 - result**2)."""
        t = _fresh(result * result)
        np.subtract(1, t, out=t)
        return np.multiply(g, t, out=t)

    @staticmethod
    def sigmoid_backward(g: Any, result: Any) -> np.ndarray:
        """g * (1 - result) * result."""
        t = _fresh(np.subtract(1, result))
        np.multiply(g, t, out=t)
        return np.multiply(t, result, out=t)

    @staticmethod
    def pow_backward(g: Any, x: Any, exponent: float) -> np.ndarray:
        """g * (exponent * x**(exponent - 1))."""
        t = _fresh(_power(x, exponent - 1))
        np.multiply(exponent, t, out=t)
        return np.multiply(g, t, out=t)

    @staticmethod
    def sqrt_backward(g: Any, result: Any) -> np.ndarray:
        """g / (2 * result)."""
        t = _fresh(np.multiply(2, result))
        return np.divide(g, t, out=t)

    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
    sqrt = staticmethod(np.sqrt)
    sign = staticmethod(np.sign)
    matmul = staticmethod(np.matmul)
    pow = staticmethod(_power)
    sum_to = staticmethod(_sum_to)

    @staticmethod
    def cast(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
        return x.astype(dtype)

    @staticmethod
    def values(x: Any) -> Any:
        """The raw numbers of a saved value, for masks that are not differentiated."""
        return x

    @staticmethod
    def where(mask: np.ndarray, a: Any, b: Any) -> np.ndarray:
        return np.where(mask, a, b)

    @staticmethod
    def sum(x: np.ndarray, dims: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
        return np.sum(x, axis=dims, keepdims=keepdim)

    @staticmethod
    def expand(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return np.broadcast_to(x, shape)

    @staticmethod
    def reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return x.reshape(shape)

    @staticmethod
    def unsqueeze(x: np.ndarray, dim: int) -> np.ndarray:
        return np.expand_dims(x, dim)

    @staticmethod
    def transpose(x: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
        return _swapaxes(x, dim0, dim1)

    @staticmethod
    def permute(x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        return np.transpose(x, dims)

    @staticmethod
    def select_backward(g: np.ndarray, shape: tuple[int, ...], dim: int, index: int) -> np.ndarray:
        return _slice_scatter(g, shape, (slice(None),) * dim + (index,))

    @staticmethod
    def slice_backward(g: np.ndarray, shape: tuple[int, ...], dim: int, start: int, stop: int,
                       step: int) -> np.ndarray:
        return _slice_scatter(g, shape, (slice(None),) * dim + (slice(start, stop, step),))

    @staticmethod
    def index(g: np.ndarray, where: tuple) -> np.ndarray:
        return g[where]


# The create_graph vocabulary: set by functions.py to an object offering the same names as NumpyMath
# on Tensors, built from the engine's own (recorded) operations.
TensorMath: Any = None


# ---------------------------------------------------------------------------- forward helpers
def _max_all_grad(F: Any, g: Any, s: Any) -> Any:
    values = F.values(s.self)
    result = F.values(s.result)
    mask = np.isnan(values) if np.isnan(result) else values == result
    return F.where(mask, g / int(np.count_nonzero(mask)), 0.0)


def _indices_grad(F: Any, g: Any, s: Any) -> Any:
    """Gradient of a max/min over `dim`: all of it to the selected element (PyTorch's choice)."""
    if not s.input_shape:  # a 0-d input is its own max
        return g
    indices = s.indices if s.keepdim else np.expand_dims(s.indices, s.dim)
    mask = np.zeros(s.input_shape, dtype=bool)
    np.put_along_axis(mask, indices, True, axis=s.dim)
    g = g if s.keepdim else F.unsqueeze(g, s.dim)
    return F.where(mask, F.expand(g, s.input_shape), 0.0)


def _take_dim(x: np.ndarray, *, dim: int, keepdim: bool, indices: np.ndarray) -> np.ndarray:
    """The values at `indices` along `dim` (indices as argmax/argmin return them)."""
    if x.ndim == 0:
        return x.copy()
    values = np.take_along_axis(x, indices if keepdim else np.expand_dims(indices, dim), axis=dim)
    return values if keepdim else np.squeeze(values, axis=dim)


def _shifted(x: np.ndarray, dim: int) -> np.ndarray:
    """x minus its max along dim (for a stable exp); an empty x has no max and needs no shift."""
    return x - np.max(x, axis=dim, keepdims=True) if x.size else x


def _softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    e = np.exp(shifted)
    e /= np.sum(e, axis=dim, keepdims=True)
    return _c_order(e)


def _log_softmax(x: np.ndarray, *, dim: int) -> np.ndarray:
    shifted = _shifted(x, dim)
    return _c_order(shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True)))


def _pow_tensor_grad_self(F: Any, g: Any, s: Any) -> Any:
    exponent = F.values(s.exponent)
    return F.where(exponent == 0.0, 0.0, g * (s.exponent * s.self ** (s.exponent - 1)))


def _pow_tensor_grad_exponent(F: Any, g: Any, s: Any) -> Any:
    base, exponent = F.values(s.self), F.values(s.exponent)
    mask = (base == 0) & (exponent >= 0)
    return F.where(mask, 0.0, g * (s.result * F.log(s.self)))


def _pow_scalar_base_grad(F: Any, g: Any, s: Any) -> Any:
    log_base = math.log(s.base) if s.base > 0 else (-math.inf if s.base == 0 else math.nan)
    grad = g * (s.result * log_base)
    # PyTorch defines the derivative of 0 ** e with respect to e as 0 for e >= 0.
    return F.where(F.values(s.exponent) >= 0, 0.0, grad) if s.base == 0 else grad


def _clamp_forward(x: np.ndarray, *, min: float | None, max: float | None) -> np.ndarray:
    if min is not None and max is not None:
        return np.minimum(np.maximum(x, min), max)
    return np.maximum(x, min) if min is not None else np.minimum(x, max)


def _clamp_grad(F: Any, g: Any, s: Any) -> Any:
    x = F.values(s.self)
    mask = np.ones(np.shape(x), dtype=bool)
    if s.min is not None:
        mask &= x >= s.min
    if s.max is not None:
        mask &= x <= s.max
    return F.where(mask, g, 0.0)


def _maximum_grad(F: Any, g: Any, a: Any, b: Any) -> Any:
    a, b = F.values(a), F.values(b)
    return F.where(a == b, g / 2.0, F.where(a > b, g, 0.0))


def _matmul_nd_self(F: Any, g: Any, s: Any) -> Any:
    other = s.other
    if other.ndim == 1:
        return F.unsqueeze(g, -1) * other
    if len(s.input_shape) == 1:  # a vector times a batch: g lacks the row dim the vector stood for
        g = F.unsqueeze(g, -2)
    return F.matmul(g, F.transpose(other, -1, -2))


def _matmul_nd_other(F: Any, g: Any, s: Any) -> Any:
    this = s.self
    if this.ndim == 1:
        return F.unsqueeze(this, -1) * F.unsqueeze(g, -2)
    if s.other_ndim == 1:
        return F.matmul(F.transpose(this, -1, -2), F.unsqueeze(g, -1))[..., 0]
    return F.matmul(F.transpose(this, -1, -2), g)


# ---------------------------------------------------------------------------- the table
# The formulas are written so numpy can reuse its temporaries (it does for `temp op array`, and for
# `array op temp` when op commutes, but not with a Python number): `-(((self / other) / other) * g)`
# allocates one array where `-g * ((self / other) / other)` allocates two. Each is bit-for-bit the
# PyTorch formula its text gives (negation is exact, products commute).
_OPS: list[Op] = [
    # elementwise with two inputs (Python numbers allowed in either slot)
    Op("add", "AddBackward0", ("self", "other"), np.add,
       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: g, "grad")), "self + other"),
    Op("sub", "SubBackward0", ("self", "other"), np.subtract,
       (Grad(lambda F, g, s: g, "grad"), Grad(lambda F, g, s: -g, "-grad")), "self - other"),
    Op("rsub", "RsubBackward1", ("self",), lambda x, *, other: np.subtract(other, x),
       (Grad(lambda F, g, s: -g, "-grad"),), "other - self, for a number `other`"),
    Op("mul", "MulBackward0", ("self", "other"), np.multiply,
       (Grad(lambda F, g, s: F.mul_sum_to(g, s.other, s.input_shapes[0]), "grad * other", ("other",)),
        Grad(lambda F, g, s: F.mul_sum_to(g, s.self, s.input_shapes[1]), "grad * self", ("self",))),
       "self * other"),
    Op("div", "DivBackward0", ("self", "other"), np.divide,
       (Grad(lambda F, g, s: g / s.other, "grad / other", ("other",)),
        Grad(lambda F, g, s: -(((s.self / s.other) / s.other) * g), "-grad * self / other**2",
             ("self", "other"))), "self / other"),
    Op("pow", "PowBackward0", ("self",), lambda x, *, exponent: _power(x, exponent),
       (Grad(lambda F, g, s: g * 0.0 if s.exponent == 0 else F.pow_backward(g, s.self, s.exponent),
             "grad * exponent * self**(exponent - 1)", ("self",)),), "self ** exponent, for a number exponent"),
    Op("pow_tensor", "PowBackward1", ("self", "exponent"), np.power,
       (Grad(_pow_tensor_grad_self, "grad * exponent * self**(exponent - 1)", ("self", "exponent")),
        Grad(_pow_tensor_grad_exponent, "grad * result * log(self)", ("self", "exponent", "result"))),
       "self ** exponent, both tensors"),
    Op("pow_scalar_base", "PowBackward2", ("exponent",), lambda e, *, base: _c_order(np.power(base, e)),
       (Grad(_pow_scalar_base_grad, "grad * result * log(base)", ("exponent", "result")),),
       "base ** exponent, for a number base"),
    Op("maximum", "MaximumBackward0", ("self", "other"), np.maximum,
       (Grad(lambda F, g, s: _maximum_grad(F, g, s.self, s.other), "grad where self > other (half on ties)",
             ("self", "other")),
        Grad(lambda F, g, s: _maximum_grad(F, g, s.other, s.self), "grad where other > self (half on ties)",
             ("self", "other"))), "elementwise maximum"),
    Op("minimum", "MinimumBackward0", ("self", "other"), np.minimum,
       (Grad(lambda F, g, s: _maximum_grad(F, g, -F.values(s.self), -F.values(s.other)),
             "grad where self < other (half on ties)", ("self", "other")),
        Grad(lambda F, g, s: _maximum_grad(F, g, -F.values(s.other), -F.values(s.self)),
             "grad where other < self (half on ties)", ("self", "other"))), "elementwise minimum"),
    # elementwise with one input
    Op("neg", "NegBackward0", ("self",), np.negative, (Grad(lambda F, g, s: -g, "-grad"),), "-self"),
    Op("exp", "ExpBackward0", ("self",), np.exp,
       (Grad(lambda F, g, s: g * s.result, "grad * result", ("result",)),), "e ** self"),
    Op("log", "LogBackward0", ("self",), np.log,
       (Grad(lambda F, g, s: g / s.self, "grad / self", ("self",)),), "natural logarithm"),
    Op("sin", "SinBackward0", ("self",), np.sin,
       (Grad(lambda F, g, s: g * F.cos(s.self), "grad * cos(self)", ("self",)),), "sine"),
    Op("cos", "CosBackward0", ("self",), np.cos,
       (Grad(lambda F, g, s: g * -F.sin(s.self), "grad * -sin(self)", ("self",)),), "cosine"),
    Op("tan", "TanBackward0", ("self",), np.tan,
       (Grad(lambda F, g, s: g * (1 + s.result * s.result), "grad * (1 + result**2)", ("result",)),), "tangent"),
    Op("tanh", "TanhBackward0", ("self",), np.tanh,
       (Grad(lambda F, g, s: F.tanh_backward(g, s.result), "grad * (1 - result**2)", ("result",)),),
       "hyperbolic tangent"),
    Op("sigmoid", "SigmoidBackward0", ("self",), lambda x: 1 / (1 + np.exp(-x)),
       (Grad(lambda F, g, s: F.sigmoid_backward(g, s.result), "grad * (1 - result) * result", ("result",)),),
       "1 / (1 + e ** -self)"),
    Op("relu", "ReluBackward0", ("self",), lambda x: np.maximum(x, 0),
       (Grad(lambda F, g, s: F.where(F.values(s.result) > 0, g, 0.0), "grad where result > 0", ("result",)),),
       "max(self, 0)"),
    Op("sqrt", "SqrtBackward0", ("self",), np.sqrt,
       (Grad(lambda F, g, s: F.sqrt_backward(g, s.result), "grad / (2 * result)", ("result",)),), "square root"),
    Op("abs", "AbsBackward0", ("self",), np.abs,
       (Grad(lambda F, g, s: g * F.sign(s.self), "grad * sign(self)", ("self",)),), "absolute value"),
    Op("sign", "SignBackward0", ("self",), np.sign,
       (Grad(lambda F, g, s: g * 0.0, "0"),), "-1, 0 or 1"),
    Op("reciprocal", "ReciprocalBackward0", ("self",), lambda x: 1 / x,
       (Grad(lambda F, g, s: -((s.result * s.result) * g), "-grad * result**2", ("result",)),), "1 / self"),
    Op("clamp", "ClampBackward1", ("self",), _clamp_forward,
       (Grad(_clamp_grad, "grad where min <= self <= max", ("self",)),), "self limited to [min, max]"),
    Op("where", "WhereBackward0", ("self", "other"), lambda a, b, *, condition: np.where(condition, a, b),
       (Grad(lambda F, g, s: F.where(s.condition, g, 0.0), "grad where condition"),
        Grad(lambda F, g, s: F.where(s.condition, 0.0, g), "grad where not condition")),
       "self where condition, else other"),
    # reductions
    Op("sum", "SumBackward0", ("self",), lambda x: np.sum(x),
       (Grad(lambda F, g, s: F.expand(g, s.input_shape), "grad expanded to self's shape"),), "sum of all elements"),
    Op("sum_dim", "SumBackward1", ("self",),
       lambda x, *, dim, keepdim: _c_order(np.sum(x, axis=dim, keepdims=keepdim)),
       (Grad(_expand_reduced, "grad expanded over the summed dims"),), "sum over dims"),
    # sum / count is what np.mean computes, without its warning for an empty input (0/0 is nan, as in PyTorch)
    Op("mean", "MeanBackward0", ("self",), lambda x, *, count: np.sum(x) / count,
       (Grad(lambda F, g, s: F.expand(g / s.count, s.input_shape), "grad / numel expanded to self's shape"),),
       "mean of all elements"),
    Op("mean_dim", "MeanBackward1", ("self",),
       lambda x, *, dim, keepdim, count: _c_order(np.sum(x, axis=dim, keepdims=keepdim) / count),
       (Grad(lambda F, g, s: _expand_reduced(F, g / s.count, s), "grad / count expanded over the averaged dims"),),
       "mean over dims"),
    Op("max", "MaxBackward1", ("self",), lambda x: np.max(x),
       (Grad(_max_all_grad, "grad shared evenly by the elements equal to the max", ("self", "result")),),
       "largest element"),
    Op("min", "MinBackward1", ("self",), lambda x: np.min(x),
       (Grad(_max_all_grad, "grad shared evenly by the elements equal to the min", ("self", "result")),),
       "smallest element"),
    Op("max_dim", "MaxBackward0", ("self",),
       _take_dim, (Grad(_indices_grad, "grad to the position of the max along dim", ("indices",)),),
       "max over a dim"),
    Op("min_dim", "MinBackward0", ("self",),
       _take_dim, (Grad(_indices_grad, "grad to the position of the min along dim", ("indices",)),),
       "min over a dim"),
    Op("softmax", "SoftmaxBackward0", ("self",), _softmax,
       (Grad(lambda F, g, s: s.result * (g - F.sum(g * s.result, s.dim, True)),
             "result * (grad - sum(grad * result, dim))", ("result",)),), "exp(self) / sum(exp(self), dim)"),
    Op("log_softmax", "LogSoftmaxBackward0", ("self",), _log_softmax,
       (Grad(lambda F, g, s: g - F.exp(s.result) * F.sum(g, s.dim, True),
             "grad - exp(result) * sum(grad, dim)", ("result",)),), "self - log(sum(exp(self), dim))"),
    # linear algebra
    Op("mm", "MmBackward0", ("self", "mat2"), np.matmul,
       (Grad(lambda F, g, s: F.matmul(g, F.transpose(s.mat2, 0, 1)), "grad @ mat2.T", ("mat2",)),
        Grad(lambda F, g, s: F.matmul(F.transpose(s.self, 0, 1), g), "self.T @ grad", ("self",))),
       "matrix @ matrix"),
    Op("mv", "MvBackward0", ("self", "vec"), np.matmul,
       (Grad(lambda F, g, s: F.unsqueeze(g, 1) * s.vec, "outer(grad, vec)", ("vec",)),
        Grad(lambda F, g, s: F.matmul(F.transpose(s.self, 0, 1), g), "self.T @ grad", ("self",))),
       "matrix @ vector"),
    Op("dot", "DotBackward0", ("self", "other"), np.dot,
       (Grad(lambda F, g, s: g * s.other, "grad * other", ("other",)),
        Grad(lambda F, g, s: g * s.self, "grad * self", ("self",))), "vector . vector"),
    Op("matmul", "MatmulBackward0", ("self", "other"), lambda a, b, *, other_ndim: np.matmul(a, b),
       (Grad(_matmul_nd_self, "grad @ other.mT (summed over broadcast batch dims)", ("other",)),
        Grad(_matmul_nd_other, "self.mT @ grad (summed over broadcast batch dims)", ("self",))),
       "batched matrix product"),
    # shape and view operations (they save no tensors)
    Op("t", "TBackward0", ("self",), lambda x: x.T,
       (Grad(lambda F, g, s: F.transpose(g, 0, 1) if g.ndim == 2 else g, "grad.t()"),), "transpose of a matrix"),
    Op("transpose", "TransposeBackward0", ("self",), lambda x, *, dim0, dim1: _swapaxes(x, dim0, dim1),
       (Grad(lambda F, g, s: F.transpose(g, s.dim0, s.dim1), "grad.transpose(dim0, dim1)"),), "swap two dims"),
    Op("permute", "PermuteBackward0", ("self",), lambda x, *, dims: np.transpose(x, dims),
       (Grad(lambda F, g, s: F.permute(g, tuple(int(i) for i in np.argsort(s.dims))), "grad permuted back"),),
       "reorder dims"),
    Op("view", "ViewBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),), "same data, new shape"),
    Op("reshape_alias", "ReshapeAliasBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),),
       "same data, new shape (reshape of non-contiguous data that a view can still express)"),
    Op("unsafe_view", "UnsafeViewBackward0", ("self",), lambda x, *, shape: x.reshape(shape),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),),
       "new shape of a fresh copy (reshape of non-contiguous data)"),
    Op("to", "ToCopyBackward0", ("self",), lambda x, *, dtype: x.astype(dtype, order=memory_order(x)),
       (Grad(lambda F, g, s: F.cast(g, s.input_dtype), "grad converted back to self's dtype"),),
       "convert to another dtype"),
    Op("clone", "CloneBackward0", ("self",),
       lambda x, *, contiguous=False: np.array(x, copy=True, order="C" if contiguous else memory_order(x)),
       (Grad(lambda F, g, s: g, "grad"),), "a copy"),
    Op("alias", "AliasBackward0", ("self",), lambda x: x[...],
       (Grad(lambda F, g, s: g, "grad"),), "the same data (x[...], x[:, :])"),
    Op("unsqueeze", "UnsqueezeBackward0", ("self",), lambda x, *, dim: np.expand_dims(x, dim),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.squeeze(dim)"),), "insert a dim of size 1"),
    Op("squeeze", "SqueezeBackward0", ("self",), lambda x: x.reshape([n for n in x.shape if n != 1]),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.reshape(self.shape)"),), "remove dims of size 1"),
    Op("squeeze_dim", "SqueezeBackward1", ("self",),
       lambda x, *, dim: np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x[...],
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.unsqueeze(dim)"),), "remove one dim of size 1"),
    Op("squeeze_vm", "SqueezeBackward4", ("self",), lambda x, *, dim: np.squeeze(x, dim),
       (Grad(lambda F, g, s: F.reshape(g, s.input_shape), "grad.unsqueeze(dim)"),),
       "remove the dim matmul added to a vector"),
    Op("expand", "ExpandBackward0", ("self",), lambda x, *, shape: np.broadcast_to(x, shape),
       (Grad(lambda F, g, s: F.sum_to(g, s.input_shape), "grad summed back to self's shape"),),
       "broadcast to a larger shape (no copy)"),
    Op("select", "SelectBackward0", ("self",), lambda x, *, dim, index: x[(slice(None),) * dim + (index,)],
       (Grad(lambda F, g, s: F.select_backward(g, s.input_shape, s.dim, s.index),
             "zeros of self's shape with grad at [index] along dim"),), "x[i] along a dim"),
    Op("slice", "SliceBackward0", ("self",),
       lambda x, *, dim, start, stop, step: x[(slice(None),) * dim + (slice(start, stop, step),)],
       (Grad(lambda F, g, s: F.slice_backward(g, s.input_shape, s.dim, s.start, s.stop, s.step),
             "zeros of self's shape with grad at [start:stop:step] along dim"),), "x[a:b:c] along a dim"),
    Op("select_backward", "SelectBackwardBackward0", ("self",),
       lambda g, *, shape, dim, index: NumpyMath.select_backward(g, shape, dim, index),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (s.index,)), "grad[index] along dim"),),
       "scatter into zeros (the backward of select)"),
    Op("slice_backward", "SliceBackwardBackward0", ("self",),
       lambda g, *, shape, dim, start, stop, step: NumpyMath.slice_backward(g, shape, dim, start, stop, step),
       (Grad(lambda F, g, s: F.index(g, (slice(None),) * s.dim + (slice(s.start, s.stop, s.step),)),
             "grad[start:stop:step] along dim"),), "scatter into zeros (the backward of a slice)"),
    Op("copy_slices", "CopySlices", ("self", "src"), None,  # recorded by setitem, never applied directly
       (Grad(lambda F, g, s: F.where(s.outside, g, 0.0), "grad with the written region zeroed", ("outside",)),
        Grad(lambda F, g, s: F.index(g, s.where), "grad[index] (summed to the value's shape)", ("where",))),
       "self[index] = src"),
]

OPS: dict[str, Op] = {op.name: op for op in _OPS}
