"""`eval --batch` answers lines of one elementwise program together (app/stacking.py, cli/commands/eval_batch.py);
none of that may change a byte: every output is compared with the same batch answered line by line (the runs
together switched off), and lines with one-shot `eval --format json`. Programs and values come from Hypothesis
(elementwise ones, and others that must go alone), with bad lines, lines of other programs and lines with
settings of their own in between."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff.app import stacking
from autodiff.cli.commands import eval_batch
from autodiff.cli.output import jsonout

from ..conftest import run_cli

FUNCTIONS = sorted(["sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "sigmoid", "atan", "asin", "acos", "sinh",
                    "cosh", "asinh", "acosh", "atanh", "log1p", "expm1", "exp2", "log2", "log10", "ln", "arctan",
                    "sec", "csc", "cot", "rsqrt", "cbrt", "abs", "erf", "erfc", "square", "reciprocal"])

leaves = st.sampled_from(["x", "x", "y", "2", "0.5", "3", "pi", "e", "1e-4"])
programs = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "**"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(FUNCTIONS), inner).map(lambda t: f"{t[0]}({t[1]})"),
        inner.map(lambda a: f"-{a}")),
    max_leaves=6)
numbers = st.one_of(st.floats(-3, 3, allow_nan=False), st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(-5, 5), st.integers(-(2**40), 2**40), st.sampled_from([0.0, -0.0, 1e-8, 1e30]))
bad_lines = st.sampled_from(['{"x": "a"}', "{not json", "[1, 2]", '{"x": [1, 2]}', '{"program": "x +", "x": 1}',
                            '{"z": 1}', "", '{"x": 1e400}', '{"x": 2, "order": 0}', '{"x": 1, "dtype": "float64"}',
                            '{"x": 1, "y": 2, "order": 2}', '{"x": true}', '{"program": "x.sum()", "x": 1}',
                            '{"program": "sin(x)", "sin": 1, "x": 2}', '{"program": "rand(1) * x", "x": 1, "seed": 3}',
                            '{"program": "grand * 2", "grand": 1e-3}', '{"program": "exp(x) - 1 - x", "x": 1e-4}'])


def _line(program: str | None, x: float, y: float | None) -> str:
    line: dict = {} if program is None else {"program": program}
    line["x"] = x
    if y is not None:
        line["y"] = y
    return json.dumps(line)


lines_strategy = st.lists(st.one_of(
    st.builds(_line, st.none(), numbers, numbers), st.builds(_line, programs, numbers, numbers),
    st.builds(_line, st.none(), numbers, st.none()), bad_lines), min_size=1, max_size=25)


def _alone(monkeypatch: pytest.MonkeyPatch, *args: str, input: str):
    """The batch answered line by line: no runs together."""
    with monkeypatch.context() as patched:
        patched.setattr(eval_batch.Together, "__call__", lambda self, chunk: {})
        return run_cli(*args, input=input)


def _same(monkeypatch: pytest.MonkeyPatch, *args: str, input: str) -> str:
    together = run_cli(*args, input=input)
    alone = _alone(monkeypatch, *args, input=input)
    assert (together.code, together.stdout, together.stderr) == (alone.code, alone.stdout, alone.stderr)
    return together.stdout


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(programs, lines_strategy)
def test_lines_together_write_what_lines_alone_write(monkeypatch, program, lines):
    _same(monkeypatch, "eval", program, "--batch", "-", input="\n".join(lines) + "\n")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(programs, st.lists(st.tuples(numbers, numbers), min_size=1, max_size=4))
def test_a_line_answers_what_eval_format_json_prints_alone(program, values):
    batch = run_cli("eval", program, "--batch", "-", input="".join(_line(None, x, y) + "\n" for x, y in values))
    for number, ((x, y), answer) in enumerate(zip(values, batch.stdout.splitlines()), 1):
        alone = run_cli("eval", program, f"x={_literal(x)}", f"y={_literal(y)}", "--format", "json")
        if alone.code == 0:
            assert answer == f'{{"line": {number}, ' + alone.stdout.strip()[1:]


def _literal(value: float) -> str:
    """The value as the language reads it on the command line (nan, inf and -inf are its constants)."""
    text = repr(value)
    return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(text, text)


def test_the_benchmarks_kinds_of_lines_go_together_and_write_the_same(monkeypatch):
    counted = _count_together(monkeypatch)
    lines = [_line(None, round(-2 + i / 50, 6), None) for i in range(200)]
    out = _same(monkeypatch, "eval", "(2*x)**3 + sin(x)", "--batch", "-", input="\n".join(lines) + "\n")
    assert len(out.splitlines()) == 200
    assert counted == [200]  # all of them, in one chunk (the input was waiting)
    mixed = [_line(f"{1 + i % 7 * 0.25}*x**3*sin({0.5 + i % 3}*x)", round(-2 + i / 50, 6), None) for i in range(200)]
    _same(monkeypatch, "eval", "--batch", "-", input="\n".join(mixed) + "\n")
    assert counted == [200, 200]


def _count_together(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many lines each chunk answered together (a list that grows as the batch runs)."""
    counted: list[int] = []
    original = eval_batch.Together.__call__

    def counting(self, chunk):
        answered = original(self, chunk)
        counted.append(len(answered))
        return answered

    monkeypatch.setattr(eval_batch.Together, "__call__", counting)
    return counted


