"""Strings, tuples and a script's lists behave as Python's (`[1] + [2]` is `[1, 2]` in a script, not a tensor):
what a script prints is compared with what Python prints for the same expression; in `autodiff eval` a list
is still a tensor."""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.engine.errors import BadValueError, LimitError
from autodiff.grammar.interpreter import Interpreter
from autodiff.grammar.interpreter.policy import SCRIPT
from autodiff.grammar.syntax import parse


def script_prints(text: str) -> str:
    out: list[str] = []
    Interpreter(policy=SCRIPT, write=out.append).run(parse(text))
    return "".join(out)


@pytest.mark.parametrize(("expression", "printed"), [
    ("[1] + [2]", "[1, 2]"), ("[1.0, 2.0] * 2", "[1.0, 2.0, 1.0, 2.0]"), ("3 * [0]", "[0, 0, 0]"), ("[0] * -1", "[]"),
    ("(1, 2) + (3,)", "(1, 2, 3)"), ("(1,) * 3", "(1, 1, 1)"), ("'ab' * 2", "abab"), ("'a' + 'b'", "ab"),
    ("'b' > 'a'", "True"), ("'abc' <= 'abd'", "True"), ("(1, 2) < (1, 3)", "True"), ("[1, 2] == [1, 2]", "True"),
    ("[1, 2] != [1, 3]", "True"), ("[1, 2] < [1, 3]", "True"), ("[1] == 1", "False"),
    ("[1.0, 2.0, 3.0][0]", "1.0"), ("[1.0, 2.0, 3.0][-1]", "3.0"), ("[1.0, 2.0, 3.0][1:]", "[2.0, 3.0]"),
    ("[1.0, 2.0, 3.0][::-1]", "[3.0, 2.0, 1.0]"), ("(1, 2, 3)[1:]", "(2, 3)"), ("'hello'[1]", "e"),
    ("'hello'[::2]", "hlo"), ("[[1, 2], [3, 4]][1]", "[3, 4]"), ("[1, 2][5:]", "[]"), ("str(3) + 'x'", "3x"),
])
def test_expressions_print_what_python_prints(expression, printed):
    assert script_prints(f"print({expression})\n") == f"{printed}\n"


def test_a_list_grows_in_place_with_plus_equals():
    assert script_prints("a = [1]\nb = a\na += [2]\na += (3,)\nprint(a, b)\n") == "[1, 2, 3] [1, 2, 3]\n"


def test_a_list_beside_a_tensor_is_a_tensor_as_pytorch_converts_it():
    assert script_prints("import torch\nx = torch.ones(2)\nprint([1.0, 2.0] + x, x * [2.0, 3.0])\n") == \
        "tensor([2., 3.]) tensor([2., 3.])\n"


def test_in_eval_a_list_is_still_a_tensor():
    assert str(Interpreter().run(parse("[1, 2] + [3, 4]")).root) == "tensor([4., 6.])"


@pytest.mark.parametrize(("text", "error", "message"), [
    ("print([0] * 10**9)\n", LimitError,
     "the list made by * would hold 1,000,000,000 items, over the limit of 10,000,000"),
    ("print('ab'[5])\n", BadValueError, "index 5 is out of range for a str of 2 items"),
    ("print([1, 2][2])\n", BadValueError, "index 2 is out of range for a list of 2 items"),
    ("print([1] + (2,))\n", BadValueError, 'can only concatenate list (not "tuple") to list'),
    ("print('float64'[::0])\n", BadValueError, "slice step cannot be zero"),  # was an internal error (fuzz)
    ("print((1, 2)[::0])\n", BadValueError, "slice step cannot be zero"),
])
def test_mistakes_are_errors(text, error, message):
    with pytest.raises(error) as raised:
        script_prints(text)
    assert raised.value.message == message


_items = st.one_of(st.integers(-5, 5), st.sampled_from(["a", "b", "ab"]))
_sequences = st.one_of(st.lists(_items, max_size=4), st.lists(_items, max_size=4).map(tuple),
                       st.text(alphabet="abc", max_size=4))


_PYTHON = {"+": operator.add, "*": operator.mul, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge, "==": operator.eq, "!=": operator.ne}


@settings(max_examples=150, deadline=None)
@given(left=_sequences, right=st.one_of(_sequences, st.integers(-2, 3)), op=st.sampled_from(sorted(_PYTHON)))
def test_random_sequence_operations_agree_with_python(left, right, op):
    expression = f"{left!r} {op} {right!r}"
    try:
        expected = f"{_PYTHON[op](left, right)}\n"  # the oracle: Python itself
    except TypeError:
        with pytest.raises(BadValueError):
            script_prints(f"print({expression})\n")
        return
    assert script_prints(f"print({expression})\n") == expected


def test_sorted_takes_a_key():
    assert script_prints("import torch\nprint(sorted([3, 1, 2], key=lambda v: -v), sorted(['bb', 'a'], key=len), "
                         "sorted([1, 2], key=lambda v: torch.tensor(-v)), sorted([1, 3, 2], reverse=True))\n") == \
        "[3, 2, 1] ['a', 'bb'] [2, 1] [3, 2, 1]\n"
