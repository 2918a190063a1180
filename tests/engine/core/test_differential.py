"""Differential testing against PyTorch: Hypothesis generates small programs over the engine's vocabulary
(elementwise functions, arithmetic with numbers and tensors, reductions, views, index writes, in-place
fills, several backward passes with retain_graph, create_graph) and runs each with torch and with the
engine, comparing values, every .grad after every pass, the graph's node names and next_functions, and
the kind of error when one is raised. Skipped without torch.

Budget: 60 programs in the default run; AUTODIFF_DIFF_EXAMPLES=N for a longer hunt (e.g. 3000).
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff import engine as E

from ..caseload import load_cases

torch = pytest.importorskip("torch")


cases = load_cases()

EXAMPLES = int(os.environ.get("AUTODIFF_DIFF_EXAMPLES", "60"))
UNARY = ["exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "abs", "sign", "neg", "reciprocal"]
CALCULUS = ["asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "log1p", "expm1",
            "exp2", "erf", "erfc", "rsqrt", "floor", "ceil", "round", "trunc", "frac"]
BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "atan2", "hypot"]
REDUCE = ["sum", "mean", "prod", "std", "var", "logsumexp", "amax", "amin", "norm"]
NUMBERS = [0.0, 0.5, -1.5, 2.0, 3.0]
# Steps whose create_graph pass builds PyTorch's graph node for node (names and next_functions); for the
# others the values of that graph agree but its node names may not (README: differences).
DOUBLE_BACKWARD_NAMES = {("unary", name) for name in UNARY} \
    | {("binary", n) for n in ("add", "sub", "mul", "div", "pow", "maximum", "minimum")} \
    | {("number", n) for n in ("add", "sub", "mul", "div")} | {("reduce", n) for n in ("sum",)}


def _names_match(program: list[tuple]) -> bool:
    return all(step[:2] in DOUBLE_BACKWARD_NAMES for step in program)


def _unary(L: Any, name: str, x: Any) -> Any:
    return -x if name == "neg" else getattr(L, name)(x)


def _binary(L: Any, name: str, a: Any, b: Any) -> Any:
    if name == "add":
        return a + b
    if name == "sub":
        return a - b
    if name == "mul":
        return a * b
    if name == "div":
        return a / b
    if name == "pow":
        return a ** b
    return getattr(L, name)(a, b)


ALL_KINDS = ("unary", "binary", "number", "view", "fill", "write", "reduce")


@st.composite
def programs(draw: Any, kinds: tuple[str, ...] = ALL_KINDS, binary: tuple[str, ...] = tuple(BINARY),
             unary: list[str] | None = None) -> list[tuple]:
    """A straight-line program: each step makes a new value from earlier ones (value 0 and 1 are the leaves)."""
    steps: list[tuple] = []
    count = 2
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(kinds))
        a = draw(st.integers(0, count - 1))
        if kind == "unary":
            steps.append(("unary", draw(st.sampled_from(unary or UNARY + CALCULUS)), a))
        elif kind == "binary":
            steps.append(("binary", draw(st.sampled_from(binary)), a, draw(st.integers(0, count - 1))))
        elif kind == "number":
            steps.append(("number", draw(st.sampled_from([b for b in binary if b in BINARY[:4]])), a,
                          draw(st.sampled_from(NUMBERS)),
                          draw(st.booleans())))
        elif kind == "view":
            steps.append(("view", draw(st.sampled_from(["slice", "select", "t", "alias"])), a))
        elif kind == "fill":
            steps.append(("fill", draw(st.sampled_from(["zero_", "fill_"])), a))
        elif kind == "write":
            steps.append(("write", a, draw(st.integers(0, count - 1))))
        else:
            steps.append(("reduce", draw(st.sampled_from(REDUCE if "view" in kinds else ["sum"])), a))
        count += 1
    return steps


def _run(L: Any, program: list[tuple], inputs: list[np.ndarray], passes: int, create_graph: bool) -> dict:
    """Run the program with library L: the root's value, graph and the leaves' grads after each pass, or the
    kind of the error (as the README's kinds name it)."""
    leaves = [L.tensor(x, dtype=L.float64, requires_grad=True) for x in inputs]
    values: list[Any] = list(leaves)
    out: dict[str, Any] = {}
    try:
        for step in program:
            if step[0] == "unary":
                values.append(_unary(L, step[1], values[step[2]]))
            elif step[0] == "binary":
                values.append(_binary(L, step[1], values[step[2]], values[step[3]]))
            elif step[0] == "number":
                a, n = values[step[2]], step[3]
                values.append(_binary(L, step[1], n, a) if step[4] else _binary(L, step[1], a, n))
            elif step[0] == "view":
                x = values[step[2]]
                if step[1] == "slice":
                    values.append(x[1:])
                elif step[1] == "select":
                    values.append(x[0])
                elif step[1] == "t":
                    values.append(x.t() if x.dim() <= 2 else x)
                else:
                    values.append(x[...])
            elif step[0] == "fill":
                x = values[step[2]]
                values.append(x.zero_() if step[1] == "zero_" else x.fill_(2.5))
            elif step[0] == "write":
                x, v = values[step[1]], values[step[2]]
                if x.dim() >= 1 and v.dim() == 0:
                    x[0] = v
                values.append(x)
            elif step[1] == "logsumexp":
                values.append(L.logsumexp(values[step[2]], 0) if values[step[2]].dim() else values[step[2]])
            else:
                values.append(getattr(values[step[2]], step[1])())
        root = values[-1].sum()
        out["value"] = np.asarray(root.detach().numpy(), dtype=np.float64).tolist()
        out["graph"] = cases.canonical_graph(root.grad_fn, leaves) if root.grad_fn is not None else []
        grads = []
        for i in range(passes):
            root.backward(retain_graph=i < passes - 1 or None, create_graph=create_graph)
            grads.append([None if t.grad is None else np.array(t.grad.detach().numpy() if L is torch
                                                               else t.grad.numpy(force=True), dtype=np.float64)
                          for t in leaves])
        out["grads"] = grads
        if create_graph:  # the graphs the backward pass built (PyTorch's double-backward node names)
            out["grad_graphs"] = [None if t.grad is None else
                                  (t.grad.requires_grad, cases.canonical_graph(t.grad.grad_fn, leaves)
                                   if t.grad.grad_fn is not None else []) for t in leaves]
    except Exception as error:
        out["error"] = _kind(error)
    return out


def _kind(error: Exception) -> str:
    if isinstance(error, E.AutodiffError):
        return error.kind
    message = str(error)
    if "inplace" in message or "in-place" in message or "backward through the graph" in message \
            or "does not require grad" in message:
        return "autograd"
    if "size of tensor" in message or "shape" in message:
        return "shape"
    return "value"


def _same(a: Any, b: Any) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(), shape=st.sampled_from([(3,), (2, 3)]), passes=st.integers(1, 2),
       create_graph=st.booleans(), data=st.data())
