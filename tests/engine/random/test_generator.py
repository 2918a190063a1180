"""PyTorch's CPU random numbers, bit for bit (engine/random/generator.py, engine/random/distributions.py).

Without torch: every case of random_cases.py against golden/random.json (recorded by
tests/make_random_golden.py from PyTorch 2.13), the exact fused multiply-adds, seeding and errors.
With torch installed: sweeps over many seeds, sizes (0 to 100, large), dtypes, shapes and layouts, every
result compared for exact equality with what torch gives in the same process.
"""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from autodiff import engine as E
from autodiff.engine.errors import AutogradError, BadValueError, LimitError, ShapeError
from autodiff.engine.kernels.floatmath import fma32, fma64, log_avx2, sincos_avx2
from autodiff.engine.random import generator as G

from ..caseload import load_random_cases

cases = load_random_cases()
GOLDEN_FILE = json.loads((Path(__file__).parent / "golden" / "random.json").read_text())
GOLDEN = {record["id"]: record for record in GOLDEN_FILE["cases"]}
CASES = {c.id: c for c in cases.CASES}
ENGINE = cases.Lib(E, False)


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


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal dtype, shape and values (nan where nan)."""
    return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))


def assert_same(expected: np.ndarray, got: np.ndarray, what: object) -> None:
    assert same(expected, got), f"{what}: torch {expected.dtype}{list(expected.shape)} {expected.ravel()[:6]} " \
                                f"!= engine {got.dtype}{list(got.shape)} {got.ravel()[:6]}"


def both(torch, seed: int) -> None:
    torch.manual_seed(seed)
    E.manual_seed(seed)


def arr(t: E.Tensor) -> np.ndarray:
    return np.array(t.numpy(force=True))


# ---------------------------------------------------------------------------- the golden file (no torch)
def test_golden_file_and_cases_agree():
    assert GOLDEN_FILE["meta"]["cases"] == len(GOLDEN)
    assert list(GOLDEN) == list(CASES), "random_cases.py changed: regenerate with tests/make_random_golden.py"


@pytest.mark.parametrize("case_id", list(GOLDEN))
def test_golden_case(case_id):
    results = CASES[case_id].run(ENGINE)
    expected = GOLDEN[case_id]["results"]
    assert len(results) == len(expected)
    for i, (got, want) in enumerate(zip(results, expected)):
        assert str(got.dtype) == want["dtype"] and list(got.shape) == want["shape"], f"result {i}"
        flat = got.reshape(-1).tolist()
        if "values" in want:
            assert flat == want["values"], f"result {i}: {flat[:6]} != {want['values'][:6]}"
        else:
            assert flat[:8] == want["head"], f"result {i}"
            little = np.ascontiguousarray(got, dtype=got.dtype.newbyteorder("<"))
            assert hashlib.sha256(little.tobytes()).hexdigest() == want["sha256"], f"result {i}"


def test_the_issue_example():
    E.manual_seed(0)
    assert repr(E.randn(3)) == "tensor([ 1.5410, -0.2934, -2.1788])"
    E.manual_seed(0)
    assert E.randn(3).numpy(force=True).tolist() == [1.5409960746765137, -0.293428897857666, -2.1787893772125244]


# ---------------------------------------------------------------------------- live against torch
def test_seeding_gives_torchs_mt19937_state(torch):
    for seed in [0, 1, 5489, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**63, 2**64 - 1, *range(100, 140)]:
        torch.manual_seed(seed)
        state = torch.get_rng_state().numpy()
        assert state[:8].view(np.uint64)[0] == seed  # the_initial_seed
        assert np.array_equal(state[24:24 + 624 * 8].view(np.uint64).astype(np.uint32), G.mt19937_key(seed)), seed


def test_raw_words_are_torchs(torch):
    for seed in range(20):
        torch.manual_seed(seed)
        want = torch.empty(1500, dtype=torch.int64).random_().numpy()  # random64() % 2**63 per element
        got = (G.Generator().manual_seed(seed).words64(1500) % np.uint64(2**63)).astype(np.int64)
        assert np.array_equal(want, got), seed


SWEEP_SEEDS = [*range(8), 2**32 + 7, 2**63 + 1, 2**64 - 1]
SWEEP_SIZES = [*range(101), 1000, 4099, 65537]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["randn", "rand"])
def test_every_size_from_0_to_100_and_large(torch, kind, dtype):
    for seed in SWEEP_SEEDS:
        both(torch, seed)
        for n in SWEEP_SIZES:  # one stream per seed: each size continues where the last one stopped
            want = getattr(torch, kind)(n, dtype=getattr(torch, dtype)).numpy()
            assert_same(want, arr(getattr(E, kind)(n, dtype=dtype)), (kind, dtype, seed, n))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_many_seeds(torch, dtype):
    for seed in range(300):
        both(torch, seed)
        for n in (1, 2, 3, 15, 16, 17, 40):
            assert_same(torch.randn(n, dtype=getattr(torch, dtype)).numpy(), arr(E.randn(n, dtype=dtype)), (seed, n))
        assert_same(torch.rand(5, dtype=getattr(torch, dtype)).numpy(), arr(E.rand(5, dtype=dtype)), seed)


def test_shapes_multi_dimensional_and_zero_dimensional(torch):
    shapes = [(), (1,), (0,), (2, 0), (3, 5), (4, 4), (1, 16), (2, 3, 4), (5, 1, 7), (2, 2, 2, 2, 2), (30, 30)]
    for seed in range(10):
        both(torch, seed)
        for shape in shapes:
            for dtype in ("float32", "float64"):
                for kind in ("randn", "rand"):
                    want = getattr(torch, kind)(shape, dtype=getattr(torch, dtype)).numpy()
                    assert_same(want, arr(getattr(E, kind)(size=shape, dtype=dtype)), (seed, shape, kind, dtype))
        assert_same(torch.randn(2, 3).numpy(), arr(E.randn(2, 3)), seed)
        assert_same(torch.randn(size=(2, 9)).numpy(), arr(E.randn(size=(2, 9))), seed)


def _layouts(lib):
    """Inputs of every layout: contiguous, transposed, permuted, and sliced (not dense)."""
    return [lib.zeros(4, 5), lib.zeros(5, 4).t(), lib.zeros(8, 8).t(), lib.zeros(2, 3, 4).permute(2, 0, 1),
            lib.zeros(6, 4)[::2], lib.zeros(4, 10)[:, 1:], lib.zeros(20, 3).t(), lib.zeros(3), lib.zeros(()),
            lib.zeros(5, 3).t()[:2], lib.zeros(6, 4).t()[::2], lib.zeros(2, 3, 4).permute(2, 0, 1)[:, :, 1:],
            lib.zeros(3).expand(4, 3), lib.zeros(4, 1).expand(4, 3), lib.zeros(1, 4).expand(3, 4).t()]


def test_like_functions_keep_the_layout_and_draw_in_memory_order(torch):
    for seed in range(10):
        both(torch, seed)
        for x, y in zip(_layouts(torch), _layouts(E)):
            for dtype in ("float32", "float64"):
                for kind in ("randn_like", "rand_like"):
                    want = getattr(torch, kind)(x, dtype=getattr(torch, dtype))
                    got = getattr(E, kind)(y, dtype=dtype)
                    assert_same(want.numpy(), arr(got), (seed, kind, dtype, tuple(x.shape), x.stride()))


def test_random_programs_of_mixed_calls(torch):
    """The scalar normal cache, the 16-at-a-time path and the other samplers, interleaved."""
    steps = [
        lambda L, n, d: L.randn(n, dtype=d), lambda L, n, d: L.rand(n, dtype=d),
        lambda L, n, d: L.zeros(n, dtype=d).normal_(0.5, 2.0), lambda L, n, d: L.zeros(n, dtype=d).uniform_(-1, 3),
        lambda L, n, d: L.randint(0, n + 1, (n,)), lambda L, n, d: L.randperm(n),
        lambda L, n, d: L.normal(1.0, 0.1, (n,), dtype=d), lambda L, n, d: L.bernoulli(L.zeros(n, dtype=d) + 0.5),
        lambda L, n, d: L.multinomial(L.ones(n + 2, dtype=d), 2), lambda L, n, d: L.randn(n, 2, dtype=d).t(),
    ]
    picker = np.random.default_rng(2024)
    for program in range(150):
        seed = int(picker.integers(0, 2**64, dtype=np.uint64))
        both(torch, seed)
        for _ in range(12):
            step, n = int(picker.integers(len(steps))), int(picker.choice([1, 2, 3, 7, 15, 16, 17, 33, 100]))
            dtype = str(picker.choice(["float32", "float64"]))
            want = steps[step](torch, n, getattr(torch, dtype))
            assert_same(want.numpy(), arr(steps[step](E, n, dtype)), (program, seed, step, n, dtype))


def test_randint(torch):
    ranges = [(0, 1), (0, 2), (0, 10), (-5, 5), (0, 2**28 - 1), (0, 2**28), (3, 2**40), (-2**62, 2**62),
              (-2**63, 2**63 - 1), (10**12, 10**12 + 3)]
    for seed in range(25):
        both(torch, seed)
        for low, high in ranges:
            for shape in [(1,), (7,), (3, 4), (), (100,)]:
                assert_same(torch.randint(low, high, shape).numpy(), arr(E.randint(low, high, shape)), (low, high))
        assert_same(torch.randint(7, (5,)).numpy(), arr(E.randint(7, (5,))), seed)
        assert_same(torch.randint(3, 9, size=(4,)).numpy(), arr(E.randint(3, 9, size=(4,))), seed)
        assert_same(torch.randint(0, 9, (6,), dtype=torch.float64).numpy(), arr(E.randint(0, 9, (6,), dtype="float64")),
                    seed)


def test_randperm(torch):
    for seed in range(25):
        both(torch, seed)
        for n in [0, 1, 2, 3, 10, 16, 17, 100, 1000, 5000]:
            assert_same(torch.randperm(n).numpy(), arr(E.randperm(n)), (seed, n))
        assert_same(torch.randperm(7, dtype=torch.float32).numpy(), arr(E.randperm(7, dtype="float32")), seed)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_and_in_place_normal_uniform(torch, dtype):
    tdt = getattr(torch, dtype)
    params = [(0, 1), (0, 0.01), (1.5, 2.0), (-3, 0.1), (0.1, 1), (1e3, 1e-3), (0, 0)]
    for seed in range(12):
        both(torch, seed)
        for mean, std in params:
            for n in (1, 5, 15, 16, 17, 40, 1000):
                assert_same(torch.normal(mean, std, (n,), dtype=tdt).numpy(),
                            arr(E.normal(mean, std, (n,), dtype=dtype)), (seed, mean, std, n))
                assert_same(torch.empty(n, dtype=tdt).normal_(mean, std).numpy(),
                            arr(E.zeros(n, dtype=dtype).normal_(mean, std)), (seed, mean, std, n))
        for low, high in [(0, 1), (-1, 1), (0.5, 2.5), (-0.1, 0.1), (3, 3), (-1e30, 1e30), (1e-3, 1.0)]:
            for n in (1, 5, 20, 100):
                assert_same(torch.empty(n, dtype=tdt).uniform_(low, high).numpy(),
                            arr(E.zeros(n, dtype=dtype).uniform_(low, high)), (seed, low, high, n))


def test_in_place_on_views_and_under_no_grad(torch):
    for seed in range(10):
        for shape in [(4, 5), (40, 3), (16, 2)]:
            tw, aw = torch.zeros(shape), E.zeros(*shape)
            both(torch, seed)
            tw.t().normal_()
            aw.t().normal_()
            tw[:, 1].normal_(2, 3)
            aw[:, 1].normal_(2, 3)
            tw[1:].uniform_(-1, 1)
            aw[1:].uniform_(-1, 1)
            assert_same(tw.numpy(), arr(aw), (seed, shape))
            tw, aw = torch.zeros(shape, requires_grad=True), E.zeros(*shape, requires_grad=True)
            with torch.no_grad():
                tw.normal_(0, 0.01)
            with E.no_grad():
                aw.normal_(0, 0.01)
            tw.data.uniform_(-0.5, 0.5)
            aw.data.uniform_(-0.5, 0.5)
            assert_same(tw.detach().numpy(), arr(aw), (seed, shape))
            assert aw.requires_grad and aw.grad_fn is None


def test_normal_with_tensor_mean_and_std(torch):
    rs = np.random.default_rng(1)
    for seed in range(15):
        for shape in [(4, 5), (20,), (1, 17)]:
            for dtype in (np.float32, np.float64):
                m, s = rs.standard_normal(shape).astype(dtype), rs.random(shape).astype(dtype)
                both(torch, seed)
                pairs = [(torch.normal(torch.from_numpy(m), torch.from_numpy(s)), E.normal(E.tensor(m), E.tensor(s))),
                         (torch.normal(torch.from_numpy(m), 0.5), E.normal(E.tensor(m), 0.5)),
                         (torch.normal(2.0, torch.from_numpy(s)), E.normal(2.0, E.tensor(s))),
                         (torch.normal(torch.from_numpy(m[:1]), torch.from_numpy(s)),
                          E.normal(E.tensor(m[:1]), E.tensor(s)))]
                for i, (want, got) in enumerate(pairs):
                    assert_same(want.numpy(), arr(got), (seed, shape, i))


def test_normal_of_tensors_that_require_grad(torch):
    """PyTorch's gradient of normal(mean, std) is zero for both; the engine's result has no history."""
    both(torch, 3)
    tm, ts = torch.tensor([0.0, 1.0, 2.0], requires_grad=True), torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
    am, as_ = E.tensor([0.0, 1.0, 2.0], requires_grad=True), E.tensor([1.0, 0.5, 2.0], requires_grad=True)
    want, got = torch.normal(tm, ts), E.normal(am, as_)
    assert_same(want.detach().numpy(), arr(got), "values")
    want.sum().backward()
    assert tm.grad.tolist() == [0.0, 0.0, 0.0]
    assert got.grad_fn is None and not got.requires_grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bernoulli_and_multinomial(torch, dtype):
    rs = np.random.default_rng(7)
    for seed in range(25):
        for shape in [(1,), (5,), (3, 4), (20,), (17, 3), (6, 7)]:
            p = rs.random(shape).astype(dtype)
            both(torch, seed)
            tp, ap = torch.from_numpy(p), E.tensor(p)
            assert_same(torch.bernoulli(tp).numpy(), arr(E.bernoulli(ap)), (seed, shape))
            assert_same(torch.bernoulli(tp, 0.3).numpy(), arr(E.bernoulli(ap, 0.3)), (seed, shape))
            assert_same(tp.bernoulli().numpy(), arr(ap.bernoulli()), (seed, shape))
            if len(shape) == 2:
                assert_same(torch.bernoulli(tp.t()).numpy(), arr(E.bernoulli(ap.t())), (seed, shape))
            for k in (1, 2, 3):
                for replacement in (False, True) if k <= shape[-1] else (True,):
                    assert_same(torch.multinomial(tp, k, replacement).numpy(),
                                arr(E.multinomial(ap, k, replacement)), (seed, shape, k, replacement))
                    if len(shape) == 2 and (replacement or k <= shape[0]):
                        assert_same(tp.t().multinomial(k, replacement).numpy(),
                                    arr(ap.t().multinomial(k, replacement)), (seed, shape, k, replacement))


# ---------------------------------------------------------------------------- the arithmetic (no torch)
def _rn32(exact: Fraction) -> np.float32:
    """exact rounded to the nearest float32 (ties to even)."""
    guess = np.float32(float(exact))
    best = None
    for c in (np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))):
        d = abs(Fraction(float(c)) - exact)
        if best is None or d < best[0] or (d == best[0] and int(np.array(c).view(np.int32)) % 2 == 0):
            best = (d, c)
    return best[1]


def test_fma32_rounds_once():
    rs = np.random.default_rng(0)
    a = rs.standard_normal(4000).astype(np.float32)
    b = rs.standard_normal(4000).astype(np.float32)
    c = (-(a.astype(np.float64) * b) + rs.standard_normal(4000) * 1e-7).astype(np.float32)  # cancellation
    c[:1000] = rs.standard_normal(1000).astype(np.float32)
    got = fma32(a, b, c)
    for i in range(a.size):
        assert got[i] == _rn32(Fraction(float(a[i])) * Fraction(float(b[i])) + Fraction(float(c[i]))), i
    # a sum exactly halfway between two float32 in float64, pushed off it by the product's last bits
    x = np.float32(1 + 2**-12)
    assert fma32(x, x, np.float32(2**-36)) == _rn32(Fraction(float(x)) ** 2 + Fraction(2**-36))


def test_fma64_rounds_once():
    rs = np.random.default_rng(1)
    a, b = rs.standard_normal(4000), rs.standard_normal(4000)
    c = -(a * b) + rs.standard_normal(4000) * 1e-17
    c[:1000] = rs.standard_normal(1000)
    a[:5], b[:5], c[:5] = [1e300, 1e-300, 2.0**-1000, 3.0, 1e200], [1e10, 1e-20, 2.0**-60, 0.0, 1e200], 1.0
    got = fma64(a, b, c)
    for i in range(a.size):
        want = Fraction(a[i]) * Fraction(b[i]) + Fraction(c[i])
        assert got[i] == (float(want) if abs(want) < 2**1024 else math.inf), i


def test_cephes_log_and_sincos_are_close_to_the_true_values():
    x = np.linspace(2**-24, 1, 100001, dtype=np.float32)
    assert np.max(np.abs(log_avx2(x) - np.log(x.astype(np.float64)))) < 1e-6 * 20
    theta = np.linspace(0, 2 * np.pi, 100001).astype(np.float32)
    s, c = sincos_avx2(theta)
    assert np.max(np.abs(s - np.sin(theta.astype(np.float64)))) < 1e-6
    assert np.max(np.abs(c - np.cos(theta.astype(np.float64)))) < 1e-6
    assert np.isnan(log_avx2(np.float32(0.0)))


# ---------------------------------------------------------------------------- seeds, state, errors
def test_seeds_that_differ_by_2_to_the_32_give_the_same_numbers():
    E.manual_seed(5)
    first = arr(E.randn(20))
    E.manual_seed(5 + 2**32)
    assert np.array_equal(first, arr(E.randn(20)))


def test_manual_seed_forgets_the_cached_normal_sample():
    E.manual_seed(0)
    E.randn(1)  # leaves the pair's second sample cached
    E.manual_seed(0)
    assert arr(E.randn(1)).tolist() == [1.5409960746765137]


def test_the_default_generator_is_seeded_from_the_system():
    """As PyTorch's default CPU generator: a fresh process starts from os.urandom, not a constant; a
    Generator() made by a program starts from c10's default seed, as torch.Generator() does."""
    program = "from autodiff.engine.random import generator; print(generator.initial_seed())"
    seeds = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
             for _ in range(2)}
    assert len(seeds) == 2 and all(0 <= int(s) < 2**64 for s in seeds)
    assert G.Generator().initial_seed() == 67280421310721
    G.manual_seed(123)
    assert G.initial_seed() == 123


