"""The row-scan backtracker with break indexes (Blackwood's and Verhaard's method), in numba.

Cells are filled in the order given (``schedule.fill_order``: row by row from the top-left
corner, the last rows column by column), so a cell's north and west neighbours are always
placed when it is reached and its east and south ones are empty unless hinted; its candidates
come from one list indexed by its class and the colours wanted north and west
(``Tables.cand``).  A *break* is a mismatched edge.  The search may break edges, but only as
many as a schedule allows: ``limit[d]`` is the number of breaks allowed among the edges closed
by the first ``d + 1`` cells, growing with the depth (none early, where tiles are plentiful and
exact fits exist; more near the end).  At each cell the exact fits are tried first, then
(within the schedule) the orientations that match the north side only and those that match the
west side only.  Hinted cells hold their tile from the start; a cell next to one (east or
south) counts the edge it closes with it.

Each full board found is reported (``FOUND``) and the cap on breaks drops below it, so the rest
of the search only looks for better boards: the deep end of the tree, where the breaks are,
is revisited around the board just found.  The driver restarts the search with reshuffled
candidate lists after a number of nodes (a new top of the board).

A resumable state machine over explicit arrays: ``search`` runs until its node budget is spent,
a full board is found, or the tree is exhausted, and continues where it stopped when called
again.  The state: ``board`` (orientation per cell), ``used`` (per tile), per depth the stage
(0: exact fits, 1: north-only, 2: west-only), the list position and end, the breaks before the
cell (``brk``), the favoured sides placed before it (``fav_sum``) and the minimum by it
(``fav_min``, zero but in the optimiser's scan: ``favour.ramp``), and the scalars in ``st``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..models.board import EMPTY

# Return status.
BUDGET_SPENT = 0
FOUND = 1          # a full board within the cap: copied to ``best``; the cap drops below it
EXHAUSTED = 2      # the whole tree (under the schedule and the cap) was searched

# The state vector ``st`` (int64).
S_DEPTH = 0        # the depth (cell) being searched
S_PC = 1           # PC_ENTER or PC_NEXT
S_CAP = 2          # breaks allowed on a full board (the best's minus one)
S_NODES = 3        # placements made, in total
S_DEEPEST = 4      # the most cells filled with no break so far
S_RESTART_NODES = 5  # placements since the last restart
S_REACHED = 6      # the deepest depth entered since the last restart
STATE_SIZE = 7

PC_ENTER = 0
PC_NEXT = 1

#: Holes mode: the stage of a cell left empty, and the "orientation" that stands for it.
STAGE_HOLE = 4
HOLE = -2
#: A side next to a hole: any colour matches it.
ANY = -1


def new_state(n_cells: int, cap: int) -> dict[str, np.ndarray]:
    """Fresh per-depth arrays and state vector for a board of ``n_cells`` (depth 0, nothing
    placed but the hints, which ``reset`` puts down)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[S_CAP] = cap
    return {"stage": np.zeros(n_cells + 1, dtype=np.int32),
            "ptr": np.zeros(n_cells + 1, dtype=np.int32),
            "end": np.zeros(n_cells + 1, dtype=np.int32),
            "brk": np.zeros(n_cells + 1, dtype=np.int32),
            "fav_sum": np.zeros(n_cells + 1, dtype=np.int32),
            "fav_min": np.zeros(n_cells + 1, dtype=np.int32),
            "st": st}


@njit(cache=True)
def reset(fixed, board, used, st, brk):
    """Start over from ``fixed`` (one orientation per cell, ``EMPTY`` on the cells to fill:
    the hints of a whole board, or everything outside the region of a refill), at depth 0.
    Tiles on fixed cells are used; every other tile is free."""
    n = board.shape[0]
    used[:] = 0
    for c in range(n):
        board[c] = fixed[c]
        if fixed[c] != EMPTY:
            used[fixed[c] >> 2] = 1
    st[S_DEPTH] = 0
    st[S_PC] = PC_ENTER
    st[S_RESTART_NODES] = 0
    st[S_REACHED] = 0
    brk[0] = 0


@njit(cache=True)
def rewind(order, board, used, st, depth):
    """Take the tiles off the cells of ``order`` from ``depth`` on and go on from there (a
    restart of the end of the board that keeps its top); nothing if the search is above."""
    if st[S_DEPTH] <= depth:
        return
    for d in range(depth, order.shape[0]):
        c = order[d]
        if board[c] != EMPTY:
            used[board[c] >> 2] = 0
            board[c] = EMPTY
    st[S_DEPTH] = depth
    st[S_PC] = PC_ENTER


