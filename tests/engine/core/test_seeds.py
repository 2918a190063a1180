"""The examples of the four seed tutorials the project was created from (replayed as scripts in
examples/seeds/), written against the engine.

Inputs are the numbers the tutorials print (rounded to 4 decimals); where a tutorial's own output came
from its unrounded random input, the expected values here are PyTorch's for the rounded input (the
printed strings were produced by torch 2.13 running the same lines). Tensors are float32, as there.
The tutorials' `x.grad.data.zero_()` works here as in PyTorch: the engine's `.data` is PyTorch's (a tensor on the
same memory).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from autodiff import engine as E

f32 = np.float32


@pytest.fixture(autouse=True)
def float32_default():
    previous = E.get_default_dtype()
    E.set_default_dtype("float32")
    yield
    E.set_default_dtype(previous)


def values(t) -> np.ndarray:
    return np.asarray(t.numpy(force=True))


# ---------------------------------------------------------------------------- 000: gradients accumulate
def test_accumulation_y_then_z():
    x = E.ones(1, requires_grad=True)
    assert repr(x) == "tensor([1.], requires_grad=True)"
    y = x ** 2
    z = x ** 3
    y.backward()
    assert repr(x.grad) == "tensor([2.])"
    z.backward()
    assert repr(x.grad) == "tensor([5.])"  # 2 + 3


def test_accumulation_z_then_y():
    x = E.ones(1, requires_grad=True)
    y = x ** 2
    z = x ** 3
    z.backward()
    assert values(x.grad).tolist() == [3.0]
    y.backward()
    assert values(x.grad).tolist() == [5.0]


def test_zero_grad_between_passes():
    x = E.ones(1, requires_grad=True)
    y = x ** 2
    z = x ** 3
    y.backward()
    assert values(x.grad).tolist() == [2.0]
    grad = x.grad
    assert repr(x.grad.zero_()) == "tensor([0.])"
    assert x.grad is grad
    z.backward()
    assert values(x.grad).tolist() == [3.0]
    assert x.grad is grad  # accumulated into the same tensor


def test_vector_version_with_index_writes():
    x = E.tensor([[0.3725], [0.4378]], requires_grad=True)
    y = E.zeros(3, 1)
    y[0] = x[0] ** 2
    y[1] = x[1] ** 3
    y[2] = x[1] ** 4
    assert y.grad_fn.name() == "CopySlices"
    assert repr(y) == "tensor([[0.1388],\n        [0.0839],\n        [0.0367]], grad_fn=<CopySlices>)"
    y.backward(gradient=E.ones(y.size()))
    assert repr(x.grad) == "tensor([[0.7450],\n        [0.9107]])"
    x0, x1 = f32(0.3725), f32(0.4378)
    np.testing.assert_allclose(values(x.grad), [[2 * x0], [3 * x1 ** 2 + 4 * x1 ** 3]], rtol=1e-6)
    # the tutorial's manual check, computed with the engine itself
    by_hand = (2 * x[0], 3 * x[1] ** 2, 4 * x[1] ** 3)
    assert [repr(t) for t in by_hand] == ["tensor([0.7450], grad_fn=<MulBackward0>)",
                                          "tensor([0.5750], grad_fn=<MulBackward0>)",
                                          "tensor([0.3357], grad_fn=<MulBackward0>)"]
    assert values(x.grad)[1, 0] == pytest.approx(values(by_hand[1] + by_hand[2])[0], rel=1e-6)


# ---------------------------------------------------------------------------- 001: Linlin's backward()
def test_linlin_chain_rule():
    x = E.tensor([[-0.6955]], requires_grad=True)
    assert x.grad_fn is None and x.is_leaf
    y = 2 * x
    z = y ** 3
    assert repr(y) == "tensor([[-1.3910]], grad_fn=<MulBackward0>)"
    assert repr(z) == "tensor([[-2.6914]], grad_fn=<PowBackward0>)"
    z.backward()
    assert z.grad is None and y.grad is None
    assert repr(x.grad) == "tensor([[11.6093]])"
    assert x.grad.requires_grad is False
    assert values(x.grad)[0, 0] == pytest.approx(24 * f32(-0.6955) ** 2, rel=1e-6)  # dz = 24 x**2 dx


@pytest.mark.parametrize(("gradient", "expected"), [
    (None, "tensor([[12.4658]])"),
    ([[1.0]], "tensor([[12.4658]])"),
    ([[0.1]], "tensor([[1.2466]])"),
    ([[0.5]], "tensor([[6.2329]])"),
])
def test_linlin_gradient_scales_the_result(gradient, expected):
    x = E.tensor([[-0.7207]], requires_grad=True)
    z = (2 * x) ** 3
    z.backward(retain_graph=True)  # the tutorial's first pass, then zero and the pass under test
    x.grad.zero_()
    z.backward(None if gradient is None else E.Tensor(gradient), retain_graph=True)
    assert repr(x.grad) == expected
    scale = 1.0 if gradient is None else gradient[0][0]
    assert values(x.grad)[0, 0] == pytest.approx(scale * 24 * f32(-0.7207) ** 2, rel=1e-6)


def test_linlin_matrix_gradients_select_elements():
    x = E.tensor([[-2.5212, 1.2730], [0.0366, -0.0750]], requires_grad=True)
    z = (2 * x) ** 3
    assert z.size() == (2, 2) and repr(z.size()) == "torch.Size([2, 2])"
    full = 24 * np.array([[-2.5212, 1.2730], [0.0366, -0.0750]], f32) ** 2

    z.backward(E.tensor([[1, 1], [1, 1]]), retain_graph=True)
    assert repr(x.grad) == "tensor([[1.5255e+02, 3.8893e+01],\n        [3.2149e-02, 1.3500e-01]])"
    np.testing.assert_allclose(values(x.grad), full, rtol=1e-6)

    x.grad.zero_()
    z.backward(E.tensor([[0, 1], [0, 1]]), retain_graph=True)
    assert repr(x.grad) == "tensor([[ 0.0000, 38.8927],\n        [ 0.0000,  0.1350]])"
    np.testing.assert_allclose(values(x.grad), full * [[0, 1], [0, 1]], rtol=1e-6)
    assert values(x.grad)[:, 0].tolist() == [0.0, 0.0]

    x.grad.zero_()
    z.backward(E.tensor([[1, 1], [0, 0]]), retain_graph=True)
    assert repr(x.grad) == "tensor([[152.5548,  38.8927],\n        [  0.0000,   0.0000]])"
    assert values(x.grad)[1].tolist() == [0.0, 0.0]


def test_linlin_mean_and_retain_graph_accumulate():
    data = [[1.8528, 0.2083], [-1.5296, 0.3136]]
    x = E.tensor(data, requires_grad=True)
    out = ((2 * x) ** 3).mean()
    assert out.grad_fn.name() == "MeanBackward0"
    assert repr(out) == "tensor(5.6431, grad_fn=<MeanBackward0>)"
    out.backward(retain_graph=True)
    assert repr(x.grad) == "tensor([[20.5972,  0.2603],\n        [14.0381,  0.5901]])"
    np.testing.assert_allclose(values(x.grad), 6 * np.array(data, f32) ** 2, rtol=1e-6)  # 24 x**2 / 4
    out.backward(retain_graph=True)
    assert repr(x.grad) == "tensor([[41.1944,  0.5207],\n        [28.0761,  1.1801]])"
    np.testing.assert_allclose(values(x.grad), 12 * np.array(data, f32) ** 2, rtol=1e-6)


def test_linlin_gradient_for_a_scalar_output_is_an_error():
    x = E.tensor([[1.8528, 0.2083], [-1.5296, 0.3136]], requires_grad=True)
    out = ((2 * x) ** 3).mean()
    out.backward(retain_graph=True)
    x.grad.zero_()
    with pytest.raises(E.AutogradError) as caught:
        out.backward(E.tensor([[1, 1], [1, 1]]), retain_graph=True)
    error = caught.value
    assert error.kind == "autograd" and error.reason == "grad_shape"
    assert "shape" in error.message and "(2, 2)" in error.message and "()" in error.message
    assert values(x.grad).tolist() == [[0.0, 0.0], [0.0, 0.0]]  # nothing was accumulated


def test_linlin_second_backward_without_retain_graph():
    data = [[-0.7452, 1.5727], [0.1702, 0.7374]]
    x = E.tensor(data, requires_grad=True)
    out = ((2 * x) ** 3).mean()
    assert repr(out) == "tensor(7.7639, grad_fn=<MeanBackward0>)"
    out.backward()
    assert repr(x.grad) == "tensor([[ 3.3319, 14.8403],\n        [ 0.1738,  3.2626]])"
    x.grad.zero_()
    with pytest.raises(E.AutogradError) as caught:
        out.backward()
    assert caught.value.kind == "autograd" and caught.value.reason == "second_backward"
    assert "second time" in caught.value.message
    assert "retain_graph=True" in caught.value.hint
    assert values(x.grad).tolist() == [[0.0, 0.0], [0.0, 0.0]]


# ---------------------------------------------------------------------------- 002: "PyTorch Autograd"
def test_autograd_article_tensor_basics():
    x = E.tensor(1.0, requires_grad=True)
    y = E.tensor(2.0)
    z = x * y
    assert (x.is_leaf, y.is_leaf, z.is_leaf) == (True, True, False)
    assert (x.requires_grad, y.requires_grad, z.requires_grad) == (True, False, True)
    assert x.grad is None and y.grad is None
    z.backward()
    assert values(x.grad).item() == 2.0 and y.grad is None
    with E.no_grad():
        w = x * y
    assert w.requires_grad is False and w.grad_fn is None
    d = z.detach()
    assert d.is_leaf and not d.requires_grad


def test_autograd_article_vector_gradient():
    x = E.tensor([0.0, 2.0, 8.0], requires_grad=True)
    y = E.tensor([5.0, 1.0, 7.0], requires_grad=True)
    z = x * y
    assert repr(z) == "tensor([ 0.,  2., 56.], grad_fn=<MulBackward0>)"
    z.backward(E.tensor([1.0, 1.0, 1.0]))
    assert values(x.grad).tolist() == [5.0, 1.0, 7.0]
    assert values(y.grad).tolist() == [0.0, 2.0, 8.0]


def test_autograd_article_implicit_gradient_needs_a_scalar():
    x = E.tensor([0.0, 2.0, 8.0], requires_grad=True)
    z = x * E.tensor([5.0, 1.0, 7.0], requires_grad=True)
    with pytest.raises(E.AutogradError) as caught:
        z.backward()
    assert caught.value.kind == "autograd" and caught.value.reason == "implicit_nonscalar"
    assert caught.value.message.startswith("grad can be implicitly created only for scalar outputs")
    assert x.grad is None


# ---------------------------------------------------------------------------- 003: the graph, node by node
def test_graph_article_next_functions_and_variable():
    a = E.tensor(2.0, requires_grad=True)
    b = E.tensor(3.0, requires_grad=True)
    c = a + b
    d = E.tensor(4.0, requires_grad=True)
    e = c * d
    assert repr(e) == "tensor(20., grad_fn=<MulBackward0>)"
    assert e.grad_fn.name() == "MulBackward0"
    nexts = e.grad_fn.next_functions
    assert [(node.name(), nr) for node, nr in nexts] == [("AddBackward0", 0), ("AccumulateGrad", 0)]
    assert nexts[0][0] is c.grad_fn
    assert nexts[1][0].variable is d
    assert repr(nexts[1][0].variable) == "tensor(4., requires_grad=True)"
    with pytest.raises(AttributeError):
        _ = nexts[0][0].variable  # 'AddBackward0' object has no attribute 'variable'
    ag = nexts[0][0]
    assert [(node.name(), node.variable) for node, _ in ag.next_functions] == [("AccumulateGrad", a),
                                                                                ("AccumulateGrad", b)]
    assert ag.next_functions[0][0].next_functions == ()
    e.backward()
    assert (values(a.grad).item(), values(b.grad).item(), values(d.grad).item()) == (4.0, 4.0, 5.0)


def test_graph_article_sin_derivative_is_cos():
    a = E.tensor(0.6, requires_grad=True)
    s = E.sin(a)
    assert s.grad_fn.name() == "SinBackward0"
    s.backward()
    assert values(a.grad).item() == float(np.cos(f32(0.6)))
    assert math.isclose(values(a.grad).item(), math.cos(0.6), rel_tol=1e-7)
    assert repr(a.grad) == "tensor(0.8253)"
