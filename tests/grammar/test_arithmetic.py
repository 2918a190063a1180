"""grammar/syntax/arithmetic.py: the short cut of parse() for formulas of plain arithmetic builds the tree the LALR
parser builds (the same nodes, values and positions), and leaves everything else, mistakes included, to it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.engine.errors import AutodiffError
from autodiff.grammar.syntax import parse
from autodiff.grammar.syntax.arithmetic import formula_shape, quick_parse
from autodiff.grammar.syntax.tree import Node


def _fields(node: object) -> list[tuple]:
    """Every node of the tree, in order, as (type, its fields that are not nodes, line, column): iteratively."""
    out: list[tuple] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
            continue
        if not isinstance(item, Node):
            out.append(("value", type(item).__name__, item))
            continue
        own = []
        children = []
        for name in item.__match_args__:
            value = getattr(item, name)
            if isinstance(value, (Node, tuple)) and name != "source":
                children.append(value)
            else:
                own.append((name, type(value).__name__, value))
        out.append((type(item).__name__, tuple(own) if not hasattr(item, "source") else (), item.line, item.column))
        stack.extend(reversed(children))
    return out


def _by_the_parser(text: str):
    """The LALR parser's tree (a comment at the end keeps the short cut out and changes nothing else), or its
    error."""
    try:
        return parse(text + " # by the tables")
    except AutodiffError as error:
        return error


def _same(text: str) -> None:
    quick, slow = quick_parse(text), _by_the_parser(text)
    if quick is None:
        return
    assert not isinstance(slow, AutodiffError), (text, slow)
    assert quick.source == text
    assert _fields(quick.statements) == _fields(slow.statements), text


ATOMS = st.sampled_from(["x", "y", "sin", "x1", "_a", "2", "0", "00", "07", "1.5", "1.", ".5", "1e5", "2.5E-3",
                         "12345678901234567890", "e", "pi", "True", "if", "lambda", "and", "print"])
PIECES = st.sampled_from(["+", "-", "*", "/", "**", "(", ")", ",", " ", "  ", ".", "//", "[", "=", "%", "@", "\t"])


@settings(max_examples=3000, deadline=None)
@given(st.lists(ATOMS | PIECES, min_size=1, max_size=14))
def test_any_text_of_its_pieces_is_the_parsers_tree_or_left_to_it(pieces):
    _same("".join(pieces))


def _formulas() -> st.SearchStrategy[str]:
    """Formulas the short cut reads: signs, powers, brackets, calls of one or more arguments, spaces anywhere."""
    space = st.sampled_from(["", "", " ", "  "])
    leaf = st.tuples(space, st.sampled_from(["x", "y", "2", "1.742", ".5", "3e-2", "10", "w_2"]), space).map("".join)

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map("".join)
        sign = st.tuples(st.sampled_from(["-", "+", " -"]), inner).map("".join)
        bracket = inner.map(lambda t: f"({t})")
        call = st.tuples(st.sampled_from(["sin", "f", "log "]), st.lists(inner, min_size=0, max_size=3)).map(
            lambda c: f"{c[0]}({', '.join(c[1])})")
        return binary | sign | bracket | call

    return st.recursive(leaf, grow, max_leaves=12)


@settings(max_examples=3000, deadline=None)
@given(_formulas())
def test_a_formula_is_read_by_the_short_cut_as_the_parser_reads_it(text):
    assert quick_parse(text) is not None, text
    _same(text)


@pytest.mark.parametrize("text", ["-x**2", "2**-x*3", "a**b**c", "a - b - c", "-a*b + c", "(x)", "((x + 1))*2",
                                  "f()", "f(x, y)", "  x + 1  ", "1.742*sigmoid(1.742*x)*(1 - sigmoid(1.742*x))",
                                  "- - x", "x/(1 + 0.5*x**2)**2"])
def test_known_formulas(text):
    assert quick_parse(text) is not None
    _same(text)


@pytest.mark.parametrize("text", ["2x", "x y", "(x, y)", "f(x,)", "f(x)(y)", "(x)(y)", "x.sum()", "01", "x +",
                                  "(x", "x)", "if", "", " ", "x[0]", "1e", "x = 2"])
def test_what_is_not_such_a_formula_is_left_to_the_parser(text):
    assert quick_parse(text) is None


@settings(max_examples=2000, deadline=None)
@given(st.lists(ATOMS | PIECES, min_size=1, max_size=14))
def test_a_texts_shape_is_known_when_the_short_cut_reads_it(pieces):
    text = "".join(pieces)
    shape = formula_shape(text)
    tree = quick_parse(text)
    if tree is not None:
        assert shape is not None and [written for _, written in shape[1]] == \
            [node[1][1][2] for node in _fields(tree.statements) if node[0] == "Number"]
    if shape is not None:  # the text and a twin with other numbers, written token by token
        written = iter(w for _, w in shape[1])
        again = " ".join(token if isinstance(token, str) else next(written) for token in shape[0])
        twin = " ".join(token if isinstance(token, str) else "7.5" if token is None else "7" for token in shape[0])
        assert formula_shape(again)[0] == formula_shape(twin)[0] == shape[0]
        assert (quick_parse(again) is None) == (quick_parse(twin) is None) == (tree is None)


def test_the_parsers_limits_stay_the_parsers():
    deep = "(" * 600 + "x" + ")" * 600
    assert quick_parse(deep) is None and formula_shape(deep) is None
    with pytest.raises(AutodiffError):
        parse(deep)
    assert quick_parse("(" * 150 + "x" + ")" * 150) is not None
