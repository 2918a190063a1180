"""The Tensor's API, installed in one place once every function exists (`install`, which the package calls after
importing every module): its public constructor, its
operators (x + y, x[i], -x, ...), backward, the in-place updates and every built-in declared as a method
(x.sum(), x.exp(), ...). It also lists what the Tensor offers a program (`TENSOR_METHODS`,
`TENSOR_PROPERTIES`): the language's allow-list reads them, so the two cannot drift apart.

`OPERATORS` names the built-in each binary operator calls, and `REFLECTED` how `number - x` and
`number / x` are recorded: the Tensor's operators are made from them here, and a backend other than the
engine (autodiff diff's) reads them to give the operators the same meaning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import BadValueError
from ..ops.arithmetic import ADD, DIV, MUL, REFLECTED, SUB, UNSET, floor_divide_, rdiv, rsub
from ..ops.elementwise import clamp
from ..ops.shapes import permute, to, transpose
from . import dtypes, protocols
from .autograd import backward
from .coerce import END, LOWEST, array_from, checked_number
from .inplace import fill_, fresh, plain_update_, update_
from .optable import Op
from .recording import apply
from .registry import BUILTINS
from .settings import as_dtype
from .tensor import Tensor

# The built-in each operator of the language calls, and (REFLECTED) how a number on the left is recorded.
OPERATORS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "**": "pow", "@": "matmul"}
UNARY_OPERATORS = {"-": "neg"}


def _init(self: Tensor, data: Any = None, *, requires_grad: bool = False, dtype: Any = None) -> None:
    """Tensor(data, requires_grad=False, dtype=None): a new leaf holding a copy of data."""
    array = array_from([] if data is None else data, as_dtype(dtype) if dtype is not None else None)
    self._init(array)
    if requires_grad:
        self.requires_grad_(True)


def _fast(op: Op, general: Callable) -> Callable:
    """A Tensor operator that goes straight to the op for a Python number (the common scalar case)."""

    def operator(self: Tensor, other: Any) -> Tensor:
        if type(other) is float or (type(other) is int and LOWEST <= other < END):  # (2**70: the OverflowError)
            return apply(op, (self, other))
        return general(self, other)

    return operator


def _reflected(fn: Callable) -> Callable:
    return lambda self, other: fn(other, self)


def _backward(self: Tensor, gradient: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
              inputs: Any = None) -> None:
    """Accumulate d(self)/d(leaf) into every leaf's .grad, as torch.Tensor.backward does."""
    backward(self, gradient, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)


def _fill(self: Tensor, value: float) -> Tensor:
    """Fill with a number in place (FillBackward2 when it needs grad), or with a 0-d tensor: PyTorch's
    fill_.Tensor, which is self[...] = value (FillBackward3, or CopySlices on a view's base), the value's
    gradient the sum of the gradient over what it filled."""
    if isinstance(value, Tensor) and value.ndim != 0:
        raise BadValueError(f"fill_ only supports a 0-dimension value tensor, but got a tensor with "
                            f"{value.ndim} dimensions", reason="arguments")
    if not isinstance(value, (Tensor, int, float, np.number)):
        raise BadValueError(f"fill_() takes a number, not {type(value).__name__}", reason="arguments")
    if isinstance(value, Tensor):
        from ..ops.indexing import setitem  # imported after this module

        setitem(self, Ellipsis, value)
        return self
    value = checked_number(value.item() if isinstance(value, np.generic) else value, self._data.dtype)
    # an int as it is (int64's 2**62 + 1), or refused (uint8 and 300); a float tensor's value a float
    return fill_(self, value if self._data.dtype.kind in "iu" else float(value), "fill_")


def _indexing() -> Any:
    from ..ops import indexing  # imported after this module

    return indexing


def _distributions() -> Any:
    from ..random import distributions

    return distributions


def _randomfill() -> Any:
    from ..random import random_fill as randomfill

    return randomfill


def _plus(t: Tensor, other: Any, alpha: Any, name: str) -> Tensor:
    """t + alpha * other (add_) or t - alpha * other (sub_): the operator for the usual alpha of 1."""
    if type(alpha) is int and alpha == 1:
        return t + other if name == "add" else t - other
    return BUILTINS[name].fn(t, other, alpha=alpha)


