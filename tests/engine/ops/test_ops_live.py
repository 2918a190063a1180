"""Property tests against PyTorch itself (float64): skipped when torch is not installed.

Hypothesis draws shapes, values, expression trees and memory layouts; the engine and torch run the
same code (`L` is either library) and must agree on values, every gradient and the backward graph.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from tolerance import assert_same_json

from autodiff import engine as E

from ..caseload import load_cases

torch = pytest.importorskip("torch")


cases = load_cases()

TIES = st.sampled_from([-1.0, 0.0, 0.5, 2.0])
ANY = st.one_of(TIES, st.floats(-3, 3, allow_nan=False, width=64))
POSITIVE = st.one_of(st.sampled_from([0.5, 1.0, 2.0]), st.floats(0.25, 3, width=64))
AWAY_FROM_ZERO = st.one_of(st.sampled_from([-1.0, 0.5, 2.0]), st.floats(0.25, 3, width=64),
                           st.floats(-3, -0.25, width=64))


def leaves(arrays, lib):
    return [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]


def numpy_of(t) -> np.ndarray:
    return np.asarray(t.detach().numpy())


def assert_close(actual, expected, what=""):
    expected = np.asarray(expected)
    scale = max(1.0, float(np.nanmax(np.abs(expected), initial=0.0, where=np.isfinite(expected))))
    np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=1e-10 * scale, equal_nan=True, err_msg=what)


def run_both(fn, arrays, gradient=None):
    """fn(L, *leaves) with each library, then backward with `gradient` (None: implicit; a callable:
    made from the output's shape); per library the value, every leaf's .grad and the graph."""
    results = []
    for lib in (torch, E):
        xs = leaves(arrays, lib)
        out = fn(lib, *xs)
        graph = cases.canonical_graph(out.grad_fn, xs) if out.grad_fn is not None else []
        value = numpy_of(out).copy()
        given = gradient(tuple(out.shape)) if callable(gradient) else gradient
        if given is None:
            out.backward()
        else:
            out.backward(lib.tensor(given, dtype=lib.float64))
        results.append((value, [None if x.grad is None else numpy_of(x.grad) for x in xs], graph))
    return results


def assert_same(results):
    (tv, tg, tgraph), (ev, eg, egraph) = results
    assert ev.shape == tv.shape
    assert_close(ev, tv, "value")
    for i, (t, e) in enumerate(zip(tg, eg)):
        assert (t is None) == (e is None), f"grad {i} is None in one library only"
        if t is not None:
            assert_close(e, t, f"grad of input {i}")
    assert egraph == tgraph


def gradient_for(data, shape):
    """A drawn `gradient` for an output of `shape`; None (implicit) for a 0-d output."""
    if shape == ():
        return None
    return data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-2, 2, width=64)), label="gradient")


# ---------------------------------------------------------------------------- (a) binary ops, broadcasting
BINARY = {
    "add": (lambda L, a, b: a + b, ANY, ANY),
    "sub": (lambda L, a, b: a - b, ANY, ANY),
    "mul": (lambda L, a, b: a * b, ANY, ANY),
    "div": (lambda L, a, b: a / b, ANY, AWAY_FROM_ZERO),
    "pow": (lambda L, a, b: a ** b, POSITIVE, st.floats(-2, 2, width=64)),
    "maximum": (lambda L, a, b: L.maximum(a, b), TIES, ANY),
    "minimum": (lambda L, a, b: L.minimum(a, b), TIES, ANY),
}


@settings(max_examples=120, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(BINARY)))
def test_binary_ops_broadcast_and_reduce_gradients(data, name):
    fn, left, right = BINARY[name]
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), label="shapes")
    a = data.draw(hnp.arrays(np.float64, shapes.input_shapes[0], elements=left), label="a")
    b = data.draw(hnp.arrays(np.float64, shapes.input_shapes[1], elements=right), label="b")
    gradient = gradient_for(data, shapes.result_shape)
    assert_same(run_both(fn, [a, b], gradient))


# ---------------------------------------------------------------------------- (b) random expression trees
UNARY = {
    "neg": lambda L, x: -x,
    "sin": lambda L, x: L.sin(x),
    "cos": lambda L, x: x.cos(),
    "tanh": lambda L, x: L.tanh(x),
    "sigmoid": lambda L, x: L.sigmoid(x),
    "exp_of_sin": lambda L, x: L.exp(L.sin(x)),
    "abs": lambda L, x: L.abs(x),
    "relu": lambda L, x: L.relu(x),
    "square": lambda L, x: x ** 2,
    "log": lambda L, x: L.log(x * x + 1),
    "sqrt": lambda L, x: L.sqrt(x * x + 1),
    "reciprocal": lambda L, x: 1 / (x * x + 1),
    "clamp": lambda L, x: x.clamp(-0.5, 0.5),
    "number_base": lambda L, x: 2 ** L.tanh(x),
    "scale_shift": lambda L, x: 1.5 - 2.5 * x,
    "clone": lambda L, x: x.clone(),
}
BINARY_TREE = {
    "add": lambda L, a, b: a + b,
    "sub": lambda L, a, b: a - b,
    "mul": lambda L, a, b: a * b,
    "div": lambda L, a, b: a / (b * b + 1),
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
    "pow": lambda L, a, b: (a * a + 1) ** L.tanh(b),
}


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def _swap(shape, i, j):
    shape = list(shape)
    shape[i], shape[j] = shape[j], shape[i]
    return tuple(shape)


# name: (applies to a shape?, the result's shape, the operation)
SHAPE_OPS = {
    "reshape_flat": (lambda s: True, lambda s: (math.prod(s),), lambda L, x: x.reshape(-1)),
    "reshape_2_rows": (lambda s: math.prod(s) % 2 == 0 and len(s) > 0, lambda s: (2, math.prod(s) // 2),
                       lambda L, x: x.reshape(2, -1)),
    "flatten": (lambda s: len(s) > 0, lambda s: (math.prod(s),), lambda L, x: x.flatten()),
    "unsqueeze_first": (lambda s: True, lambda s: (1, *s), lambda L, x: x.unsqueeze(0)),
    "unsqueeze_last": (lambda s: True, lambda s: (*s, 1), lambda L, x: L.unsqueeze(x, -1)),
    "squeeze": (lambda s: True, lambda s: tuple(n for n in s if n != 1), lambda L, x: x.squeeze()),
    "squeeze_first": (lambda s: len(s) > 0, lambda s: s[1:] if s[0] == 1 else s, lambda L, x: x.squeeze(0)),
    "t": (lambda s: len(s) <= 2, lambda s: s[::-1], lambda L, x: x.t()),
    "T": (lambda s: len(s) == 2, lambda s: s[::-1], lambda L, x: x.T),
    "mT": (lambda s: len(s) >= 2, lambda s: _swap(s, -1, -2), lambda L, x: x.mT),
    "transpose": (lambda s: len(s) >= 1, lambda s: _swap(s, 0, -1), lambda L, x: x.transpose(0, -1)),
    "permute_reversed": (lambda s: len(s) >= 1, lambda s: s[::-1],
                         lambda L, x: x.permute(*reversed(range(x.dim())))),
    "expand_ones": (lambda s: 1 in s, lambda s: tuple(2 if n == 1 else n for n in s),
                    lambda L, x: x.expand(*(2 if n == 1 else n for n in x.shape))),
    "expand_new_dim": (lambda s: True, lambda s: (2, *s), lambda L, x: x.expand(2, *x.shape)),
}
INDEX_OPS = {
    "first": (lambda s: len(s) > 0, lambda s: s[1:], lambda L, x: x[0]),
    "last": (lambda s: len(s) > 0, lambda s: s[1:], lambda L, x: x[-1]),
    "step2": (lambda s: len(s) > 0, lambda s: ((s[0] + 1) // 2, *s[1:]), lambda L, x: x[::2]),
    "last_dim_from_1": (lambda s: len(s) > 0 and s[-1] > 1, lambda s: (*s[:-1], s[-1] - 1), lambda L, x: x[..., 1:]),
    "full_slice": (lambda s: len(s) > 0, lambda s: s, lambda L, x: x[:]),
    "full_slices": (lambda s: len(s) >= 2, lambda s: s, lambda L, x: x[:, :]),
    "ellipsis": (lambda s: True, lambda s: s, lambda L, x: x[...]),
    "none": (lambda s: True, lambda s: (1, *s), lambda L, x: x[None]),
    "column": (lambda s: len(s) >= 2, lambda s: s[:1] + s[2:], lambda L, x: x[:, 0]),
}


def _write_first(L, x, value):
    y = x * 1
    y[0] = value.sum()
    return y


@st.composite
def expressions(draw, shapes, depth):
    """(expression, shape): nested tuples that `evaluate` turns into calls of either library."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        i = draw(st.integers(0, len(shapes) - 1))
        return ("leaf", i), shapes[i]
    kind = draw(st.sampled_from(["unary", "binary", "binary", "reduce", "shape", "index", "matmul", "write"]))
    a, sa = draw(expressions(shapes, depth - 1))
    ndim = len(sa)
    if kind == "unary":
        return ("unary", draw(st.sampled_from(sorted(UNARY))), a), sa
    if kind in ("binary", "matmul", "write"):
        b, sb = draw(expressions(shapes, depth - 1))
        if kind == "write" and ndim > 0:
            return ("write", a, b), sa
        if kind == "matmul" and 1 <= ndim <= 2 and 1 <= len(sb) <= 2:
            if sa[-1] == sb[0]:
                return ("matmul", a, b), sa[:-1] + sb[1:]
            if len(sb) == 2 and sa[-1] == sb[1]:
                return ("matmul", a, ("table", "t", b)), sa[:-1] + sb[:1]
        if not _broadcastable(sa, sb):
            b, sb = ("reduce", "sum", None, False, b), ()
        return ("binary", draw(st.sampled_from(sorted(BINARY_TREE))), a, b), np.broadcast_shapes(sa, sb)
    if kind == "reduce":
        op = draw(st.sampled_from(["sum", "mean", "max", "min", "softmax", "log_softmax"]))
        if op not in ("softmax", "log_softmax") and (ndim == 0 or draw(st.booleans())):
            return ("reduce", op, None, False, a), ()
        dim = draw(st.integers(-max(ndim, 1), max(ndim, 1) - 1))
        if op in ("softmax", "log_softmax") or ndim == 0:
            return ("reduce", op, dim, False, a), sa
        keepdim = draw(st.booleans())
        kept = tuple(1 if i == dim % ndim else n for i, n in enumerate(sa))
        return ("reduce", op, dim, keepdim, a), kept if keepdim else kept[:dim % ndim] + kept[dim % ndim + 1:]
    table = SHAPE_OPS if kind == "shape" else INDEX_OPS
    name = draw(st.sampled_from(sorted(n for n, (applies, _, _) in table.items() if applies(sa))))
    return ("table", name, a), table[name][1](sa)


def evaluate(L, expr, xs):
    tag = expr[0]
    if tag == "leaf":
        return xs[expr[1]]
    if tag == "unary":
        return UNARY[expr[1]](L, evaluate(L, expr[2], xs))
    if tag == "binary":
        return BINARY_TREE[expr[1]](L, evaluate(L, expr[2], xs), evaluate(L, expr[3], xs))
    if tag == "matmul":
        return evaluate(L, expr[1], xs) @ evaluate(L, expr[2], xs)
    if tag == "write":
        return _write_first(L, evaluate(L, expr[1], xs), evaluate(L, expr[2], xs))
    if tag == "table":
        return {**SHAPE_OPS, **INDEX_OPS}[expr[1]][2](L, evaluate(L, expr[2], xs))
    _, op, dim, keepdim, inner = expr
    x = evaluate(L, inner, xs)
    if op in ("softmax", "log_softmax"):
        return getattr(L, op)(x, dim=dim)
    if dim is None:
        return getattr(x, op)()
    if op in ("max", "min"):
        return getattr(x, op)(dim=dim, keepdim=keepdim).values
    return getattr(x, op)(dim, keepdim=keepdim)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_expression_trees(data):
    shapes = data.draw(st.lists(hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3),
                                min_size=1, max_size=3), label="leaf shapes")
    expr, shape = data.draw(expressions(shapes, 5), label="expression")
    assume(expr[0] != "leaf")
    arrays = [data.draw(hnp.arrays(np.float64, s, elements=ANY), label=f"leaf {i}") for i, s in enumerate(shapes)]
    gradient = gradient_for(data, shape)
    results = run_both(lambda L, *xs: evaluate(L, expr, xs), arrays, gradient)
    assert results[1][0].shape == tuple(shape)
    assert_same(results)


