"""The share of a search tree behind a depth-first position, compiled.

``--engine auto``'s race reads every engine's position after each of its turns, and its helper
thread after each slice (``RootChain.explored``).  Read in Python, with numpy on a few dozen
depths, a position took 50 to 100 microseconds: as long as the whole search of a small board,
and the helper's reads held the GIL the race's thread was waiting for.  The engines' ``explored``
kernels list the branches of their position and call ``tree_share`` here.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def tree_share(done: np.ndarray, total: np.ndarray) -> float:
    """The share of a tree that a depth-first search has finished, from the node it is at: at
    the ``i``-th node on the way down from the root, ``done[i]`` of its ``total[i]`` branches
    were finished before the one taken.  Every subtree is taken as the same size (the
    "progress" measure of backtracking solvers): on the brute force's trees it gives the
    tree's size within a factor of two after a few million nodes, where Knuth's random probes
    (``cpkit.parallel.plan.estimate``) fall short by ten to a thousand times
    (docs/algorithms.md, "Choosing the engine")."""
    share, weight = 0.0, 1.0
    for i in range(done.size):
        t = total[i]
        if t <= 0:
            break
        share += weight * min(max(done[i], 0), t) / t
        weight /= t
    return share
