"""Edge filtering's support counters: removing an orientation from a cell's domain, placing a
tile, and taking both back from the trail.

Every edge of the board is a variable over colours (``mask``), every cell a variable over its
orientations (``dom``, ``size``), and ``sup`` counts, per cell side and colour, the orientations
of the domain showing that colour there (AC-4's support counters; the layout is
``cpkit.propagators.edge_supports_layout``).  ``remove`` keeps them exact: when a side's count of
a colour drops to zero the colour leaves the edge and an (edge, colour) event is queued, for
``edge_filtering.propagate`` to remove the orientations showing it on the other side.  Work is
proportional to what is removed.  With the tile counters on (``tl[T_ON]``: the tile rules or
the AllDifferent), ``remove`` also keeps, per cell and tile, the tile's orientations in the
domain and, per tile, the cells that can still take it.

``place`` reduces a cell's domain to one orientation and removes the tile's orientations from
every other cell of the same frame type (a tile fits one type only).  The trail records each
removed orientation, each colour taken off an edge and each placement (the counters follow from
the removals); ``undo_to`` takes everything back to a mark.

Pure functions over the flat arrays, compiled into the edges search kernel that calls them
(``cache=False``: docs/architecture.md, "Which functions are cached").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .edge_supports_layout import *  # noqa: F403  (the M_*, T_*, TR_* offsets)
from .sparse_set import ix


@njit(cache=False, inline="always")
def remove(m, x, o, dom, size, sup, mask, trail, top, events, n_ev, tl):
    """Take ``o`` out of cell ``x``'s domain; a counter that empties takes its colour off the
    edge and queues the (edge, colour) event; a tile left with one cell or none is queued on
    ``tl``'s stack, a cell left with one orientation on its stack of singles, and an empty
    domain or a tile left with no cell raises ``tl[T_FAIL]``.  Returns (trail top, events)."""
    n_ori = m[M_N_ORI]
    v = m[M_V]
    dom[ix(x * n_ori + o)] = 0
    size[ix(x)] -= 1
    if size[ix(x)] == 0:
        tl[T_FAIL] = 1
    elif size[ix(x)] == 1:
        tl[ix(tl[T_SINGLES] + tl[T_NSINGLE])] = x
        tl[T_NSINGLE] += 1
    if tl[T_ON]:
        t = m[ix(m[M_ORI_TILE] + o)]
        at = ix(tl[T_CELL_TILE] + x * m[M_N_TILES] + t)
        tl[at] -= 1
        if tl[at] == 0:
            tl[T_DIRTY] = 1
            tl[ix(T_TILE_CELLS + t)] -= 1
            if tl[ix(T_TILE_CELLS + t)] == 0:
                tl[T_FAIL] = 1      # as many tiles as cells: every tile has to be placed
            if tl[T_ON] & RULES and tl[ix(T_TILE_CELLS + t)] <= 1:
                tl[ix(tl[T_STACK] + tl[T_TOP])] = t
                tl[T_TOP] += 1
    trail[ix(top)] = TR_DOM + 4 * ((x << ORI_BITS) | o)
    top += 1
    eo = m[M_EDGE_OF] + x * 4
    oc = m[M_ORI_COL] + o * 4
    for s in range(4):
        e = m[ix(eo + s)]
        if e < 0:
            continue
        col = m[ix(oc + s)]
        k = (x * 4 + s) * v + col
        sup[ix(k)] -= 1
        if sup[ix(k)] == 0:
            bit = np.uint64(1) << np.uint64(col)
            if mask[ix(e)] & bit:
                mask[ix(e)] &= ~bit
                trail[ix(top)] = TR_MASK + 4 * (e * 64 + col)
                top += 1
                events[ix(n_ev)] = e * 64 + col
                n_ev += 1
    return top, n_ev


@njit(cache=False)
def place(m, c, o, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl):
    """Put ``o`` on cell ``c``: the cell's other orientations and the tile's orientations on the
    other cells of its type leave the domains.  Returns (trail top, events)."""
    n_ori = m[M_N_ORI]
    placed[ix(c)] = o
    t = m[ix(m[M_ORI_TILE] + o)]
    used[ix(t)] = 1
    trail[ix(top)] = TR_PLACE + 4 * c
    top += 1
    k = m[ix(m[M_CELL_CLS] + c)]
    for i in range(m[ix(m[M_CLS_START] + k)], m[ix(m[M_CLS_START] + k + 1)]):
        q = m[ix(m[M_CLS_ORI] + i)]
        if q != o and dom[ix(c * n_ori + q)]:
            top, n_ev = remove(m, c, q, dom, size, sup, mask, trail, top, events, n_ev, tl)
    ty = m[ix(m[M_CELL_TYPE] + c)]
    for i in range(m[ix(m[M_TYPE_START] + ty)], m[ix(m[M_TYPE_START] + ty + 1)]):
        x = m[ix(m[M_TYPE_CELLS] + i)]
        if x == c:
            continue
        for q in range(m[ix(m[M_TILE_START] + t)], m[ix(m[M_TILE_START] + t + 1)]):
            if dom[ix(x * n_ori + q)]:
                top, n_ev = remove(m, x, q, dom, size, sup, mask, trail, top, events, n_ev,
                                    tl)
    return top, n_ev


@njit(cache=False, inline="always")
def reset_queues(tl):
    """Before a placement or removal made outside propagation: no tile, single or failure
    left over from an earlier (undone) propagation."""
    tl[T_TOP] = 0
    tl[T_NSINGLE] = 0
    tl[T_FAIL] = 0


@njit(cache=False, inline="always")
def only_orientation(m, dom, x):
    """The first orientation in cell ``x``'s domain (its only one, where this is called)."""
    n_ori = m[M_N_ORI]
    k = m[ix(m[M_CELL_CLS] + x)]
    for i in range(m[ix(m[M_CLS_START] + k)], m[ix(m[M_CLS_START] + k + 1)]):
        q = m[ix(m[M_CLS_ORI] + i)]
        if dom[ix(x * n_ori + q)]:
            return q
    return -1


@njit(cache=False)
def undo_to(m, mark, top, placed, used, dom, size, sup, mask, trail, tl):
    """Take back the trail's entries above ``mark`` (newest first); returns the new top."""
    n_ori = m[M_N_ORI]
    v = m[M_V]
    n_tiles = m[M_N_TILES]
    while top > mark:
        top -= 1
        kind = trail[ix(top)] % 4
        payload = trail[ix(top)] // 4
        if kind == TR_DOM:
            x = payload >> ORI_BITS
            o = payload & ((1 << ORI_BITS) - 1)
            dom[ix(x * n_ori + o)] = 1
            size[ix(x)] += 1
            if tl[T_ON]:
                t = m[ix(m[M_ORI_TILE] + o)]
                at = ix(tl[T_CELL_TILE] + x * n_tiles + t)
                tl[at] += 1
                if tl[at] == 1:
                    tl[ix(T_TILE_CELLS + t)] += 1
            eo = m[M_EDGE_OF] + x * 4
            oc = m[M_ORI_COL] + o * 4
            for s in range(4):
                if m[ix(eo + s)] >= 0:
                    sup[ix((x * 4 + s) * v + m[ix(oc + s)])] += 1
        elif kind == TR_MASK:
            mask[ix(payload // 64)] |= np.uint64(1) << np.uint64(payload % 64)
        else:
            used[ix(m[ix(m[M_ORI_TILE] + placed[ix(payload)])])] = 0
            placed[ix(payload)] = -1
    return top
