"""A number past a floating dtype's range, as PyTorch reads it (coerce.checked_number): clamp's bounds, fill_, full,
full_like, new_full, masked_fill, add's alpha, scatter's value and hardtanh's bounds refuse a finite number that
float16 (+-65504) or float32 cannot hold ("value cannot be converted to type ... without overflow"); pow's exponent
is checked for float16 only, where and x[i] = n for float32 only; arithmetic gives inf, without numpy's "overflow
encountered in cast" warning. Exact cases, and each call beside PyTorch 2.13 when torch is installed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scripting import run_script

from autodiff import engine as E
from autodiff.engine.errors import BadValueError


def _half():
    return E.tensor([1.0, 2.0], dtype=E.float16)


# ---------------------------------------------------------------------------- exact cases (no torch)
@pytest.mark.parametrize("call", [
    lambda h: h.clamp(min=70000), lambda h: E.clamp(h, 0, 1e5), lambda h: h.clone().fill_(65519.0),
    lambda h: E.full((2,), -70000, dtype=E.float16), lambda h: E.full_like(h, 1e5), lambda h: h.new_full((2,), 1e5),
    lambda h: h.masked_fill(E.tensor([True, False]), 70000), lambda h: h ** 70000, lambda h: E.add(h, h, alpha=1e5),
    lambda h: E.zeros(2).fill_(1e39), lambda h: E.zeros(2).clamp(max=-1e40),
])
def test_a_number_past_the_dtype_is_refused(call):
    with pytest.raises(BadValueError, match="without overflow"):
        call(_half())


def test_the_edges_infinities_and_the_unchecked_places():
    h = _half()
    assert h.clamp(max=65504).tolist() == [1.0, 2.0] and h.clamp(max=float("inf")).tolist() == [1.0, 2.0]
    assert h.clone().fill_(float("-inf")).tolist() == [-np.inf, -np.inf]
    assert E.zeros(2).fill_(3.0e38).dtype == E.float32
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning: PyTorch's inf, quietly
        assert (h + 70000).tolist() == [np.inf, np.inf] and (70000 + h).tolist() == [np.inf, np.inf]
        assert (h * 1e5).tolist() == [np.inf, np.inf] and E.add(70000, h).tolist() == [np.inf, np.inf]
        assert E.where(E.tensor([True, False]), h, 70000.0).tolist() == [1.0, np.inf]  # where: float16 unchecked
        written = h.clone()
        written[0] = 70000  # x[i] = n: float16 unchecked, as PyTorch
        assert written.tolist() == [np.inf, 2.0]
        assert (E.zeros(1) + 1e40).tolist() == [np.inf] and (E.ones(()) * 1e40).item() == np.inf
        assert (E.zeros(1) ** 1e40).tolist() == [0.0]  # float32's exponent: unchecked
        assert (h + E.tensor(1e5)).tolist() == [np.inf, np.inf]
    with pytest.raises(BadValueError, match="without overflow"):
        E.zeros(2)[0] = 1e40  # x[i] = n: float32 checked
    with pytest.raises(BadValueError, match="without overflow"):
        E.where(E.tensor([True, False]), E.zeros(2), 1e40)


def test_a_run_script_prints_no_numpy_warning():
    code, out, err = run_script("import torch\nh = torch.tensor([1.0, 2.0], dtype=torch.float16)\nprint(h + 70000)\n")
    assert (code, out, err) == (0, "tensor([inf, inf], dtype=torch.float16)\n", "")


# ---------------------------------------------------------------------------- beside PyTorch
CALLS = {
    "clamp_min": lambda m, h, x: h.clamp(min=70000), "clamp_max": lambda m, h, x: h.clamp(max=-70000.0),
    "clamp_both": lambda m, h, x: m.clamp(h, 0, 1e5), "clamp_edge": lambda m, h, x: h.clamp(max=65504),
    "clamp_inf": lambda m, h, x: h.clamp(max=float("inf")), "clamp_min_function": lambda m, h, x: m.clamp_min(h, 1e6),
    "clamp_nan": lambda m, h, x: h.clamp(max=float("nan")), "fill_": lambda m, h, x: h.clone().fill_(70000),
    "fill_65519": lambda m, h, x: h.clone().fill_(65519.0), "fill_inf": lambda m, h, x: h.clone().fill_(float("inf")),
    "fill_tiny": lambda m, h, x: h.clone().fill_(1e-30), "full": lambda m, h, x: m.full((2,), 70000, dtype=m.float16),
    "full_like": lambda m, h, x: m.full_like(h, 1e5), "new_full": lambda m, h, x: h.new_full((2,), 1e5),
    "masked_fill": lambda m, h, x: h.masked_fill(m.tensor([True, False]), 70000),
    "masked_fill_": lambda m, h, x: h.clone().masked_fill_(m.tensor([True, False]), 70000.0),
    "pow": lambda m, h, x: h ** 70000, "pow_function": lambda m, h, x: m.pow(h, 70000.0),
    "rpow": lambda m, h, x: 70000 ** h, "setitem": lambda m, h, x: _written(h.clone(), 0, 70000),
    "setitem_mask": lambda m, h, x: _written(h.clone(), m.tensor([True, False]), 1e5),
    "add": lambda m, h, x: h + 70000, "mul": lambda m, h, x: h * 1e5, "add_": lambda m, h, x: h.clone().add_(70000),
    "where": lambda m, h, x: m.where(m.tensor([True, False]), h, 70000.0),
    "add_alpha": lambda m, h, x: m.add(h, h, alpha=1e5),
    "scatter_value": lambda m, h, x: h.clone().scatter_(0, m.tensor([0]), 1e5),
    "hardtanh": lambda m, h, x: _functional(m).hardtanh(h, -1e5, 1e5),
    "f32_clamp": lambda m, h, x: x.clamp(max=1e40), "f32_fill": lambda m, h, x: x.clone().fill_(1e40),
    "f32_full": lambda m, h, x: m.full((2,), 1e40), "f32_masked_fill": lambda m, h, x: x.masked_fill(x > -1, 1e40),
    "f32_pow": lambda m, h, x: x ** 1e40, "f32_where": lambda m, h, x: m.where(x > -1, x, 1e40),
    "f32_add": lambda m, h, x: x + 1e40, "f32_setitem": lambda m, h, x: _written(x.clone(), 0, 1e40),
    "f32_clamp_edge": lambda m, h, x: x.clamp(max=3.5e38), "f32_alpha": lambda m, h, x: m.add(x, x, alpha=1e40),
    "f32_hardtanh": lambda m, h, x: _functional(m).hardtanh(x, -1e40, 1e40),
    "uint8_scatter": lambda m, h, x: m.zeros(2, dtype=m.uint8).scatter_(0, m.tensor([0]), 300),
    "uint8_scatter_negative": lambda m, h, x: m.zeros(2, dtype=m.uint8).scatter(0, m.tensor([0]), -1),
    "int64_scatter_float": lambda m, h, x: m.zeros(2, dtype=m.int64).scatter(0, m.tensor([0]), 2.7),
}


def _functional(m):
    return m if m is E else m.nn.functional


def _written(t, index, value):
    t[index] = value
    return t


def _outcome(m, name):
    h, x = m.tensor([1.0, 2.0], dtype=m.float16), m.zeros(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = CALLS[name](m, h, x)
        except Exception as error:  # the class is compared
            return {"error": next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")}
    return {"values": result.double().numpy().tolist(), "dtype": str(result.dtype),
            "warnings": [str(w.message) for w in caught]}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_as_pytorch(name):
    torch = pytest.importorskip("torch")
    mine, theirs = _outcome(E, name), _outcome(torch, name)
    assert mine.keys() == theirs.keys(), (mine, theirs)
    if "values" in mine:
        assert (mine["dtype"], mine["warnings"]) == (theirs["dtype"], theirs["warnings"])
        np.testing.assert_array_equal(mine["values"], theirs["values"])
    else:
        assert mine == theirs
