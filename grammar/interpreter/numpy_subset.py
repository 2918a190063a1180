"""The small part of numpy that tutorials use before their data becomes tensors (`import numpy as np`):
arrays from lists, linspace/arange/zeros/ones, numpy's own random numbers (np.random.seed, rand, randn:
numpy's legacy generator, so the numbers are numpy's), its elementwise functions and reductions, arithmetic
between arrays and numbers, and the way back and forth: `torch.from_numpy(a)`, `torch.tensor(a)`,
`x.numpy()`. Arrays print as numpy prints them. Anything else of numpy says it is not available."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.values import PRINTED_AS_STR, Function, Namespace, kind

MAX_ELEMENTS = 10_000_000


class NDArray:
    """A numpy array as a value of the language (its methods from an allow-list)."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray) -> None:
        if array.size > MAX_ELEMENTS:
            raise engine.LimitError(f"a numpy array of {array.size:,} elements; the limit is {MAX_ELEMENTS:,}",
                                    reason="elements")
        self.array = array

    def __repr__(self) -> str:
        return repr(self.array)

    def __str__(self) -> str:
        return str(self.array)

    def __len__(self) -> int:
        return len(self.array)

    def __iter__(self) -> Any:
        return (plain(v) for v in self.array)


PRINTED_AS_STR.append(NDArray)
# numpy's legacy global generator, as np.random.seed sets it: made on first use (importing numpy.random costs
# every command's start-up)
_STATE: dict[str, Any] = {}


def plain(value: Any) -> Any:
    """A numpy result as the language's value: arrays wrapped, numpy scalars as Python numbers."""
    if isinstance(value, np.ndarray):
        return NDArray(value) if value.ndim else value.item()
    if isinstance(value, np.generic):
        return value.item()
    return value


def raw(value: Any) -> Any:
    """An argument as numpy takes it: an NDArray's array, a tensor's values, a list as it is."""
    if isinstance(value, NDArray):
        return value.array
    if isinstance(value, Tensor):
        return value.detach().numpy()
    if isinstance(value, (list, tuple)):
        return [raw(v) for v in value]
    return value


def set_item(target: NDArray, index: Any, value: Any) -> None:
    """a[index] = value on a numpy array, as numpy writes it (grad_h[h < 0] = 0)."""
    key = tuple(raw(i) for i in index) if isinstance(index, tuple) else raw(index)
    try:
        with np.errstate(all="ignore"):
            target.array[key] = raw(value)
    except (IndexError, TypeError, ValueError) as error:
        raise BadValueError(f"numpy item assignment: {error}", reason="index") from None


def _numpy(name: str, fn: Callable[..., Any]) -> Function:
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            with np.errstate(all="ignore"):
                return plain(fn(*(raw(a) for a in args), **{k: raw(v) for k, v in kwargs.items()}))
        except (TypeError, ValueError) as error:
            raise BadValueError(f"np.{name}: {error}", reason="arguments") from None
    return Function(f"np.{name}", call, f"np.{name}(...)")


def _dtype(value: Any) -> Any:
    return {"float32": np.float32, "float64": np.float64, "int64": np.int64, "int32": np.int32}.get(str(value), value)


def _array(data: Any, dtype: Any = None) -> NDArray:
    return NDArray(np.array(raw(data), dtype=_dtype(dtype)))


def _seed(seed: Any = None) -> None:
    from numpy.random import RandomState

    _STATE["random"] = RandomState(seed)


def _random() -> Namespace:
    def drawn(name: str) -> Function:
        def draw(*args: Any, **kwargs: Any) -> Any:
            if "random" not in _STATE:
                _seed()
            state = _STATE["random"]
            methods = {"rand": state.rand, "randn": state.randn, "uniform": state.uniform, "normal": state.normal,
                       "randint": state.randint, "random": state.random_sample, "permutation": state.permutation}
            return plain(methods[name](*(raw(a) for a in args), **kwargs))
        return _numpy(f"random.{name}", draw)

    members = {name: drawn(name) for name in ("rand", "randn", "uniform", "normal", "randint", "random",
                                              "permutation")}
    members["seed"] = Function("np.random.seed", _seed, "np.random.seed(seed)")
    return Namespace("numpy.random", members)


