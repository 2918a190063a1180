"""Arithmetic on 0-d float tensors computed on Python floats (recording._on_numbers, the per-op cost of a scalar
program) gives numpy's result to the bit, the same node and the same gradients as the general path, and leaves
every result that is not a normal number or zero (overflow, subnormals, nan, division by zero) to numpy."""

from __future__ import annotations

import operator
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine as E
from autodiff.engine.core import recording
from autodiff.engine.kernels import arrays

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
EDGES = [0.0, -0.0, 1.0, -1.0, 0.1, 1e-3, 1.0001, 3.0, 1e-38, 1.2e-38, 1e-45, 3.4e38, 3.5e38, 1e300, 1e-300,
         5e-324, 2.2e-308, 1.7e308, float("inf"), float("-inf"), float("nan"), 16777217.0, 2.0**-126]


def _bits(t: E.Tensor) -> tuple:
    a = t.detach().numpy()
    return a.dtype.str, a.shape, a.tobytes()


def _run(dtype: str, x: float, y: float | int, symbol: str, tensor_other: bool) -> tuple:
    """The result's bits, its node's name and the gradients (bits), or the error's type."""
    a = E.tensor(x, dtype=getattr(E, dtype), requires_grad=True)
    b = E.tensor(y, dtype=getattr(E, dtype), requires_grad=True) if tensor_other else y
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = OPS[symbol](a, b)
            (out * 1.7 + out * x).backward()  # the gradients of * (and +) on numbers and 0-d arrays too
    except Exception as error:  # the same failure both ways is what is compared
        return (type(error).__name__,)
    grads = [_bits(a.grad)] + ([_bits(b.grad)] if tensor_other else [])
    return (_bits(out), out.grad_fn.name(), grads, sorted(str(w.message) for w in caught))


def _general(m: pytest.MonkeyPatch) -> None:
    """Every computation on Python floats declines: numpy's ufuncs compute, as before they existed."""
    m.setattr(recording, "_on_numbers", lambda op, inputs: None)
    m.setattr(arrays, "on_numbers", lambda fn, x, y, dtype: None)


def _both(monkeypatch: pytest.MonkeyPatch, *case: object) -> tuple[tuple, tuple]:
    fast = _run(*case)
    with monkeypatch.context() as m:
        _general(m)
        general = _run(*case)
    return fast, general


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("symbol", sorted(OPS))
def test_edges_agree_with_the_general_path(dtype: str, symbol: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for x in EDGES + [-v for v in EDGES]:
        for y in EDGES + [-v for v in EDGES] + [2, -7, 1 << 24, (1 << 24) + 1, 1 << 60]:
            for tensor_other in (False, True) if not isinstance(y, int) else (False,):
                fast, general = _both(monkeypatch, dtype, x, y, symbol, tensor_other)
                assert fast == general, (dtype, x, y, symbol, tensor_other)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # overflow, in the data and in numpy's path alike
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_random_values_agree_with_numpy(dtype: str) -> None:
    rng = np.random.default_rng(5)
    kind = np.dtype(dtype)
    values = np.concatenate([rng.standard_normal(3000) * 10.0 ** rng.integers(-40, 40, 3000),
                             rng.standard_normal(1000)])
    numbers = rng.standard_normal(values.size) * 10.0 ** rng.integers(-10, 10, values.size)
    for symbol, ufunc in (("+", np.add), ("-", np.subtract), ("*", np.multiply), ("/", np.divide)):
        for x, y in zip(values.astype(kind), numbers):
            t = E.tensor(float(x), dtype=getattr(E, dtype))
            with np.errstate(all="ignore"):
                expected = np.asarray(ufunc(np.asarray(x, kind), float(y)))
                other = np.asarray(ufunc(np.asarray(x, kind), np.asarray(y, kind)))
            assert _bits(OPS[symbol](t, float(y))) == (expected.dtype.str, (), expected.tobytes())
            assert _bits(OPS[symbol](t, E.tensor(float(y), dtype=getattr(E, dtype)))) == \
                (other.dtype.str, (), other.tobytes())


@settings(max_examples=300, deadline=None)
@given(x=st.floats(allow_nan=True, allow_infinity=True), y=st.floats(allow_nan=True, allow_infinity=True),
       dtype=st.sampled_from(["float32", "float64"]), symbol=st.sampled_from(sorted(OPS)), tensor_other=st.booleans())
def test_any_floats_agree_with_the_general_path(x: float, y: float, dtype: str, symbol: str,
                                                tensor_other: bool) -> None:
    fast = _run(dtype, x, y, symbol, tensor_other)
    with pytest.MonkeyPatch.context() as m:
        _general(m)
        general = _run(dtype, x, y, symbol, tensor_other)
    assert fast == general


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_long_chain_agrees_with_the_general_path(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def chain() -> tuple:
        rng = np.random.default_rng(11)
        s = E.tensor(0.5, dtype=getattr(E, dtype), requires_grad=True)
        t = E.tensor(-1.25, dtype=getattr(E, dtype), requires_grad=True)
        y = s
        for k in range(600):
            c = float(rng.standard_normal() * 2.0)
            y = OPS["+-*/"[k % 4]](y, c if k % 3 else t) if k % 5 else y * (1.0 + 1e-3 * c)
        y.backward()
        return _bits(y), _bits(s.grad), _bits(t.grad)

    fast = chain()
    with monkeypatch.context() as m:
        _general(m)
        assert chain() == fast
