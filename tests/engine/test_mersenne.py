"""engine/mersenne.py draws the words numpy's MT19937 draws (PyTorch's mt19937), from any state, in any sizes
(those above BLOCK_WORDS handed to numpy and back), so the engine's random numbers stay PyTorch's without
importing numpy.random for small draws."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff.engine import mersenne
from autodiff.engine.generator import mt19937_key


def _numpy_bits(seed: int):
    from numpy.random import MT19937

    bits = MT19937(0)
    bits.state = {"bit_generator": "MT19937", "state": {"key": mt19937_key(seed), "pos": mersenne.N}}
    return bits


SIZES = st.integers(0, 3 * mersenne.N) | st.sampled_from([mersenne.N - 1, mersenne.N, mersenne.N + 1,
                                                           mersenne.BLOCK_WORDS, mersenne.BLOCK_WORDS + 1, 20_000])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(SIZES, min_size=1, max_size=6))
def test_the_words_are_numpys(seed, sizes):
    mine, theirs = mersenne.MT19937(mt19937_key(seed)), _numpy_bits(seed)
    for n in sizes:
        got, expected = mine.random_raw(n), theirs.random_raw(n)
        assert got.dtype == expected.dtype == np.uint64
        np.testing.assert_array_equal(got, expected)
    state, expected_state = mine.state["state"], theirs.state["state"]
    assert state["pos"] == expected_state["pos"]
    np.testing.assert_array_equal(state["key"], expected_state["key"])


def test_the_first_words_of_seed_5489_are_the_reference_ones():
    """The reference implementation's first outputs for init_genrand(5489) (C++ std::mt19937's default)."""
    words = mersenne.MT19937(mt19937_key(5489)).random_raw(10000)
    assert words[:3].tolist() == [3499211612, 581869302, 3890346734]
    assert int(words[9999]) == 4123659995  # std::mt19937's 10000th output, as the C++ standard requires


def test_a_state_set_again_draws_the_same_words():
    bits = mersenne.MT19937(mt19937_key(7))
    bits.random_raw(100)
    saved = bits.state
    first = bits.random_raw(700)
    bits.state = saved
    np.testing.assert_array_equal(bits.random_raw(700), first)