# ---------------------------------------------------------------------------- (c) second derivatives
SECOND = {
    "sin": (lambda L, x: L.sin(x), ANY),
    "cos": (lambda L, x: L.cos(x), ANY),
    "tan": (lambda L, x: L.tan(x), st.floats(-1.2, 1.2, width=64)),
    "tanh": (lambda L, x: L.tanh(x), ANY),
    "sigmoid": (lambda L, x: L.sigmoid(x), ANY),
    "exp": (lambda L, x: L.exp(x), ANY),
    "log": (lambda L, x: L.log(x), POSITIVE),
    "sqrt": (lambda L, x: L.sqrt(x), POSITIVE),
    "reciprocal": (lambda L, x: L.reciprocal(x), AWAY_FROM_ZERO),
    "cube": (lambda L, x: x ** 3, ANY),
    "pow_2_5": (lambda L, x: x ** 2.5, POSITIVE),
    "number_base": (lambda L, x: 3 ** x, ANY),
    "tensor_pow": (lambda L, x: x ** x, POSITIVE),
    "div": (lambda L, x: 1 / (x * x + 1), ANY),
    "relu_square": (lambda L, x: L.relu(x) * x, ANY),
    "abs_times": (lambda L, x: L.abs(x) * x, ANY),
    "clamp_square": (lambda L, x: x.clamp(-1, 1) ** 2, ANY),
    "maximum": (lambda L, x: L.maximum(x, x * x), ANY),
    "softmax": (lambda L, x: L.softmax(x, dim=-1) * x, ANY),
    "log_softmax": (lambda L, x: L.log_softmax(x, dim=0) ** 2, ANY),
    "mean_dim": (lambda L, x: x.mean(dim=-1, keepdim=True) * x, ANY),
    "max_all": (lambda L, x: x.max() * x, ANY),
    "max_dim": (lambda L, x: x.max(dim=0).values ** 3, ANY),
    "index": (lambda L, x: x[0] ** 3 + L.sin(x[1:]).sum() + x[..., -1:] * x[:1], ANY),
    "matmul": (lambda L, x: (x @ x.t()).exp(), st.floats(-1, 1, width=64)),
    "expand": (lambda L, x: (x[:1].expand(3, 2) * x) ** 2, ANY),
    "transpose_reshape": (lambda L, x: (x.t().reshape(-1) ** 3).sum(), ANY),
}


