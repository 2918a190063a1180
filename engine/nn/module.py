"""torch.nn.Module and its parameters, as PyTorch keeps them: `Parameter` (a leaf tensor that a module
registers when it is assigned to one of its attributes) and `Module`, which registers parameters, buffers and
submodules in the order they are assigned, and walks them as PyTorch does (parameters(), named_parameters(),
children(), modules(), state_dict(), zero_grad(), train()/eval(), requires_grad_(), its printed form).

Every walk is iterative (a chain of 10,000 nested modules prints and trains). The objects of a script's
nn.Module subclasses are Modules too (the language layer makes them, with a forward that runs the script's
method), so containers hold both kinds alike.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..core.coerce import tensor_arg
from ..core.devices import check_device, is_device
from ..core.modes import no_grad
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..errors import BadValueError, UnknownNameError, WrongTypeError
from ..ops.shapes import to


class Parameter(Tensor):
    """torch.nn.Parameter(data, requires_grad=True): a leaf on data's memory (its version counter shared) that a
    module registers when it is assigned to one of its attributes; printed as PyTorch prints one."""

    __slots__ = ()
    __module__ = "torch.nn.parameter"

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        source = Tensor._make(np.empty((0,), STATE.default_dtype)) if data is None else tensor_arg(data, "data")
        self._init(source._data)
        self._version = source._counter()
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)


def parameter(data: Any = None, requires_grad: bool = True) -> Parameter:
    """nn.Parameter(data, requires_grad=True)."""
    return Parameter(data, requires_grad)


def is_module(value: Any) -> bool:
    """True for a module (a built-in one, or an object of a script's nn.Module subclass)."""
    return isinstance(value, Module)


class Module:
    """torch.nn.Module: registered parameters, buffers and submodules, in the order of assignment."""


    def __init__(self) -> None:
        # set at once, past __setattr__: a module is ready for registrations when it has its three registries
        self.__dict__.update(registered_parameters={}, registered_buffers={}, registered_modules={}, training=True)

    # ------------------------------------------------------------------ what it is
    def type_name(self) -> str:
        """The class name PyTorch prints (Linear, or the script's class name)."""
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def settings(self) -> dict[str, Any]:
        """The plain attributes a program may read (a Linear's in_features, a Dropout's p, ...)."""
        return {}

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise BadValueError(f'Module [{self.type_name()}] is missing the required "forward" function',
                            reason="forward")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def __repr__(self) -> str:
        return module_repr(self)

    # ------------------------------------------------------------------ registration
    def register_parameter(self, name: str, param: Any) -> None:
        """Register param (a Parameter or None) under name."""
        _check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise WrongTypeError(f"cannot assign '{_kind(param)}' object to parameter '{name}' (torch.nn.Parameter or "
                                "None required)", reason="parameter")
        self.registered_parameters[name] = param

    def register_buffer(self, name: str, tensor: Any, persistent: bool = True) -> None:
        _check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise WrongTypeError(f"cannot assign '{_kind(tensor)}' object to buffer '{name}' (torch Tensor or None "
                                "required)", reason="buffer")
        self.registered_buffers[name] = tensor

    def add_module(self, name: str, module: Any) -> None:
        """Register a submodule (a Module or None) under name."""
        _check_name(name, "module")
        if module is not None and not is_module(module):
            raise BadValueError(f"{_kind(module)} is not a Module subclass", reason="module")
        self.registered_modules[name] = module

    register_module = add_module

    def assign(self, name: str, value: Any) -> bool:
        """`module.name = value` as nn.Module.__setattr__ does it: a Parameter or a module is registered (True);
        None or a tensor over a registered name replaces it; anything else is the caller's plain attribute
        (False), after removing the name from the registries."""
        if isinstance(value, Parameter):
            self._forget(name)
            self.register_parameter(name, value)
            return True
        if is_module(value):
            self._forget(name)
            self.registered_modules[name] = value
            return True
        for table, what in ((self.registered_parameters, "torch.nn.Parameter"), (self.registered_modules, "Module")):
            if name in table:
                if value is not None:
                    raise WrongTypeError(f"cannot assign '{_kind(value)}' as parameter '{name}' ({what} or None "
                                        "expected)", reason="parameter")
                table[name] = None
                return True
        if name in self.registered_buffers:
            if value is not None and not isinstance(value, Tensor):
                raise WrongTypeError(f"cannot assign '{_kind(value)}' as buffer '{name}' (torch.Tensor or None "
                                    "expected)", reason="buffer")
            self.registered_buffers[name] = value
            return True
        return False

    def keep_tensor(self, name: str, value: Tensor) -> None:
        """A plain tensor attribute (`setattr(linear, "weight", dual)` after `delattr`), which a layer's forward
        reads as it reads the registered ones (`member`)."""
        object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ Python's attributes, as nn.Module's
    def __setattr__(self, name: str, value: Any) -> None:
        """`self.name = value`: a Parameter or a module is registered under name, a tensor over a registered
        buffer replaces it, anything else is a plain attribute (PyTorch's nn.Module.__setattr__)."""
        ready = "registered_parameters" in self.__dict__
        if isinstance(value, Parameter) or is_module(value):
            if not ready:
                what = "parameters" if isinstance(value, Parameter) else "module"
                raise AttributeError(f"cannot assign {what} before Module.__init__() call")
            self.__dict__.pop(name, None)
        if ready and self.assign(name, value):
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        """A registered parameter, buffer or submodule (called only when Python's own lookup fails)."""
        if "registered_parameters" in self.__dict__:
            found, value = self.lookup(name)
            if found:
                return value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if not self.remove(name):
            object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        registered = [*self.registered_parameters, *self.registered_buffers, *self.registered_modules]
        return sorted({*super().__dir__(), *registered})

    def _forget(self, name: str) -> None:
        for table in (self.registered_parameters, self.registered_buffers, self.registered_modules):
            table.pop(name, None)

    def remove(self, name: str) -> bool:
        """`del module.name` (delattr) of a registered name: PyTorch's nn.Module.__delattr__; False when the
        name is not registered."""
        if not any(name in table for table in (self.registered_parameters, self.registered_buffers,
                                               self.registered_modules)):
            return False
        self._forget(name)
        return True

    def member(self, name: str) -> Any:
        """What `self.name` is inside a layer's forward: the registered parameter, buffer or module, or the plain
        attribute that replaced it (a tensor assigned after `delattr`: the forward-mode AD tutorial's duals)."""
        found, value = self.lookup(name)
        if found:
            return value
        return self.__dict__.get(name)

    def lookup(self, name: str) -> tuple[bool, Any]:
        """(found, value) of a registered parameter, buffer or submodule."""
        if name in self.registered_parameters:
            return True, self.registered_parameters[name]
        if name in self.registered_buffers:
            return True, self.registered_buffers[name]
        if name in self.registered_modules:
            module = self.registered_modules[name]
            return True, module
        return False, None

    # ------------------------------------------------------------------ walks
    def named_modules(self, memo: Any = None, prefix: str = "", remove_duplicate: bool = True) -> Iterator:
        """(name, module) of this module and every module inside it, depth first, each once."""
        yield from _module_walk(self, prefix, remove_duplicate, memo)

    def modules(self) -> Iterator:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator:
        seen: set = set()
        for name, module in self.registered_modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator:
        for _, module in self.named_children():
            yield module

    def _members(self, buffers: bool, prefix: str, recurse: bool, remove_duplicate: bool) -> Iterator:
        seen: set = set()
        walk = _module_walk(self, prefix, remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in walk:
            table = module.registered_buffers if buffers else module.registered_parameters
            for key, value in table.items():
                if value is None or value in seen:
                    continue
                if remove_duplicate:
                    seen.add(value)
                yield (f"{module_prefix}.{key}" if module_prefix else key), value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator:
        yield from self._members(False, prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True) -> Iterator:
        yield from self._members(True, prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    # ------------------------------------------------------------------ state
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Every parameter's .grad set to None (or zeroed in place, set_to_none=False)."""
        for p in self.parameters():
            zero_grad_of(p, set_to_none)

    def train(self, mode: bool = True) -> Any:
        if not isinstance(mode, bool):
            raise BadValueError("training mode is expected to be boolean", reason="train")
        for module in _module_walk(self, "", True):
            module[1].training = mode
        return self

    def eval(self) -> Any:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Any:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def state_dict(self, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """name -> tensor of every parameter and buffer, parameters first in each module (detached copies of
        nothing: the same memory, outside the graph, unless keep_vars)."""
        out: OrderedDict = OrderedDict() if destination is None else destination
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            for table in (module.registered_parameters, module.registered_buffers):
                for key, value in table.items():
                    if value is not None:
                        out[name + key] = value if keep_vars else value.detach()
            children = [(f"{name}{k}.", m) for k, m in module.registered_modules.items() if m is not None]
            stack.extend(reversed(children))
        return out

    def load_state_dict(self, state_dict: Any, strict: bool = True) -> Any:
        """Copy the tensors of a state_dict into this module's parameters and buffers (under no_grad)."""
        own = self.state_dict(keep_vars=True)
        if not isinstance(state_dict, dict):
            raise BadValueError(f"Expected state_dict to be dict-like, got {_kind(state_dict)}.", reason="state_dict")
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise BadValueError(f"Error(s) in loading state_dict for {self.type_name()}: missing keys {missing}, "
                                f"unexpected keys {unexpected}", reason="state_dict")
        with no_grad():
            for key, target in own.items():
                if key in state_dict:
                    source = tensor_arg(state_dict[key], key)
                    if source.shape != target.shape:
                        raise BadValueError(f"size mismatch for {key}: copying a param with shape {source.shape} "
                                            f"from checkpoint, the shape in current model is {target.shape}.",
                                            reason="state_dict")
                    target._data[...] = source._data
                    target._bump_version()
        return "<All keys matched successfully>" if not (missing or unexpected) else (missing, unexpected)

    # ------------------------------------------------------------------ conversions (everything is on the CPU)
    def apply(self, fn: Any) -> Any:
        """fn(module) for every module inside this one, children first (PyTorch's order); returns self."""
        return apply_to_modules(self, fn)

    def to(self, *args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False) -> Any:
        """module.to(device), .to(dtype), .to(tensor): every parameter and buffer converted in place."""
        for arg in args:
            if is_device(arg):
                check_device(arg)
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            else:
                dtype = arg
        check_device(device)
        return self if dtype is None else cast_module(self, lambda t: to(t, dtype))

    def cpu(self) -> Any:
        return self

    def cuda(self, device: Any = None) -> Any:
        check_device("cuda")
        return self

    def float(self) -> Any:
        return self.to(np.float32)

    def double(self) -> Any:
        return self.to(np.float64)

    def type(self, dst_type: Any) -> Any:
        return self.to(dst_type)

    def get_submodule(self, target: str) -> Any:
        """The module at a dotted path ("encoder.0"), as PyTorch's get_submodule."""
        module = self
        for part in target.split(".") if target else ():
            found, child = module.lookup(part)
            if not found or not is_module(child):
                raise AttributeError(f"{module.type_name()} has no attribute `{part}`")
            module = child
        return module


def zero_grad_of(p: Tensor, set_to_none: bool) -> None:
    """A parameter's .grad cleared as Module.zero_grad and Optimizer.zero_grad clear it."""
    grad = p.grad
    if grad is None:
        return
    if set_to_none:
        p.grad = None
        return
    if grad._grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    grad.zero_()


def _module_walk(root: Module, prefix: str, remove_duplicate: bool, memo: Any = None) -> Iterator[tuple[str, Module]]:
    """(name, module) of root and the modules inside it, depth first (preorder, as PyTorch's recursion)."""
    seen: set = set() if memo is None else memo
    stack: list[tuple[str, Module]] = [(prefix, root)]
    while stack:
        name, module = stack.pop()
        if remove_duplicate:
            if module in seen:
                continue
            seen.add(module)
        yield name, module
        children = [(f"{name}.{k}" if name else k, m) for k, m in module.registered_modules.items() if m is not None]
        stack.extend(reversed(children))


def module_repr(root: Module) -> str:
    """PyTorch's printed form of a module: `Name(extra)` or `Name(` with its extra lines and children indented."""
    lines: list[str] = []
    # (module or None for a closing line, indent, label); a module inside itself is printed once per path
    stack: list[tuple[Any, int, str, tuple]] = [(root, 0, "", ())]
    while stack:
        module, depth, label, path = stack.pop()
        pad = "  " * depth
        if module is None or isinstance(module, str):
            lines.append(pad + (module or ")"))
            continue
        extra = module.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        children = list(module.registered_modules.items())
        head = f"{pad}{label}{module.type_name()}("
        if not children and len(extra_lines) <= 1:
            lines.append(head + (extra_lines[0] if extra_lines else "") + ")")
            continue
        lines.append(head)
        for line in extra_lines:
            lines.append("  " * (depth + 1) + line)
        stack.append((None, depth, "", path))
        for key, child in reversed(children):
            if child is None or child in path:
                stack.append((f"({key}): {'None' if child is None else child.type_name() + '(...)'}", depth + 1, "",
                              path))
            else:
                stack.append((child, depth + 1, f"({key}): ", (*path, module)))
    return "\n".join(lines)


def _check_name(name: Any, what: str) -> None:
    if not isinstance(name, str):
        raise BadValueError(f"{what} name should be a string. Got {_kind(name)}", reason="module")
    if "." in name or name == "":
        raise UnknownNameError(f'{what} name can\'t contain ".", nor be empty: {name!r}', reason="module")


def _kind(value: Any) -> str:
    if isinstance(value, Tensor):
        return "torch.Tensor" if not isinstance(value, Parameter) else "torch.nn.Parameter"
    return type(value).__name__


def apply_to_modules(root: Module, fn: Any) -> Module:
    """module.apply(fn): fn called on every module inside root, children before their parent (as PyTorch's
    recursion: each module's children in order, then the module)."""
    stack: list[tuple[Module, bool]] = [(root, False)]
    while stack:
        module, expanded = stack.pop()
        if expanded:
            fn(module)
            continue
        stack.append((module, True))
        children = list(dict.fromkeys(m for m in module.registered_modules.values() if m is not None))
        stack.extend((child, False) for child in reversed(children))
    return root


def cast_module(root: Module, convert: Any) -> Module:
    """module.double(), .float(), .to(dtype): every parameter's and buffer's data (and grad) converted in place."""
    for module in (m for _, m in _module_walk(root, "", True)):
        for table in (module.registered_parameters, module.registered_buffers):
            for tensor in table.values():
                if tensor is None:
                    continue
                tensor.set_data(convert(tensor.detach()))
                if tensor.grad is not None:
                    tensor.grad.set_data(convert(tensor.grad.detach()))
    return root
