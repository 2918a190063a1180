"""torch.distributions of the facade (engine/facade/distributions/) against PyTorch 2.13: after manual_seed the
samples are torch's bit for bit; log_prob, entropy, cdf, the moments and kl_divergence are torch's values (the
suite's tolerance), gradients and grad_fn node names; bad parameters and values raise torch's ValueError text.
The torch-free tests check shapes, normalisation, closed forms and the messages without the oracle."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scripting import run_script
from tolerance import assert_close

from autodiff import engine as E
from autodiff.engine import facade as AD


@pytest.fixture(autouse=True)
def float32_default():
    previous = E.get_default_dtype()
    E.set_default_dtype("float32")
    yield
    E.set_default_dtype(previous)


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_default_dtype(torch.float32)
    return torch


def arr(t) -> np.ndarray:
    return np.array(t.detach().numpy())


def leaf(T, values, dtype: str = "float32"):
    return T.tensor(values, dtype=getattr(T, dtype), requires_grad=True)


# name -> fn(T) giving (distribution, its parameters that require grad), T being torch or the facade
CASES = {
    "normal-numbers": lambda T: (T.distributions.Normal(0.5, 2.0), []),
    "normal-batch": lambda T: _two(T, T.distributions.Normal, [0.0, 1.0, -2.0], [1.0, 0.5, 3.0]),
    "normal-broadcast": lambda T: _two(T, T.distributions.Normal, [[0.0], [1.5]], [1.0, 0.5, 3.0]),
    "normal-float64": lambda T: _two(T, T.distributions.Normal, [0.25, -1.0], [2.0, 0.1], "float64"),
    "normal-many": lambda T: _two(T, T.distributions.Normal, [0.1 * i for i in range(20)], [1.0] * 20),
    "uniform": lambda T: _two(T, T.distributions.Uniform, [-1.0, 0.0], [1.0, 0.5]),
    "uniform-numbers": lambda T: (T.distributions.Uniform(2.0, 5.0), []),
    "exponential": lambda T: _one(T, lambda p: T.distributions.Exponential(p), [0.5, 2.0, 10.0]),
    "exponential-float64": lambda T: _one(T, lambda p: T.distributions.Exponential(p), [1.5], "float64"),
    "bernoulli-probs": lambda T: _one(T, lambda p: T.distributions.Bernoulli(p), [0.1, 0.5, 0.9, 0.3]),
    "bernoulli-logits": lambda T: _one(T, lambda p: T.distributions.Bernoulli(logits=p), [[-2.0, 0.0], [1.0, 3.0]]),
    "bernoulli-number": lambda T: (T.distributions.Bernoulli(0.3), []),
    "categorical-probs": lambda T: _one(T, lambda p: T.distributions.Categorical(p), [1.0, 3.0, 6.0]),
    "categorical-logits": lambda T: _one(T, lambda p: T.distributions.Categorical(logits=p),
                                         [[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0]]),
    "multinomial": lambda T: _one(T, lambda p: T.distributions.Multinomial(10, p), [1 / 6] * 6),
    "multinomial-batch": lambda T: _one(T, lambda p: T.distributions.Multinomial(4, logits=p),
                                        [[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]], "float64"),  # (float64: its
    # gradient, counts minus 4 * softmax, cancels to 0.017 from terms near 1, past float32's tolerance)
    "laplace": lambda T: _two(T, T.distributions.Laplace, [0.0, 1.0, -2.0], [1.0, 0.5, 3.0]),
    "laplace-many": lambda T: _two(T, T.distributions.Laplace, [0.1 * i for i in range(20)], [2.0] * 20, "float64"),
    "geometric": lambda T: _one(T, lambda p: T.distributions.Geometric(p), [0.2, 0.5, 0.9]),
    "geometric-logits": lambda T: _one(T, lambda p: T.distributions.Geometric(logits=p), [[-1.0], [2.0]]),
    "one-hot": lambda T: _one(T, lambda p: T.distributions.OneHotCategorical(p), [[1.0, 3.0, 6.0], [2.0, 2.0, 1.0]]),
    "one-hot-straight-through": lambda T: _one(T, lambda p: T.distributions.OneHotCategoricalStraightThrough(
        logits=p), [0.5, -1.0, 2.0, 0.0]),
    "independent": lambda T: _two(T, lambda lo, s: T.distributions.Independent(T.distributions.Normal(lo, s), 1),
                                  [[0.0, 1.0, 2.0], [-1.0, 0.0, 1.0]], [[1.0, 2.0, 0.5], [1.0, 1.0, 1.0]]),
}


def _one(T, make, values, dtype: str = "float32"):
    p = leaf(T, values, dtype)
    return make(p), [p]


def _two(T, make, a, b, dtype: str = "float32"):
    p, q = leaf(T, a, dtype), leaf(T, b, dtype)
    return make(p, q), [p, q]


# Laplace's samples go through log1p, whose vectorised float kernels differ from PyTorch's in the last bit
# (its uniforms are PyTorch's bit for bit): compared within the tolerance
NEAR_SAMPLES = {"laplace", "laplace-many"}


def both(torch, case: str):
    return CASES[case](torch), CASES[case](AD)


def assert_same_tensor(got, expected, what: str) -> None:
    e, g = expected.detach().numpy(), arr(got)
    assert g.dtype == e.dtype and g.shape == e.shape, f"{what}: {g.dtype}{g.shape} != {e.dtype}{e.shape}"
    assert np.array_equal(g, e, equal_nan=e.dtype.kind == "f"), f"{what}: {g.ravel()[:6]} != {e.ravel()[:6]}"


def assert_like(got, expected, what: str) -> None:
    """The same dtype, shape and values (the suite's tolerance) and the same grad_fn node."""
    assert str(got.dtype) == str(expected.dtype), f"{what}: {got.dtype} != {expected.dtype}"
    assert_close(arr(got), expected.detach().numpy(), what=what)
    names = [t.grad_fn.name() if t.grad_fn is not None else None for t in (got, expected)]
    assert names[0] == names[1], f"{what}: grad_fn {names[0]} != {names[1]}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_samples_are_torchs_after_manual_seed(torch, case):
    (td, _), (ad, _) = both(torch, case)
    assert tuple(ad.batch_shape) == tuple(td.batch_shape) and tuple(ad.event_shape) == tuple(td.event_shape)
    for seed in (0, 7, 2**40 + 3):
        for shape in [(), (3,), (2, 2), torch.Size([5])]:
            torch.manual_seed(seed)
            AD.manual_seed(seed)
            same = assert_like if case in NEAR_SAMPLES else assert_same_tensor
            same(ad.sample(shape), td.sample(shape), f"{case} sample{shape} seed {seed}")
            if td.has_rsample:
                tr, ar = td.rsample(shape), ad.rsample(shape)
                same(ar, tr, f"{case} rsample{shape} seed {seed}")
                assert ar.grad_fn is None or ar.grad_fn.name() == tr.grad_fn.name()
            assert_same_tensor(AD.rand(2), torch.rand(2), f"{case}: the generator after sampling")


@pytest.mark.parametrize("case", sorted(CASES))
def test_expand_gives_torchs_shapes_samples_and_log_prob(torch, case):
    (td, _), (ad, _) = both(torch, case)
    shape = (2, *td.batch_shape)
    te, ae = td.expand(shape), ad.expand(shape)
    assert (type(ae).__name__, tuple(ae.batch_shape), tuple(ae.event_shape)) == \
        (type(te).__name__, tuple(te.batch_shape), tuple(te.event_shape))
    torch.manual_seed(4)
    AD.manual_seed(4)
    value = te.sample((3,))
    same = assert_like if case in NEAR_SAMPLES else assert_same_tensor
    same(ae.sample((3,)), value, f"{case} expanded sample")
    assert_like(ae.log_prob(AD.tensor(value.numpy())), te.log_prob(value), f"{case} expanded log_prob")


@pytest.mark.parametrize("case", sorted(CASES))
def test_log_prob_entropy_and_moments_are_torchs(torch, case):
    (td, _), (ad, _) = both(torch, case)
    torch.manual_seed(1)
    value = td.sample((4,))
    assert_like(ad.log_prob(AD.tensor(value.numpy())), td.log_prob(value), f"{case} log_prob")
    for name in ("mean", "variance", "stddev"):
        assert_like(getattr(ad, name), getattr(td, name), f"{case} {name}")
    if not case.startswith("multinomial"):  # (Multinomial's entropy is not provided)
        assert_like(ad.entropy(), td.entropy(), f"{case} entropy")
        assert_like(ad.perplexity(), td.perplexity(), f"{case} perplexity")
    if case.startswith(("normal", "uniform", "exponential", "laplace")):
        inside = value.clamp(min=0) if case.startswith("exponential") else value
        assert_like(ad.cdf(AD.tensor(inside.numpy())), td.cdf(inside), f"{case} cdf")


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradients_through_log_prob_entropy_and_rsample(torch, case):
    (td, tp), (ad, ap) = both(torch, case)
    torch.manual_seed(2)
    value = td.sample((3,))
    torch.manual_seed(3)
    AD.manual_seed(3)
    t_loss, a_loss = td.log_prob(value).sum(), ad.log_prob(AD.tensor(value.numpy())).sum()
    if not case.startswith("multinomial"):
        t_loss, a_loss = t_loss + td.entropy().sum(), a_loss + ad.entropy().sum()
    if td.has_rsample:
        t_loss, a_loss = t_loss + td.rsample((2,)).pow(2).sum(), a_loss + ad.rsample((2,)).pow(2).sum()
    if not tp:
        return
    t_loss.backward()
    a_loss.backward()
    for i, (a, t) in enumerate(zip(ap, tp)):
        assert_close(arr(a.grad), t.grad.numpy(), what=f"{case} grad of parameter {i}")


KL_CASES = {
    "normal": lambda T: (T.distributions.Normal(leaf(T, [0.0, 1.0]), leaf(T, [1.0, 2.0])),
                         T.distributions.Normal(leaf(T, [0.5, -1.0]), leaf(T, [0.5, 3.0]))),
    "normal-numbers": lambda T: (T.distributions.Normal(0.0, 1.0), T.distributions.Normal(1.0, 2.0)),
    "categorical": lambda T: (T.distributions.Categorical(leaf(T, [0.2, 0.3, 0.5])),
                              T.distributions.Categorical(logits=leaf(T, [[0.0, 1.0, -1.0], [2.0, 0.0, 0.0]]))),
    "categorical-zeros": lambda T: (T.distributions.Categorical(leaf(T, [0.0, 0.5, 0.5])),
                                    T.distributions.Categorical(leaf(T, [0.5, 0.0, 0.5]))),
    "bernoulli": lambda T: (T.distributions.Bernoulli(leaf(T, [0.1, 0.5, 0.0, 1.0])),
                            T.distributions.Bernoulli(leaf(T, [0.4, 0.5, 0.3, 0.3]))),
    "bernoulli-numbers": lambda T: (T.distributions.Bernoulli(0.3), T.distributions.Bernoulli(logits=0.5)),
    "uniform": lambda T: (T.distributions.Uniform(leaf(T, [0.0, 0.0]), leaf(T, [1.0, 2.0])),
                          T.distributions.Uniform(leaf(T, [-1.0, 0.5]), leaf(T, [2.0, 3.0]))),
    "exponential": lambda T: (T.distributions.Exponential(leaf(T, [1.0, 0.5])),
                              T.distributions.Exponential(leaf(T, [2.0, 0.5]))),
    "one-hot": lambda T: (T.distributions.OneHotCategorical(leaf(T, [0.2, 0.3, 0.5])),
                          T.distributions.OneHotCategorical(logits=leaf(T, [0.0, 1.0, -1.0]))),
    "laplace": lambda T: (T.distributions.Laplace(leaf(T, [0.0, 1.0]), leaf(T, [1.0, 2.0])),
                          T.distributions.Laplace(leaf(T, [0.5, -1.0]), leaf(T, [0.5, 3.0]))),
    "geometric": lambda T: (T.distributions.Geometric(leaf(T, [0.2, 0.7])),
                            T.distributions.Geometric(leaf(T, [0.5, 0.1]))),
    "independent": lambda T: (T.distributions.Independent(T.distributions.Normal(leaf(T, [0.0, 1.0]), 1.0), 1),
                              T.distributions.Independent(T.distributions.Normal(leaf(T, [1.0, 1.0]), 2.0), 1)),
}


@pytest.mark.parametrize("case", sorted(KL_CASES))
def test_kl_divergence_is_torchs(torch, case):
    (tp, tq), (ap, aq) = KL_CASES[case](torch), KL_CASES[case](AD)
    expected = torch.distributions.kl_divergence(tp, tq)
    got = AD.distributions.kl.kl_divergence(ap, aq)
    assert_close(arr(got), expected.detach().numpy(), what=case)
    if expected.dim():  # (a 0-d mask write is CopySlices in PyTorch, a where() here)
        assert got.grad_fn.name() == expected.grad_fn.name()
    if expected.requires_grad:
        finite = torch.isfinite(expected)
        expected[finite].sum().backward()
        got[AD.tensor(finite.numpy())].sum().backward()
        t_leaves = [t for t in _leaves(tp) + _leaves(tq)]
        a_leaves = [a for a in _leaves(ap) + _leaves(aq)]
        for a, t in zip(a_leaves, t_leaves):
            assert_close(arr(a.grad), t.grad.numpy(), what=f"{case} grad")


def _leaves(d) -> list:
    d = getattr(d, "base_dist", d)
    return [v for v in vars(d).values() if hasattr(v, "requires_grad") and v.requires_grad and v.grad_fn is None]


def _pair(D, T, first: int, second: int):
    return (D.Independent(D.Normal(T.zeros(2, 2), 1.0), first), D.Independent(D.Normal(T.zeros(2, 2), 1.0), second))


# calls with T the library and D its distributions, each a mistake
BAD = [
    lambda T, D: D.Normal(0.0, -1.0),
    lambda T, D: D.Normal(T.tensor([0.0, 1.0]), T.tensor([1.0, -1.0])),
    lambda T, D: D.Normal(T.tensor([0.0, float("nan")]), 1.0),
    lambda T, D: D.Uniform(1.0, 0.0),
    lambda T, D: D.Uniform(T.zeros(2), T.tensor([1.0, 0.0])),
    lambda T, D: D.Exponential(T.tensor([0.0, 1.0])),
    lambda T, D: D.Bernoulli(T.tensor([0.5, 1.2])),
    lambda T, D: D.Bernoulli(T.tensor([0.5]), logits=T.tensor([0.5])),
    lambda T, D: D.Bernoulli(),
    lambda T, D: D.Categorical(T.tensor([0.5, -0.2])),
    lambda T, D: D.Categorical(T.tensor(0.5)),
    lambda T, D: D.Categorical(logits=T.tensor(0.5)),
    lambda T, D: D.Multinomial(3.0, T.tensor([0.5, 0.5])),
    lambda T, D: D.Multinomial(-1, T.tensor([0.5, 0.5])),
    lambda T, D: D.Multinomial(-2, T.tensor([[0.2, 0.8]] * 3)),
    lambda T, D: D.Independent(D.Normal(0.0, 1.0), 1),
    lambda T, D: D.Geometric(T.tensor([0.5, 0.0])),
    lambda T, D: D.Geometric(T.tensor([0.5, 1.5])),
    lambda T, D: D.Geometric(0.5).log_prob(T.tensor(0.5)),
    lambda T, D: D.Laplace(0.0, -1.0),
    lambda T, D: D.OneHotCategorical(T.tensor([0.5, 0.5])).log_prob(T.tensor([1.0, 1.0])),
    lambda T, D: D.Normal([0.0], 1.0),
    lambda T, D: D.Normal(T.zeros(2), T.ones(3)),
    lambda T, D: D.Uniform(T.zeros(4, 1, 2), T.ones(3, 5)),
    lambda T, D: D.Normal(0.0, 1.0).log_prob(3.0),
    lambda T, D: D.Normal(T.zeros(2), 1.0).log_prob(T.zeros(3)),
    lambda T, D: D.Uniform(0.0, 1.0).log_prob(T.tensor(2.0)),
    lambda T, D: D.Exponential(1.0).log_prob(T.tensor([-1.0, 1.0])),
    lambda T, D: D.Bernoulli(T.tensor([0.5])).log_prob(T.tensor([0.5])),
    lambda T, D: D.Categorical(T.tensor([0.5, 0.5])).log_prob(T.tensor(2)),
    lambda T, D: D.Multinomial(3, T.tensor([0.5, 0.5])).log_prob(T.tensor([3.0, 1.0])),
    lambda T, D: D.Multinomial(3, T.tensor([0.5, 0.5])).log_prob(T.tensor([1.0, 1.0, 1.0])),
    lambda T, D: D.Distribution.set_default_validate_args("yes"),
    lambda T, D: D.kl_divergence(*_pair(D, T, 1, 2)),
]


@pytest.mark.parametrize("call", BAD, ids=[f"mistake{i}" for i in range(len(BAD))])
def test_mistakes_raise_torchs_exception_and_message(torch, call):
    outcomes = []
    for T in (torch, AD):
        try:
            call(T, T.distributions)
            outcomes.append(None)
        except Exception as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] is not None and outcomes[1] == outcomes[0]


