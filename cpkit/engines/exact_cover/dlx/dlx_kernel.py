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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....propagators.tiling_filters import volumes_ok

# Program counter values kept in the state vector between calls.
PC_ENTER = 0
PC_TRY = 1
PC_LEAVE = 2

# Return status of ``search``.
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP_LEVEL = 3   # reached ``stop_level``: the caller solves the subproblem, then resumes

# Heuristic kinds.
H_MINFIT = 0        # Knuth's S: fewest remaining options (Busche's min-fit)
H_KEYED = 1         # smallest key, ties by fewest options; columns with 0 or 1 options first
H_KEYED_STRICT = 2  # smallest key only (the pure fill order of de Bruijn / FILA's F)

# Indices into the state vector.
ST_LEVEL = 0
ST_PC = 1
ST_TWEAK_TOP = 2
ST_BASE = 3
ST_NBUF = 4
ST_VSTATE = 5        # volume state: remaining pieces by size (mixed radix)
ST_PSTATE = 6        # parity state: remaining pieces by parity magnitude (mixed radix)
ST_RPAR = 7          # parity of the open cells
ST_FTOP = 8          # top of the trail of options hidden by dynamic filters
STATE_SIZE = 9

# Indices into the counters vector.
CT_SOLUTIONS = 0
CT_NODES = 1
CT_PARITY_BACKTRACKS = 2
CT_VOLUME_BACKTRACKS = 3
CT_FILTERED = 4
COUNTERS_SIZE = 5

# Indices into the tiling-constraint configuration vector ``cfg``.
CF_CELLS = 0             # items 1..n are cells
CF_PIECES = 1            # pieces in a solution (remaining = pieces - depth)
CF_PAR_TRIGGER_FROM = 2  # parity backtrack trigger while at least this many pieces remain
CF_VOL_TRIGGER_FROM = 3  # volume backtrack trigger, likewise
CF_PAR_FILTER_FROM = 4   # dynamic parity image filter, likewise
CF_VOL_FILTER_FROM = 5   # dynamic volume image filter, likewise
CF_PAR_OFFSET = 6        # index of parity 0 in the parity table's value axis
CF_TRACK_CELLS = 7       # 1: maintain open_cell (needed by the volume features)
CFG_SIZE = 8
NEVER = 1 << 40          # a "from" value that switches a feature off

# ``open_cell`` values.  Non-literal, like every integer a helper that is not inlined receives
# (``np.int64`` casts elsewhere), so that numba compiles each helper once (docs/architecture.md,
# "One signature per helper").
CELL_FILLED = np.uint8(0)
CELL_OPEN = np.uint8(1)


@njit(cache=True, _nrt=False)
def _hide(p, length, top, ulink, dlink):
    """Remove every node of the option of node ``p``, except ``p`` itself, from its item list."""
    q = p + 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = u
        else:
            dlink[u] = d
            ulink[d] = u
            length[x] -= 1
            q += 1


@njit(cache=True, _nrt=False)
def _unhide(p, length, top, ulink, dlink):
    q = p - 1
    while q != p:
        x = top[q]
        u = ulink[q]
        d = dlink[q]
        if x <= 0:
            q = d
        else:
            dlink[u] = q
            ulink[d] = q
            length[x] += 1
            q -= 1


@njit(cache=True, _nrt=False)
def _cover(i, llink, rlink, length, top, ulink, dlink):
    p = dlink[i]
    while p != i:
        _hide(p, length, top, ulink, dlink)
        p = dlink[p]
    lft = llink[i]
    rgt = rlink[i]
    rlink[lft] = rgt
    llink[rgt] = lft


@njit(cache=True, _nrt=False)
def _uncover(i, llink, rlink, length, top, ulink, dlink):
    lft = llink[i]
    rgt = rlink[i]
    rlink[lft] = i
    llink[rgt] = i
    p = ulink[i]
    while p != i:
        _unhide(p, length, top, ulink, dlink)
        p = ulink[p]


@njit(cache=True, _nrt=False)
def _commit(x, llink, rlink, length, need, top, ulink, dlink):
    """Account for the items of option ``x`` other than the branching item (X5)."""
    p = x + 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = ulink[p]
        else:
            need[j] -= 1
            if need[j] == 0:
                _cover(np.int64(j), llink, rlink, length, top, ulink, dlink)
            p += 1