@pytest.mark.parametrize("call, error, text", [
    (lambda: E.manual_seed(-1), BadValueError, "non-negative"),
    (lambda: E.manual_seed(2**64), BadValueError, "less than 2**64"),
    (lambda: E.manual_seed(1.5), BadValueError, "integer"),
    (lambda: E.manual_seed(True), BadValueError, "integer"),
    (lambda: E.manual_seed("0"), BadValueError, "integer"),
    (lambda: E.randint(5, 5, (2,)), BadValueError, "from=5 >= to=5"),
    (lambda: E.randint(5, 1, (2,)), BadValueError, "less than 'to'"),
    (lambda: E.randint(0, 2**63 + 1, (2,)), BadValueError, "int64"),
    (lambda: E.randint(0, 2.5, (2,)), BadValueError, "whole number"),
    (lambda: E.randint(0, 1, 2, (2,)), BadValueError, "randint takes"),
    (lambda: E.randint(), BadValueError, "needs a size"),
    (lambda: E.randint(0, 5, (2,), requires_grad=True), AutogradError, "floating point"),
    (lambda: E.randperm(-1), BadValueError, "non-negative"),
    (lambda: E.randperm(2**40), LimitError, "randperm"),
    (lambda: E.normal(0, -1, (2,)), BadValueError, "std >= 0.0"),
    (lambda: E.normal(0, float("nan"), (2,)), BadValueError, "std >= 0.0"),
    (lambda: E.normal(0, 1), BadValueError, "needs a size"),
    (lambda: E.normal(E.zeros(2), E.tensor([1.0, -1.0])), BadValueError, "std >= 0.0"),
    (lambda: E.normal(E.zeros(2), E.ones(3)), ShapeError, "broadcast"),
    (lambda: E.normal(E.zeros(2), 1.0, (2,)), BadValueError, "shape and dtype"),
    (lambda: E.zeros(3).normal_(0, -2), BadValueError, "std >= 0.0"),
    (lambda: E.zeros(3).uniform_(1, 0), BadValueError, "from=1 > to=0"),
    (lambda: E.zeros(3).uniform_(-3e38, 3e38), BadValueError, "to-from"),
    (lambda: E.zeros(3, requires_grad=True).normal_(), AutogradError, "leaf"),
    (lambda: (E.zeros(3, requires_grad=True) * 2).uniform_(), AutogradError, "not recorded"),
    (lambda: E.bernoulli(E.tensor([0.5, 1.5])), BadValueError, "[0, 1]"),
    (lambda: E.bernoulli(E.tensor([0.5]), 2.0), BadValueError, "p=2"),
    (lambda: E.multinomial(E.tensor([0.5, -0.1]), 1), BadValueError, "element < 0"),
    (lambda: E.multinomial(E.tensor([0.5, float("nan")]), 1), BadValueError, "nan"),
    (lambda: E.multinomial(E.tensor([0.0, 0.0]), 1), BadValueError, "sum of probabilities"),
    (lambda: E.multinomial(E.tensor([0.5, 0.5]), 3), BadValueError, "without replacement"),
    (lambda: E.multinomial(E.tensor([0.5, 0.5]), 0), BadValueError, "n_sample <= 0"),
    (lambda: E.multinomial(E.tensor([0.5, 0.5]), 2.0), BadValueError, "whole number"),
    (lambda: E.multinomial(E.zeros(2, 2, 2) + 1, 1), ShapeError, "1 or 2 dim"),
    (lambda: E.multinomial(E.tensor([[1.0, 1.0], [0.0, 0.0]]), 1, True), BadValueError, "sum of probabilities"),
    (lambda: E.multinomial(E.randint(1, 3, (3,)), 1), BadValueError, "float tensor"),
    (lambda: E.bernoulli(E.randint(0, 2, (3,))), BadValueError, "float tensor"),
    (lambda: E.normal(E.randint(0, 2, (3,)), 1.0), BadValueError, "float tensor"),
    (lambda: E.randint(0, 2, (3,)).normal_(), BadValueError, "float tensor"),
    (lambda: E.rand(0, 2**62), LimitError, "memory"),
    (lambda: E.rand(2, generator=3), BadValueError, "generator must be a torch.Generator"),
    (lambda: E.Generator("cuda"), BadValueError, "only the CPU"),
    (lambda: E.Generator().set_state(E.zeros(5056)), BadValueError, "ByteTensor"),
    (lambda: E.Generator().set_state(E.zeros(10, dtype=E.uint8)), BadValueError, "of size 5056 but found"),
    (lambda: E.Generator().set_state(E.zeros(5056, dtype=E.uint8)), BadValueError, "Invalid mt19937 state"),
    (lambda: E.randn(2, dtype=E.int64), BadValueError, "not implemented for torch.int64"),
])
def test_user_errors_are_typed(call, error, text):
    with pytest.raises(error) as caught:
        call()
    assert text in str(caught.value)