# ---------------------------------------------------------------------------------------------- without torch
def test_the_import_forms_of_torch_distributions_in_a_script():
    code, out, err = run_script(
        "import torch\nimport torch.distributions as dist\nfrom torch.distributions import Categorical, Normal\n"
        "from torch.distributions.normal import Normal as N2\nfrom torch.distributions.multinomial import Multinomial\n"
        "from torch.distributions.kl import kl_divergence\nfrom torch.distributions import constraints\n"
        "print(torch.distributions.Normal is Normal is N2 is dist.Normal, Multinomial.__name__,\n"
        "      kl_divergence is dist.kl_divergence, constraints.positive)\n"
        "torch.distributions.Gamma\n")
    assert out == "True Multinomial True GreaterThan(lower_bound=0.0)\n"
    assert code == 1 and "AttributeError: module 'torch.distributions' has no attribute 'Gamma'" in err


def test_shapes_and_normalisation():
    D = AD.distributions
    m = D.Categorical(AD.tensor([[1.0, 1.0, 2.0], [3.0, 0.0, 1.0]]))
    assert tuple(m.batch_shape) == (2,) and tuple(m.event_shape) == () and repr(m.batch_shape) == "torch.Size([2])"
    assert_close(arr(m.probs), [[0.25, 0.25, 0.5], [0.75, 0.0, 0.25]])
    assert_close(arr(D.Categorical(logits=AD.tensor([0.0, math.log(3.0)])).probs), [0.25, 0.75])
    assert tuple(m.sample((4, 5)).shape) == (4, 5, 2) and m.sample().dtype == AD.int64
    n = D.Normal(AD.zeros(3, 1), AD.ones(2))
    assert tuple(n.batch_shape) == (3, 2) and tuple(n.rsample((4,)).shape) == (4, 3, 2)
    mn = D.Multinomial(10, AD.ones(2, 6))
    counts = mn.sample((3,))
    assert tuple(mn.event_shape) == (6,) and tuple(counts.shape) == (3, 2, 6)
    assert arr(counts).sum(-1).tolist() == [[10.0, 10.0]] * 3
    ind = D.Independent(D.Normal(AD.zeros(2, 3), 1.0), 1)
    assert (tuple(ind.batch_shape), tuple(ind.event_shape)) == ((2,), (3,))
    assert tuple(D.Normal(0.0, 1.0).expand([2, 3]).sample().shape) == (2, 3)
    assert repr(ind) == "Independent(Normal(loc: torch.Size([2, 3]), scale: torch.Size([2, 3])), 1)"


