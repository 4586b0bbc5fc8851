"""The remaining-tile rules of Benoist & Bourreau (section 4.2) on the ColorPair state.

Per colour the state counts the sides left on unplaced tiles, the sides empty cells are asked to
show and the unplaced tiles showing it (``count_colours``, called by ``colorpair.assign`` and
``unassign``).  Two rules read them (``check_colour``, called by ``colorpair.propagate`` on
the colours a placement queued): the *shared-edge* bound (the sides not facing a placed tile
face each other, at most ``2 h(M)`` of them among ``M`` tiles) and the *frame-colour cycles* (the
last two sides of a rim colour make their tiles neighbours along the rim: a ring of them shorter
than the empty rim is impossible).  ``explain.colour_failure`` walks the same rim links
(``rim_partner``) to explain a failure.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .colorpair_layout import (
    CELL_STRIDE, C_ORI, F_COLOUR, F_CYCLE, G_CQTOP, G_CYCLES, G_FRAME_PLACED, G_RING,
    G_SHARED_EDGE, G_TILES, G_VALUES, O_CELLS, O_COL_START, O_COL_TILES, O_COLCOUNT, O_CQUEUE,
    O_NBR, O_ORI_COL, O_RIM, O_RIM_COLOUR, O_SHARED, O_TILE_COLS, O_TILES, TILE_STRIDE, T_CELL,
    fail)
from .sparse_set import ix

# Helpers are `cache=False` on purpose: a helper restored from numba's cache cannot be inlined
# into a kernel compiled later (docs/architecture.md, "Which functions are cached").


@njit(cache=False)
def count_colours(st, m, g, c, o, t, delta):
    """Remaining-tile counters when orientation ``o`` of tile ``t`` is placed on (``delta`` -1)
    or taken off (+1) cell ``c``: per colour, the sides left on unplaced tiles, the sides empty
    cells are asked to show (a placed neighbour's colour; the frame is not counted), the unplaced
    tiles showing it.

    Only the tile's own colours change (a side facing a placed neighbour shows the neighbour's
    colour: placements match), so a placement queues for ``check_colour`` those of its colours
    on which a rule can now fail, tested here with the same conditions; the others would pass.
    A removal restores a state that held, and queues nothing."""
    cells = g[O_CELLS]
    count = g[O_COLCOUNT]
    nbr = g[O_NBR] + 4 * c
    cols = g[O_ORI_COL] + 4 * o
    frame = False
    for s in range(4):
        x = st[ix(nbr + s)]
        if x < 0:
            frame = True
            continue
        col = count + 3 * st[ix(cols + s)]
        m[ix(col)] += delta
        if m[ix(cells + x * CELL_STRIDE + C_ORI)] >= 0:
            m[ix(col + 1)] += delta       # a side of the neighbour is answered (or asked again)
        else:
            m[ix(col + 1)] -= delta       # the empty neighbour is asked for this colour
    if frame:
        g[G_FRAME_PLACED] -= delta
    tile_cols = g[O_TILE_COLS] + 4 * t
    for j in range(4):
        k = st[ix(tile_cols + j)]
        if k < 0:
            break
        m[ix(count + 3 * k + 2)] += delta
        if delta < 0 and _colour_may_fail(st, m, g, k):
            _push_colour(m, g, k)


@njit(cache=True, inline="always")
def _shared_edges_exceeded(st, m, g, k):
    """The shared-edge rule fails on colour ``k`` (see ``check_colour``)."""
    count = g[O_COLCOUNT] + 3 * k
    left = m[ix(count)]
    demanded = m[ix(count + 1)]
    return g[G_SHARED_EDGE] != 0 and (
        left < demanded or left - demanded > 2 * st[ix(g[O_SHARED] + m[ix(count + 2)])])


@njit(cache=True, inline="always")
def _cycle_may_close(st, m, g, k):
    """The last two sides of rim colour ``k`` are left and nobody demands it: the cycle rule
    must walk the rim links from ``k`` (see ``check_colour``)."""
    count = g[O_COLCOUNT] + 3 * k
    return g[G_CYCLES] != 0 and m[ix(count)] == 2 and m[ix(count + 1)] == 0 and \
        st[ix(g[O_RIM_COLOUR] + k)] != 0


@njit(cache=True, inline="always")
def _colour_may_fail(st, m, g, k):
    """Whether ``check_colour`` can fail on colour ``k``."""
    return _shared_edges_exceeded(st, m, g, k) or _cycle_may_close(st, m, g, k)


@njit(cache=True, inline="always")
def _push_colour(m, g, k):
    cqueue = g[O_CQUEUE]
    flag = cqueue + g[G_VALUES] + k
    if m[ix(flag)] == 0:
        m[ix(flag)] = 1
        m[ix(cqueue + g[G_CQTOP])] = k
        g[G_CQTOP] += 1


@njit(cache=True, inline="always")
def shared_edges(tiles):
    """h(M): the most edges ``tiles`` unit squares can share (Benoist 2008; section 4.2)."""
    s = np.int64(np.sqrt(tiles))
    while s * s > tiles:
        s -= 1
    while (s + 1) * (s + 1) <= tiles:
        s += 1
    r = tiles - s * s
    h = 2 * s * (s - 1)
    if r == 0:
        return h
    if r <= s:
        return h + 2 * r - 1
    return h + 2 * r - 2


@njit(cache=False)
def rim_partner(st, m, g, t, k):
    """The other unplaced tile with colour ``k`` along the rim, when exactly two ``k`` sides are
    left, none demanded, and ``t`` has one of them along the rim; else -1."""
    count = g[O_COLCOUNT]
    if m[ix(count + 3 * k)] != 2 or m[ix(count + 3 * k + 1)] != 0:
        return -1
    tiles = g[O_TILES]
    rim = g[O_RIM]
    col_tiles = g[O_COL_TILES]
    start = g[O_COL_START]
    for j in range(st[ix(start + k)], st[ix(start + k + 1)]):
        u = st[ix(col_tiles + j)]
        if u == t or m[ix(tiles + u * TILE_STRIDE + T_CELL)] >= 0:
            continue
        if st[ix(rim + 2 * u)] == k or st[ix(rim + 2 * u + 1)] == k:
            return u
        return -1
    return -1


@njit(cache=False)
def check_colour(st, m, g, k):
    """The remaining-tile rules on colour ``k``; False (and the failure recorded) if one fails.

    Shared edges: of the ``left`` sides of colour ``k`` on unplaced tiles, ``demanded`` will
    face placed tiles; the others face each other, two per shared edge, among the ``tiles``
    unplaced tiles showing ``k``: ``left - demanded <= 2 h(tiles)``.  Cycles: when two frame
    tiles hold the last two sides of a rim colour and nobody demands it, they are neighbours
    along the rim; following such links from tile to tile, coming back to the start closes a
    ring of frame tiles, impossible unless it is the whole empty rim."""
    if _shared_edges_exceeded(st, m, g, k):
        return fail(g, F_COLOUR, k)
    if not _cycle_may_close(st, m, g, k):
        return True
    tiles = g[O_TILES]
    rim = g[O_RIM]
    col_tiles = g[O_COL_TILES]
    start = g[O_COL_START]
    first = -1
    for j in range(st[ix(start + k)], st[ix(start + k + 1)]):
        u = st[ix(col_tiles + j)]
        if m[ix(tiles + u * TILE_STRIDE + T_CELL)] < 0:
            first = u
            break
    if first < 0 or (st[ix(rim + 2 * first)] != k and st[ix(rim + 2 * first + 1)] != k):
        return True
    cur = first
    colour = k
    length = 0
    while length <= g[G_TILES]:
        nxt = rim_partner(st, m, g, cur, colour)
        if nxt < 0:
            return True
        length += 1
        if nxt == first:
            if g[G_FRAME_PLACED] > 0 or length < g[G_RING]:
                return fail(g, F_CYCLE, k)
            return True
        a = st[ix(rim + 2 * nxt)]
        colour = st[ix(rim + 2 * nxt + 1)] if a == colour else a
        cur = nxt
    return True
