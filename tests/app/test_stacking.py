"""app/stacking.py: K lines of an elementwise program run as one vector give, lane by lane, the bits of each
line's own runs: the float32 run with its backward pass, the float64 re-run (the precision check's) and the float64
run on float32-rounded inputs (the noise check's); for every elementwise function the proof admits, on values
across their domains (numpy's kernels must compute an element alike in a vector of one and of many)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine
from autodiff.app.config import Config
from autodiff.app.noise import lost, lost_one
from autodiff.app.session import Binding, EvalRequest, parsed, run_eval
from autodiff.app.stacking import lost_digits_by_lane, noise_by_lane, run_together, stackable
from autodiff.grammar.syntax import ELEMENTWISE_FUNCTIONS

VALUES = np.concatenate([np.linspace(-3, 3, 61), [0.0, -0.0, 1e-8, -1e-30, 0.5, 0.999, 1.0, 1.001, 7.5, -20.0, 88.0,
                                                   1e30, np.inf, -np.inf, np.nan],
                         np.random.default_rng(0).uniform(-10, 10, 60)])


def _bits(array: np.ndarray | None) -> bytes | None:
    """The bits of the values, every nan alike (a nan's sign and payload are not part of any answer: JSON says
    "nan"; and IEEE leaves them to the instructions, which differ between numpy's loops)."""
    if array is None:
        return None
    array = np.array(array)
    array[np.isnan(array)] = np.nan
    return array.tobytes()


def _alone(program: str, values: np.ndarray, dtype: str, rounded: bool = False) -> list[tuple]:
    """Each value's own run: (root, x.grad) as bytes."""
    out = []
    with Config(dtype).applied():
        for value in values:
            v = float(np.float32(value)) if rounded else float(value)
            result = run_eval(EvalRequest(program, [Binding("x", v, True)]))
            out.append((_bits(result.root.numpy(force=True)), _bits(result.grads["x"])))
    return out


@pytest.fixture(autouse=True)
def _float32():
    with np.errstate(all="ignore"), Config("float32").applied():
        yield


@pytest.mark.parametrize("function", sorted(ELEMENTWISE_FUNCTIONS))
def test_every_lane_is_the_lines_own_run_bit_for_bit(function):
    program = f"y = {function}(x); y * x + {function}(2 * x) - 0.5"
    tape = stackable(parsed(program), ["x"])
    assert tape is not None
    lanes = run_together(tape, ["x"], [VALUES.astype(np.float64)], Config("float32"))
    assert lanes is not None
    low, high = _alone(program, VALUES, "float32"), _alone(program, VALUES, "float64")
    noise = _alone(program, VALUES, "float64", rounded=True)
    for lane, value in enumerate(VALUES):
        assert (_bits(lanes.root[lane]), _bits(lanes.grads["x"][lane])) == low[lane], (function, value, "float32")
        assert (_bits(lanes.root64[lane]), _bits(lanes.grads64["x"][lane])) == high[lane], (function, value)
        assert _bits(lanes.noise64[lane]) == noise[lane][0], (function, value, "noise")
    assert lanes.grads["y"] is None and lanes.root_name is None and lanes.requires_grad


def test_the_checks_by_lane_are_the_checks_of_each_line():
    from autodiff.app.noise import eval_noise
    from autodiff.app.precision import lost_digits

    program = "exp(x) - 1 - x"
    values = np.array([1e-4, 0.5, 1e-6, -3e-4, 2.0, np.nan])
    lanes = run_together(stackable(parsed(program), ["x"]), ["x"], [values], Config("float32"))
    lost, noisy = lost_digits_by_lane(lanes), noise_by_lane(lanes)
    for lane, value in enumerate(values):
        request = EvalRequest(program, [Binding("x", float(value), True)])
        result = run_eval(request)
        again = lost_digits(result, lambda v=value: EvalRequest(program, [Binding("x", float(v), True)]),
                            Config("float32"))
        assert lost[lane] == again
        found = eval_noise(request, result.root.numpy(force=True))
        assert bool(noisy[lane]) == (found is not None)
    assert lost[0] and noisy[0] and not lost[1] and not noisy[1]


@pytest.mark.parametrize("program", ["sin(2) * 3", "x", "2 + 0 * pi"])
def test_a_root_that_is_not_one_value_a_lane_or_a_leaf(program):
    lanes = run_together(stackable(parsed(program), ["x"]), ["x"], [np.array([1.0, 2.0])], Config("float32"))
    if program == "x":  # the leaf itself: its gradient is 1 in every lane
        assert lanes is not None and lanes.grad_fn is None and list(lanes.grads["x"]) == [1.0, 1.0]
    else:
        assert lanes is None


def test_a_failing_run_gives_none():
    engine.set_max_elements(3)
    try:
        tape = stackable(parsed("sin(x)"), ["x"])
        assert run_together(tape, ["x"], [np.arange(4.0)], Config("float32", None, 3)) is None
    finally:
        engine.set_max_elements(None)


@pytest.mark.parametrize("program", ["not x", "~x", "x if x else 1", "sin(x, 2)", "sin(input=x)", "x.sum()", "x @ x",
                                     "x % 2", "sin = x; sin", "max(x)", "rand(1) * x"])
def test_programs_that_are_not_run_together(program):
    assert stackable(parsed(program), ["x"]) is None


@pytest.mark.parametrize("program", ["-2*x", "x**-2", "pi*x + e", "e*x", "abs(x) - 1", "y = x*x; z = y + x; z/y",
                                     "2**x", "2*3*x + 2**0.5", "ln(x) + arcsinh(x)"])
def test_the_tape_makes_the_interpreters_calls(program):
    """The tape's values are the interpreter's (the bit-for-bit comparison above runs it on every function)."""
    values = np.array([0.5, 1.5, -2.0])
    variables = ["x", "e"] if program == "e*x" else ["x"]
    columns = [values, values + 1][:len(variables)]
    lanes = run_together(stackable(parsed(program), variables), variables, columns, Config("float32"))
    for lane in range(len(values)):
        bindings = [Binding(name, float(column[lane]), True) for name, column in zip(variables, columns)]
        result = run_eval(EvalRequest(program, bindings))
        assert _bits(lanes.root[lane]) == _bits(result.root.numpy(force=True))
        assert [_bits(None if g is None else g[lane]) for g in lanes.grads.values()] == \
            [_bits(g) for g in result.grads.values()]
        assert list(lanes.grads) == list(result.grads)


pairs = st.one_of(st.floats(width=32), st.floats(), st.sampled_from([0.0, -0.0, 1e-31, 1e-29, 1e29, 1e31, 3e38]))


@settings(max_examples=500, deadline=None)
@given(pairs, pairs)
def test_lost_one_is_lost_of_one_pair(low, high):
    assert lost_one(low, high) == bool(lost(np.asarray(low), np.asarray(high)))