def test_closed_forms_and_exact_values():
    D = AD.distributions
    lp = D.Normal(AD.tensor(1.0), AD.tensor(2.0)).log_prob(AD.tensor(3.0))
    assert math.isclose(lp.item(), -0.5 - math.log(2.0) - 0.5 * math.log(2 * math.pi), rel_tol=1e-6)
    assert D.Bernoulli(0.25).log_prob(AD.tensor(1.0)).item() == pytest.approx(math.log(0.25), rel=1e-6)
    assert D.Categorical(AD.tensor([0.25, 0.75])).log_prob(AD.tensor(1)).item() == pytest.approx(math.log(0.75))
    assert D.Uniform(0.0, 4.0).entropy().item() == pytest.approx(math.log(4.0))
    assert D.Exponential(2.0).log_prob(AD.tensor(1.0)).item() == pytest.approx(math.log(2.0) - 2.0)
    mn = D.Multinomial(3, AD.tensor([0.5, 0.5])).log_prob(AD.tensor([2.0, 1.0]))
    assert mn.item() == pytest.approx(math.log(3 / 8), rel=1e-6)
    p = D.Normal(AD.tensor([0.0, 1.0]), AD.tensor([1.0, 2.0]))
    assert arr(D.kl_divergence(p, p)).tolist() == [0.0, 0.0]
    kl = D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)).item()
    assert kl == pytest.approx(math.log(2.0) + (1 + 1) / 8 - 0.5, rel=1e-6)
    assert D.kl_divergence(D.Categorical(AD.tensor([0.5, 0.5])), D.Categorical(AD.tensor([1.0, 0.0]))).item() \
        == math.inf


