"""Jacobians and Hessians of a program, as torch.autograd.functional computes them: for each variable the
Jacobian of the root has shape root.shape + variable.shape; for a scalar root, the Hessian block (a, b)
has shape a.shape + b.shape. Built from backward passes of the engine (one per output element, and with
create_graph for the second derivatives)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autodiff import engine
from autodiff.app.session import EvalRequest, evaluate, root_tensor
from autodiff.engine import Tensor
from autodiff.engine.errors import LimitError, UsageError

MAX_ROWS = 10_000  # backward passes: one per output element (Jacobian) or per gradient element (Hessian)


@dataclass
class Matrices:
    root_name: str | None
    root_shape: tuple[int, ...]
    variables: dict[str, tuple[int, ...]]  # name -> shape, in binding order
    blocks: dict[str, np.ndarray] | dict[str, dict[str, np.ndarray]]
    largest_input: float = 0.0  # the largest |x| over the variables' elements (app.residue's scales)


def _largest(variables: dict[str, Tensor]) -> float:
    sizes = [float(np.nanmax(np.abs(t.numpy(force=True)), initial=0.0)) for t in variables.values() if t.numel()]
    return max(sizes, default=0.0)


def _variables(request: EvalRequest, wrt: list[str]) -> tuple[Tensor, str | None, dict[str, Tensor]]:
    with engine.enable_grad():
        _, evaluation = evaluate(request)
    root = root_tensor(evaluation)
    bound = [b.name for b in request.bindings if b.requires_grad]
    names = wrt or bound
    variables = {}
    for name in names:
        t = evaluation.names.get(name)
        if name not in bound or not isinstance(t, Tensor) or not t.requires_grad:
            listed = ", ".join(bound) or "none"
            raise UsageError(f"{{wrt}} {name}: not a variable of the program (bind it with {{variables}} "
                             f"{name}=VALUE; variables: {listed})", fields=("wrt", "variables"))
        variables[name] = t
    if not variables:
        raise UsageError("no variable to differentiate: bind one with {variables} NAME=VALUE (or NAME=VALUE)",
                         fields=("variables",))
    return root, evaluation.root_name, variables


def _rows(count: int, what: str, elements: int) -> None:
    """Refuse, before any work, a matrix that needs too many backward passes or has more elements (all its
    blocks together) than the element limit: 10,000 x 10,000 is 10**8 numbers, 5.3 GB of JSON in the making."""
    if count > MAX_ROWS:
        raise LimitError(f"the {what} needs {count:,} backward passes, over the limit of {MAX_ROWS:,}",
                         hint="use smaller tensors", reason="rows")
    limit = engine.get_max_elements()
    if limit is not None and elements > limit:
        raise LimitError(f"the {what} has {elements:,} elements, over the limit of {{max_elements}} ({limit:,})",
                         hint="use smaller tensors, or raise {max_elements}", reason="elements",
                         fields=("max_elements",))


def _gradients(output: Tensor, inputs: list[Tensor], create_graph: bool = False) -> list[np.ndarray | Tensor]:
    if not output.requires_grad:
        return [engine.zeros_like(t) if create_graph else np.zeros(t.shape, dtype=t.dtype) for t in inputs]
    grads = engine.grad(output, inputs, retain_graph=True, create_graph=create_graph, allow_unused=True)
    out = []
    for g, t in zip(grads, inputs):
        if g is None:
            out.append(engine.zeros_like(t) if create_graph else np.zeros(t.shape, dtype=t.dtype))
        else:
            out.append(g if create_graph else np.array(g.numpy(force=True), copy=True))
    return out


def jacobian(request: EvalRequest, wrt: list[str]) -> Matrices:
    """Per variable, d root / d variable with shape root.shape + variable.shape."""
    root, root_name, variables = _variables(request, wrt)
    shape = tuple(root.shape)
    size = int(np.prod(shape, dtype=np.int64))
    _rows(size, "Jacobian", size * sum(t.numpy(force=True).size for t in variables.values()))
    inputs = list(variables.values())
    blocks = {name: np.zeros(shape + tuple(t.shape), dtype=t.numpy(force=True).dtype) for name, t in variables.items()}
    flat = root.reshape(-1) if root.ndim else root
    with engine.enable_grad():
        for i in range(size):
            element = flat[i] if root.ndim else flat
            for (name, _), g in zip(variables.items(), _gradients(element, inputs)):
                blocks[name].reshape((size, *blocks[name].shape[len(shape):]))[i] = g
    return Matrices(root_name, shape, {n: tuple(t.shape) for n, t in variables.items()}, blocks,
                    _largest(variables))


def hessian(request: EvalRequest, wrt: list[str]) -> Matrices:
    """For a scalar root, every block d2 root / (d a d b) with shape a.shape + b.shape."""
    root, root_name, variables = _variables(request, wrt)
    if root.numpy(force=True).size != 1:
        raise UsageError(f"the Hessian needs a scalar root; this one has shape {tuple(root.shape)} (reduce it, "
                         "e.g. with .sum(), or use autodiff jacobian)")
    inputs = list(variables.values())
    count = sum(t.numpy(force=True).size for t in inputs)
    _rows(count, "Hessian", count * count)
    blocks: dict[str, dict[str, np.ndarray]] = {
        a: {b: np.zeros(tuple(ta.shape) + tuple(tb.shape), dtype=ta.dtype) for b, tb in variables.items()}
        for a, ta in variables.items()}
    with engine.enable_grad():
        scalar = root.reshape(()) if root.ndim else root
        firsts = _gradients(scalar, inputs, create_graph=True)
        for (a, ta), first in zip(variables.items(), firsts):
            flat = first.reshape(-1) if first.ndim else first
            for i in range(ta.numpy(force=True).size):
                element = flat[i] if first.ndim else flat
                for (b, tb), g in zip(variables.items(), _gradients(element, inputs)):
                    block = blocks[a][b].reshape((ta.numpy(force=True).size, *tuple(tb.shape)))
                    block[i] = g
    return Matrices(root_name, tuple(root.shape), {n: tuple(t.shape) for n, t in variables.items()}, blocks,
                    _largest(variables))


__all__ = ["Matrices", "hessian", "jacobian"]
