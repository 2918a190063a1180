"""The op table is the single source: each backward formula's `text` (what `autodiff ops` and `--explain`
show) is evaluated with the language itself and compared with the formula's function, on random inputs.

A text that is prose rather than an expression ("grad where self > other (half on ties)") is listed in
PROSE below, so that a new formula cannot slip in untested: the set must match exactly."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine as E
from autodiff.engine import OPS
from autodiff.engine.core.vocabulary import NumpyMath
from autodiff.grammar.interpreter import Interpreter
from autodiff.grammar.syntax import parse

# Parameters an op needs, with values inside every formula's domain.
PARAMS = {"pow": {"exponent": 2.5}, "rsub": {"other": 1.5, "alpha": 2.5}, "pow_scalar_base": {"base": 2.0},
          "add_alpha": {"alpha": 2.5}, "sub_alpha": {"alpha": -1.5}, "rsub_tensor": {"alpha": 0.75},
          "round_decimals": {"decimals": 1}, "leaky_relu": {"negative_slope": 0.2},
          "elu": {"alpha": 1.5, "scale": 1.25, "input_scale": 0.5}, "celu": {"alpha": 1.5},
          "softplus": {"beta": 2.0, "threshold": 3.0}, "hardtanh": {"min_val": 0.5, "max_val": 2.0},
          "lerp": {"weight": 0.3}, "threshold": {"threshold": 1.0, "value": -2.0}, "hardshrink": {"lambd": 1.0},
          "softshrink": {"lambd": 1.0}}
# Ops whose formulas are shown in words or in terms of shapes: checked elsewhere (golden and live tests).
PROSE = {
    ("maximum", 0), ("maximum", 1), ("minimum", 0), ("minimum", 1), ("relu", 0), ("clamp", 0), ("where", 0),
    ("where", 1), ("div_mode", 0), ("div_mode", 1), ("fmax", 0), ("fmax", 1), ("fmin", 0), ("fmin", 1), ("gelu", 0),
    ("clamp_min", 0), ("clamp_max", 0),
    ("xlogy", 0),  # xlogy(grad, other) with masks
    ("floor_divide", 0), ("floor_divide", 1),  # no derivative: an error (test_alpha_and_floor_divide.py)
    ("glu", 0),  # over the two halves of a dim
}
ELEMENTWISE_GROUPS = {"Arithmetic", "Elementwise functions", "Activation functions"}


def _formulas() -> list[tuple[str, int]]:
    return [(op.name, i) for op in OPS.values() if op.group in ELEMENTWISE_GROUPS for i in range(len(op.grads))]


def _evaluable(text: str) -> bool:
    try:
        parse(text)
    except E.AutodiffError:
        return False
    return True


def test_the_prose_formulas_are_exactly_the_listed_ones():
    prose = {(name, i) for name, i in _formulas() if not _evaluable(OPS[name].grads[i].text)}
    assert prose == PROSE


@pytest.mark.parametrize(("name", "index"), [f for f in _formulas() if f not in PROSE],
                         ids=[f"{n}-{i}" for n, i in _formulas() if (n, i) not in PROSE])
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_formula_text_computes_what_the_formula_computes(name, index, data):
    op = OPS[name]
    params = PARAMS.get(name, {})
    values = {slot: np.array(data.draw(st.lists(st.floats(0.25, 3.0), min_size=3, max_size=3)))
              for slot in op.inputs}
    grad = np.array(data.draw(st.lists(st.floats(-2.0, 2.0), min_size=3, max_size=3)))
    result = np.asarray(op.forward(*values.values(), **params))
    saved = SimpleNamespace(**values, **params, result=result, input_shape=(3,), input_shapes=((3,),) * len(values),
                            input_dtype=np.dtype(np.float64))
    expected = np.broadcast_to(np.asarray(op.grads[index].fn(NumpyMath, grad, saved), dtype=np.float64), (3,))

    evaluator = Interpreter()
    bound = {**values, "grad": grad, "result": result}
    evaluator.names.update({n: E.tensor(v, dtype="float64") for n, v in bound.items()})
    evaluator.names.update(params)
    (statement,) = parse(op.grads[index].text).statements
    previous = E.get_default_dtype()
    E.set_default_dtype("float64")  # numbers in the text (log(base)) in float64, as the formula computes them
    try:
        value = E.tensor(evaluator.expression(statement.value))
    finally:
        E.set_default_dtype(previous)
    got = np.broadcast_to(np.asarray(value.numpy(force=True), dtype=np.float64), (3,))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