# ---------------------------------------------------------------------------- torch.Generator
def test_a_generator_of_its_own_leaves_the_default_one_alone():
    E.manual_seed(0)
    first = arr(E.rand(3))
    E.manual_seed(0)
    g = E.Generator().manual_seed(0)
    assert arr(E.rand(3, generator=g)).tolist() == first.tolist()
    assert arr(E.rand(3)).tolist() == first.tolist()  # the default generator did not move


def test_get_state_and_set_state_rewind():
    g = E.Generator().manual_seed(42)
    E.randn(1, dtype="float64", generator=g)  # leaves a normal sample cached: the state carries it
    state = g.get_state()
    assert state.dtype is E.uint8 and state.shape == (5056,)
    first = [arr(E.randn(3, generator=g)), arr(E.randint(0, 100, (4,), generator=g))]
    g.set_state(state)
    again = [arr(E.randn(3, generator=g)), arr(E.randint(0, 100, (4,), generator=g))]
    assert all(a.tolist() == b.tolist() for a, b in zip(first, again))
    assert g.initial_seed() == 42


def test_the_default_generators_state():
    E.manual_seed(3)
    state = E.get_rng_state()
    first = arr(E.rand(5))
    E.set_rng_state(state)
    assert arr(E.rand(5)).tolist() == first.tolist()
    assert E.manual_seed(4) is E.default_generator() and E.initial_seed() == 4
    chosen = E.seed()
    assert E.initial_seed() == chosen and 0 <= chosen < 2**63


