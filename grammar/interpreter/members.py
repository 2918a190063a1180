"""What `.` reaches on the engine's values, from explicit allow-lists per kind of value, so that no Python
object is reachable: a tensor's properties and methods (the engine's own lists, TENSOR_PROPERTIES and
TENSOR_METHODS), a graph node's, a module's members; and the few tensor attributes a script may assign."""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS, TENSOR_METHODS, TENSOR_PROPERTIES, AccumulateGrad, Node, Tensor
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.torchlib import (
    SHAPED_LIKE,
    TENSOR_DEVICE_MEMBERS,
    cpu_or_cuda,
    shaped_like,
    tensor_to,
)
from autodiff.grammar.interpreter.values import DType, Function, Namespace, kind, script_type, second, shown

# The script-only modules (classes, nnmembers, numpy_subset, pytypes) are imported where a value needs them:
# `autodiff eval` imports none of them (values.script_type).

# How each of the Tensor's properties reads in the language (the engine lists them: TENSOR_PROPERTIES).
_READ_AS = {
    "data": lambda t: t.data_alias(),  # PyTorch's .data: the same memory, outside the graph, its own version
    "dtype": lambda t: DType(t.dtype.name),
    "grad_fn": lambda t: engine.fresh(t).grad_fn,  # a view written through another alias: AsStridedBackward0
    "is_leaf": lambda t: engine.fresh(t).is_leaf,
}
TENSOR_ATTRIBUTES = {name: _READ_AS.get(name, lambda t, name=name: getattr(t, name)) for name in TENSOR_PROPERTIES}
NODE_ATTRIBUTES = {
    "next_functions": lambda n: n.next_functions,
    "variable": lambda n: n.variable if isinstance(n, AccumulateGrad) else _no_variable(n),
    "metadata": lambda n: n.metadata,
}
NODE_METHODS = frozenset({"name"})
SETTABLE = ("grad", "requires_grad", "data")  # tensor attributes a script may assign

__all__ = ["NODE_ATTRIBUTES", "NODE_METHODS", "SETTABLE", "TENSOR_ATTRIBUTES", "TENSOR_METHODS", "attribute",
           "delete_attribute", "missing", "set_attribute"]


def _no_variable(value: Any) -> Any:
    # PyTorch raises AttributeError here: an unknown name for this kind of node, like any unknown member.
    raise UnknownNameError(f"'{kind(value)}' object has no attribute 'variable' (only AccumulateGrad nodes, the "
                           "leaves of the graph, have a variable)", reason="attribute")


CTX_METHODS = ("save_for_backward", "mark_non_differentiable", "mark_dirty", "set_materialize_grads")
CTX_PROPERTIES = ("saved_tensors", "needs_input_grad")
LIST_METHODS = ("append", "extend", "pop", "insert", "index", "count", "reverse", "copy", "clear")
DICT_METHODS = ("items", "keys", "values", "get", "update", "pop", "setdefault", "copy", "clear")


def attribute(value: Any, attr: str) -> Any:
    """value.attr, from the allow-list of value's kind."""
    if isinstance(value, script_type("classes", "OBJECTS")):  # the script's classes keep their own names
        from autodiff.grammar.interpreter import classes

        return classes.attribute(value, attr)
    if engine.lazy.is_loaded():  # values of the engine's second step (lazy.py): custom Functions, nn, optim
        from autodiff.grammar.interpreter import nnmembers

        if isinstance(value, engine.FunctionCtx):
            return _ctx_member(value, attr)
        if isinstance(value, engine.Module):
            return nnmembers.module_member(value, attr)
        if isinstance(value, engine.Optimizer):
            return nnmembers.optimizer_member(value, attr)
        if isinstance(value, engine.StepLR):
            return nnmembers.scheduler_member(value, attr)
    if isinstance(value, script_type("numpy_subset", "NDArray")) and not attr.startswith("_"):
        from autodiff.grammar.interpreter import numpy_subset

        return numpy_subset.attribute(value, attr)
    if attr.startswith("_saved_") and isinstance(value, Node) and not attr.startswith("__"):
        return _saved(value, attr)
    if attr.startswith("_"):
        raise UnknownNameError(f"'{attr}': names starting with '_' are not part of the language", reason="private")
    if isinstance(value, list) and attr not in LIST_METHODS:  # a list literal used as a tensor: [1, 2].sum()
        value = engine.tensor(value)
    if isinstance(value, Tensor):
        return _tensor_member(value, attr)
    if isinstance(value, Namespace):
        return _module_member(value, attr)
    if isinstance(value, (Node, AccumulateGrad)):
        getter = NODE_ATTRIBUTES.get(attr)
        if getter is not None:
            return getter(value)
        if attr in NODE_METHODS:
            return Function(attr, getattr(value, attr), f"{attr}()")
        raise unknown_member(value.name(), attr, [*NODE_ATTRIBUTES, *NODE_METHODS])
    if isinstance(value, engine.ReturnTuple) and attr in value.fields:
        return getattr(value, attr)
    if isinstance(value, second("UnpackedDualTensor")) and attr in ("primal", "tangent"):
        return value.primal if attr == "primal" else value.tangent
    if isinstance(value, engine.Size) and attr == "numel":
        return Function("numel", value.numel, "numel()")
    if isinstance(value, engine.RemovableHandle) and attr == "remove":
        return Function("remove", value.remove, "remove()")
    if isinstance(value, list):
        return _python_method(value, attr, LIST_METHODS, "list")
    if isinstance(value, dict):
        return _python_method(value, attr, DICT_METHODS, "dict")
    if isinstance(value, str) and not isinstance(value, DType):
        from autodiff.grammar.interpreter.pytypes import string_method

        method = string_method(value, attr)
        if method is not None:
            return method
    if value is None:
        raise BadValueError(f"None has no attribute '{attr}' (a .grad is None until a backward pass reaches "
                            "it; a non-leaf's .grad needs retain_grad())", reason="none_attribute")
    raise BadValueError(f"'{kind(value)}' object has no attribute '{attr}'", reason="attribute")


