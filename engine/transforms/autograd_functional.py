"""torch.autograd.functional and torch.autograd.gradcheck on the engine: Jacobians, Hessians and their products
with vectors, computed from reverse-mode passes as PyTorch's (vjp, jvp and hvp by the double-backward trick),
and gradcheck/gradgradcheck, autograd's gradients compared with central finite differences.

`func` is any callable taking tensors and returning a tensor or a tuple of tensors (a script's function is
called through the interpreter).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.autograd import grad
from ..core.modes import GradMode
from ..core.tensor import Tensor
from ..errors import AutogradError, BadValueError
from ..ops.joins import stack
from ..ops.shapes import reshape, view


def _tuple(x: Any, what: str) -> tuple[bool, tuple]:
    """(was it a tuple, its items as a tuple of tensors)."""
    is_tuple = isinstance(x, (tuple, list))
    items = tuple(x) if is_tuple else (x,)
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise BadValueError(f"The {what} given to the function must be a Tensor or a tuple of Tensors, but "
                                f"{what}[{i}] is {type(t).__name__}", reason="arguments")
    return is_tuple, items


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    """Inputs the function's graph starts from: views of them when create_graph (the outer graph goes on),
    detached leaves that require grad otherwise (as PyTorch's _grad_preprocess)."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(view(t, *t.shape))
        else:
            out.append(t.detach().requires_grad_(True))
    return tuple(out)


def _outputs(func: Callable[..., Any], inputs: tuple) -> tuple[bool, tuple]:
    with GradMode(True):
        result = func(*inputs)
    return _tuple(result, "outputs")


def _grads(output: Tensor, inputs: tuple, grad_output: Tensor, create_graph: bool, strict: bool) -> list:
    """d output / d inputs against grad_output (zeros where an input is not used, unless strict)."""
    if not output.requires_grad:
        if strict:
            raise AutogradError("The output of the user-provided function is independent of its inputs; this is not "
                                "allowed in strict mode.", reason="strict")
        return [None] * len(inputs)
    found = grad(output, inputs, grad_output, retain_graph=True, create_graph=create_graph, allow_unused=True)
    if strict and any(g is None for g in found):
        raise AutogradError("The output of the user-provided function is independent of an input; this is not "
                            "allowed in strict mode.", reason="strict")
    return list(found)


def _zeros(like: Tensor) -> Tensor:
    return Tensor._make(np.zeros(like._data.shape, dtype=like._data.dtype))


def _stack_rows(rows: list[Tensor], out_shape: tuple, in_shape: tuple) -> Tensor:
    if not rows:
        return Tensor._make(np.zeros(out_shape + in_shape))
    return reshape(stack(rows), (*out_shape, *in_shape))


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode") -> Any:
    """torch.autograd.functional.jacobian: d outputs / d inputs, each block of shape output.shape + input.shape."""
    if strategy not in ("reverse-mode", "forward-mode"):
        raise BadValueError('Expected strategy to be either "forward-mode" or "reverse-mode".', reason="arguments")
    in_tuple, raw = _tuple(inputs, "inputs")
    prepared = _prepare(raw, create_graph)
    out_tuple, outputs = _outputs(func, prepared)
    blocks = []
    for out in outputs:
        rows: list[list[Tensor]] = [[] for _ in prepared]
        for j in range(out._data.size):
            onehot = np.zeros(out._data.size, dtype=out._data.dtype)
            onehot[j] = 1
            found = _grads(out, prepared, Tensor._make(onehot.reshape(out._data.shape)), create_graph, strict)
            for k, (g, inp) in enumerate(zip(found, prepared)):
                g = _zeros(inp) if g is None else g
                rows[k].append(g if create_graph else g.detach())
        blocks.append(tuple(_stack_rows(r, tuple(out.shape), tuple(inp.shape)) for r, inp in zip(rows, prepared)))
    per_output = [b if in_tuple else b[0] for b in blocks]
    return tuple(per_output) if out_tuple else per_output[0]


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """torch.autograd.functional.hessian: the Jacobian of the gradient of a function with one element."""
    in_tuple, raw = _tuple(inputs, "inputs")

    def gradient(*xs: Tensor) -> Any:
        out_tuple, outputs = _outputs(func, xs)
        if out_tuple or outputs[0]._data.size != 1:
            raise BadValueError("The function given to hessian should return a single Tensor with a single element",
                                reason="arguments")
        jac = jacobian(func, xs if in_tuple else xs[0], create_graph=True, strict=strict)
        jac = jac if in_tuple else (jac,)
        squeezed = tuple(reshape(j, tuple(x.shape)) for j, x in zip(jac, xs))
        return squeezed if in_tuple else squeezed[0]

    return jacobian(gradient, raw if in_tuple else raw[0], create_graph=create_graph, strict=strict)


def _vector(v: Any, like: tuple, what: str) -> tuple:
    if v is None:
        if len(like) != 1 or like[0]._data.size != 1:
            raise BadValueError(f"The vector v can only be None if the {what} of the user-provided function is a "
                                "single Tensor with a single element.", reason="arguments")
        return (Tensor._make(np.ones(like[0]._data.shape, dtype=like[0]._data.dtype)),)
    _, items = _tuple(v, "v")
    if len(items) != len(like) or any(tuple(a.shape) != tuple(b.shape) for a, b in zip(items, like)):
        raise BadValueError(f"v has the wrong shape: it must have the shape of the {what} of the function",
                            reason="arguments")
    return items


def _result(values: list, is_tuple: bool, create_graph: bool) -> Any:
    values = [v if create_graph else v.detach() for v in values]
    return tuple(values) if is_tuple else values[0]


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """(func(inputs), v^T J): the vector-Jacobian product."""
    in_tuple, raw = _tuple(inputs, "inputs")
    prepared = _prepare(raw, create_graph)
    out_tuple, outputs = _outputs(func, prepared)
    vs = _vector(v, outputs, "output")
    total = [None] * len(prepared)
    for out, vec in zip(outputs, vs):
        for k, g in enumerate(_grads(out, prepared, vec, create_graph, strict)):
            if g is not None:
                total[k] = g if total[k] is None else total[k] + g
    grads = [_zeros(x) if g is None else g for g, x in zip(total, prepared)]
    return _result(list(outputs), out_tuple, create_graph), _result(grads, in_tuple, create_graph)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick as PyTorch computes it."""
    _, raw = _tuple(inputs, "inputs")
    prepared = _prepare(raw, create_graph)
    vs = _vector(v, prepared, "input")
    out_tuple, outputs = _outputs(func, prepared)
    results = []
    for out in outputs:
        dummy = _zeros(out).requires_grad_(True)
        grads = [g for g in _grads(out, prepared, dummy, True, strict)]
        pairs = [(g, vec) for g, vec in zip(grads, vs) if g is not None and g.requires_grad]
        if not pairs:
            results.append(_zeros(out))
            continue
        found = grad([g for g, _ in pairs], dummy, [vec for _, vec in pairs], create_graph=create_graph,
                     allow_unused=True)[0]
        results.append(_zeros(out) if found is None else found)
    return _result(list(outputs), out_tuple, create_graph), _result(results, out_tuple, create_graph)


def _second(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool, hvp: bool) -> Any:
    in_tuple, raw = _tuple(inputs, "inputs")
    prepared = _prepare(raw, create_graph)
    out_tuple, outputs = _outputs(func, prepared)
    if out_tuple or outputs[0]._data.size != 1:
        raise BadValueError("The function given to hvp/vhp should return a single Tensor with a single element",
                            reason="arguments")
    vs = _vector(v, prepared, "input")
    first = [g if g is not None else _zeros(x) for g, x in zip(
        _grads(outputs[0], prepared, None, True, strict), prepared)]
    if hvp:  # (H v) = d/dz (z^T H) v with a dummy z, as PyTorch does
        dummies = [_zeros(x).requires_grad_(True) for x in prepared]
        back = grad([g for g in first if g.requires_grad], prepared, [d for d, g in zip(dummies, first)
                                                                      if g.requires_grad],
                    create_graph=True, allow_unused=True)
        pairs = [(b, vec) for b, vec in zip(back, vs) if b is not None and b.requires_grad]
        found = grad([b for b, _ in pairs], dummies, [vec for _, vec in pairs], create_graph=create_graph,
                     allow_unused=True) if pairs else [None] * len(dummies)
    else:
        pairs = [(g, vec) for g, vec in zip(first, vs) if g.requires_grad]
        found = grad([g for g, _ in pairs], prepared, [vec for _, vec in pairs], create_graph=create_graph,
                     allow_unused=True) if pairs else [None] * len(prepared)
    values = [_zeros(x) if f is None else f for f, x in zip(found, prepared)]
    return _result([outputs[0]], False, create_graph), _result(values, in_tuple, create_graph)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """(func(inputs), H v): the Hessian-vector product."""
    return _second(func, inputs, v, create_graph, strict, True)


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> Any:
    """(func(inputs), v^T H): the vector-Hessian product."""
    return _second(func, inputs, v, create_graph, strict, False)
