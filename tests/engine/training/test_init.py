"""nn.init's orthogonal_, trunc_normal_, dirac_, sparse_ and the deprecated names against PyTorch's: the same
numbers after manual_seed (orthogonal_ within rounding: its QR is LAPACK's through numpy), PyTorch's warnings and
its ValueErrors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from autodiff.engine import facade as ours

torch = pytest.importorskip("torch")


def _both(name, shape, *args, dtype="float32", seed=0, **kwargs):
    """(ours, PyTorch's) tensor after the same seed and the same call of nn.init.name."""
    ours.manual_seed(seed)
    mine = getattr(ours.nn.init, name)(ours.zeros(*shape, dtype=getattr(ours, dtype)), *args, **kwargs)
    torch.manual_seed(seed)
    theirs = getattr(torch.nn.init, name)(torch.zeros(*shape, dtype=getattr(torch, dtype)), *args, **kwargs)
    return mine.numpy(), theirs.numpy()


EXACT = [("trunc_normal_", (40, 7), {}), ("trunc_normal_", (5,), {"mean": 1.0, "std": 0.5, "a": 0.0, "b": 1.2}),
         ("trunc_normal_", (30,), {"mean": 0.0, "std": 1.0, "a": 2.0, "b": 3.0}),
         ("trunc_normal_", (8, 3), {"std": 0.02, "a": -0.04, "b": 0.04}),
         ("dirac_", (4, 2, 3), {}), ("dirac_", (6, 3, 3, 3), {"groups": 2}), ("dirac_", (2, 2, 3, 1, 2), {}),
         ("sparse_", (10, 4), {"sparsity": 0.3}), ("sparse_", (7, 3), {"sparsity": 0.5, "std": 1.0})]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "shape", "kwargs"), EXACT, ids=[f"{e[0]}-{i}" for i, e in enumerate(EXACT)])
def test_same_numbers_as_pytorch_after_manual_seed(name, shape, kwargs, dtype):
    mine, theirs = _both(name, shape, dtype=dtype, **kwargs)
    assert np.array_equal(mine, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "gain"), [((4, 4), 1), ((3, 7), 2.0), ((9, 2), 0.5), ((4, 2, 3), 1)])
def test_orthogonal_is_pytorchs_within_rounding(shape, gain, dtype):
    mine, theirs = _both("orthogonal_", shape, gain, dtype=dtype)
    tolerance = 1e-5 if dtype == "float32" else 1e-12
    assert np.allclose(mine, theirs, rtol=tolerance, atol=tolerance)
    flat = mine.reshape(shape[0], -1)
    small = flat @ flat.T if shape[0] <= flat.shape[1] else flat.T @ flat
    assert np.allclose(small, gain**2 * np.eye(len(small)), atol=tolerance * 10)


@pytest.mark.parametrize(("name", "args"), [("uniform", (-1, 2)), ("normal", (0.5, 2.0)), ("constant", (0.25,)),
                                            ("eye", ()), ("xavier_uniform", ()), ("xavier_normal", (1.5,)),
                                            ("kaiming_uniform", ()), ("kaiming_normal", ()), ("orthogonal", ()),
                                            ("sparse", (0.5,))])
def test_deprecated_names_warn_and_do_the_same(name, args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mine, theirs = _both(name, (4, 5), *args)
    assert [str(w.message) for w in caught if w.category is FutureWarning] == [
        f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`."] * 2
    assert np.allclose(mine, theirs, rtol=1e-5, atol=1e-6)
    assert getattr(ours.nn.init, name).__name__ == name


BAD = [("orthogonal_", (3,), ()), ("dirac_", (3, 3), ()), ("dirac_", (3, 2, 3), (2,)), ("sparse_", (2, 2, 2), (0.1,)),
       ("eye_", (3,), ()), ("xavier_uniform_", (3,), ()), ("kaiming_normal_", (3, 3), (0, "fan_x"))]


@pytest.mark.parametrize(("name", "shape", "args"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_calls_raise_pytorchs_value_errors(name, shape, args):
    with pytest.raises(ValueError) as their_error:
        getattr(torch.nn.init, name)(torch.zeros(*shape), *args)
    with pytest.raises(ValueError) as our_error:
        getattr(ours.nn.init, name)(ours.zeros(*shape), *args)
    assert str(our_error.value) == str(their_error.value)


def test_trunc_normal_warns_as_pytorch_and_zero_element_kaiming():
    for lib in (ours, torch):
        with pytest.warns(UserWarning, match="mean is more than 2 std from"):
            lib.nn.init.trunc_normal_(lib.zeros(3), mean=10.0)
        with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
            lib.nn.init.kaiming_uniform_(lib.zeros(0, 3))