def test_validation_messages_and_switching_validation_off():
    D = AD.distributions
    with pytest.raises(ValueError) as caught:
        D.Normal(0.0, -1.0)
    assert str(caught.value) == ("Expected parameter scale (Tensor of shape ()) of distribution Normal(loc: 0.0, "
                                 "scale: -1.0) to satisfy the constraint GreaterThan(lower_bound=0.0), but found "
                                 "invalid values:\n-1.0")
    assert D.Normal(0.0, -1.0, validate_args=False).scale.item() == -1.0
    D.Distribution.set_default_validate_args(False)
    try:
        assert math.isnan(D.Uniform(0.0, 1.0).log_prob(AD.tensor(2.0)).exp().item() * math.nan)
        D.Categorical(AD.tensor([0.5, -0.2]))
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match="Simplex"):
        D.Categorical(AD.tensor([0.5, -0.2]))


def test_sample_moments_are_near_the_distributions_own():
    D = AD.distributions
    AD.manual_seed(0)
    for d in (D.Normal(1.0, 2.0), D.Uniform(-1.0, 3.0), D.Exponential(4.0), D.Bernoulli(0.3)):
        x = arr(d.sample((20000,)))
        assert abs(x.mean() - d.mean.item()) < 0.05 and abs(x.std() - d.stddev.item()) < 0.05, type(d).__name__
    counts = np.bincount(arr(D.Categorical(AD.tensor([0.2, 0.5, 0.3])).sample((20000,))), minlength=3) / 20000
    assert np.abs(counts - [0.2, 0.5, 0.3]).max() < 0.02
