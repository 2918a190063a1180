"""The names a program starts with: the engine's built-ins (read from `autodiff.engine.BUILTINS`, never a
second list), the `torch` module as tutorials use it (torch.autograd, torch.nn.functional, the legacy
constructors, grad-mode switches), mathematical constants, and the Python built-ins of scripts."""

from __future__ import annotations

import math
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.members import attribute, delete_attribute, missing, set_attribute
from autodiff.grammar.interpreter.torchlib import (
    VMAP,
    autograd_extras,
    device_members,
    func_module,
    functorch_module,
    profiler_module,
)
from autodiff.grammar.interpreter.values import DType, Function, Namespace

# Mathematical constants, as Python numbers (so `x=pi/4` is a value and `sin(pi*x)` records one op).
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}



def functional_names() -> tuple[str, ...]:
    """torch.nn.functional (`import torch.nn.functional as F`): the built-ins declared as its members (listing
    them loads the whole engine: read when a script first reaches torch.nn)."""
    return tuple(name for name, b in BUILTINS.items() if b.functional and b.alias_of is None)


_NO_DEFAULT = object()
# What the prelude builds on first use (most of `autodiff eval`'s programs never reach the torch module or
# Python's built-ins: building them at import cost a tenth of eval's start-up).
_BUILT: dict[str, Any] = {}


def _getattr(value: Any, name: Any, default: Any = _NO_DEFAULT) -> Any:
    if not isinstance(name, str):
        raise BadValueError("getattr(): attribute name must be string", reason="arguments")
    try:
        return attribute(value, name)
    except (BadValueError, UnknownNameError):
        if default is _NO_DEFAULT:
            raise
        return default


def _setattr(value: Any, name: Any, new: Any) -> None:
    if not isinstance(name, str):
        raise BadValueError("setattr(): attribute name must be string", reason="arguments")
    set_attribute(value, name, new)


# The names python_builtins_table() holds, known without building it: building it imports the script-only modules
# (pytypes, classes), and a formula's sin(x) only needs to know that `sin` is not one of them
# (tests/grammar/test_startup_lazy.py checks the two agree).
PYTHON_BUILTIN_NAMES = frozenset((
    "range", "len", "enumerate", "zip", "list", "tuple", "min", "max", "round", "abs", "sum", "float", "int", "str",
    "repr", "bool", "dict", "isinstance", "type", "staticmethod", "classmethod", "object", "sorted", "reversed",
    "hasattr", "getattr", "setattr", "delattr"))


def python_builtins_table() -> dict[str, Any]:
    """Python's built-ins of the language (range, len, getattr, int, str, ...), built once, on first use."""
    if "python" not in _BUILT:
        from autodiff.grammar.interpreter import pybuiltins
        from autodiff.grammar.interpreter.pytypes import type_builtins  # (the script-only modules: on first use)

        plain = {name: Function(name, fn, usage) for name, (fn, usage) in pybuiltins.python_builtins().items()}
        _BUILT["python"] = {
            **plain, **type_builtins(plain, attribute),
            "getattr": Function("getattr", _getattr, "getattr(object, name, default)"),
            "setattr": Function("setattr", _setattr, "setattr(object, name, value)"),
            "delattr": Function("delattr", delete_attribute, "delattr(object, name)"),
        }
    return _BUILT["python"]



def builtin_function(name: str) -> Function:
    """A built-in of the engine as a value of the language (a bare name may mean more: see LANGUAGE)."""
    if name in LANGUAGE:
        return LANGUAGE[name]
    builtin = BUILTINS[name]
    return Function(name, builtin.fn, builtin.signature, builtin)


def _log(input: Any, base: Any = None) -> Any:
    """log(x), the natural logarithm; log(x, b) = log(x) / log(b), the logarithm in base b, as Python's
    math.log(x, b) (recorded as LogBackward0 and DivBackward0)."""
    log = BUILTINS["log"].fn
    if base is None:
        return log(input)
    if isinstance(base, engine.Tensor):
        return log(input) / log(base)
    if isinstance(base, bool) or not isinstance(base, (int, float)) or not base > 0 or base == 1:
        raise BadValueError(f"log(x, base): the base must be a positive number other than 1, got {base!r}",
                            hint="log(x) is the natural logarithm; log(x, 2) and log(x, 10) are base 2 and 10",
                            reason="arguments")
    return log(input) / math.log(base)