def _plain(t: Tensor, other: Any, alpha: Any, ufunc: np.ufunc) -> bool:
    """add_/sub_ with the usual alpha of 1 on tensors that record nothing, done in place (inplace.plain_update_)."""
    return type(alpha) is int and alpha == 1 and plain_update_(t, other, ufunc)


# In-place updates (x += y is x.add_(y)): the result is written into the tensor's memory; where nothing is recorded
# (plain tensors of one dtype and shape), straight into it (inplace.plain_update_: the same bits).
INPLACE: dict[str, Callable[..., Tensor]] = {
    "add_": lambda self, other, *, alpha=1: self if _plain(self, other, alpha, np.add) else update_(
        self, lambda t: _plus(t, other, alpha, "add"), "add_"),
    "sub_": lambda self, other, *, alpha=1: self if _plain(self, other, alpha, np.subtract) else update_(
        self, lambda t: _plus(t, other, alpha, "sub"), "sub_"),
    "mul_": lambda self, other: self if plain_update_(self, other, np.multiply) else update_(
        self, lambda t: t * other, "mul_"),
    "div_": lambda self, other, *, rounding_mode=UNSET: self if (
        rounding_mode is UNSET and plain_update_(self, other, np.divide)) else update_(
        self, lambda t: t / other if rounding_mode is UNSET else BUILTINS["div"].fn(t, other, rounding_mode), "div_"),
    "floor_divide_": floor_divide_,
    "masked_fill_": lambda self, mask, value: update_(self, lambda t: BUILTINS["masked_fill"].fn(t, mask, value),
                                                      "masked_fill_"),
    "index_put_": lambda self, indices, values, accumulate=False: _indexing().index_put_(self, indices, values,
                                                                                       accumulate),
    "pow_": lambda self, exponent: update_(self, lambda t: t**exponent, "pow_"),
    "clamp_": lambda self, min=None, max=None: update_(self, lambda t: clamp(t, min, max), "clamp_"),
    "clip_": lambda self, min=None, max=None: update_(self, lambda t: clamp(t, min, max), "clip_"),
    "abs_": lambda self: update_(self, BUILTINS["abs"].fn, "abs_"),
    "zero_": lambda self: fill_(self, 0.0, "zero_"),
    "fill_": _fill,
    # Writes at integer indices: x.index_add_(0, idx, src), x.scatter_add_(0, idx, src), x.scatter_(0, idx, src)
    "index_add_": lambda self, dim, index, source, *, alpha=1: update_(
        self, lambda t: BUILTINS["index_add"].fn(t, dim, index, source, alpha=alpha), "index_add_"),
    "scatter_add_": lambda self, dim, index, src: update_(
        self, lambda t: BUILTINS["scatter_add"].fn(t, dim, index, src), "scatter_add_"),
    "bitwise_left_shift_": lambda self, other: update_(
        self, lambda t: BUILTINS["bitwise_left_shift"].fn(t, other), "bitwise_left_shift_"),
    "bitwise_right_shift_": lambda self, other: update_(
        self, lambda t: BUILTINS["bitwise_right_shift"].fn(t, other), "bitwise_right_shift_"),
    "scatter_": lambda self, dim, index, src=None, value=None: update_(
        self, lambda t: BUILTINS["scatter"].fn(t, dim, index, src, value), "scatter_"),
    # Random values written in place, PyTorch's numbers after manual_seed (not recorded)
    "normal_": lambda self, mean=0.0, std=1.0, *, generator=None: _distributions().normal_(self, mean, std,
                                                                                            generator=generator),
    "uniform_": lambda self, from_=0.0, to=1.0, *, generator=None: _distributions().uniform_(self, from_, to,
                                                                                             generator=generator),
    "exponential_": lambda self, lambd=1.0, *, generator=None: _distributions().exponential_(self, lambd,
                                                                                             generator=generator),
    "random_": lambda self, *bounds, generator=None, **named: _randomfill().random_(self, *bounds, generator=generator,
                                                                                   **named),
}


def _unary_inplace(name: str) -> Callable[..., Tensor]:
    return lambda self: update_(self, BUILTINS[name].fn, f"{name}_")


