"""The Tensor: a numpy array plus the autograd bookkeeping PyTorch keeps beside it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import AutogradError, BadValueError, NotScalarError, ShapeError, WrongTypeError
from .dtypes import BY_NUMPY, DType
from .formatting import format_tensor
from .settings import STATE, check_dim, check_lists

FLOATING_ONLY = "Only Tensors of floating point and complex dtype can require gradients"


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


class Version:
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


# What float(t) of a tensor that requires grad calls first: None, or (while autodiff runs a script) the facade's
# warning, which PyTorch gives once a process
SCALAR_WARNING: list = [None]


class Tensor:
    """An n-dimensional float array that records the operations applied to it, as torch.Tensor does."""

    # (_tangent, forward AD's (level, tangent), is only set on dual tensors and their results: transforms/forward_ad.py)
    __slots__ = ("__weakref__", "_accumulator", "_base", "_data", "_grad", "_grad_fn", "_hooks", "_requires_grad",
                 "_retains_grad", "_tangent", "_version", "_view_stamp")
    __array_ufunc__ = None  # numpy defers to our operators: np.float32(2) * t calls t.__rmul__
    __module__ = "torch"  # its name as PyTorch's: type(t) is <class 'torch.Tensor'>

    @classmethod
    def _make(cls, data: np.ndarray, grad_fn: Any = None) -> Tensor:
        """A tensor around an existing array (no copy); the fast path of every operation."""
        t = object.__new__(cls)
        t._data = data  # (_init's assignments, written out: this runs for every result)
        t._grad_fn = grad_fn
        t._requires_grad = grad_fn is not None
        t._grad = t._version = t._accumulator = t._hooks = t._base = t._view_stamp = None
        t._retains_grad = False
        return t

    def _init(self, data: np.ndarray, grad_fn: Any = None) -> None:
        self._data = data
        self._grad_fn = grad_fn
        self._requires_grad = grad_fn is not None
        self._grad = None
        self._version = None  # a Version, made when first needed (saved, viewed or written)
        self._accumulator = None
        self._hooks = None
        self._retains_grad = False
        self._base = None  # for a view: weak reference to the tensor whose memory it shares
        self._view_stamp = None  # for a view: the shared version counter's value when it was taken

    # ----------------------------------------------------------------- data and metadata
    @property
    def data(self) -> Tensor:
        """PyTorch's `.data`: the same memory outside the graph (`numpy()` gives the numpy array itself)."""
        return self.data_alias()

    @data.setter
    def data(self, value: Tensor) -> None:
        self.set_data(value)

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Size | int:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[check_dim(dim, self._data.ndim)]

    def stride(self, dim: int | None = None) -> tuple[int, ...] | int:
        """How many elements (not bytes) memory steps by along each dim, as PyTorch counts them."""
        steps = tuple(step // self._data.itemsize for step in self._data.strides)
        return steps if dim is None else steps[check_dim(dim, self._data.ndim)]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel  # PyTorch's other name

    @property
    def dtype(self) -> DType:
        """PyTorch's dtype object (torch.float32, torch.int64, torch.bool, ...); it equals the numpy dtype."""
        return BY_NUMPY[self._data.dtype]

    def element_size(self) -> int:
        """Bytes per element (4 for float32, 8 for int64, 1 for bool)."""
        return self._data.itemsize

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise WrongTypeError("len() of a 0-d tensor", reason="arguments")
        return self._data.shape[0]

    def item(self) -> float | bool | int:
        """The value of a one-element tensor as a Python number: a float, or a bool (int) for a bool (integer)
        tensor, as PyTorch's."""
        if self._data.size != 1:
            raise BadValueError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar",
                hint="item() needs exactly one element; reduce first, e.g. .sum()",
            )
        value = self._data.reshape(())
        return value.item() if value.dtype.kind in "biu" else float(value)

    def tolist(self) -> Any:
        check_lists(self._data.shape)
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The numpy array holding the values (shared, not copied); force=True also for a tensor that requires
        grad (PyTorch's numpy(force=True))."""
        if self._requires_grad and not force:
            raise AutogradError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        return self._data

    def _scalar(self) -> float | bool | int:
        """The value of a one-element tensor, for float(), int() and an index (ValueError otherwise, as PyTorch)."""
        if self._data.size != 1:
            raise NotScalarError("only one element tensors can be converted to Python scalars",
                                 hint="reduce it first, e.g. .sum(), or pick one element", reason="arguments")
        return self.item()

    def __float__(self) -> float:
        if self._requires_grad and SCALAR_WARNING[0] is not None:
            SCALAR_WARNING[0]()
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __index__(self) -> int:
        if self._data.size != 1 or self._data.dtype.kind not in "iu":
            raise WrongTypeError("only integer tensors of a single element can be converted to an index",
                                 reason="arguments")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise BadValueError("Boolean value of Tensor with more than one value is ambiguous",
                                hint="reduce it first: .all(), .any() or .item()", reason="ambiguous_bool")
        return bool(self._data.reshape(()))

    def __format__(self, spec: str) -> str:
        """f"{loss:.4f}": a 0-d tensor formats as its number, as PyTorch's; any other tensor only as str()."""
        if self._data.ndim == 0:
            return format(self.item(), spec)
        if spec:
            raise WrongTypeError("unsupported format string passed to Tensor.__format__", reason="arguments")
        return str(self)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """np.asarray(t): the values (refused for a tensor that requires grad, as PyTorch's numpy())."""
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        name = self._grad_fn.name() if self._grad_fn is not None else None
        held = getattr(self, "_tangent", None)
        tangent = None
        if held is not None and held[0] == STATE.forward_level:
            t = held[1]
            tangent = repr(float(t._data)) if t._data.ndim == 0 else repr(t)
        return format_tensor(self._data, requires_grad=self._requires_grad, grad_fn=name,
                             default_dtype=STATE.default_dtype, tangent=tangent)

    # ----------------------------------------------------------------- autograd state
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Mark a leaf as requiring grad (in place), as torch's requires_grad_()."""
        if self._grad_fn is not None and not requires_grad:
            raise AutogradError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if requires_grad and self._data.dtype.kind != "f":
            raise AutogradError(FLOATING_ONLY, hint="convert it first, e.g. x.float(), or make it with dtype=float32",
                                reason="dtype")
        self._requires_grad = bool(requires_grad) or self._grad_fn is not None
        return self


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
        if self._grad_fn is not None and not self._retains_grad:
            self._retains_grad = True
            self._grad_fn._retain(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """Call hook(grad) when this tensor's gradient is computed; a returned tensor replaces grad."""
        if not self._requires_grad:
            raise AutogradError("cannot register a hook on a tensor that doesn't require gradient")
        if not callable(hook):
            raise BadValueError(f"register_hook expects a function, not {type(hook).__name__}",
                                hint="pass a function of the gradient: y.register_hook(lambda g: g * 2)",
                                reason="hook")
        if self._grad_fn is not None:
            if self._grad_fn._pre_hooks is None:
                self._grad_fn._pre_hooks = []
            hooks = self._grad_fn._pre_hooks
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
        if self._grad_fn is not None and self._retains_grad:
            self._retains_grad = False
        self._grad_fn = None
        self._requires_grad = False
        return self

    def _check_inplace(self) -> None:
        if self._grad_fn is None and self._requires_grad and STATE.grad_enabled:
            raise AutogradError(
                "a leaf Variable that requires grad is being used in an in-place operation.",
                hint="wrap the update in no_grad(), or write into a copy",
            )

    def _counter(self) -> Version:
        """The version counter (shared with views and detached aliases), made on first use."""
        if self._version is None:
            self._version = Version()
        return self._version

    def _bump_version(self) -> None:
        self._counter().value += 1

    def set_data(self, value: Tensor) -> None:
        """`x.data = value`: this tensor now holds value's memory (shape and dtype too), its history kept."""
        if not isinstance(value, Tensor):
            raise BadValueError(f"data must be a Tensor, got {type(value).__name__}", reason="data")
        self._data = value._data

    # The constructor Tensor(data), the operators, backward and the in-place and tensor methods are installed
    # by api.py, which sits above every function they call.