@njit(cache=True, _nrt=False)
def _uncommit(x, llink, rlink, length, need, top, ulink, dlink):
    """Exact inverse of ``_commit`` (X6)."""
    p = x - 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = dlink[p]
        else:
            if need[j] == 0:
                _uncover(j, llink, rlink, length, top, ulink, dlink)
            need[j] += 1
            p -= 1


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


@njit(cache=True, _nrt=False)
def _hide_option(p, llink, length, top, ulink, dlink):
    """Remove the whole option of node ``p`` (every node, ``p`` included) from the matrix."""
    _hide(p, length, top, ulink, dlink)
    j = top[p]
    u = ulink[p]
    d = dlink[p]
    dlink[u] = d
    ulink[d] = u
    length[j] -= 1


@njit(cache=True, _nrt=False)
def _unhide_option(p, llink, length, top, ulink, dlink):
    j = top[p]
    u = ulink[p]
    d = dlink[p]
    dlink[u] = p
    ulink[d] = p
    length[j] += 1
    _unhide(p, length, top, ulink, dlink)


@njit(cache=True, _nrt=False)
def _mark_cells(x, top, ulink, open_cell, n_cells, value):
    """Set ``open_cell`` of every cell item of option ``x`` to ``value``."""
    p = x
    while True:
        j = top[p]
        if j <= 0:
            p = ulink[p]
        else:
            if j <= n_cells:
                open_cell[j - 1] = value
            p += 1
        if p == x:
            break


@njit(cache=True, _nrt=False)
def _filter_options(cfg, rlink, llink, length, top, ulink, dlink, row_of, opt_data, vol_ach,
                    par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen, vstate, pstate, rpar,
                    do_parity, do_volume, ftrail, ftop):
    """Dynamic image filters: hide every option of a remaining shape whose placement would leave
    an unreachable parity (``do_parity``) or an unfillable open region (``do_volume``).  Options
    are visited through the shape items (tiling covers have one per option).  Returns the new top
    of the filter trail."""
    n_cells = cfg[CF_CELLS]
    off = cfg[CF_PAR_OFFSET]
    j = rlink[0]
    while j != 0:
        nxt_item = rlink[j]
        if j > n_cells:
            p = dlink[j]
            while p != j:
                nxt = dlink[p]
                k = row_of[p]
                bad = False
                if do_parity and opt_data[k, 2] != 0:
                    v = rpar - opt_data[k, 2] + off
                    if v < 0 or v >= par_ach.shape[1] or par_ach[pstate - opt_data[k, 1], v] == 0:
                        bad = True
                if not bad and do_volume:
                    _mark_cells(p, top, ulink, open_cell, n_cells, CELL_FILLED)
                    if not volumes_ok(open_cell, nb_ptr, nb_idx, vol_ach[vstate - opt_data[k, 0]],
                                      fstack, fseen):
                        bad = True
                    _mark_cells(p, top, ulink, open_cell, n_cells, CELL_OPEN)
                if bad:
                    _hide_option(p, llink, length, top, ulink, dlink)
                    ftrail[ftop] = p
                    ftop += 1
                p = nxt
        j = nxt_item
    return ftop


@njit(cache=True, _nrt=False)
def _first_check(cfg):
    """Triggers and dynamic filters act while at least this many pieces remain."""
    return min(min(cfg[CF_PAR_TRIGGER_FROM], cfg[CF_VOL_TRIGGER_FROM]),
               min(cfg[CF_PAR_FILTER_FROM], cfg[CF_VOL_FILTER_FROM]))


@njit(cache=True, _nrt=False)
def _after_placement(level, cfg, chosen, counters, llink, rlink, length, top, ulink, dlink,
                     row_of, opt_data, vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack,
                     fseen, vstate, pstate, rpar, ftrail, ftop):
    """X2's constraint work on entering ``level`` > 0: the backtrack triggers (False: backtrack),
    then the dynamic filters.  Returns (alive, new top of the filter trail)."""
    remaining = cfg[CF_PIECES] - level
    if remaining >= cfg[CF_PAR_TRIGGER_FROM]:
        v = rpar + cfg[CF_PAR_OFFSET]
        if v < 0 or v >= par_ach.shape[1] or par_ach[pstate, v] == 0:
            counters[CT_PARITY_BACKTRACKS] += 1
            return False, ftop
    if remaining >= cfg[CF_VOL_TRIGGER_FROM]:
        if not volumes_ok(open_cell, nb_ptr, nb_idx, vol_ach[vstate], fstack, fseen):
            counters[CT_VOLUME_BACKTRACKS] += 1
            return False, ftop
    do_parity = remaining >= cfg[CF_PAR_FILTER_FROM] and opt_data[chosen[level - 1], 2] != 0
    do_volume = remaining >= cfg[CF_VOL_FILTER_FROM]
    if do_parity or do_volume:
        before = ftop
        ftop = _filter_options(cfg, rlink, llink, length, top, ulink, dlink, row_of, opt_data,
                               vol_ach, par_ach, nb_ptr, nb_idx, open_cell, fstack, fseen,
                               vstate, pstate, rpar, do_parity, do_volume, ftrail, ftop)
        counters[CT_FILTERED] += ftop - before
    return True, ftop


