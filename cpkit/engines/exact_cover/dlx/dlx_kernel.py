"""Dancing links over arrays (Knuth's dlx1 with the multiplicities of Algorithm M), in numba.

Pure kernels: every argument is a flat numpy array or a scalar, all state lives in arrays, and
the search loop is a state machine over an explicit stack, so it can stop at any budget boundary
(solution buffer full, node budget spent) and resume exactly where it stopped.

Step labels follow Knuth's Algorithm X:

- X2 *enter level l*: a solution if no primary item is left; else choose an item ``i`` (X3) and
  start its options (X4).
- X5 *try* ``x_l``: commit the option and go one level down.
- X6 *try again*: undo the option, advance to the next one.
- X7/X8 *backtrack / leave level*.

Multiplicities.  An item needed ``k > 1`` times (a piece with ``k`` identical copies) is branched
on by asking which of its options is the *first* one in the solution: option ``x`` is taken and,
once explored, left hidden ("tweaked") while its successors are tried.  Branches are therefore
disjoint and identical pieces never produce permuted duplicate solutions.  When an option is
committed, every other item ``j`` in it has ``need[j]`` decremented and is covered when that
reaches zero (cells and secondary items at once).

The kernel's vectors (``ST_*``, ``CT_*``, ``CF_*``) and constants are declared in ``dlx_layout``
(imported here, so ``dlx_kernel.ST_LEVEL`` and the like read as before), the link operations are
in ``dlx_links`` and the triggers and dynamic filters in ``dlx_filters``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .dlx_filters import after_placement, checks_from, mark_cells
from .dlx_layout import *  # noqa: F403  (ST_*, CT_*, CF_*, PC_*, statuses, H_*, CELL_*)
from .dlx_links import commit, start_item, tweak, uncommit, uncover, unhide, unhide_option


@njit(cache=True, _nrt=False)
def _choose(kind, key_row, rlink, length, need):
    """X3: the item to branch on and its branching degree (``<= 0`` means a dead end)."""
    best = -1
    best_deg = 1 << 30
    if kind == H_MINFIT:
        j = rlink[0]
        while j != 0:
            deg = length[j] - need[j] + 1
            if deg < best_deg:
                best_deg = deg
                best = j
                if deg <= 0:
                    break
            j = rlink[j]
        return best, best_deg
    # Keyed heuristics: smallest key; ties go to the fewest options, then to list order.
    forced = -1
    forced_deg = 2
    min_any = -1
    min_any_deg = 1 << 30
    best_key = np.inf
    j = rlink[0]
    while j != 0:
        deg = length[j] - need[j] + 1
        if deg < min_any_deg:
            min_any_deg = deg
            min_any = j
        if kind == H_KEYED and deg < forced_deg:
            forced_deg = deg
            forced = j
            if deg <= 0:
                break
        k = key_row[j]
        if k < best_key or (k == best_key and deg < best_deg):
            best_key = k
            best_deg = deg
            best = j
        j = rlink[j]
    if forced >= 0:
        return forced, forced_deg
    if best < 0:
        # Only unkeyed items (pieces) are left: fall back to min-fit.
        return min_any, min_any_deg
    return best, best_deg


@njit(cache=True, inline="always")
def _place(x, level, llink, rlink, length, need, top, ulink, dlink, row_of, opt_data,
           open_cell, n_cells, track, chosen, vstate, pstate, rpar):
    """X5's commitment of option ``x`` at ``level``; returns the new constraint states."""
    commit(x, llink, rlink, length, need, top, ulink, dlink)
    k = row_of[x]
    vstate -= opt_data[k, 0]
    pstate -= opt_data[k, 1]
    rpar -= opt_data[k, 2]
    if track:
        mark_cells(x, top, ulink, open_cell, n_cells, CELL_FILLED)
    chosen[level] = k
    return vstate, pstate, rpar


