"""What `.` reaches on torch.nn's modules and torch.optim's optimizers and schedulers: explicit allow-lists of
their methods and attributes (nn.Module's methods, a layer's plain attributes such as in_features, the
registered parameters, buffers and submodules; an optimizer's step, zero_grad and param_groups), so that no
Python object is reachable through them."""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.values import DType, Function, second, shown

MODULE_METHODS = {  # name: signature (read from the module by module_methods, a fixed table)
    "parameters": "parameters(recurse=True)", "named_parameters": "named_parameters(prefix='', recurse=True)",
    "children": "children()", "named_children": "named_children()", "modules": "modules()",
    "named_modules": "named_modules(memo=None, prefix='')", "buffers": "buffers(recurse=True)",
    "named_buffers": "named_buffers(prefix='', recurse=True)", "zero_grad": "zero_grad(set_to_none=True)",
    "train": "train(mode=True)", "eval": "eval()", "requires_grad_": "requires_grad_(requires_grad=True)",
    "state_dict": "state_dict(destination=None, prefix='', keep_vars=False)",
    "load_state_dict": "load_state_dict(state_dict, strict=True)",
    "register_parameter": "register_parameter(name, param)", "register_buffer": "register_buffer(name, tensor)",
    "add_module": "add_module(name, module)", "register_module": "register_module(name, module)",
    "forward": "forward(input)", "extra_repr": "extra_repr()",
}
CONTAINER_METHODS = {"append": "append(module)", "extend": "extend(modules)"}


def _methods(m: Any) -> dict[str, Any]:
    """nn.Module's methods of a module, by name (the keys of MODULE_METHODS)."""
    return {"parameters": m.parameters, "named_parameters": m.named_parameters, "children": m.children,
            "named_children": m.named_children, "modules": m.modules, "named_modules": m.named_modules,
            "buffers": m.buffers, "named_buffers": m.named_buffers, "zero_grad": m.zero_grad, "train": m.train,
            "eval": m.eval, "requires_grad_": m.requires_grad_, "state_dict": m.state_dict,
            "load_state_dict": m.load_state_dict, "register_parameter": m.register_parameter,
            "register_buffer": m.register_buffer, "add_module": m.add_module, "register_module": m.register_module,
            "forward": m.forward, "extra_repr": m.extra_repr}
CONVERSIONS = ("apply", "to", "cpu", "float", "double", "type")


# The layers whose reset_parameters() a script may call (PyTorch's initialisation again)
RESETTABLE = ("Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
              "ConvTranspose3d")


def is_module(value: Any) -> bool:
    """A module of torch.nn (a layer autodiff provides, or an object of a script's nn.Module subclass)."""
    return isinstance(value, second("Module"))


def module_member(module: Any, attr: str) -> Any:
    """module.attr: nn.Module's methods, the layer's attributes, then the registered names (as PyTorch's
    __getattr__ finds them)."""
    if attr.startswith("_"):
        raise UnknownNameError(f"'{attr}': names starting with '_' are not part of the language", reason="private")
    if attr == "training":
        return module.training
    settings = module.settings()
    if attr in settings:
        return settings[attr]
    if attr in MODULE_METHODS:
        return Function(attr, _methods(module)[attr], MODULE_METHODS[attr])
    if attr == "reset_parameters" and isinstance(module, tuple(engine.NN_MODULES[n] for n in RESETTABLE)):
        return Function(attr, module.reset_parameters, "reset_parameters()")
    if isinstance(module, second("ModuleList")) and attr in CONTAINER_METHODS:
        method = module.append if attr == "append" else module.extend
        return Function(attr, method, CONTAINER_METHODS[attr])
    if attr in CONVERSIONS:
        return _conversion(module, attr)
    found, value = module.lookup(attr)
    if found:
        return value
    known = [*MODULE_METHODS, *settings, *module.registered_parameters, *module.registered_modules]
    import difflib  # only for a misspelt name

    close = difflib.get_close_matches(attr, known, n=1)
    suggestion = f"; did you mean '{close[0]}'?" if close else ""
    raise UnknownNameError(f"'{module.type_name()}' object has no attribute '{shown(attr)}'{suggestion}",
                           reason="attribute")


