"""Random-number cases written once for both libraries: each case seeds the generator, makes a few random
tensors and returns their arrays. make_random_golden.py runs them with PyTorch into golden/random.json;
test_generator.py runs them with the engine against that file (and against torch itself when installed).

A case is `fn(L)` with L a `Lib`: the module (torch or autodiff.engine) and the few spellings that differ.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Lib:
    """torch or autodiff.engine, with what differs between them spelled once."""

    mod: Any
    is_torch: bool

    def dt(self, name: str) -> Any:
        return getattr(self.mod, name) if self.is_torch else name

    def array(self, t: Any) -> np.ndarray:
        return t.detach().numpy().copy() if self.is_torch else np.array(t.numpy(force=True), copy=True)

    def tensor(self, values: Any, dtype: str) -> Any:
        return self.mod.tensor(values, dtype=self.dt(dtype))


@dataclass(frozen=True)
class Case:
    id: str
    seed: int
    fn: Callable[[Lib], list[Any]]

    def run(self, lib: Lib) -> list[np.ndarray]:
        lib.mod.manual_seed(self.seed)
        return [lib.array(t) for t in self.fn(lib)]


SEEDS = (0, 1, 42, 2**32 + 1, 2**64 - 1)
SWEEP_SEEDS = (0, 2**32 + 1, 2**64 - 1)
SIZES = (0, 1, 2, 3, 5, 8, 15, 16, 17, 31, 32, 33, 48, 63, 100, 1000, 4099)
DTYPES = ("float32", "float64")
PROBS = [[0.1, 0.0, 0.3, 0.6, 0.05], [0.5, 0.2, 0.2, 0.1, 0.0], [0.0, 0.0, 1.0, 2.0, 3.0]]


def _sweep() -> list[Case]:
    cases = []
    for seed in SWEEP_SEEDS:
        for dtype in DTYPES:
            for n in SIZES:
                cases.append(Case(f"randn-{dtype}-{n}-seed{seed}", seed,
                                  lambda L, n=n, d=dtype: [L.mod.randn(n, dtype=L.dt(d)) for _ in range(2)]))
                cases.append(Case(f"rand-{dtype}-{n}-seed{seed}", seed,
                                  lambda L, n=n, d=dtype: [L.mod.rand(n, dtype=L.dt(d))]))
    return cases


def _shapes(L: Lib) -> list[Any]:
    out = []
    for shape in [(), (1,), (3, 5), (4, 4), (2, 3, 4), (5, 1, 7), (0, 3), (2, 8)]:
        out += [L.mod.randn(shape), L.mod.rand(shape), L.mod.randn(shape, dtype=L.dt("float64"))]
    return out


def _likes(L: Lib) -> list[Any]:
    out = []
    for shape in [(4, 5), (8, 8), (3, 20), (2, 3, 4)]:
        for dtype in DTYPES:
            x = L.mod.zeros(shape, dtype=L.dt(dtype))
            out += [L.mod.randn_like(x), L.mod.rand_like(x)]
            out += [L.mod.randn_like(x.transpose(0, -1)), L.mod.rand_like(x.transpose(0, -1))]  # non-contiguous
            out += [L.mod.randn_like(x.transpose(0, -1)[1:]), L.mod.rand_like(x.transpose(0, -1)[:, 1:])]  # gaps
    return out


def _sequence(L: Lib) -> list[Any]:
    """The scalar path keeps its second sample for the next scalar draw, across calls and dtypes."""
    return [L.mod.randn(3), L.mod.rand(2), L.mod.randn(1), L.mod.randn(5, dtype=L.dt("float64")), L.mod.randn(20),
            L.mod.randn(1), L.mod.zeros(3).normal_(), L.mod.randn(1, dtype=L.dt("float64"))]


def _integers(L: Lib) -> list[Any]:
    return [L.mod.randint(0, 10, (20,)), L.mod.randint(-5, 5, (3, 4)), L.mod.randint(7, (6,)),
            L.mod.randint(0, 2**30, (5,)), L.mod.randint(-2**62, 2**62, (4,)), L.mod.randint(3, 9, ()),
            L.mod.randint(0, 9, (5,), dtype=L.dt("float32")), L.mod.randperm(10), L.mod.randperm(1),
            L.mod.randperm(0), L.mod.randperm(300)]


def _normals(L: Lib) -> list[Any]:
    out = []
    for dtype in DTYPES:
        out += [L.mod.normal(0, 0.01, (20, 1), dtype=L.dt(dtype)), L.mod.normal(2.5, 3.0, (7,), dtype=L.dt(dtype)),
                L.mod.zeros(5, 4, dtype=L.dt(dtype)).normal_(1.0, 0.5), L.mod.zeros(9, dtype=L.dt(dtype)).normal_(),
                L.mod.zeros(6, 3, dtype=L.dt(dtype)).uniform_(-0.3, 0.7), L.mod.zeros(40, dtype=L.dt(dtype)).uniform_()]
    mean = L.tensor([[0.0, 1.0, 2.0, 3.0]] * 5, "float32")
    std = L.tensor([[0.5, 1.0, 1.5, 2.0]] * 5, "float32")
    out += [L.mod.normal(mean, std), L.mod.normal(mean, 0.5), L.mod.normal(1.0, std)]
    w = L.mod.zeros(4, 5)
    w.t().normal_()  # non-contiguous: one at a time, in memory order
    out.append(w)
    return out


def _discrete(L: Lib) -> list[Any]:
    out = []
    for dtype in DTYPES:
        p = L.tensor(PROBS, dtype)
        out += [L.mod.bernoulli(p / 3), L.mod.bernoulli(p, 0.3), L.mod.bernoulli((p / 3).t())]
        out += [L.mod.multinomial(p, 1), L.mod.multinomial(p, 2), L.mod.multinomial(p[0], 3),
                L.mod.multinomial(p, 6, True), L.mod.multinomial(p[1], 1, True)]
        out.append(L.mod.multinomial((p + 0.1).t()[:2], 2))  # an input with gaps: q keeps its order of dims
    return out


def _exponentials(L: Lib) -> list[Any]:
    """exponential_: one 53-bit uniform per element whatever the dtype, in memory order."""
    out = []
    for dtype in DTYPES:
        zeros = lambda *shape, d=dtype: L.mod.zeros(*shape, dtype=L.dt(d))  # noqa: E731
        out += [zeros(7).exponential_(), zeros(3, 4).exponential_(3.0), zeros(50).exponential_(0.25),
                zeros(0).exponential_()]
    w = L.mod.zeros(4, 5)
    w.t().exponential_(2.0)  # non-contiguous: in memory order
    out += [w, L.mod.zeros(6).exponential_(1e-3, generator=L.mod.Generator().manual_seed(7)), L.mod.rand(2)]
    return out


def _generators(L: Lib) -> list[Any]:
    """Each function drawing from a Generator of its own (the default one untouched between them), and that
    generator's state as get_state() gives it, before and after."""
    g = L.mod.Generator()  # PyTorch's default seed 67280421310721 until seeded
    out = [L.mod.rand(3, generator=g), g.get_state()]
    g.manual_seed(5)
    p = L.tensor(PROBS[0], "float32")
    out += [L.mod.rand(4, generator=g), L.mod.randn(3, generator=g), L.mod.randn(20, generator=g),
            L.mod.randn(2, dtype=L.dt("float64"), generator=g), L.mod.randint(0, 7, (5,), generator=g),
            L.mod.randint(-2**40, 2**40, (3,), generator=g), L.mod.randperm(12, generator=g),
            L.mod.multinomial(p, 2, generator=g), L.mod.multinomial(p, 4, True, generator=g),
            L.mod.bernoulli(p, generator=g), L.mod.normal(1.0, 2.0, (5,), generator=g),
            L.mod.normal(L.tensor([0.0, 10.0], "float32"), 1.0, generator=g),
            L.mod.zeros(7).normal_(0.5, 2.0, generator=g), L.mod.zeros(2, 3).uniform_(-1, 1, generator=g),
            L.mod.randn(1, dtype=L.dt("float64"), generator=g), g.get_state()]
    out.append(L.mod.rand(2))  # the default generator, as seeded by the case
    saved = g.get_state()  # with a cached normal sample: restored with it
    out += [L.mod.randn(3, dtype=L.dt("float64"), generator=g), g.set_state(saved).get_state(),
            L.mod.randn(3, dtype=L.dt("float64"), generator=g)]
    return out


CASES: list[Case] = [
    *_sweep(),
    *[Case(f"shapes-seed{s}", s, _shapes) for s in SEEDS],
    *[Case(f"like-seed{s}", s, _likes) for s in SEEDS],
    *[Case(f"sequence-seed{s}", s, _sequence) for s in SEEDS],
    *[Case(f"integers-seed{s}", s, _integers) for s in SEEDS],
    *[Case(f"normal-seed{s}", s, _normals) for s in SEEDS],
    *[Case(f"discrete-seed{s}", s, _discrete) for s in SEEDS],
    *[Case(f"generator-seed{s}", s, _generators) for s in SEEDS[:2]],
    *[Case(f"exponential-seed{s}", s, _exponentials) for s in SEEDS],
]