@njit(cache=True, _nrt=False)
def search(llink, rlink, length, need, top, ulink, dlink, row_of,
           heur_of_level, heur_kind, heur_key,
           state, col_of, cur, mode, tweak_base, tweak_stack, chosen, fits, counters,
           sol_buf, sol_depth, store, max_in_buf, node_budget, stop_level,
           cfg, opt_data, vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen,
           filter_base, ftrail):
    """Run Algorithm X from the saved ``state`` until done, ``max_in_buf`` solutions are in the
    buffer, ``node_budget`` options have been placed, or the search enters depth ``stop_level``
    (pass -1 for never).  Returns DONE, BUFFER_FULL, BUDGET_SPENT or AT_STOP_LEVEL; ``state``
    then holds where to resume.  At AT_STOP_LEVEL the matrix holds the subproblem below the
    current placements; resuming skips that subproblem (the caller has solved it another way).

    ``heur_of_level[l]`` picks the heuristic (a row of ``heur_kind`` / ``heur_key``) at depth ``l``.
    ``chosen[l]`` is the option (row) placed at depth ``l``; ``fits[l]`` counts placements there.

    Tiling constraints (``cfg``, see the CF_* indices): after each placement, while at least
    ``cfg[CF_*_FROM]`` pieces remain, the parity and volume backtrack triggers test the open
    cells, and the dynamic parity and volume image filters hide the options that would violate
    them (restored when the placement is undone).  ``opt_data[k]`` is (volume-state delta,
    parity-state delta, signed parity) of option ``k``; ``vol_ach`` / ``par_ach`` are the
    achievable tables indexed by state.  Items ``1..cfg[CF_CELLS]`` are cells.

    The arguments come in groups: the matrix (the link arrays, ``row_of``), the heuristic
    tables, the explicit stack (with the state vector and the counters), the solution buffer
    and the call's limits, the tiling constraints (``cfg`` to ``fseen``), the filter trail.
    They stay separate arrays: passed as named tuples, a call cost numba 4 us more (it types
    each tuple at every call), 5% of a hybrid run that resumes DLX once per FILA subproblem.
    """
    level = state[ST_LEVEL]
    pc = state[ST_PC]
    ttop = state[ST_TWEAK_TOP]
    base = state[ST_BASE]
    nbuf = state[ST_NBUF]
    vstate = state[ST_VSTATE]
    pstate = state[ST_PSTATE]
    rpar = state[ST_RPAR]
    ftop = state[ST_FTOP]
    n_cells = cfg[CF_CELLS]
    track = cfg[CF_TRACK_CELLS] != 0
    pieces = cfg[CF_PIECES]
    first_check = checks_from(cfg)
    budget = node_budget
    status = DONE
    while True:
        if pc == PC_ENTER:
            # X2: enter level.
            filter_base[level] = ftop
            if rlink[0] == 0:
                counters[CT_SOLUTIONS] += 1
                if store:
                    for d in range(level):
                        sol_buf[nbuf, d] = chosen[d]
                    sol_depth[nbuf] = level
                nbuf += 1
                pc = PC_LEAVE
                if nbuf >= max_in_buf:
                    status = BUFFER_FULL
                    break
                continue
            if budget <= 0:
                status = BUDGET_SPENT
                break
            if level > 0 and pieces - level >= first_check:
                alive, ftop = after_placement(np.int64(level), cfg, chosen, counters, llink, rlink,
                                               length, top, ulink, dlink, row_of, opt_data,
                                               vol_ach, par_ach, nb_ptr, nb_idx, open_cell,
                                               fstack, fseen, vstate, pstate, rpar, ftrail, ftop)
                if not alive:
                    pc = PC_LEAVE
                    continue
            if level == stop_level:
                pc = PC_LEAVE
                status = AT_STOP_LEVEL
                break
            h = heur_of_level[level]
            i, deg = _choose(heur_kind[h], heur_key[h], rlink, length, need)
            if deg <= 0:
                pc = PC_LEAVE
                continue
            # X4: start the options of item i.
            col_of[level] = i
            start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode,
                        tweak_base, ttop)
            cur[level] = dlink[i]
            pc = PC_TRY
        elif pc == PC_TRY:
            # X5: try option cur[level].
            i = col_of[level]
            x = cur[level]
            if mode[level] == 0:
                if x == i:
                    # X7: all options of i tried.
                    need[i] = 1
                    uncover(i, llink, rlink, length, top, ulink, dlink)
                    pc = PC_LEAVE
                    continue
            else:
                if x == i or length[i] < need[i]:
                    # No option left that could be the first of i's remaining ones: restore the
                    # tweaked options, most recent first, and leave.
                    while ttop > tweak_base[level]:
                        ttop -= 1
                        y = tweak_stack[ttop]
                        dlink[i] = y
                        ulink[dlink[y]] = y
                        length[i] += 1
                        unhide(y, length, top, ulink, dlink)
                    pc = PC_LEAVE
                    continue
                # Take x as the first option of i; it stays hidden (tweaked) after exploration.
                ttop = tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
                need[i] -= 1
            vstate, pstate, rpar = _place(x, level, llink, rlink, length, need, top, ulink,
                                          dlink, row_of, opt_data, open_cell, n_cells, track,
                                          chosen, vstate, pstate, rpar)
            fits[level] += 1
            counters[CT_NODES] += 1
            budget -= 1
            level += 1
            pc = PC_ENTER
        else:
            # X8: leave level (restoring what its filters hid); X6 at the level above.
            while ftop > filter_base[level]:
                ftop -= 1
                unhide_option(ftrail[ftop], llink, length, top, ulink, dlink)
            if level == base:
                status = DONE
                break
            level -= 1
            i = col_of[level]
            x = cur[level]
            uncommit(x, llink, rlink, length, need, top, ulink, dlink)
            k = row_of[x]
            vstate += opt_data[k, 0]
            pstate += opt_data[k, 1]
            rpar += opt_data[k, 2]
            if track:
                mark_cells(x, top, ulink, open_cell, n_cells, CELL_OPEN)
            if mode[level] == 0:
                cur[level] = dlink[x]
            else:
                need[i] += 1
                cur[level] = dlink[i]
            pc = PC_TRY
    state[ST_LEVEL] = level
    state[ST_PC] = pc
    state[ST_TWEAK_TOP] = ttop
    state[ST_NBUF] = nbuf
    state[ST_VSTATE] = vstate
    state[ST_PSTATE] = pstate
    state[ST_RPAR] = rpar
    state[ST_FTOP] = ftop
    return status


