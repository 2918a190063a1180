"""autodiff.engine: a numpy autograd engine with PyTorch's names and backward semantics.

    >>> from autodiff import engine as torch
    >>> x = torch.tensor(1.5, requires_grad=True)
    >>> y = (2 * x) ** 3
    >>> y.backward()
    >>> x.grad
    tensor(54.)

The rooms: `core/`, the autograd core (the Tensor, dtypes, settings and modes, the op table and the registry of
built-ins, recording, the graph's nodes, in-place writes, the executor and backward's entry points, the
formulas' vocabularies, custom Functions, the Tensor's API); `kernels/`, numpy kernels that compute as PyTorch's
CPU kernels do; `ops/`, the operations by kind; `nn/`, torch.nn's functions, modules, layers, losses and
initialisers; `optim/`, the optimizers and schedulers; `transforms/`, forward-mode AD, torch.func,
torch.autograd.functional, gradcheck, vmap; `random/`, the generator and the distributions; `facade/`, the
`torch` module scripts import (autodiff run). `errors.py` is the engine's errors, which every layer imports.

Importing the package imports the core and the rooms of the common built-ins (arithmetic, elementwise functions,
reductions, shapes, gathers, indexing, joins, logic, linear algebra, the Tensor's math, constructors), then installs
the Tensor's API (api.install). The rooms of the other built-ins (activations, cumulative ops, sorting, nn's
functional layers and losses, decompositions, einsum, custom Functions, ...) are imported, in the order of
`_import_rooms`, the first time the table of built-ins is asked for a name it does not hold or is read whole
(`registry.Table`), or an attribute of this package is missing (`__getattr__`): they then register their built-ins
and ops and their Tensor methods are installed. nn's Module and module classes (module, layers, containers,
function_modules, norm_layers, the recurrent layers) and its initialisers, optim and the transforms are imported by
their users (the facade of `autodiff run`, the commands that need them). A one-shot `autodiff eval` loads none of
these; `import_all()` imports them all.
"""

from __future__ import annotations

import warnings
from typing import Any

