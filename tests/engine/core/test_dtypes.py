"""Integer, bool and float16 tensors as PyTorch 2.13 has them: the dtype objects, inferred dtypes, conversions,
type promotion, printing and autograd's refusals.

Without torch: every case of dtype_cases.py against golden/dtypes.json (recorded by tests/make_dtypes_golden.py
from PyTorch 2.13): the result's dtype, shape and values, its repr when the values are PyTorch's exactly, and
an error wherever PyTorch raises one. With torch: the same cases live, and Hypothesis draws values, dtypes
and operand forms for the promotion rules.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine as E
from autodiff.engine.core import dtypes
from autodiff.engine.errors import AutodiffError, AutogradError, BadValueError
from autodiff.engine.transforms.gradcheck import gradcheck

from ..caseload import load_dtype_cases

CASES_MODULE = load_dtype_cases()
CASES = {c.id: c for c in CASES_MODULE.CASES}
GOLDEN_FILE = json.loads((Path(__file__).parent / "golden" / "dtypes.json").read_text())
GOLDEN = {r["id"]: r for r in GOLDEN_FILE["cases"]}
ENGINE = CASES_MODULE.Lib(E, False)


def outcome(case, lib) -> dict:
    """What a case gives with lib: its dtype, shape, values and repr, or that it raised."""
    try:
        result = case.fn(lib)
    except AutodiffError as error:
        return {"error": type(error).__name__}
    array = lib.array(result)
    return {"dtype": str(result.dtype), "shape": list(array.shape), "values": array.reshape(-1).tolist(),
            "repr": repr(result)}


def assert_same(mine: dict, theirs: dict, case_id: str) -> None:
    if "error" in theirs:
        assert "error" in mine, f"{case_id}: PyTorch raises {theirs['error']}, the engine gave {mine}"
        return
    assert "error" not in mine, f"{case_id}: the engine raised {mine['error']}, PyTorch gives {theirs}"
    assert mine["dtype"] == theirs["dtype"], case_id
    assert mine["shape"] == theirs["shape"], case_id
    ours, expected = np.array(mine["values"], dtype=float), np.array(theirs["values"], dtype=float)
    if theirs["dtype"] in ("torch.float16", "torch.float32", "torch.float64"):
        tolerance = {"torch.float16": 1e-3, "torch.float32": 1e-6, "torch.float64": 1e-12}[theirs["dtype"]]
        np.testing.assert_allclose(ours, expected, rtol=tolerance, atol=tolerance, equal_nan=True, err_msg=case_id)
    else:
        assert mine["values"] == theirs["values"], case_id
    if mine["values"] == theirs["values"]:  # the same values print the same text
        assert mine["repr"] == theirs["repr"], case_id


# ---------------------------------------------------------------------------- the golden file (no torch)
def test_golden_file_and_cases_agree():
    assert list(GOLDEN) == list(CASES), "dtype_cases.py changed: regenerate with tests/make_dtypes_golden.py"


@pytest.mark.parametrize("case_id", list(CASES))
def test_golden_case(case_id):
    assert_same(outcome(CASES[case_id], ENGINE), GOLDEN[case_id], case_id)


# ---------------------------------------------------------------------------- PyTorch live
@pytest.fixture(scope="module")
def torch_lib():
    torch = pytest.importorskip("torch")
    return CASES_MODULE.Lib(torch, True)


def torch_outcome(case, lib) -> dict:
    try:
        return outcome(case, lib)
    except Exception as error:  # PyTorch's own exception types
        return {"error": type(error).__name__}


@pytest.mark.parametrize("case_id", [c for c in CASES if not c.startswith(tuple(CASES_MODULE.BINARY))])
def test_live_case(torch_lib, case_id):
    assert_same(outcome(CASES[case_id], ENGINE), torch_outcome(CASES[case_id], torch_lib), case_id)


DTYPE_NAMES = st.sampled_from(CASES_MODULE.DTYPES)


def _operand(draw, lib, dtype, shape, values):
    if shape is None:  # a Python number
        return values[0]
    return lib.mod.tensor(np.array(values[: math.prod(shape)]).reshape(shape).tolist(), dtype=lib.dt(dtype))


@st.composite
def operands(draw):
    """Two operands (tensors with dims, 0-d tensors or Python numbers) of small values every dtype holds."""
    kinds = []
    for _ in range(2):
        form = draw(st.sampled_from(["dims", "zero", "number"]))
        dtype = draw(DTYPE_NAMES)
        if form == "number":
            value = draw(st.one_of(st.integers(-3, 6), st.floats(-4, 4, allow_nan=False).map(lambda v: round(v, 2)),
                                   st.booleans()))
            kinds.append(("number", None, None, [value]))
        else:
            shape = (3,) if form == "dims" else ()
            if dtype == "bool":
                values = draw(st.lists(st.booleans(), min_size=3, max_size=3))
            elif dtype == "uint8":
                values = draw(st.lists(st.integers(0, 9), min_size=3, max_size=3))
            elif dtype.startswith("float"):
                values = draw(st.lists(st.floats(-8, 8, allow_nan=False).map(lambda v: round(v, 2)), min_size=3,
                                       max_size=3))
            else:
                values = draw(st.lists(st.integers(-9, 9), min_size=3, max_size=3))
            kinds.append((form, dtype, shape, values))
    if kinds[0][0] == kinds[1][0] == "number":
        kinds[0] = ("dims", "int64", (3,), [1, 2, 3])
    return kinds


# (the engine's == is Python's identity on Tensor objects, as its docs say: eq compares values)
LIVE_BINARY = {**CASES_MODULE.BINARY, "eq": lambda a, b: a.eq(b) if hasattr(a, "eq") else b.eq(a),
               "ge": lambda a, b: a >= b}


@settings(max_examples=300, deadline=None)
@given(kinds=operands(), name=st.sampled_from(sorted(LIVE_BINARY)))
def test_promotion_matches_pytorch(torch_lib, kinds, name):
    """Every binary operator on two operands of any dtypes and forms: PyTorch's result dtype and values, or an
    error where PyTorch raises one."""
    op = LIVE_BINARY[name]

    def run(lib):
        a, b = (_operand(None, lib, dtype, shape, values) for _, dtype, shape, values in kinds)
        return op(a, b)

    case = CASES_MODULE.Case(f"{name}: {kinds}", run)
    theirs = torch_outcome(case, torch_lib)
    if "error" not in theirs and theirs["dtype"] in ("torch.float16",):
        return  # PyTorch computes float16 in float32 and rounds once; numpy rounds each step (not reproduced)
    assert_same(outcome(case, ENGINE), theirs, case.id)


@settings(max_examples=200, deadline=None)
@given(a=DTYPE_NAMES, b=DTYPE_NAMES)
def test_promote_types_matches_pytorch(torch_lib, a, b):
    torch = torch_lib.mod
    assert str(E.promote_types(ENGINE.dt(a), ENGINE.dt(b))) == str(torch.promote_types(torch_lib.dt(a),
                                                                                         torch_lib.dt(b)))


# ---------------------------------------------------------------------------- the dtype objects
def test_dtype_objects_print_and_compare_as_pytorch_and_numpy():
    assert repr(E.int64) == "torch.int64" and str(E.bool_) == "torch.bool"
    assert E.tensor([1]).dtype is E.int64 and E.tensor([1.0]).dtype is E.float32
    assert E.int64 == np.int64 and E.float32 == np.dtype("float32") and E.int64 == "long" and E.int64 != E.int32
    assert np.zeros(2, E.int16).dtype == np.int16 and np.dtype(E.uint8) == np.uint8
    assert {E.float32: 1}[np.dtype(np.float32)] == 1
    assert pickle.loads(pickle.dumps(E.int8)) is E.int8 and copy.deepcopy(E.float16) is E.float16
    assert (E.int32.is_floating_point, E.float16.is_floating_point, E.uint8.is_signed, E.int8.itemsize) == (
        False, True, False, 1)


def test_dtype_names_resolve():
    for name, expected in [("long", E.int64), ("int", E.int32), ("short", E.int16), ("half", E.float16),
                           ("double", E.float64), ("float", E.float32), ("torch.bool", E.bool_), ("uint8", E.uint8)]:
        assert E.zeros(1, dtype=name).dtype is expected
    with pytest.raises(BadValueError, match="unsupported dtype 'complex64'"):
        E.zeros(1, dtype="complex64")


def test_the_default_dtype_stays_floating():
    with pytest.raises(BadValueError, match="float32 or float64"):
        E.set_default_dtype("int64")
    with E.settings(default_dtype="float64"):
        assert E.tensor([1.5]).dtype is E.float64 and E.tensor([1]).dtype is E.int64
        assert E.arange(0, 1, 0.5).dtype is E.float64 and E.tensor([1]) / 2 is not None
        assert (E.tensor([1]) / 2).dtype is E.float64 and (E.tensor([1]) * 0.5).dtype is E.float64


def test_tensor_methods():
    x = E.tensor([1.5, -2.5])
    assert x.element_size() == 4 and x.long().element_size() == 8 and x.bool().element_size() == 1
    assert x.is_floating_point() and not x.long().is_floating_point()
    assert x.type() == "torch.FloatTensor" and x.long().type() == "torch.LongTensor"
    assert x.type("torch.IntTensor").dtype is E.int32 and x.type(E.float64).dtype is E.float64
    assert x.type_as(E.tensor([1])).dtype is E.int64 and x.to(E.tensor([True])).dtype is E.bool_
    assert x.long() is not x and x.float() is x and x.to(E.float32, copy=True) is not x


# ---------------------------------------------------------------------------- autograd
def test_integer_tensors_cannot_require_grad():
    message = "Only Tensors of floating point and complex dtype can require gradients"
    for make in (lambda: E.tensor([1, 2], requires_grad=True), lambda: E.arange(3).requires_grad_(),
                 lambda: E.zeros(2, dtype=E.int64, requires_grad=True), lambda: E.tensor([True]).requires_grad_(),
                 lambda: E.randint(0, 3, (2,), requires_grad=True)):
        with pytest.raises(AutogradError, match=message):
            make()


def test_integer_results_have_no_history():
    x = E.tensor([1.5, -2.5], requires_grad=True)
    for result in (x.long(), x > 0, x.argmax(), x.bool(), (x * 2).int()):
        assert result.grad_fn is None and not result.requires_grad
    assert x.half().grad_fn.name() == "ToCopyBackward0"


def test_backward_through_integer_operands():
    """An integer operand gets no gradient; the float input's gradient keeps its dtype."""
    x = E.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i = E.tensor([2, 0, 1])
    y = (x * i + x[i] ** 2 / i.clamp(min=1)).sum()
    y.backward()
    # d/dx of sum(x * i) is i; of sum(x[i]**2 / max(i, 1)): 2 * x[j] / max(i_k, 1) summed where i_k = j
    assert x.grad.dtype is E.float32 and x.grad.data.tolist() == [2.0 + 2.0, 0.0 + 4.0 / 1, 1.0 + 6.0 / 2]