# What a bare name means beyond the engine's built-in of that name (torch.log stays PyTorch's own).
LANGUAGE: dict[str, Function] = {"log": Function("log", _log, "log(input, base=e)", BUILTINS["log"])}


def _autograd_members() -> dict[str, Any]:
    from autodiff.grammar.interpreter.classes import AUTOGRAD_FUNCTION

    once = Function("once_differentiable", engine.once_differentiable, "once_differentiable(backward)")
    return {
        "Function": AUTOGRAD_FUNCTION,
        "function": Namespace("torch.autograd.function", {"Function": AUTOGRAD_FUNCTION, "once_differentiable": once}),
        **autograd_extras(),
        "profiler": profiler_module(),
        "graph": Namespace("torch.autograd.graph", {}),
        "grad": Function("torch.autograd.grad", engine.grad,
                         "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)"),
        "backward": Function("torch.autograd.backward", engine.backward,
                             "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)"),
    }


def _linalg_members() -> dict[str, Any]:
    """torch.linalg: its norms, and the matrix functions and decompositions the engine has (inv is inverse;
    slogdet, pinv and svd are the engine's linalg_* functions, which return what torch.linalg's return)."""
    return {
        "norm": Function("torch.linalg.norm", engine.linalg_norm, "norm(input, ord=None, dim=None, keepdim=False)"),
        "vector_norm": builtin_function("vector_norm"),
        "det": builtin_function("det"),
        "inv": Function("torch.linalg.inv", BUILTINS["inverse"].fn, "inv(input)", BUILTINS["inverse"]),
        "solve": builtin_function("solve"),
        "slogdet": Function("torch.linalg.slogdet", engine.linalg_slogdet, "slogdet(A)"),
        "pinv": Function("torch.linalg.pinv", engine.linalg_pinv, "pinv(A, *, atol=None, rtol=None, hermitian=False)"),
        "eigh": builtin_function("eigh"),
        "eigvalsh": builtin_function("eigvalsh"),
        "svd": Function("torch.linalg.svd", engine.linalg_svd, "svd(A, full_matrices=True)"),
        "svdvals": builtin_function("svdvals"),
    }


def _torch_members() -> dict[str, Any]:
    from autodiff.grammar.interpreter.nnspace import nn_namespace, optim_namespace  # scripts' torch.nn
    from autodiff.grammar.interpreter.numpy_subset import from_numpy
    from autodiff.grammar.interpreter.pytypes import TENSOR_TYPE, legacy_tensor

    members: dict[str, Any] = {name: Function(name, b.fn, b.signature, b) for name, b in BUILTINS.items()}
    functional = Namespace("torch.nn.functional", {name: builtin_function(name) for name in functional_names()})
    members.update({
        "Tensor": TENSOR_TYPE,
        "FloatTensor": Function("torch.FloatTensor", legacy_tensor("float32"), "FloatTensor(data)"),
        "DoubleTensor": Function("torch.DoubleTensor", legacy_tensor("float64"), "DoubleTensor(data)"),
        "manual_seed": Function("manual_seed", engine.manual_seed, "manual_seed(seed)"),
        "set_default_dtype": Function("set_default_dtype", engine.set_default_dtype, "set_default_dtype(d)"),
        "get_default_dtype": Function("get_default_dtype", lambda: DType(engine.get_default_dtype().name),
                                      "get_default_dtype()"),
        "is_grad_enabled": Function("is_grad_enabled", engine.is_grad_enabled, "is_grad_enabled()"),
        "set_grad_enabled": Function("set_grad_enabled", engine.set_grad_enabled, "set_grad_enabled(mode)"),
        "no_grad": Function("no_grad", engine.no_grad, "no_grad()"),
        "enable_grad": Function("enable_grad", engine.enable_grad, "enable_grad()"),
        "inference_mode": Function("inference_mode", lambda mode=True: engine.GradMode(not mode),
                                   "inference_mode(mode=True)"),
        **device_members(),
        "from_numpy": Function("from_numpy", from_numpy, "from_numpy(ndarray)"),
        **CONSTANTS,
        "float32": DType("float32"),
        "float64": DType("float64"),
        "float": DType("float32"),
        "double": DType("float64"),
        "autograd": Namespace("torch.autograd", _autograd_members()),
        "nn": nn_namespace(functional),
        "optim": optim_namespace(),
        "linalg": Namespace("torch.linalg", _linalg_members()),
        "func": func_module(), "vmap": VMAP,
    })
    return members