def _conversion(module: Any, attr: str) -> Function:
    """module.apply(fn), .to(device or dtype), .cpu(), .float(), .double()."""
    if attr == "apply":
        return Function("apply", lambda fn: engine.apply_to_modules(module, fn), "apply(fn)")
    if attr == "cpu":
        return Function("cpu", lambda: module, "cpu()")
    if attr in ("float", "double"):
        dtype = "float32" if attr == "float" else "float64"
        return Function(attr, lambda: engine.cast_module(module, lambda t: engine.to(t, dtype)), f"{attr}()")

    def to(*args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False) -> Any:
        for arg in args:
            if isinstance(arg, DType) and dtype is None:
                dtype = arg
            elif isinstance(arg, engine.Tensor):
                dtype = arg.dtype.name
        if dtype is not None:
            engine.cast_module(module, lambda t: engine.to(t, str(dtype) if not isinstance(dtype, DType)
                                                              else str.__str__(dtype)))
        return module

    return Function(attr, to, "to(device=None, dtype=None)")


def set_module_attribute(module: Any, attr: str, value: Any) -> None:
    """layer.attr = value on a layer autodiff provides: a registered name (weight, bias, a submodule) or
    training; other attributes are fixed."""
    if attr.startswith("_"):
        raise BadValueError(f"'{attr}': names starting with '_' cannot be assigned", reason="attribute")
    if attr == "training":
        module.training = bool(value)
        return
    if module.assign(attr, value):
        return
    if isinstance(value, engine.Tensor) and attr in LAYER_TENSORS:
        module.keep_tensor(attr, value)
        return
    raise BadValueError(f"cannot set attribute '{shown(attr)}' of {module.type_name()} (a Parameter, a module or "
                        "None can be assigned to it)", reason="attribute")


LAYER_TENSORS = ("weight", "bias")  # what a layer's forward reads as self.NAME


def delete_module_attribute(module: Any, attr: str) -> None:
    """delattr(layer, name) / del layer.name: a registered parameter, buffer or submodule goes (and a plain tensor
    that replaced one), as nn.Module.__delattr__ does."""
    plain = module.__dict__.get("plain_tensors", {})
    if attr in plain:
        del plain[attr]
        return
    if not module.remove(attr):
        raise UnknownNameError(f"'{module.type_name()}' object has no attribute '{shown(attr)}'", reason="attribute")



OPTIMIZER_METHODS = {"step": "step(closure=None)", "zero_grad": "zero_grad(set_to_none=True)",
                     "add_param_group": "add_param_group(param_group)", "state_dict": "state_dict()"}
SCHEDULER_METHODS = {"step": "step()", "get_last_lr": "get_last_lr()", "state_dict": "state_dict()"}


def optimizer_member(optimizer: Any, attr: str) -> Any:
    """optimizer.step(), .zero_grad(), .param_groups (its dicts, which a script may change: group['lr'] = ...),
    .state, .defaults, .add_param_group(), .state_dict()."""
    values = {"param_groups": optimizer.param_groups, "state": optimizer.state, "defaults": optimizer.defaults}
    if attr in values:
        return values[attr]
    if attr in OPTIMIZER_METHODS:
        methods = {"step": optimizer.step, "zero_grad": optimizer.zero_grad,
                   "add_param_group": optimizer.add_param_group, "state_dict": optimizer.state_dict}
        return Function(attr, methods[attr], OPTIMIZER_METHODS[attr])
    raise _unknown(type(optimizer).__name__, attr, [*values, *OPTIMIZER_METHODS])


def scheduler_member(scheduler: Any, attr: str) -> Any:
    """scheduler.step(), .get_last_lr(), .last_epoch, .base_lrs, .optimizer, ..."""
    values = {"last_epoch": scheduler.last_epoch, "base_lrs": scheduler.base_lrs, "optimizer": scheduler.optimizer,
              "step_size": scheduler.step_size, "gamma": scheduler.gamma}
    if attr in values:
        return values[attr]
    if attr in SCHEDULER_METHODS:
        methods = {"step": scheduler.step, "get_last_lr": scheduler.get_last_lr, "state_dict": scheduler.state_dict}
        return Function(attr, methods[attr], SCHEDULER_METHODS[attr])
    raise _unknown(type(scheduler).__name__, attr, [*values, *SCHEDULER_METHODS])


def _unknown(owner: str, attr: str, known: list[str]) -> UnknownNameError:
    import difflib  # only for a misspelt name

    close = difflib.get_close_matches(attr, known, n=1)
    suggestion = f"; did you mean '{close[0]}'?" if close else ""
    return UnknownNameError(f"'{owner}' object has no attribute '{shown(attr)}'{suggestion}", reason="attribute")
