"""Forward-over-reverse through in-place writes into dual tensors (recorded as PyTorch's CopySlices) and through a
tangent of another layout than its primal's (make_dual's copy recorded as CopyBackwards): exact values, and
PyTorch's own when torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.transforms import forward_ad as fwAD


def _written(lib, fwad, transposed: bool):
    """y = 2 x (a dual); y[0] = v * x[1] (v a dual too); y[1, 1:].fill_(7); backward through sum(tangent(y) * w)."""
    x0 = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64, requires_grad=True)
    tx = lib.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=lib.float64, requires_grad=True)
    v0 = lib.tensor([5.0, 6.0], dtype=lib.float64, requires_grad=True)
    tv = lib.tensor([1.5, -0.5], dtype=lib.float64, requires_grad=True)
    tangent_x = tx.t() if transposed else tx
    with fwad.dual_level():
        y = fwad.make_dual(x0, tangent_x) * 2
        y[0] = fwad.make_dual(v0, tv) * x0[1]
        y[1, 1:].fill_(7.0)
        tangent = fwad.unpack_dual(y).tangent
    weights = lib.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=lib.float64)
    (tangent * weights).sum().backward()
    name = type(tangent.grad_fn).__name__ if lib is not E else tangent.grad_fn.name()
    return (tangent.detach().numpy() if lib is not E else tangent.numpy(force=True), name,
            [g.grad.numpy(force=True) for g in (x0, tx, v0, tv)])


# y[0]'s tangent tv * x[1]; y[1]'s 2 tx[1] (tx transposed: its column 1), 0 where filled; the gradients of
# sum(tangent * w): x[1] gets tv * w[0], tx 2 w[1, 0] at (1, 0) (transposed: at (0, 1)), v none, tv x[1] * w[0]
EXPECTED = {False: [[4.5, -2.0], [4.0, 0.0]], True: [[4.5, -2.0], [-2.0, 0.0]]}
GRADS = {False: [[[0.0, 0.0], [1.5, -1.0]], [[0.0, 0.0], [6.0, 0.0]], [0.0, 0.0], [3.0, 8.0]],
         True: [[[0.0, 0.0], [1.5, -1.0]], [[0.0, 6.0], [0.0, 0.0]], [0.0, 0.0], [3.0, 8.0]]}


@pytest.mark.parametrize("transposed", [False, True])
def test_write_into_dual_records_the_tangent(transposed):
    tangent, name, grads = _written(E, fwAD, transposed)
    assert tangent.tolist() == EXPECTED[transposed]
    assert name == "CopySlices"
    assert [g.tolist() for g in grads] == GRADS[transposed]


@pytest.mark.parametrize("transposed", [False, True])
def test_write_into_dual_live(transposed):
    torch = pytest.importorskip("torch")
    import torch.autograd.forward_ad as fwad

    theirs = _written(torch, fwad, transposed)
    ours = _written(E, fwAD, transposed)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]
    for a, b in zip(ours[2], theirs[2], strict=True):
        np.testing.assert_array_equal(a, b)
