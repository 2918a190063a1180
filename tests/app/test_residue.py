"""app/residue.py: which computed numbers print as 0 (a rounding residue of an exact 0), and which do not."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from autodiff.app.residue import EPSILON, ULPS, point_scales, printed, printed_all, row_scales, table_scales


def test_minus_zero_nan_and_inf():
    assert math.copysign(1, printed(-0.0)) == 1.0
    assert math.isnan(printed(float("nan"), 1.0)) and printed(float("-inf"), 1.0) == float("-inf")


@pytest.mark.parametrize(("value", "scale", "expected"), [
    (math.cos(math.pi / 2), math.pi / 2, 0.0),  # 6.1e-17: cos at the float nearest pi/2
    (math.sin(math.pi), math.pi, 0.0),  # 1.2e-16
    (-3.4914813388431334e-15, 1.5707963267949, 0.0),  # cos at the grid's 15-digit pi/2
    (math.exp(-40), 40 * math.exp(-40), math.exp(-40)),  # small, but not small next to how it moves
    (1e-20, 0.0, 1e-20),  # an exact input (0): nothing is a residue
    (ULPS * EPSILON * 2, 1.0, ULPS * EPSILON * 2),  # just over the tolerance
    (ULPS * EPSILON, 1.0, 0.0),  # at it
])
def test_the_rule(value, scale, expected):
    assert printed(value, scale) == expected


def test_the_exact_question_is_asked_only_of_tiny_values():
    asked = []

    def exact() -> str:
        asked.append(1)
        return "0"

    assert printed(1e-13, exact=exact) == 0.0 and asked == [1]
    assert printed(1e-11, exact=exact) == 1e-11 and asked == [1]


def test_arrays_and_float32():
    assert printed_all(np.array([1e-17, 1.0, -0.0]), np.array([1.0, 1.0, 1.0])).tolist() == [0.0, 1.0, 0.0]
    single = np.array([-4.371139e-08, 1e-3], dtype=np.float32)  # cos(float32(pi/2)): a float32 residue
    assert printed_all(single, np.array([1.57, 1.57])).tolist() == [0.0, pytest.approx(1e-3)]


def test_scales():
    grid = np.array([0.0, 1.5, -3.0])
    value, first, second = np.array([1.0, 2.0, 3.0]), np.array([4.0, -5.0, 6.0]), np.array([7.0, 8.0, -9.0])
    assert [s.tolist() for s in table_scales(grid, [value, first], second)] == [[0, 7.5, 18], [0, 12, 27]]
    assert [s.tolist() for s in table_scales(grid, [value, first], None)] == [[0, 7.5, 18], [0, 3, 9]]
    assert row_scales(np.array([[1.0, -3.0], [np.inf, 0.5]]), 2.0).tolist() == [[6, 6], [1, 1]]
    assert point_scales({"x": 2.0, "y": -1.0}, {"x": 3.0, "y": 5.0}) == (11.0, 10.0)


def test_no_sympy():
    done = subprocess.run([sys.executable, "-c", "import sys, autodiff.app.residue, autodiff.app.calculus.table; "
                           "print('sympy' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert done.stdout == "False\n", done.stderr