def _python_method(value: list | dict, attr: str, allowed: tuple[str, ...], name: str) -> Function:
    """A method of a list or a dict, from the allow-list (read with a constant name from it)."""
    if attr not in allowed:
        raise BadValueError(f"'{name}' object has no attribute '{attr}' (its methods here: {', '.join(allowed)})",
                            reason="attribute")
    if isinstance(value, list):
        methods = {"append": value.append, "extend": value.extend, "pop": value.pop, "insert": value.insert,
                   "index": value.index, "count": value.count, "reverse": value.reverse, "copy": value.copy,
                   "clear": value.clear}
    else:
        methods = {"items": value.items, "keys": value.keys, "values": value.values, "get": value.get,
                   "update": value.update, "pop": value.pop, "setdefault": value.setdefault, "copy": value.copy,
                   "clear": value.clear}
    method = methods[attr]

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except (TypeError, IndexError, KeyError, ValueError) as error:
            raise BadValueError(f"{name}.{attr}(): {error}", reason="arguments") from None

    return Function(attr, call, f"{name}.{attr}(...)")


def _ctx_member(ctx: Any, attr: str) -> Any:
    """ctx.save_for_backward(...), ctx.saved_tensors, ..., and what the script stored on it (ctx.constant)."""
    if attr.startswith("__"):
        raise UnknownNameError(f"'{attr}': names starting with '__' are not part of the language", reason="private")
    if attr in CTX_METHODS:
        methods = {"save_for_backward": ctx.save_for_backward, "mark_non_differentiable": ctx.mark_non_differentiable,
                   "mark_dirty": ctx.mark_dirty, "set_materialize_grads": ctx.set_materialize_grads}
        return Function(attr, methods[attr], f"ctx.{attr}(...)")
    if attr == "saved_tensors":
        return ctx.saved_tensors
    if attr == "needs_input_grad":
        return ctx.needs_input_grad
    if attr in ctx.attributes:
        return ctx.attributes[attr]
    raise UnknownNameError(f"'FunctionCtx' object has no attribute '{shown(attr)}' (store it in forward first: "
                           f"ctx.{shown(attr)} = ...)", reason="attribute")


def _saved(node: Node, attr: str) -> Any:
    """grad_fn._saved_self, _saved_result, _saved_other, _saved_exponent, ...: what the node saved."""
    name = attr[len("_saved_"):]
    try:
        return node.saved(name)
    except KeyError:
        raise UnknownNameError(f"'{node.name()}' object has no attribute '{shown(attr)}'",
                               reason="attribute") from None


def _tensor_member(value: Tensor, attr: str) -> Any:
    if attr == "to":
        return tensor_to(value)
    if attr in TENSOR_DEVICE_MEMBERS:
        return cpu_or_cuda(value, attr)
    if attr == "numpy":
        from autodiff.grammar.interpreter import numpy_subset

        return numpy_subset.tensor_numpy(value)
    if attr in SHAPED_LIKE:
        return shaped_like(value, attr)
    getter = TENSOR_ATTRIBUTES.get(attr)
    if getter is not None:
        return getter(value)
    if attr in TENSOR_METHODS:
        return Function(attr, getattr(value, attr), method_signature(attr), BUILTINS.get(attr))
    raise unknown_member("tensor", attr, [*TENSOR_ATTRIBUTES, *TENSOR_METHODS])


# What to write instead of a module autodiff does not have, where tutorials use it
UNAVAILABLE = {"threading": "a script runs one statement at a time: call the thread's target function directly",
               "torch.autograd.graph": "hooks on saved tensors and on graph nodes are not part of autodiff: "
               "tensor.register_hook(fn) runs fn on a gradient, and grad_fn._saved_self, ctx.saved_tensors show "
               "what a node saved",
               "copy": "for a copy of a model make another one (Model()) and load_state_dict(model.state_dict()); "
               "functional_call needs no copy: pass the model itself (functional_call(models[0], params, (x,)))"}


