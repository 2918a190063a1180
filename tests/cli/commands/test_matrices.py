"""`autodiff jacobian` and `autodiff hessian`: exact values, shapes as torch.autograd.functional gives them,
and a live comparison with it when torch is installed."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest


def _json(cli, *args: str) -> dict:
    out = cli(*args, "--format", "json", "--dtype", "float64")
    assert out.code == 0, out.stderr
    return json.loads(out.stdout)


def test_jacobian_of_a_vector_function(cli):
    document = _json(cli, "jacobian", "stack([x**2 * y, 5*x + sin(y)])", "x=1", "y=2")
    assert document == {"jacobian": {"x": [4.0, 5.0], "y": [1.0, math.cos(2.0)]}}


def test_jacobian_shapes_are_root_shape_plus_variable_shape(cli):
    document = _json(cli, "jacobian", "A @ x", "--var", "A=[[1, 2], [3, 4]]", "--var", "x=[1, -1]")
    assert np.array(document["jacobian"]["x"]).shape == (2, 2)
    assert np.array(document["jacobian"]["A"]).shape == (2, 2, 2)
    assert document["jacobian"]["A"] == [[[1.0, -1.0], [0.0, 0.0]], [[0.0, 0.0], [1.0, -1.0]]]


def test_hessian_blocks(cli):
    document = _json(cli, "hessian", "x**2 * y + y**3", "x=1", "y=2")
    assert document == {"hessian": {"x": {"x": 4.0, "y": 2.0}, "y": {"x": 2.0, "y": 12.0}}}


def test_hessian_text_is_the_full_symmetric_matrix(cli):
    out = cli("hessian", "x**2 * y + y**3", "x=1", "y=2", "--format", "plain")
    assert out.stdout == ("hessian of root over x, y: 2 x 2 (symmetric)\n"
                          "      x   y\n"
                          "  x   4   2\n"
                          "  y   2  12\n")


def test_hessian_needs_a_scalar_root(cli):
    out = cli("hessian", "x**2", "--var", "x=[1, 2]")
    assert out.code == 2 and "the Hessian needs a scalar root" in out.stderr


def test_an_unknown_wrt_is_a_usage_error(cli):
    out = cli("jacobian", "x**2", "x=1", "--wrt", "z")
    assert out.code == 2 and "--wrt z: not a variable" in out.stderr


@pytest.mark.parametrize(("program", "inputs"), [
    ("stack([x**2 * y, 5*x + sin(y)])", {"x": 1.0, "y": 2.0}),
    ("(A @ x).tanh()", {"A": [[1.0, 2.0], [3.0, -1.0]], "x": [0.5, -0.25]}),
    ("softmax(x, 0) * y", {"x": [0.1, 0.5, -0.3], "y": [1.0, 2.0, 3.0]}),
])
def test_jacobian_matches_torch(cli, program, inputs):
    torch = pytest.importorskip("torch")
    from torch.autograd.functional import jacobian

    args = [a for name, value in inputs.items() for a in ("--var", f"{name}={json.dumps(value)}")]
    got = _json(cli, "jacobian", program, *args)["jacobian"]
    tensors = tuple(torch.tensor(v, dtype=torch.float64) for v in inputs.values())
    fns = {
        "stack([x**2 * y, 5*x + sin(y)])": lambda x, y: torch.stack([x**2 * y, 5 * x + torch.sin(y)]),
        "(A @ x).tanh()": lambda A, x: (A @ x).tanh(),
        "softmax(x, 0) * y": lambda x, y: torch.softmax(x, 0) * y,
    }
    expected = jacobian(fns[program], tensors)
    for name, block in zip(inputs, expected):
        np.testing.assert_allclose(np.array(got[name]), block.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(("program", "inputs"), [
    ("x**2 * y + y**3", {"x": 1.0, "y": 2.0}),
    ("(x**3).sum() * sin(y)", {"x": [1.0, 2.0], "y": 0.5}),
    ("(A @ x).tanh().sum()", {"A": [[1.0, 2.0], [3.0, -1.0]], "x": [0.5, -0.25]}),
])
def test_hessian_matches_torch(cli, program, inputs):
    torch = pytest.importorskip("torch")
    from torch.autograd.functional import hessian

    args = [a for name, value in inputs.items() for a in ("--var", f"{name}={json.dumps(value)}")]
    got = _json(cli, "hessian", program, *args)["hessian"]
    fns = {
        "x**2 * y + y**3": lambda x, y: x**2 * y + y**3,
        "(x**3).sum() * sin(y)": lambda x, y: (x**3).sum() * torch.sin(y),
        "(A @ x).tanh().sum()": lambda A, x: (A @ x).tanh().sum(),
    }
    tensors = tuple(torch.tensor(v, dtype=torch.float64) for v in inputs.values())
    expected = hessian(fns[program], tensors)
    names = list(inputs)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            np.testing.assert_allclose(np.array(got[a][b]), expected[i][j].numpy(), rtol=1e-12, atol=1e-14)


def test_hessian_symbolic_writes_each_second_derivative_once(cli):
    out = cli("hessian", "x**2*y**3", "--symbolic", "--format", "plain")
    assert out.code == 0, out.stderr
    assert out.stdout == ("hessian of x**2*y**3 over x, y: formulas\n"
                          "  d2/dx2     = 2*y**3\n"
                          "  d/dy d/dx  = 6*x*y**2\n"
                          "  d2/dy2     = 6*x**2*y\n")


def test_hessian_symbolic_at_a_point_agrees_with_the_matrix(cli):
    document = _json(cli, "hessian", "x^2 y^3 + sin(x*y)", "x=1", "y=2", "--symbolic")
    assert set(document) == {"hessian", "formulas"}
    assert document["formulas"]["x"]["y"] == document["formulas"]["y"]["x"]
    point = {"x": 1.0, "y": 2.0}
    for a in "xy":
        for b in "xy":
            assert document["hessian"][a][b] == pytest.approx(_value(document["formulas"][a][b], point), rel=1e-12)


def _value(text: str, point: dict[str, float]) -> float:
    """A formula of the language at a point, by the evaluator (float64)."""
    from autodiff import engine
    from autodiff.grammar.interpreter import Interpreter
    from autodiff.grammar.syntax import parse

    interpreter = Interpreter()
    interpreter.names.update({n: engine.tensor(v, dtype="float64") for n, v in point.items()})
    return float(interpreter.run(parse(text)).root.item())


def test_hessian_symbolic_needs_scalar_variables(cli):
    out = cli("hessian", "(x**3).sum()", "--var", "x=[1, 2]", "--symbolic", "--format", "json")
    assert out.code == 2
    assert json.loads(out.stdout)["error"]["message"] == ("--symbolic writes the Hessian of scalar variables: x has "
                                                          "shape (2,)")
