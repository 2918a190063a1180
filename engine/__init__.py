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
"""

from __future__ import annotations

import numpy as np

from . import activations as _activations  # leaky_relu, elu, gelu, silu, softplus, hardtanh, ...
from . import api as _api  # installs the Tensor's constructor, operators and methods
from . import classification as _classification  # nll_loss, cross_entropy, smooth_l1_loss, huber_loss
from . import constructors as _constructors
from . import convolution as _convolution  # conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, ...
from . import cumulative as _cumulative  # cumsum, cumprod, cummax, cummin, logcumsumexp
from . import decompositions as _decompositions  # solve, slogdet, pinv, eigh, svd
from . import distributions as _distributions  # randint, randperm, normal, bernoulli, multinomial
from . import einsum as _einsum  # einsum, tensordot
from . import gathers as _gathers  # gather, scatter, index_select, masked_fill, take_along_dim
from . import joins as _joins
from . import layers as _layers  # addmm, linear, dropout
from . import losses as _losses
from . import moments as _moments  # var_mean, std_mean
from . import padding as _padding  # torch.nn.functional.pad
from . import pointwise as _pointwise  # logaddexp, remainder, fmod, fmax, copysign, lerp, sinc, deg2rad
from . import pooling as _pooling  # max_pool1d, max_pool2d, avg_pool1d, avg_pool2d
from . import rearrange as _rearrange  # repeat, tile, roll, flip, tril, triu, diagonal, split, hstack, ...
from . import sorting as _sorting  # sort, argsort, msort, topk
from .api import INPLACE, OPERATORS, REFLECTED, TENSOR_METHODS, TENSOR_PROPERTIES, UNARY_OPERATORS
from .autograd import backward, grad
from .constructors import manual_seed
from .custom import CustomNode, FunctionCtx, apply_function, once_differentiable
from .decompositions import linalg_pinv, linalg_slogdet, linalg_svd
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
    set_grad_enabled,
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

float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)

# Every built-in as a module function: autodiff.engine.sin(x), autodiff.engine.zeros(3, 1), ...
globals().update({name: entry.fn for name, entry in BUILTINS.items()})

__all__ = [
    "BUILTINS", "FUNCTION", "INPLACE", "KINDS", "OPERATORS", "OPS", "OP_GROUPS", "REFLECTED", "TENSOR_METHODS",
    "TENSOR_PROPERTIES", "UNARY_OPERATORS", "AccumulateGrad", "AutodiffError", "AutogradError", "BadValueError",
    "Builtin", "Grad", "GradMode", "GraphInput", "InputError", "LimitError", "MinMax", "Node", "NumpyMath", "Op",
    "ParseError", "RemovableHandle", "ReturnTuple", "STATE", "ShapeError", "Size", "Tensor", "TensorMath",
    "UnknownNameError",
    "UsageError", "Vocabulary", "alias_of", "apply", "as_dtype", "backward", "check_lists", "detect_anomaly",
    "enable_grad", "execute", "float32", "float64", "forward_context", "fresh", "get_default_dtype",
    "get_max_elements", "getitem", "grad",
    "grad_node", "graph_bytes", "graph_size", "is_anomaly_enabled", "is_grad_enabled", "linalg_norm", "linalg_pinv",
    "linalg_slogdet", "linalg_svd", "manual_seed",
    "no_grad",
    "observe", "set_default_dtype", "set_grad_enabled", "set_max_elements", "set_printoptions", "setitem",
    "settings", *BUILTINS,
]
# Custom autograd Functions (custom.py)
__all__ += ["CustomNode", "FunctionCtx", "apply_function", "once_differentiable"]
# Forward-mode AD: torch.autograd.forward_ad (forward.py)
__all__ += ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]
# torch.nn (modules.py, nnlayers.py, nnfunctions.py, initializers.py)
__all__ += ["INIT_FUNCTIONS", "NN_LAYERS", "NN_MODULES", "Module", "ModuleList", "Parameter", "apply_to_modules",
            "cast_module", "parameter"]
# torch.optim (optim.py)
__all__ += ["OPTIMIZERS", "SCHEDULERS", "Optimizer", "StepLR"]
# torch.func (func.py), as a module: engine.func.grad is not engine.grad
from . import func  # noqa: E402

__all__ += ["func"]
# torch.autograd.functional and gradcheck (functional.py, gradcheck.py)
__all__ += ["gradcheck", "gradgradcheck", "hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]
del _activations, _api, _constructors, _cumulative, _distributions, _gathers, _joins, _pointwise, _losses, _rearrange
del _layers, _classification
del _convolution, _decompositions, _einsum, _moments, _padding, _pooling, _sorting