@settings(max_examples=80, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(SECOND)))
def test_second_derivatives(data, name):
    fn, elements = SECOND[name]
    x = data.draw(hnp.arrays(np.float64, (3, 2), elements=elements), label="x")
    v = data.draw(hnp.arrays(np.float64, (3, 2), elements=st.floats(-2, 2, width=64)), label="v")
    answers = []
    for lib in (torch, E):
        grad = torch.autograd.grad if lib is torch else E.grad
        (t,) = leaves([x], lib)
        (first,) = grad(fn(lib, t).sum(), t, create_graph=True)
        assert first.requires_grad
        (second,) = grad((first * lib.tensor(v, dtype=lib.float64)).sum(), t)
        answers.append((numpy_of(first), numpy_of(second)))
    (tf, ts), (ef, es) = answers
    assert_close(ef, tf, "first derivative")
    assert_close(es, ts, "second derivative")


# ---------------------------------------------------------------------------- (d) reductions over random dims
@settings(max_examples=100, deadline=None)
@given(data=st.data(), op=st.sampled_from(["sum", "mean", "max", "min", "softmax", "log_softmax"]))
def test_reductions_random_dims(data, op):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=3), label="shape")
    ndim = len(shape)
    x = data.draw(hnp.arrays(np.float64, shape, elements=ANY), label="x")
    keepdim = data.draw(st.booleans(), label="keepdim")
    if op in ("sum", "mean"):
        dims = data.draw(st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True), label="dims")
        dims = tuple(d - ndim if data.draw(st.booleans()) else d for d in dims)
        dim = dims[0] if len(dims) == 1 and data.draw(st.booleans()) else dims
        fn = lambda L, t: getattr(t, op)(dim=dim, keepdim=keepdim)  # noqa: E731
        reduced = {d % ndim for d in dims}
        kept = tuple(1 if i in reduced else n for i, n in enumerate(shape))
        out_shape = kept if keepdim else tuple(n for i, n in enumerate(shape) if i not in reduced)
    else:
        dim = data.draw(st.integers(-ndim, ndim - 1), label="dim")
        if op in ("max", "min"):
            fn = lambda L, t: getattr(L, op)(t, dim, keepdim=keepdim)[0]  # noqa: E731
            out_shape = tuple(1 if i == dim % ndim else n for i, n in enumerate(shape) if keepdim or i != dim % ndim)
        else:
            fn = lambda L, t: getattr(t, op)(dim)  # noqa: E731
            out_shape = shape
    results = run_both(fn, [x], gradient_for(data, out_shape))
    assert results[1][0].shape == out_shape
    assert_same(results)


