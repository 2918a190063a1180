"""The names a program starts with: the engine's built-ins (read from `autodiff.engine.BUILTINS`, never a
second list), the `torch` module as formulas pasted from tutorials use it (torch.NAME, torch.nn.functional,
torch.autograd.grad, the dtypes), mathematical constants, and a few of Python's built-ins (range, len, sum, ...).
Any other module is Python's, for `autodiff run`: importing one says so."""

from __future__ import annotations

import math
from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS
from autodiff.engine.errors import BadValueError, UnknownNameError, UsageError
from autodiff.grammar.interpreter.members import missing
from autodiff.grammar.interpreter.values import Function, Namespace

# Mathematical constants, as Python numbers (so `x=pi/4` is a value and `sin(pi*x)` records one op).
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}


def functional_names() -> tuple[str, ...]:
    """torch.nn.functional (`import torch.nn.functional as F`): the built-ins declared as its members (listing
    them loads the whole engine: read when a program first reaches torch.nn)."""
    return tuple(name for name, b in BUILTINS.items() if b.functional and b.alias_of is None)


# What the prelude builds on first use (most of `autodiff eval`'s programs never reach the torch module or
# Python's built-ins: building them at import cost a tenth of eval's start-up).
_BUILT: dict[str, Any] = {}

# The names python_builtins_table() holds, known without building it (tests check the two agree)
PYTHON_BUILTIN_NAMES = frozenset(("range", "len", "enumerate", "zip", "list", "tuple", "min", "max", "round", "abs",
                                  "sum", "float", "int"))


def python_builtins_table() -> dict[str, Any]:
    """Python's built-ins of the language (range, len, sum, ...), built once, on first use."""
    if "python" not in _BUILT:
        from autodiff.grammar.interpreter import pybuiltins

        table = pybuiltins.python_builtins()
        _BUILT["python"] = {name: Function(name, fn, usage) for name, (fn, usage) in table.items()}
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


def _linalg_members() -> dict[str, Any]:
    """torch.linalg: its norms, and the matrix functions and decompositions the engine has (inv is inverse;
    slogdet, pinv and svd are the engine's linalg_* functions, which return what torch.linalg's return)."""
    return {
        "norm": Function("torch.linalg.norm", engine.linalg_norm, "norm(input, ord=None, dim=None, keepdim=False)"),
        "inv": Function("torch.linalg.inv", BUILTINS["inverse"].fn, "inv(input)", BUILTINS["inverse"]),
        "slogdet": Function("torch.linalg.slogdet", engine.linalg_slogdet, "slogdet(A)"),
        "pinv": Function("torch.linalg.pinv", engine.linalg_pinv, "pinv(A, *, atol=None, rtol=None, hermitian=False)"),
        "svd": Function("torch.linalg.svd", engine.linalg_svd, "svd(A, full_matrices=True)"),
        **{name: builtin_function(name) for name in ("vector_norm", "det", "solve", "eigh", "eigvalsh", "svdvals")},
    }


def _torch_members() -> dict[str, Any]:
    members: dict[str, Any] = {name: Function(name, b.fn, b.signature, b) for name, b in BUILTINS.items()}
    functional = Namespace("torch.nn.functional", {name: builtin_function(name) for name in functional_names()})
    members.update({
        "manual_seed": Function("manual_seed", engine.manual_seed, "manual_seed(seed)"),
        **CONSTANTS,
        **engine.DTYPE_ALIASES,
        "autograd": Namespace("torch.autograd", {
            "grad": Function("torch.autograd.grad", engine.grad,
                             "grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False)"),
            "backward": Function("torch.autograd.backward", engine.backward,
                                 "backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False)"),
        }),
        "nn": Namespace("torch.nn", {"functional": functional}),
        "linalg": Namespace("torch.linalg", _linalg_members()),
    })
    return members


def torch_namespace() -> Namespace:
    """The `torch` module: built once, on first use, and shared (nothing changes it)."""
    if "torch" not in _BUILT:
        _BUILT["torch"] = Namespace("torch", _torch_members())
    return _BUILT["torch"]


def _torch_modules() -> dict[str, Namespace]:
    found, stack = {}, [("torch", torch_namespace())]
    while stack:
        name, namespace = stack.pop()
        found[name] = namespace
        stack.extend((f"{name}.{k}", v) for k, v in namespace.members.items() if isinstance(v, Namespace))
    return found


def module(dotted: str) -> Namespace:
    """The module `import DOTTED` reaches: torch or one of its parts here; any other module is Python's."""
    found = _torch_modules().get(dotted)
    if found is not None:
        return found
    if dotted.split(".")[0] == "torch":
        available = ", ".join(sorted(_torch_modules()))
        raise UnknownNameError(f"module '{dotted}' is not part of autodiff's language (it has {available}); the "
                               "rest of torch is for Python files run by `autodiff run FILE`", reason="module")
    raise UsageError(f"module '{dotted}' is Python's: autodiff's language imports only torch; put the program in a "
                     "file and run it with `autodiff run FILE` (Python, with autodiff's torch)", reason="python_block")


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
    source = module(module_name)
    if name in source.members:
        return source.members[name]
    suggestion = missing(module_name, name, list(source.members))
    raise UnknownNameError(f"cannot import name '{name}' from '{module_name}'{suggestion}", reason="import",
                           name=name, shown=name)
