"""Régin's filtering of AllDifferent over the cells' tiles, for edge filtering's state.

A maximum matching of the cells to the tiles of their domains is kept from call to call (the
last one, repaired, then completed by augmenting paths); none covering every cell is a failure.
There are as many tiles as cells, so a complete matching leaves no tile free, and a cell keeps a
tile other than its matched one only if it lies on an alternating cycle: the cell and the tile's
matched cell in one strongly connected component of the graph cell -> (the cell matched to each
other tile of its domain), found by Tarjan's algorithm, iteratively.  A cell loses the tiles it
cannot keep through ``edge_supports.remove``, so the supports and events follow.

The matching, the visit stamps and the depth-first stacks live in ``tl``'s AllDifferent section
(``cpkit.propagators.edge_supports_layout``, ``ALLDIFF_SECTION``); the per cell and tile counts
``tl[T_CELL_TILE]`` say which tiles a domain holds.  The matching is not trailed: taking back a
placement only adds edges, so it stays a matching.  Together with edge filtering this is the
paper's third model of section 6.3 whole (``--alldifferent``).
"""

from __future__ import annotations

from numba import njit

from .edge_supports import remove
from .edge_supports_layout import *  # noqa: F403  (the M_*, T_*, A_* offsets)
from .sparse_set import ix


@njit(cache=False)
def regin_filter(m, placed, dom, size, sup, mask, trail, top, events, n_ev, tl):
    """Régin's filtering of the empty cells' tiles (the module docstring); the removals are
    trailed and their events queued from ``n_ev`` on.  Returns (ok, trail top, events)."""
    n_cells = m[M_N_CELLS]
    n_tiles = m[M_N_TILES]
    n_ori = m[M_N_ORI]
    ct = tl[T_CELL_TILE]
    ts = tl[T_AD] + A_TYPE_START
    tt = tl[T_AD] + A_TYPE_TILES
    mc = tt + n_tiles
    mt = mc + n_cells
    mark = mt + n_tiles
    idx = mark + n_tiles
    low = idx + n_cells
    onstk = low + n_cells
    comp = onstk + n_cells
    sstk = comp + n_cells
    dcell = sstk + n_cells
    dpos = dcell + n_cells
    dtile = dpos + n_cells
    tl[T_DIRTY] = 0
    for x in range(n_cells):
        t = tl[ix(mc + x)]
        if t >= 0 and tl[ix(ct + x * n_tiles + t)] == 0:
            tl[ix(mc + x)] = -1
            tl[ix(mt + t)] = -1
    for x in range(n_cells):
        if tl[ix(mc + x)] >= 0:
            continue
        if tl[T_STAMP] >= 1 << 30:
            for t in range(n_tiles):
                tl[ix(mark + t)] = 0
            tl[T_STAMP] = 0
        tl[T_STAMP] += 1
        stamp = tl[T_STAMP]
        d = 0
        tl[ix(dcell)] = x
        tl[ix(dpos)] = tl[ix(ts + m[ix(m[M_CELL_TYPE] + x)])]
        found = False
        while d >= 0:
            y = tl[ix(dcell + d)]
            p = tl[ix(dpos + d)]
            if p == tl[ix(ts + m[ix(m[M_CELL_TYPE] + y)] + 1)]:
                d -= 1
                continue
            tl[ix(dpos + d)] = p + 1
            t = tl[ix(tt + p)]
            if tl[ix(ct + y * n_tiles + t)] == 0 or tl[ix(mark + t)] == stamp:
                continue
            tl[ix(mark + t)] = stamp
            tl[ix(dtile + d)] = t
            z = tl[ix(mt + t)]
            if z < 0:
                for k in range(d + 1):      # flip the alternating path
                    tl[ix(mc + tl[ix(dcell + k)])] = tl[ix(dtile + k)]
                    tl[ix(mt + tl[ix(dtile + k)])] = tl[ix(dcell + k)]
                found = True
                break
            d += 1
            tl[ix(dcell + d)] = z
            tl[ix(dpos + d)] = tl[ix(ts + m[ix(m[M_CELL_TYPE] + z)])]
        if not found:
            return False, top, n_ev
    # Tarjan over the empty cells (a placed cell's only tile is its matched one).
    for x in range(n_cells):
        tl[ix(idx + x)] = -1
    counter = 0
    n_comp = 0
    sp = 0
    for r in range(n_cells):
        if placed[ix(r)] >= 0 or tl[ix(idx + r)] >= 0:
            continue
        d = -1
        enter = r
        while True:
            if enter >= 0:
                tl[ix(idx + enter)] = counter
                tl[ix(low + enter)] = counter
                counter += 1
                tl[ix(sstk + sp)] = enter
                sp += 1
                tl[ix(onstk + enter)] = 1
                d += 1
                tl[ix(dcell + d)] = enter
                tl[ix(dpos + d)] = tl[ix(ts + m[ix(m[M_CELL_TYPE] + enter)])]
                enter = -1
            if d < 0:
                break
            y = tl[ix(dcell + d)]
            p = tl[ix(dpos + d)]
            if p < tl[ix(ts + m[ix(m[M_CELL_TYPE] + y)] + 1)]:
                tl[ix(dpos + d)] = p + 1
                t = tl[ix(tt + p)]
                if t == tl[ix(mc + y)] or tl[ix(ct + y * n_tiles + t)] == 0:
                    continue
                z = tl[ix(mt + t)]
                if tl[ix(idx + z)] < 0:
                    enter = z
                elif tl[ix(onstk + z)] and tl[ix(idx + z)] < tl[ix(low + y)]:
                    tl[ix(low + y)] = tl[ix(idx + z)]
                continue
            if tl[ix(low + y)] == tl[ix(idx + y)]:
                while True:
                    sp -= 1
                    w = tl[ix(sstk + sp)]
                    tl[ix(onstk + w)] = 0
                    tl[ix(comp + w)] = n_comp
                    if w == y:
                        break
                n_comp += 1
            d -= 1
            if d >= 0 and tl[ix(low + y)] < tl[ix(low + tl[ix(dcell + d)])]:
                tl[ix(low + tl[ix(dcell + d)])] = tl[ix(low + y)]
    # A tile whose edge joins two components is in no complete matching.
    for x in range(n_cells):
        if placed[ix(x)] >= 0:
            continue
        ty = m[ix(m[M_CELL_TYPE] + x)]
        for p in range(tl[ix(ts + ty)], tl[ix(ts + ty + 1)]):
            t = tl[ix(tt + p)]
            if t == tl[ix(mc + x)] or tl[ix(ct + x * n_tiles + t)] == 0:
                continue
            if tl[ix(comp + x)] != tl[ix(comp + tl[ix(mt + t)])]:
                for q in range(m[ix(m[M_TILE_START] + t)], m[ix(m[M_TILE_START] + t + 1)]):
                    if dom[ix(x * n_ori + q)]:
                        top, n_ev = remove(m, x, q, dom, size, sup, mask, trail, top,
                                            events, n_ev, tl)
    tl[T_DIRTY] = 0     # its own removals leave the matching complete
    return True, top, n_ev
