"""app/literals.py: a number as repr() writes it (how check --batch passes a line's JSON number as VALUE text) is
worked out without the parser; its value and its textbook reading must be what the parser and the reader give."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.app.comparison import Variable
from autodiff.app.literals import is_plain_number, plain_number
from autodiff.app.textbook.notation import read
from autodiff.grammar.interpreter import constant

NUMBERS = st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(2**63), 2**63) | st.sampled_from(
    [0, -0.0, 0.0, 1e-05, 5e-324, 1.7976931348623157e308, 2.5e20, 10**18 - 1, 10**18, -(10**18)])


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (a == b and math.copysign(1, a) == math.copysign(1, b)) or (math.isnan(a) and math.isnan(b))
    return a == b


@settings(max_examples=400, deadline=None)
@given(NUMBERS)
def test_a_reprs_value_is_the_languages(value):
    text = repr(value)
    fast = plain_number(text)
    if fast is not None:
        assert _same(fast, constant(text, "x")), text
        assert _same(Variable("x", text=text).draw(), constant(text, "x"))


@settings(max_examples=300, deadline=None)
@given(NUMBERS)
def test_a_reprs_reading_is_the_readers(value):
    text = repr(value)
    if is_plain_number(text):
        assert read(text) == read(text, ["unrelated_name"])  # the second is read token by token
        assert read(text).program == text


def test_what_is_not_plain_goes_to_the_parser():
    for text in ("inf", "-inf", "nan", "1.", ".5", "1E5", "+1", " 1", "1 ", "01", "1e300", "1_000", "2*3", "--1",
                 "1234567890123456789", "0x10", "1.5e", "-", ""):
        assert plain_number(text) is None and not is_plain_number(text), text
    assert Variable("x", text="1e300").draw() == 1e300 and Variable("x", text="2*3").draw() == 6