# ---------------------------------------------------------------------------- (e) memory layouts
LAYOUT_OPS = {
    "add": lambda L, a, b: a + b,
    "mul": lambda L, a, b: b * a,
    "maximum": lambda L, a, b: L.maximum(a, b),
    "pow": lambda L, a, b: (a * a + 1) ** b,
    "exp_left": lambda L, a, b: L.exp(a) - b.sum(),
    "clone_left": lambda L, a, b: a.clone() + 0 * b.sum(),
    "zeros_like": lambda L, a, b: L.zeros_like(a) + a * b,
    "ones_like": lambda L, a, b: L.ones_like(a) * b,
    "full_like": lambda L, a, b: L.full_like(a, 2.0) * b,
    "rand_like": lambda L, a, b: L.rand_like(a) * 0 + b,  # the values differ (numpy's generator), not the layout
    "randn_like": lambda L, a, b: L.randn_like(a) * 0 + b,
    "sum_dim": lambda L, a, b: (a + b).sum(1, keepdim=True),
    "softmax": lambda L, a, b: L.softmax(a * b, dim=0),
}
ARRANGE = {  # each turns a (3, 3, 2) leaf into a tensor of shape (3, 3, 2) with its own memory layout
    "contiguous": lambda L, x: x * 1,
    "permuted_back": lambda L, x: x.permute(1, 0, 2).clone().permute(1, 0, 2),
    "transposed": lambda L, x: x.transpose(0, 1),
    "last_two_swapped": lambda L, x: x.reshape(3, 2, 3).transpose(1, 2),
    "expanded": lambda L, x: x[:1].expand(3, 3, 2),
    "expanded_middle": lambda L, x: x[:, 1:2].expand(3, 3, 2),
    "broadcast_row": lambda L, x: x[0],
    "expanded_last": lambda L, x: x[..., :1].expand(3, 3, 2),
}


