"""The op cases of issue 44's last differences from PyTorch, registered into cases.py's table by `register(cases)`:
golden/ops.json keeps each fix checked without torch (test_ops_golden.py) and PyTorch checks it live
(test_ops_live.py)."""

from __future__ import annotations

from typing import Any

import numpy as np


def _grad(L: Any) -> Any:
    return L.autograd.grad if hasattr(L, "autograd") and hasattr(L.autograd, "grad") else L.grad


def _grad_outputs_graph(L: Any, x: Any, y: Any, op: Any) -> Any:
    """d op(x, y) / dy with grad_outputs and create_graph, times x: a 0-d y sums its broadcast gradient to its
    shape as PyTorch's sum_to does (SumBackward0, not a sum over dims and a view)."""
    out = op(x, y)
    (gy,) = _grad(L)(out, y, grad_outputs=L.ones_like(out) * 0.5, create_graph=True)
    (hx,) = _grad(L)(gy.sum(), x, create_graph=True)
    return gy * x.sum() + hx


def _written(L: Any, x: Any, write: Any) -> Any:
    y = x * 2
    write(L, y)
    return y.sin()


def _filled_with(L: Any, x: Any, v: Any, view: Any) -> Any:
    y = x * 2
    view(y).fill_(v * 2)
    return (y * x).sin()


def register(C: Any) -> None:
    """Add the cases to C.CASES (C is the cases module: its `case`, `values`)."""
    case, values = C.case, C.values
    a3, s, a23 = values(3, offset=70), values(offset=71), values(2, 3, offset=72)
    # grad(..., grad_outputs=..., create_graph=True) of a 0-d input: SumBackward0 (PyTorch's sum_to)
    case("diff44_grad_outputs_mul_scalar", lambda L, x, y: _grad_outputs_graph(L, x, y, lambda a, b: a * b), a3, s)
    case("diff44_grad_outputs_div_scalar", lambda L, x, y: _grad_outputs_graph(L, x, y, lambda a, b: a / (b * b + 1)),
         a3, s)
    case("diff44_grad_outputs_dot", lambda L, x, y: _grad_outputs_graph(L, x, y, lambda a, b: L.dot(a, a * b)),
         a3, values(3, offset=73))
    # a slice that covers its dim is still recorded when written with a negative start or a step (PyTorch skips
    # only start 0 / None, step 1 / None, stop at the end or past it)
    case("diff44_slice_negative_start_whole_dim", lambda L, x: (x[:, -3:] + x[-2:, ...]).sin(), a23)
    case("diff44_slice_step_on_a_dim_of_one", lambda L, x: x.reshape(2, 1, 3)[:, ::2, -3:].sin(), a23)
    case("diff44_select_and_slices", lambda L, x: x.reshape(1, 2, 1, 3)[0, -1:, ::4, ::3].sin(), a23)
    case("diff44_slices_skipped", lambda L, x: (x[:, 0:10] + x[0:2, :3] + x[:, ::1]).sin(), a23)
    # writes over the whole region that PyTorch's index does not skip: CopySlices, not copy_/fill_
    case("diff44_write_negative_start_whole", lambda L, x: _written(L, x, lambda L, y: y.__setitem__(
        slice(-2, None), 1.5)), a23)
    case("diff44_write_ellipsis_negative_start", lambda L, x: _written(L, x, lambda L, y: y.__setitem__(
        (Ellipsis, slice(-3, None)), 0.5)), a23)
    case("diff44_write_whole_skipped", lambda L, x: _written(L, x, lambda L, y: y.__setitem__(
        (slice(0, 10), slice(None, 3)), 0.5)), a23)
    # fill_ with a 0-d tensor is fill_.Tensor: FillBackward3 (CopySlices on a view), the value gets the gradient
    case("diff44_fill_tensor", lambda L, x, v: _filled_with(L, x, v, lambda y: y), a23, s)
    case("diff44_fill_tensor_view", lambda L, x, v: _filled_with(L, x, v, lambda y: y[:, 1:]), a23, s)
    case("diff44_fill_tensor_transposed", lambda L, x, v: _filled_with(L, x, v, lambda y: y.t()), a23, s)
    # a diagonal is a writable view
    case("diff44_zero_diagonal", lambda L, x: _written(L, x, lambda L, y: y.diagonal().zero_()), a23)
    case("diff44_fill_diagonal_offset", lambda L, x: _written(L, x, lambda L, y: y.diagonal(1).fill_(3.0)), a23)
    # norm(p=0) has an undefined gradient: .grad stays None (only the other term reaches x)
    case("diff44_norm_p0", lambda L, x: x.norm(p=0), a23)
    case("diff44_norm_p0_dim_plus_sum", lambda L, x: x.norm(p=0, dim=1).sum() * x.sum(), a23)
    # float32 running products and sums accumulate in double, as PyTorch's CPU kernels (a cumprod of 1,022 numbers
    # alternating in sign: numpy's float32 accumulation put its gradient 2e-3 off)
    k = np.arange(1022)
    alternating = (np.where(k % 2, 1.03, -0.97) + 0.01 * np.cos(k)).astype(np.float32)
    case("diff44_cumprod_f32_1022", lambda L, x: L.cumprod(x, 0), alternating, dtype=C.F32)
    case("diff44_cumsum_f32_1022", lambda L, x: L.cumsum(x, 0), alternating * 100, dtype=C.F32)
    # a tensor exponent's result is saved whichever input needs grad (a write into an input is refused as in PyTorch)
    case("diff44_pow_tensor_saves_result", _pow_then_write, C.positive(2, 3, offset=74), values(2, 3, offset=75))


def _pow_then_write(L: Any, x: Any, t: Any) -> Any:
    return (x ** t.detach()).sin() + (x.detach() ** t).cos() + L.pow(2.0, t)