@njit(cache=True, _nrt=False)
def search(order, C, colour, neighbour, cell_class, cand_start, cand, north_start, north_cand,
           west_start, west_cand, limit, board, used, stage, ptr, end, brk, st, best, budget,
           fav, fav_min, fav_sum):
    """Edges mode: fill the cells of ``order`` (``fill_order``) until ``budget`` placements,
    a full board within the cap (``FOUND``, copied to ``best``), or the end of the tree
    (``EXHAUSTED``).  Every other cell holds its tile (``reset``); a neighbour east or south
    that holds one is matched too.  At each cell: exact fits, then (within the schedule)
    north-only and west-only matches.  Favoured colours (``favour``): ``fav[o]`` sides of
    orientation ``o`` show one; once the cell at depth ``d`` is filled at least ``fav_min[d]``
    such sides must be placed (``fav_sum[d]``: those placed above it); the lists are sorted by
    ``fav``, most first, so the first candidate short of the minimum ends its list."""
    n = order.shape[0]
    size = board.shape[0]
    d = st[S_DEPTH]
    pc = st[S_PC]
    nodes = 0
    cap = st[S_CAP]
    deepest = st[S_DEEPEST]
    reached = st[S_REACHED]
    while True:
        if pc == PC_ENTER:
            if d == n:
                # A full board within the cap: report it, then look for better ones.
                for c in range(size):
                    best[c] = board[c]
                cap = brk[n] - 1
                st[S_CAP] = cap
                # Resuming goes back from the end.
                _save(st, d, PC_NEXT, nodes, deepest, reached)
                return FOUND
            cell = order[d]
            cls = cell_class[cell]
            up = neighbour[cell, 0]
            north = 0 if up < 0 else colour[board[up], 2]
            left = neighbour[cell, 3]
            west = 0 if left < 0 else colour[board[left], 1]
            key = (cls * C + north) * C + west
            stage[d] = 0
            ptr[d] = cand_start[key]
            end[d] = cand_start[key + 1]
            pc = PC_NEXT
        # PC_NEXT: the next candidate of depth d, or back to the depth above.
        if nodes >= budget:
            _save(st, d, PC_NEXT, nodes, deepest, reached)
            return BUDGET_SPENT
        found = -1                          # at d == n: resuming after a full board, go back
        if d < n:
            lim = limit[d]
            if lim > cap:
                lim = cap
            room = lim - brk[d]
            if room >= 0:
                cell = order[d]
                cls = cell_class[cell]
                up = neighbour[cell, 0]
                north = 0 if up < 0 else colour[board[up], 2]
                left = neighbour[cell, 3]
                west = 0 if left < 0 else colour[board[left], 1]
                right = neighbour[cell, 1]
                east_fixed = right >= 0 and board[right] != EMPTY
                east = colour[board[right], 3] if east_fixed else -1
                down = neighbour[cell, 2]
                south_fixed = down >= 0 and board[down] != EMPTY
                south = colour[board[down], 0] if south_fixed else -1
                s = stage[d]
                p = ptr[d]
                e = end[d]
                while True:
                    if p >= e:
                        if s == 2 or room == 0:
                            break
                        s += 1
                        if s == 1:
                            p = north_start[cls * C + north]
                            e = north_start[cls * C + north + 1]
                        else:
                            p = west_start[cls * C + west]
                            e = west_start[cls * C + west + 1]
                        continue
                    if s == 0:
                        o = cand[p]
                        m = 0
                    elif s == 1:
                        o = north_cand[p]
                        if colour[o, 3] == west:
                            p += 1
                            continue
                        m = 1
                    else:
                        o = west_cand[p]
                        if colour[o, 0] == north:
                            p += 1
                            continue
                        m = 1
                    p += 1
                    if used[o >> 2]:
                        continue
                    if east_fixed and colour[o, 1] != east:
                        m += 1
                    if south_fixed and colour[o, 2] != south:
                        m += 1
                    if m > room:
                        continue
                    if fav_sum[d] + fav[o] < fav_min[d]:
                        p = e                   # sorted by ``fav``: none further reaches it
                        continue
                    found = o
                    brk[d + 1] = brk[d] + m
                    fav_sum[d + 1] = fav_sum[d] + fav[o]
                    break
                stage[d] = s
                ptr[d] = p
                end[d] = e
        if found >= 0:
            board[order[d]] = found
            used[found >> 2] = 1
            nodes += 1
            d += 1
            if d > reached:
                reached = d
            if brk[d] == 0 and d > deepest:
                deepest = d
            pc = PC_ENTER
            continue
        # Back to the cell above and take its tile off.
        d -= 1
        if d < 0:
            _save(st, 0, PC_ENTER, nodes, deepest, reached)
            return EXHAUSTED
        cell = order[d]
        used[board[cell] >> 2] = 0
        board[cell] = EMPTY


