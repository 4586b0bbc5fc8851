"""The share of a search tree behind a depth-first position, compiled.

``--engine auto``'s race reads every engine's position after each of its turns, and its helper
thread after each slice (``RootChain.explored``).  Read in Python, with numpy on a few dozen
depths, a position took 50 to 100 microseconds: as long as the whole search of a small board,
and the helper's reads held the GIL the race's thread was waiting for.  ``em_front.tree_share``
is the reference, in Python; the engines' ``explored`` kernels list the branches of their
position and call ``tree_share`` here.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def tree_share(done: np.ndarray, total: np.ndarray) -> float:
    """``em_front.tree_share`` of the branches ``done[i]`` of ``total[i]`` finished at the
    ``i``-th node on the way down."""
    share, weight = 0.0, 1.0
    for i in range(done.size):
        t = total[i]
        if t <= 0:
            break
        share += weight * min(max(done[i], 0), t) / t
        weight /= t
    return share
