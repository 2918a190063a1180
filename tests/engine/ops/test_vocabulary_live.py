"""Issue 31's cases against PyTorch itself, beyond what test_ops_live.py checks for every case: second
derivatives (create_graph) and gradcheck (autograd's gradient against central finite differences, in float64),
and the errors PyTorch raises for the same calls. Skipped when torch is not installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autodiff import engine as E

from ..caseload import load_cases

torch = pytest.importorskip("torch")


cases = load_cases()
VOCABULARY = [c for c in cases.CASES if c.id.startswith(cases.VOCABULARY_PREFIXES)]
FLOAT64 = [c for c in VOCABULARY if set(c.dtypes) == {"float64"}]
# Cases whose second derivative PyTorch does not implement ("derivative for aten::hardsigmoid_backward is not
# implemented"): the engine's is 0, as the formula is piecewise constant.
NO_SECOND = {"v31_act_hardsigmoid"}


def _leaves(lib, c):
    return cases.make_inputs(lib, c)


def _weights(shape, seed):
    n = math.prod(shape)
    return ((np.arange(n) * 7 + seed) % 11 - 5).reshape(shape) / 4.0


def _second(lib, c):
    """The gradient of sum(out * v), and the gradient of sum(first * w) through it (create_graph)."""
    grad = torch.autograd.grad if lib is torch else E.grad
    xs = _leaves(lib, c)
    out = c.fn(lib, *xs)
    wanted = [x for x, flag in zip(xs, c.requires_grad) if flag]
    v = lib.tensor(_weights(tuple(out.shape), 1), dtype=out.dtype)
    firsts = grad((out * v).sum(), wanted, create_graph=True, allow_unused=True)
    total = None
    for i, first in enumerate(firsts):
        if first is None or not first.requires_grad:
            continue
        term = (first * lib.tensor(_weights(tuple(first.shape), 3 + i), dtype=first.dtype)).sum()
        total = term if total is None else total + term
    def arrays(values):  # torch's zero gradients may be ZeroTensors, which numpy() refuses without force
        return [None if v is None else np.array(v.detach().numpy(**({"force": True} if lib is torch else {})))
                for v in values]

    if total is None:
        return arrays(firsts), None
    return arrays(firsts), arrays(grad(total, wanted, allow_unused=True))


def _zero_if_none(values, like):
    return [np.zeros_like(x) if v is None else v for v, x in zip(values, like)]


@pytest.mark.parametrize("c", [c for c in FLOAT64 if c.id not in NO_SECOND], ids=lambda c: c.id)
def test_second_derivatives_as_in_torch(c):
    (tf, ts), (ef, es) = _second(torch, c), _second(E, c)
    like = [x for x, flag in zip(c.inputs, c.requires_grad) if flag]
    for t, e in zip(_zero_if_none(tf, like), _zero_if_none(ef, like)):
        np.testing.assert_allclose(e, t, rtol=1e-9, atol=1e-10, err_msg="first derivative")
    if ts is None:
        return
    es = es if es is not None else [None] * len(like)
    for t, e in zip(_zero_if_none(ts, like), _zero_if_none(es, like)):
        np.testing.assert_allclose(e, t, rtol=1e-8, atol=1e-9, err_msg="second derivative")


# Cases at a kink or a tie (not differentiable there), whose function takes a gradient itself, or whose input
# gets no gradient at all (slogdet's sign alone: PyTorch's undefined gradient, .grad stays None).
NO_GRADCHECK = ("ties", "second_order", "nan", "trunc", "floor", "round", "kink", "sign_only")


@pytest.mark.parametrize("c", [c for c in FLOAT64 if not any(k in c.id for k in NO_GRADCHECK)], ids=lambda c: c.id)
def test_gradcheck(c):
    """The engine's gradient of sum(out * v) against central differences of its own forward."""
    xs = _leaves(E, c)
    out = c.fn(E, *xs)
    v = _weights(tuple(out.shape), 1)
    (out * E.tensor(v, dtype="float64")).sum().backward()
    eps = 1e-6
    for k, (x, flag) in enumerate(zip(c.inputs, c.requires_grad)):
        if not flag:
            continue
        numeric = np.zeros(x.size)
        for i in range(x.size):
            values = []
            for step in (eps, -eps):
                moved = [np.array(a, copy=True, order="C") for a in c.inputs]
                moved[k].reshape(-1)[i] += step
                inputs = [E.tensor(a, dtype="float64") for a in moved]
                with E.no_grad():
                    values.append(float((c.fn(E, *inputs).numpy(force=True) * v).sum()))
            numeric[i] = (values[0] - values[1]) / (2 * eps)
        np.testing.assert_allclose(xs[k].grad.numpy(force=True).reshape(-1), numeric, rtol=1e-5, atol=1e-6,
                                   err_msg=f"input {k}")


