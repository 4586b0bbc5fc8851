"""Edge filtering in numba: every edge of the board a variable over colours, arc consistency
between the edges and the cells' orientations, branching on the cell with the fewest orientations.

This is the paper's third model of section 6.3 (Choco with a colour variable per edge) with, in
place of the complete AllDifferent, two counting rules on the tiles (``tl``, switchable): a tile
no cell can take any more is a failure, and a tile only one cell can take goes there (the cell
loses its other tiles' orientations).  Without them tiles are only pairwise different.  On
request (``ALLDIFF``) Régin's complete AllDifferent runs as well, which makes the paper's third
model whole (``_alldifferent``: a matching kept from call to call, Tarjan's components).

- **Domains.**  Each cell keeps the orientations (tile and rotation) it can still take, as flags
  ``dom[cell * n_ori + o]`` and a size ``size[cell]``; initially those grey exactly on the cell's
  frame sides.  ``sup[(cell * 4 + side) * V + colour]`` counts the orientations of the domain
  showing that colour on that side (AC-4's support counters).
- **Edges.**  ``mask[e]`` holds the colours edge ``e`` between two cells can still take, one
  bit per colour (so at most 64 colours; ``em_edges`` renumbers the shown ones densely).  When
  a side's count of a colour drops to zero the colour leaves the edge, and the cells on both
  sides lose every orientation showing it there; those removals can empty more counters, and so
  on.  Work is proportional to what is removed.
- **Placement** reduces the cell's domain to one orientation and removes the tile's
  orientations from every other cell of the same frame type (a tile fits one type only).  A
  domain left empty is a failure; a cell left with one orientation is placed (``propagated``).
  Propagation runs to the greatest fixed point, whatever the order, so without the tile rules
  the nodes equal those of the Python reference (``cpkit.engines.edge_matching.alldiff.em_alldiff_search`` with
  ``edges=True, alldifferent=False``); ``propagated`` can differ on refuted branches, where
  the order decides how far it gets.
- **Search.**  By default (``DOM_DDEG``) the empty cell with the smallest ratio of domain size
  to empty neighbours (Bessière & Régin's dom/ddeg), a cell whose neighbours are all placed
  last (its choice narrows no edge); on request (``MIN_DOMAIN``) the paper's rule, the
  smallest domain.  The lowest cell number on ties, the orientations in increasing order;
  every such placement is a node.  With a shaving limit (``_shave``) every orientation of
  each empty cell with at most that many is tried at the root and after each branching
  placement's propagation, and removed if its propagation fails (trials are counted apart,
  and against a slice's budget: one node of a 16 x 16 board can make 300,000 trials, 15 s,
  so a slice can end inside a node's shaving and the next goes on from the same trial).
  The trail records each
  removed orientation, each colour taken off an edge and each placement (the counters follow
  from the removals); a level undoes to its mark.

Pure kernel over flat arrays; the state (level, program counter, candidate pointers) lives in
arrays so ``search`` can stop at a node budget or a full solution buffer and resume there.  It
allocates nothing, so it is compiled without numba's reference counting (``_nrt=False``): with
it, every helper call counted references to its array arguments, and the tile counters' one
extra array made the whole search three times slower (E_10_7: 0.70 s against 0.23 s).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....propagators.sparse_set import ix

# Program counter values.
PC_ROOT = 0
PC_ENTER = 1
PC_TRY = 2
PC_LEAVE = 3
PC_SHAVE = 4          # shaving the node just placed (at the root: ``level`` is -1 meanwhile)

# Branching rules.
MIN_DOMAIN = 0
DOM_DDEG = 1

# Return status.
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP = 3           # entered a node at the stop level (split runs)

# State vector.
ST_LEVEL = 0
ST_PC = 1
ST_NBUF = 2
ST_TRAIL = 3          # trail top
ST_STOP = 4           # stop on entering a node this many decisions deep (0: never)
ST_SHAVE_CELL = 5     # shaving's place: the cell being tried,
ST_SHAVE_AT = 6       # the next of its class's orientations (-1: from the first),
ST_SHAVE_REMOVED = 7  # and whether this pass removed anything
STATE_SIZE = 8

# What ``_shave`` returns.
SHAVE_DONE = 0
SHAVE_FAILED = 1
SHAVE_PAUSED = 2      # its trials reached the budget; ``state`` says where it goes on

# Counters.
CT_SOLUTIONS = 0
CT_NODES = 1
CT_PROPAGATED = 2
CT_FAILS = 3          # branching placements refuted by propagation (or by shaving)
CT_TRIALS = 4         # shaving's placements, tried and taken back
CT_SHAVED = 5         # orientations shaving removed (their trial failed)
CT_DEEPEST = 6        # the most cells placed at a node entered (roots and propagation included)
COUNTERS_SIZE = 7

# Per-level record of the decision stack.
L_CELL = 0
L_PTR = 1             # next candidate (index into ``cand``)
L_END = 2
L_MARK = 3            # trail top before this level's placement
LV_STRIDE = 4

# Trail entries: kind + 4 * payload.
TR_DOM = 0            # payload cell << ORI_BITS | orientation: removed from the domain
TR_MASK = 1           # payload edge * 64 + colour: taken off the edge
TR_PLACE = 2          # payload cell: placed
#: Orientations fit in 16 bits: n_ori <= 4 * n_cells and n_cells * n_ori <= 2 ** 25 (the edges
#: engine's limit) give n_ori < 2 ** 14.  A shift, not a division, takes the entry apart.
ORI_BITS = 16

#: No events queued yet, as a non-literal int64: the helpers that are not inlined take int64
#: integers (values read from the int32 arrays ``roots`` and ``cand`` are cast), so that numba
#: compiles each once (docs/architecture.md, "One signature per helper").
NO_EVENTS = np.int64(0)

# The model, one flat int32 array of sections (``model_arrays`` builds it); offsets in its head.
M_N_CELLS = 0
M_N_ORI = 1
M_V = 2               # colours, grey included
M_NBR = 3             # offset: neighbour per cell side (-1: frame)
M_EDGE_OF = 4         # offset: edge per cell side (-1: frame)
M_EDGE_END = 5        # offset: per edge, (cell, side) of both ends
M_CELL_CLS = 6        # offset: frame class per cell (bit s: side s on the frame)
M_CLS_START = 7       # offset: CSR start of each class's orientations (17 entries)
M_CLS_ORI = 8         # offset: the orientations of each class, in increasing order
M_BY_COL_START = 9    # offset: CSR start per (class, side, colour)
M_BY_COL = 10         # offset: orientations of a class showing a colour on a side
M_ORI_TILE = 11       # offset: tile per orientation
M_ORI_COL = 12        # offset: colours per orientation, north east south west
M_TILE_START = 13     # offset: CSR start of each tile's orientations
M_TYPE_START = 14     # offset: CSR start of the cells with 0..4 frame sides (6 entries)
M_TYPE_CELLS = 15     # offset: those cells
M_CELL_TYPE = 16      # offset: frame sides per cell
M_N_EDGES = 17
M_N_TILES = 18
M_HEAD = 19

# The tile counters and the AllDifferent's matching, one flat int32 array ``tl``
# (``tile_counters`` builds it).
T_ON = 0              # bits: RULES, ALLDIFF; the counters are kept when either is set
T_TOP = 1             # top of the stack of tiles to look at
T_CELL_TILE = 2       # offset: per cell and tile, the orientations of the tile in the domain
T_STACK = 3           # offset: the stack of tiles
T_DIRTY = 4           # 1: a tile left a domain since the AllDifferent last ran
T_STAMP = 5           # visit stamp of the augmenting-path searches
T_AD = 6              # offset: the AllDifferent's section (A_* below, relative to it)
T_FAIL = 7            # 1: a domain emptied, or a tile lost its last cell, since the last reset
T_NSINGLE = 8         # top of the stack of cells left with one orientation
T_SINGLES = 9         # offset: that stack
T_TILE_CELLS = 10     # per tile, the cells whose domain holds it (from here, n_tiles entries)

RULES = 1             # a tile left with no cell fails, one left with one cell claims it
ALLDIFF = 2           # Régin's complete AllDifferent over the cells' tiles

# The AllDifferent's section of ``tl``, in this order: the tiles by frame type (CSR, 6 starts
# then the tiles), the matching (tile per cell, cell per tile), the visit stamp per tile, and
# per cell Tarjan's index, low link, on-stack flag, component, the component stack and the
# depth-first stacks (cell, position in its type's tiles, tile taken).
A_TYPE_START = 0
A_TYPE_TILES = 6


@njit(cache=False, inline="always")
def _remove(m, x, o, dom, size, sup, mask, trail, top, events, n_ev, tl):
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
def _place(m, c, o, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl):
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
            top, n_ev = _remove(m, c, q, dom, size, sup, mask, trail, top, events, n_ev, tl)
    ty = m[ix(m[M_CELL_TYPE] + c)]
    for i in range(m[ix(m[M_TYPE_START] + ty)], m[ix(m[M_TYPE_START] + ty + 1)]):
        x = m[ix(m[M_TYPE_CELLS] + i)]
        if x == c:
            continue
        for q in range(m[ix(m[M_TILE_START] + t)], m[ix(m[M_TILE_START] + t + 1)]):
            if dom[ix(x * n_ori + q)]:
                top, n_ev = _remove(m, x, q, dom, size, sup, mask, trail, top, events, n_ev,
                                    tl)
    return top, n_ev


@njit(cache=False)
def _alldifferent(m, placed, dom, size, sup, mask, trail, top, events, n_ev, tl):
    """Régin's filtering: a maximum matching of the cells to the tiles of their domains (the
    last one, repaired, then completed by augmenting paths); none covering every cell is a
    failure.  As many tiles as cells, so a complete matching leaves no tile free, and a cell
    keeps a tile other than its own only if it lies on an alternating cycle: the cell and the
    tile's matched cell in one strongly connected component of the graph cell -> (the cell
    matched to each other tile of its domain), found by Tarjan's algorithm.  The matching is
    not trailed: taking back a placement only adds edges, so it stays a matching.  Returns
    (ok, trail top, events)."""
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
                        top, n_ev = _remove(m, x, q, dom, size, sup, mask, trail, top,
                                            events, n_ev, tl)
    tl[T_DIRTY] = 0     # its own removals leave the matching complete
    return True, top, n_ev


@njit(cache=False, inline="always")
def _reset_queues(tl):
    """Before a placement or removal made outside propagation: no tile, single or failure
    left over from an earlier (undone) propagation."""
    tl[T_TOP] = 0
    tl[T_NSINGLE] = 0
    tl[T_FAIL] = 0


@njit(cache=False, inline="always")
def _only_orientation(m, dom, x):
    """The first orientation in cell ``x``'s domain (its only one, where this is called)."""
    n_ori = m[M_N_ORI]
    k = m[ix(m[M_CELL_CLS] + x)]
    for i in range(m[ix(m[M_CLS_START] + k)], m[ix(m[M_CLS_START] + k + 1)]):
        q = m[ix(m[M_CLS_ORI] + i)]
        if dom[ix(x * n_ori + q)]:
            return q
    return -1


