"""A small random number generator for the optimiser's kernels, its state in an array.

numba's own ``np.random`` keeps one hidden state per thread: a kernel could not be stopped,
written to a checkpoint and resumed with the very sequence it would have drawn.  Here the state
is one ``uint64`` in an array the caller owns (xorshift64*, Vigna 2016: fast, full period, good
enough to shuffle lists and pick cells), so a worker's whole search state is its arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def new_state(seed: int) -> np.ndarray:
    """The generator state for ``seed`` (never zero: xorshift would stay at zero)."""
    x = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([x or 1], dtype=np.uint64)


@njit(cache=True, inline="always")
def next_u64(rng):
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, inline="always")
def below(rng, n):
    """A uniform integer in ``0 .. n - 1`` (``n`` >= 1)."""
    return np.int64((next_u64(rng) >> np.uint64(11)) % np.uint64(n))


@njit(cache=True, inline="always")
def uniform(rng):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle_segments(values, start, rng):
    """Shuffle each segment ``values[start[k]:start[k + 1]]`` in place (Fisher-Yates)."""
    for k in range(start.shape[0] - 1):
        a = start[k]
        n = start[k + 1] - a
        for i in range(n - 1, 0, -1):
            j = below(rng, i + 1)
            t = values[a + i]
            values[a + i] = values[a + j]
            values[a + j] = t
