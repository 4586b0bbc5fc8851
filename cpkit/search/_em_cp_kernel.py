"""The CP search for edge matching (Benoist & Bourreau section 5.1), as a resumable numba kernel.

Each node places one orientation on one cell, then the ColorPair propagator
(``cpkit.propagators.colorpair``) runs to a fixed point.  The cell to branch on is, by decreasing
priority (section 5.1):

1. a cell with four known sides, 2. three, 3. two and a surrounded neighbour, 4. a surrounded
   neighbour of a cell with one known side and two surrounded neighbours (the pattern classes,
   kept by the propagator in O(1));
5. otherwise the first demanding cell of the most urgent demanded pair: smallest available offer
   (``H_MIN_OFFER``), smallest expected offer ``E`` (``H_MIN_EXPECTED_OFFER``), smallest
   ``E - |Demand|`` (``H_MIN_EXPECTED_GAP``, the default) or ``E / |Demand|``
   (``H_MIN_EXPECTED_RATIO``).  ``E(p)`` sums, over the tiles of Offer(p), the estimated
   probability that no other pair of the tile takes it: the product of ``1 - |Demand(q)| /
   |Offer(q)|`` over its other demanded pairs ``q`` (a tile preempted elsewhere counts 0).

The children of a node are the orientations of ``colorpair.candidates``, tried in order.

The search is a state machine over an explicit decision stack (cell, candidate range, trail
mark per level) and the propagator's trail, so it stops at a node budget or a full solution
buffer and resumes exactly there.  A failure is detected in one of three places, each recording
its kind and cell or pair in ``gst`` before backtracking: an empty candidate list at ENTER, or a
contradiction in ``propagate`` after a branching placement or a root placement.  Those are the
places where explanations will be attached for conflict-directed backjumping.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..propagators import colorpair as cp
from ..propagators import sparse_set as ss
from ..propagators.sparse_set import ix

# Program counter values.
PC_ROOT = 0
PC_ENTER = 1
PC_TRY = 2
PC_LEAVE = 3

# Return status.
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2

# The search's fields of the g header (cpkit.propagators.colorpair reserves G_SEARCH..).
G_LEVEL = cp.G_SEARCH + 0
G_PC = cp.G_SEARCH + 1
G_NBUF = cp.G_SEARCH + 2
G_SOLUTIONS = cp.G_SEARCH + 3
G_NODES = cp.G_SEARCH + 4
G_FAILS = cp.G_SEARCH + 5           # branching placements refuted by propagation
G_DEAD_ENDS = cp.G_SEARCH + 6       # chosen cells with no candidate
G_PATTERN = cp.G_SEARCH + 7         # decisions taken by pattern k = 1..4: G_PATTERN + k - 1
G_BY_HEURISTIC = cp.G_SEARCH + 11   # decisions taken by the pair heuristic
G_N_ROOT = cp.G_SEARCH + 12         # root placements (hints)
O_LV = cp.G_SEARCH + 13             # m section: the decision stack, LV_STRIDE per level
O_CAND = cp.G_SEARCH + 14           # m section: candidate orientations of every open level
O_ROOT = cp.G_SEARCH + 15           # m section: root placements, (cell, orientation) pairs

# Per-level record of the decision stack.
L_CELL = 0
L_PTR = 1               # next candidate
L_END = 2               # end of this level's candidates
L_MARK = 3              # trail top before this level's placement
LV_STRIDE = 4

# Pair heuristics.
H_MIN_OFFER = 0
H_MIN_EXPECTED_OFFER = 1
H_MIN_EXPECTED_GAP = 2
H_MIN_EXPECTED_RATIO = 3
HEURISTICS = {"min-offer": H_MIN_OFFER, "min-expected-offer": H_MIN_EXPECTED_OFFER,
              "min-expected-gap": H_MIN_EXPECTED_GAP,
              "min-expected-ratio": H_MIN_EXPECTED_RATIO}


def search_sections(n_cells: int, n_orientations: int, n_roots: int) -> dict[int, int]:
    """The m sections the search needs, for ``cpkit.propagators.colorpair.build_state``."""
    return {O_LV: (n_cells + 1) * LV_STRIDE, O_CAND: max(1, n_cells * n_orientations),
            O_ROOT: 2 * n_roots}


@njit(cache=True)
def expected_offer(st, m, g, p):
    """E(|Offer(p)|); costs ``|Offer(p)|`` times the tile's pairs (at most 6)."""
    n_tiles = g[cp.G_TILES]
    tags = g[cp.G_PREEMPTION] != 0 and g[cp.G_N3] == 0
    off_mem = g[cp.O_OFF_MEM]
    off_size = g[cp.O_OFF_SIZE]
    dem_size = g[cp.O_DEM_SIZE]
    tiles = g[cp.O_TILES]
    tile_pairs = g[cp.O_TILE_PAIRS]
    tile_npairs = g[cp.O_TILE_NPAIRS]
    total = 0.0
    for k in range(m[ix(off_size + p)]):
        t = ss.member(m, off_mem, n_tiles, p, k)
        tag = m[ix(tiles + t * cp.TILE_STRIDE + cp.T_TAG)]
        if tags and tag >= 0 and tag != p:
            continue
        prob = 1.0
        for j in range(st[ix(tile_npairs + t)]):
            q = st[ix(tile_pairs + 6 * t + j)]
            if q != p and m[ix(dem_size + q)] > 0:
                prob *= max(0.0, 1.0 - m[ix(dem_size + q)] / m[ix(off_size + q)])
        total += prob
    return total


