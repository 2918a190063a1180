"""torch.func.functional_call and torch.func.stack_module_state: a module called with other tensors in place of
its parameters and buffers (swapped into its registries for the call, put back after it, also when the call
fails), and the parameters and buffers of several models stacked, for vmap over an ensemble."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.tensor import Tensor
from ..errors import BadValueError, UnknownNameError
from ..nn.module import Module, is_module
from ..ops.joins import stack


def _fail(message: str) -> BadValueError:
    return BadValueError(message, reason="functional_call")


def _merged(dicts: Any) -> dict:
    if isinstance(dicts, dict):
        return dict(dicts)
    if not isinstance(dicts, (tuple, list)):
        raise _fail("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                    f"{type(dicts).__name__}")
    if any(not isinstance(d, dict) for d in dicts):
        raise _fail("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
    keys = [k for d in dicts for k in d]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise _fail(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
    return {k: v for d in dicts for k, v in d.items()}


def _owner(root: Module, dotted: str) -> tuple[Module, str]:
    """The module holding `a.b.name` and `name`."""
    if not isinstance(dotted, str) or not dotted:
        raise _fail(f"functional_call: the keys must name parameters or buffers ('fc1.weight'), got {dotted!r}")
    *path, name = dotted.split(".")
    module = root
    for part in path:
        found = module.registered_modules.get(part)
        if found is None:
            raise UnknownNameError(f"{module.type_name()} has no attribute `{part}`", reason="functional_call")
        module = found
    return module, name


def _table(module: Module, name: str, dotted: str) -> dict:
    for table in (module.registered_parameters, module.registered_buffers):
        if name in table:
            return table
    raise UnknownNameError(f"functional_call: {module.type_name()} has no parameter or buffer `{name}` "
                           f"('{dotted}')", hint="the keys are the names of model.named_parameters() and "
                           "model.named_buffers()", reason="functional_call")


def _untied(root: Module, values: dict) -> dict:
    """tie_weights: a tensor registered under several names is replaced under all of them."""
    named = [*root.named_parameters(remove_duplicate=False), *root.named_buffers(remove_duplicate=False)]
    by_tensor: dict[int, list[str]] = {}
    for name, tensor in named:
        by_tensor.setdefault(id(tensor), []).append(name)
    out = dict(values)
    for names in by_tensor.values():
        given = [n for n in names if n in values]
        if len(names) < 2 or not given:
            continue
        if any(values[n] is not values[given[0]] for n in given[1:]):
            raise _fail(f"functional_call got multiple values for keys {sorted(given)}, which are tied. Consider "
                        "using tie_weights=False")
        out.update({n: values[given[0]] for n in names})
    return out


@contextmanager
def reparametrized(root: Module, values: dict) -> Iterator[None]:
    """The module with values in place of its parameters and buffers, for the block."""
    swaps = []
    for dotted, value in values.items():
        if value is not None and not isinstance(value, Tensor):
            raise _fail(f"functional_call: the value for '{dotted}' must be a tensor, got {type(value).__name__}")
        module, name = _owner(root, dotted)
        swaps.append((_table(module, name, dotted), name, value))
    saved = [(table, name, table[name]) for table, name, _ in swaps]
    try:
        for table, name, value in swaps:
            table[name] = value
        yield
    finally:
        for table, name, value in reversed(saved):
            table[name] = value


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """torch.func.functional_call: module(*args, **kwargs) with the given tensors as its parameters and
    buffers (by their dotted names); the module itself is unchanged afterwards."""
    if not is_module(module):
        raise _fail(f"functional_call: expected a torch.nn.Module, got {type(module).__name__}")
    values = _merged(parameter_and_buffer_dicts)
    if tie_weights:
        values = _untied(module, values)
    if strict:
        _check_keys(module, values)
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    if kwargs is not None and not isinstance(kwargs, dict):
        raise _fail(f"functional_call: kwargs must be a dict, got {type(kwargs).__name__}")
    with reparametrized(module, values):
        return module(*args, **(kwargs or {}))


def _check_keys(module: Module, values: dict) -> None:
    known = [n for n, _ in (*module.named_parameters(remove_duplicate=False),
                            *module.named_buffers(remove_duplicate=False))]
    unexpected = [k for k in values if k not in known]
    missing = [k for k in known if k not in values]
    messages = []
    if unexpected:
        messages.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
    if missing:
        messages.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
    if messages:
        raise _fail(f"Error(s) in reparametrizing for {module.type_name()}:\n\t" + "\n\t".join(messages))


def stack_module_state(models: Any) -> tuple[dict, dict]:
    """torch.func.stack_module_state: (params, buffers), each name's tensors of every model stacked (the
    parameters as new leaves that require grad, as PyTorch's)."""
    models = _models(models)
    if not models:
        raise _fail("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) != 1:
        raise _fail("stack_module_state: Expected all models to have the same training/eval mode.")
    if len({m.type_name() for m in models}) != 1 or len({type(m) for m in models}) != 1:
        raise _fail("stack_module_state: Expected all models to be of the same class.")
    params = _stacked([dict(m.named_parameters()) for m in models], detach=True)
    buffers = _stacked([dict(m.named_buffers()) for m in models], detach=False)
    return params, buffers


def _models(models: Any) -> list:
    items = list(models) if isinstance(models, (list, tuple)) or (is_module(models) and hasattr(models, "__iter__")) \
        else None
    if items is None or any(not is_module(m) for m in items):
        raise _fail(f"stack_module_state: expected a list of modules, got {type(models).__name__}")
    return items


def _stacked(tables: list[dict], detach: bool) -> dict:
    out = {}
    for name in tables[0]:
        tensors = [t[name] for t in tables]
        grads = {t.requires_grad for t in tensors}
        if len(grads) != 1:
            raise _fail(f"Expected {name} from each model to have the same .requires_grad")
        result = stack(tensors)
        out[name] = result.detach().requires_grad_() if detach and grads == {True} else result
    return out


__all__ = ["functional_call", "reparametrized", "stack_module_state"]
