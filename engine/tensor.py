"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .errors import AutogradError, BadValueError, ShapeError

FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_DTYPE_NAMES = {"float32": FLOAT_DTYPES[0], "float64": FLOAT_DTYPES[1], "float": FLOAT_DTYPES[0],
                "double": FLOAT_DTYPES[1], "torch.float32": FLOAT_DTYPES[0], "torch.float64": FLOAT_DTYPES[1]}


class _State:
    """Process-wide switches, as PyTorch keeps them (grad mode, default dtype, element limit)."""

    grad_enabled = True
    default_dtype = FLOAT_DTYPES[0]
    max_elements: int | None = None
    anomaly = False
    forward_context: object = None
    # Called as observer(node, grad_in, grads_out) for every node a backward pass runs, in order
    # (for AccumulateGrad: grads_out is (), and the call comes before .grad is updated); autodiff's
    # the explanation of a pass reads it through it.
    observer = None


STATE = _State()


def as_dtype(dtype: Any) -> np.dtype:
    """Resolve a dtype given as a name ("float32", "float64") or numpy dtype; None means the default."""
    if dtype is None:
        return STATE.default_dtype
    if isinstance(dtype, str):
        resolved = _DTYPE_NAMES.get(dtype)
        if resolved is None:
            raise BadValueError(f"unsupported dtype {dtype!r}: use 'float32' or 'float64'")
        return resolved
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        raise BadValueError(f"unsupported dtype {dtype!r}: use 'float32' or 'float64'") from None
    if resolved not in FLOAT_DTYPES:
        raise BadValueError(f"unsupported dtype {resolved}: autodiff tensors are float32 or float64")
    return resolved


def check_elements(shape: tuple[int, ...], what: str = "tensor") -> None:
    """Refuse, before allocating, a result with more elements than the configured limit."""
    limit = STATE.max_elements
    if limit is None:
        return
    count = 1
    for size in shape:
        count *= size
    if count > limit:
        from .errors import LimitError

        raise LimitError(
            f"{what} of shape {tuple(shape)} would have {count:,} elements, over the limit of {limit:,}",
            reason="elements",
        )


MAX_DIMS = 64  # numpy's limit on an array's dimensions


def check_dims(ndim: int, what: str = "the tensor") -> None:
    """Refuse, before numpy does with an internal error, a result with more dimensions than numpy allows."""
    if ndim > MAX_DIMS:
        from .errors import LimitError

        raise LimitError(f"{what} would have {ndim} dimensions; a tensor has at most {MAX_DIMS}", reason="dims")


class Size(tuple):
    """A shape, printed as PyTorch prints it: torch.Size([2, 3])."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    def numel(self) -> int:
        count = 1
        for size in self:
            count *= size
        return count


class BaseRef:
    """A view's reference to its base (strong, as in PyTorch: the base lives as long as its views)."""

    __slots__ = ("tensor",)

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = tensor

    def __call__(self) -> Tensor:
        return self.tensor