def test_warnings_of_lines_together_are_each_lines_own(monkeypatch):
    lines = ['{"x": 1e-4}', '{"x": 0.5}', '{"x": NaN}', '{"x": Infinity}', '{"x": -Infinity}', '{"x": 1e-6}']
    out = _same(monkeypatch, "eval", "exp(x) - 1 - x", "--batch", "-", input="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert ["warnings" in a for a in answers] == [True, False, True, True, True, True]
    assert "float32 has lost the digits" in answers[0]["warnings"][0]
    assert answers[2]["warnings"] == ["x is nan: every value computed from it is nan (not a number), not a limit"]
    # a program whose text says "rand" is not checked (its draws would differ): neither are its lines together
    out = _same(monkeypatch, "eval", "exp(grand) - 1 - grand", "--batch", "-", input='{"grand": 1e-4}\n')
    assert "warnings" not in json.loads(out)


@pytest.mark.parametrize("options", [["--trace"], ["--order", "2"], ["--dtype", "float64"], ["--const", "c=2"],
                                     ["--retain-graph"], ["--seed", "4"], ["--explain"], ["--repeat", "2"]])
def test_options_that_change_the_answer_write_the_same(monkeypatch, options):
    lines = "\n".join(_line(None, v, None) for v in (0.5, -1.25, 2.0, 1e-4)) + "\n"
    program = "sin(x) * x + c" if "--const" in options else "sin(x) * x"
    _same(monkeypatch, "eval", program, *options, "--batch", "-", input=lines)


def test_a_remembered_proof_is_one_programs_with_its_variables(monkeypatch):
    """The proofs kept between chunks are keyed by the program's text and the line's names: the same text with
    other names, or a name that shadows a function, goes by its own proof."""
    lines = ['{"program": "x*y", "x": 1, "y": 2}', '{"program": "x*y", "x": 1}', '{"program": "x*y", "y": 1, "x": 3}',
             '{"program": "sin(x)", "x": 1}', '{"program": "sin(x)", "sin": 2, "x": 1}', '{"program": "x*y", "x": 4,'
             ' "y": 5}', '{"program": "sin(x)", "x": 2}']
    out = _same(monkeypatch, "eval", "--batch", "-", input="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a.get("root", {}).get("value") for a in answers] == [2.0, None, 3.0, 0.841471, None, 20.0, 0.9092974]
    assert answers[2]["grads"] == {"y": 3.0, "x": 1.0}  # the line's own order of names
    assert answers[1]["error"]["kind"] == "name"


def test_a_program_that_is_not_one_value_a_line_goes_alone(monkeypatch):
    """sin(2) does not depend on x: the run together gives one value, not one a line, and each line is answered
    alone (its root does not require grad)."""
    out = _same(monkeypatch, "eval", "sin(2) + 0*2", "--batch", "-", input='{"x": 1}\n{"x": 2}\n')
    assert [json.loads(line)["passes"] for line in out.splitlines()] == [[], []]


def test_plain_numbers_only():
    assert stacking.plain_number(1.5) and stacking.plain_number(-3) and stacking.plain_number(2**24)
    assert not stacking.plain_number(2**24 + 1) and not stacking.plain_number(True)
    assert not stacking.plain_number([1.0]) and not stacking.plain_number(None)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(width=32), min_size=1, max_size=40), st.sampled_from(["float32", "float64"]))
def test_the_numbers_of_all_lanes_are_each_numbers_value(values, dtype):
    array = np.array(values, dtype=dtype)
    assert json.dumps(jsonout.numbers(array)) == json.dumps([jsonout.values(np.asarray(v)) for v in array])