def test_generator_states_are_pytorchs_bytes(torch):
    """get_state() is PyTorch's layout: a state saved by either library restores in the other."""
    for seed, draws in [(0, 0), (7, 1), (2**40 + 3, 700), (5, 1249)]:
        ours, theirs = E.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)
        if draws:
            E.rand(draws, generator=ours)
            torch.rand(draws, generator=theirs)
        E.randn(1, dtype="float64", generator=ours)
        torch.randn(1, dtype=torch.float64, generator=theirs)
        assert arr(ours.get_state()).tolist() == theirs.get_state().numpy().tolist(), (seed, draws)
        copy = E.Generator().set_state(E.tensor(theirs.get_state().numpy()))
        assert arr(E.randn(5, generator=copy)).tolist() == torch.randn(5, generator=theirs).numpy().tolist()
    assert E.Generator().initial_seed() == torch.Generator().initial_seed()


def test_seeding_again_gives_a_fresh_generators_words_and_state():
    """manual_seed reuses the bit generator of an earlier seed (seeded in C): every word, the state get_state
    reports and the words after a snapshot are those of a generator seeded once, from mt19937_key."""
    again = G.Generator()
    for seed in [0, 1, 5489, 2**32 - 1, 2**32 + 5, 2**64 - 1, 987654321]:
        again.manual_seed(seed)
        first = again.words(700)  # past one regeneration of the 624 words
        fresh = G.Generator().manual_seed(seed)
        assert np.array_equal(first, fresh.words(700)), seed
        assert np.array_equal(again.get_state().numpy(force=True), fresh.get_state().numpy(force=True)), seed
        again.manual_seed(seed)
        assert np.array_equal(again.get_state().numpy(force=True)[24:24 + 624 * 8].view(np.uint64).astype(np.uint32),
                              G.mt19937_key(seed)), seed
        assert np.array_equal(again.words(700), first), seed
