"""The lexer's shorter pattern for formulas (grammar/syntax/lexer.py, SHORT_TERMINALS): a text made only of
FORMULA_CHARACTERS lexes to the same tokens, and the same mistakes, as with the whole pattern."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.grammar.syntax import lexer, tables

CHARACTERS = "".join(sorted(lexer.FORMULA_CHARACTERS))
formulas = st.text(alphabet=CHARACTERS, max_size=40)
OTHERS = [(name, re.compile(regex)) for name, regex in tables.TERMINALS if name not in lexer.SHORT_TERMINALS]


def lexed(text: str, monkeypatch: pytest.MonkeyPatch | None = None, whole: bool = False) -> list[tuple] | str:
    """The tokens of text (type, value, position), or the mistake's message; `whole`: with the whole pattern."""
    characters = frozenset() if whole else lexer.FORMULA_CHARACTERS
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lexer, "FORMULA_CHARACTERS", characters)
        try:
            return [(t.type, t.value, t.pos, t.line, t.column) for t in lexer.tokens(text, [])]
        except lexer.SyntaxProblem as problem:
            return f"{problem.message} at {problem.line}:{problem.column}"


def test_the_terminals_left_out_cannot_start_in_a_formula() -> None:
    """Every terminal left out needs a character outside FORMULA_CHARACTERS: none matches at the start of any text
    of one or two of them (the property test below tries longer ones)."""
    assert {name for name, _ in OTHERS} == {name for name, _ in tables.TERMINALS} - lexer.SHORT_TERMINALS
    for size in (1, 2):
        for chars in itertools.product(CHARACTERS, repeat=size):
            text = "".join(chars)
            assert [name for name, pattern in OTHERS if pattern.match(text)] == [], text


@settings(max_examples=300, deadline=None)
@given(formulas)
def test_no_terminal_left_out_matches_a_formula(text: str) -> None:
    assert [name for name, pattern in OTHERS if pattern.match(text)] == []


@settings(max_examples=300, deadline=None)
@given(formulas)
def test_a_formula_lexes_the_same_with_either_pattern(text: str) -> None:
    assert lexed(text) == lexed(text, whole=True)


@pytest.mark.parametrize("text", ["(2*x)**3", "x**2*sin(x) + exp(-x)", "1.5", "x ... y", "a // b", "1e-3*x.sum()",
                                  "2x", "x . y", "1..2", "x**", ""])
def test_formulas_lex_the_same_with_either_pattern(text: str) -> None:
    assert lexed(text) == lexed(text, whole=True)


def test_a_text_with_another_character_uses_the_whole_pattern() -> None:
    assert lexed("y = x # note")[:3] == [("NAME", "y", 0, 1, 1), ("EQUAL", "=", 2, 1, 3), ("NAME", "x", 4, 1, 5)]
