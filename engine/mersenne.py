"""The 32-bit Mersenne Twister (mt19937, PyTorch's CPU generator) in numpy, for the draws of a small tensor.

numpy has the same generator (numpy.random.MT19937), but importing numpy.random costs 12-15 ms, a tenth of a
one-shot start-up (`autodiff check` draws its sample points; benchmarks/README: "Random numbers without
numpy.random"). So a draw of up to BLOCK_WORDS words is made here, the twist vectorised in four slices; a larger
one hands the state to numpy's MT19937, which is faster there (the import is small beside such a draw), and takes
it back. Both give the same words: tests/engine/test_mersenne.py compares them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

N, M = 624, 397
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER, _LOWER = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
BLOCK_WORDS = 8 * N  # above this numpy draws (measured: at 8 twists, 0.29 ms either way with the hand-over)


def _mixed(upper: np.ndarray, lower: np.ndarray, far: np.ndarray) -> np.ndarray:
    """One slice of the twist: mt[i] = mt[i + M] ^ (y >> 1) ^ (MATRIX_A if y is odd), y from mt[i] and mt[i + 1]."""
    y = (upper & _UPPER) | (lower & _LOWER)
    return far ^ (y >> 1) ^ ((y & 1) * _MATRIX_A)


def twist(key: np.ndarray) -> None:
    """The next 624 words of state, in place, as the sequential loop of the reference makes them: slices whose
    inputs are all made before them (i + M wraps onto words made earlier in the same twist)."""
    key[:N - M] = _mixed(key[:N - M], key[1:N - M + 1], key[M:])  # i < 227: every input is old
    key[N - M:2 * (N - M)] = _mixed(key[N - M:2 * (N - M)], key[N - M + 1:2 * (N - M) + 1], key[:N - M])
    key[2 * (N - M):N - 1] = _mixed(key[2 * (N - M):N - 1], key[2 * (N - M) + 1:N], key[N - M:M - 1])
    key[N - 1:] = _mixed(key[N - 1:], key[:1], key[M - 1:M])


def temper(words: np.ndarray) -> np.ndarray:
    """mt19937's output function, on raw state words (uint32)."""
    y = words ^ (words >> 11)
    y ^= (y << 7) & np.uint32(0x9D2C5680)
    y ^= (y << 15) & np.uint32(0xEFC60000)
    return y ^ (y >> 18)


class MT19937:
    """The generator's state: 624 words and the position of the next one (624: twist first), with numpy's
    MT19937's `state` and `random_raw` (the next n outputs, as uint64 holding 32-bit words)."""

    def __init__(self, key: np.ndarray, pos: int = N) -> None:
        self.key, self.pos = np.array(key, dtype=np.uint32), pos

    @property
    def state(self) -> dict[str, Any]:
        return {"bit_generator": "MT19937", "state": {"key": self.key.copy(), "pos": self.pos}}

    @state.setter
    def state(self, value: dict[str, Any]) -> None:
        self.key, self.pos = np.array(value["state"]["key"], dtype=np.uint32), int(value["state"]["pos"])

    def random_raw(self, n: int) -> np.ndarray:
        if n > BLOCK_WORDS:
            return self._by_numpy(n)
        out = np.empty(n, dtype=np.uint32)
        filled = 0
        while filled < n:
            if self.pos == N:
                twist(self.key)
                self.pos = 0
            take = min(n - filled, N - self.pos)
            out[filled:filled + take] = self.key[self.pos:self.pos + take]
            self.pos += take
            filled += take
        return temper(out).astype(np.uint64)

    def _by_numpy(self, n: int) -> np.ndarray:
        from numpy.random import MT19937 as NumpyMT19937

        bits = NumpyMT19937(0)
        bits.state = self.state
        out = bits.random_raw(n)
        self.state = bits.state
        return out
