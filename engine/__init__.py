"""autodiff.engine: a numpy autograd engine with PyTorch's names and backward semantics.

    >>> from autodiff import engine as torch
    >>> x = torch.tensor(1.5, requires_grad=True)
    >>> y = (2 * x) ** 3
    >>> y.backward()
    >>> x.grad
    tensor(54.)

The layers, from the bottom: settings and the Tensor (data and autograd metadata); argument coercion; the
op table (optable.py) and the registry of built-ins; recording, the graph's nodes and in-place writes; the
modules of each kind of operation, each declaring its ops and functions (arithmetic, elementwise,
reductions, linalg, shapes, joins, logic, indexing, losses, constructors); the formulas' vocabularies
(vocabulary.py, tensormath.py); the executor and backward's entry points; the Tensor's API (api.py).

The engine loads in two steps (lazy.py): the modules above at import, but for the array operations (indexing,
joins, gathers, logic, linalg, tensormath), which load when a program first uses one; the rest (convolutions,
decompositions, losses, nn, optim, forward-mode AD, torch.func, ...) when one of their names is first asked
for, here, in BUILTINS, in OPS or as a Tensor method.
"""

from __future__ import annotations

from . import api as _api  # installs the Tensor's constructor, operators and methods
from . import constructors as _constructors
from . import lazy
from .api import INPLACE, OPERATORS, REFLECTED, TENSOR_METHODS, TENSOR_PROPERTIES, UNARY_OPERATORS
from .autograd import backward, grad
from .constructors import manual_seed
from .dtypes import (  # the dtypes, PyTorch's objects (engine.int64 is torch.int64; engine.bool_ is torch.bool)
    DType,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    uint8,
)
from .errors import (
    KINDS,
    AutodiffError,
    AutogradError,
    BadValueError,
    InputError,
    LimitError,
    ParseError,
    ShapeError,
    UnknownNameError,
    UsageError,
)
from .executor import execute
from .formatting import set_printoptions
from .generator import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state
from .graph import AccumulateGrad, GraphInput, Node, grad_node, graph_bytes, graph_size
from .inplace import fresh
from .modes import (
    GradMode,
    detect_anomaly,
    enable_grad,
    forward_context,
    is_anomaly_enabled,
    is_grad_enabled,
    no_grad,
    observe,
    record_origins,
    set_grad_enabled,
    watch_passes,
)
from .optable import FUNCTION, OPS, Grad, Op
from .optable import GROUPS as OP_GROUPS
from .recording import apply
from .reductions import MinMax, linalg_norm
from .registry import BUILTINS, Builtin, alias_of
from .returns import ReturnTuple
from .settings import (
    STATE,
    as_dtype,
    check_lists,
    get_default_dtype,
    get_max_elements,
    set_default_dtype,
    set_max_elements,
    settings,
)
from .tensor import RemovableHandle, Size, Tensor
from .vocabulary import NumpyMath, Vocabulary

# The names of the modules loaded second (lazy.py), by module: `engine.Module` or `from autodiff.engine import
# Module` loads them.
_SECOND = {
    "custom": ("CustomNode", "FunctionCtx", "apply_function", "once_differentiable"),
    "decompositions": ("linalg_pinv", "linalg_slogdet", "linalg_svd"),
    "forward": ("UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
                "unpack_dual"),
    "functional": ("hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"),
    "gradcheck": ("gradcheck", "gradgradcheck"),
    "initializers": ("INIT_FUNCTIONS",),
    "modules": ("Module", "Parameter", "apply_to_modules", "cast_module", "parameter"),
    "nnfunctions": ("NN_MODULES",),
    "nnlayers": ("NN_LAYERS", "ModuleList"),
    "optim": ("OPTIMIZERS", "SCHEDULERS", "Optimizer", "StepLR"),
}
_SECOND_NAMES = {name: module for module, names in _SECOND.items() for name in names}
# The names of the array operations (lazy.OPERATIONS) that are not built-ins, by module
_OPERATION_NAMES = {"getitem": "indexing", "setitem": "indexing", "TensorMath": "tensormath"}


# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ... (those of the
# modules loaded second are found by __getattr__ below)
globals().update({name: entry.fn for name, entry in BUILTINS.entries_now()})  # type: ignore[attr-defined]

