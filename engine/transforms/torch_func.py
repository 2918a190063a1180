"""torch.func's transforms on the engine: grad, vjp and jacrev in reverse mode, jvp and jacfwd in forward mode
(forward_ad.py), hessian as jacfwd(jacrev(f)). They compose as PyTorch's do: the reverse-mode transforms record
their gradients (create_graph), so another transform, of either mode, differentiates them again. The engine has
one forward-mode level at a time (as torch.autograd.forward_ad): a jvp or jacfwd called while a level is open
(jacfwd(jacfwd(f)), jvp inside jvp, hessian of a function that uses jacfwd) is computed in reverse mode instead
(nested_levels.py), with the same values, and the open level's tangents flow through it.

A transform's result is connected to the caller's graph only through inputs that required grad already (as
torch.func's are); otherwise it is a plain tensor, with its tangent when a forward-mode level is open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.autograd import grad as autograd_grad
from ..core.modes import GradMode
from ..core.settings import STATE
from ..core.tensor import Tensor
from ..errors import BadValueError, LimitError
from ..ops.constructors import zeros
from ..ops.joins import stack
from ..ops.shapes import reshape, view
from .dual_tensors import set_tangent, tangent_of
from .forward_ad import dual_level, make_dual, unpack_dual
from .nested_levels import jvp_in_level
from .pytree import flatten, unflatten
from .stateless import functional_call, stack_module_state
from .vmap import vmap

MAX_BASIS = 10_000  # jacfwd/jacrev: one evaluation (or backward pass) per input (or output) element
MAX_JACOBIAN = 2 ** 24  # elements of a Jacobian (output.numel() * input.numel()): 128 MB of float64


def _argnums(argnums: Any, count: int) -> tuple[int, ...]:
    items = argnums if isinstance(argnums, (tuple, list)) else (argnums,)
    out = []
    for n in items:
        if isinstance(n, bool) or not isinstance(n, int) or not -count <= n < count:
            raise BadValueError(f"argnums {argnums!r}: each must be the position of an argument (the function was "
                                f"given {count})", reason="argnums")
        out.append(n % count)
    return tuple(out)


def _tensor(value: Any, what: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise BadValueError(f"{what} must be a Tensor, got {type(value).__name__}", reason="arguments")
    return value


def _tracked(x: Tensor) -> Tensor:
    """The input the transform differentiates: a view of x when x requires grad (the caller's graph goes on),
    else a new leaf that requires grad; its tangent stays (an enclosing jacfwd sees through it)."""
    if x.requires_grad:
        return view(x, *x.shape)
    leaf = x.detach().requires_grad_(True)
    set_tangent(leaf, tangent_of(x))
    return leaf


def _plain(result: Tensor, inputs: list[Tensor]) -> Tensor:
    """The result as the caller sees it: detached (keeping its tangent) unless an input required grad."""
    if any(x.requires_grad for x in inputs) or not isinstance(result, Tensor):
        return result
    tangent = tangent_of(result)
    out = result.detach()
    set_tangent(out, tangent)
    return out


def _call(func: Callable[..., Any], args: list, has_aux: bool) -> tuple[Any, Any]:
    with GradMode(True):
        result = func(*args)
    if not has_aux:
        return result, None
    if not isinstance(result, tuple) or len(result) != 2:
        raise BadValueError("a function with has_aux=True must return a pair (output, aux)", reason="has_aux")
    return result


def _gradients(output: Tensor, inputs: list[Tensor], cotangent: Any = None) -> list[Tensor]:
    if not output.requires_grad:
        return [zeros(*x.shape, dtype=x.dtype.name) for x in inputs]
    found = autograd_grad(output, inputs, cotangent, retain_graph=True, create_graph=True, allow_unused=True)
    return [g if g is not None else zeros(*x.shape, dtype=x.dtype.name) for g, x in zip(found, inputs)]


def _traced(func: Callable[..., Any], argnums: Any, args: tuple, has_aux: bool) -> tuple:
    """func called with the arguments at argnums replaced by tracked copies (each a tensor or a pytree of
    tensors: a dict of parameters): (those tensors, their tracked copies, func's output tensor, its aux, the
    structure of each argument differentiated)."""
    which = _argnums(argnums, len(args))
    called = list(args)
    originals: list[Tensor] = []
    tracked: list[Tensor] = []
    specs: list = []
    for i in which:
        leaves, spec = flatten(args[i])
        leaves = [_tensor(x, "the argument to differentiate") for x in leaves]
        copies = [_tracked(x) for x in leaves]
        called[i] = unflatten(copies, spec)
        originals.extend(leaves)
        tracked.extend(copies)
        specs.append((spec, len(leaves)))
    output, aux = _call(func, called, has_aux)
    return originals, tracked, _tensor(output, "func's output"), aux, specs


def _regrouped(flat: list, specs: list, argnums: Any) -> Any:
    """One result per tensor, regrouped as the arguments were (a tuple for a tuple of argnums)."""
    results, start = [], 0
    for spec, count in specs:
        results.append(unflatten(flat[start:start + count], spec))
        start += count
    return tuple(results) if isinstance(argnums, (tuple, list)) else results[0]


def grad(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.grad: the function giving the gradient of func's one-element output."""

    def gradient(*args: Any) -> Any:
        originals, tracked, output, aux, specs = _traced(func, argnums, args, has_aux)
        if output.numel() != 1:
            raise BadValueError(f"Expected f(*args) to return a scalar Tensor, got tensor with {output.ndim} dims. "
                                "Maybe you wanted to use the vjp or jacrev APIs instead?", reason="arguments")
        grads = [_plain(g, originals) for g in _gradients(output, tracked)]
        result = _regrouped(grads, specs, argnums)
        return (result, aux) if has_aux else result

    gradient.__name__ = getattr(func, "__name__", None) or getattr(func, "name", "func")
    return gradient


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """torch.func.vjp: (func(*primals), vjp_fn), vjp_fn(cotangent) giving one gradient per primal (each primal
    a tensor or a pytree of tensors: the gradient has its structure)."""
    leaves, spec = flatten(primals)
    originals = [_tensor(p, "each primal") for p in leaves]
    tracked = [_tracked(x) for x in originals]
    output, aux = _call(func, list(unflatten(tracked, spec)), has_aux)
    output = _tensor(output, "func's output")

    def vjp_fn(cotangent: Any) -> tuple:
        cotangent = _tensor(cotangent, "the cotangent")
        if tuple(cotangent.shape) != tuple(output.shape):
            raise BadValueError(f"Mismatch in shape: the cotangent has shape {tuple(cotangent.shape)} and the output "
                                f"shape {tuple(output.shape)}", reason="shape")
        return unflatten([_plain(g, originals) for g in _gradients(output, tracked, cotangent)], spec)

    shown = _plain(output, originals)
    return (shown, vjp_fn, aux) if has_aux else (shown, vjp_fn)


def jacrev(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.jacrev: the Jacobian (output.shape + input.shape) by one backward pass per output element."""

    def jacobian(*args: Any) -> Any:
        originals, tracked, output, aux, specs = _traced(func, argnums, args, has_aux)
        _basis_limit(output.numel(), "jacrev")
        _size_limit(tuple(output.shape), [tuple(x.shape) for x in tracked], "jacrev")
        flat = reshape(output, -1)
        rows = [_gradients(flat[i], tracked) for i in range(output.numel())]
        blocks = [_block(rows, k, output, x) for k, x in enumerate(tracked)]
        result = _regrouped([_plain(b, originals) for b in blocks], specs, argnums)
        return (result, aux) if has_aux else result

    return jacobian


def _block(rows: list[list[Tensor]], k: int, output: Tensor, x: Tensor) -> Tensor:
    shape = (*output.shape, *x.shape)
    if not rows:
        return zeros(*shape, dtype=x.dtype.name)
    return reshape(stack([row[k] for row in rows]), *shape)


def _size_limit(out_shape: tuple, in_shapes: list[tuple], name: str) -> None:
    """A Jacobian too large to hold (hessian of a vector function: output.shape + input.shape twice) fails before
    the passes that would fill it."""
    count = int(np.prod(out_shape, dtype=np.int64)) * sum(int(np.prod(s, dtype=np.int64)) for s in in_shapes)
    if count > MAX_JACOBIAN:
        shapes = " and ".join(str(list(s)) for s in in_shapes)
        raise LimitError(f"{name}'s Jacobian would have {count:,} elements (output {list(out_shape)} by input "
                         f"{shapes}), over the limit of {MAX_JACOBIAN:,}", hint="use smaller tensors", reason="size")


def _basis_limit(count: int, name: str) -> None:
    if count > MAX_BASIS:
        raise LimitError(f"{name} would need {count:,} passes (one per element), over the limit of {MAX_BASIS:,}",
                         hint="use smaller tensors", reason="rows")


def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False) -> tuple:
    """torch.func.jvp: (func(*primals), J tangents), in forward mode."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise BadValueError("jvp(func, primals, tangents): primals and tangents must be tuples of tensors, e.g. "
                            "jvp(f, (x,), (v,))", reason="arguments")
    if len(primals) != len(tangents):
        raise BadValueError(f"jvp: expected primals and tangents of the same length, got {len(primals)} and "
                            f"{len(tangents)}", reason="arguments")
    (flat_primals, spec), (flat_tangents, tangent_spec) = flatten(tuple(primals)), flatten(tuple(tangents))
    if spec != tangent_spec:
        raise BadValueError("jvp: Expected primals and tangents to have the same python structure (the same tuples, "
                            "lists and dict keys)", reason="arguments")
    if STATE.forward_level:  # inside another forward-mode transform: by reverse mode
        return jvp_in_level(func, flat_primals, flat_tangents, spec, has_aux, (_tracked, _call, _plain))
    with dual_level():
        duals = [make_dual(_tensor(p, "each primal"), _tensor(t, "each tangent"))
                 for p, t in zip(flat_primals, flat_tangents)]
        output, aux = _call(func, list(unflatten(duals, spec)), has_aux)
        primal, tangent = unpack_dual(_tensor(output, "func's output"))
        value = primal.detach() if not any(p.requires_grad for p in flat_primals) else primal
        result = tangent if tangent is not None else zeros(*primal.shape, dtype=primal.dtype.name)
        if not any(isinstance(x, Tensor) and x.requires_grad for x in (*primals, *tangents)):
            result = result.detach()  # recorded only through func's own tracking (grad inside jvp): a plain tensor
    return (value, result, aux) if has_aux else (value, result)


def jacfwd(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """torch.func.jacfwd: the Jacobian (output.shape + input.shape) by one forward-mode run per input element."""

    def jacobian(*args: Any) -> Any:
        if STATE.forward_level:  # inside another forward-mode transform: the same Jacobian by reverse mode
            return jacrev(func, argnums, has_aux)(*args)
        which = _argnums(argnums, len(args))
        blocks, aux = [], None
        for i in which:
            block, aux = _forward_block(func, list(args), i, has_aux)
            blocks.append(_plain(block, [args[i]]) if isinstance(args[i], Tensor) else block)
        result = tuple(blocks) if isinstance(argnums, (tuple, list)) else blocks[0]
        return (result, aux) if has_aux else result

    return jacobian


def _forward_block(func: Callable[..., Any], args: list, i: int, has_aux: bool) -> tuple[Tensor, Any]:
    x = _tensor(args[i], "the argument to differentiate")
    _basis_limit(x.numel(), "jacfwd")
    columns, output, aux = [], None, None
    keep_graph = x.requires_grad  # else the block is detached (_plain): each column's graph is dropped at once
    for j in range(x.numel()):
        basis = np.zeros(x.numel(), dtype=x.dtype)
        basis[j] = 1
        with dual_level():
            args[i] = make_dual(x, Tensor._make(basis.reshape(x.shape)))
            output, aux = _call(func, args, has_aux)
            primal, tangent = unpack_dual(_tensor(output, "func's output"))
            column = tangent if tangent is not None else zeros(*primal.shape, dtype=primal.dtype.name)
            columns.append(column if keep_graph else column.detach())
        if j == 0:
            _size_limit(tuple(columns[0].shape), [tuple(x.shape)], "jacfwd")
    if not columns:
        return zeros(*x.shape, dtype=x.dtype.name), aux
    out_shape = tuple(columns[0].shape)
    block = stack([reshape(c, -1) for c in columns], dim=1) if out_shape else stack(columns)
    return reshape(block, *out_shape, *x.shape), aux


def hessian(func: Callable[..., Any], argnums: Any = 0) -> Callable[..., Any]:
    """torch.func.hessian: jacfwd(jacrev(func))."""
    return jacfwd(jacrev(func, argnums), argnums)


__all__ = ["functional_call", "grad", "hessian", "jacfwd", "jacrev", "jvp", "stack_module_state", "vjp", "vmap"]
