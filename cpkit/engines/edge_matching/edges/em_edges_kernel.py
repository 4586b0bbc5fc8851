"""The edge-filtering search in numba: branching on the cell with the fewest orientations, edge
filtering to a fixed point after every placement, optional shaving.

The propagator is in ``cpkit.propagators``: the support counters (``edge_supports``: removal,
placement, undo), their propagation to the fixed point with the tile rules (``edge_filtering``)
and Régin's AllDifferent (``alldifferent``); the state's layout is ``edge_supports_layout``.

- **Search.**  By default (``DOM_DDEG``) the empty cell with the smallest ratio of domain size
  to empty neighbours (Bessière & Régin's dom/ddeg), a cell whose neighbours are all placed
  last (its choice narrows no edge); on request (``MIN_DOMAIN``) the paper's rule, the
  smallest domain.  The lowest cell number on ties, the orientations in increasing order;
  every such placement is a node.
- **Shaving.**  With a shaving limit every orientation of each empty cell with at most that
  many is tried at the root and after each branching placement's propagation, and removed if
  its propagation fails (``cpkit.propagators.shaving`` runs the passes; trials are counted
  apart, and against a slice's budget: one node of a 16 x 16 board can make 300,000 trials,
  15 s, so a slice can end inside a node's shaving and the next goes on from the same trial).
- **Undo.**  A level undoes the trail to its mark.

Pure kernel over flat arrays; the state (level, program counter, candidate pointers) lives in
arrays so ``search`` can stop at a node budget or a full solution buffer and resume there.  It
allocates nothing, so it is compiled without numba's reference counting (``_nrt=False``): with
it, every helper call counted references to its array arguments, and the tile counters' one
extra array made the whole search three times slower (E_10_7: 0.70 s against 0.23 s).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....propagators.edge_filtering import propagate
from ....propagators.edge_supports import place, remove, reset_queues, undo_to
from ....propagators.edge_supports_layout import *  # noqa: F403  (the M_*, T_*, TR_* offsets)
from ....propagators import shaving as sh
from ....propagators.sparse_set import ix
from ..em_share_kernel import tree_share
from ....state_layout import bind, fields

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

#: The search's state vector (checkpointed: the numbers must not change).
STATE = fields(
    "edges search state",
    "ST_LEVEL",
    "ST_PC",
    "ST_NBUF",
    "ST_TRAIL",           # trail top
    "ST_STOP",            # stop on entering a node this many decisions deep (0: never)
    "ST_SHAVE_CELL",      # shaving's place: the cell being tried,
    "ST_SHAVE_AT",        # the next of its class's orientations (-1: from the first),
    "ST_SHAVE_REMOVED")   # and whether this pass removed anything

#: The search's counters.
COUNTERS = fields(
    "edges search counters",
    "CT_SOLUTIONS",
    "CT_NODES",
    "CT_PROPAGATED",
    "CT_FAILS",           # branching placements refuted by propagation (or by shaving)
    "CT_TRIALS",          # shaving's placements, tried and taken back
    "CT_SHAVED",          # orientations shaving removed (their trial failed)
    "CT_DEEPEST")         # the most cells placed at a node entered (roots and propagation included)

#: Per-level record of the decision stack.
LEVEL = fields(
    "edges decision stack record",
    "L_CELL",
    "L_PTR",              # next candidate (index into ``cand``)
    "L_END",
    "L_MARK")             # trail top before this level's placement

bind(globals(), STATE, COUNTERS, LEVEL)
STATE_SIZE = STATE.end
COUNTERS_SIZE = COUNTERS.end
LV_STRIDE = LEVEL.end

# Shaving's hooks (``cpkit.propagators.shaving``): ``ctx`` is the state tuple ``search`` passes;
# the trail top stays in ``state[ST_TRAIL]`` while shaving runs.
@njit(cache=False, inline="always")
def _shave_begin(ctx, x):
    """A cell with at most ``limit`` orientations: its class's first; else -1."""
    m, placed, used, dom, size, sup, mask, trail, events, tl, counters, state, limit = ctx
    if placed[ix(x)] >= 0 or size[ix(x)] > limit:
        return np.int64(-1)
    return np.int64(m[ix(m[M_CLS_START] + m[ix(m[M_CELL_CLS] + x)])])