_FUNCTIONS = {
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh,
    "abs": np.abs, "square": np.square, "power": np.power, "sum": np.sum, "mean": np.mean, "max": np.max,
    "min": np.min, "dot": np.dot, "matmul": np.matmul, "maximum": np.maximum, "minimum": np.minimum,
    "clip": np.clip, "where": np.where, "allclose": np.allclose, "isclose": np.isclose, "sign": np.sign,
    "linspace": np.linspace, "arange": np.arange, "zeros": np.zeros, "ones": np.ones, "zeros_like": np.zeros_like,
    "ones_like": np.ones_like, "full": np.full, "eye": np.eye, "std": np.std, "var": np.var, "argmax": np.argmax,
    "argmin": np.argmin, "round": np.round, "floor": np.floor, "ceil": np.ceil, "log1p": np.log1p,
    "expm1": np.expm1, "arcsin": np.arcsin, "arccos": np.arccos, "arctan": np.arctan, "prod": np.prod,
    "cumsum": np.cumsum, "stack": np.stack, "concatenate": np.concatenate, "reshape": np.reshape,
    "transpose": np.transpose, "outer": np.outer, "isnan": np.isnan, "isinf": np.isinf,
}


def numpy_module() -> Namespace:
    members: dict[str, Any] = {name: _numpy(name, fn) for name, fn in _FUNCTIONS.items()}
    members.update({
        "array": Function("np.array", _array, "np.array(data, dtype=None)"),
        "asarray": Function("np.asarray", _array, "np.asarray(data, dtype=None)"),
        "random": _random(), "pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan,
        "float32": "float32", "float64": "float64", "int64": "int64", "int32": "int32",
    })
    return Namespace("numpy", members)


_METHODS = ("sum", "mean", "max", "min", "std", "var", "item", "tolist", "astype", "reshape", "copy", "dot",
            "flatten", "transpose", "argmax", "argmin", "prod", "cumsum", "clip", "round")


def attribute(value: NDArray, attr: str) -> Any:
    """A numpy array's attributes and methods (an allow-list)."""
    a = value.array
    properties = {"shape": lambda: tuple(a.shape), "dtype": lambda: str(a.dtype), "ndim": lambda: a.ndim,
                  "size": lambda: a.size, "T": lambda: NDArray(a.T)}
    if attr in properties:
        return properties[attr]()
    if attr in _METHODS:
        methods = {"sum": a.sum, "mean": a.mean, "max": a.max, "min": a.min, "std": a.std, "var": a.var,
                   "item": a.item, "tolist": a.tolist, "astype": lambda dtype: a.astype(_dtype(dtype)),
                   "reshape": a.reshape, "copy": a.copy, "dot": a.dot, "flatten": a.flatten,
                   "transpose": a.transpose, "argmax": a.argmax, "argmin": a.argmin, "prod": a.prod,
                   "cumsum": a.cumsum, "clip": a.clip, "round": a.round}
        return _numpy(attr, methods[attr])
    raise UnknownNameError(f"numpy array has no attribute or method '{attr}' in autodiff (it has "
                           f"{', '.join([*properties, *_METHODS])}); convert it with torch.from_numpy(a)",
                           reason="unknown_member")


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide, "**": np.power, "@": np.matmul,
    "%": np.mod, "//": np.floor_divide, "<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
    "==": np.equal, "!=": np.not_equal, "&": np.logical_and, "|": np.logical_or,
}


def operator(op: str, left: Any, right: Any) -> Any:
    """`a op b` with a numpy array on one side and an array or a number on the other."""
    for side in (left, right):
        if isinstance(side, Tensor):
            raise BadValueError(f"{op} between a numpy array and a tensor: convert the array first "
                                "(torch.from_numpy(a))", reason="operands")
        if not isinstance(side, (NDArray, int, float, list)):
            raise BadValueError(f"unsupported operand types for {op}: {kind(left)} and {kind(right)}",
                                reason="operands")
    fn = _OPERATORS.get(op)
    if fn is None:
        raise BadValueError(f"the operator {op} is not available on numpy arrays", reason="operands")
    with np.errstate(all="ignore"):
        return plain(np.asarray(fn(raw(left), raw(right))))


def index(value: NDArray, items: Any) -> Any:
    try:
        return plain(value.array[raw(items) if not isinstance(items, tuple) else tuple(raw(i) for i in items)])
    except IndexError as error:
        raise BadValueError(f"{error}", reason="index") from None


def from_numpy(array: Any) -> Tensor:
    """torch.from_numpy(a): a tensor of the array's values and (float) dtype."""
    if not isinstance(array, NDArray):
        raise BadValueError(f"expected np.ndarray (got {kind(array)})", reason="arguments")
    data = array.array
    dtype = data.dtype.name if data.dtype.name in ("float32", "float64") else None
    return engine.tensor(data.astype(dtype or engine.get_default_dtype()), dtype=dtype)


def tensor_numpy(t: Tensor) -> Function:
    """x.numpy(): the tensor's values as a numpy array (an error for one that requires grad, as PyTorch's)."""
    return Function("numpy", lambda: NDArray(t.numpy()), "numpy()")
