"""The suite's numeric comparisons (tests/tolerance.py): numbers as numbers within one tolerance per dtype,
the text between them exact."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tolerance import TOLERANCE, assert_close, assert_same_json, close, numbers_differ, tolerance


def test_one_tolerance_per_dtype():
    assert tolerance("float32") == TOLERANCE["float32"] == tolerance(np.float32) == tolerance("torch.float32")
    assert tolerance(np.dtype("float64")).rtol == 1e-10
    assert tolerance("int64").rtol == 0.0  # exact for the rest


def test_numbers_within_a_few_ulps_are_close_and_a_wrong_digit_is_not():
    x = 0.479425538604203
    assert close(float(np.nextafter(x, 1.0)), x)
    assert close(float(np.float32(x) + np.float32(4e-8)), float(np.float32(x)), "float32")
    assert not close(0.4794, x, "float32")
    assert close(math.nan, math.nan) and not close(math.nan, 1.0) and not close(math.inf, 1e308)
    assert_close(np.array([1.0, math.nan]), np.array([1.0 + 1e-13, math.nan]))
    with pytest.raises(AssertionError):
        assert_close(np.array([1.0]), np.array([1.0001]))


def test_printed_outputs_compare_their_numbers_as_numbers():
    torch_here = "tensor([0.1235, 2.0000], grad_fn=<SinBackward0>)\nloss 0.47942553860420306\n"
    torch_there = "tensor([0.1234, 2.0000], grad_fn=<SinBackward0>)\nloss 0.479425538604203\n"
    assert numbers_differ(torch_here, torch_there, "float64") is None
    assert numbers_differ("1.2346e+05", "1.2345e+05") is None  # one unit of the last digit, same precision
    assert numbers_differ("0.1", "0.2") is not None  # too few digits for a rounding boundary
    assert numbers_differ("0.3", "0.35") is not None  # not the same precision
    assert numbers_differ("step 12", "step 13") is not None  # integers are exact
    assert "the text differs" in numbers_differ("SumBackward0 1.0", "ViewBackward0 1.0")
    assert numbers_differ("float32 x1", "float64 x1") is not None  # digits inside names are text
    assert numbers_differ("a\nb", "a") is not None
    assert numbers_differ("tensor(nan) -inf ...", "tensor(nan) -inf ...") is None


def test_json_documents_compare_floats_within_the_tolerance_and_the_rest_exactly():
    assert_same_json({"a": [1.0, "nan", None, True, 3]}, {"a": [1.0 + 1e-12, "nan", None, True, 3]})
    for other in ({"a": [1.1, "nan", None, True, 3]}, {"a": [1.0, "inf", None, True, 3]},
                  {"a": [1.0, "nan", None, True, 4]}, {"b": [1.0, "nan", None, True, 3]}):
        with pytest.raises(AssertionError):
            assert_same_json(other, {"a": [1.0, "nan", None, True, 3]})
