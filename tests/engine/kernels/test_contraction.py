"""The gradient of a broadcast multiplication as a contraction (arrays.mul_sum_to) equals sum_to(a * b)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from autodiff import engine as E
from autodiff.engine.kernels import arrays


@settings(max_examples=300, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4), st.integers(0, 2**31))
def test_contraction_matches_building_the_product(shapes, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shapes.result_shape if rng.random() < 0.5 else shapes.input_shapes[0])
    b = rng.standard_normal(shapes.input_shapes[1])
    if rng.random() < 0.3:  # an expanded gradient: stride 0 along its broadcast axes
        a = np.broadcast_to(rng.standard_normal(()), shapes.result_shape)
    product = np.broadcast_shapes(a.shape, b.shape)
    for target in (np.shape(b), np.shape(a)):
        if np.broadcast_shapes(target, product) != product:
            continue
        expected = arrays.sum_to(a * b, tuple(target))
        previous = arrays.CONTRACT_AT
        arrays.CONTRACT_AT = 0  # take the contraction path even for these small shapes
        try:
            got = arrays.mul_sum_to(a, b, tuple(target))
        finally:
            arrays.CONTRACT_AT = previous
        assert got.shape == tuple(target)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_an_outer_product_gradient_never_builds_the_product():
    import tracemalloc

    u = E.tensor(np.ones((2000, 1)), requires_grad=True)
    v = E.tensor(np.arange(2000.0).reshape(1, 2000), requires_grad=True)
    out = (u * v).sum()
    tracemalloc.start()
    out.backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2000 * 2000 * 8 / 4  # far less than the 32 MB product
    np.testing.assert_allclose(u.grad.numpy(force=True), np.full((2000, 1), np.arange(2000.0).sum()))
    np.testing.assert_allclose(v.grad.numpy(force=True), np.full((1, 2000), 2000.0))
