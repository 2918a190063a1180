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

Importing the package imports every module, in the order below (the order `autodiff ops` lists the built-ins),
then installs the Tensor's API (api.install).
"""

from __future__ import annotations

# isort: off
from . import api as _api  # the first layers, up to backward and the Tensor's API
# Each module registers its built-ins and ops when imported: the array operations, then the rest
from . import gathers, indexing, joins, logic, linalg, tensormath  # noqa: F401
from . import activations, cumulative, distributions, pointwise, rearrange, sorting, classification  # noqa: F401
from . import counting, convolution, custom, decompositions, einsum, layers, losses, lossgrads  # noqa: F401
from . import moments, padding, pooling, forward, functional, func, initializers, modules  # noqa: F401
from . import nnfunctions, nnlayers, optim  # noqa: F401
from . import normalization, nnnorm, embedding, lstmlayer, recurrent, nnrecurrent, containers  # noqa: F401
from . import selecting, scatterreduce, randomfill  # noqa: F401
# isort: on
from .api import INPLACE, OPERATORS, REFLECTED, TENSOR_METHODS, TENSOR_PROPERTIES, UNARY_OPERATORS
from .autograd import backward, grad
from .constructors import manual_seed
from .custom import CustomNode, FunctionCtx, apply_function, once_differentiable
from .decompositions import linalg_pinv, linalg_slogdet, linalg_svd
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
from .forward import UnpackedDualTensor, dual_level, enter_dual_level, exit_dual_level, make_dual, unpack_dual
from .functional import hessian, hvp, jacobian, jvp, vhp, vjp
from .generator import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state
from .gradcheck import gradcheck, gradgradcheck
from .graph import AccumulateGrad, GraphInput, Node, grad_node, graph_bytes, graph_size
from .indexing import getitem, setitem
from .initializers import INIT_FUNCTIONS
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
from .modules import Module, Parameter, apply_to_modules, cast_module, parameter
from .nnfunctions import NN_MODULES
from .nnlayers import NN_LAYERS, ModuleList
from .optable import FUNCTION, OPS, Grad, Op
from .optable import GROUPS as OP_GROUPS
from .optim import OPTIMIZERS, SCHEDULERS, Optimizer, StepLR
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
from .tensormath import TensorMath
from .vocabulary import NumpyMath, Vocabulary

_api.install()

# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ...
globals().update({name: entry.fn for name, entry in BUILTINS.items()})

# With torch.func (func.py) as a module; every built-in is an attribute too.
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
