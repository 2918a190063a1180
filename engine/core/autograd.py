"""The public entry points of backward: `backward()` accumulates into the leaves' .grad, `grad()` returns the
gradients. Each picks the vocabulary the executor computes in (numpy arrays, or recorded tensors for
create_graph=True) and hands it to the executor (executor.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import AutogradError
from .coerce import array_from
from .executor import execute
from .graph import accumulator
from .modes import GradMode
from .settings import STATE
from .tensor import Tensor
from .vocabulary import NumpyMath


def _tensor_math() -> Any:
    """The vocabulary on Tensors (tensormath.py, which imports this module)."""
    from .tensormath import TensorMath

    return TensorMath


def _vocabulary(create_graph: bool) -> Any:
    return _tensor_math() if create_graph else NumpyMath


# ---------------------------------------------------------------------------- public entry points
def _root_grad(t: Tensor, gradient: Any, index: int, create_graph: bool) -> tuple[Any, bool]:
    """The gradient a backward pass starts from, checked against the output it belongs to."""
    if gradient is None:
        if t._data.size != 1:
            shape = tuple(t.shape)
            raise AutogradError(
                f"grad can be implicitly created only for scalar outputs: this output has shape {shape}, "
                f"{t._data.size} elements",
                hint=f"pass a gradient of shape {shape} (e.g. ones({', '.join(map(str, shape))})) or reduce "
                "the output to a scalar first, e.g. with .sum()",
                reason="implicit_nonscalar", shape=shape,
            )
        ones = np.ones(t._data.shape, dtype=t._data.dtype)
        return (Tensor._make(ones) if create_graph else ones), True
    values = gradient._data if isinstance(gradient, Tensor) else array_from(gradient, t._data.dtype)
    if values.shape != t._data.shape:
        raise AutogradError(
            f"Mismatch in shape: grad_output[{index}] has a shape of {tuple(values.shape)} and "
            f"output[{index}] has a shape of {tuple(t._data.shape)}: the gradient must have the output's shape",
            hint="for a one-element output, leave the gradient out (it defaults to 1)"
            if t._data.size == 1 else None,
            reason="grad_shape", grad_shape=tuple(values.shape), shape=tuple(t._data.shape),
        )
    if create_graph:
        grad = gradient if isinstance(gradient, Tensor) else Tensor._make(values)
        return (_tensor_math().cast(grad, t._data.dtype) if grad.dtype != t._data.dtype else grad), False
    if values.dtype != t._data.dtype:
        return values.astype(t._data.dtype), True
    return values, False


def _roots(tensors: Sequence[Tensor], gradients: Sequence[Any], create_graph: bool) -> list:
    roots = []
    for i, (t, g) in enumerate(zip(tensors, gradients)):
        if not isinstance(t, Tensor):
            raise AutogradError(f"backward needs tensors, got {type(t).__name__}")
        if not t._requires_grad:
            raise AutogradError(
                f"element {i} of tensors does not require grad and does not have a grad_fn",
                hint="backward starts from a value computed from a tensor with requires_grad=True",
                reason="no_grad",
            )
        grad, owned = _root_grad(t, g, i, create_graph)
        roots.append((t._grad_fn if t._grad_fn is not None else accumulator(t), grad, owned))
    return roots


def _as_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    """Accumulate the gradients of `tensors` into the .grad of the leaves (torch.autograd.backward)."""
    tensors = _as_list(tensors)
    gradients = _as_list(grad_tensors) if grad_tensors is not None else [None] * len(tensors)
    if len(gradients) != len(tensors):
        raise AutogradError(f"got {len(gradients)} gradients for {len(tensors)} tensors")
    keep_graph = create_graph if retain_graph is None else bool(retain_graph)
    watcher = STATE.pass_watcher
    if watcher is not None:
        watcher(tensors, True)
    with GradMode(create_graph), np.errstate(all="ignore"):
        roots = _roots(tensors, gradients, create_graph)
        F = _vocabulary(create_graph)
        if inputs is None:
            execute(roots, F, keep_graph)
            if watcher is not None:
                watcher(tensors, False)
            return
        targets = _as_list(inputs)
        capture = {_target_node(t): None for t in targets}
        captured = execute(roots, F, keep_graph, capture)
        for t in targets:
            grad, owned = captured.get(_target_node(t)) or (None, False)
            if grad is None:
                continue
            if t._grad_fn is None:
                accumulator(t).accumulate(grad, owned, F)
            else:
                t._grad = _as_tensor(grad, owned, create_graph) if t._grad is None else t._grad + _as_tensor(
                    grad, False, create_graph)
    if watcher is not None:
        watcher(tensors, False)


def _target_node(t: Tensor) -> Any:
    if not isinstance(t, Tensor) or not t._requires_grad:
        raise AutogradError("One of the differentiated Tensors does not require grad", reason="input_no_grad")
    return t._grad_fn if t._grad_fn is not None else accumulator(t)


def _as_tensor(grad: Any, owned: bool, create_graph: bool) -> Tensor:
    if create_graph:
        return grad
    return Tensor._make(grad if owned else np.array(grad, copy=True))


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool = False) -> tuple[Tensor | None, ...]:
    """The gradients of `outputs` with respect to `inputs`, without touching any .grad."""
    outputs = _as_list(outputs)
    gradients = _as_list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    inputs_list = _as_list(inputs)
    keep_graph = create_graph if retain_graph is None else bool(retain_graph)
    watcher = STATE.pass_watcher
    if watcher is not None:
        watcher(outputs, True)
    with GradMode(create_graph), np.errstate(all="ignore"):
        roots = _roots(outputs, gradients, create_graph)
        nodes = [_target_node(t) for t in inputs_list]
        captured = execute(roots, _vocabulary(create_graph), keep_graph, dict.fromkeys(nodes))
    if watcher is not None:
        watcher(outputs, False)
    results: list[Tensor | None] = []
    for index, node in enumerate(nodes):
        grad_value, owned = captured.get(node) or (None, False)
        if grad_value is None:
            if not allow_unused:
                raise AutogradError(
                    f"The differentiated Tensor at index {index} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.",
                    reason="unused_input",
                )
            results.append(None)
        else:
            results.append(_as_tensor(grad_value, owned, create_graph))
    return tuple(results)