def _nnf(lib):
    """torch.nn.functional, or the engine (which has its functions as module functions)."""
    return torch.nn.functional if lib is torch else E


def _la(lib):
    """torch.linalg, or the engine's functions of those names (as the language's torch.linalg has them)."""
    if lib is torch:
        return torch.linalg
    from types import SimpleNamespace

    return SimpleNamespace(solve=E.solve, slogdet=E.linalg_slogdet, eigh=E.eigh, svd=E.linalg_svd, pinv=E.linalg_pinv)


def _error(lib, fn):
    try:
        fn(lib)
    except (E.AutodiffError, RuntimeError, IndexError, ValueError, TypeError, NotImplementedError) as error:
        return type(error).__name__, str(error)
    return None


ERRORS = {
    "cumsum_0d_dim_1": lambda L: L.cumsum(L.tensor(2.0), 1),
    "cumsum_0d_dim_minus_2": lambda L: L.cumsum(L.tensor(2.0), -2),
    "cumsum_1d_dim_1": lambda L: L.cumsum(L.tensor([1.0, 2.0]), 1),
    "cumprod_1d_dim_minus_2": lambda L: L.cumprod(L.tensor([1.0, 2.0]), -2),
    "sort_dim_out_of_range": lambda L: L.sort(L.tensor([1.0, 2.0]), 1),
    "topk_k_too_large": lambda L: L.topk(L.tensor([1.0, 2.0]), 3),
    "topk_k_negative": lambda L: L.topk(L.tensor([1.0, 2.0]), -1),
    "einsum_fewer_operands": lambda L: L.einsum("ij,jk", L.ones(2, 3)),
    "einsum_more_operands": lambda L: L.einsum("ij", L.ones(2, 3), L.ones(3, 2)),
    "einsum_subscripts_vs_dims": lambda L: L.einsum("ijk", L.ones(2, 3)),
    "einsum_lone_dot": lambda L: L.einsum("i.j", L.ones(2, 3)),
    "einsum_output_twice": lambda L: L.einsum("ij->ii", L.ones(2, 3)),
    "einsum_output_unknown": lambda L: L.einsum("ij->k", L.ones(2, 3)),
    "einsum_bad_subscript": lambda L: L.einsum("i1", L.ones(2, 3)),
    "einsum_sizes_differ": lambda L: L.einsum("ij,jk->ik", L.ones(2, 3), L.ones(2, 3)),
    "einsum_repeated_sizes_differ": lambda L: L.einsum("ii", L.ones(2, 3)),
    "einsum_ellipsis_broadcast": lambda L: L.einsum("...,...->...", L.ones(2, 3), L.ones(3, 2)),
    "tensordot_negative_dims": lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4), -1),
    "tensordot_too_many_dims": lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4), 3),
    "tensordot_lists_differ": lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4), ([0], [0, 1])),
    "tensordot_sizes_differ": lambda L: L.tensordot(L.ones(2, 3), L.ones(3, 4), ([0], [0])),
    "bmm_not_3d": lambda L: L.bmm(L.ones(2, 3), L.ones(3, 4)),
    "bmm_batch_differs": lambda L: L.bmm(L.ones(1, 2, 3), L.ones(2, 3, 4)),
    "pad_odd_length": lambda L: _nnf(L).pad(L.ones(2, 3), (1,)),
    "pad_too_long": lambda L: _nnf(L).pad(L.ones(2, 3), (1, 1, 1, 1, 1, 1)),
    "pad_reflect_value": lambda L: _nnf(L).pad(L.ones(2, 3), (1, 1), mode="reflect", value=1.0),
    "pad_reflect_too_wide": lambda L: _nnf(L).pad(L.ones(2, 3, 4), (4, 1), mode="reflect"),
    "pad_replicate_dims": lambda L: _nnf(L).pad(L.ones(2, 3), (1, 1, 1, 1), mode="replicate"),
    "pad_float_element": lambda L: _nnf(L).pad(L.ones(2, 3), (1.5, 1)),
    "conv2d_channels": lambda L: _nnf(L).conv2d(L.ones(1, 3, 4, 4), L.ones(2, 2, 3, 3)),
    "conv2d_bias_size": lambda L: _nnf(L).conv2d(L.ones(1, 2, 4, 4), L.ones(2, 2, 3, 3), L.ones(3)),
    "conv2d_kernel_too_big": lambda L: _nnf(L).conv2d(L.ones(1, 2, 2, 2), L.ones(2, 2, 3, 3)),
    "conv2d_padding_string": lambda L: _nnf(L).conv2d(L.ones(1, 2, 4, 4), L.ones(2, 2, 3, 3), padding="full"),
    "conv2d_groups_zero": lambda L: _nnf(L).conv2d(L.ones(2, 4, 4), L.ones(3, 2, 2, 2), groups=0),
    "conv2d_input_dims": lambda L: _nnf(L).conv2d(L.ones(4, 4), L.ones(1, 1, 2, 2)),
    "conv2d_groups_weight": lambda L: _nnf(L).conv2d(L.ones(1, 4, 4, 4), L.ones(3, 2, 2, 2), groups=2),
    "conv2d_same_strided": lambda L: _nnf(L).conv2d(L.ones(1, 2, 4, 4), L.ones(2, 2, 2, 2), stride=2, padding="same"),
    "max_pool2d_padding": lambda L: _nnf(L).max_pool2d(L.ones(1, 1, 4, 4), 2, padding=2),
    "max_pool2d_too_small": lambda L: _nnf(L).max_pool2d(L.ones(1, 1, 1, 1), 2),
    "avg_pool2d_divisor_zero": lambda L: _nnf(L).avg_pool2d(L.ones(1, 1, 4, 4), 2, divisor_override=0),
    "det_not_square": lambda L: L.det(L.ones(2, 3)),
    "inverse_vector": lambda L: L.inverse(L.ones(3)),
    "inverse_batch_not_square": lambda L: L.inverse(L.ones(2, 2, 3)),
    "solve_singular": lambda L: _la(L).solve(L.ones(2, 2), L.ones(2)),
    "solve_shapes": lambda L: _la(L).solve(L.eye(3), L.ones(2, 3)),
    "solve_not_square": lambda L: _la(L).solve(L.ones(2, 3), L.ones(2)),
    "slogdet_vector": lambda L: _la(L).slogdet(L.ones(3)),
    "eigh_not_square": lambda L: _la(L).eigh(L.ones(2, 3)),
    "solve_dtypes_differ": lambda L: _la(L).solve(L.eye(2, dtype=L.float64), L.ones(2)),
    "svd_vector": lambda L: _la(L).svd(L.ones(3)),
    "pinv_vector": lambda L: _la(L).pinv(L.ones(3)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_where_torch_raises(name):
    torch_error, engine_error = _error(torch, ERRORS[name]), _error(E, ERRORS[name])
    assert torch_error is not None and engine_error is not None, (torch_error, engine_error)
    assert engine_error[0] in ("BadValueError", "ShapeError")
    first_line = torch_error[1].splitlines()[0]
    assert engine_error[1] == first_line or first_line.split(" (")[0] in engine_error[1]


def test_matmul_relu_matmul_float32_differs_from_torch_by_rounding_only():
    """`(x @ y).relu() @ z` in float32 can differ from PyTorch by 0.3% in an element: where the sum cancels
    (|result| much smaller than the sum of |terms|). Both libraries are then within float32 rounding of the
    float64 result, measured against the terms' size: numpy's BLAS (OpenBLAS) accumulates each product in
    order with fused multiply-adds, PyTorch's (MKL) blocks the sum differently for some shapes, so no order
    can be matched in general. A real difference (a wrong relu mask, a lost term) would be many eps off."""
    rng = np.random.default_rng(1)
    eps = float(np.finfo(np.float32).eps)
    for _ in range(100):
        n, k, m, p = (int(v) for v in rng.integers(1, 40, 4))
        x, y, z = (rng.standard_normal(s).astype(np.float32) for s in ((n, k), (k, m), (m, p)))
        exact_hidden = np.clip(x.astype(np.float64) @ y, 0, None)
        exact = exact_hidden @ z
        size = np.abs(exact_hidden) @ np.abs(z) + (np.abs(x.astype(np.float64)) @ np.abs(y)) @ np.abs(z)
        for lib in (torch, E):
            got = ((lib.tensor(x) @ lib.tensor(y)).relu() @ lib.tensor(z)).numpy()
            assert np.max(np.abs(got - exact) / size) < 4 * eps