@njit(cache=True)
def active_options(rlink, top, dlink, row_of, n_options, n_primary):
    """Option numbers still in the matrix (reachable from an uncovered item among the
    primary items), in increasing order."""
    seen = np.zeros(n_options, dtype=np.bool_)
    j = rlink[0]
    while j != 0:
        if j <= n_primary:
            p = dlink[j]
            while p != j:
                seen[row_of[p]] = True
                p = dlink[p]
        j = rlink[j]
    return np.flatnonzero(seen)


@njit(cache=True, _nrt=False)
def descend(llink, rlink, length, need, top, ulink, dlink, row_of,
            heur_of_level, heur_kind, heur_key,
            state, col_of, cur, mode, tweak_base, tweak_stack, chosen, counters,
            cfg, opt_data, vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen,
            filter_base, ftrail, path, target, rand, degree):
    """Walk from the root of a fresh search down one branch to depth ``target`` without
    exploring anything else, leaving the arrays exactly as ``search`` has them when it first
    enters that node.  The branch is given by ``path[l]`` (the option to place at depth ``l``) or,
    where ``path[l] < 0``, by ``rand[l]`` in [0, 1): branch ``floor(rand[l] * degree)`` in the
    order ``search`` tries them (a random probe).  ``degree[l]`` receives each level's branching
    degree.  Branching on an item needed several times tweaks (hides) the options before the
    chosen one, as ``search`` has done when it reaches that branch.

    At each depth the entry work of ``search`` (step X2: triggers, dynamic filters) is done, the
    target depth included, so calling ``search`` afterwards (``ST_BASE`` = target) repeats that
    entry work as a no-op: filters are idempotent for a fixed matrix.  Nothing is counted in
    ``fits`` / ``CT_NODES``; the trigger and filter counters move and callers restore them.
    Returns (status, depth reached).
    """
    level = 0
    ttop = state[ST_TWEAK_TOP]
    vstate = state[ST_VSTATE]
    pstate = state[ST_PSTATE]
    rpar = state[ST_RPAR]
    ftop = state[ST_FTOP]
    n_cells = cfg[CF_CELLS]
    track = cfg[CF_TRACK_CELLS] != 0
    pieces = cfg[CF_PIECES]
    first_check = checks_from(cfg)
    status = DESCENT_READY
    while True:
        filter_base[level] = ftop
        if rlink[0] == 0:
            status = DESCENT_SOLUTION
            break
        if level > 0 and pieces - level >= first_check:
            alive, ftop = after_placement(np.int64(level), cfg, chosen, counters, llink, rlink,
                                           length, top, ulink, dlink, row_of, opt_data, vol_ach,
                                           par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen,
                                           vstate, pstate, rpar, ftrail, ftop)
            if not alive:
                status = DESCENT_DEAD
                break
        if level == target:
            break
        h = heur_of_level[level]
        i, deg = _choose(heur_kind[h], heur_key[h], rlink, length, need)
        degree[level] = max(deg, 0)
        if deg <= 0:
            status = DESCENT_DEAD
            break
        col_of[level] = i
        want = path[level]
        skip = -1
        if want < 0:
            skip = min(int(rand[level] * deg), deg - 1)
        start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode, tweak_base,
                    ttop)
        x = dlink[i]
        while x != i and (row_of[x] != want if want >= 0 else skip > 0):
            if mode[level] == 1:
                # Branch "x is the first option of i" explored: x stays hidden (tweaked).
                ttop = tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
                x = dlink[i]
            else:
                x = dlink[x]
            skip -= 1
        if x == i or length[i] < need[i]:
            status = DESCENT_MISMATCH
            break
        if mode[level] == 1:
            ttop = tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
            need[i] -= 1
        cur[level] = x
        vstate, pstate, rpar = _place(x, level, llink, rlink, length, need, top, ulink, dlink,
                                      row_of, opt_data, open_cell, n_cells, track, chosen,
                                      vstate, pstate, rpar)
        level += 1
    state[ST_LEVEL] = level
    state[ST_PC] = PC_ENTER
    state[ST_TWEAK_TOP] = ttop
    state[ST_BASE] = level
    state[ST_NBUF] = 0
    state[ST_VSTATE] = vstate
    state[ST_PSTATE] = pstate
    state[ST_RPAR] = rpar
    state[ST_FTOP] = ftop
    return status, level
