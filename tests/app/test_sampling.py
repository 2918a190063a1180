"""app/sampling.py: the points of plain-number variables worked out at once (Sampling.stacked) are those the
draws give one sample after another (Sampling.bindings), and leave the generator and the sampling's record of
the first point and the fixed variables as the draws do."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff import engine
from autodiff.app.comparison import Variable
from autodiff.app.sampling import Sampling
from autodiff.app.session import bind

VALUES = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.integers(-(2**70), 2**70) | st.sampled_from(
    [0, 0.0, -0.0, 1e-45, 3.4e38, 3.5e38, 16777217, 2**53 + 1])


def _one_by_one(sampling: Sampling, samples: int) -> dict[str, np.ndarray]:
    drawn = []
    for sample in range(1, samples + 1):
        leaves = bind(sampling.bindings(sample))
        if sample == 1:
            sampling.first = {n: np.array(t.numpy(force=True), copy=True).astype(np.float64) for n, t in leaves.items()}
        drawn.append(leaves)
    return {n: np.stack([leaves[n].numpy(force=True) for leaves in drawn]) for n in drawn[0]}


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.tuples(VALUES, st.booleans()), min_size=1, max_size=3), samples=st.integers(2, 12),
       seed=st.integers(0, 2**32), dtype=st.sampled_from(["float32", "float64"]))
def test_plain_numbers_are_sampled_as_the_draws_sample_them(values, samples, seed, dtype):
    variables = {f"v{i}": Variable(f"v{i}", text=repr(value), requires_grad=grad)
                 for i, (value, grad) in enumerate(values)}
    if any(v.number() is None for v in variables.values()):  # inf, nan: names, not numbers as written
        return
    with engine.settings(default_dtype=dtype), np.errstate(all="ignore"):
        engine.manual_seed(seed)
        fast = Sampling(variables)
        at_once = fast.stacked(samples)
        after_fast = engine.randn(dtype="float64").item()
        engine.manual_seed(seed)
        slow = Sampling(variables)
        drawn = _one_by_one(slow, samples)
        after_slow = engine.randn(dtype="float64").item()
    assert list(at_once) == list(drawn)
    for name in drawn:
        assert at_once[name].dtype == drawn[name].dtype and at_once[name].tobytes() == drawn[name].tobytes()
        assert fast.first[name].tobytes() == slow.first[name].tobytes()
    assert fast.fixed == slow.fixed and after_fast == after_slow


def test_what_is_not_a_number_is_drawn_one_sample_at_a_time():
    for text in ("rand()", "[1, 2]", "randn()*2"):
        assert Sampling({"x": Variable("x", text=text)}).stacked(5) is None
    assert Sampling({"x": Variable("x", values=np.array(1.5))}).stacked(5) is None
    assert Sampling({"x": Variable("x", text="1.5")}).stacked(1) is None