@njit(cache=True, _nrt=False)
def search_holes(order, C, colour, neighbour, cell_class, allowed_start, allowed, cand_start,
                 cand, north_start, north_cand, west_start, west_cand, limit, board, used,
                 stage, ptr, end, brk, st, best, deep, budget):
    """Holes mode: as ``search``, but every placed tile matches every neighbour that holds
    one, and the budget counts cells left empty (holes).  A cell next to a hole wants nothing
    on that side: its list is the north-only or west-only one, or all of its class.  At each
    cell: the tiles that fit, then (within the schedule) the hole.  ``deep`` gets the board of
    each deepest node without a hole (``S_DEEPEST``): a board with no mismatch too, there
    before the first full one."""
    n = order.shape[0]
    size = board.shape[0]
    d = st[S_DEPTH]
    pc = st[S_PC]
    nodes = 0
    cap = st[S_CAP]
    deepest = st[S_DEEPEST]
    reached = st[S_REACHED]
    while True:
        if pc == PC_ENTER:
            if d == n:
                for c in range(size):
                    best[c] = board[c]
                cap = brk[n] - 1
                st[S_CAP] = cap
                _save(st, d, PC_NEXT, nodes, deepest, reached)
                return FOUND
            cell = order[d]
            cls = cell_class[cell]
            up = neighbour[cell, 0]
            north = 0 if up < 0 else (ANY if board[up] == EMPTY else colour[board[up], 2])
            left = neighbour[cell, 3]
            west = 0 if left < 0 else (ANY if board[left] == EMPTY else colour[board[left], 1])
            if north != ANY and west != ANY:
                key = (cls * C + north) * C + west
                stage[d] = 0
                ptr[d] = cand_start[key]
                end[d] = cand_start[key + 1]
            elif north != ANY:
                stage[d] = 1
                ptr[d] = north_start[cls * C + north]
                end[d] = north_start[cls * C + north + 1]
            elif west != ANY:
                stage[d] = 2
                ptr[d] = west_start[cls * C + west]
                end[d] = west_start[cls * C + west + 1]
            else:
                stage[d] = 3
                ptr[d] = allowed_start[cls]
                end[d] = allowed_start[cls + 1]
            pc = PC_NEXT
        if nodes >= budget:
            _save(st, d, PC_NEXT, nodes, deepest, reached)
            return BUDGET_SPENT
        found = -1
        if d < n and stage[d] != STAGE_HOLE:
            lim = limit[d]
            if lim > cap:
                lim = cap
            room = lim - brk[d]
            if room >= 0:
                cell = order[d]
                right = neighbour[cell, 1]
                east = ANY if right < 0 or board[right] == EMPTY else colour[board[right], 3]
                down = neighbour[cell, 2]
                south = ANY if down < 0 or board[down] == EMPTY else colour[board[down], 0]
                up = neighbour[cell, 0]
                north = ANY if up < 0 or board[up] == EMPTY else colour[board[up], 2]
                left = neighbour[cell, 3]
                west = ANY if left < 0 or board[left] == EMPTY else colour[board[left], 1]
                s = stage[d]
                p = ptr[d]
                e = end[d]
                while p < e:
                    if s == 0:
                        o = cand[p]
                    elif s == 1:
                        o = north_cand[p]
                    elif s == 2:
                        o = west_cand[p]
                    else:
                        o = allowed[p]
                    p += 1
                    if used[o >> 2]:
                        continue
                    if (east != ANY and colour[o, 1] != east) or \
                            (south != ANY and colour[o, 2] != south) or \
                            (north != ANY and colour[o, 0] != north) or \
                            (west != ANY and colour[o, 3] != west):
                        continue
                    found = o
                    break
                ptr[d] = p
                if found >= 0:
                    brk[d + 1] = brk[d]
                elif room > 0:
                    stage[d] = STAGE_HOLE            # leave the cell empty, once
                    brk[d + 1] = brk[d] + 1
                    found = HOLE
        if found != -1:
            if found != HOLE:
                board[order[d]] = found
                used[found >> 2] = 1
            nodes += 1
            d += 1
            if d > reached:
                reached = d
            if brk[d] == 0 and d > deepest:
                deepest = d
                for c in range(size):
                    deep[c] = board[c]
            pc = PC_ENTER
            continue
        d -= 1
        if d < 0:
            _save(st, 0, PC_ENTER, nodes, deepest, reached)
            return EXHAUSTED
        cell = order[d]
        if board[cell] != EMPTY:
            used[board[cell] >> 2] = 0
            board[cell] = EMPTY


@njit(cache=True, inline="always")
def _save(st, d, pc, nodes, deepest, reached):
    """Leave the kernel: the depth and program counter to resume at, the counters."""
    st[S_DEPTH] = d
    st[S_PC] = pc
    st[S_NODES] += nodes
    st[S_RESTART_NODES] += nodes
    st[S_DEEPEST] = deepest
    st[S_REACHED] = reached