def test_counts_with_index_add():
    """The bigram-counting idiom of the makemore tutorial: counts[a, b] += 1 on an int64 tensor."""
    counts = E.zeros(3, 3, dtype=E.int64)
    for a, b in [(0, 1), (0, 1), (2, 0)]:
        counts[a, b] += 1
    assert counts.dtype is E.int64 and counts.data.tolist() == [[0, 2, 0], [0, 0, 0], [1, 0, 0]]
    p = counts[0].float()
    p /= p.sum()
    assert p.data.tolist() == [0.0, 1.0, 0.0]


def test_an_in_place_float_result_into_an_integer_tensor_is_refused():
    x = E.tensor([1, 2])
    with pytest.raises(BadValueError, match="result type Float can't be cast to the desired output type Long"):
        x += 1.5
    x += 2
    assert x.data.tolist() == [3, 4]


def test_integer_division_by_zero_is_refused():
    with pytest.raises(BadValueError, match="ZeroDivisionError"):
        E.tensor([1]) // E.tensor([0])
    assert math.isinf((E.tensor([1]) / 0).item())


def test_promote_helpers():
    assert dtypes.result_type([np.zeros(2, np.int32), 2.5], np.dtype(np.float32)) == np.float32
    assert dtypes.result_type([np.zeros(2, np.int32), np.zeros((), np.int64)], np.float32) == np.int32
    assert dtypes.result_type([np.zeros((), np.float64), np.zeros(2, np.int32)], np.float32) == np.float64
    assert not dtypes.can_cast(np.dtype(np.float32), np.dtype(np.int64)) and dtypes.can_cast(
        np.dtype(np.bool_), np.dtype(np.uint8))


