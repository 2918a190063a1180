"""engine.formatting prints tensors exactly as PyTorch 2.13's repr does.

The golden cases run without torch; the property tests compare against torch when it is installed.
Regenerate the golden file with tests/make_format_golden.py.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autodiff.engine import Size
from autodiff.engine.core.formatting import format_tensor

GOLDEN = json.loads((Path(__file__).parent / "golden" / "format.json").read_text())
NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def decode(value):
    """Undo the golden file's spelling of nan/inf as strings."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    return NON_FINITE.get(value, value) if isinstance(value, str) else value


@pytest.mark.parametrize("case", GOLDEN, ids=[case["name"] for case in GOLDEN])
def test_golden(case):
    data = np.array(decode(case["data"]), dtype=case["dtype"]).reshape(case["shape"])
    text = format_tensor(
        data,
        requires_grad=case["requires_grad"],
        grad_fn=case["grad_fn"],
        default_dtype=np.dtype(case["default_dtype"]),
    )
    assert text == case["expected"]


def test_golden_covers_the_brief():
    names = {case["name"] for case in GOLDEN}
    wanted = "summary_1001 summary_40x40 summary_3x500 summary_2x3x400 empty_0x3 empty_2x0x3 all_nan"
    wanted += " neg_zero_fixed wrap_1d f32_with_default_f64 f64_dtype_suffix requires_grad grad_fn_mul"
    assert set(wanted.split()) <= names


def test_simple_cases():
    assert format_tensor(np.array(2.0, np.float32)) == "tensor(2.)"
    pair = np.array([0.5, -1.0], np.float64)
    assert format_tensor(pair) == "tensor([ 0.5000, -1.0000], dtype=torch.float64)"
    assert format_tensor(np.array([0.5], np.float64), default_dtype=np.dtype("float64")) == "tensor([0.5000])"
    assert format_tensor(np.array([1.0, np.nan], np.float32), requires_grad=True) == (
        "tensor([1., nan], requires_grad=True)"
    )
    # grad_fn wins over requires_grad: a non-leaf never shows requires_grad=True.
    assert format_tensor(np.ones((1, 2), np.float32), requires_grad=True, grad_fn="AddBackward0") == (
        "tensor([[1., 1.]], grad_fn=<AddBackward0>)"
    )
    assert format_tensor(np.zeros((0,), np.float32)) == "tensor([])"
    assert format_tensor(np.zeros((0, 3), np.float64)) == "tensor([], size=(0, 3), dtype=torch.float64)"


def test_large_tensor_is_summarised_quickly():
    data = np.arange(1e6, dtype=np.float32).reshape(1000, 1000)
    expected = (
        "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9700e+02, 9.9800e+02,\n"
        "         9.9900e+02],\n"
        "        [1.0000e+03, 1.0010e+03, 1.0020e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
        "         1.9990e+03],\n"
        "        [2.0000e+03, 2.0010e+03, 2.0020e+03,  ..., 2.9970e+03, 2.9980e+03,\n"
        "         2.9990e+03],\n"
        "        ...,\n"
        "        [9.9700e+05, 9.9700e+05, 9.9700e+05,  ..., 9.9800e+05, 9.9800e+05,\n"
        "         9.9800e+05],\n"
        "        [9.9800e+05, 9.9800e+05, 9.9800e+05,  ..., 9.9900e+05, 9.9900e+05,\n"
        "         9.9900e+05],\n"
        "        [9.9900e+05, 9.9900e+05, 9.9900e+05,  ..., 1.0000e+06, 1.0000e+06,\n"
        "         1.0000e+06]])"
    )
    assert format_tensor(data) == expected  # how fast: benchmarks/limits.py


def test_module_does_not_import_torch():
    code = "import sys, autodiff.engine.core.formatting; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- property tests against torch itself -------------------------------------------------------


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


# Values at the edges of PyTorch's format choices; all exact in float32 except where noted.
SPECIAL = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, 1000.0, 1e-10, 1e10]
SPECIAL += [1e-4, 9.9e-5, 1e8, 1.0000001e8, 1e-38, 1e-45, 3e38]


def values(dtype):
    width = 32 if dtype == np.float32 else 64
    special = [float(dtype(v)) for v in SPECIAL]  # rounded to what the dtype holds
    if dtype == np.float64:
        special += [1e300, 5e-324, 1e-300]
    return st.one_of(
        st.floats(width=width),
        st.integers(-(10**6), 10**6).map(float),
        st.floats(-1e4, 1e4, width=width),
        st.sampled_from(special),
    )


@st.composite
def arrays(draw):
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    if draw(st.integers(0, 9)):
        shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=7))
        return draw(hnp.arrays(dtype, shape, elements=values(dtype)))
    # More than 1000 elements: built with numpy (drawing each element would be slow), with a few
    # drawn values sprinkled in so nan/inf/zeros/outliers land both on shown and on hidden items.
    rest = draw(st.lists(st.integers(1, 12), max_size=3))
    lead_min = -(-1001 // math.prod(rest))
    shape = (draw(st.integers(lead_min, lead_min + 12)), *rest)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    data = rng.standard_normal(shape) * draw(st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e9]))
    if draw(st.booleans()):
        data = np.round(data)
    flat = data.reshape(-1)
    for value in draw(st.lists(values(dtype), max_size=8)):
        flat[rng.integers(flat.size)] = value
    return flat.reshape(shape).astype(dtype)


@settings(max_examples=300, deadline=None)
@given(data=arrays(), autograd=st.sampled_from(["none", "leaf", "mul"]), default64=st.booleans())
def test_matches_torch(torch, data, autograd, default64):
    t = torch.from_numpy(data)
    grad_fn = None
    if autograd != "none":
        t = t.requires_grad_()
    if autograd == "mul":
        t = t * 1  # keeps every value, nan and -0.0 included
        grad_fn = "MulBackward0"
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64 if default64 else torch.float32)
    try:
        expected = repr(t)
    finally:
        torch.set_default_dtype(previous)
    default_dtype = np.dtype("float64" if default64 else "float32")
    got = format_tensor(data, requires_grad=autograd == "leaf", grad_fn=grad_fn, default_dtype=default_dtype)
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(shape=st.lists(st.integers(0, 10**6), max_size=6))
def test_size_prints_as_torch(torch, shape):
    assert repr(Size(shape)) == str(torch.Size(shape))
