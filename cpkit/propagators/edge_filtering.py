"""Edge filtering to the greatest fixed point: the queued (edge, colour) events, the cells left
with one orientation, the tile rules and, on request, Régin's AllDifferent.

This is the paper's third model of section 6.3 (Choco with a colour variable per edge) with, in
place of the complete AllDifferent, two counting rules on the tiles (``tl[T_ON] & RULES``): a
tile no cell can take any more is a failure, and a tile only one cell can take goes there (the
cell loses its other tiles' orientations).  Without them tiles are only pairwise different.
With ``ALLDIFF`` Régin's complete AllDifferent (``cpkit.propagators.alldifferent``) runs as
well, which makes the third model whole.

A colour that leaves an edge (``edge_supports.remove``) takes with it, on both sides, every
orientation showing it there; those removals can empty more counters, and so on.  A domain left
empty is a failure; a cell left with one orientation is placed (``edge_supports.place``).  The
fixed point does not depend on the order, so without the tile rules the nodes of a search over
it equal those of the Python reference (``cpkit.engines.edge_matching.alldiff.em_alldiff_search``
with ``edges=True, alldifferent=False``); the number of cells placed can differ on refuted
branches, where the order decides how far it gets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .alldifferent import regin_filter
from .edge_supports import only_orientation, place, remove
from .edge_supports_layout import *  # noqa: F403  (the M_*, T_* offsets)
from .sparse_set import ix


@njit(cache=False)
def propagate(m, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl):
    """Process the queued events and place the cells left with one orientation, to the fixed
    point.  Returns (ok, trail top, the cells it placed).

    The fixed point does not depend on the order, so the order is chosen to find a failure
    early, since most of the work goes into branches that fail (E_10_8: three quarters of the
    trail entries): a failure flagged by ``remove`` stops at once, a cell left with one
    orientation is placed before any other event is looked at (its tile then leaves the other
    cells), and events are taken first in, first out."""
    n_cells = m[M_N_CELLS]
    n_ori = m[M_N_ORI]
    v = m[M_V]
    head = 0
    made = 0
    while True:
        if tl[T_FAIL]:
            return False, top, made
        if tl[T_NSINGLE] > 0:
            tl[T_NSINGLE] -= 1
            x = tl[ix(tl[T_SINGLES] + tl[T_NSINGLE])]
            if placed[ix(x)] < 0 and size[ix(x)] == 1:
                made += 1
                top, n_ev = place(m, np.int64(x), np.int64(only_orientation(m, dom, x)),
                                  placed, used, dom, size, sup, mask, trail, top, events, n_ev,
                                  tl)
            continue
        if head < n_ev:
            e = events[ix(head)] >> 6
            col = events[ix(head)] & 63
            head += 1
            for end in range(2):
                x = m[ix(m[M_EDGE_END] + e * 4 + end * 2)]
                s = m[ix(m[M_EDGE_END] + e * 4 + end * 2 + 1)]
                # The end whose last orientation showing the colour left has nothing left to
                # remove, and the other has none once its counter is down to zero.
                k = (x * 4 + s) * v + col
                key = (m[ix(m[M_CELL_CLS] + x)] * 4 + s) * v + col
                i = m[ix(m[M_BY_COL_START] + key)]
                stop = m[ix(m[M_BY_COL_START] + key + 1)]
                while i < stop and sup[ix(k)] > 0:
                    q = m[ix(m[M_BY_COL] + i)]
                    i += 1
                    if dom[ix(x * n_ori + q)]:
                        top, n_ev = remove(m, x, q, dom, size, sup, mask, trail, top,
                                           events, n_ev, tl)
            continue
        if tl[T_TOP] > 0:
            # A tile no cell can take is a failure; a tile one cell alone can take claims it.
            tl[T_TOP] -= 1
            t = tl[ix(tl[T_STACK] + tl[T_TOP])]
            if tl[ix(T_TILE_CELLS + t)] == 0:
                return False, top, made
            if used[ix(t)]:
                continue
            n_tiles = m[M_N_TILES]
            x = 0
            while tl[ix(tl[T_CELL_TILE] + x * n_tiles + t)] == 0:
                x += 1
            if size[ix(x)] > tl[ix(tl[T_CELL_TILE] + x * n_tiles + t)]:
                k = m[ix(m[M_CELL_CLS] + x)]
                for i in range(m[ix(m[M_CLS_START] + k)], m[ix(m[M_CLS_START] + k + 1)]):
                    q = m[ix(m[M_CLS_ORI] + i)]
                    if dom[ix(x * n_ori + q)] and m[ix(m[M_ORI_TILE] + q)] != t:
                        top, n_ev = remove(m, x, q, dom, size, sup, mask, trail, top,
                                           events, n_ev, tl)
            continue
        if tl[T_ON] & ALLDIFF and tl[T_DIRTY]:
            ok, top, n_ev = regin_filter(m, placed, dom, size, sup, mask, trail, top, events,
                                         n_ev, tl)
            if not ok:
                return False, top, made
            continue
        # Every domain is arc consistent now.  A cell that had one orientation before this
        # propagation began (never queued as a single) is placed here.
        single = -1
        for x in range(n_cells):
            if placed[ix(x)] < 0 and size[ix(x)] <= 1:
                single = x
                break
        if single < 0:
            return True, top, made
        if size[ix(single)] == 0:
            return False, top, made
        made += 1
        top, n_ev = place(m, np.int64(single), np.int64(only_orientation(m, dom, single)),
                          placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl)
    return True, top, made