def torch_namespace() -> Namespace:
    """The `torch` module: built once, on first use, and shared (nothing changes it; building it for each run
    cost 10% of a batch line)."""
    if "torch" not in _BUILT:
        _BUILT["torch"] = Namespace("torch", _torch_members())
    return _BUILT["torch"]


def numpy_namespace() -> Namespace:
    """numpy's subset (`import numpy as np`), built once, on first use."""
    if "numpy" not in _BUILT:
        from autodiff.grammar.interpreter.numpy_subset import numpy_module

        _BUILT["numpy"] = numpy_module()
    return _BUILT["numpy"]


def _torch_module(module: str) -> Namespace:
    """torch or one of its parts that autodiff provides (torch.autograd, torch.nn.functional, ...)."""
    target: Any = torch_namespace()
    for part in module.split(".")[1:]:
        target = target.members.get(part) if isinstance(target, Namespace) else None
        if not isinstance(target, Namespace):
            available = ", ".join(sorted(_torch_modules()))
            hint = None
            raise UnknownNameError(f"module '{module}' is not available: autodiff provides {available}", hint=hint,
                                   reason="module")
    return target


def _torch_modules() -> list[str]:
    found, stack = [], [("torch", torch_namespace())]
    while stack:
        name, namespace = stack.pop()
        found.append(name)
        stack.extend((f"{name}.{k}", v) for k, v in namespace.members.items() if isinstance(v, Namespace))
    return found


def module(dotted: str) -> Namespace:
    """The module `import DOTTED` reaches: torch's parts, math, itertools, __future__, numpy's subset; any other
    is accepted as an empty module (tutorial headers import matplotlib), whose every use says it is not available."""
    if dotted.split(".")[0] == "torch":
        return _torch_module(dotted)
    if dotted in ("numpy", "numpy.random"):
        return numpy_namespace() if dotted == "numpy" else numpy_namespace().members["random"]
    if dotted == "functorch":
        return functorch_module()
    from autodiff.grammar.interpreter.pymodules import STANDARD_MODULES

    return STANDARD_MODULES.get(dotted) or Namespace(dotted, {})


def imported(module_name: str, alias: str | None) -> tuple[str, Namespace]:
    """What `import MODULE [as ALIAS]` binds: (name, module). `import torch.nn` binds torch, `... as nn` the
    module itself, as Python does."""
    target = module(module_name)
    if alias:
        return alias, target
    top = module_name.split(".")[0]
    return top, module(top)


def imported_name(module_name: str, name: str) -> Any:
    """What `from MODULE import NAME` binds: a member of the module (or a module inside it)."""
    if name == "*":  # pragma: no cover - the grammar has no `import *`
        raise UnknownNameError("from ... import * is not part of autodiff scripts: name what you import")
    source = module(module_name)
    if name in source.members:
        return source.members[name]
    from autodiff.grammar.interpreter.pymodules import STANDARD_MODULES

    if not source.members and module_name.split(".")[0] not in ("torch", "numpy", *STANDARD_MODULES):
        return Namespace(f"{module_name}.{name}", {})  # of a module autodiff does not have: fails when used
    inside = f"{module_name}.{name}"
    if module_name.split(".")[0] == "torch" and inside in _torch_modules():
        return _torch_module(inside)
    suggestion = missing(module_name, name, list(source.members))
    raise UnknownNameError(f"cannot import name '{name}' from '{module_name}'{suggestion}", reason="import",
                           name=name, shown=name)
