"""app/noise.py's eval_noise: the float32 and float64 runs of a program on float32-rounded inputs, forward only."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine
from autodiff.app.noise import eval_noise
from autodiff.app.session import Binding, EvalRequest


def _request(program: str, x: float) -> EvalRequest:
    return EvalRequest(program, [Binding("x", x, True)])


def test_cancellation_is_found_and_a_plain_value_is_not():
    found = eval_noise(_request("(exp(x) - 1 - x)/x**2", 1e-5))
    assert found is not None
    high, low = found
    assert high == pytest.approx(0.5, rel=1e-4)  # float64 keeps a few digits at 1e-5; float32 none
    assert abs(low - high) > 0.5 * abs(high)
    assert eval_noise(_request("(exp(x) - 1 - x)/x**2", 0.1)) is None
    assert eval_noise(_request("x**2", 3.0)) is None


def test_the_float32_root_given_is_used_and_no_backward_runs():
    seen = []
    with engine.observe(lambda *step: seen.append(step)):
        assert eval_noise(_request("(exp(x) - 1 - x)/x**2", 1e-5), np.asarray(np.float32(-3.0))) is not None
        assert eval_noise(_request("(exp(x) - 1 - x)/x**2", 1e-5), np.asarray(np.float32(0.5))) is None
    assert seen == []  # the check needs the root only


def test_a_program_that_fails_is_not_checked():
    assert eval_noise(_request("x + undefined_name", 1.0)) is None
    assert eval_noise(_request("x[0]", 1.0)) is None
