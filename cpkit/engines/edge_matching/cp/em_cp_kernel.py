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

``H_SCAN`` replaces both steps by the brute force's fixed order (the first empty cell of the
column-by-column scan), so that the two engines differ only by propagation.

The children of a node are the orientations of ``colorpair.candidates``, tried in order.  With
a shaving limit (``G_SHAVE``) each node is shaved first (``em_cp_shaving``, on the shared
driver ``cpkit.propagators.shaving``); the search's fields of ``g`` are in ``em_cp_layout``.

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

from ....propagators import colorpair as cp
from ....propagators import colorpair_layout as lay
from ....propagators import explain as ex
from ....propagators import sparse_set as ss
from ....propagators import shaving as sh
from ....propagators.sparse_set import ix
from ..em_share_kernel import tree_share
from .em_cp_layout import *  # noqa: F403  (the search's G_*, O_*, L_* fields)
from .em_cp_shaving import drop_excluded, shave, start_shave, undo_exclusions, why_not

# Helpers are `cache=False` on purpose: a helper restored from numba's cache cannot be inlined
# into a kernel compiled later (docs/architecture.md, "Which functions are cached").

# Program counter values.
PC_ROOT = 0
PC_ENTER = 1
PC_TRY = 2
PC_LEAVE = 3
PC_SHAVE = 4            # shaving the node entered at ``level`` (a slice can end inside it)
PC_BRANCH = 5           # the node entered at ``level``, shaved: a solution, or its branching

# Return status.
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP = 3                         # entered a node at the stop level (split runs)


#: ``branch_failed``'s ``full`` for "no solution below": a non-literal bool, so that the helper
#: is compiled once (colorpair.py, "Helpers that are not inlined take their integers as int64").
NOT_FULL = np.bool_(False)


# Pair heuristics.
H_MIN_OFFER = 0
H_MIN_EXPECTED_OFFER = 1
H_MIN_EXPECTED_GAP = 2
H_MIN_EXPECTED_RATIO = 3
H_SCAN = 4              # no pattern, no pair: the first empty cell in scan order
HEURISTICS = {"min-offer": H_MIN_OFFER, "min-expected-offer": H_MIN_EXPECTED_OFFER,
              "min-expected-gap": H_MIN_EXPECTED_GAP,
              "min-expected-ratio": H_MIN_EXPECTED_RATIO, "scan": H_SCAN}


#: Exclusions kept at once are capped (shaving stops removing values when the pool is full).
MAX_EXCLUSION_WORDS = 1 << 22
#: Exclusions per cell the pool is sized for.
EXCLUSIONS_PER_CELL = 32


