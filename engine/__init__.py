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

Importing the package imports every module, in the order below (the order `autodiff ops` lists the built-ins),
then installs the Tensor's API (api.install).
"""

from __future__ import annotations

# isort: off
from .core import api as _api  # the core, up to backward and the Tensor's API (installed below)
from .core import autograd  # engine.autograd.grad and .backward, as torch.autograd's  # noqa: F401
# Each module registers its built-ins and ops when imported, in this order (the order `autodiff ops` lists them)
from .ops import gathers, indexing, joins, logic, linalg  # noqa: F401
from .core import tensormath  # noqa: F401
from .nn import activations  # noqa: F401
from .ops import cumulative, more_elementwise, rearrange, sorting  # noqa: F401
from .random import distributions  # noqa: F401
from .nn import classification_losses  # noqa: F401
from .ops import counting, decompositions, einsum  # noqa: F401
from .nn import convolution, linear_functions, losses, loss_backwards  # noqa: F401
from .core import custom_function  # noqa: F401
from .ops import moments  # noqa: F401
from .nn import padding, pooling, init, module  # noqa: F401
from .transforms import forward_ad, autograd_functional, torch_func as func  # noqa: F401
from .nn import function_modules, layers  # noqa: F401
from .optim import optimizers  # noqa: F401
from .nn import normalization, norm_layers, embedding, lstm_layer, recurrent, recurrent_layers  # noqa: F401
from .nn import containers  # noqa: F401
from .ops import selecting, scatter_reduce  # noqa: F401
from .random import random_fill  # noqa: F401
# isort: on
from .core.api import INPLACE, OPERATORS, REFLECTED, TENSOR_METHODS, TENSOR_PROPERTIES, UNARY_OPERATORS
from .core.autograd import backward, grad
from .core.custom_function import CustomNode, FunctionCtx, apply_function, once_differentiable
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
from .nn.function_modules import NN_MODULES
from .nn.init import INIT_FUNCTIONS
from .nn.layers import NN_LAYERS, ModuleList
from .nn.module import Module, Parameter, apply_to_modules, cast_module, parameter
from .ops.constructors import manual_seed
from .ops.decompositions import linalg_pinv, linalg_slogdet, linalg_svd
from .ops.indexing import getitem, setitem
from .ops.reductions import MinMax, linalg_norm
from .optim.optimizers import OPTIMIZERS, SCHEDULERS, Optimizer, StepLR
from .random.generator import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state
from .transforms.autograd_functional import hessian, hvp, jacobian, jvp, vhp, vjp
from .transforms.forward_ad import (
    UnpackedDualTensor,
    dual_level,
    enter_dual_level,
    exit_dual_level,
    make_dual,
    unpack_dual,
)
from .transforms.gradcheck import gradcheck, gradgradcheck

_api.install()

# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ...
globals().update({name: entry.fn for name, entry in BUILTINS.items()})

# With torch.func (transforms/torch_func.py) as a module; every built-in is an attribute too.
__all__ = [
    "BUILTINS",
    "DTYPE_ALIASES",
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
