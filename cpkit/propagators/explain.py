"""Explanations for the ColorPair propagator (Benoist & Bourreau, section 5.2), as numba kernels.

An *explanation* of a failure is a set of placed cells whose current placements alone rule out
every solution: no solution of the puzzle agrees with the board on those cells.  It is a
fixed-width bitset over the cells, a row of ``W = ceil(cells / 64)`` 64-bit words stored in the
int64 state array ``g`` of ``cpkit.propagators.colorpair`` (rows are sections of ``g``: one
*reason* per cell, one per tile for preemptions, scratch rows, and the search's rows), read
through its layout (``colorpair_layout``) only: the propagator calls these helpers, never the
other way round.  The helpers below are the bitset operations (clear, set, test, union,
iterate) and the explanation *sources*, each built from the state at the moment the inference
is made:

- a cell that can take no tile (``restriction``): its placed neighbours (every value that does
  not match them is gone), the cells of the placed tiles of the pair its candidates come from
  (values used elsewhere), and the recorded explanations of the tiles skipped because another
  pair preempted them;
- ``|available Offer(p)| < |Demand(p)|`` (``pair``): for each demanding cell the two neighbours
  presenting the pair; for each unavailable tile (placed, with the pair) the cell it sits on, or
  -- when no preempted tile is counted -- the two neighbours of that cell presenting the pair if
  both are older (placed at a lower decision level): with that cell empty it would demand the
  pair itself, and the count still fails; plus the recorded explanation of every tile the count
  leaves out because another pair preempted it;
- a placement forced by the instantiation rule (``instantiation``, kept as the cell's *reason*):
  the placed neighbours of the cell, the cells of the other tiles of the pair (never replaced:
  with such a cell empty the lone tile could go there instead), the preempted tiles' explanations;
- a preemption (``pair``, recorded for every tile it tags): the same set as a contradiction;
  it proves that every tagged tile ends on a cell of the pair's Demand set, or on a cell whose
  placement the explanation replaced by its neighbours;
- the remaining-tile rules of section 4.2 on colour ``k`` (``colour``): the cells holding placed
  tiles that show ``k`` (they fix how many ``k`` sides are left and how many are demanded).

docs/algorithms.md gives the argument that each is a valid explanation, and how the search turns
them into backjumps that keep enumeration exact.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import colorpair_layout as lay
from . import colorpair_remaining as rem
from . import sparse_set as ss
from .sparse_set import ix

# Helpers are `cache=False` on purpose: a helper restored from numba's cache cannot be inlined
# into a kernel compiled later (docs/architecture.md, "Which functions are cached").
# They take int64 integers and non-literal flags, so that each is compiled once (colorpair.py,
# "Helpers that are not inlined take their integers as int64").

#: ``add_unavailable``'s ``replace`` off: the cells of the placed tiles themselves.
CELLS_ONLY = np.bool_(False)


def n_words(n_cells: int) -> int:
    """64-bit words of one explanation row."""
    return (n_cells + 63) // 64


# ---------------------------------------------------------------------------------- bitsets
@njit(cache=True, inline="always")
def clear(g, row, w):
    for k in range(w):
        g[ix(row + k)] = 0


@njit(cache=True, inline="always")
def set_bit(g, row, b):
    g[ix(row + (b >> 6))] |= np.int64(1) << np.int64(b & 63)


@njit(cache=True, inline="always")
def clear_bit(g, row, b):
    g[ix(row + (b >> 6))] &= ~(np.int64(1) << np.int64(b & 63))


@njit(cache=True, inline="always")
def has_bit(g, row, b):
    return (g[ix(row + (b >> 6))] >> np.int64(b & 63)) & 1 != 0


@njit(cache=True, inline="always")
def union(g, dst, src, w):
    for k in range(w):
        g[ix(dst + k)] |= g[ix(src + k)]


@njit(cache=True, inline="always")
def copy(g, dst, src, w):
    for k in range(w):
        g[ix(dst + k)] = g[ix(src + k)]


@njit(cache=True, inline="always")
def is_empty(g, row, w):
    for k in range(w):
        if g[ix(row + k)] != 0:
            return False
    return True


_DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[(((1 << _i) * 0x03F79D71B4CB0A89) % (1 << 64)) >> 58] = _i
del _i


@njit(cache=True, inline="always")
def lowest_bit(word):
    """Index of the lowest set bit of a non-zero word (de Bruijn multiplication)."""
    low = word & -word
    return _DEBRUIJN_INDEX[((low * _DEBRUIJN) >> np.int64(58)) & np.int64(63)]


@njit(cache=False)
def deepest_level(m, g, row, w):
    """The highest decision level among the cells of the row (-1 for none, or root cells only)."""
    level = g[lay.O_LEVEL]
    deepest = -1
    for k in range(w):
        word = g[ix(row + k)]
        while word != 0:
            c = k * 64 + lowest_bit(word)
            word &= word - 1
            lv = m[ix(level + c)]
            if lv > deepest:
                deepest = lv
    return deepest


@njit(cache=False)
def resolve(st, m, g, row, mark):
    """Rewrite the explanation in ``row`` so that it names no placement made at or after trail
    position ``mark`` (a decision's placement, then what propagation made from it): every later
    placement in the row is replaced by its reason, newest first (a reason only names older
    cells), and the decision itself is dropped.  Returns whether the decision was needed."""
    w = g[lay.G_WORDS]
    trail = g[lay.O_TRAIL]
    reason = g[lay.O_REASON]
    k = g[lay.G_TRAIL] - 1
    while k > mark:
        entry = m[ix(trail + k)]
        if entry & 1 == 0:
            x = entry >> 1
            if has_bit(g, row, x):
                clear_bit(g, row, x)
                union(g, row, reason + x * w, w)
        k -= 1
    x = m[ix(trail + mark)] >> 1
    needed = has_bit(g, row, x)
    clear_bit(g, row, x)
    return needed


# ---------------------------------------------------------------------------------- sources
@njit(cache=True, inline="always")
def _placed(m, g, x):
    return x >= 0 and m[ix(g[lay.O_CELLS] + x * lay.CELL_STRIDE + lay.C_ORI)] >= 0


@njit(cache=False)
def add_known_neighbours(st, m, g, c, row):
    nbr = g[lay.O_NBR] + 4 * c
    for s in range(4):
        x = st[ix(nbr + s)]
        if _placed(m, g, x):
            set_bit(g, row, x)


@njit(cache=True, inline="always")
def _slot_sides(slot):
    """The two sides a demand slot reads (cpkit.propagators.colorpair_layout.N_SLOTS)."""
    if slot < 4:
        return slot, (slot + 1) & 3
    return slot - 4, slot - 2


@njit(cache=False)
def _add_slot_neighbours(st, m, g, c, q, row):
    r = g[lay.O_CELLS] + c * lay.CELL_STRIDE
    nbr = g[lay.O_NBR] + 4 * c
    for slot in range(lay.N_SLOTS):
        if m[ix(r + lay.C_DPAIR + slot)] == q:
            a, b = _slot_sides(slot)
            x = st[ix(nbr + a)]
            if x >= 0:
                set_bit(g, row, x)
            x = st[ix(nbr + b)]
            if x >= 0:
                set_bit(g, row, x)
            return


@njit(cache=False)
def _older_pair_neighbours(st, m, g, y, q):
    """Two cells (or -1 for the frame) that make empty cell ``y`` demand pair ``q``: neighbours on
    two sides where ``y``'s tile shows the pair, placed at a lower level than ``y``.  ``(-2, -2)``
    if there are none."""
    n_values = g[lay.G_VALUES]
    cells = g[lay.O_CELLS]
    level = g[lay.O_LEVEL]
    o = m[ix(cells + y * lay.CELL_STRIDE + lay.C_ORI)]
    cols = g[lay.O_ORI_COL] + 4 * o
    nbr = g[lay.O_NBR] + 4 * y
    ly = m[ix(level + y)]
    for slot in range(lay.N_SLOTS):
        a, b = _slot_sides(slot)
        ca = st[ix(cols + a)]
        cb = st[ix(cols + b)]
        if slot < 4:
            p = ca * n_values + cb
        else:
            lo = min(ca, cb)
            hi = max(ca, cb)
            p = n_values * n_values + lo * n_values + hi
        if p != q:
            continue
        xa = st[ix(nbr + a)]
        xb = st[ix(nbr + b)]
        if (xa < 0 or (_placed(m, g, xa) and m[ix(level + xa)] < ly)) and \
                (xb < 0 or (_placed(m, g, xb) and m[ix(level + xb)] < ly)):
            return xa, xb
    return -2, -2


@njit(cache=False)
def add_unavailable(st, m, g, q, row, replace):
    """The placed tiles with pair ``q`` (the removed part of Offer(q)): their cells, or when
    ``replace`` the two older neighbours presenting the pair where they exist."""
    n_tiles = g[lay.G_TILES]
    off_mem = g[lay.O_OFF_MEM]
    tiles = g[lay.O_TILES]
    for k in range(m[ix(g[lay.O_OFF_SIZE] + q)], st[ix(g[lay.O_OFF_INIT] + q)]):
        t = ss.member(m, off_mem, n_tiles, q, k)
        y = np.int64(m[ix(tiles + t * lay.TILE_STRIDE + lay.T_CELL)])
        if replace:
            xa, xb = _older_pair_neighbours(st, m, g, y, q)
            if xa != -2:
                if xa >= 0:
                    set_bit(g, row, xa)
                if xb >= 0:
                    set_bit(g, row, xb)
                continue
        set_bit(g, row, y)


@njit(cache=False)
def add_preempted(st, m, g, q, row):
    """The recorded explanations of the tiles of Offer(q) preempted by another pair."""
    n_tiles = g[lay.G_TILES]
    w = g[lay.G_WORDS]
    off_mem = g[lay.O_OFF_MEM]
    tiles = g[lay.O_TILES]
    tagex = g[lay.O_TAGEX]
    for k in range(m[ix(g[lay.O_OFF_SIZE] + q)]):
        t = ss.member(m, off_mem, n_tiles, q, k)
        tag = m[ix(tiles + t * lay.TILE_STRIDE + lay.T_TAG)]
        if tag >= 0 and tag != q:
            union(g, row, tagex + t * w, w)


@njit(cache=True, inline="always")
def tags_count(m, g, q):
    """Whether the available count of ``q`` leaves preempted tiles out right now."""
    return g[lay.G_PREEMPTION] != 0 and g[lay.G_N3] == 0 and m[ix(g[lay.O_NB_PRE] + q)] > 0


@njit(cache=False)
def pair(st, m, g, q, row):
    """Why pair ``q`` cannot give (or can only just give) its demanding cells a tile each."""
    clear(g, row, g[lay.G_WORDS])
    n_cells = g[lay.G_CELLS]
    dem_mem = g[lay.O_DEM_MEM]
    for k in range(m[ix(g[lay.O_DEM_SIZE] + q)]):
        _add_slot_neighbours(st, m, g, ss.member(m, dem_mem, n_cells, q, k), q, row)
    counted = tags_count(m, g, q)
    add_unavailable(st, m, g, q, row, not counted)
    if counted:
        add_preempted(st, m, g, q, row)


@njit(cache=False)
def instantiation(st, m, g, c, q, row):
    """Why the lone available tile of pair ``q`` must go on its lone demanding cell ``c``."""
    clear(g, row, g[lay.G_WORDS])
    add_known_neighbours(st, m, g, c, row)
    add_unavailable(st, m, g, q, row, CELLS_ONLY)
    if tags_count(m, g, q):
        add_preempted(st, m, g, q, row)


@njit(cache=False)
def restriction(st, m, g, c, row):
    """Added to ``row``: why no orientation outside ``colorpair.candidates(c)`` can go on empty
    cell ``c`` (the candidates come from one demanded pair, as in ``candidates``)."""
    n_tiles = g[lay.G_TILES]
    w = g[lay.G_WORDS]
    r = g[lay.O_CELLS] + c * lay.CELL_STRIDE
    off_size = g[lay.O_OFF_SIZE]
    best = -1
    best_size = n_tiles + 1
    for k in range(lay.N_SLOTS):
        q = m[ix(r + lay.C_DPAIR + k)]
        if q >= 0 and m[ix(off_size + q)] < best_size:
            best = q
            best_size = m[ix(off_size + q)]
    if best < 0:
        # Candidates from every unplaced tile: any placed cell may matter.
        for x in range(g[lay.G_CELLS]):
            if _placed(m, g, x):
                set_bit(g, row, x)
        return
    add_known_neighbours(st, m, g, c, row)
    add_unavailable(st, m, g, np.int64(best), row, CELLS_ONLY)
    if g[lay.G_PREEMPTION] == 0:
        return
    off_mem = g[lay.O_OFF_MEM]
    tiles = g[lay.O_TILES]
    tile_ori = g[lay.O_TILE_ORI]
    tagex = g[lay.O_TAGEX]
    for k in range(best_size):
        t = ss.member(m, off_mem, n_tiles, best, k)
        tag = m[ix(tiles + t * lay.TILE_STRIDE + lay.T_TAG)]
        if tag < 0:
            continue
        demanded = False
        for j in range(lay.N_SLOTS):
            if m[ix(r + lay.C_DPAIR + j)] == tag:
                demanded = True
        if demanded:
            continue
        for o in range(st[ix(tile_ori + t)], st[ix(tile_ori + t + 1)]):
            if lay.fits(g, c, o):
                union(g, row, tagex + t * w, w)
                break


@njit(cache=False)
def _add_colour(st, m, g, k, row):
    tiles = g[lay.O_TILES]
    col_tiles = g[lay.O_COL_TILES]
    for j in range(st[ix(g[lay.O_COL_START] + k)], st[ix(g[lay.O_COL_START] + k + 1)]):
        t = st[ix(col_tiles + j)]
        y = m[ix(tiles + t * lay.TILE_STRIDE + lay.T_CELL)]
        if y >= 0:
            set_bit(g, row, y)


@njit(cache=False)
def colour_failure(st, m, g, k, row):
    """Why a remaining-tile rule fails on colour ``k`` (``F_COLOUR`` or ``F_CYCLE``): the cells of
    the placed tiles showing ``k`` (they fix how many ``k`` sides are left and how many are
    demanded); for a cycle, those of every colour of the cycle and, unless the ring is too short
    anyway, one placed frame cell (the lowest placed)."""
    clear(g, row, g[lay.G_WORDS])
    _add_colour(st, m, g, k, row)
    if g[lay.G_FAIL_KIND] != lay.F_CYCLE:
        return
    rim = g[lay.O_RIM]
    tiles = g[lay.O_TILES]
    first = -1
    for j in range(st[ix(g[lay.O_COL_START] + k)], st[ix(g[lay.O_COL_START] + k + 1)]):
        u = st[ix(g[lay.O_COL_TILES] + j)]
        if m[ix(tiles + u * lay.TILE_STRIDE + lay.T_CELL)] < 0:
            first = u
            break
    cur = first
    colour = k
    for _ in range(g[lay.G_TILES] + 1):
        nxt = rem.rim_partner(st, m, g, cur, colour)
        if nxt < 0 or nxt == first:
            break
        a = st[ix(rim + 2 * nxt)]
        colour = st[ix(rim + 2 * nxt + 1)] if a == colour else a
        _add_colour(st, m, g, np.int64(colour), row)
        cur = nxt
    if g[lay.G_FRAME_PLACED] > 0:
        level = g[lay.O_LEVEL]
        best = -1
        for x in range(g[lay.G_CELLS]):
            if _placed(m, g, x):
                frame = False
                for s in range(4):
                    if st[ix(g[lay.O_NBR] + 4 * x + s)] < 0:
                        frame = True
                if frame and (best < 0 or m[ix(level + x)] < m[ix(level + best)]):
                    best = x
        set_bit(g, row, best)
