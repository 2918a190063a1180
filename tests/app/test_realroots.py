"""app.textbook.realroots.odd_root: which float exponents are p/q with q odd (the calculus commands' real roots)."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from autodiff.app.textbook.realroots import MAX_DENOMINATOR, odd_root


def _nearest_fraction(exponent: float) -> tuple[int, int] | None:
    """The definition: the fraction nearest the exponent with a denominator up to 99, if it is the exponent."""
    fraction = Fraction(exponent).limit_denominator(MAX_DENOMINATOR)
    p, q = fraction.numerator, fraction.denominator
    return None if q == 1 or q % 2 == 0 or p / q != exponent else (p, q)


def test_odd_roots_and_others():
    assert odd_root(1 / 3) == (1, 3)
    assert odd_root(2 / 3) == (2, 3)
    assert odd_root(-5 / 3) == (-5, 3)
    assert odd_root(0.2) == (1, 5)
    assert odd_root(50 / 99) == (50, 99)
    assert odd_root(0.5) is None  # q even
    assert odd_root(2.0) is None  # q == 1
    assert odd_root(1 / 101) is None  # q over 99
    assert odd_root(math.pi) is None
    assert odd_root(3) is None and odd_root(True) is None  # integers are not fractions here
    assert odd_root(math.nan) is None and odd_root(math.inf) is None


@given(st.integers(-10_000, 10_000), st.integers(1, 120))
def test_fractions_as_written_match_the_definition(p, q):
    assert odd_root(p / q) == _nearest_fraction(p / q)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_float_matches_the_definition(exponent):
    assert odd_root(exponent) == _nearest_fraction(exponent)