# x.exp_(), x.cos_(), ...: the elementwise functions in place, recorded as the function's node (ExpBackward0)
INPLACE.update({f"{name}_": _unary_inplace(name) for name in (
    "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "relu",
    "asin", "acos", "atan", "sinh", "cosh", "neg", "reciprocal", "floor", "ceil", "round", "trunc", "frac", "sign",
    "square", "erf", "erfc", "exp2",
    # the special functions (ops/special.py) and the unary functions of the rooms imported on first use
    "erfinv", "lgamma", "digamma", "i0", "asinh", "acosh", "atanh", "sinc", "deg2rad", "rad2deg", "arcsin", "arccos",
    "arctan", "arcsinh", "arccosh", "arctanh", "negative", "absolute")})


def _binary_inplace(name: str) -> Callable[..., Tensor]:
    return lambda self, other: update_(self, lambda t: BUILTINS[name].fn(t, other), f"{name}_")


# x.fmod_(y), x.atan2_(y), ...: the functions of a second operand in place; those with parameters as they take them
INPLACE.update({f"{name}_": _binary_inplace(name) for name in (
    "fmod", "remainder", "hypot", "atan2", "arctan2", "copysign", "xlogy", "clamp_min", "clamp_max", "multiply",
    "divide", "true_divide")})
INPLACE.update({
    "subtract_": lambda self, other, *, alpha=1: update_(self, lambda t: _plus(t, other, alpha, "sub"), "subtract_"),
    "lerp_": lambda self, end, weight: update_(self, lambda t: BUILTINS["lerp"].fn(t, end, weight), "lerp_"),
    "cumsum_": lambda self, dim, *, dtype=None: update_(self, lambda t: BUILTINS["cumsum"].fn(t, dim, dtype=dtype),
                                                        "cumsum_"),
    "cumprod_": lambda self, dim, *, dtype=None: update_(self, lambda t: BUILTINS["cumprod"].fn(t, dim, dtype=dtype),
                                                         "cumprod_"),
    "logit_": lambda self, eps=None: update_(self, lambda t: BUILTINS["logit"].fn(t, eps), "logit_"),
    "polygamma_": lambda self, n: update_(self, lambda t: BUILTINS["polygamma"].fn(n, t), "polygamma_"),
    "addcmul_": lambda self, tensor1, tensor2, *, value=1: update_(
        self, lambda t: BUILTINS["addcmul"].fn(t, tensor1, tensor2, value=value), "addcmul_"),
    "addcdiv_": lambda self, tensor1, tensor2, *, value=1: update_(
        self, lambda t: BUILTINS["addcdiv"].fn(t, tensor1, tensor2, value=value), "addcdiv_"),
    "nan_to_num_": lambda self, nan=0.0, posinf=None, neginf=None: update_(
        self, lambda t: BUILTINS["nan_to_num"].fn(t, nan, posinf, neginf), "nan_to_num_"),
    "sgn_": lambda self: update_(self, BUILTINS["sgn"].fn, "sgn_"),
    "ldexp_": lambda self, other: update_(self, lambda t: BUILTINS["ldexp"].fn(t, other), "ldexp_"),
    "float_power_": lambda self, exponent: _float_power_(self, exponent),
})


def _float_power_(self: Tensor, exponent: Any) -> Tensor:
    """x.float_power_(exponent): in place, for a float64 x only (PyTorch's error otherwise)."""
    if self.dtype is not dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {dtypes.TYPE_NAMES[self.dtype]} but the "
                           "operation's result requires dtype Double")
    return update_(self, lambda t: BUILTINS["float_power"].fn(t, exponent), "float_power_")


# x.long(), x.float(), ...: the tensor in another dtype (itself when it has it already), as PyTorch's
CONVERSIONS = {"float": dtypes.float32, "double": dtypes.float64, "half": dtypes.float16, "long": dtypes.int64,
               "int": dtypes.int32, "short": dtypes.int16, "char": dtypes.int8, "byte": dtypes.uint8,
               "bool": dtypes.bool_}
_LEGACY_TYPES = {f"torch.{name}Tensor": dtype for dtype, name in dtypes.TYPE_NAMES.items()}