def exclusion_capacity(n_cells: int, shave: int) -> int:
    if shave <= 0:
        return 0
    words = (n_cells + 63) // 64
    return max(1, min(n_cells * min(shave, EXCLUSIONS_PER_CELL), MAX_EXCLUSION_WORDS // words))


def search_sections(n_cells: int, n_orientations: int, n_roots: int,
                    exclusions: int = 0) -> dict[int, int]:
    """The m sections the search needs, for ``cpkit.propagators.colorpair_build.build_state``."""
    return {O_LV: (n_cells + 1) * LV_STRIDE, O_CAND: max(1, n_cells * n_orientations),
            O_ROOT: 2 * n_roots, O_XTRAIL: 3 * max(1, exclusions), O_XHEAD: n_cells,
            O_SCAN: n_cells}


def search_rows(n_cells: int, exclusions: int = 0) -> dict[int, int]:
    """The explanation rows the search needs in g: one per level, one per exclusion, scratch."""
    return {O_ACC: n_cells + 1, O_XREASON: max(1, exclusions), O_SROW: 1}


@njit(cache=False)
def expected_offer(st, m, g, p):
    """E(|Offer(p)|); costs ``|Offer(p)|`` times the tile's pairs (at most 6)."""
    n_tiles = g[lay.G_TILES]
    tags = g[lay.G_PREEMPTION] != 0 and g[lay.G_N3] == 0
    off_mem = g[lay.O_OFF_MEM]
    off_size = g[lay.O_OFF_SIZE]
    dem_size = g[lay.O_DEM_SIZE]
    tiles = g[lay.O_TILES]
    tile_pairs = g[lay.O_TILE_PAIRS]
    tile_npairs = g[lay.O_TILE_NPAIRS]
    total = 0.0
    for k in range(m[ix(off_size + p)]):
        t = ss.member(m, off_mem, n_tiles, p, k)
        tag = m[ix(tiles + t * lay.TILE_STRIDE + lay.T_TAG)]
        if tags and tag >= 0 and tag != p:
            continue
        prob = 1.0
        for j in range(st[ix(tile_npairs + t)]):
            q = st[ix(tile_pairs + 6 * t + j)]
            if q != p and m[ix(dem_size + q)] > 0:
                prob *= max(0.0, 1.0 - m[ix(dem_size + q)] / m[ix(off_size + q)])
        total += prob
    return total


@njit(cache=False)
def choose_cell(st, m, g):
    """The cell to branch on (see the module docstring), or -1 if no cell demands anything."""
    n_cells = g[lay.G_CELLS]
    cells = g[lay.O_CELLS]
    if g[lay.G_HEURISTIC] == H_SCAN:
        scan = g[O_SCAN]
        for i in range(n_cells):
            c = m[ix(scan + i)]
            if m[ix(cells + c * lay.CELL_STRIDE + lay.C_ORI)] < 0:
                g[G_BY_HEURISTIC] += 1
                return c
        return -1
    cls_size = g[lay.O_CLS_SIZE]
    for k in range(1, 5):
        if m[ix(cls_size + k)] > 0:
            g[ix(G_PATTERN + k - 1)] += 1
            c = ss.member(m, g[lay.O_CLS_MEM], n_cells, k, 0)
            if k < 4:
                return c
            nbr = g[lay.O_NBR] + 4 * c
            for s in range(4):
                x = st[ix(nbr + s)]
                if x >= 0 and m[ix(cells + x * lay.CELL_STRIDE + lay.C_ORI)] < 0 and \
                        m[ix(cells + x * lay.CELL_STRIDE + lay.C_KNOWN)] >= 2:
                    return x
    heuristic = g[lay.G_HEURISTIC]
    tags = g[lay.G_PREEMPTION] != 0 and g[lay.G_N3] == 0
    dem_size = g[lay.O_DEM_SIZE]
    dp_mem = g[lay.O_DP_MEM]
    best = -1
    best_score = np.inf
    for k in range(m[ix(g[lay.O_DP_SIZE])]):
        p = m[ix(dp_mem + k)]
        if heuristic == H_MIN_OFFER:
            score = float(cp.available(m, g, p, tags))
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
    return ss.member(m, g[lay.O_DEM_MEM], n_cells, best, 0)


# ---------------------------------------------------------------------------------- backjumping
@njit(cache=False)
def _undo_branch(st, m, g, level):
    """Take back the branch placed at ``level`` and everything made after it."""
    r = g[O_LV] + level * LV_STRIDE
    cp.undo_to(st, m, g, np.int64(m[ix(r + L_MARK)]))
    undo_exclusions(m, g, m[ix(r + L_XMARK)])


@njit(cache=False)
def branch_failed(st, m, g, level, full):
    """The branch placed at ``level`` has no (further) solution below it.  Its explanation is in
    the first scratch row of the propagator (unless ``full``: a solution was found below, which
    forbids any jump over the nodes above).  Returns the level whose next branch is to be tried,
    or -1 when the whole search is over.

    Without explanations this is chronological backtracking.  With them, the explanation is
    resolved down to cells placed before this level's decision (``explain.resolve``); if the
    decision was needed, the reason joins the node's account and the next branch is tried;
    otherwise the node fails whatever its remaining branches are, and so does every node up to
    the deepest level of the explanation: they are abandoned (docs/algorithms.md, soundness)."""
    lv = g[O_LV]
    w = g[lay.G_WORDS]
    fail = g[lay.O_XROW]
    while True:
        r = lv + level * LV_STRIDE
        if g[lay.G_EXPLAIN] == 0:
            _undo_branch(st, m, g, level)
            return level
        if full:
            m[ix(r + L_FULL)] = 1
            _undo_branch(st, m, g, level)
            return level
        if ex.resolve(st, m, g, fail, np.int64(m[ix(r + L_MARK)])):
            ex.union(g, g[O_ACC] + level * w, fail, w)
            _undo_branch(st, m, g, level)
            return level
        target = ex.deepest_level(m, g, fail, w)
        g[G_JUMPS] += 1
        j = level
        while j > target and m[ix(lv + j * LV_STRIDE + L_FULL)] == 0:
            j -= 1
        if j > target:
            # Node j had a solution below: it is finished, and reports "full" to its parent.
            g[G_SKIPPED] += level - j
            if j == 0:
                return -1
            level = j - 1
            full = True
            continue
        g[G_SKIPPED] += level - target - 1
        if target < 0:
            return -1
        r = lv + (target + 1) * LV_STRIDE
        cp.undo_to(st, m, g, np.int64(m[ix(r + L_MARK)]))
        undo_exclusions(m, g, m[ix(r + L_XMARK)])
        level = target


@njit(cache=False, inline="always")
def _cand_base(m, lv, level):
    """Where the candidates of the node entered at ``level`` start in ``cand``: after those
    of the level above."""
    return m[ix(lv + (level - 1) * LV_STRIDE + L_END)] if level > 0 else 0


@njit(cache=True, _nrt=False, nogil=True)
def search(st, m, g, sol_buf, deepest, store, max_in_buf, node_budget):
    """Run from the saved state (``g[G_LEVEL]``, ``g[G_PC]``) until done, ``max_in_buf``
    solutions are buffered, ``node_budget`` nodes and shaving trials were made (a node can make
    hundreds of thousands of trials; a slice must stay short for a time limit or Ctrl-C to be
    seen, so it can end inside a node's shaving, ``PC_SHAVE``), or a node at level
    ``g[G_STOP]`` (if > 0) is entered.  The root placements (hints) are made
    first, with propagation.  Solutions are buffered as the orientation on each cell;
    ``deepest`` holds the placements of the deepest node entered so far (``g[G_DEEPEST]``
    cells filled, propagation included).

    A node at the stop level returns AT_STOP before any work on it (no shaving, no branching),
    its decisions on the stack; resuming takes it back as if a solution had been found below
    it (``L_FULL``), so that no backjump crosses it: a split run searches it elsewhere."""
    n_cells = g[lay.G_CELLS]
    cells = g[lay.O_CELLS]
    lv = g[O_LV]
    cand = g[O_CAND]
    levels = g[lay.O_LEVEL]
    w = g[lay.G_WORDS]
    explain = g[lay.G_EXPLAIN] != 0
    level = g[G_LEVEL]
    pc = g[G_PC]
    nbuf = g[G_NBUF]
    budget = node_budget
    stop = g[G_STOP] if g[G_STOP] > 0 else -1
    status = DONE
    while True:
        if pc == PC_ROOT:
            g[lay.G_LEVEL_NOW] = -1
            for k in range(g[G_N_ROOT]):
                cp.assign(st, m, g, np.int64(m[ix(g[O_ROOT] + 2 * k)]),
                          np.int64(m[ix(g[O_ROOT] + 2 * k + 1)]))
            level = 0
            if not cp.propagate(st, m, g):
                pc = PC_LEAVE
                status = DONE
                break
            pc = PC_ENTER
        elif pc == PC_ENTER:
            r = lv + level * LV_STRIDE
            base = _cand_base(m, lv, level)
            if level == stop:
                m[ix(r + L_CELL)] = -1
                m[ix(r + L_PTR)] = base
                m[ix(r + L_END)] = base
                m[ix(r + L_FULL)] = 1
                pc = PC_TRY
                status = AT_STOP
                break
            if n_cells - g[lay.G_EMPTY] > g[G_DEEPEST]:
                g[G_DEEPEST] = n_cells - g[lay.G_EMPTY]
                for c in range(n_cells):
                    deepest[ix(c)] = m[ix(cells + c * lay.CELL_STRIDE + lay.C_ORI)]
            if g[lay.G_EMPTY] > 0 and budget <= 0:
                status = BUDGET_SPENT
                break
            if g[lay.G_EMPTY] > 0 and g[G_SHAVE] > 0:
                start_shave(g)
                pc = PC_SHAVE
            else:
                pc = PC_BRANCH
        elif pc == PC_SHAVE:
            if budget <= 0:
                status = BUDGET_SPENT
                break
            base = _cand_base(m, lv, level)
            g[lay.G_LEVEL_NOW] = level - 1
            trials = g[G_TRIALS]
            shaved = shave(st, m, g, level, cand, base, budget)
            budget -= g[G_TRIALS] - trials
            if shaved == sh.SHAVE_PAUSED:
                status = BUDGET_SPENT
                break
            if shaved == sh.SHAVE_FAILED:
                level = branch_failed(st, m, g, level - 1, NOT_FULL) if level > 0 else -1
                if level < 0:
                    level = 0
                    pc = PC_LEAVE
                    status = DONE
                    break
                pc = PC_TRY
                continue
            pc = PC_BRANCH
        elif pc == PC_BRANCH:
            r = lv + level * LV_STRIDE
            base = _cand_base(m, lv, level)
            m[ix(r + L_FULL)] = 0
            if explain:
                ex.clear(g, g[O_ACC] + level * w, w)
            if g[lay.G_EMPTY] == 0:
                g[G_SOLUTIONS] += 1
                if store:
                    for c in range(n_cells):
                        sol_buf[nbuf, c] = m[ix(cells + c * lay.CELL_STRIDE + lay.C_ORI)]
                nbuf += 1
                m[ix(r + L_CELL)] = -1
                m[ix(r + L_PTR)] = base
                m[ix(r + L_END)] = base
                m[ix(r + L_FULL)] = 1
                pc = PC_TRY
                if nbuf >= max_in_buf:
                    status = BUFFER_FULL
                    break
                continue
            c = choose_cell(st, m, g)
            end = base
            if c >= 0:
                end = cp.candidates(st, m, g, c, cand, base)
                if g[G_SHAVE] > 0:
                    end = drop_excluded(m, g, c, cand, base, end)
            if end == base:
                g[G_DEAD_ENDS] += 1
                g[lay.G_FAIL_KIND] = lay.F_CELL
                g[lay.G_FAIL_WHO] = c
            m[ix(r + L_CELL)] = c
            m[ix(r + L_PTR)] = base
            m[ix(r + L_END)] = end
            m[ix(r + L_MARK)] = g[lay.G_TRAIL]
            m[ix(r + L_XMARK)] = g[G_XTOP]
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
            c = np.int64(m[ix(r + L_CELL)])
            g[lay.G_LEVEL_NOW] = level
            m[ix(levels + c)] = level
            cp.assign(st, m, g, c, np.int64(m[ix(cand + p)]))
            if cp.propagate(st, m, g):
                level += 1
                pc = PC_ENTER
            else:
                g[G_FAILS] += 1
                level = branch_failed(st, m, g, level, NOT_FULL)
                if level < 0:
                    level = 0
                    pc = PC_LEAVE
                    status = DONE
                    break
        else:
            # Every branch of the node at ``level`` is done.
            if level == 0:
                status = DONE
                break
            r = lv + level * LV_STRIDE
            full = m[ix(r + L_FULL)] != 0
            c = np.int64(m[ix(r + L_CELL)])
            if explain and not full:
                if c < 0:
                    full = True
                else:
                    fail = g[lay.O_XROW]
                    ex.copy(g, fail, g[O_ACC] + level * w, w)
                    why_not(st, m, g, c, fail)
            level = branch_failed(st, m, g, level - 1, full)
            if level < 0:
                level = 0
                status = DONE
                break
            pc = PC_TRY
    g[G_LEVEL] = level
    g[G_PC] = pc
    g[G_NBUF] = nbuf
    return status


@njit(cache=True)
def explored(g: np.ndarray, m: np.ndarray) -> float:
    """The share of the tree behind the current node (``em_share_kernel``): at each level of
    the decision stack, the values of its list tried before the one taken, of the list's
    length (each level's list follows the one before it)."""
    levels = g[G_LEVEL]
    done = np.empty(levels, dtype=np.int64)
    total = np.empty(levels, dtype=np.int64)
    base = 0
    for level in range(levels):
        r = g[O_LV] + level * LV_STRIDE
        end = m[r + L_END]
        done[level] = m[r + L_PTR] - 1 - base
        total[level] = end - base
        base = end
    return tree_share(done, total)