class _Version:
    """A counter shared by tensors that share memory, bumped by every in-place write."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class RemovableHandle:
    """Returned by register_hook; `remove()` unregisters the hook."""

    __slots__ = ("_fn", "_hooks")

    def __init__(self, hooks: list, fn: Callable) -> None:
        self._hooks, self._fn = hooks, fn

    def remove(self) -> None:
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)


class Tensor:
    """An n-dimensional float array that records the operations applied to it, as torch.Tensor does."""

    __slots__ = ("__weakref__", "_accumulator", "_base", "_data", "_grad", "_hooks", "_requires_grad",
                 "_retains_grad", "_version", "_view_stamp", "grad_fn")
    __array_ufunc__ = None  # numpy defers to our operators: np.float32(2) * t calls t.__rmul__

    def __init__(self, data: Any = None, *, requires_grad: bool = False, dtype: Any = None) -> None:
        from .constructors import _array_from

        array = _array_from([] if data is None else data, as_dtype(dtype) if dtype is not None else None)
        self._init(array)
        if requires_grad:
            self.requires_grad_(True)

    @classmethod
    def _make(cls, data: np.ndarray, grad_fn: Any = None) -> Tensor:
        """A tensor around an existing array (no copy); the fast path of every operation."""
        t = object.__new__(cls)
        t._init(data, grad_fn)
        return t

    def _init(self, data: np.ndarray, grad_fn: Any = None) -> None:
        self._data = data
        self.grad_fn = grad_fn
        self._requires_grad = grad_fn is not None
        self._grad = None
        self._version = None  # a _Version, made when first needed (saved, viewed or written)
        self._accumulator = None
        self._hooks = None
        self._retains_grad = False
        self._base = None  # for a view: weak reference to the tensor whose memory it shares
        self._view_stamp = None  # for a view: the shared version counter's value when it was taken

    # ----------------------------------------------------------------- data and metadata
    @property
    def data(self) -> np.ndarray:
        """The numpy array holding the values (shared, not copied)."""
        return self._data

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_check_dim(dim, self._data.ndim)]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise BadValueError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        for i in range(len(self)):
            yield self[i]

    def item(self) -> float:
        """The value of a one-element tensor as a Python float."""
        if self._data.size != 1:
            raise BadValueError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar",
                hint="item() needs exactly one element; reduce first, e.g. .sum()",
            )
        return float(self._data.reshape(()))

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        if self._requires_grad:
            raise AutogradError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        return self._data

    def __float__(self) -> float:
        return self.item()

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise BadValueError("Boolean value of Tensor with more than one value is ambiguous",
                                hint="reduce it first: .all(), .any() or .item()", reason="ambiguous_bool")
        return bool(self._data.reshape(()))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from .formatting import format_tensor

        name = self.grad_fn.name() if self.grad_fn is not None else None
        return format_tensor(self._data, requires_grad=self._requires_grad, grad_fn=name,
                             default_dtype=STATE.default_dtype)

    # ----------------------------------------------------------------- autograd state
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Mark a leaf as requiring grad (in place), as torch's requires_grad_()."""
        if self.grad_fn is not None and not requires_grad:
            raise AutogradError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        self._requires_grad = bool(requires_grad) or self.grad_fn is not None
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded operation (PyTorch's definition)."""
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient (leaves, or non-leaves after retain_grad()); None before backward."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise BadValueError(f"assigned grad expected to be a Tensor or None but got {type(value).__name__}")
            if value.shape != self.shape:
                raise ShapeError(f"assigned grad has data of a different size: {value.shape} vs {self.shape}")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep .grad on this non-leaf tensor after backward (leaves always keep it)."""
        if not self._requires_grad:
            raise AutogradError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None and not self._retains_grad:
            self._retains_grad = True
            self.grad_fn._retain(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call hook(grad) when this tensor's gradient is computed; a returned tensor replaces grad."""
        if not self._requires_grad:
            raise AutogradError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            if self.grad_fn._pre_hooks is None:
                self.grad_fn._pre_hooks = []
            hooks = self.grad_fn._pre_hooks
        else:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def detach(self) -> Tensor:
        """A tensor sharing this one's memory, outside the graph."""
        t = Tensor._make(self._data)
        t._version = self._counter()
        return t

    def data_alias(self) -> Tensor:
        """PyTorch's `.data`: this tensor's memory outside the graph, with a version counter of its own (a
        write through it is not seen by the graph's saved-value checks)."""
        return Tensor._make(self._data)

    def detach_(self) -> Tensor:
        if self.grad_fn is not None and self._retains_grad:
            self._retains_grad = False
        self.grad_fn = None
        self._requires_grad = False
        return self

    def _check_inplace(self) -> None:
        if self.grad_fn is None and self._requires_grad and STATE.grad_enabled:
            raise AutogradError(
                "a leaf Variable that requires grad is being used in an in-place operation.",
                hint="wrap the update in no_grad(), or write into a copy",
            )

    def _counter(self) -> _Version:
        """The version counter (shared with views and detached aliases), made on first use."""
        if self._version is None:
            self._version = _Version()
        return self._version

    def _bump_version(self) -> None:
        self._counter().value += 1

    def zero_(self) -> Tensor:
        """Fill with zeros in place (as x.grad.zero_() does); recorded as ZeroBackward0 when it needs grad."""
        from .inplace import fill_

        return fill_(self, 0.0, "zero_")

    def fill_(self, value: float) -> Tensor:
        """Fill with a number in place; recorded as FillBackward2 when it needs grad."""
        from .inplace import fill_

        if isinstance(value, Tensor):
            value = value.item()
        return fill_(self, value, "fill_")

    def normal_(self, mean: float = 0.0, std: float = 1.0) -> Tensor:
        """Overwrite with normal samples, PyTorch's numbers after manual_seed (not recorded)."""
        from .distributions import normal_

        return normal_(self, mean, std)

    def uniform_(self, from_: float = 0.0, to: float = 1.0) -> Tensor:
        """Overwrite with uniform samples from [from_, to), PyTorch's numbers after manual_seed (not recorded)."""
        from .distributions import uniform_

        return uniform_(self, from_, to)

    # In-place updates (x += y is x.add_(y)): the result is written into this tensor's memory.
    def add_(self, other: Any) -> Tensor:
        from .inplace import update_

        return update_(self, lambda t: t + other, "add_")

    def sub_(self, other: Any) -> Tensor:
        from .inplace import update_

        return update_(self, lambda t: t - other, "sub_")

    def mul_(self, other: Any) -> Tensor:
        from .inplace import update_

        return update_(self, lambda t: t * other, "mul_")

    def div_(self, other: Any) -> Tensor:
        from .inplace import update_

        return update_(self, lambda t: t / other, "div_")

    def pow_(self, exponent: Any) -> Tensor:
        from .inplace import update_

        return update_(self, lambda t: t**exponent, "pow_")

    def clamp_(self, min: float | None = None, max: float | None = None) -> Tensor:
        from .functions import clamp
        from .inplace import update_

        return update_(self, lambda t: clamp(t, min, max), "clamp_")

    def abs_(self) -> Tensor:
        from .functions import abs as absolute
        from .inplace import update_

        return update_(self, absolute, "abs_")

    def set_data(self, value: Tensor) -> None:
        """`x.data = value`: this tensor now holds value's memory (shape and dtype too), its history kept."""
        if not isinstance(value, Tensor):
            raise BadValueError(f"data must be a Tensor, got {type(value).__name__}", reason="data")
        self._data = value._data

    def backward(self, gradient: Any = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's .grad, as torch.Tensor.backward does."""
        from .autograd import backward

        backward(self, gradient, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)

    # The operators and the tensor methods (x.sum(), x.exp(), ...) are attached by functions.py.


def _check_dim(dim: int, ndim: int) -> int:
    """Wrap a possibly negative dim into range, with PyTorch's error when it is out of range."""
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise BadValueError(f"dim must be an integer, got {dim!r}")
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not low <= dim <= high:
        raise BadValueError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})",
            reason="dim",
        )
    return int(dim) % max(ndim, 1)
