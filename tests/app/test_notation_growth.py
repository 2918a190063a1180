"""Textbook notation is read in time linear in the nesting (issue 44: 10,000 nested √ took 13 s, 20,000 took 30 s).
The work is counted, not timed: the lines of app/textbook/notation.py run for n and for 2n nested forms."""

from __future__ import annotations

import sys

import pytest

from autodiff.app.textbook import notation
from autodiff.app.textbook.notation import read

FORMS = {
    "roots": lambda n: "√" * n + "x",
    "functions": lambda n: "sin " * n + "x",
    "powers of functions": lambda n: "sin^2 " * n + "x",
    "brackets": lambda n: "(" * n + "x" + ")" * n,
    "bars": lambda n: "|" * n + "x" + "|" * n,
    "bases": lambda n: "log_2 " * n + "x",
    "log(x, b)": lambda n: "log(" * n + "x" + ", 3)" * n,
    "powers": lambda n: "e^" * n + "x",
}


def _lines_run(text: str) -> int:
    """How many lines of app/textbook/notation.py run while reading the text."""
    count = 0
    path = notation.__file__

    def trace(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != path:
            return None
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        read(text)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("form", list(FORMS))
def test_reading_is_linear_in_the_nesting(form):
    small, large = (_lines_run(FORMS[form](n)) for n in (1_000, 2_000))
    assert large <= 2.2 * small, (form, small, large)  # quadratic work would be 4 times


def test_twenty_thousand_nested_roots_are_read():
    reading = read("√" * 20_000 + "x")
    assert reading.program == "sqrt(" * 20_000 + "x" + ")" * 20_000


def test_a_base_still_opens_its_bracket_where_the_function_began():
    assert read("log_2 log_3 x").program == "log2((log(x)/log(3)))"
    assert read("2 log_3 x + 1").program == "2*(log(x)/log(3)) + 1"
    assert read("log(x, 3) log(y, 5)").program == "(log(x)/log(3))*(log(y)/log(5))"
