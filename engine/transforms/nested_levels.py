"""Forward-mode transforms nested in another one (torch.func's jacfwd(jacfwd(f)), jvp inside jvp, hessian of a
function that calls jacfwd). PyTorch gives each transform its own level; the engine has one forward-mode level
at a time, so a jvp or jacfwd called while a level is open is computed in reverse mode, which composes with the
open level (forward-over-reverse): the values are the same derivatives (within rounding: other sums in another
order), and the open level's tangents flow through the reverse-mode passes to the enclosing transform.

jvp: J t is the gradient in u of <vjp(u), t>, vjp(u) the gradient of <output, u> for a placeholder u (zeros
that require grad); linear in u, so one double backward gives it. jacfwd: jacrev's Jacobian (the same matrix).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.autograd import grad as autograd_grad
from ..core.tensor import Tensor
from ..errors import BadValueError, ShapeError
from ..ops.constructors import zeros
from ..ops.reductions import sum as total_sum
from .pytree import unflatten


def jvp_in_level(func: Callable[..., Any], primals: list, tangents: list, spec: Any, has_aux: bool,
                 helpers: tuple) -> tuple:
    """torch.func.jvp's (output, J tangents) by reverse mode; `helpers` are torch_func.py's _tracked, _call, _plain."""
    tracked_of, call, plain = helpers
    for value in (*primals, *tangents):
        if not isinstance(value, Tensor):
            raise BadValueError(f"jvp: each primal and tangent must be a Tensor, got {type(value).__name__}",
                                reason="arguments")
    for p, t in zip(primals, tangents):
        if tuple(p.shape) != tuple(t.shape):
            raise ShapeError("Trying to set a forward gradient that has a different size than that of the original "
                             f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                             f"forward gradient is of size {list(t.shape)}.", reason="forward_ad")
    tracked = [tracked_of(p) for p in primals]
    output, aux = call(func, list(unflatten(tracked, spec)), has_aux)
    if not isinstance(output, Tensor):
        raise BadValueError(f"func's output must be a Tensor, got {type(output).__name__}", reason="arguments")
    result = _product(output, tracked, tangents)
    value, result = plain(output, primals), plain(result, [*primals, *tangents])
    return (value, result, aux) if has_aux else (value, result)


def _product(output: Tensor, tracked: list[Tensor], tangents: list[Tensor]) -> Tensor:
    """J t: the gradient in u of sum_k <vjp_k(u), t_k> (zeros when output does not depend on the inputs)."""
    none = zeros(*output.shape, dtype=output.dtype.name)
    if not output.requires_grad:
        return none
    holder = Tensor._make(np.zeros(output.shape, dtype=output.dtype)).requires_grad_(True)
    vjps = autograd_grad(output, tracked, holder, retain_graph=True, create_graph=True, allow_unused=True)
    terms = [total_sum(g * t) for g, t in zip(vjps, tangents) if g is not None and g.requires_grad]
    if not terms:
        return none
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    (found,) = autograd_grad(total, [holder], create_graph=True, allow_unused=True)
    return none if found is None else found