# With the names of the modules loaded second (_SECOND) and torch.func (func.py) as a module; every built-in is
# found by __getattr__ too.
__all__ = [
    "BUILTINS",
    "FUNCTION",
    "INIT_FUNCTIONS",
    "INPLACE",
    "KINDS",
    "NN_LAYERS",
    "NN_MODULES",
    "OPERATORS",
    "OPS",
    "OPTIMIZERS",
    "OP_GROUPS",
    "REFLECTED",
    "SCHEDULERS",
    "STATE",
    "TENSOR_METHODS",
    "TENSOR_PROPERTIES",
    "UNARY_OPERATORS",
    "AccumulateGrad",
    "AutodiffError",
    "AutogradError",
    "BadValueError",
    "Builtin",
    "CustomNode",
    "DType",
    "FunctionCtx",
    "Generator",
    "Grad",
    "GradMode",
    "GraphInput",
    "InputError",
    "LimitError",
    "MinMax",
    "Module",
    "ModuleList",
    "Node",
    "NumpyMath",
    "Op",
    "Optimizer",
    "Parameter",
    "ParseError",
    "RemovableHandle",
    "ReturnTuple",
    "ShapeError",
    "Size",
    "StepLR",
    "Tensor",
    "TensorMath",
    "UnknownNameError",
    "UnpackedDualTensor",
    "UsageError",
    "Vocabulary",
    "alias_of",
    "apply",
    "apply_function",
    "apply_to_modules",
    "as_dtype",
    "backward",
    "bool_",
    "cast_module",
    "check_lists",
    "default_generator",
    "detect_anomaly",
    "dual_level",
    "enable_grad",
    "enter_dual_level",
    "execute",
    "exit_dual_level",
    "float16",
    "float32",
    "float64",
    "forward_context",
    "fresh",
    "func",
    "get_default_dtype",
    "get_max_elements",
    "get_rng_state",
    "getitem",
    "grad",
    "grad_node",
    "gradcheck",
    "gradgradcheck",
    "graph_bytes",
    "graph_size",
    "hessian",
    "hvp",
    "initial_seed",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_anomaly_enabled",
    "is_grad_enabled",
    "jacobian",
    "jvp",
    "lazy",
    "linalg_norm",
    "linalg_pinv",
    "linalg_slogdet",
    "linalg_svd",
    "make_dual",
    "manual_seed",
    "no_grad",
    "observe",
    "once_differentiable",
    "parameter",
    "promote_types",
    "record_origins",
    "seed",
    "set_default_dtype",
    "set_grad_enabled",
    "set_max_elements",
    "set_printoptions",
    "set_rng_state",
    "setitem",
    "settings",
    "uint8",
    "unpack_dual",
    "vhp",
    "vjp",
    "watch_passes",
]


def __getattr__(name: str) -> object:
    """A name of the modules loaded second (lazy.py), or a built-in: load them, then answer."""
    if name in _SECOND_NAMES or name == "func":
        lazy.load_all()
        if name == "func":
            from . import func

            return func
        return lazy.late(_SECOND_NAMES[name], name)
    if name in _OPERATION_NAMES:
        return lazy.operation(_OPERATION_NAMES[name], name)
    if not name.startswith("_") and BUILTINS.get(name) is not None:
        return BUILTINS[name].fn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _bind_second() -> None:
    """Once the second step is loaded: its names as attributes (importing a submodule binds its name here, and
    engine.gradcheck is a function, not the module of that name); its built-ins are bound by _bind_operations,
    which load_all runs first (engine.einsum)."""
    for name, module in _SECOND_NAMES.items():
        globals()[name] = lazy.late(module, name)


def _bind_operations() -> None:
    """Once the array operations are loaded: their names and built-ins as attributes (x[i] in a script's loop
    calls engine.getitem without going through __getattr__)."""
    for name, module in _OPERATION_NAMES.items():
        globals()[name] = lazy.operation(module, name)
    globals().update({name: entry.fn for name, entry in BUILTINS.entries_now()})  # type: ignore[attr-defined]


lazy.AFTER_LOADING.append(_bind_operations)
lazy.AFTER_ALL.append(_bind_second)
del _api, _constructors
