"""app/together.py: checks of formulas of one shape, run together with their numbers in lanes, get bit for bit
what each check's own run gives (values, gradients of both orders, expectations), whatever the numbers (signs,
zeros, huge and tiny ones), wherever they stand (multiplied, added, divided by, divided into, powers, calls)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine
from autodiff.app.checking import CheckRequest, Expectation, prepare_check, run_together, together_key, vector_run
from autodiff.app.comparison import Variable
from autodiff.engine import manual_seed

# (program, expectation) templates of numbers {a}, {b}, {c}; a number may be negative (written -1.5)
TEMPLATES = [
    ("{a}*x**3*sin({b}*x)", "{a}*(3*x**2*sin({b}*x) + {b}*x**3*cos({b}*x))"),
    ("exp(-{a}*x**2)", "-2*{a}*x*exp(-{a}*x**2)"),
    ("x/({a} + x**2)", "({a} - x**2)/({a} + x**2)**2"),
    ("{a}/x + {b}", "-{a}/x**2"),
    ("{a}*{b}*x - {c}", "{a}*{b} + 0*x"),
    ("({a} - {b}*{c})*x + {c}", "{a} - {b}*{c}"),
    ("x/{a}*{b}", "{b}/{a} + x - x"),
    ("(x + {a})**3", "3*(x + {a})**2"),
    ("{a}**2*x + x**2.5", "{a}**2 + 2.5*x**1.5"),
    ("x**{a}", "{a}*x**({a} - 1)"),
    ("sqrt(abs({a}))*x + sin({b})", "sqrt(abs({a}))"),
    ("-{a}*x - -{b}", "-{a}"),
    ("2*{a}*x/(1 + {a}*x**2)", "(2*{a}*(1 + {a}*x**2) - 4*{a}**2*x**2)/(1 + {a}*x**2)**2"),
    ("x*0.0 + {a} + 3*x", "3"),
    ("(x + {a})**(1/3) * {b}", "{b}/(3*(x + {a})**(2/3))"),
    ("x*y*{a} + {b}*y", "y*{a}"),
]
NUMBERS = st.floats(-1e3, 1e3, allow_nan=False).map(lambda v: round(v, 3)) | st.sampled_from(
    [0.0, -0.0, 1.5, -2.25, 1e-300, 1e300, -1e300, 7e-8, 0.1, 3.0])


def _request(program: str, expect: str, x: float, seed: int, samples: int, dtype: str) -> CheckRequest:
    variables = [Variable("x", repr(x)), Variable("y", "0.75")]
    return CheckRequest(program, variables, [Expectation("x", expect)], dtype=dtype, samples=samples, seed=seed)


def _bits(lanes) -> list[bytes]:
    arrays = [lanes.values, *lanes.grads, *lanes.expected]
    return [np.where(np.isnan(a), np.nan, a).tobytes() for a in arrays]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TEMPLATES), st.lists(st.tuples(NUMBERS, NUMBERS, NUMBERS, NUMBERS), min_size=2, max_size=6),
       st.sampled_from(["float64", "float32"]), st.sampled_from([2, 5, 9]), st.sampled_from([1, 2]))
def test_checks_run_together_get_their_own_runs_bit_for_bit(template, numbers, dtype, samples, order):
    prepared = []
    for i, (a, b, c, x) in enumerate(numbers):
        program, expect = (t.format(a=a, b=b, c=c) for t in template)
        request = _request(program, expect, x, i, samples, dtype)
        request.order = order
        manual_seed(i)
        prepared.append(prepare_check(request))
    keys = {}
    for p in prepared:
        keys.setdefault(together_key(p), []).append(p)
    for group in keys.values():
        together = run_together(group)
        for check, lanes in zip(group, together or []):
            with engine.settings(default_dtype=dtype), np.errstate(all="ignore"):
                alone = vector_run(check.program, check.derivatives, check.variables, check.stacked, check.samples,
                                   order)
            assert (alone is None) == (lanes is None)
            if alone is not None:
                assert _bits(lanes) == _bits(alone), check.request.program


def test_numbers_that_would_differ_in_lanes_are_shared_instead():
    def key(program: str, expect: str = "1", dtype: str = "float64") -> tuple | None:
        return together_key(prepare_check(_request(program, expect, 0.5, 1, 5, dtype)))

    assert key("1.5*x") == key("2.5*x") and key("x/1.5") == key("x/2.5") and key("-1.5*x") == key("-2.5*x")
    assert key("1.5/x") != key("2.5/x")  # a number divided by x is reciprocal(x) * number
    assert key("x**1.5") != key("x**2.5") and key("1.5**2*x") != key("2.5**2*x") and key("sin(1.5)*x") != \
        key("sin(2.5)*x")
    assert key("2*x") != key("3*x")  # whole numbers are shared
    assert key("1.5*x", dtype="float32") != key("2.5*x", dtype="float32")  # float32: no lanes
    assert key("1.5*x", "1.5 + 0*x") == key("2.5*x", "2.5 + 0*x")
    assert key("1.5*x", "1.5") != key("2.5*x", "2.5")  # a number alone meets no tensor
