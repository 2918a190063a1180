"""app.textbook.questions: a text that does not start as a question is answered without compiling the pattern,
and the quick test never turns a question away."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from autodiff.app.textbook import questions
from autodiff.app.textbook.questions import derivative_question


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=" \t\n\u00a0\u2003(d/xθ^²)[]2 sin", max_size=24))
@example("(d/dx) sin x")
@example("\u00a0( \td/dθ θ^2")
def test_every_text_the_pattern_matches_starts_as_a_question(text: str) -> None:
    if re.match(questions._QUESTION, text, re.S) is not None:
        assert questions._starts_as_question(text)


def test_questions_and_formulas() -> None:
    assert derivative_question("d/dx x^3") == ("x", 1, "x^3")
    assert derivative_question(" (d/dθ) sin θ") == ("θ", 1, "sin θ")
    assert derivative_question("d²/dx² x^4") == ("x", 2, "x^4")
    assert derivative_question("(2*x)**3") is None
    assert derivative_question("dx*2") is None