def test_engine_agrees_with_torch(program, shape, passes, create_graph, data):
    _compare(program, shape, passes, create_graph, data)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=programs(("unary", "binary", "number"), ("add", "sub", "mul", "div"), UNARY),
       shape=st.sampled_from([(3,), (2, 3)]), data=st.data())
def test_the_graph_a_create_graph_pass_builds_is_torchs(program, shape, data):
    _compare(program, shape, 1, True, data)


def _compare(program: list[tuple], shape: tuple[int, ...], passes: int, create_graph: bool, data: Any) -> None:
    size = math.prod(shape)
    inputs = [np.array(data.draw(st.lists(st.sampled_from([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0]), min_size=size,
                                          max_size=size))).reshape(shape) for _ in range(2)]
    expected = _run(torch, program, inputs, passes, create_graph)
    got = _run(E, program, inputs, passes, create_graph)
    if "error" in expected or "error" in got:
        assert got.get("error") == expected.get("error"), (program, expected, got)
        return
    assert _same(got["value"], expected["value"]), (program, expected["value"], got["value"])
    assert got["graph"] == expected["graph"], (program, expected["graph"], got["graph"])
    if _names_match(program):
        assert got.get("grad_graphs") == expected.get("grad_graphs"), (program, expected.get("grad_graphs"),
                                                                        got.get("grad_graphs"))
    for i, (g_pass, e_pass) in enumerate(zip(got["grads"], expected["grads"])):
        for j, (g, e) in enumerate(zip(g_pass, e_pass)):
            assert (g is None) == (e is None), (program, i, j)
            if g is not None:
                assert _same(g, e), (program, f"pass {i + 1}, leaf {j}", e, g)
