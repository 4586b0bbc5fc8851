"""The dancing-links sanity checker (``CPKIT_SANITY``), after the ``sanity()`` of Knuth's dlx1.

``check`` walks the list of active primary items from the root and, for each, its vertical list
through its header: every item's left and right links agree, every node's up and down links
agree and its ``top`` is the item, and the number of nodes met is the item's ``length`` (the
live options that can still cover it).  It holds whenever the search kernel returns (covering,
hiding, tweaking and their undoing keep it), and costs one pass over the live nodes, in Python.
"""

from __future__ import annotations

import numpy as np

from .... import sanity

NAME = "dlx"


def check(llink: np.ndarray, rlink: np.ndarray, length: np.ndarray, top: np.ndarray,
          ulink: np.ndarray, dlink: np.ndarray, n_primary: int) -> None:
    """Raise ``SanityError`` unless the active items' links and lengths are consistent."""
    sanity.calls[NAME] += 1
    limit = len(top)
    prev, q, items = 0, int(rlink[0]), 0
    while q != 0:
        items += 1
        sanity.require(1 <= q <= n_primary and items <= n_primary, NAME,
                       f"item {q} on the active list is not a primary item (or the list loops)")
        sanity.require(llink[q] == prev, NAME, f"item {q}: llink {llink[q]}, expected {prev}")
        up, p, count = q, int(dlink[q]), 0
        while p != q:
            count += 1
            sanity.require(count <= limit, NAME, f"item {q}: its vertical list loops")
            sanity.require(top[p] == q, NAME, f"node {p} in the list of item {q} has top {top[p]}")
            sanity.require(ulink[p] == up, NAME, f"node {p}: ulink {ulink[p]}, expected {up}")
            up, p = p, int(dlink[p])
        sanity.require(ulink[q] == up, NAME, f"item {q}: ulink {ulink[q]}, expected {up}")
        sanity.require(length[q] == count, NAME,
                       f"item {q}: length {length[q]}, {count} nodes in its list")
        prev, q = q, int(rlink[q])
    sanity.require(llink[0] == prev, NAME, f"the root: llink {llink[0]}, expected {prev}")