# ---------------------------------------------------------------------------- gradients of the ops of item 5
def _bce_fn(mod: object, is_torch: bool) -> object:
    return mod.nn.functional.binary_cross_entropy_with_logits if is_torch else mod.binary_cross_entropy_with_logits


GRADIENT_CASES = {  # (inputs as nested lists, function of the library and its tensors)
    "index_add": ([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[0.5, 1.5], [2.5, 3.5]],
                  lambda m, t, x, s: x.index_add(0, m.tensor([2, 2]), s, alpha=1.5)),
    "clamp_tensors": ([1.0, 5.0, 3.0, 2.5], [2.0, 2.0, 4.0, 2.0],  # the third: min above max
                      lambda m, t, x, lo: x.clamp(lo, m.tensor([4.0, 4.0, 3.0, 3.0], dtype=x.dtype))),
    "clamp_min_tensor": ([[1.0, 5.0], [3.0, 2.0]], [2.0, 3.0], lambda m, t, x, lo: x.clamp(min=lo)),
    "bce_pos_weight": ([[0.5, -1.0, 3.0], [2.0, 0.3, -4.0]], [[1.0, 0.0, 0.5], [0.0, 1.0, 1.0]],
                       lambda m, t, x, y: _bce_fn(m, t)(x, y, weight=m.tensor([1.0, 0.5, 2.0], dtype=x.dtype),
                                                        pos_weight=m.tensor([2.0, 3.0, 0.5], dtype=x.dtype))),
    "nuclear": ([[1.0, 2.0], [3.0, 4.5]], [[0.5, -1.0], [2.0, 1.0]], lambda m, t, x, y: (x @ y).norm(p="nuc")),
    "squeeze_dims": ([[[1.0, 2.0, 3.0]]], [1.0, -2.0, 0.5], lambda m, t, x, y: x.squeeze((0, 1)) * y),
    "sum_to_double": ([[1.0, 2.0], [3.0, 4.0]], [0.5, 2.0],
                      lambda m, t, x, y: x.sum(0, dtype=m.float64) * y.double()),
    "sum_dtype": ([[1.0, 2.0], [3.0, 4.0]], [0.5, 2.0],
                  lambda m, t, x, y: (x.sum(1, dtype=x.dtype) * y).sum() + x.cumsum(0, dtype=x.dtype)),
}


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients_match_finite_differences(name):
    first, second, fn = GRADIENT_CASES[name]
    inputs = (E.tensor(first, dtype="float64", requires_grad=True), E.tensor(second, dtype="float64",
                                                                            requires_grad=True))
    assert gradcheck(lambda a, b: fn(E, False, a, b), inputs)