# isort: off
from .core import api as _api  # the core, up to backward and the Tensor's API (installed below)
from .core import autograd  # engine.autograd.grad and .backward, as torch.autograd's  # noqa: F401
# Each module registers its built-ins and ops when imported, in this order, then those of _import_rooms (the order
# `autodiff ops` lists them)
from .ops import gathers, indexing, joins, logic, linalg  # noqa: F401
from .core import tensormath  # noqa: F401
# isort: on
from .core.api import INPLACE, OPERATORS, OWN_METHODS, REFLECTED, TENSOR_METHODS, TENSOR_PROPERTIES, UNARY_OPERATORS
from .core.autograd import backward, grad
from .core.dtypes import ALIASES as DTYPE_ALIASES
from .core.dtypes import DType, bool_, float16, float32, float64, int8, int16, int32, int64, promote_types, uint8
from .core.executor import execute
from .core.formatting import set_printoptions
from .core.graph import AccumulateGrad, GraphInput, Node, grad_node, graph_bytes, graph_size
from .core.inplace import fresh
from .core.modes import (
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
from .core.optable import FUNCTION, OPS, Grad, Op
from .core.optable import GROUPS as OP_GROUPS
from .core.recording import apply
from .core.registry import BUILTINS, Builtin, alias_of
from .core.return_types import ReturnTuple
from .core.settings import (
    STATE,
    as_dtype,
    check_lists,
    get_default_dtype,
    get_max_elements,
    set_default_dtype,
    set_max_elements,
    settings,
)
from .core.tensor import RemovableHandle, Size, Tensor
from .core.tensormath import TensorMath
from .core.vocabulary import NumpyMath, Vocabulary
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
from .ops.constructors import manual_seed
from .ops.indexing import getitem, setitem
from .ops.reductions import MinMax, linalg_norm
from .random.generator import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state


def quiet_numpy() -> None:
    """Hide numpy's RuntimeWarnings raised in the engine's own modules (inf - inf, 0 * inf, an overflow, a cast out
    of range), as PyTorch computes those without a word; the engine never warns that way itself. Done when the
    engine is imported; `autodiff run` does it again before a script, since a `warnings.catch_warnings()` block
    around an import (pytest's collection, a script's own) restores the filters it found."""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autodiff\.engine(\.|$)")


quiet_numpy()
_api.install()


def _import_rooms() -> None:
    """Import the rooms of the less common built-ins (BUILTINS.complete calls this once): each registers its
    built-ins and ops when imported, in this order; then their Tensor methods are installed and every built-in
    is a function of this package."""
    global CustomNode, FunctionCtx, apply_function, once_differentiable, linalg_pinv, linalg_slogdet, linalg_svd
    # isort: off
    from .nn import activations  # noqa: F401
    from .ops import cumulative, more_elementwise, rearrange, sorting  # noqa: F401
    from .random import distributions  # noqa: F401
    from .nn import classification_losses  # noqa: F401
    from .ops import counting, decompositions, einsum  # noqa: F401
    from .nn import convolution, linear_functions, losses, loss_backwards  # noqa: F401
    from .core import custom_function  # noqa: F401
    from .ops import moments  # noqa: F401
    from .nn import padding, pooling  # noqa: F401
    from .nn import embedding  # noqa: F401
    from .nn import normalization  # noqa: F401
    from .nn import attention, distances, more_losses, more_norms, resizing, shrinks  # noqa: F401
    from .ops import selecting, scatter_reduce  # noqa: F401
    from .ops import pointwise, special  # noqa: F401
    from .ops import cdist, factorizations, linalg_chains, linalg_more  # noqa: F401
    from .random import random_fill  # noqa: F401
    # isort: on
    from .core.custom_function import CustomNode, FunctionCtx, apply_function, once_differentiable
    from .ops.decompositions import linalg_pinv, linalg_slogdet, linalg_svd

    _api.install_methods()
    globals().update({name: entry.fn for name, entry in BUILTINS.loaded().items()})


def __getattr__(name: str) -> Any:
    """A name of the rooms imported on first use (autodiff.engine.cumsum, autodiff.engine.CustomNode)."""
    if BUILTINS.completing is not None and not name.startswith("__"):
        BUILTINS.complete()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module 'autodiff.engine' has no attribute '{name}'")


def import_all() -> None:
    """Import every room: those of the built-ins imported on first use, and those `import autodiff.engine` leaves
    to their users: nn's module classes and recurrent layers, optim, and the transforms (forward mode, torch.func,
    torch.autograd.functional, gradcheck). Their ops then join OPS (`autodiff ops` lists every op)."""
    BUILTINS.complete()
    from .nn import containers, function_modules, init, layers, module, norm_layers, recurrent_layers  # noqa: F401
    from .optim import catalog  # noqa: F401
    from .transforms import autograd_functional, forward_ad, gradcheck, torch_func  # noqa: F401


# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ... (those of the rooms
# imported on first use once they are)
globals().update({name: entry.fn for name, entry in BUILTINS.loaded().items()})
BUILTINS.completing = _import_rooms

# With torch.func (transforms/torch_func.py) as a module; every built-in is an attribute too.
__all__ = [
    "BUILTINS",
    "DTYPE_ALIASES",
    "FUNCTION",
    "INPLACE",
    "KINDS",
    "OPERATORS",
    "OPS",
    "OP_GROUPS",
    "OWN_METHODS",
    "REFLECTED",
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
    "Node",
    "NumpyMath",
    "Op",
    "ParseError",
    "RemovableHandle",
    "ReturnTuple",
    "ShapeError",
    "Size",
    "Tensor",
    "TensorMath",
    "UnknownNameError",
    "UsageError",
    "Vocabulary",
    "alias_of",
    "apply",
    "apply_function",
    "as_dtype",
    "backward",
    "bool_",
    "check_lists",
    "default_generator",
    "detect_anomaly",
    "enable_grad",
    "execute",
    "float16",
    "float32",
    "float64",
    "forward_context",
    "fresh",
    "get_default_dtype",
    "get_max_elements",
    "get_rng_state",
    "getitem",
    "grad",
    "grad_node",
    "graph_bytes",
    "graph_size",
    "import_all",
    "initial_seed",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_anomaly_enabled",
    "is_grad_enabled",
    "linalg_norm",
    "linalg_pinv",
    "linalg_slogdet",
    "linalg_svd",
    "manual_seed",
    "no_grad",
    "observe",
    "once_differentiable",
    "promote_types",
    "quiet_numpy",
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
    "watch_passes",
]
