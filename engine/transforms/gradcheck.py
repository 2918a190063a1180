"""torch.autograd.gradcheck and gradgradcheck: the gradients autograd computes for a function, compared with
central finite differences, element by element (PyTorch's slow mode). gradgradcheck checks the gradients of
the gradients against random output gradients drawn as PyTorch draws them (uniform in [-1, 1), from the
global generator, so the random numbers after it are PyTorch's too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.autograd import grad
from ..core.modes import GradMode
from ..core.tensor import Tensor
from ..errors import AutogradError, BadValueError
from ..random.distributions import uniform_


def _inputs(inputs: Any) -> tuple:
    return tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)


def _outputs(result: Any) -> tuple:
    items = result if isinstance(result, tuple) else (result,)
    return tuple(o for o in items if isinstance(o, Tensor) and o.dtype.kind == "f")


def _numerical(func: Callable[..., Any], inputs: tuple, index: int, outputs: tuple, eps: float) -> list[np.ndarray]:
    """d outputs / d inputs[index] by central differences: one (output.size, input.size) array per output."""
    x = inputs[index]
    base = x._data
    columns: list[list[np.ndarray]] = [[] for _ in outputs]
    for k in range(base.size):
        values = []
        for step in (eps, -eps):
            moved = base.copy()
            moved.reshape(-1)[k] += step
            args = list(inputs)
            args[index] = Tensor._make(moved).requires_grad_(x.requires_grad)
            values.append(_outputs(func(*args)))
        for j, (plus, minus) in enumerate(zip(*values)):
            columns[j].append(((plus._data.astype(np.float64) - minus._data.astype(np.float64)) / (2 * eps))
                              .reshape(-1))
    return [np.stack(c, axis=1) if c else np.zeros((o._data.size, 0)) for c, o in zip(columns, outputs)]


def _analytical(outputs: tuple, inputs: tuple, index: int) -> list[np.ndarray]:
    """d outputs / d inputs[index] by reverse mode, one row per output element."""
    x = inputs[index]
    found = []
    for out in outputs:
        rows = np.zeros((out._data.size, x._data.size))
        if out.requires_grad:
            for j in range(out._data.size):
                onehot = np.zeros(out._data.size, dtype=out._data.dtype)
                onehot[j] = 1
                (g,) = grad(out, x, Tensor._make(onehot.reshape(out._data.shape)), retain_graph=True,
                            allow_unused=True)
                if g is not None:
                    rows[j] = g._data.reshape(-1)
        found.append(rows)
    return found


def _forward(func: Callable[..., Any], inputs: tuple, index: int, outputs: tuple) -> list[np.ndarray]:
    """d outputs / d inputs[index] by forward mode (a dual tensor per input element, as PyTorch's
    check_forward_ad), one column per input element."""
    from .forward_ad import dual_level, make_dual, unpack_dual

    x = inputs[index]
    found = [np.zeros((o._data.size, x._data.size)) for o in outputs]
    for k in range(x._data.size):
        tangent = np.zeros(x._data.size, dtype=x._data.dtype)
        tangent[k] = 1
        with dual_level():
            args = list(inputs)
            args[index] = make_dual(x.detach(), Tensor._make(tangent.reshape(x._data.shape)))
            for j, out in enumerate(_outputs(func(*args))):
                t = unpack_dual(out).tangent
                if t is not None:
                    found[j][:, k] = t._data.astype(np.float64).reshape(-1)
    return found


def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: Any = None) -> bool:
    """True when autograd's gradients of func at inputs agree with finite differences (else an error, or
    False with raise_exception=False)."""
    tupled = _inputs(inputs)
    if not any(isinstance(t, Tensor) and t.requires_grad for t in tupled):
        raise BadValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                            "have requires_grad=True.", reason="arguments")
    with GradMode(True):
        outputs = _outputs(func(*tupled))
    for i, x in enumerate(tupled):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        numerical = _numerical(func, tupled, i, outputs, eps)
        modes = ([("", _analytical(outputs, tupled, i))] if check_backward_ad else []) + (
            [(" computed with forward mode ad", _forward(func, tupled, i, outputs))] if check_forward_ad else [])
        for how, analytical in modes:
            for j, (n, a) in enumerate(zip(numerical, analytical)):
                if not np.allclose(a, n, rtol=rtol, atol=atol):
                    if not raise_exception:
                        return False
                    raise AutogradError(
                        f"Jacobian{how} mismatch for output {j} with respect to input {i},\nnumerical:{_shown(n)}\n"
                        f"analytical:{_shown(a)}", reason="gradcheck")
    return True


def _shown(matrix: np.ndarray) -> str:
    return repr(Tensor._make(matrix.T.copy() if matrix.ndim == 2 else matrix))


def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False,
                  raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the gradients of func (taken against grad_outputs, random ones by default)."""
    tupled = _inputs(inputs)
    if grad_outputs is None:
        with GradMode(True):
            outputs = _outputs(func(*tupled))
        grad_outputs = []
        for out in outputs:
            g = Tensor._make(np.empty(out._data.shape, dtype=out._data.dtype))
            uniform_(g, -1.0, 1.0)
            grad_outputs.append(g.requires_grad_(True))
    tupled_grads = _inputs(grad_outputs)
    count = len(tupled)
    differentiable = [i for i, x in enumerate(tupled) if isinstance(x, Tensor) and x.requires_grad]

    def gradients(*args: Any) -> tuple:
        outs = _outputs(func(*args[:count]))
        pairs = [(o, g) for o, g in zip(outs, args[count:]) if o.requires_grad]
        if not pairs:
            return ()
        found = grad([o for o, _ in pairs], [args[i] for i in differentiable], [g for _, g in pairs],
                     create_graph=True, allow_unused=True)
        return tuple(g for g in found if g is not None)

    return gradcheck(gradients, (*tupled, *tupled_grads), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