@njit(cache=False)
def _propagate(m, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl,
               counters):
    """Process the queued events and place the cells left with one orientation, to the fixed
    point.  Returns (ok, trail top).

    The fixed point does not depend on the order, so the order is chosen to find a failure
    early, since most of the work goes into branches that fail (E_10_8: three quarters of the
    trail entries): a failure flagged by ``_remove`` stops at once, a cell left with one
    orientation is placed before any other event is looked at (its tile then leaves the other
    cells), and events are taken first in, first out."""
    n_cells = m[M_N_CELLS]
    n_ori = m[M_N_ORI]
    v = m[M_V]
    head = 0
    while True:
        if tl[T_FAIL]:
            return False, top
        if tl[T_NSINGLE] > 0:
            tl[T_NSINGLE] -= 1
            x = tl[ix(tl[T_SINGLES] + tl[T_NSINGLE])]
            if placed[ix(x)] < 0 and size[ix(x)] == 1:
                counters[CT_PROPAGATED] += 1
                top, n_ev = _place(m, np.int64(x), np.int64(_only_orientation(m, dom, x)),
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
                        top, n_ev = _remove(m, x, q, dom, size, sup, mask, trail, top,
                                            events, n_ev, tl)
            continue
        if tl[T_TOP] > 0:
            # A tile no cell can take is a failure; a tile one cell alone can take claims it.
            tl[T_TOP] -= 1
            t = tl[ix(tl[T_STACK] + tl[T_TOP])]
            if tl[ix(T_TILE_CELLS + t)] == 0:
                return False, top
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
                        top, n_ev = _remove(m, x, q, dom, size, sup, mask, trail, top,
                                            events, n_ev, tl)
            continue
        if tl[T_ON] & ALLDIFF and tl[T_DIRTY]:
            ok, top, n_ev = _alldifferent(m, placed, dom, size, sup, mask, trail, top, events,
                                          n_ev, tl)
            if not ok:
                return False, top
            continue
        # Every domain is arc consistent now.  A cell that had one orientation before this
        # propagation began (never queued as a single) is placed here.
        single = -1
        for x in range(n_cells):
            if placed[ix(x)] < 0 and size[ix(x)] <= 1:
                single = x
                break
        if single < 0:
            return True, top
        if size[ix(single)] == 0:
            return False, top
        counters[CT_PROPAGATED] += 1
        top, n_ev = _place(m, np.int64(single), np.int64(_only_orientation(m, dom, single)),
                           placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl)
    return True, top


@njit(cache=False)
def _undo(m, mark, top, placed, used, dom, size, sup, mask, trail, tl):
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


@njit(cache=False)
def _shave(m, placed, used, dom, size, sup, mask, trail, top, events, tl, counters, limit,
           state, budget):
    """Singleton tests: every orientation of every empty cell with at most ``limit`` of them
    is placed, propagated and taken back; one whose propagation fails leaves the domain (and
    that removal is propagated).  Passes repeat until one removes nothing, so the result is
    the one greatest fixed point whatever the order.  After ``budget`` trials it pauses
    between two of them, its place kept in ``state`` (``ST_SHAVE_*``; a pass starts with cell
    0 and nothing removed), and a later call goes on from there: the same trials in the same
    order.  Returns (``SHAVE_DONE`` | ``SHAVE_FAILED`` | ``SHAVE_PAUSED``, trail top)."""
    n_cells = m[M_N_CELLS]
    n_ori = m[M_N_ORI]
    x = state[ST_SHAVE_CELL]
    at = state[ST_SHAVE_AT]
    removed = state[ST_SHAVE_REMOVED] != 0
    made = 0
    while True:
        while x < n_cells:
            # Removals only shrink a domain: a cell let in before a pause still is.
            if placed[ix(x)] >= 0 or size[ix(x)] > limit:
                x += 1
                at = -1
                continue
            k = m[ix(m[M_CELL_CLS] + x)]
            if at < 0:
                at = m[ix(m[M_CLS_START] + k)]
            while at < m[ix(m[M_CLS_START] + k + 1)] and placed[ix(x)] < 0:
                q = m[ix(m[M_CLS_ORI] + at)]
                if dom[ix(x * n_ori + q)] == 0:
                    at += 1
                    continue
                if made >= budget:
                    state[ST_SHAVE_CELL] = x
                    state[ST_SHAVE_AT] = at
                    state[ST_SHAVE_REMOVED] = 1 if removed else 0
                    return SHAVE_PAUSED, top
                at += 1
                made += 1
                mark = top
                propagated = counters[CT_PROPAGATED]
                counters[CT_TRIALS] += 1
                _reset_queues(tl)
                top, n_ev = _place(m, np.int64(x), np.int64(q), placed, used, dom, size, sup,
                                   mask, trail, top, events, NO_EVENTS, tl)
                ok, top = _propagate(m, placed, used, dom, size, sup, mask, trail, top,
                                     events, n_ev, tl, counters)
                top = _undo(m, mark, top, placed, used, dom, size, sup, mask, trail, tl)
                counters[CT_PROPAGATED] = propagated
                if ok:
                    continue
                removed = True
                counters[CT_SHAVED] += 1
                _reset_queues(tl)
                top, n_ev = _remove(m, np.int64(x), np.int64(q), dom, size, sup, mask, trail,
                                    top, events, NO_EVENTS, tl)
                ok, top = _propagate(m, placed, used, dom, size, sup, mask, trail, top,
                                     events, n_ev, tl, counters)
                if not ok:
                    return SHAVE_FAILED, top
            x += 1
            at = -1
        if not removed:
            return SHAVE_DONE, top
        x = 0
        removed = False


@njit(cache=False, inline="always")
def _start_shave(state):
    """Put shaving's place at the start of its first pass."""
    state[ST_SHAVE_CELL] = 0
    state[ST_SHAVE_AT] = -1
    state[ST_SHAVE_REMOVED] = 0


@njit(cache=False, inline="always")
def _choose_cell(m, placed, size, branching):
    """The empty cell to branch on (-1: none left) by the rule ``branching``."""
    best = -1
    best_size = 0
    best_free = 0
    for c in range(m[M_N_CELLS]):
        if placed[ix(c)] >= 0:
            continue
        free = 0
        if branching == DOM_DDEG:
            for s in range(4):
                x = m[ix(m[M_NBR] + c * 4 + s)]
                if x >= 0 and placed[ix(x)] < 0:
                    free += 1
        if best < 0:
            better = True
        elif branching == MIN_DOMAIN:
            better = size[ix(c)] < best_size
        elif free == 0:
            better = best_free == 0 and size[ix(c)] < best_size
        else:       # size / free < best_size / best_free, a lone cell counting as infinite
            better = best_free == 0 or size[ix(c)] * best_free < best_size * free
        if better:
            best = c
            best_size = size[ix(c)]
            best_free = free
    return best


@njit(cache=True, _nrt=False)
def search(m, roots, placed, used, dom, size, sup, mask, trail, events, tl, lv, cand,
           cand_stride, state, counters, sol_buf, deepest, store, max_in_buf, node_budget,
           branching, shave):
    """Run from the saved ``state`` until done, ``max_in_buf`` solutions are buffered or
    ``node_budget`` nodes and shaving trials were made (a trial counts as a node there: a
    node can make hundreds of thousands, and a slice must stay short for a time limit or
    Ctrl-C to be seen; a slice can end inside a node's shaving, ``PC_SHAVE``).  ``m`` is the
    model (``model_arrays``); ``dom``, ``size``
    and ``sup`` start as the frame-filtered domains (``initial_domains``), ``mask`` with every
    colour on every edge.  ``roots`` holds (cell, orientation) pairs placed before the search
    (the hints); solutions are buffered as the orientation of each cell, and ``deepest`` keeps
    the placements of the deepest node entered (``counters[CT_DEEPEST]``).  ``branching`` is
    ``DOM_DDEG`` or ``MIN_DOMAIN``.  With ``state[ST_STOP]`` > 0 a node that many decisions
    deep returns AT_STOP before any work on it, and resuming skips it."""
    n_cells = m[M_N_CELLS]
    n_ori = m[M_N_ORI]
    v = m[M_V]
    level = state[ST_LEVEL]
    pc = state[ST_PC]
    nbuf = state[ST_NBUF]
    top = state[ST_TRAIL]
    budget = node_budget
    status = DONE
    while True:
        if pc == PC_ROOT:
            ok = True
            n_ev = NO_EVENTS
            _reset_queues(tl)
            tl[T_DIRTY] = 1
            if tl[T_ON] & RULES:
                for t in range(m[M_N_TILES]):
                    if tl[ix(T_TILE_CELLS + t)] <= 1:
                        tl[ix(tl[T_STACK] + tl[T_TOP])] = t
                        tl[T_TOP] += 1
            # Colours one side cannot show leave the edge.
            for e in range(m[M_N_EDGES]):
                for col in range(v):
                    bit = np.uint64(1) << np.uint64(col)
                    if mask[ix(e)] & bit == 0:
                        continue
                    for end in range(2):
                        x = m[ix(m[M_EDGE_END] + e * 4 + end * 2)]
                        s = m[ix(m[M_EDGE_END] + e * 4 + end * 2 + 1)]
                        if mask[ix(e)] & bit and sup[ix((x * 4 + s) * v + col)] == 0:
                            mask[ix(e)] &= ~bit
                            trail[ix(top)] = TR_MASK + 4 * (e * 64 + col)
                            top += 1
                            events[ix(n_ev)] = e * 64 + col
                            n_ev += 1
            for i in range(len(roots) // 2):
                c = np.int64(roots[2 * i])
                o = np.int64(roots[2 * i + 1])
                if placed[ix(c)] >= 0 or dom[ix(c * n_ori + o)] == 0:
                    ok = False
                    break
                top, n_ev = _place(m, c, o, placed, used, dom, size, sup, mask, trail, top,
                                   events, n_ev, tl)
            if ok:
                ok, top = _propagate(m, placed, used, dom, size, sup, mask, trail, top, events,
                                     n_ev, tl, counters)
            if not ok:
                level = -1
                pc = PC_LEAVE
                status = DONE
                break
            if shave > 1:
                level = -1          # the root's shaving: one level above the first node
                _start_shave(state)
                pc = PC_SHAVE
            else:
                level = 0
                pc = PC_ENTER
        elif pc == PC_ENTER:
            if level == state[ST_STOP] and level > 0:
                # A split run's frontier: leave the node unsearched; resuming leaves it.
                r = level * LV_STRIDE
                lv[ix(r + L_CELL)] = -1
                lv[ix(r + L_PTR)] = level * cand_stride
                lv[ix(r + L_END)] = level * cand_stride
                lv[ix(r + L_MARK)] = top
                pc = PC_TRY
                status = AT_STOP
                break
            filled = 0
            for c in range(n_cells):
                if placed[ix(c)] >= 0:
                    filled += 1
            if filled > counters[CT_DEEPEST]:
                counters[CT_DEEPEST] = filled
                for c in range(n_cells):
                    deepest[ix(c)] = placed[ix(c)]
            best = _choose_cell(m, placed, size, branching)
            if best < 0:
                counters[CT_SOLUTIONS] += 1
                if store:
                    for c in range(n_cells):
                        sol_buf[nbuf, c] = placed[ix(c)]
                nbuf += 1
                pc = PC_LEAVE
                if nbuf >= max_in_buf:
                    status = BUFFER_FULL
                    break
                continue
            r = level * LV_STRIDE
            base = level * cand_stride
            end = base
            k = m[ix(m[M_CELL_CLS] + best)]
            for i in range(m[ix(m[M_CLS_START] + k)], m[ix(m[M_CLS_START] + k + 1)]):
                q = m[ix(m[M_CLS_ORI] + i)]
                if dom[ix(best * n_ori + q)]:
                    cand[ix(end)] = q
                    end += 1
            lv[ix(r + L_CELL)] = best
            lv[ix(r + L_PTR)] = base
            lv[ix(r + L_END)] = end
            lv[ix(r + L_MARK)] = top
            pc = PC_TRY
        elif pc == PC_TRY:
            r = level * LV_STRIDE
            top = _undo(m, lv[ix(r + L_MARK)], top, placed, used, dom, size, sup, mask, trail,
                        tl)
            p = lv[ix(r + L_PTR)]
            if p >= lv[ix(r + L_END)]:
                pc = PC_LEAVE
                continue
            if budget <= 0:
                status = BUDGET_SPENT
                break
            lv[ix(r + L_PTR)] = p + 1
            counters[CT_NODES] += 1
            budget -= 1
            _reset_queues(tl)
            top, n_ev = _place(m, lv[ix(r + L_CELL)], np.int64(cand[ix(p)]), placed, used, dom,
                               size, sup, mask, trail, top, events, NO_EVENTS, tl)
            ok, top = _propagate(m, placed, used, dom, size, sup, mask, trail, top, events,
                                 n_ev, tl, counters)
            if ok and shave > 1:
                _start_shave(state)
                pc = PC_SHAVE
            elif ok:
                level += 1
                pc = PC_ENTER
            else:
                counters[CT_FAILS] += 1
        elif pc == PC_SHAVE:
            # After the root's placements (level -1) or a branching placement (its level).
            if budget <= 0:
                status = BUDGET_SPENT
                break
            trials = counters[CT_TRIALS]
            shaved, top = _shave(m, placed, used, dom, size, sup, mask, trail, top, events,
                                 tl, counters, shave, state, budget)
            budget -= counters[CT_TRIALS] - trials
            if shaved == SHAVE_PAUSED:
                status = BUDGET_SPENT
                break
            if shaved == SHAVE_DONE:
                level += 1
                pc = PC_ENTER
            elif level < 0:
                pc = PC_LEAVE
                status = DONE
                break
            else:
                counters[CT_FAILS] += 1
                pc = PC_TRY
        else:
            level -= 1
            if level < 0:
                status = DONE
                break
            pc = PC_TRY
    state[ST_LEVEL] = level
    state[ST_PC] = pc
    state[ST_NBUF] = nbuf
    state[ST_TRAIL] = top
    return status


def model_arrays(nbr: np.ndarray, ori_tile: np.ndarray, ori_col: np.ndarray,
                 tile_ori_start: np.ndarray, n_values: int) -> np.ndarray:
    """The flat model ``m`` of ``search`` (the M_* offsets)."""
    n_cells = len(nbr)
    n_ori = len(ori_tile)
    weights = np.array([1, 2, 4, 8])
    cell_cls = ((nbr < 0) * weights).sum(axis=1)
    ori_cls = ((ori_col == 0) * weights).sum(axis=1)
    cls_ori = np.argsort(ori_cls, kind="stable")
    cls_start = np.concatenate([[0], np.cumsum(np.bincount(ori_cls, minlength=16))])
    # Orientations by (class, side, colour), each group in increasing order.
    by_col_key = ((ori_cls[:, None] * 4 + np.arange(4)) * n_values + ori_col).ravel()
    by_col = np.argsort(by_col_key, kind="stable") // 4
    by_col_start = np.concatenate(
        [[0], np.cumsum(np.bincount(by_col_key, minlength=16 * 4 * n_values))])
    edge_of = np.full((n_cells, 4), -1, dtype=np.int64)
    ends: list[int] = []
    for c in range(n_cells):
        for s in (1, 0):            # east and north: each edge once, from its west/south cell
            x = int(nbr[c, s])
            if x >= 0:
                e = len(ends) // 4
                edge_of[c, s] = edge_of[x, (s + 2) % 4] = e
                ends += [c, s, x, (s + 2) % 4]
    cell_type = (nbr < 0).sum(axis=1)
    type_cells = np.argsort(cell_type, kind="stable")
    type_start = np.concatenate([[0], np.cumsum(np.bincount(cell_type, minlength=5))])
    sections = [nbr.ravel(), edge_of.ravel(), np.array(ends, dtype=np.int64), cell_cls,
                cls_start, cls_ori, by_col_start, by_col, ori_tile, ori_col.ravel(),
                tile_ori_start, type_start, type_cells, cell_type]
    head = np.zeros(M_HEAD, dtype=np.int64)
    head[M_N_CELLS], head[M_N_ORI], head[M_V] = n_cells, n_ori, n_values
    head[M_N_EDGES] = len(ends) // 4
    head[M_N_TILES] = len(tile_ori_start) - 1
    offset = M_HEAD
    for field, section in zip(range(M_NBR, M_CELL_TYPE + 1), sections):
        head[field] = offset
        offset += len(section)
    return np.concatenate([head] + [np.asarray(s, dtype=np.int64) for s in sections]
                          ).astype(np.int32)


def initial_domains(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``dom``, ``size`` and ``sup`` with every cell's orientations grey exactly on its frame."""
    n_cells, n_ori, v = int(m[M_N_CELLS]), int(m[M_N_ORI]), int(m[M_V])
    cell_cls = m[m[M_CELL_CLS]:m[M_CELL_CLS] + n_cells]
    cls_start = m[m[M_CLS_START]:m[M_CLS_START] + 17]
    cls_ori = m[m[M_CLS_ORI]:m[M_CLS_ORI] + n_ori]
    ori_col = m[m[M_ORI_COL]:m[M_ORI_COL] + 4 * n_ori].reshape(n_ori, 4)
    edge_of = m[m[M_EDGE_OF]:m[M_EDGE_OF] + 4 * n_cells].reshape(n_cells, 4)
    dom = np.zeros((n_cells, n_ori), dtype=np.uint8)
    size = np.zeros(n_cells, dtype=np.int32)
    sup = np.zeros((n_cells, 4, v), dtype=np.int32)
    for c in range(n_cells):
        mine = cls_ori[cls_start[cell_cls[c]]:cls_start[cell_cls[c] + 1]]
        dom[c, mine] = 1
        size[c] = len(mine)
        for s in range(4):
            if edge_of[c, s] >= 0:
                sup[c, s] = np.bincount(ori_col[mine, s], minlength=v)
    return dom.ravel(), size, sup.ravel()


def tile_counters(m: np.ndarray, dom: np.ndarray, rules: bool,
                  alldifferent: bool = False) -> np.ndarray:
    """The ``tl`` array of ``search`` for the domains ``dom`` (the T_* and A_* layout):
    ``rules`` switches the tile rules, ``alldifferent`` Régin's filtering; the counters are
    kept when either is on."""
    n_cells, n_ori, n_tiles = int(m[M_N_CELLS]), int(m[M_N_ORI]), int(m[M_N_TILES])
    ori_tile = m[m[M_ORI_TILE]:m[M_ORI_TILE] + n_ori]
    cell_tile = np.zeros((n_cells, n_tiles), dtype=np.int64)
    for c in range(n_cells):
        np.add.at(cell_tile[c], ori_tile[dom[c * n_ori:(c + 1) * n_ori] == 1], 1)
    tile_cells = (cell_tile > 0).sum(axis=0)
    # A tile's frame type is its number of grey sides, as a cell's is its number of frame sides.
    ori_col = m[m[M_ORI_COL]:m[M_ORI_COL] + 4 * n_ori].reshape(n_ori, 4)
    first = m[m[M_TILE_START]:m[M_TILE_START] + n_tiles]
    tile_type = (ori_col[first] == 0).sum(axis=1)
    type_tiles = np.argsort(tile_type, kind="stable")
    type_start = np.concatenate([[0], np.cumsum(np.bincount(tile_type, minlength=5)[:5])])
    matching = np.full(n_cells + n_tiles, -1, dtype=np.int64)
    scratch = np.zeros(n_tiles + 8 * n_cells, dtype=np.int64)
    alldiff = np.concatenate([type_start, type_tiles, matching, scratch])
    stack = np.zeros(2 * n_tiles + 8, dtype=np.int64)
    at_cell_tile = T_TILE_CELLS + n_tiles
    at_stack = at_cell_tile + n_cells * n_tiles
    at_alldiff = at_stack + len(stack)
    singles = np.zeros(n_cells + 8, dtype=np.int64)
    at_singles = at_alldiff + len(alldiff)
    head = np.array([RULES * rules + ALLDIFF * alldifferent, 0, at_cell_tile, at_stack, 0, 0,
                     at_alldiff, 0, 0, at_singles], dtype=np.int64)
    return np.concatenate([head, tile_cells, cell_tile.ravel(), stack, alldiff, singles]
                          ).astype(np.int32)
