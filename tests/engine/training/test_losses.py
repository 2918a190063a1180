"""The loss functions of torch.nn.functional (engine/nn/losses.py): values and gradients worked out by hand,
the errors, and PyTorch's values, gradients, node names and next_functions when torch is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import ShapeError

LOSSES = ["mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"]
NODES = {"mse_loss": "MseLossBackward0", "binary_cross_entropy": "BinaryCrossEntropyBackward0",
         "binary_cross_entropy_with_logits": "BinaryCrossEntropyWithLogitsBackward0"}


def _loss(name: str, *args, **kwargs):
    return E.BUILTINS[name].fn(*args, **kwargs)


def _leaf(values, dtype="float64"):
    return E.tensor(values, dtype=dtype, requires_grad=True)


def test_mse_loss_by_hand():
    x, y = _leaf([1.0, 2.0, 3.0]), _leaf([1.0, 1.0, 1.0])
    loss = _loss("mse_loss", x, y)
    loss.backward()
    assert loss.item() == pytest.approx(5 / 3, rel=1e-15)
    assert x.grad.tolist() == pytest.approx([0.0, 2 / 3, 4 / 3], rel=1e-15)  # 2 (x - y) / n
    assert y.grad.tolist() == pytest.approx([0.0, -2 / 3, -4 / 3], rel=1e-15)
    assert loss.grad_fn.name() == "MseLossBackward0"
    assert [n.name() for n, _ in loss.grad_fn.next_functions] == ["AccumulateGrad", "AccumulateGrad"]


def test_mse_loss_reductions_by_hand():
    x, y = _leaf([1.0, 3.0]), E.tensor([0.0, 0.0], dtype="float64")
    assert _loss("mse_loss", x, y, reduction="sum").item() == 10.0
    assert _loss("mse_loss", x, y, reduction="none").tolist() == [1.0, 9.0]
    loss = _loss("mse_loss", x, y, reduction="sum")
    loss.backward()
    assert x.grad.tolist() == [2.0, 6.0]
    assert [n for n, _ in loss.grad_fn.next_functions][1] is None  # the target needs no gradient


def test_cross_entropies_by_hand():
    # at logit 0 (probability 1/2) against target 1: log 2, gradient sigmoid(0) - 1 = -1/2
    x, y = _leaf([0.0]), E.tensor([1.0], dtype="float64")
    loss = _loss("binary_cross_entropy_with_logits", x, y)
    loss.backward()
    assert loss.item() == pytest.approx(math.log(2), rel=1e-15) and x.grad.tolist() == [-0.5]
    p = _leaf([0.5])
    loss = _loss("binary_cross_entropy", p, y)
    loss.backward()
    assert loss.item() == pytest.approx(math.log(2), rel=1e-15)
    assert p.grad.tolist() == [-2.0]  # (p - y) / ((1 - p) p) = -0.5 / 0.25


def test_binary_cross_entropy_floors_its_logarithms_and_gradient_as_pytorch():
    p, y = _leaf([0.0, 1.0]), E.tensor([1.0, 0.0], dtype="float64")
    loss = _loss("binary_cross_entropy", p, y, reduction="none")
    assert loss.tolist() == [100.0, 100.0]  # log(0) floored at -100
    loss.sum().backward()
    floor = float(np.float32(1e-12))  # PyTorch's EPSILON is a C float
    assert p.grad.tolist() == [-1 / floor, 1 / floor]  # (p - y) / max((1 - p) p, EPSILON)


def test_large_logits_do_not_overflow():
    x, y = _leaf([1000.0, -1000.0]), E.tensor([0.0, 1.0], dtype="float64")
    loss = _loss("binary_cross_entropy_with_logits", x, y, reduction="none")
    loss.sum().backward()
    assert loss.tolist() == [1000.0, 1000.0] and x.grad.tolist() == [1.0, -1.0]


def test_l1_loss_records_pytorchs_ops():
    x, y = _leaf([1.0, -2.0]), E.tensor([0.0, 0.0], dtype="float64")
    loss = _loss("l1_loss", x, y)
    loss.backward()
    assert loss.item() == 1.5 and x.grad.tolist() == [0.5, -0.5]
    assert loss.grad_fn.name() == "MeanBackward0"
    (abs_node, _), = loss.grad_fn.next_functions
    assert abs_node.name() == "AbsBackward0" and abs_node.next_functions[0][0].name() == "SubBackward0"
    assert _loss("l1_loss", x, y, reduction="none").grad_fn.name() == "AbsBackward0"


def test_an_empty_mean_is_nan_with_empty_gradients():
    x, y = _leaf([]), _leaf([])
    loss = _loss("mse_loss", x, y)
    loss.backward()
    assert math.isnan(loss.item()) and x.grad.shape == (0,) and y.grad.shape == (0,)


@pytest.mark.parametrize(("call", "kind", "words"), [
    (lambda: _loss("mse_loss", E.ones(3), E.ones(3, 1)), E.ShapeError,
     "mse_loss: the target's shape (3, 1) is not the input's (3,): give them the same shape (PyTorch would "
     "broadcast them with a warning: usually a mistake)"),
    (lambda: _loss("binary_cross_entropy_with_logits", E.ones(2), E.ones(3)), E.ShapeError,
     "binary_cross_entropy_with_logits: the target's shape (3,) is not the input's (2,): give them the same shape"),
    (lambda: _loss("mse_loss", E.ones(2), E.ones(2), reduction="avg"), E.BadValueError,
     "mse_loss: reduction must be 'mean', 'sum' or 'none', not 'avg'"),
    (lambda: _loss("binary_cross_entropy", E.tensor([0.5, 1.5]), E.ones(2)), E.BadValueError,
     "binary_cross_entropy: all elements of input should be between 0 and 1"),
    (lambda: _loss("binary_cross_entropy", E.tensor([math.nan]), E.ones(1)), E.BadValueError,
     "all elements of input should be between 0 and 1"),
    (lambda: _loss("mse_loss", E.ones(2), E.ones(2, dtype="float64")), E.BadValueError,
     "mse_loss: the input is float32 and the target float64: give both the same dtype"),
])
def test_mistakes_are_named(call, kind, words):
    with pytest.raises(kind) as error:
        call()
    assert words in str(error.value)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", LOSSES)
def test_pytorch_agrees(name, reduction, dtype):
    torch = pytest.importorskip("torch")
    functional = torch.nn.functional
    rng = np.random.default_rng(len(name) + len(reduction))
    x = rng.random((3, 4)) if name == "binary_cross_entropy" else rng.standard_normal((3, 4)) * 3
    x[0, :2] = [0.0, 1.0] if name == "binary_cross_entropy" else [0.0, 40.0]  # the floors, and a large logit
    y = rng.random((3, 4))
    ours = [_leaf(x, dtype), _leaf(y, dtype)]
    theirs = [torch.tensor(v, dtype=getattr(torch, dtype), requires_grad=True) for v in (x, y)]
    out = _loss(name, *ours, reduction=reduction)
    expected = getattr(functional, name)(*theirs, reduction=reduction)
    g = rng.standard_normal(expected.shape)
    out.backward(E.tensor(g, dtype=dtype))
    expected.backward(torch.tensor(g, dtype=getattr(torch, dtype)))
    rtol = 1e-12 if dtype == "float64" else 2e-6
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=rtol, atol=rtol)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=rtol, atol=rtol * 1e-3)
    assert out.grad_fn.name() == expected.grad_fn.name()
    names = [[n.name().split("::")[-1] if n is not None else None for n, _ in node.grad_fn.next_functions]
             for node in (out, expected)]
    assert names[0] == names[1]


def test_second_derivatives_agree_with_pytorch():
    torch = pytest.importorskip("torch")
    x = np.array([0.5, -1.0, 2.0])
    y = np.array([1.0, 0.0, 1.0])
    for name in ("mse_loss", "binary_cross_entropy_with_logits", "l1_loss"):
        ours, theirs = _leaf(x), torch.tensor(x, requires_grad=True)
        (g,) = E.grad(_loss(name, ours, E.tensor(y, dtype="float64")), [ours], create_graph=True)
        (h,) = E.grad(g.sum(), [ours])
        (tg,) = torch.autograd.grad(getattr(torch.nn.functional, name)(theirs, torch.tensor(y)), theirs,
                                    create_graph=True)
        (th,) = torch.autograd.grad(tg.sum(), theirs)
        np.testing.assert_allclose(g.detach().numpy(), tg.detach().numpy(), rtol=1e-12)
        np.testing.assert_allclose(h.numpy(), th.numpy(force=True), rtol=1e-12, atol=1e-15)


def test_cross_entropy_of_a_0d_input_is_a_shape_error():
    """Found by the fuzz suite (`cross_entropy(0, 0)` was an internal IndexError); PyTorch refuses it too."""
    for target in (E.tensor(0.0), E.tensor(1.0), 0):
        with pytest.raises(ShapeError, match="no dimensions"):
            E.cross_entropy(E.tensor(1.5, requires_grad=True), target)
