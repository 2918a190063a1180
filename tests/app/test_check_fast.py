"""The short cuts that make `check --batch` fast give what the long way gives: a text the textbook reader takes
as written without rewriting it (app/textbook/plain.py) is read as the rewriting reads it, and a program run by its
tape (with check's RealRoots) gives the interpreter's values and gradients bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine
from autodiff.app.comparison import Program, compare, compare_each, gradients
from autodiff.app.session import Binding, bind
from autodiff.app.textbook.notation import read
from autodiff.app.textbook.realroots import BACKEND
from autodiff.grammar.syntax import parse

# pieces of programs: mostly what a batch's programs and answers are made of, and what the reader rewrites
PIECES = ["x", "y", "2", "1.742", ".5", "1e-3", "3.0e+2", "+", "-", "*", "/", "**", "(", ")", " ", "sin(", "exp(",
          "log(", "ln(", "log_2(", "sigmoid(", "tanh ", "sqrt", "e", "pi", "xy", "2x", "x(", ")(", "and", "lambda",
          ".sum()", "//", "%", "^", ",", "|", "\t", "xsin", "abs", "sum(", "beta"]


def _slow(text: str, variables: list[str]):
    """The reading by rewriting: a trailing tab keeps the reader from taking the text as written, and does not
    change its tokens."""
    return read(text + "\t", variables)


@pytest.mark.long
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


# ---------------------------------------------------------------------------- check's runs by the program's tape
VALUES = np.array([-8.0, -2.5, -1.0, -0.3, -0.0, 0.0, 1e-8, 0.5, 1.0, 2.0, 7.25, np.inf, -np.inf, np.nan])


def _bits(array: np.ndarray) -> bytes:
    """The values' bits, every nan alike (JSON writes each as nan)."""
    array = np.array(array, dtype=np.float64)
    array[np.isnan(array)] = np.nan
    return array.tobytes()


def _runs(text: str, dtype: str) -> tuple[list[bytes], list[bytes]]:
    """(root, gradients) of the tape's run and of the interpreter's, each as check's vector run makes them, with
    RealRoots (check's backend) and the engine's own."""
    fast: list[bytes] = []
    slow: list[bytes] = []
    for backend in (BACKEND, None):
        with engine.settings(default_dtype=dtype), np.errstate(all="ignore"):
            bindings = [Binding("x", VALUES.astype(dtype), True), Binding("y", VALUES[::-1].astype(dtype), True)]
            program = Program(text, backend)
            assert program.tape_root(bind(bindings)) is not None  # the tape runs it
            for out, (root, leaves) in ((fast, program.run_root(bindings)),
                                        (slow, Program(text, backend).run(bindings)[:2])):
                grads = gradients(root, [leaves["x"], leaves["y"]], np.ones(root.shape))
                out += [_bits(root.numpy(force=True)), *(_bits(g) for g in grads)]
    return fast, slow


PROGRAMS = ["x**(1/3)", "x**(2/3) + y**0.2", "(x*y)**(-5/3)", "x**3*sin(y)", "2**x", "(-8)**(1/3)*x", "x**y",
            "a = x**(1/3); a*y - a**2", "exp(-0.5*x**2)/sqrt(2*pi)", "x**0.5", "abs(x)**(1/3)", "-x**(4/5)",
            "log(1 + 0.5*x**2)", "sigmoid(1.742*x)*(1 - sigmoid(1.742*y))", "cbrt(x) - x**(1/3)"]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("text", PROGRAMS)
def test_the_tapes_run_is_the_interpreters_bit_for_bit(text, dtype):
    fast, slow = _runs(text, dtype)
    assert fast == slow


def test_an_expectation_by_the_tape_is_the_interpreters():
    for text in [*PROGRAMS, "2", "pi", "x + 1", "z * x"]:
        program = Program(text, BACKEND)
        with engine.settings(default_dtype="float64"), engine.no_grad(), np.errstate(all="ignore"):
            names = {"x": engine.tensor(VALUES, dtype="float64"), "y": engine.tensor(VALUES[::-1], dtype="float64")}
            fast = program.tape_root(dict(names))
            if text in ("2", "pi", "z * x"):  # a number, an unbound name: the interpreter's to say
                assert fast is None
                continue
            slow, _, _ = Program(text, BACKEND).run([Binding(n, t, False) for n, t in names.items()])
            assert _bits(fast.numpy(force=True)) == _bits(slow.numpy(force=True)), text


SPECIAL = st.sampled_from([0.0, -0.0, 1e-9, -1e-9, 1e-300, 5e-324, 1.0, -1.0, 1e308, np.inf, -np.inf, np.nan])
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | SPECIAL


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(FLOATS, FLOATS), min_size=1, max_size=20), st.sampled_from([(1e-5, 1e-8), (1e-4, 1e-5),
                                                                                      (0.0, 0.0), (0.5, 0.0)]))
def test_few_values_are_compared_as_numpy_compares_them(pairs, tolerance):
    values, reference = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    for (a, b), each in zip(pairs, compare_each(values, reference, *tolerance)):
        alone = compare(np.array(a), np.array(b), *tolerance)
        assert (each.ok, each.max_abs_error, each.max_rel_error, each.worst_error) == \
            (alone.ok, alone.max_abs_error, alone.max_rel_error, alone.worst_error)


TEMPLATES = ["{a}*x**3*sin({b}*x)", "x**({a})", "({a}*x + {b})**(1/3) - {a}", "-{a}*x/(1 + {b}*x**2)**2",
             "exp(-{a}*x**2)*{b}", "{a} - {b}", "x**{i} + {i}*x"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(TEMPLATES), st.floats(-5, 5), st.floats(0.001, 3), st.integers(0, 12))
def test_a_formula_of_a_shape_seen_before_runs_as_its_own_tree(template, a, b, i):
    text = template.format(a=round(a, 4), b=round(b, 3), i=i)
    with engine.settings(default_dtype="float64"), np.errstate(all="ignore"):
        bindings = [Binding("x", VALUES, True)]
        Program(template.format(a=1.5, b=0.25, i=2), BACKEND).run_root(bindings)  # the shape's first formula
        program = Program(text, BACKEND)
        fast, leaves = program.run_root(bindings)
        slow, own, _ = Program.parsed_as(parse(text), BACKEND).run(bindings)
        assert _bits(fast.numpy(force=True)) == _bits(slow.numpy(force=True)), text
        assert _bits(gradients(fast, [leaves["x"]], np.ones(fast.shape))[0]) == \
            _bits(gradients(slow, [own["x"]], np.ones(slow.shape))[0])