@settings(max_examples=120, deadline=None)
@given(data=st.data(), left=st.sampled_from(sorted(ARRANGE)), right=st.sampled_from(sorted(ARRANGE)),
       op=st.sampled_from(sorted(LAYOUT_OPS)))
def test_memory_layout_decides_view_or_copy_as_in_torch(data, left, right, op):
    """reshape(-1) is ViewBackward0 or UnsafeViewBackward0 over CloneBackward0 exactly as in torch."""
    x = data.draw(hnp.arrays(np.float64, (3, 3, 2), elements=st.floats(-1, 1, width=64)), label="x")
    y = data.draw(hnp.arrays(np.float64, (3, 3, 2), elements=st.floats(-1, 1, width=64)), label="y")

    def fn(L, a, b):
        return LAYOUT_OPS[op](L, ARRANGE[left](L, a), ARRANGE[right](L, b)).reshape(-1)

    results = run_both(fn, [x, y], lambda shape: np.linspace(-1, 1, math.prod(shape)).reshape(shape))
    assert_same(results)


# ---------------------------------------------------------------------------- every op case, against torch
def _outcome(call):
    """'ok', or the engine error's reason / 'RuntimeError' for torch."""
    try:
        call()
    except E.AutogradError as error:
        return error.reason
    except RuntimeError:
        return "RuntimeError"
    return "ok"


