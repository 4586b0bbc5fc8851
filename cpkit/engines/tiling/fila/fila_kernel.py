"""FILA, the Fixed Image List Algorithm (Busche, polycube 2.0), in numba: ``search`` runs
solveFila over a compiled (sub)problem as a resumable state machine over an explicit stack.

Pure kernel over flat arrays.  The (sub)problem is compiled once into image list sets
(``fila_lists.build_lists``, where their layout is described); the occupancy is a bit field of
up to four 64-bit words held in locals, read by the inlined helpers of ``fila_occupancy``, which
also holds the E/S target selection.  The state vector, counters and the rows of ``lv`` and
``ilsi`` are declared in ``fila_layout`` (imported here, so ``fila_kernel.ST_LEVEL`` and the
like read as before).  ``fila_sanity`` checks the occupancy against the placements between two
calls (``CPKIT_SANITY``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime.bits import lowest_bit
from .fila_layout import *  # noqa: F403  (ST_*, CT_*, LV_*, IL_*, HK_*, PC_*, statuses)
from .fila_occupancy import drop_neighbours, first_hole, occupied, select_by_fits, target_set


@njit(cache=True, _nrt=False)
def search(wtag, n_cells, n_shapes, n_pieces, width, heur_of_level, heur_kind, e_below,
           lmask, limg, lptr, nonempty, ilsi, nbmask, order,
           left, occ_stack, planes, lv, chosen, attempts, fits, cand, state, counters,
           sol_buf, store, max_in_buf, node_budget, path):
    """Run solveFila from the saved ``state`` until done, ``max_in_buf`` solutions are in the
    buffer, or ``node_budget`` images have been placed.  Returns DONE, BUFFER_FULL or
    BUDGET_SPENT; ``state`` (with the stacks) then holds where to resume.

    The seed's shape warehouse (the shapes with pieces left; ``N_s`` is ``left[s]``) is the
    bit set ``avail``: a shape leaves it when its last piece is placed and comes back when that
    piece is removed (the seed's swap-to-end and back), and the shapes tried at a set are
    ``nonempty[set] & avail``, which skips empty lists without touching them.
    ``occ_stack[l*W:(l+1)*W]`` is the occupancy on entering level ``l`` (``l`` pieces placed);
    ``chosen[l]`` the image placed there.  ``attempts[l]`` / ``fits[l]`` count the images
    tried / placed at level ``l`` (``n_pieces - l`` pieces remaining).  Every list entered is
    tried to its end, so a list's entries are counted when it is entered (one count a list,
    not one a fit: 5 % of the search's time); at a stop the rest of each list in progress is
    taken off, and put back when the search resumes.  ``heur_of_level[l]`` is
    the heuristic at level ``l``, of kind ``heur_kind[h]``.  ``planes[l*3*W:(l+1)*3*W]`` holds
    every cell's number of open neighbours on entering level ``l`` (three bit planes, see
    ``select_by_fits``), kept while a level below uses E (``e_below[l]``).

    Split runs (``cpkit.parallel``): the search stops with AT_STOP on entering level
    ``state[ST_STOP]``, and ends when the lists of level ``state[ST_FLOOR]`` are done, instead of
    level 0.  Below the floor only the images ``path[l]`` are placed: the search replays the
    branch to a subproblem exactly as it first reached it (the figures counted on the way are
    the caller's to discard).
    """
    W = len(wtag)
    V = n_cells
    Q = n_shapes
    level = state[ST_LEVEL]
    pc = state[ST_PC]
    avail = state[ST_AVAIL]
    nbuf = state[ST_NBUF]
    floor = state[ST_FLOOR]
    stop = state[ST_STOP]
    budget = node_budget
    placed = 0
    status = DONE
    o0 = occ_stack[level * W]
    o1 = occ_stack[level * W + 1] if W > 1 else np.uint64(0)
    o2 = occ_stack[level * W + 2] if W > 2 else np.uint64(0)
    o3 = occ_stack[level * W + 3] if W > 3 else np.uint64(0)
    for l in range(floor, level):
        attempts[l] += lv[l, LV_END] - lv[l, LV_K]      # taken off at the last stop
    # The current level's list position, kept in registers; saved in ``lv`` on the way down.
    # ``s = -1`` marks "no shape taken yet" (a level just entered, or one to leave at once).
    base = 0
    untried = 0
    s = -1
    k = 0
    end = 0
    while True:
        # Enter a level: report a solution, or choose the image list set (selectFila and
        # getImageListSet).  Resuming with PC_LEAVE leaves the current level at once.
        if pc == PC_ENTER:
            untried = 0
            if level == n_pieces:
                counters[CT_SOLUTIONS] += 1
                if store:
                    for d in range(n_pieces):
                        sol_buf[nbuf, d] = chosen[d]
                nbuf += 1
                if nbuf >= max_in_buf:
                    pc = PC_LEAVE
                    status = BUFFER_FULL
                    break
            elif level == stop:
                pc = PC_LEAVE
                status = AT_STOP
                break
            elif budget <= 0:
                status = BUDGET_SPENT
                break
            else:
                h = heur_of_level[level]
                kind = heur_kind[h]
                hv = h * V
                st = NO_SET
                v = -1
                if kind == HK_FIRST:
                    v = first_hole(W, o0, o1, o2, o3)
                elif kind == HK_ORDER:
                    m = 0
                    if level > 0 and heur_of_level[level - 1] == h:
                        m = lv[level - 1, LV_POS] + 1
                    while m < V and occupied(W, order[hv + m], o0, o1, o2, o3):
                        m += 1
                    if m < V:
                        lv[level, LV_POS] = m
                        v = order[hv + m]
                else:
                    st = select_by_fits(W, hv, kind, width, Q, avail, ilsi, planes,
                                         level * 3 * W, nonempty, lptr, lmask, cand, counters,
                                         o0, o1, o2, o3)
                if v >= 0:
                    r = (hv + v) * IL_SIZE
                    st = target_set(W, width, ilsi, r, o0, o1, o2, o3)
                if st != NO_SET:
                    base = st * Q
                    untried = nonempty[st] & avail
        s = -1
        k = 0
        end = 0
        pc = PC_SCAN
        # Find the next image that fits at this level, leaving levels whose lists are done.
        finished = False
        while True:
            # Lines 10-13: the next image of list I_s that fits.
            while k < end:
                b = np.uint64(k * W)      # unsigned: no negative-index wraparound code
                hit = lmask[b] & o0
                if W > 1:
                    hit |= lmask[b + np.uint64(1)] & o1
                if W > 2:
                    hit |= lmask[b + np.uint64(2)] & o2
                if W > 3:
                    hit |= lmask[b + np.uint64(3)] & o3
                if hit == 0:
                    break
                k += 1
            if k < end:
                if level >= floor or limg[k] == path[level]:
                    break
                k += 1
                continue
            if s >= 0:
                # Lines 14-17: undo the shape bookkeeping.
                if left[s] == 0:
                    avail |= np.int64(1) << s
                left[s] += 1
            if untried:
                # Lines 4-9: the next available shape whose list here is not empty.
                s = lowest_bit(untried)
                untried &= untried - 1
                left[s] -= 1
                if left[s] == 0:
                    avail &= ~(np.int64(1) << s)
                k = lptr[base + s]
                end = lptr[base + s + 1]
                attempts[level] += end - k      # every list is scanned to its end
                continue
            # Every shape tried: back to the level above and its next image.
            if level <= floor:
                finished = True
                break
            level -= 1
            nb = level * W
            o0 = occ_stack[nb]
            if W > 1:
                o1 = occ_stack[nb + 1]
            if W > 2:
                o2 = occ_stack[nb + 2]
            if W > 3:
                o3 = occ_stack[nb + 3]
            base = lv[level, LV_BASE]
            untried = lv[level, LV_UNTRIED]
            s = lv[level, LV_S]
            k = lv[level, LV_K]
            end = lv[level, LV_END]
        if finished:
            status = DONE
            break
        # Place image k and go down.
        fits[level] += 1
        lv[level, LV_BASE] = base
        lv[level, LV_UNTRIED] = untried
        lv[level, LV_S] = s
        lv[level, LV_K] = k + 1
        lv[level, LV_END] = end
        chosen[level] = limg[k]
        b = np.uint64(k * W)
        o0 |= lmask[b]
        if W > 1:
            o1 |= lmask[b + np.uint64(1)]
        if W > 2:
            o2 |= lmask[b + np.uint64(2)]
        if W > 3:
            o3 |= lmask[b + np.uint64(3)]
        if e_below[level]:
            drop_neighbours(W, lmask, b, nbmask, planes, level * 3 * W, planes,
                             (level + 1) * 3 * W)
        level += 1
        nb = level * W
        occ_stack[nb] = o0
        if W > 1:
            occ_stack[nb + 1] = o1
        if W > 2:
            occ_stack[nb + 2] = o2
        if W > 3:
            occ_stack[nb + 3] = o3
        placed += 1
        budget -= 1
        pc = PC_ENTER
    for l in range(floor, level):
        attempts[l] -= lv[l, LV_END] - lv[l, LV_K]      # not tried yet
    counters[CT_NODES] += placed
    state[ST_LEVEL] = level
    state[ST_PC] = pc
    state[ST_AVAIL] = avail
    state[ST_NBUF] = nbuf
    return status