@pytest.mark.parametrize("name", list(GRADIENT_CASES))
def test_gradients_match_pytorch(torch_lib, name):
    torch = torch_lib.mod
    first, second, fn = GRADIENT_CASES[name]
    results = []
    for mod, is_torch in ((torch, True), (E, False)):
        a, b = (mod.tensor(v, requires_grad=True) for v in (first, second))
        out = fn(mod, is_torch, a, b)
        out.backward(mod.ones_like(out))
        results.append([ENGINE.array(out) if not is_torch else torch_lib.array(out), out.grad_fn.name(),
                        *(torch_lib.array(t.grad) if is_torch else ENGINE.array(t.grad) for t in (a, b))])
    theirs, ours = results
    assert ours[1] == theirs[1]
    for mine, expected in zip(ours[:1] + ours[2:], theirs[:1] + theirs[2:]):
        np.testing.assert_allclose(mine, expected, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------------------- a tutorial's idioms end to end
def _bigrams(torch: object, functional: object) -> tuple:
    """The makemore tutorial's bigram model on a few names: int32 counts written by index, a Generator for
    multinomial, randn and randint, one_hot, indexing by arange and an int64 tensor, embedding rows."""
    words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper"]
    stoi = {s: i + 1 for i, s in enumerate(sorted(set("".join(words))))}
    stoi["."] = 0
    n = len(stoi)
    counts = torch.zeros((n, n), dtype=torch.int32)
    xs, ys = [], []
    for w in words:
        for a, b in zip([".", *w], [*w, "."]):
            counts[stoi[a], stoi[b]] += 1
            xs.append(stoi[a])
            ys.append(stoi[b])
    p = (counts + 1).float()
    p /= p.sum(1, keepdims=True)
    g = torch.Generator().manual_seed(2147483647)
    drawn, ix = [], 0
    for _ in range(10):
        ix = torch.multinomial(p[ix], num_samples=1, replacement=True, generator=g).item()
        drawn.append(ix)
    xs, ys = torch.tensor(xs), torch.tensor(ys)
    w = torch.randn((n, n), generator=g, requires_grad=True)
    for _ in range(20):
        logits = functional.one_hot(xs, num_classes=n).float() @ w
        probs = logits.exp() / logits.exp().sum(1, keepdims=True)
        loss = -probs[torch.arange(xs.nelement()), ys].log().mean() + 0.01 * (w**2).mean()
        w.grad = None
        loss.backward()
        with torch.no_grad():
            w -= 10 * w.grad
    rows = torch.randn((n, 2), generator=g)[xs.view(-1, 1).repeat(1, 3)]
    picks = torch.randint(0, xs.shape[0], (4,), generator=g)
    return (drawn, loss.item(), counts.sum().item(), str(counts.dtype), tuple(rows.shape), picks.tolist(),
            torch.bincount(ys).tolist())


def test_the_bigram_tutorial_gives_pytorchs_numbers():
    drawn, loss, total, dtype, shape, picks, counts = _bigrams(E, E)
    assert (drawn, total, dtype, shape, picks) == ([3, 7, 6, 5, 1, 0, 0, 4, 3, 4], 50, "torch.int32", (50, 3, 2),
                                                   [10, 14, 21, 25])
    assert counts == [8, 11, 1, 4, 2, 6, 4, 4, 2, 2, 2, 2, 2]
    assert loss == pytest.approx(1.3303292989730835, rel=1e-6)


def test_the_bigram_tutorial_live(torch_lib):
    torch = torch_lib.mod
    theirs, ours = _bigrams(torch, torch.nn.functional), _bigrams(E, E)
    assert ours[:1] + ours[2:] == theirs[:1] + theirs[2:]
    assert ours[1] == pytest.approx(theirs[1], rel=1e-6)


def test_remainder_by_a_number_outside_an_integer_dtype_wraps_it_as_pytorch() -> None:
    """uint8 % -1 is uint8 % 255 and int8 % 200 is int8 % -56 in PyTorch (the number cast to the tensor's dtype);
    numpy refused the number (OverflowError), found by test_promotion_matches_pytorch."""
    from autodiff import engine

    assert (engine.tensor([5, 7, 0], dtype="uint8") % -1).tolist() == [5, 7, 0]
    assert (engine.tensor([5, 7, 0, 100], dtype="int8") % 200).tolist() == [-51, -49, 0, -12]
    assert (engine.tensor([5, 7, 0], dtype="uint8") % -1).dtype == engine.uint8


def test_remainder_by_a_number_that_wraps_to_zero_is_a_division_by_zero() -> None:
    """uint8 % 256: the number cast to uint8 is 0, and PyTorch raises ZeroDivisionError."""
    from autodiff import engine
    from autodiff.engine.errors import BadValueError

    with pytest.raises(BadValueError, match="ZeroDivisionError"):
        engine.tensor([5, 7], dtype="uint8") % 256