@njit(cache=True, inline="always")
def _start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode, tweak_base, ttop):
    """X4: start branching on item ``i`` at ``level`` (cover it now if it is needed once)."""
    if need[i] == 1:
        mode[level] = 0
        _cover(i, llink, rlink, length, top, ulink, dlink)
        need[i] = 0
    else:
        mode[level] = 1
        tweak_base[level] = ttop


@njit(cache=True, inline="always")
def _tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop):
    """Hide option ``x``, the first in item ``i``'s list, and push it on the tweak stack."""
    _hide(x, length, top, ulink, dlink)
    d = dlink[x]
    dlink[i] = d
    ulink[d] = i
    length[i] -= 1
    tweak_stack[ttop] = x
    return ttop + 1


@njit(cache=True, inline="always")
def _place(x, level, llink, rlink, length, need, top, ulink, dlink, row_of, opt_data,
           open_cell, n_cells, track, chosen, vstate, pstate, rpar):
    """X5's commitment of option ``x`` at ``level``; returns the new constraint states."""
    _commit(x, llink, rlink, length, need, top, ulink, dlink)
    k = row_of[x]
    vstate -= opt_data[k, 0]
    pstate -= opt_data[k, 1]
    rpar -= opt_data[k, 2]
    if track:
        _mark_cells(x, top, ulink, open_cell, n_cells, CELL_FILLED)
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
    first_check = _first_check(cfg)
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
                alive, ftop = _after_placement(np.int64(level), cfg, chosen, counters, llink, rlink,
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
            _start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode,
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
                    _uncover(i, llink, rlink, length, top, ulink, dlink)
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
                        _unhide(y, length, top, ulink, dlink)
                    pc = PC_LEAVE
                    continue
                # Take x as the first option of i; it stays hidden (tweaked) after exploration.
                ttop = _tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
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
                _unhide_option(ftrail[ftop], llink, length, top, ulink, dlink)
            if level == base:
                status = DONE
                break
            level -= 1
            i = col_of[level]
            x = cur[level]
            _uncommit(x, llink, rlink, length, need, top, ulink, dlink)
            k = row_of[x]
            vstate += opt_data[k, 0]
            pstate += opt_data[k, 1]
            rpar += opt_data[k, 2]
            if track:
                _mark_cells(x, top, ulink, open_cell, n_cells, CELL_OPEN)
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


# Return status of ``descend``.
DESCENT_READY = 0      # reached the target depth: the search can run the subtree below
DESCENT_SOLUTION = 1   # the path ends in a solution (no primary item left)
DESCENT_DEAD = 2       # the path ends in a dead end (no option, or a trigger fired)
DESCENT_MISMATCH = 3   # a recorded option is not a branch at its level (wrong model or options)


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
    first_check = _first_check(cfg)
    status = DESCENT_READY
    while True:
        filter_base[level] = ftop
        if rlink[0] == 0:
            status = DESCENT_SOLUTION
            break
        if level > 0 and pieces - level >= first_check:
            alive, ftop = _after_placement(np.int64(level), cfg, chosen, counters, llink, rlink,
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
        _start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode, tweak_base,
                    ttop)
        x = dlink[i]
        while x != i and (row_of[x] != want if want >= 0 else skip > 0):
            if mode[level] == 1:
                # Branch "x is the first option of i" explored: x stays hidden (tweaked).
                ttop = _tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
                x = dlink[i]
            else:
                x = dlink[x]
            skip -= 1
        if x == i or length[i] < need[i]:
            status = DESCENT_MISMATCH
            break
        if mode[level] == 1:
            ttop = _tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop)
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
