"""What `.` reaches on the engine's values, from explicit allow-lists per kind of value, so that no Python
object is reachable: a tensor's properties and methods (the engine's own lists, TENSOR_PROPERTIES and
TENSOR_METHODS), a graph node's, a module's members; and the few tensor attributes a program may assign."""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.engine import BUILTINS, OWN_METHODS, TENSOR_METHODS, TENSOR_PROPERTIES, AccumulateGrad, Node, Tensor
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.values import Function, Namespace, kind, literal_tensor, shown

# How each of the Tensor's properties reads in the language (the engine lists them: TENSOR_PROPERTIES).
TENSOR_ATTRIBUTES = {name: lambda t, name=name: getattr(t, name) for name in TENSOR_PROPERTIES}
NODE_ATTRIBUTES = {
    "next_functions": lambda n: n.next_functions,
    "variable": lambda n: n.variable if isinstance(n, AccumulateGrad) else _no_variable(n),
    "metadata": lambda n: n.metadata,
}
NODE_METHODS = frozenset({"name"})
SETTABLE = ("grad", "requires_grad", "data")  # tensor attributes a program may assign

__all__ = ["NODE_ATTRIBUTES", "NODE_METHODS", "SETTABLE", "TENSOR_ATTRIBUTES", "TENSOR_METHODS", "attribute",
           "missing", "set_attribute"]


def _no_variable(value: Any) -> Any:
    # PyTorch raises AttributeError here: an unknown name for this kind of node, like any unknown member.
    raise UnknownNameError(f"'{kind(value)}' object has no attribute 'variable' (only AccumulateGrad nodes, the "
                           "leaves of the graph, have a variable)", reason="attribute")


def attribute(value: Any, attr: str) -> Any:
    """value.attr, from the allow-list of value's kind."""
    if attr.startswith("_saved_") and isinstance(value, Node) and not attr.startswith("__"):
        return _saved(value, attr)
    if attr.startswith("_"):
        raise UnknownNameError(f"'{attr}': names starting with '_' are not part of the language", reason="private")
    if isinstance(value, list):  # a list literal used as a tensor: [1, 2].sum()
        value = literal_tensor(value)
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
    if isinstance(value, engine.Size) and attr == "numel":
        return Function("numel", value.numel, "numel()")
    if value is None:
        raise BadValueError(f"None has no attribute '{attr}' (a .grad is None until a backward pass reaches "
                            "it; a non-leaf's .grad needs retain_grad())", reason="none_attribute")
    raise BadValueError(f"'{kind(value)}' object has no attribute '{attr}'", reason="attribute")


def _saved(node: Node, attr: str) -> Any:
    """grad_fn._saved_self, _saved_result, _saved_other, _saved_exponent, ...: what the node saved."""
    name = attr[len("_saved_"):]
    try:
        return node.saved(name)
    except KeyError:
        raise UnknownNameError(f"'{node.name()}' object has no attribute '{shown(attr)}'",
                               reason="attribute") from None


def _tensor_member(value: Tensor, attr: str) -> Any:
    getter = TENSOR_ATTRIBUTES.get(attr)
    if getter is not None:
        return getter(value)
    if attr in OWN_METHODS or attr in TENSOR_METHODS:
        builtin = None if attr in OWN_METHODS else BUILTINS.get(attr)  # backward, item, ...: not built-ins
        return Function(attr, getattr(value, attr), None if builtin is None else method_signature(attr), builtin)
    raise unknown_member("tensor", attr, [*TENSOR_ATTRIBUTES, *TENSOR_METHODS])


def _module_member(value: Namespace, attr: str) -> Any:
    member = value.members.get(attr)
    if member is None:
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


def missing(owner: str, attr: str, known: list[str]) -> str:
    """What to say after "no such name": the closest known name, and where the rest of torch is."""
    import difflib  # only for a misspelt name: eval never pays for it

    close = difflib.get_close_matches(attr, known, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    if owner.startswith("torch"):
        return ": the rest of torch (nn modules, optimizers, ...) is for Python files run by `autodiff run FILE`"
    return ""


def unknown_member(owner: str, attr: str, known: list[str]) -> UnknownNameError:
    return UnknownNameError(f"{owner} has no attribute or method '{shown(attr)}'{missing(owner, attr, known)}",
                            reason="unknown_member")


def set_attribute(owner: Any, attr: str, value: Any) -> None:
    """x.grad = ..., x.requires_grad = ..., x.data = ...: the attributes of a tensor a program may set."""
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