def _conversion(dtype: dtypes.DType) -> Callable[[Tensor], Tensor]:
    def convert(self: Tensor) -> Tensor:
        return to(self, dtype)

    convert.__name__ = convert.__qualname__ = next(n for n, d in CONVERSIONS.items() if d is dtype)
    convert.__doc__ = f"The tensor as {dtype} (itself when it is one already)."
    return convert


def _type(self: Tensor, dtype: Any = None) -> Any:
    """x.type(): the tensor type's name ('torch.FloatTensor'); x.type(dtype): the tensor in that dtype (a dtype,
    its name, or a legacy type name such as 'torch.LongTensor')."""
    if dtype is None:
        return f"torch.{dtypes.TYPE_NAMES[self.dtype]}Tensor"
    if isinstance(dtype, str) and dtype in _LEGACY_TYPES:
        dtype = _LEGACY_TYPES[dtype]
    elif isinstance(getattr(dtype, "dtype", None), dtypes.DType):  # a legacy type (torch.FloatTensor) names its dtype
        dtype = dtype.dtype
    return to(self, dtype)


def _install_operators(T: type) -> None:
    function = {symbol: BUILTINS[name].fn for symbol, name in OPERATORS.items() if symbol != "@"}
    T.__add__ = T.__radd__ = _fast(ADD, function["+"])
    T.__sub__ = _fast(SUB, function["-"])
    T.__rsub__ = REFLECTED["-"].fn
    T.__mul__ = T.__rmul__ = _fast(MUL, function["*"])
    T.__truediv__ = _fast(DIV, function["/"])
    T.__rtruediv__ = REFLECTED["/"].fn
    T.__floordiv__ = lambda self, other: BUILTINS["floor_divide"].fn(self, other)  # as PyTorch's (NotImplemented)
    T.__rfloordiv__ = lambda self, other: BUILTINS["floor_divide"].fn(other, self)
    T.__mod__ = lambda self, other: BUILTINS["remainder"].fn(self, other)
    T.__rmod__ = lambda self, other: BUILTINS["remainder"].fn(other, self)
    T.__pow__ = lambda self, other: function["**"](self, other)
    # x += y is in place, as in PyTorch (x.add_(y)): an integer tensor stays one
    for name, method in (("__iadd__", "add_"), ("__isub__", "sub_"), ("__imul__", "mul_"),
                         ("__itruediv__", "div_"), ("__ipow__", "pow_")):
        setattr(T, name, INPLACE[method])
    T.__rpow__ = _reflected(function["**"])
    T.__neg__ = lambda self: BUILTINS[UNARY_OPERATORS["-"]].fn(self)
    T.__pos__ = lambda self: self
    T.__abs__ = lambda self: BUILTINS["abs"].fn(self)
    _set_operators(T, _array_operators())


def _array_operators() -> dict[str, Callable]:
    """The operators made of the array operations (indexing, logic, linalg's matmul), imported after this module."""
    from ..ops import indexing, logic

    matmul = BUILTINS["matmul"].fn

    def both(self: Tensor, other: Any) -> Tensor:
        return logic.bitwise_and(self, other)

    def either(self: Tensor, other: Any) -> Tensor:
        return logic.bitwise_or(self, other)

    def differ(self: Tensor, other: Any) -> Tensor:
        return logic.bitwise_xor(self, other)

    return {
        "__matmul__": lambda self, other: matmul(self, other), "__rmatmul__": _reflected(matmul),
        "__lt__": lambda self, other: logic.lt(self, other), "__le__": lambda self, other: logic.le(self, other),
        "__gt__": lambda self, other: logic.gt(self, other), "__ge__": lambda self, other: logic.ge(self, other),
        "__eq__": _compared(logic.eq), "__ne__": _compared(logic.ne),
        "__and__": both, "__rand__": both, "__or__": either, "__ror__": either, "__xor__": differ,
        "__rxor__": differ, "__invert__": lambda self: logic.bitwise_not(self),
        "__lshift__": logic.bitwise_left_shift, "__rlshift__": _reflected(logic.bitwise_left_shift),
        "__rshift__": logic.bitwise_right_shift, "__rrshift__": _reflected(logic.bitwise_right_shift),
        "__ilshift__": INPLACE["bitwise_left_shift_"], "__irshift__": INPLACE["bitwise_right_shift_"],
        "__getitem__": indexing.getitem, "__setitem__": indexing.setitem,
    }