@njit(cache=True)
def choose_cell(st, m, g):
    """The cell to branch on (see the module docstring), or -1 if no cell demands anything."""
    n_cells = g[cp.G_CELLS]
    cells = g[cp.O_CELLS]
    cls_size = g[cp.O_CLS_SIZE]
    for k in range(1, 5):
        if m[ix(cls_size + k)] > 0:
            g[ix(G_PATTERN + k - 1)] += 1
            c = ss.member(m, g[cp.O_CLS_MEM], n_cells, k, 0)
            if k < 4:
                return c
            nbr = g[cp.O_NBR] + 4 * c
            for s in range(4):
                x = st[ix(nbr + s)]
                if x >= 0 and m[ix(cells + x * cp.CELL_STRIDE + cp.C_ORI)] < 0 and \
                        m[ix(cells + x * cp.CELL_STRIDE + cp.C_KNOWN)] >= 2:
                    return x
    heuristic = g[cp.G_HEURISTIC]
    tags = g[cp.G_PREEMPTION] != 0 and g[cp.G_N3] == 0
    off_size = g[cp.O_OFF_SIZE]
    dem_size = g[cp.O_DEM_SIZE]
    nb_pre = g[cp.O_NB_PRE]
    dp_mem = g[cp.O_DP_MEM]
    best = -1
    best_score = np.inf
    for k in range(m[ix(g[cp.O_DP_SIZE])]):
        p = m[ix(dp_mem + k)]
        if heuristic == H_MIN_OFFER:
            score = float(m[ix(off_size + p)])
            if tags:
                score -= m[ix(nb_pre + p)]
        else:
            e = expected_offer(st, m, g, p)
            if heuristic == H_MIN_EXPECTED_OFFER:
                score = e
            elif heuristic == H_MIN_EXPECTED_GAP:
                score = e - m[ix(dem_size + p)]
            else:
                score = e / m[ix(dem_size + p)]
        if score < best_score:
            best_score = score
            best = p
    if best < 0:
        return -1
    g[G_BY_HEURISTIC] += 1
    return ss.member(m, g[cp.O_DEM_MEM], n_cells, best, 0)


@njit(cache=True, _nrt=False)
def search(st, m, g, sol_buf, store, max_in_buf, node_budget):
    """Run from the saved state (``g[G_LEVEL]``, ``g[G_PC]``) until done, ``max_in_buf``
    solutions are buffered, or ``node_budget`` nodes were made.  The root placements (hints) are
    made first, with propagation.  Solutions are buffered as the orientation on each cell."""
    n_cells = g[cp.G_CELLS]
    cells = g[cp.O_CELLS]
    lv = g[O_LV]
    cand = g[O_CAND]
    level = g[G_LEVEL]
    pc = g[G_PC]
    nbuf = g[G_NBUF]
    budget = node_budget
    status = DONE
    while True:
        if pc == PC_ROOT:
            for k in range(g[G_N_ROOT]):
                cp.assign(st, m, g, m[ix(g[O_ROOT] + 2 * k)], m[ix(g[O_ROOT] + 2 * k + 1)])
            level = 0
            if not cp.propagate(st, m, g):
                pc = PC_LEAVE
                status = DONE
                break
            pc = PC_ENTER
        elif pc == PC_ENTER:
            r = lv + level * LV_STRIDE
            base = m[ix(r - LV_STRIDE + L_END)] if level > 0 else 0
            if g[cp.G_EMPTY] == 0:
                g[G_SOLUTIONS] += 1
                if store:
                    for c in range(n_cells):
                        sol_buf[nbuf, c] = m[ix(cells + c * cp.CELL_STRIDE + cp.C_ORI)]
                nbuf += 1
                m[ix(r + L_CELL)] = -1
                m[ix(r + L_PTR)] = base
                m[ix(r + L_END)] = base
                pc = PC_TRY
                if nbuf >= max_in_buf:
                    status = BUFFER_FULL
                    break
                continue
            if budget <= 0:
                status = BUDGET_SPENT
                break
            c = choose_cell(st, m, g)
            end = base
            if c >= 0:
                end = cp.candidates(st, m, g, c, cand, base)
            if end == base:
                g[G_DEAD_ENDS] += 1
                g[cp.G_FAIL_KIND] = cp.F_CELL
                g[cp.G_FAIL_WHO] = c
            m[ix(r + L_CELL)] = c
            m[ix(r + L_PTR)] = base
            m[ix(r + L_END)] = end
            m[ix(r + L_MARK)] = g[cp.G_TRAIL]
            pc = PC_TRY
        elif pc == PC_TRY:
            r = lv + level * LV_STRIDE
            p = m[ix(r + L_PTR)]
            if p >= m[ix(r + L_END)]:
                pc = PC_LEAVE
                continue
            m[ix(r + L_PTR)] = p + 1
            g[G_NODES] += 1
            budget -= 1
            cp.assign(st, m, g, m[ix(r + L_CELL)], m[ix(cand + p)])
            if cp.propagate(st, m, g):
                level += 1
                pc = PC_ENTER
            else:
                g[G_FAILS] += 1
                cp.undo_to(st, m, g, m[ix(r + L_MARK)])
        else:
            if level == 0:
                status = DONE
                break
            level -= 1
            cp.undo_to(st, m, g, m[ix(lv + level * LV_STRIDE + L_MARK)])
            pc = PC_TRY
    g[G_LEVEL] = level
    g[G_PC] = pc
    g[G_NBUF] = nbuf
    return status
