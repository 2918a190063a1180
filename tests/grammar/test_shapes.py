"""grammar/syntax/shapes.py: formulas of one shape parse to the same tree but for their numbers (values, texts and
the positions their lengths move), or fail alike, so check --batch may parse and compile a shape once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import formula_shape, parse
from autodiff.grammar.syntax.tree import Node, Number


def _fields(node: object) -> list[tuple]:
    """Every node of the tree in order, as (type, its fields that are not nodes): a number as its type alone,
    positions left out (a number's length moves them). Iterative."""
    out: list[tuple] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
            continue
        if not isinstance(item, Node):
            out.append(("value", item))
            continue
        if isinstance(item, Number):
            out.append(("Number", item.is_int))
            continue
        own, children = [], []
        for name in item.__match_args__:
            value = getattr(item, name)
            (children if isinstance(value, (Node, tuple)) else own).append(value if name != "source" else None)
        out.append((type(item).__name__, tuple(own)))
        stack.extend(reversed(children))
    return out


def _tree_or_error(text: str) -> list[tuple] | str:
    try:
        return _fields(parse(text).statements)
    except AutodiffError as error:
        return type(error).__name__


ATOMS = st.sampled_from(["x", "y", "sin", "x1", "_a", "2", "0", "00", "07", "1.5", "1.", ".5", "1e5", "2.5E-3",
                         "12345678901234567890", "e", "pi", "True", "if", "lambda", "and", "print", "1_0"])
PIECES = st.sampled_from(["+", "-", "*", "/", "**", "//", "(", ")", ",", " ", "  ", ".", "[", "=", "%", "@", "\t"])


def _twin(shape: tuple) -> str:
    """A text of the shape written token by token with other numbers (whole ones stay whole)."""
    return " ".join(token if isinstance(token, str) else "7.25" if token is None else "7" for token in shape)


@pytest.mark.long
@settings(max_examples=3000, deadline=None)
@given(st.lists(ATOMS | PIECES, min_size=1, max_size=14))
def test_texts_of_one_shape_parse_alike(pieces):
    text = "".join(pieces)
    found = formula_shape(text)
    if found is None:
        return
    shape, numbers = found
    twin = _twin(shape)
    assert formula_shape(twin)[0] == shape
    assert _tree_or_error(text) == _tree_or_error(twin), (text, twin)
    if not isinstance(_tree_or_error(text), str):
        assert [n.text for n in _numbers(parse(text))] == [written for _, written in numbers]


def _numbers(program: object) -> list[Number]:
    out, stack = [], [program.statements]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
        elif isinstance(item, Number):
            out.append(item)
        elif isinstance(item, Node):
            stack.extend(reversed([getattr(item, n) for n in item.__match_args__
                                   if isinstance(getattr(item, n), (Node, tuple))]))
    return out


@pytest.mark.parametrize(("text", "other"), [("x//2", "x/ /2"), ("x**2", "x* *2"), ("2*x", "2.0*x"),
                                             ("1e5*x", "1*x")])
def test_texts_the_lexer_reads_differently_have_different_shapes(text, other):
    assert formula_shape(text)[0] != formula_shape(other)[0]


@pytest.mark.parametrize("text", ["x.sum()", "01*x", "x[0]", "x = 2", "if", "x # note", "x\t+ 1", "x < 1", "",
                                  "12345678901234567890*x", "(" * 250 + "x" + ")" * 250])
def test_what_has_no_shape(text):
    assert formula_shape(text) is None


def test_a_shape_and_its_numbers():
    assert formula_shape("1.742*sigmoid(1.742*x)*(1 - sigmoid(x))") == (
        (None, "*", "sigmoid", "(", None, "*", "x", ")", "*", "(", 0, "-", "sigmoid", "(", "x", ")", ")"),
        [(1.742, "1.742"), (1.742, "1.742"), (1, "1")])
