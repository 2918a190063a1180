"""Large elementwise computations split over the cores (engine/kernels/parallel.py) give bit-identical results to
numpy's unsplit ones: the kernels alone, and whole programs forward and backward."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from autodiff import engine
from autodiff.engine.kernels import parallel

N = parallel.CHEAP_THRESHOLD + 4099  # above both thresholds, not a multiple of the block size (1027 * 1025)
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 88.7, 89.0, -104.0, 1e30, -1e30, 1.0, -1.0]


def _data(dtype: type, seed: int, scale: float = 3.0) -> np.ndarray:
    x = (np.random.default_rng(seed).standard_normal(N) * scale).astype(dtype)
    x[: len(SPECIAL)] = SPECIAL
    x[-len(SPECIAL):] = SPECIAL[::-1]
    return x


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


UNARY = [np.sin, np.cos, np.tan, np.exp, np.log, np.tanh, np.sqrt, np.arcsin, np.arctan, np.sinh, np.cosh, np.log1p,
         np.expm1, np.exp2, np.log2, np.log10, np.negative, np.absolute, np.floor]
BINARY = [np.add, np.subtract, np.multiply, np.divide, np.power, np.maximum, np.minimum, np.hypot, np.arctan2]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernels_are_bit_identical(dtype: type) -> None:
    x, y = _data(dtype, 0, 10.0), _data(dtype, 1)
    one = np.broadcast_to(np.asarray(dtype(1.5)), x.shape)  # the gradient of a sum: one value, stride 0
    with np.errstate(all="ignore"):
        for ufunc in UNARY:
            assert _same(parallel.unary(ufunc)(x), ufunc(x)), ufunc
        for ufunc in BINARY:
            for a, b in ((x, y), (x, 2.5), (3, y), (one, x)):
                assert _same(parallel.binary(ufunc)(a, b), ufunc(a, b)), ufunc
        assert _same(parallel.SIGMOID(x), 1 / (1 + np.exp(-x)))
        r = np.tanh(x)
        for g in (y, one):
            assert _same(parallel.TANH_BACKWARD(g, r), g * (1 - r * r))
            assert _same(parallel.SIGMOID_BACKWARD(g, r), g * (1 - r) * r)
            assert _same(parallel.SIN_BACKWARD(g, x), g * np.cos(x))
        total = x.copy()
        assert parallel.ADD.into(total, total, y) and _same(total, x + y)
        assert _same(parallel.SQUARE(x), x * x) and _same(parallel.CUBE(x), x * x * x)
        assert _same(parallel.NEGATIVE(x), -x) and _same(parallel.NEGATIVE(one), -one)
        for exponent in (3, 2.5, -1.5):
            for g in (y, one):
                t = x * x
                assert parallel.SCALE_TWICE.into(t, exponent, g) and _same(t, g * (exponent * (x * x)))
            assert _same(parallel.POW_BACKWARD[2](2, g, x), g * (2 * x.copy()))
            assert _same(parallel.POW_BACKWARD[3](3.0, g, x), g * (3.0 * (x * x)))


@pytest.mark.parametrize(("n", "size", "parts"), [(4_000_000, 1 << 16, 2), (N, 1 << 18, 2), (N, 1 << 16, 1),
                                                  (N, 1 << 16, 8), (1 << 16, 1 << 16, 2), (7, 1, 2), (8, 1, 2)])
def test_guided_blocks_cover_the_array_once_on_aligned_boundaries(n: int, size: int, parts: int) -> None:
    bounds = parallel.chunks(n, size, parts)
    assert bounds[0] == 0 and bounds[-1] == n
    widths = np.diff(bounds)
    assert (widths > 0).all() and (widths[:-1] >= size).all()
    assert all(b % 1024 == 0 for b in bounds[1:-1]) or size < 1024
    assert (widths[:-1] <= max(size, n // (2 * parts))).all()  # no block larger than the first share
    if n >= 64 * size:
        assert len(bounds) - 1 < n // size // 2  # far fewer blocks than fixed ones


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_gradient_of_one_skips_its_product_and_keeps_the_bits(dtype: type) -> None:
    """The backward kernels of tanh, sigmoid and sin with a gradient of one (a sum's, broadcast; a 0-d one; the
    number) run their `unit` chain, a pass less: the same bits as g * ... with nan, inf, -0.0 and subnormals."""
    x = _data(dtype, 4, 10.0)
    r = np.tanh(x)
    with np.errstate(all="ignore"):
        for g in (np.broadcast_to(np.asarray(dtype(1)), x.shape), np.asarray(dtype(1)), 1.0, 1):
            assert _same(parallel.TANH_BACKWARD(g, r), np.multiply(g, 1 - r * r, dtype=dtype))
            assert _same(parallel.SIGMOID_BACKWARD(g, r), np.multiply(g, 1 - r, dtype=dtype) * r)
            assert _same(parallel.SIN_BACKWARD(g, x), np.multiply(g, np.cos(x), dtype=dtype))
            assert _same(parallel.SIN_BACKWARD(g, r), np.multiply(g, np.cos(r), dtype=dtype))
        g = np.broadcast_to(np.asarray(dtype(1)), x.shape)
        unit, parallel.TANH_BACKWARD.unit = parallel.TANH_BACKWARD.unit, None  # the whole chain: the same bits
        try:
            assert _same(parallel.TANH_BACKWARD(g, r), unit(r))
        finally:
            parallel.TANH_BACKWARD.unit = unit


def test_unsuited_arguments_are_left_to_numpy() -> None:
    x = _data(np.float32, 0)
    assert parallel.unary(np.sin)(x[:1000]) is None  # small
    assert parallel.unary(np.sin)(x[::2]) is None  # not contiguous
    assert parallel.binary(np.add)(x, x.astype(np.float64)) is None  # mixed dtypes
    assert parallel.binary(np.add)(x, np.float64(2.0)) is None  # a numpy scalar takes part in promotion
    assert parallel.binary(np.add)(x.reshape(-1, 1)[: N // 2], x[: N // 2]) is None  # broadcasting


PROGRAMS = {
    "sin_exp_tanh": lambda lib, x: (lib.sin(x) * lib.exp(-x * x) + lib.tanh(x) * x).sum(),
    "sigmoid_log": lambda lib, x: (lib.sigmoid(x) * lib.log(x * x + 1) - lib.cos(x) / (x * x + 2)).mean(),
    "sqrt_pow": lambda lib, x: (lib.sqrt(x * x + 1) ** 3 + lib.maximum(x, x * 0.5)).sum(),
    "cube_mean": lambda lib, x: ((2 * x) ** 3).mean() + (x ** 2 * 0.5).sum(),
    "negations": lambda lib, x: (-x * lib.exp(x)).sum() + (2.0 - x * x).sum() - (x * 3).sum(),  # Neg, Rsub, Sub
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf * 0 in the data, split or not
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_split_and_unsplit_agree(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def run() -> tuple[np.ndarray, np.ndarray]:
        x = engine.tensor(_data(np.float32, 2).reshape(1027, 1025), requires_grad=True)
        y = PROGRAMS[name](engine, x)
        y.backward()
        return y.detach().numpy(), x.grad.numpy()

    split = run()
    monkeypatch.setattr(parallel, "_operands", lambda args, threshold: None)  # every kernel declines
    unsplit = run()
    assert all(_same(a, b) for a, b in zip(split, unsplit))


def test_a_negated_gradient_keeps_its_node_when_recorded() -> None:
    x = engine.tensor(_data(np.float32, 3), requires_grad=True)
    (h,) = engine.autograd.grad(((-x) * x).sum() + (2.0 - x * x).sum(), x, create_graph=True)
    names, stack = set(), [h.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node.name() not in names:
            names.add(node.name())
            stack.extend(nxt for nxt, _ in node.next_functions)
    assert {"NegBackward0", "MulBackward0", "AddBackward0"} <= names


def test_workers_keep_the_callers_numpy_error_handling() -> None:
    x = -np.ones(N, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="ignore"):
            assert np.isnan(parallel.unary(np.log)(x)).all()
        y = engine.tensor(x, requires_grad=True)
        engine.log(y).sum().backward()  # log's forward runs with warnings off, in every thread
    with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        parallel.unary(np.log)(x)


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_a_result_is_reused_once_nothing_refers_to_it() -> None:
    parallel.release()
    x = _data(np.float32, 3)
    kernel = parallel.unary(np.sin)
    first, second = kernel(x), kernel(x)
    assert _address(first) != _address(second)  # the first is still in use
    address, view = _address(first), first[::2]
    del first
    third = kernel(x)
    assert _address(third) != address  # a view still refers to it
    del view
    fourth = kernel(x)
    assert _address(fourth) == address  # free now: its memory serves again
    assert _same(fourth, np.sin(x)) and _same(second, np.sin(x)) and _same(third, np.sin(x))
    unkept = parallel.unary(np.sin, keep=False)
    del fourth
    assert _address(unkept(x)) != address  # a kernel with keep=False leaves its results to numpy
    parallel.release()


def test_results_in_use_keep_their_values_and_remembered_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    parallel.release()
    monkeypatch.setattr(parallel, "SPARE_BYTES", 3 * N * 4)
    x = engine.tensor(_data(np.float32, 4), requires_grad=True)
    results = [f(x) for f in (engine.sin, engine.cos, engine.exp, engine.tanh, engine.sigmoid)]
    copies = [r.detach().numpy().copy() for r in results]
    total = sum(r.sum() for r in results)
    total.backward()
    for _ in range(3):
        results.append(engine.sin(x) * engine.exp(-x * x))
        assert sum(a.nbytes for a in parallel._made) <= parallel.SPARE_BYTES
    assert all(_same(r.detach().numpy(), c) for r, c in zip(results, copies))
    data = x.detach().numpy()
    with np.errstate(all="ignore"):
        assert _same(results[-1].detach().numpy(), np.sin(data) * np.exp(-data * data))
    parallel.release()


def test_a_failed_allocation_forgets_the_free_results_and_tries_again(monkeypatch: pytest.MonkeyPatch) -> None:
    parallel.release()
    x = _data(np.float32, 5)
    kernel = parallel.unary(np.exp)
    with np.errstate(over="ignore"):
        kernel(x)  # remembered, and free again at once
    kernel(np.ones(N + 8, dtype=np.float32))  # another shape: remembered beside it
    failures = []

    class Numpy:  # numpy, but its first large allocation fails (as under a memory cap)
        def __getattr__(self, name: str) -> object:
            return getattr(np, name)

        def empty(self, shape: object, dtype: object = None) -> np.ndarray:
            if not failures and np.prod(shape) > 1000:
                failures.append(shape)
                raise MemoryError
            return np.empty(shape, dtype=dtype)

    monkeypatch.setattr(parallel, "np", Numpy())
    with np.errstate(over="ignore"):
        out = kernel(np.ones(N + 16, dtype=np.float32))
    assert failures and _same(out, np.exp(np.ones(N + 16, dtype=np.float32)))
    assert [a.shape for a in parallel._made] == [out.shape]  # the free ones forgotten
    parallel.release()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_start_on_a_cache_line_and_what_is_computed_from_them_keeps_its_bits(dtype: type) -> None:
    """A kernel's result starts at a multiple of 64 bytes (numpy's own large arrays start 16 bytes past one): its
    values, and the sums, products and functions numpy and BLAS compute from it, are the bits they are in numpy's
    memory."""
    parallel.release()
    rng = np.random.default_rng(8)
    x, y = ((rng.standard_normal(1 << 20) * 10.0 ** rng.uniform(-3, 3, 1 << 20)).astype(dtype) for _ in range(2))
    kept, plain = parallel.MULTIPLY(x, y), x * y
    assert _address(kept) % parallel.ALIGNMENT == 0 and _same(kept, plain)
    derived = [lambda a: np.add.reduce(a, axis=None), lambda a: a.reshape(1024, 1024).sum(axis=0),
               lambda a: a.reshape(1024, 1024).sum(axis=1), lambda a: np.cumsum(a.reshape(256, 4096), axis=1),
               lambda a: a.reshape(1024, 1024) @ a[:1024 * 7].reshape(1024, 7),
               lambda a: a.reshape(1024, 1024) @ a[:1024], lambda a: np.dot(a, a),
               lambda a: np.einsum("ij,ij->i", a.reshape(1024, 1024), a.reshape(1024, 1024)),
               lambda a: np.exp(a * 1e-3), lambda a: np.sin(a), lambda a: a * a + a / 3]
    with np.errstate(all="ignore"):
        for f in derived:
            assert _same(f(kept), f(plain))
    with engine.no_grad():
        total = (engine.tensor(x) * engine.tensor(y)).sum().numpy()  # the product a kernel's, summed split
    assert _same(total, engine.tensor(plain).sum().numpy())
    parallel.release()


def test_a_view_of_a_view_keeps_a_result_in_use() -> None:
    """numpy refers every view of an aligned result to its byte buffer, not to the result itself: the buffer's
    references tell whether the result is free (and whether its memory is the result's alone)."""
    parallel.release()
    x = _data(np.float32, 7)
    kernel = parallel.unary(np.negative)
    first = kernel(x)
    address = _address(first)
    assert parallel.owns_memory(first)
    view = first.reshape(-1, 1)[::3]
    assert view.base is first.base and not parallel.owns_memory(first)
    del first
    assert _address(kernel(x)) != address  # still in use through the view
    del view
    again = kernel(x)
    assert _address(again) == address and _same(again, -x)
    whole = np.empty(5)
    assert parallel.owns_memory(whole) and not parallel.owns_memory(whole[1:])
    parallel.release()


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_])
def test_a_large_leaf_is_copied_onto_a_cache_line(dtype: type) -> None:
    """engine.tensor(array) of THRESHOLD elements or more copies it to a multiple of 64 bytes (core/coerce.array_from):
    the same values and dtype as numpy's copy, its memory its own (an in-place op writes it), an F-ordered array
    kept F-ordered, a float64 array made float32 when asked."""
    data = (np.random.default_rng(3).standard_normal(parallel.THRESHOLD + 5) * 4).astype(dtype)
    t = engine.tensor(data)
    assert _address(t._data) % parallel.ALIGNMENT == 0 and _same(t._data, data.copy())
    assert not np.shares_memory(t._data, data) and parallel.owns_memory(t._data)
    if dtype is np.float32:
        with engine.no_grad():
            t.add_(1.0)
        assert _same(t._data, data + np.float32(1.0))
        assert _same(engine.tensor(data.astype(np.float64), dtype=engine.float32)._data, data)
    matrix = np.asfortranarray(data[:512 * 512].reshape(512, 512))
    assert engine.tensor(matrix)._data.flags.f_contiguous
