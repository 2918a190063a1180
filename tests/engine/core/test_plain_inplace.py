"""In-place arithmetic on tensors that record nothing (`p.data += -lr * p.grad`) is written straight into the
tensor's memory (inplace.plain_update_): the same bits as computing `t op other` and copying it in, the version
counter moved on as before, and every other case (grad, views, mixed dtypes or shapes, alpha, rounding_mode)
on the recorded path with its errors."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine
from autodiff.engine.errors import AutogradError
from autodiff.engine.kernels import parallel

OPS = [("add_", np.add), ("sub_", np.subtract), ("mul_", np.multiply), ("div_", np.divide)]
SPECIAL = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-40, 3e38, -7.0], dtype=np.float64)


def _arrays(dtype: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n)
    a = np.concatenate([SPECIAL, rng.standard_normal(n)]).astype(dtype)
    b = np.concatenate([SPECIAL[::-1], rng.standard_normal(n)]).astype(dtype)
    return a, b


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name,ufunc", OPS, ids=[name for name, _ in OPS])
@pytest.mark.parametrize("n", [0, 50, parallel.CHEAP_THRESHOLD + 4096], ids=["small", "medium", "split"])
def test_the_bits_are_those_of_the_operation_copied_in(dtype, name, ufunc, n):
    a, b = _arrays(dtype, n)
    t, other = engine.tensor(a.copy()), engine.tensor(b)
    memory = t._data
    version = t._counter().value
    with np.errstate(all="ignore"):
        expected = ufunc(a, b)
        assert getattr(t, name)(other) is t
    assert t._data is memory  # written into its own memory
    assert t._data.dtype == np.dtype(dtype) and t._data.shape == a.shape
    assert t._data.tobytes() == expected.tobytes()
    assert t._counter().value == version + 1
    assert t.grad_fn is None and not t.requires_grad


def test_an_optimizers_update_through_data_leaves_the_parameter_a_leaf():
    p = engine.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (p * p).sum().backward()
    d = p.data
    d += -0.1 * p.grad
    assert p.tolist() == pytest.approx([0.8, 1.6, 2.4])
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    assert d.tolist() == p.tolist()


def test_a_saved_tensor_written_in_place_still_fails_backward():
    a = engine.tensor([1.0, 2.0])
    w = engine.tensor([3.0, 4.0], requires_grad=True)
    z = (a * w).sum()  # MulBackward0 saves a for w's gradient
    a += engine.tensor([1.0, 1.0])
    with pytest.raises(AutogradError, match="modified by an inplace operation"):
        z.backward()


def test_a_view_sees_the_write_and_a_write_through_a_view_reaches_its_base():
    base = engine.tensor([1.0, 2.0, 3.0, 4.0])
    view = base[1:3]
    base += engine.tensor([10.0, 10.0, 10.0, 10.0])
    assert view.tolist() == [12.0, 13.0]
    view *= engine.tensor([2.0, 2.0])  # a view: the recorded path, which writes through to the base
    assert base.tolist() == [11.0, 24.0, 26.0, 14.0]


@pytest.mark.parametrize("case", ["grad", "broadcast", "dtypes", "alpha", "rounding", "float16", "number"])
def test_other_cases_take_the_recorded_path(case):
    t = engine.tensor([1.0, 2.0, 3.0])
    other = engine.tensor([2.0, 4.0, 8.0])
    if case == "grad":
        w = engine.tensor([2.0, 4.0, 8.0], requires_grad=True)
        t.add_(w)
        assert t.grad_fn.name() == "AddBackward0"
        return
    if case == "broadcast":
        assert t.mul_(engine.tensor([2.0])).tolist() == [2.0, 4.0, 6.0]
    elif case == "dtypes":
        assert t.add_(engine.tensor([1.0, 1.0, 1.0], dtype=engine.float64)).dtype == engine.float32
        i = engine.tensor([1, 2, 3])
        with pytest.raises(Exception, match="can't be cast"):
            i.add_(other)
    elif case == "alpha":
        assert t.add_(other, alpha=2).tolist() == [5.0, 10.0, 19.0]
    elif case == "rounding":
        assert t.div_(other, rounding_mode="floor").tolist() == [0.0, 0.0, 0.0]
    elif case == "float16":
        h = engine.tensor([60000.0, 1.0], dtype=engine.float16)
        assert h.add_(engine.tensor([60000.0, 1.0], dtype=engine.float16)).tolist() == [float("inf"), 2.0]
    else:
        assert t.sub_(1).tolist() == [0.0, 1.0, 2.0]


def test_pytorch_agrees():
    torch = pytest.importorskip("torch")
    a, b = _arrays("float32", 200)
    for name, _ in OPS:
        ours, theirs = engine.tensor(a.copy()), torch.tensor(a.copy())
        with np.errstate(all="ignore"):
            getattr(ours, name)(engine.tensor(b))
        getattr(theirs, name)(torch.tensor(b))
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