@njit(cache=False, inline="always")
def _shave_value(ctx, x, at):
    """The class's orientation at ``at`` if still in the domain; the end once the cell is
    placed (by a removal's propagation) or its class is done."""
    m, placed, used, dom, size, sup, mask, trail, events, tl, counters, state, limit = ctx
    if placed[ix(x)] >= 0 or at >= m[ix(m[M_CLS_START] + m[ix(m[M_CELL_CLS] + x)] + 1)]:
        return np.int64(sh.END)
    q = m[ix(m[M_CLS_ORI] + at)]
    if dom[ix(x * m[M_N_ORI] + q)] == 0:
        return np.int64(sh.SKIP)
    return np.int64(q)


@njit(cache=False, inline="always")
def _shave_try(ctx, x, q):
    """Place ``q`` on ``x``, propagate, take back; if that failed, remove ``q`` and propagate
    the removal (``FAILED`` if that fails too)."""
    m, placed, used, dom, size, sup, mask, trail, events, tl, counters, state, limit = ctx
    top = state[ST_TRAIL]
    mark = top
    counters[CT_TRIALS] += 1
    reset_queues(tl)
    top, n_ev = place(m, x, q, placed, used, dom, size, sup, mask, trail, top, events,
                      NO_EVENTS, tl)
    ok, top, _ = propagate(m, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl)
    top = undo_to(m, mark, top, placed, used, dom, size, sup, mask, trail, tl)
    if ok:
        state[ST_TRAIL] = top
        return sh.HELD
    counters[CT_SHAVED] += 1
    reset_queues(tl)
    top, n_ev = remove(m, x, q, dom, size, sup, mask, trail, top, events, NO_EVENTS, tl)
    ok, top, n = propagate(m, placed, used, dom, size, sup, mask, trail, top, events, n_ev, tl)
    counters[CT_PROPAGATED] += n
    state[ST_TRAIL] = top
    return sh.CHANGED if ok else sh.FAILED


@njit(cache=False, inline="always")
def _shave_end(ctx, x):
    """Nothing left to do after a cell: its failed orientations are gone already."""
    return sh.HELD


_shave = sh.shaving_driver(_shave_begin, _shave_value, _shave_try, _shave_end)


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


@njit(cache=True, _nrt=False, nogil=True)
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
            reset_queues(tl)
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
                top, n_ev = place(m, c, o, placed, used, dom, size, sup, mask, trail, top,
                                  events, n_ev, tl)
            if ok:
                ok, top, n = propagate(m, placed, used, dom, size, sup, mask, trail, top, events,
                                       n_ev, tl)
                counters[CT_PROPAGATED] += n
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
            top = undo_to(m, lv[ix(r + L_MARK)], top, placed, used, dom, size, sup, mask,
                          trail, tl)
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
            reset_queues(tl)
            top, n_ev = place(m, lv[ix(r + L_CELL)], np.int64(cand[ix(p)]), placed, used, dom,
                              size, sup, mask, trail, top, events, NO_EVENTS, tl)
            ok, top, n = propagate(m, placed, used, dom, size, sup, mask, trail, top, events,
                                   n_ev, tl)
            counters[CT_PROPAGATED] += n
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
            state[ST_TRAIL] = top
            shaved = _shave((m, placed, used, dom, size, sup, mask, trail, events, tl, counters,
                             state, shave),
                            state, ST_SHAVE_CELL, ST_SHAVE_AT, ST_SHAVE_REMOVED, n_cells, budget)
            top = state[ST_TRAIL]
            budget -= counters[CT_TRIALS] - trials
            if shaved == sh.SHAVE_PAUSED:
                status = BUDGET_SPENT
                break
            if shaved == sh.SHAVE_DONE:
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


@njit(cache=True)
def explored(state: np.ndarray, lv: np.ndarray, cand_stride: int) -> float:
    """The share of the tree behind the current node (``em_share_kernel``): at each level, the
    candidates of its list tried before the one placed, of the list's length (level ``l``'s
    list starts at ``l * cand_stride``)."""
    levels = state[ST_LEVEL]
    done = np.empty(levels, dtype=np.int64)
    total = np.empty(levels, dtype=np.int64)
    for level in range(levels):
        r = level * LV_STRIDE
        base = level * cand_stride
        done[level] = lv[r + L_PTR] - 1 - base
        total[level] = lv[r + L_END] - base
    return tree_share(done, total)