@pytest.mark.parametrize("case", cases.CASES, ids=[c.id for c in cases.CASES])
def test_second_backward_raises_as_in_torch(case):
    """Without retain_graph a second pass fails exactly when a node of the graph saved tensors."""
    outcomes = []
    for lib in (torch, E):
        out = case.fn(lib, *cases.make_inputs(lib, case)).sum()
        out.backward()
        outcomes.append(_outcome(out.backward))
    assert {"ok": "ok", "RuntimeError": "second_backward"}[outcomes[0]] == outcomes[1]


@pytest.mark.parametrize("case", [c for c in cases.CASES if c.engine_graph is None],
                         ids=[c.id for c in cases.CASES if c.engine_graph is None])
def test_inplace_change_of_an_input_is_detected_as_in_torch(case):
    """Writing into an input after the forward pass breaks backward exactly when torch saved that input.

    Cases whose graph differs by design are left out.
    """
    for k in range(len(case.inputs)):
        outcomes = []
        for lib in (torch, E):
            xs = cases.make_inputs(lib, case)
            out = case.fn(lib, *xs).sum()
            with lib.no_grad():
                xs[k].fill_(0.5)
            outcomes.append(_outcome(out.backward))
        assert {"ok": "ok", "RuntimeError": "modified_inplace"}[outcomes[0]] == outcomes[1], f"input {k}"


def test_anomaly_message_is_torchs():
    x = torch.tensor(0.0, requires_grad=True)
    with pytest.warns(UserWarning), torch.autograd.detect_anomaly():  # torch also warns with the forward trace
        y = torch.sqrt(x) * 0
        with pytest.raises(RuntimeError) as torch_error:
            y.backward()
    x = E.tensor(0.0, requires_grad=True)
    with E.detect_anomaly():
        y = E.sqrt(x) * 0
        with pytest.raises(E.AutogradError) as engine_error:
            y.backward()
    assert engine_error.value.message == str(torch_error.value)
    assert str(torch_error.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."


def test_golden_file_is_what_torch_gives_now():
    """golden/ops.json is what this torch computes: the same cases, dtypes, shapes and graphs exactly, the
    numbers within the suite's tolerance for their dtype (PyTorch's last digits depend on the CPU)."""
    spec = importlib.util.spec_from_file_location("autodiff_make_golden", Path(__file__).parents[2] / "make_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = json.loads(module.build())
    committed = json.loads((Path(__file__).parent / "golden" / "ops.json").read_text())
    stale = "golden/ops.json is stale: run tests/make_golden.py"
    assert built["meta"] == committed["meta"], stale
    assert [c["id"] for c in built["cases"]] == [c["id"] for c in committed["cases"]], stale
    for now, then in zip(built["cases"], committed["cases"]):
        numbers = {"value", "grads"}
        assert {k: v for k, v in now.items() if k not in numbers} == \
            {k: v for k, v in then.items() if k not in numbers}, f"{then['id']}: {stale}"
        assert_same_json(now["value"], then["value"], then["dtype"], f"{then['id']}.value")
        assert len(now["grads"]) == len(then["grads"]), f"{then['id']}: {stale}"
        for i, (grad, expected, dtype) in enumerate(zip(now["grads"], then["grads"], then["grad_dtypes"])):
            assert_same_json(grad, expected, dtype or "float64", f"{then['id']}.grads[{i}]")


@pytest.mark.parametrize("write", ["y.mul_(2)", "y[0] = 5.0", "y.zero_()"])
@pytest.mark.parametrize("program", ["x ** t.detach()", "x.detach() ** t", "x ** t", "L.pow(2.0, t)",
                                     "x ** L.tensor(2.0)", "x ** 2.5"])
def test_a_write_into_a_powers_result_is_refused_as_in_torch(program, write):
    """PowBackward1 saves its result even when only the base needs grad (PyTorch saves outputs unguarded)."""
    outcomes = []
    for L in (torch, E):
        x, t = (L.tensor(v, requires_grad=True) for v in ([1.5, 2.0], [0.5, 3.0]))
        y = eval(program, {"L": L, "x": x, "t": t})
        exec(write, {"y": y})
        outcomes.append(_outcome(y.sum().backward))
    assert {"ok": "ok", "RuntimeError": "modified_inplace"}[outcomes[0]] == outcomes[1]
