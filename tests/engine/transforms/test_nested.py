"""Nested torch.func transforms (nested_cases.py): jacfwd(jacfwd(f)), jacfwd(jacrev(f)), jacrev(jacfwd(f)), jvp inside
jvp, hessian of a jacfwd, against PyTorch's answers in golden/nested.json (regenerate with
tests/make_nested_golden.py) and, when torch is installed, against torch itself."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import AutogradError, LimitError, ShapeError
from autodiff.engine.transforms import forward_ad as fwAD
from autodiff.engine.transforms import torch_func

_spec = importlib.util.spec_from_file_location("autodiff_nested_cases", Path(__file__).with_name("nested_cases.py"))
nested = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nested)
GOLDEN = {r["id"]: r for r in json.loads((Path(__file__).parent / "golden" / "nested.json").read_text())["cases"]}


def _engine(case):
    return nested.run(torch_func, E, case, lambda t: t.numpy(force=True))


@pytest.mark.parametrize("case", nested.CASES, ids=lambda c: c.id)
def test_nested_transforms_match_pytorch(case):
    found, golden = _engine(case), GOLDEN[case.id]
    assert len(found) == len(golden["results"])
    for array, expected, dtype in zip(found, golden["results"], golden["dtypes"], strict=True):
        assert str(array.dtype) == dtype
        expected = np.array(expected, dtype=np.float64)
        assert array.shape == expected.shape
        tolerance = 1e-6 if dtype == "float32" else 1e-13  # other sums in another order: within rounding
        np.testing.assert_allclose(array.astype(np.float64), expected, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("case", nested.CASES, ids=lambda c: c.id)
def test_nested_transforms_live(case):
    torch = pytest.importorskip("torch")
    theirs = nested.run(torch.func, torch, case, lambda t: t.detach().numpy())
    for ours, expected in zip(_engine(case), theirs, strict=True):
        tolerance = 1e-6 if expected.dtype == np.float32 else 1e-13
        np.testing.assert_allclose(ours, expected, rtol=tolerance, atol=tolerance)


def test_nested_exact_values_and_plain_results():
    """jacfwd(jacfwd(x**3)) = 6 x on the diagonal, exactly; a plain tensor (no grad_fn, no tangent)."""
    x = E.tensor([1.0, 2.0], dtype="float64")
    third = torch_func.jacfwd(torch_func.jacfwd(lambda t: t ** 3))(x)
    assert third.tolist() == [[[6.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 12.0]]]
    assert third.grad_fn is None and not third.requires_grad
    inner = lambda t: torch_func.jvp(lambda y: y ** 2, (t,), (t,))[1]  # noqa: E731
    value, tangent = torch_func.jvp(inner, (x,), (E.ones(2).double(),))
    assert value.tolist() == [2.0, 8.0] and tangent.tolist() == [4.0, 8.0]  # d/dt 2 t t = 4 t
    assert tangent.grad_fn is None


def test_nested_with_grad_keeps_the_callers_graph():
    x = E.tensor([0.5, 1.5], dtype="float64", requires_grad=True)
    hess = torch_func.jacfwd(torch_func.jacfwd(lambda t: (t ** 4).sum()))(x)  # diag(12 x^2)
    assert hess.tolist() == [[3.0, 0.0], [0.0, 27.0]]
    hess.sum().backward()
    assert x.grad.tolist() == [12.0, 36.0]  # 24 x


def test_dual_level_itself_still_refuses_nesting():
    with fwAD.dual_level(), pytest.raises(AutogradError, match="Nested forward mode AD is not supported at the moment"):
        fwAD.enter_dual_level()


def test_large_hessian_bounded_or_refused_early():
    """hessian of a scalar function of 2048 elements is held in bounded memory (each jacfwd column's graph is dropped
    at once); the hessian of a 512-vector function of 512 elements (512**3 elements) fails after one column."""
    n = 2048
    x = E.tensor(np.linspace(-1.0, 1.0, n), dtype="float64")
    hess = torch_func.hessian(lambda t: (t ** 3).sum())(x)
    assert hess.shape == (n, n) and hess.grad_fn is None
    np.testing.assert_array_equal(np.diag(hess.numpy(force=True)), 6 * x.numpy(force=True))
    assert np.count_nonzero(hess.numpy(force=True)) == np.count_nonzero(x.numpy(force=True))
    w = E.tensor(np.eye(512), dtype="float64")
    with pytest.raises(LimitError, match=r"jacfwd's Jacobian would have 134,217,728 elements \(output \[512, 512\] "
                                         r"by input \[512\]\), over the limit of 16,777,216"):
        torch_func.hessian(lambda t: (w @ t).tanh())(E.zeros(512, dtype="float64"))
    with pytest.raises(LimitError, match=r"jacrev's Jacobian would have 20,000,000 elements \(output \[5000\] by "
                                         r"input \[4000\]\)"):
        torch_func.jacrev(lambda t: t.sum() * E.ones(5000))(E.ones(4000))


def test_nested_jvp_checks_its_tangents():
    inner = lambda t: torch_func.jvp(E.sin, (t,), (E.ones(3),))[1]  # noqa: E731
    with pytest.raises(ShapeError, match=r"Tensor is of size \[2\] while the given forward gradient is of size \[3\]"):
        torch_func.jvp(inner, (E.ones(2),), (E.ones(2),))
