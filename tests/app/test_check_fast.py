"""The shortcuts that make `check --batch` fast must give what the long way gives: a text the textbook reader
takes as written without rewriting it (notation's _as_written) is read as the rewriting would read it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.app.textbook.notation import read

# pieces of programs: mostly what a batch's programs and answers are made of, and what the reader rewrites
PIECES = ["x", "y", "2", "1.742", ".5", "1e-3", "3.0e+2", "+", "-", "*", "/", "**", "(", ")", " ", "sin(", "exp(",
          "log(", "ln(", "log_2(", "sigmoid(", "tanh ", "sqrt", "e", "pi", "xy", "2x", "x(", ")(", "and", "lambda",
          ".sum()", "//", "%", "^", ",", "|", "\t", "xsin", "abs", "sum(", "beta"]


def _slow(text: str, variables: list[str]):
    """The reading by rewriting: a trailing tab keeps the reader from taking the text as written, and does not
    change its tokens."""
    return read(text + "\t", variables)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12), st.sampled_from([["x"], ["x", "y"], ["y"]]))
def test_a_text_read_as_written_is_what_the_rewriting_gives(pieces, variables):
    text = "".join(pieces).strip()
    if not text:
        return
    fast, slow = read(text, variables), _slow(text, variables)
    assert fast.equation == slow.equation and fast.derivative == slow.derivative
    assert fast.variables == slow.variables
    if slow.program.replace(" ", "") == text.replace(" ", ""):
        assert (fast.program, fast.read_as) == (text, None)
    else:
        assert (fast.program, fast.read_as) == (slow.program, slow.program)


def test_a_batchs_texts_are_read_as_written():
    for text in ["1.742*sigmoid(1.742*x)*(1 - sigmoid(1.742*x))", "(x + 1.806)**3", "3*(x + 1.806)**2",
                 "-(2*x)", "x/(1 + 0.5*x**2)"]:
        assert read(text, ["x"]).read_as is None
    assert read("(x + 1)", ["x"]).program == "x + 1"
    assert read("2x", ["x"]).program == "2*x"
    assert read("ln(x)", ["x"]).program == "log(x)"
    assert read("x(x + 1)", ["x"]).program == "x*(x + 1)"