def _module_member(value: Namespace, attr: str) -> Any:
    member = value.members.get(attr)
    if member is None:
        if not value.members:
            raise UnknownNameError(f"{value.name}.{attr}: the module {value.name} is not available in "
                                   "autodiff (use the torch functions instead)", hint=UNAVAILABLE.get(value.name),
                                   reason="module")
        raise unknown_member(value.name, attr, list(value.members))
    return member


def method_signature(name: str) -> str | None:
    """A built-in's signature as a method: `sum(dim=None, keepdim=False)` (its first parameter is the tensor)."""
    builtin = BUILTINS.get(name)
    if builtin is None:
        return None
    inside = builtin.signature.split("(", 1)[1].rstrip(")")
    rest = [p.strip() for p in inside.split(",")][1:]
    return f"{name}({', '.join(rest)})"


COMPLEX = ("cfloat", "cdouble", "complex64", "complex128", "complex", "view_as_complex", "polar")


def missing(owner: str, attr: str, known: list[str]) -> str:
    """What to say after "no such name": what autodiff has instead of the torch names it lacks, else the
    closest known name."""
    import difflib  # only for a misspelt name: eval never pays for it

    close = difflib.get_close_matches(attr, known, n=1)
    suggestion = f"; did you mean '{close[0]}'?" if close else ""
    if owner == "torch" and attr in COMPLEX:
        return (": complex tensors are not available in autodiff (its tensors are float32 or float64); keep the real "
                "and imaginary parts as two real tensors")
    if owner == "torch.nn" and attr[:1].isupper():  # nn.BatchNorm1d, nn.LSTM, ...: classes it does not have
        return (f"{suggestion}: this module is not available in autodiff (it has Linear, Bilinear, the convolutions "
                "and pools, Sequential, the activations, Dropout and the losses); write the layer's weights as "
                "nn.Parameter in a nn.Module and its formula in forward (torch.nn.functional has the functions)")
    return suggestion


def unknown_member(owner: str, attr: str, known: list[str]) -> UnknownNameError:
    return UnknownNameError(f"{owner} has no attribute or method '{shown(attr)}'{missing(owner, attr, known)}",
                            reason="unknown_member")


def delete_attribute(owner: Any, attr: str) -> None:
    """`delattr(obj, name)`: a script object's own attribute, or a module's registered name (nn.Module's
    __delattr__); what else a program reaches has no attribute it may delete."""
    if not isinstance(attr, str):
        raise BadValueError("delattr(): attribute name must be string", reason="arguments")
    if isinstance(owner, script_type("classes", "Instance")):
        found = owner.attributes.pop(attr, None) is not None
        if isinstance(owner, second("Module")):
            found = owner.remove(attr) or found
        if not found:
            raise UnknownNameError(f"'{owner.cls.name}' object has no attribute '{shown(attr)}'", reason="attribute")
        return
    if isinstance(owner, second("Module")):
        from autodiff.grammar.interpreter import nnmembers

        nnmembers.delete_module_attribute(owner, attr)
        return
    if isinstance(owner, second("FunctionCtx")) and attr in owner.attributes:
        del owner.attributes[attr]
        return
    raise BadValueError(f"cannot delete attribute '{shown(attr)}' of a {kind(owner)}", reason="attribute")


def set_attribute(owner: Any, attr: str, value: Any) -> None:
    """x.grad = ..., x.requires_grad = ..., x.data = ...: the attributes a script may set; any attribute of the
    script's own objects (self.w = ...) and of a custom Function's ctx (ctx.constant = ...)."""
    if isinstance(owner, (script_type("classes", "Instance"), script_type("classes", "UserClass"))):
        from autodiff.grammar.interpreter import classes

        classes.set_attribute(owner, attr, value)
        return
    if isinstance(owner, second("Module")):
        from autodiff.grammar.interpreter import nnmembers

        nnmembers.set_module_attribute(owner, attr, value)
        return
    if isinstance(owner, second("FunctionCtx")):
        if attr.startswith("__") or attr in CTX_METHODS or attr in CTX_PROPERTIES:
            raise BadValueError(f"ctx.{attr} cannot be assigned", reason="attribute")
        owner.attributes[attr] = value
        return
    if not isinstance(owner, Tensor):
        raise BadValueError(f"cannot set attribute '{attr}' of a {kind(owner)}", reason="attribute")
    if attr not in SETTABLE:
        raise BadValueError(f"attribute '{attr}' of a tensor cannot be assigned (only {', '.join(SETTABLE)} can)",
                            reason="attribute")
    if attr == "grad":
        owner.grad = value
    elif attr == "requires_grad":
        if not isinstance(value, bool):
            raise BadValueError(f"requires_grad must be True or False, got {type(value).__name__}",
                                reason="attribute")
        owner.requires_grad_(value)
    else:
        owner.set_data(value)