def _compared(compare: Callable[[Tensor, Any], Tensor]) -> Callable[[Tensor, Any], Any]:
    """x == y and x != y: elementwise, as PyTorch's, for a tensor or a number; NotImplemented for anything else
    (so `x == None` is False and `x in [None, x]` works, as in Python)."""

    def operator(self: Tensor, other: Any) -> Any:
        if isinstance(other, (Tensor, int, float, bool, np.number, np.ndarray)):
            return compare(self, other)
        return NotImplemented

    return operator


def _set_operators(T: type, operators: dict[str, Callable]) -> None:
    for name, method in operators.items():
        setattr(T, name, method)


def install() -> None:
    """Install the API on Tensor, once every module of the engine is imported (the package calls it)."""
    T = Tensor
    T.__init__ = _init
    _install_operators(T)
    T.T = property(lambda self: permute(self, tuple(reversed(range(self.ndim)))))
    T.mT = property(lambda self: transpose(self, -2, -1))
    T.backward = _backward
    T.grad_fn = property(lambda self: fresh(self)._grad_fn, doc="The node that made this tensor (None for a leaf).")
    T.is_leaf = property(lambda self: fresh(self)._grad_fn is None,
                         doc="True for tensors not produced by a recorded operation (PyTorch's definition).")
    for name, method in protocols.METHODS.items():
        setattr(T, name, method)
    for name, prop in protocols.PROPERTIES.items():
        setattr(T, name, prop)
    for name, method in INPLACE.items():
        setattr(T, name, method)
    shown = T.__repr__
    T.__repr__ = lambda self: shown(fresh(self))  # a view's grad_fn as PyTorch shows it after a write
    for name, dtype in CONVERSIONS.items():
        setattr(T, name, _conversion(dtype))
    T.type = _type
    T.type_as = lambda self, other: to(self, other)
    install_methods()


def install_methods() -> None:
    """Every built-in registered so far that is a method, on the Tensor (where it is not an attribute already):
    install calls it, and the package again once the rooms it imports on first use have registered theirs."""
    for name, entry in BUILTINS.loaded().items():
        if entry.method and not set.__contains__(TENSOR_METHODS, name):
            if not hasattr(Tensor, name):
                setattr(Tensor, name, entry.fn)
            TENSOR_METHODS.add(name)


class Methods(set):
    """TENSOR_METHODS: a name it does not hold, or reading it whole, first completes the table of built-ins (whose
    rooms imported on first use add their methods)."""

    def __contains__(self, name: object) -> bool:
        if set.__contains__(self, name):
            return True
        if BUILTINS.completing is None:
            return False
        BUILTINS.complete()
        return set.__contains__(self, name)

    def __iter__(self) -> Any:
        BUILTINS.complete()
        return set.__iter__(self)

    def __len__(self) -> int:
        BUILTINS.complete()
        return set.__len__(self)


# The Tensor's own methods (not built-ins)
OWN_METHODS = frozenset((
    "backward", "retain_grad", "item", "tolist", "size", "dim", "numel", "detach_", "requires_grad_", *CONVERSIONS,
    "type", "type_as", "element_size", "is_floating_point", "nelement", "register_hook", "stride", "is_contiguous",
    "contiguous", *INPLACE))
# What a program may read and call on a tensor (the language's allow-list): the Tensor's own methods, the built-ins
# that are methods (added by install_methods), and its properties.
TENSOR_METHODS = Methods(OWN_METHODS)
TENSOR_PROPERTIES = ("T", "mT", "shape", "grad", "data", "requires_grad", "is_leaf", "grad_fn", "dtype", "ndim",
                     "retains_grad")

__all__ = ["INPLACE", "OPERATORS", "OWN_METHODS", "REFLECTED", "TENSOR_METHODS", "TENSOR_PROPERTIES", "UNARY_OPERATORS",
           "Methods", "install", "install_methods", "rdiv", "rsub"]
