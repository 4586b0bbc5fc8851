"""The hybrid's hand-overs in one compiled loop (``run``): DLX to the switch, the subproblem
there compiled into FILA's image lists, FILA over it, DLX again, without coming back to Python.

``HybridSearch`` hands each subproblem over from Python: four kernel calls and the numpy glue
between them, 35-45 us a hand-over besides the work itself.  Most puzzles hand over a few
dozen subproblems and never notice; the one-sided pentominoes in a 30 x 3 box hand over 1,397,
whose lists take 27 us to build and whose FILA search about as long: there the glue was a
third of the search (``hybrid_fused`` says when the loop takes over).  ``run`` makes the same
calls in the same order on the same arrays, so the search, its counters and its solutions are
the same; it returns to Python only when the call's budget is spent, when FILA has solutions
for Python to hand out (their DLX prefix is the path DLX stands on), when the search is done,
or on a subproblem FILA cannot take (an error the caller raises as the Python path would).

The subproblem being searched (``build_lists``' tuple and FILA's ``left``) lives between calls
in the caller, which passes back what the last call returned.  Its occupancy has ``len(wtag)``
words, fixed for the run (enough for the largest subproblem), where the Python path picks the
fewest for each subproblem; the search is the same either way (``tests/engines/
test_hybrid_fused.py`` compares them step by step).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...exact_cover.dlx import dlx_kernel as DK
from ..fila import fila_kernel as FK
from ..fila.fila_lists import build_lists
from .hybrid_layout import *  # noqa: F403  (H_*, TOO_MANY_*)

ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def run(wtag,
        llink, rlink, length, need, top, ulink, dlink, row_of, dheur_of_level, dheur_kind,
        dheur_key, dstate, col_of, cur, mode, tweak_base, tweak_stack, dchosen, dfits,
        dcounters, dsol_buf, dsol_depth, stop_level, cfg, opt_data, vol_ach, par_ach, nb_ptr,
        nb_idx, open_cell, fstack, fseen, filter_base, ftrail,
        image_ids, n_options, n_primary, n_cells, by_number, neighbours, rank, pof, pof_first,
        nof, image_shape, cell_ptr, cell_idx, max_entries, max_cells, max_shapes,
        built, fleft, fheur_of_level, fheur_kind, e_below, occ_stack, planes, lv, fchosen,
        attempts, ffits, cand, fstate, fcounters, fsol_buf, store, path,
        hstate, max_new, node_budget):
    """Search on from where the last call stopped until ``max_new`` solutions, ``node_budget``
    placements (DLX's and FILA's), the end, or solutions in FILA's buffer (``store``).  The
    arguments: DLX's as ``dlx_kernel.search`` takes them (its stop level is the switch); the
    hand-over's (the search's images, the puzzle's image table, the FILA plan's arrays, as
    ``build_lists`` takes them, and the limits ``fila_search.compile_problem`` checks); FILA's
    (``built`` and ``fleft``: the subproblem being searched, then FILA's arrays as
    ``fila_kernel.search`` takes them); ``hstate`` (``HYBRID``).  Returns (status, built,
    fleft): DONE, BUFFER_FULL, BUDGET_SPENT or a ``TOO_MANY_*``."""
    W = len(wtag)
    cap = fsol_buf.shape[0] if store else np.int64(1) << 62
    nodes0 = dcounters[DK.CT_NODES] + fcounters[FK.CT_NODES]
    found0 = fcounters[FK.CT_SOLUTIONS]
    is_open = np.zeros(n_cells, dtype=np.uint8)     # the open cells of each subproblem
    while True:
        spent = dcounters[DK.CT_NODES] + fcounters[FK.CT_NODES] - nodes0
        new = fcounters[FK.CT_SOLUTIONS] - found0
        if new >= max_new or spent >= node_budget:
            return DK.BUDGET_SPENT, built, fleft
        if hstate[H_IN_FILA]:
            fstate[FK.ST_NBUF] = 0
            status = FK.search(wtag, built[2].shape[0], built[3].shape[0], built[3].sum(),
                               built[1], fheur_of_level, fheur_kind, e_below, built[7],
                               built[8], built[5], built[6], built[4], built[9], built[10],
                               fleft, occ_stack, planes, lv, fchosen, attempts, ffits, cand,
                               fstate, fcounters, fsol_buf, store, min(cap, max_new - new),
                               node_budget - spent, path)
            if status == FK.DONE:
                hstate[H_IN_FILA] = 0
            if store and fstate[FK.ST_NBUF] > 0:
                return FK.BUFFER_FULL, built, fleft
            continue
        dstate[DK.ST_NBUF] = 0
        status = DK.search(llink, rlink, length, need, top, ulink, dlink, row_of,
                           dheur_of_level, dheur_kind, dheur_key, dstate, col_of, cur, mode,
                           tweak_base, tweak_stack, dchosen, dfits, dcounters, dsol_buf,
                           dsol_depth, False, np.int64(1) << 62, node_budget - spent,
                           stop_level, cfg, opt_data, vol_ach, par_ach, nb_ptr, nb_idx,
                           open_cell, fstack, fseen, filter_base, ftrail)
        if status == DK.DONE:
            return DK.DONE, built, fleft
        if status != DK.AT_STOP_LEVEL:
            continue                                # the budget: the loop's test returns
        # The subproblem below DLX's placements: the open cells, the pieces still needed and
        # the options left (``HybridSearch.subproblem``), compiled as ``compile_problem`` does.
        n_open = 0
        for c in range(n_cells):
            is_open[c] = need[1 + c] > 0
            n_open += is_open[c]
        left_by_shape = need[1 + n_cells:n_primary + 1]   # read before DLX resumes
        n_shapes = 0
        for s in range(left_by_shape.shape[0]):
            if left_by_shape[s] > 0:
                n_shapes += 1
        if n_open > max_cells:
            hstate[H_ERROR_VALUE] = n_open
            return TOO_MANY_CELLS, built, fleft
        if n_shapes > max_shapes:
            hstate[H_ERROR_VALUE] = n_shapes
            return TOO_MANY_SHAPES, built, fleft
        images = image_ids[DK.active_options(rlink, top, dlink, row_of, n_options, n_primary)]
        fresh = build_lists(wtag, by_number, is_open, left_by_shape, neighbours, rank, pof,
                            pof_first, nof, images, image_shape, cell_ptr, cell_idx,
                            max_entries)
        if fresh[0] < 0 and nof:
            fresh = build_lists(wtag, by_number, is_open, left_by_shape, neighbours, rank,
                                pof, pof_first, False, images, image_shape, cell_ptr,
                                cell_idx, max_entries)
            hstate[H_NOF_DROPPED] += 1
        if fresh[0] < 0:
            hstate[H_ERROR_VALUE] = max_entries
            return TOO_MANY_ENTRIES, built, fleft
        built = fresh
        fleft = built[3].copy()
        # FILA loaded with it (``FilaSearch.load``).
        full = n_open // 64
        rest = n_open % 64
        for w in range(W):
            occ_stack[w] = ALL_ONES if w >= full else np.uint64(0)
        if rest:
            occ_stack[full] = ALL_ONES << np.uint64(rest)
        for k in range(3 * W):
            planes[k] = built[11][k]
        fstate[:] = 0
        fstate[FK.ST_AVAIL] = (np.int64(1) << n_shapes) - 1
        fstate[FK.ST_STOP] = -1
        hstate[H_IN_FILA] = 1
        hstate[H_SUBPROBLEMS] += 1
        hstate[H_MAX_CELLS] = max(hstate[H_MAX_CELLS], n_open)
        hstate[H_LIST_ENTRIES] += built[0]
        hstate[H_LIST_SETS] += (built[5].shape[0] - 1) // max(n_shapes, 1)
