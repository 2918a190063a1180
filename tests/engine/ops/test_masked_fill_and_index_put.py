"""x.masked_fill_(mask, value) and masked_fill with a 0-d tensor value (MaskedFillBackward1); x.index_put_(indices,
values, accumulate=) and torch.index_put (IndexPutBackward0, _saved_accumulate, _saved_indices): exact cases, and
the same calls beside PyTorch 2.13 when torch is installed (values, node names, next_functions, gradients, the
error's class). The golden cases (cases.py: masked_fill_inplace, index_put_accumulate, ...) check them too."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import AutogradError, BadValueError, OutOfRangeError, WrongTypeError


def _names(node) -> list:
    return [None if n is None else n.name().removeprefix("torch::autograd::") for n, _ in node.next_functions]


# ---------------------------------------------------------------------------- exact cases (no torch)
def test_masked_fill_in_place_zeroes_the_filled_positions_gradient():
    x = E.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    mask = E.tensor([True, False, True, False])
    y = x * 1
    assert y.masked_fill_(mask, 5.0) is y
    assert y.tolist() == [5.0, 2.0, 5.0, 4.0]
    assert y.grad_fn.name() == "MaskedFillBackward0" and _names(y.grad_fn) == ["MulBackward0"]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 1.0]
    with pytest.raises(AutogradError, match="leaf Variable"):
        x.masked_fill_(mask, 1.0)


def test_masked_fill_with_a_tensor_value_sends_it_the_filled_gradient():
    x = E.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    value = E.tensor(9.0, requires_grad=True)
    mask = E.tensor([True, False, True, False])
    y = x.masked_fill(mask, value)
    assert y.grad_fn.name() == "MaskedFillBackward1" and _names(y.grad_fn) == ["AccumulateGrad", "AccumulateGrad"]
    (y * E.arange(4.0)).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 3.0] and value.item() == 9.0 and value.grad.item() == 2.0
    assert _names(x.masked_fill(mask, E.tensor(2.0)).grad_fn) == ["AccumulateGrad", None]
    assert E.tensor([1, 2]).masked_fill(E.tensor([True, False]), E.tensor(2.5)).tolist() == [2, 2]
    with pytest.raises(BadValueError, match="0-dimensional value tensor"):
        x.masked_fill(mask, E.tensor([2.0]))


def test_index_put_writes_or_adds_at_index_tensors():
    x = E.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    values = E.tensor([10.0, 20.0, 30.0], requires_grad=True)
    index = (E.tensor([0, 2, 0]),)
    written = (x * 1).index_put_(index, values)
    assert written.tolist() == [30.0, 2.0, 20.0, 4.0]  # the last write of a repeated index wins
    added = E.index_put(x, index, values, accumulate=True)
    assert added.tolist() == [41.0, 2.0, 23.0, 4.0]
    assert added.grad_fn.name() == "IndexPutBackward0" and _names(added.grad_fn) == ["AccumulateGrad"] * 2
    assert added.grad_fn._saved_accumulate is True
    assert [t.tolist() for t in added.grad_fn._saved_indices] == [[0, 2, 0]]
    (written * E.arange(4.0)).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 3.0] and values.grad.tolist() == [0.0, 2.0, 0.0]
    x.grad = values.grad = None
    (added * E.arange(4.0)).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 2.0, 3.0] and values.grad.tolist() == [0.0, 2.0, 0.0]
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0]  # index_put (no underscore) wrote into a copy


def test_index_put_into_a_view_without_grad_reaches_its_base():
    base = E.zeros(2, 3)
    row = base[1]
    row.index_put_((E.tensor([0, 0]),), E.tensor([1.0, 2.0]), accumulate=True)
    assert base.tolist() == [[0.0, 0.0, 0.0], [3.0, 0.0, 0.0]]
    base[0].index_put_((E.tensor([True, False, True]),), E.tensor(5.0))
    assert base.tolist() == [[5.0, 0.0, 5.0], [3.0, 0.0, 0.0]]


def test_index_put_arguments_are_checked_as_pytorch():
    x = E.tensor([1.0, 2.0])
    with pytest.raises(WrongTypeError, match="must be tuple of Tensors"):
        x.index_put(E.tensor([0]), E.tensor(1.0))
    with pytest.raises(WrongTypeError, match="expected Tensor as element 0"):
        x.index_put((0,), E.tensor(1.0))
    with pytest.raises(WrongTypeError, match=r"'values' .* must be Tensor"):
        x.index_put((E.tensor([0]),), 1.0)
    with pytest.raises(OutOfRangeError, match="long, int, byte or bool"):
        x.index_put((E.tensor([0.0]),), E.tensor(1.0))
    with pytest.raises(BadValueError, match="got Float for the destination and Double for the source"):
        x.index_put((E.tensor([0]),), E.tensor(1.0, dtype=E.float64))
    with pytest.raises(IndexError):
        x.index_put((E.tensor([0]), E.tensor([0])), E.tensor(1.0))


# ---------------------------------------------------------------------------- beside PyTorch
def _inputs(m):
    x = m.tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]], dtype=m.float64, requires_grad=True)
    v = m.tensor([7.0, -3.0], dtype=m.float64, requires_grad=True)
    return x, v


CALLS = {
    "masked_fill_": lambda m, x, v: (x * 2).masked_fill_(x.detach() > 1, -1.0),
    "masked_fill_tensor": lambda m, x, v: x.masked_fill(x.detach() < 0, v[0]),
    "masked_fill__tensor": lambda m, x, v: (x * 1).masked_fill_(m.tensor([True, False, True]), v.sum()),
    "masked_fill__int": lambda m, x, v: m.tensor([[1, 2], [3, 4]]).masked_fill_(m.tensor([[True], [False]]), 9),
    "index_put_": lambda m, x, v: (x * 1).index_put_((m.tensor([1, 0]), m.tensor([2, 2])), v),
    "index_put__accumulate": lambda m, x, v: (x * 1).index_put_((m.tensor([1, 1]), m.tensor([0, 0])), v,
                                                                  accumulate=True),
    "index_put_rows": lambda m, x, v: m.index_put(x, (m.tensor([1]),), v[0] * m.ones(3, dtype=m.float64)),
    "index_put_rows_accumulate": lambda m, x, v: x.index_put((m.tensor([0, 0]),), v.reshape(2, 1), True),
    "index_put_mask": lambda m, x, v: x.index_put((x.detach() > 0,), v[1]),
    "index_put_no_grad_values": lambda m, x, v: x.index_put((m.tensor([0]),), m.tensor(4.0, dtype=m.float64)),
}


def _outcome(m, name):
    x, v = _inputs(m)
    try:
        y = CALLS[name](m, x, v)
    except Exception as error:  # the class is compared
        return {"error": next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")}
    record = {"values": y.detach().double().numpy().tolist(), "dtype": str(y.dtype)}
    if y.grad_fn is not None:
        record.update(node=y.grad_fn.name(), next=_names(y.grad_fn))
        (y * m.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
        record["grads"] = [None if t.grad is None else t.grad.numpy().tolist() for t in (x, v)]
    return record


@pytest.mark.parametrize("name", sorted(CALLS))
def test_as_pytorch(name):
    torch = pytest.importorskip("torch")
    mine, theirs = _outcome(E, name), _outcome(torch, name)
    assert mine.keys() == theirs.keys(), (mine, theirs)
    for key in mine:
        if key == "values":
            np.testing.assert_allclose(mine[key], theirs[key])
        elif key == "grads":
            assert [g is None for g in mine[key]] == [g is None for g in theirs[key]]
            for a, b in zip(mine[key], theirs[key]):
                np.testing.assert_allclose(a if a is not None else 0, b if b is not None else 0)
        else:
            assert mine[key] == theirs[key], key
