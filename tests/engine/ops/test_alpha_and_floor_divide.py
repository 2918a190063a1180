"""add/sub with alpha=, rsub, floor_divide (and //, floor_divide_) and div_(rounding_mode=): exact cases, and the same
calls beside PyTorch 2.13 (values, dtypes, node names, next_functions, and the error's class and words) when torch is
installed. The gradients through alpha are also in the golden cases (cases.py: add_alpha, rsub_tensor, ...)."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import AutogradError, BadValueError, WrongTypeError


def _leaf(values: list[float]) -> E.Tensor:
    return E.tensor(values, dtype=E.float64, requires_grad=True)


# ---------------------------------------------------------------------------- exact cases (no torch)
def test_add_and_sub_scale_other_by_alpha_and_save_it():
    x, y = _leaf([1.0, 2.0]), _leaf([3.0, -4.0])
    z = E.add(x, y, alpha=2) - E.sub(x, y, alpha=0.5) + x.add(y, alpha=-1)
    assert z.tolist() == [1.0 + 6.0 - (1.0 - 1.5) + (1.0 - 3.0), 2.0 - 8.0 - (2.0 + 2.0) + (2.0 + 4.0)]
    z.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    assert y.grad.tolist() == [2.0 + 0.5 - 1.0] * 2
    added = E.add(x, y, alpha=3).grad_fn
    assert (added.name(), added._saved_alpha) == ("AddBackward0", 3)
    assert E.sub(x, y, alpha=3).grad_fn.name() == "SubBackward0"


def test_rsub_is_other_minus_alpha_times_input():
    x, y = _leaf([1.0, 2.0]), _leaf([3.0, -4.0])
    tensors, number = E.rsub(x, y, alpha=3), E.rsub(x, 2, alpha=3)
    assert tensors.tolist() == [0.0, -10.0] and number.tolist() == [-1.0, -4.0]
    assert (tensors.grad_fn.name(), number.grad_fn.name()) == ("RsubBackward0", "RsubBackward1")
    (tensors + number).sum().backward()
    assert x.grad.tolist() == [-6.0, -6.0] and y.grad.tolist() == [1.0, 1.0]
    assert (2 - x).grad_fn._saved_alpha == 1


def test_alpha_is_checked_against_the_result_dtype():
    ints = E.tensor([7, -7])
    assert E.add(ints, ints, alpha=2).tolist() == [21, -21]
    assert E.add(ints, 2.5, alpha=2).tolist() == [12.0, -2.0]  # a float number: a float result, alpha an int
    with pytest.raises(BadValueError, match="For integral input tensors, argument alpha must not be a floating"):
        E.add(ints, ints, alpha=2.5)
    with pytest.raises(BadValueError, match="Boolean alpha only supported for Boolean results"):
        E.sub(ints, ints, alpha=True)
    with pytest.raises(BadValueError, match="without overflow"):
        E.add(ints.to(E.int8), ints.to(E.int8), alpha=1000)
    with pytest.raises(WrongTypeError):
        E.add(ints, ints, alpha="2")
    masks = E.tensor([True, False])
    assert E.add(masks, masks, alpha=2).tolist() == [True, False]


def test_floor_divide_rounds_towards_minus_infinity_as_python():
    a, b = [7, -7, 7, -7, 0], [2, 2, -2, -2, 3]
    assert E.floor_divide(E.tensor(a), E.tensor(b)).tolist() == [x // y for x, y in zip(a, b)]
    assert (E.tensor(a) // 2).tolist() == [x // 2 for x in a]
    assert (7 // E.tensor([2, -2])).tolist() == [3, -4]
    assert E.floor_divide(E.tensor([7.5, -7.5]), 2).tolist() == [3.0, -4.0]
    assert E.tensor([5, -5]).floor_divide(2.5).dtype == E.float32
    with pytest.raises(BadValueError, match="ZeroDivisionError"):
        E.floor_divide(E.tensor([1, 2]), 0)
    with pytest.raises(BadValueError, match="ZeroDivisionError"):
        E.tensor([1, 2], dtype=E.uint8) // 256  # 256 is 0 in uint8
    assert E.floor_divide(E.tensor([1.0, -1.0]), 0).tolist() == [np.inf, -np.inf]


def test_floor_divide_has_no_derivative():
    x, y, c = _leaf([-7.0, 2.0]), _leaf([2.0, 5.0]), E.tensor([2.0, 5.0])
    both, left, right = E.floor_divide(x, y), x // c, 3 // y
    assert both.grad_fn.name() == left.grad_fn.name() == right.grad_fn.name() == "NotImplemented"
    # PyTorch's NotImplemented node points only to the inputs that require grad
    assert [type(n).__name__ for n, _ in both.grad_fn.next_functions] == ["AccumulateGrad"] * 2
    assert len(left.grad_fn.next_functions) == len(right.grad_fn.next_functions) == 1
    assert left.grad_fn.next_functions[0][0].variable is x and right.grad_fn.next_functions[0][0].variable is y
    for result in (both, left, right):
        with pytest.raises(AutogradError, match="derivative for aten::floor_divide is not implemented") as error:
            result.sum().backward()
        assert isinstance(error.value, RuntimeError)


def test_floor_divide_in_place_and_div_in_place_with_a_rounding_mode():
    x = E.tensor([7, -7])
    assert x.floor_divide_(2) is x and x.tolist() == [3, -4]
    assert x.div_(2, rounding_mode="trunc").tolist() == [1, -2]
    assert x.div_(2, rounding_mode="floor").tolist() == [0, -1]
    with pytest.raises(BadValueError, match="result type Float can't be cast to the desired output type Long"):
        x.div_(2)
    with pytest.raises(BadValueError, match="rounding_mode"):
        E.tensor([1.0]).div_(2, rounding_mode="up")
    y = _leaf([7.0, -7.0]) * 1
    y.div_(2.0, rounding_mode="floor")
    assert y.grad_fn.name() == "DivBackward2" and y.tolist() == [3.0, -4.0]
    y.floor_divide_(2.0)
    assert y.grad_fn.name() == "NotImplemented" and y.grad_fn.next_functions[0][0].name() == "DivBackward2"


def test_alpha_in_place():
    x = E.tensor([1.0, 2.0])
    x.add_(E.tensor([1.0, 1.0]), alpha=3).sub_(1, alpha=0.5)
    assert x.tolist() == [3.5, 4.5]
    y = _leaf([1.0, 2.0])
    z = y * 1
    z.add_(y, alpha=2)
    assert z.grad_fn.name() == "AddBackward0" and z.grad_fn._saved_alpha == 2
    z.sum().backward()
    assert y.grad.tolist() == [3.0, 3.0]


# ---------------------------------------------------------------------------- beside PyTorch
CALLS = {
    "add_alpha": lambda m, x, y, i: m.add(x, y, alpha=2),
    "add_alpha_float": lambda m, x, y, i: x.add(y, alpha=-0.25),
    "add_alpha_number": lambda m, x, y, i: m.add(x, 3, alpha=2),
    "add_alpha_tensor": lambda m, x, y, i: m.add(x, y, alpha=m.tensor(2.0)),
    "add_alpha_int": lambda m, x, y, i: m.add(i, i, alpha=3),
    "add_alpha_int_float": lambda m, x, y, i: m.add(i, i, alpha=1.5),
    "add_alpha_int_bool": lambda m, x, y, i: m.add(i, i, alpha=True),
    "add_alpha_int8_overflow": lambda m, x, y, i: m.add(i.to(m.int8), i.to(m.int8), alpha=200),
    "add_alpha_positional": lambda m, x, y, i: m.add(x, y, 2),
    "sub_alpha": lambda m, x, y, i: m.sub(x, y, alpha=3),
    "sub_alpha_number": lambda m, x, y, i: x.sub(1.5, alpha=2),
    "sub_alpha_bools": lambda m, x, y, i: m.sub(i > 0, i > 1, alpha=2),
    "rsub": lambda m, x, y, i: m.rsub(x, y),
    "rsub_alpha": lambda m, x, y, i: m.rsub(x, y, alpha=0.5),
    "rsub_number": lambda m, x, y, i: m.rsub(x, 2, alpha=3),
    "rsub_int": lambda m, x, y, i: m.rsub(i, 10, alpha=2),
    "floor_divide": lambda m, x, y, i: m.floor_divide(x, y),
    "floor_divide_number": lambda m, x, y, i: m.floor_divide(x, 0.75),
    "floor_divide_method": lambda m, x, y, i: x.floor_divide(y.detach()),
    "floor_divide_operator": lambda m, x, y, i: x // y.detach(),
    "floor_divide_reflected": lambda m, x, y, i: 2 // x,
    "floor_divide_ints": lambda m, x, y, i: m.floor_divide(i, -3),
    "floor_divide_int_by_float": lambda m, x, y, i: i // 2.5,
    "floor_divide_uint8_by_int64": lambda m, x, y, i: m.floor_divide(i.abs().to(m.uint8), m.tensor([-2])),
    "floor_divide_half": lambda m, x, y, i: m.floor_divide(x.detach().half(), 2),
    "floor_divide_by_zero": lambda m, x, y, i: m.floor_divide(i, 0),
    "floor_divide_float_by_zero": lambda m, x, y, i: m.floor_divide(x.detach(), 0),
    "floor_divide_inf": lambda m, x, y, i: m.floor_divide(x.detach(), float("inf")),
    "floor_divide_in_place": lambda m, x, y, i: (x * 1).floor_divide_(y),
    "floor_divide_in_place_int_by_float": lambda m, x, y, i: i.clone().floor_divide_(2.5),
    "div_in_place_floor": lambda m, x, y, i: (x * 1).div_(y, rounding_mode="floor"),
    "div_in_place_trunc_int": lambda m, x, y, i: i.clone().div_(4, rounding_mode="trunc"),
    "div_in_place_none_int": lambda m, x, y, i: i.clone().div_(4, rounding_mode=None),
    "div_in_place_bad_mode": lambda m, x, y, i: (x * 1).div_(4, rounding_mode="up"),
}


def _inputs(m):
    x = m.tensor([-7.5, 2.25, 3.0, -0.5], dtype=m.float64, requires_grad=True)
    y = m.tensor([2.0, -5.0, 0.75, 4.0], dtype=m.float64, requires_grad=True)
    return x, y, m.tensor([-7, 8, 9, 1])


def _outcome(m, name):
    try:
        result = CALLS[name](m, *_inputs(m))
    except Exception as error:  # the class and words are compared
        return {"error": next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins"),
                "words": str(error).split(" (hint:")[0]}
    node = result.grad_fn
    return {"values": result.detach().double().numpy().tolist(), "dtype": str(result.dtype),
            "node": None if node is None else node.name().removeprefix("torch::autograd::"),
            "next": None if node is None else [None if n is None else n.name().removeprefix("torch::autograd::")
                                               for n, _ in node.next_functions]}


# The engine's words where they differ from PyTorch's (the class is the same)
WORDS = {"add_alpha_int8_overflow": "value cannot be converted to type torch.int8 without overflow: 200",
         "add_alpha_positional": None}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_as_pytorch(name):
    torch = pytest.importorskip("torch")
    mine, theirs = _outcome(E, name), _outcome(torch, name)
    if "error" in theirs:
        assert mine.get("error") == theirs["error"], (mine, theirs)
        expected = WORDS.get(name, theirs["words"])
        assert expected is None or mine["words"] == expected
        return
    assert mine.keys() == theirs.keys(), (mine, theirs)
    assert (mine["dtype"], mine["node"], mine["next"]) == (theirs["dtype"], theirs["node"], theirs["next"])
    np.testing.assert_allclose(mine["values"], theirs["values"], rtol=1e-6)


@pytest.mark.parametrize("name", ["add_alpha", "add_alpha_float", "sub_alpha", "rsub", "rsub_alpha", "rsub_number",
                                  "div_in_place_floor"])
def test_gradients_as_pytorch(name):
    torch = pytest.importorskip("torch")
    grads = []
    for m in (E, torch):
        x, y, i = _inputs(m)
        CALLS[name](m, x, y, i).sum().backward()
        grads.append([None if t.grad is None else t.grad.numpy().tolist() for t in (x, y)])
    assert grads[0] == grads[1]


@pytest.mark.parametrize("name", ["floor_divide", "floor_divide_operator", "floor_divide_in_place"])
def test_backward_through_floor_divide_fails_as_pytorch(name):
    torch = pytest.importorskip("torch")
    failures = []
    for m in (E, torch):
        with pytest.raises(RuntimeError) as error:
            CALLS[name](m, *_inputs(m)).sum().backward()
        failures.append(str(error.value).split(" (hint:")[0])
    name = "floor_divide_" if name.endswith("in_place") else "floor_divide"  # the in-place op is aten's own
    assert failures[0] == failures[1] == f"derivative for aten::{name} is not implemented"
