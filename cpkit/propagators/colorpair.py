"""The ColorPair propagator of Benoist & Bourreau (sections 3 and 4.1), as numba kernels.

For every colour pair ``p`` (clockwise pairs, and opposite pairs unless switched off) two sparse
sets are kept: ``Offer(p)``, the unplaced tiles having the pair, and ``Demand(p)``, the empty
cells whose two known sides (a placed neighbour or the frame) ask for it.  Placing orientation
``o`` on cell ``c`` (``assign``) removes the tile from its (at most 6) Offer sets, the cell from
its (at most 6) Demand sets, and adds each empty neighbour to the sets its new known side creates
(at most 3 per neighbour); ``unassign`` does the opposite in the opposite order, at the same cost.
Nothing else is maintained: no domains (section 3.2).

Rules, checked on every pair whose sets changed (``propagate``):

- *contradiction*: fewer available tiles than demanding cells;
- *instantiation*: one available tile and one demanding cell, the tile fitting the cell in
  exactly one orientation: it is placed (a propagated placement, not a node);
- *preemption*: as many available tiles as demanding cells: every such tile must go to one of
  these cells, so it is tagged as preempted by the pair and counted (``nb_pre``) as unavailable
  to every other pair.  Counting is only sound while the Demand sets are pairwise disjoint, that
  is while no empty cell has 3 or 4 known sides (``G_N3 == 0``): "available" is ``|Offer|`` when
  such a cell exists and ``|Offer| - nb_pre`` otherwise, and tags are only made when none does.
  A tag itself stays valid (it is a pigeonhole fact), so candidate lists always skip a tile
  preempted by a pair the cell does not demand.  When the last 3-or-4-sided cell is filled every
  demanded pair is checked again, so that tags count at once.

Every rule can be switched off for ablation; counts never change.

Also maintained here, because ``assign`` touches exactly the cells involved: the number of known
sides of every cell, its number of *surrounded* empty neighbours (two or more known sides), and
its *pattern class* (section 5.1: 1 = four known sides, 2 = three, 3 = two and a surrounded
neighbour, 4 = one and two surrounded neighbours) as four sparse sets, so that the search finds
a pattern cell in O(1).

Memory ("a pointer is an array index").  Numba reference-counts every array passed to a
function, so the whole state lives in three arrays, built by
``cpkit.propagators.colorpair_build.build_state``:

- ``st`` (int32, read-only): neighbours, orientations (tile, colours), tiles' orientation ranges
  and colour pairs;
- ``m`` (int32): one record of ``CELL_STRIDE`` fields per cell (``C_*``), the Offer and Demand
  families (``cpkit.propagators.sparse_set``, one set per pair), the set of demanded pairs, the
  pattern classes, one record per tile (``T_*``: preempting pair, cell), ``nb_pre`` per pair,
  the queue of pairs to check, and the trail (``cell * 2`` for a placement, ``tile * 2 + 1`` for
  a tag) -- plus any sections the search asks for;
- ``g`` (int64): a header (configuration, counters, global state, and the offset of every
  section, ``O_*``), then per cell the mask and value an orientation's packed code must match
  (known sides and frame), and every orientation's packed code.

Their layout (every ``G_*``, ``O_*``, ``C_*``, ``T_*`` name) is declared in
``cpkit.propagators.colorpair_layout``; the remaining-tile rules (section 4.2) are in
``colorpair_remaining``, the explanations in ``explain``.

``G_FAIL_KIND`` / ``G_FAIL_WHO`` record where the last failure was detected: the place where an
explanation (a conflict set) will be built for conflict-directed backjumping.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import colorpair_remaining as rem
from . import explain as ex
from . import sparse_set as ss
from .colorpair_layout import *  # noqa: F403  (the G_*, O_*, C_*, T_* offsets; fits, fail)
from .sparse_set import ix

# Helpers are `cache=False` on purpose: a helper restored from numba's cache cannot be inlined
# into a kernel compiled later (docs/architecture.md, "Which functions are cached").

# ---------------------------------------------------------------------------------- helpers
# Offsets are read into locals once per function: a local is a value, while ``g[O_X]`` would be
# reloaded after every store into ``m`` (the compiler cannot tell the arrays apart).
#
# Helpers that are not inlined take their integers as int64: numba compiles a helper once per
# argument types, so an int32 read from the arena (``m``, ``st``) or a literal constant passed
# where another call passes an int64 compiles the helper and all it calls again.  Such values
# are cast with ``np.int64`` where they are read; ``PLUS_ONE`` / ``MINUS_ONE`` are the
# non-literal constants (docs/architecture.md, "One signature per helper").
PLUS_ONE = np.int64(1)
MINUS_ONE = np.int64(-1)

@njit(cache=True, inline="always")
def _push(m, g, p):
    qflag = g[O_QFLAG]
    if m[ix(qflag + p)] == 0:
        m[ix(qflag + p)] = 1
        m[ix(g[O_QUEUE] + g[G_QTOP])] = p
        g[G_QTOP] += 1


@njit(cache=False)
def reclassify(m, g, c):
    r = g[O_CELLS] + c * CELL_STRIDE
    new = 0
    if m[ix(r + C_ORI)] < 0:
        known = m[ix(r + C_KNOWN)]
        surr = m[ix(r + C_SURR)]
        if known == 4:
            new = 1
        elif known == 3:
            new = 2
        elif known == 2 and surr >= 1:
            new = 3
        elif known == 1 and surr >= 2:
            new = 4
    old = m[ix(r + C_CLASS)]
    if new != old:
        n_cells = g[G_CELLS]
        cls_mem = g[O_CLS_MEM]
        cls_where = g[O_CLS_WHERE]
        cls_size = g[O_CLS_SIZE]
        if old > 0:
            ss.remove(m, cls_mem, cls_where, cls_size, n_cells, old, c)
        if new > 0:
            ss.insert(m, cls_mem, cls_where, cls_size, n_cells, new, c)
        m[ix(r + C_CLASS)] = new


@njit(cache=False)
def _surround(st, m, g, c, delta):
    """Cell ``c`` starts (+1) or stops (-1) counting as a surrounded empty neighbour."""
    nbr = g[O_NBR] + 4 * c
    cells = g[O_CELLS]
    for s in range(4):
        x = st[ix(nbr + s)]
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        old = m[ix(rx + C_SURR)]
        surr = old + delta
        m[ix(rx + C_SURR)] = surr
        # Only classes 3 (two known sides and a surrounded neighbour) and 4 (one known side and
        # two surrounded neighbours) depend on the count, at these thresholds.
        known = m[ix(rx + C_KNOWN)]
        if (known == 2 and (surr == 0 or old == 0)) or \
                (known == 1 and (surr == 2 or old == 2) and surr <= 2 and old <= 2):
            reclassify(m, g, np.int64(x))


@njit(cache=False)
def add_demand(m, g, c, slot, q):
    r = g[O_CELLS] + c * CELL_STRIDE
    n_cells = g[G_CELLS]
    dem_where = g[O_DEM_WHERE]
    dem_size = g[O_DEM_SIZE]
    m[ix(r + C_DPAIR + slot)] = q
    if ss.contains(m, dem_where, dem_size, n_cells, q, c):
        m[ix(r + C_DINS + slot)] = 0
        return
    m[ix(r + C_DINS + slot)] = 1
    ss.insert(m, g[O_DEM_MEM], dem_where, dem_size, n_cells, q, c)
    if m[ix(dem_size + q)] == 1:
        ss.insert(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)
    _push(m, g, q)


@njit(cache=True, inline="always")
def _leave_demand(m, g, c, q):
    dem_size = g[O_DEM_SIZE]
    ss.remove(m, g[O_DEM_MEM], g[O_DEM_WHERE], dem_size, g[G_CELLS], q, c)
    if m[ix(dem_size + q)] == 0:
        ss.remove(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)


@njit(cache=True, inline="always")
def _enter_demand(m, g, c, q):
    dem_size = g[O_DEM_SIZE]
    ss.insert(m, g[O_DEM_MEM], g[O_DEM_WHERE], dem_size, g[G_CELLS], q, c)
    if m[ix(dem_size + q)] == 1:
        ss.insert(m, g[O_DP_MEM], g[O_DP_WHERE], g[O_DP_SIZE], g[G_PAIRS], 0, q)


@njit(cache=False)
def _drop_slot(m, g, c, slot):
    """Undo ``add_demand`` for ``slot`` of ``c`` (if the slot is set)."""
    r = g[O_CELLS] + c * CELL_STRIDE
    q = m[ix(r + C_DPAIR + slot)]
    if q < 0:
        return
    if m[ix(r + C_DINS + slot)] != 0:
        _leave_demand(m, g, c, q)
    m[ix(r + C_DPAIR + slot)] = -1
    m[ix(r + C_DINS + slot)] = 0


# ---------------------------------------------------------------------------------- assign
@njit(cache=False)
def assign(st, m, g, c, o):
    """Place orientation ``o`` on empty cell ``c``; the pairs whose rules may now fire are
    queued."""
    n_values = g[G_VALUES]
    n_tiles = g[G_TILES]
    cells = g[O_CELLS]
    off_mem = g[O_OFF_MEM]
    off_where = g[O_OFF_WHERE]
    off_size = g[O_OFF_SIZE]
    dem_size = g[O_DEM_SIZE]
    nb_pre = g[O_NB_PRE]
    cmask = g[O_CMASK]
    r = cells + c * CELL_STRIDE
    t = np.int64(st[ix(g[O_ORI_TILE] + o)])
    n3_before = g[G_N3]
    if g[G_SHARED_EDGE] != 0 or g[G_CYCLES] != 0:
        rem.count_colours(st, m, g, c, o, t, MINUS_ONE)
    m[ix(r + C_ORI)] = o
    tile = g[O_TILES] + t * TILE_STRIDE
    m[ix(tile + T_CELL)] = c
    g[G_EMPTY] -= 1
    # The tile leaves its Offer sets.
    tag = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        p = st[ix(pairs + k)]
        ss.remove(m, off_mem, off_where, off_size, n_tiles, p, t)
        if tag >= 0 and tag != p:
            m[ix(nb_pre + p)] -= 1
        if m[ix(dem_size + p)] > 0:
            # (a pair nobody demands has no rule to fire)
            _push(m, g, p)
    # The cell leaves its Demand sets and the pattern bookkeeping.
    known = m[ix(r + C_KNOWN)]
    if known >= 3:
        g[G_N3] -= 1
    if known >= 2:
        _surround(st, m, g, c, MINUS_ONE)
    for k in range(N_SLOTS):
        if m[ix(r + C_DINS + k)] != 0:
            _leave_demand(m, g, c, m[ix(r + C_DPAIR + k)])
    reclassify(m, g, c)
    # Each empty neighbour learns the colour of its side facing c.
    nbr = g[O_NBR] + 4 * c
    cols = g[O_ORI_COL] + 4 * o
    for s in range(4):
        x = np.int64(st[ix(nbr + s)])
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        colour = st[ix(cols + s)]
        xs = (s + 2) & 3
        m[ix(rx + C_SIDE + xs)] = colour
        g[ix(cmask + 2 * x)] |= np.int64(0xFF) << (8 * xs)
        g[ix(cmask + 2 * x + 1)] |= np.int64(colour) << (8 * xs)
        prev = (xs + 3) & 3
        before = m[ix(rx + C_SIDE + prev)]
        if before >= 0:
            add_demand(m, g, x, prev, before * n_values + colour)
        after = m[ix(rx + C_SIDE + ((xs + 1) & 3))]
        if after >= 0:
            add_demand(m, g, x, xs, colour * n_values + after)
        if g[G_OPPOSITE] != 0:
            facing = m[ix(rx + C_SIDE + ((xs + 2) & 3))]
            if facing >= 0:
                lo = min(facing, colour)
                hi = max(facing, colour)
                add_demand(m, g, x, 4 + (xs & 1), n_values * n_values + lo * n_values + hi)
        known = m[ix(rx + C_KNOWN)] + 1
        m[ix(rx + C_KNOWN)] = known
        if known == 3:
            g[G_N3] += 1
        elif known == 2:
            _surround(st, m, g, x, PLUS_ONE)
        reclassify(m, g, x)
    m[ix(g[O_TRAIL] + g[G_TRAIL])] = c * 2
    g[G_TRAIL] += 1
    if n3_before > 0 and g[G_N3] == 0 and g[G_PREEMPTION] != 0:
        # Preemption counts again: re-check every demanded pair.
        dp_mem = g[O_DP_MEM]
        for k in range(m[ix(g[O_DP_SIZE])]):
            _push(m, g, m[ix(dp_mem + k)])


@njit(cache=False)
def unassign(st, m, g, c):
    """Undo the placement on ``c`` (the last placement not yet undone), step by step backwards."""
    n_tiles = g[G_TILES]
    cells = g[O_CELLS]
    cmask = g[O_CMASK]
    r = cells + c * CELL_STRIDE
    o = np.int64(m[ix(r + C_ORI)])
    t = np.int64(st[ix(g[O_ORI_TILE] + o)])
    if g[G_SHARED_EDGE] != 0 or g[G_CYCLES] != 0:
        rem.count_colours(st, m, g, c, o, t, PLUS_ONE)
    nbr = g[O_NBR] + 4 * c
    for s in range(3, -1, -1):
        x = np.int64(st[ix(nbr + s)])
        if x < 0:
            continue
        rx = cells + x * CELL_STRIDE
        if m[ix(rx + C_ORI)] >= 0:
            continue
        xs = (s + 2) & 3
        known = m[ix(rx + C_KNOWN)]
        if known == 2:
            _surround(st, m, g, x, MINUS_ONE)
        elif known == 3:
            g[G_N3] -= 1
        m[ix(rx + C_KNOWN)] = known - 1
        # The slots made by this side are exactly the set slots that involve it (a slot is made
        # when its second side becomes known, and later sides are undone first).
        if g[G_OPPOSITE] != 0:
            _drop_slot(m, g, x, 4 + (xs & 1))
        _drop_slot(m, g, x, xs)
        _drop_slot(m, g, x, (xs + 3) & 3)
        m[ix(rx + C_SIDE + xs)] = -1
        g[ix(cmask + 2 * x)] &= ~(np.int64(0xFF) << (8 * xs))
        g[ix(cmask + 2 * x + 1)] &= ~(np.int64(0xFF) << (8 * xs))
        reclassify(m, g, x)
    for k in range(N_SLOTS - 1, -1, -1):
        if m[ix(r + C_DINS + k)] != 0:
            _enter_demand(m, g, c, m[ix(r + C_DPAIR + k)])
    known = m[ix(r + C_KNOWN)]
    if known >= 2:
        _surround(st, m, g, c, PLUS_ONE)
    if known >= 3:
        g[G_N3] += 1
    tile = g[O_TILES] + t * TILE_STRIDE
    tag = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    off_mem = g[O_OFF_MEM]
    off_where = g[O_OFF_WHERE]
    off_size = g[O_OFF_SIZE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)] - 1, -1, -1):
        p = st[ix(pairs + k)]
        ss.insert(m, off_mem, off_where, off_size, n_tiles, p, t)
        if tag >= 0 and tag != p:
            m[ix(nb_pre + p)] += 1
    m[ix(r + C_ORI)] = -1
    m[ix(tile + T_CELL)] = -1
    g[G_EMPTY] += 1
    reclassify(m, g, c)


@njit(cache=False)
def _tag(st, m, g, t, p):
    m[ix(g[O_TILES] + t * TILE_STRIDE + T_TAG)] = p
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    dem_size = g[O_DEM_SIZE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        q = st[ix(pairs + k)]
        if q != p:
            m[ix(nb_pre + q)] += 1
            if m[ix(dem_size + q)] > 0:
                _push(m, g, q)
    m[ix(g[O_TRAIL] + g[G_TRAIL])] = t * 2 + 1
    g[G_TRAIL] += 1
    g[G_PREEMPTED] += 1


@njit(cache=False)
def _untag(st, m, g, t):
    tile = g[O_TILES] + t * TILE_STRIDE
    p = m[ix(tile + T_TAG)]
    pairs = g[O_TILE_PAIRS] + 6 * t
    nb_pre = g[O_NB_PRE]
    for k in range(st[ix(g[O_TILE_NPAIRS] + t)]):
        q = st[ix(pairs + k)]
        if q != p:
            m[ix(nb_pre + q)] -= 1
    m[ix(tile + T_TAG)] = -1


@njit(cache=False)
def undo_to(st, m, g, mark):
    """Undo every placement and tag made since the trail was at ``mark``."""
    trail = g[O_TRAIL]
    while g[G_TRAIL] > mark:
        g[G_TRAIL] -= 1
        entry = np.int64(m[ix(trail + g[G_TRAIL])])
        if entry & 1:
            _untag(st, m, g, entry >> 1)
        else:
            unassign(st, m, g, entry >> 1)


# ---------------------------------------------------------------------------------- rules
@njit(cache=True, inline="always")
def available(m, g, p, tags):
    """Tiles pair ``p`` can still get: its Offer, less (with preemption tags on) the tiles
    preempted for other pairs."""
    avail = m[ix(g[O_OFF_SIZE] + p)]
    if tags:
        avail -= m[ix(g[O_NB_PRE] + p)]
    return avail


@njit(cache=True, inline="always")
def _queued_failure(m, g, tags):
    """The first queued pair already short of tiles (Offer, less the tiles preempted for other
    pairs, below Demand), or -1.

    Checked before an instantiation: failing on a pair that is already lost costs nothing,
    while instantiating first makes placements (and queues more pairs) that the failure will
    undo anyway."""
    queue = g[O_QUEUE]
    for i in range(g[G_QTOP]):
        q = m[ix(queue + i)]
        if available(m, g, q, tags) < m[ix(g[O_DEM_SIZE] + q)]:
            return q
    return -1


@njit(cache=False)
def propagate(st, m, g):
    """Check the queued pairs (and those their consequences queue) until none is left; False on
    a contradiction, with ``G_FAIL_KIND`` / ``G_FAIL_WHO`` saying where it was found."""
    n_cells = g[G_CELLS]
    n_tiles = g[G_TILES]
    contradiction = g[G_CONTRADICTION] != 0
    instantiation = g[G_INSTANTIATION] != 0
    preemption = g[G_PREEMPTION] != 0
    off_mem = g[O_OFF_MEM]
    off_size = g[O_OFF_SIZE]
    dem_mem = g[O_DEM_MEM]
    dem_size = g[O_DEM_SIZE]
    tiles = g[O_TILES]
    tile_ori = g[O_TILE_ORI]
    queue = g[O_QUEUE]
    qflag = g[O_QFLAG]
    explain = g[G_EXPLAIN] != 0
    cqueue = g[O_CQUEUE]
    n_values = g[G_VALUES]
    ok = True
    while g[G_QTOP] > 0 or g[G_CQTOP] > 0:
        if g[G_CQTOP] > 0:
            g[G_CQTOP] -= 1
            k = np.int64(m[ix(cqueue + g[G_CQTOP])])
            m[ix(cqueue + n_values + k)] = 0
            if not rem.check_colour(st, m, g, k):
                if explain:
                    ex.colour_failure(st, m, g, k, g[O_XROW])
                ok = False
                break
            continue
        g[G_QTOP] -= 1
        p = np.int64(m[ix(queue + g[G_QTOP])])
        m[ix(qflag + p)] = 0
        d = m[ix(dem_size + p)]
        tags = preemption and g[G_N3] == 0
        avail = available(m, g, p, tags)
        if avail < d:
            if contradiction:
                ok = fail(g, F_PAIR, p)
                if explain:
                    ex.pair(st, m, g, p, g[O_XROW])
                break
            continue
        if d == 0 or avail != d:
            continue
        if d == 1 and instantiation:
            if contradiction:
                q = np.int64(_queued_failure(m, g, tags))
                if q >= 0:
                    ok = fail(g, F_PAIR, q)
                    if explain:
                        ex.pair(st, m, g, q, g[O_XROW])
                    break
            c = np.int64(ss.member(m, dem_mem, n_cells, p, 0))
            t = -1
            for k in range(m[ix(off_size + p)]):
                u = ss.member(m, off_mem, n_tiles, p, k)
                tag = m[ix(tiles + u * TILE_STRIDE + T_TAG)]
                if not tags or tag < 0 or tag == p:
                    t = u
                    break
            found = MINUS_ONE
            n_fit = 0
            for o in range(st[ix(tile_ori + t)], st[ix(tile_ori + t + 1)]):
                if fits(g, c, o):
                    found = o
                    n_fit += 1
            if n_fit == 0:
                ok = fail(g, F_CELL, c)
                if explain:
                    ex.instantiation(st, m, g, c, p, g[O_XROW])
                break
            if n_fit == 1:
                if explain:
                    ex.instantiation(st, m, g, c, p, g[O_REASON] + c * g[G_WORDS])
                m[ix(g[O_LEVEL] + c)] = g[G_LEVEL_NOW]
                assign(st, m, g, c, found)
                g[G_PROPAGATED] += 1
                continue
        if tags:
            recorded = False
            for k in range(m[ix(off_size + p)]):
                u = ss.member(m, off_mem, n_tiles, p, k)
                if m[ix(tiles + u * TILE_STRIDE + T_TAG)] < 0:
                    if explain:
                        w = g[G_WORDS]
                        if not recorded:
                            ex.pair(st, m, g, p, g[O_XROW] + w)
                            recorded = True
                        ex.copy(g, g[O_TAGEX] + u * w, g[O_XROW] + w, w)
                    _tag(st, m, g, u, p)
    if not ok:
        while g[G_QTOP] > 0:
            g[G_QTOP] -= 1
            m[ix(qflag + m[ix(queue + g[G_QTOP])])] = 0
        while g[G_CQTOP] > 0:
            g[G_CQTOP] -= 1
            m[ix(cqueue + n_values + m[ix(cqueue + g[G_CQTOP])])] = 0
    return ok


@njit(cache=False)
def candidates(st, m, g, c, cand, base):
    """Write the orientations that may go on cell ``c`` to ``m[cand + base:]``; return the end.

    They come from the smallest Offer set among the pairs ``c`` demands (each candidate is then
    checked against all its known sides and the frame), skipping tiles preempted by a pair ``c``
    does not demand; a cell that demands nothing (only with opposite pairs off) scans every
    unplaced tile."""
    n_tiles = g[G_TILES]
    preemption = g[G_PREEMPTION] != 0
    r = g[O_CELLS] + c * CELL_STRIDE
    off_mem = g[O_OFF_MEM]
    off_size = g[O_OFF_SIZE]
    tiles = g[O_TILES]
    tile_ori = g[O_TILE_ORI]
    best = -1
    best_size = n_tiles + 1
    for k in range(N_SLOTS):
        q = m[ix(r + C_DPAIR + k)]
        if q >= 0 and m[ix(off_size + q)] < best_size:
            best = q
            best_size = m[ix(off_size + q)]
    end = base
    count = best_size if best >= 0 else n_tiles
    for k in range(count):
        if best >= 0:
            t = ss.member(m, off_mem, n_tiles, best, k)
        else:
            t = k
            if m[ix(tiles + t * TILE_STRIDE + T_CELL)] >= 0:
                continue
        tag = m[ix(tiles + t * TILE_STRIDE + T_TAG)]
        if preemption and tag >= 0:
            demanded = False
            for j in range(N_SLOTS):
                if m[ix(r + C_DPAIR + j)] == tag:
                    demanded = True
            if not demanded:
                continue
        for o in range(st[ix(tile_ori + t)], st[ix(tile_ori + t + 1)]):
            if fits(g, c, o):
                m[ix(cand + end)] = o
                end += 1
    return end
