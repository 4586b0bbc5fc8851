"""FILA, the Fixed Image List Algorithm (Busche, polycube 2.0), in numba.

Pure kernels over flat arrays: ``build_lists`` compiles a (sub)problem into image list sets once;
``search`` runs solveFila as a resumable state machine over an explicit stack.

**Occupancy.**  The open cells of the (sub)problem are numbered ``0..V-1`` and the occupancy is a
bit field of ``W`` 64-bit words (``V <= 64 W``, ``W <= 4``), held in the locals ``o0..o3``.  ``W``
is the length of the tuple ``wtag``: numba compiles one machine-code version per tuple length and
``W`` is a constant in each, so every ``if W > 1`` below disappears from the one-word version
(which therefore pays nothing for the wider ones).  Bits ``V..64W-1`` start set, so the holes are
exactly the zero bits.

**Image list sets** (the seed's ``A[c][z]``).  For heuristic ``h`` and cell ``v``, the neighbours
whose state is not known in advance are listed in ILSI bit order (bit 5 = -x, 4 = -y, 3 = -z,
2 = +x, 1 = +y, 0 = +z); a neighbour is known when it does not exist in the subproblem (it reads
as occupied) or, for a fixed-order heuristic, when it comes earlier in the order (POF: it must
already be filled).  The *compact* ILSI ``z`` packs the occupancy of the unknown neighbours only,
so the sets of ``v`` are ``cell_set[h, v] + z`` for ``z < 2**unk_n[h, v]``: the seed's
``getIlsiXX`` with the known bits dropped, and no set is built for a state that cannot occur.
Set ``k`` holds one list per shape: entries ``lptr[k*Q + s] .. lptr[k*Q + s + 1]``, each entry an
image's layout mask (``W`` words in ``lmask``) and its image number (``limg``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bits import lowest_bit, popcount

# Heuristic kinds (selectFila variants).
HK_FIRST = 0      # F: lowest open cell in the numbering (a bit scan); POF
HK_ORDER = 1      # any other fixed order: first open cell of a cell list; POF
HK_NEIGHBOURS = 2  # E: fewest open neighbours, then fewest fits (early exit); no POF
HK_FITS = 3       # S: fewest fits (early exit); no POF

# Return status of ``search`` (as in the DLX kernel).
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2

# Program counter values.  The search only ever stops at PC_ENTER or PC_LEAVE.
PC_ENTER = 0   # choose the image list set of a new level (or report a solution)
PC_SHAPE = 1   # next available shape with a non-empty list
PC_SCAN = 2    # next fitting image of the current list
PC_LEAVE = 3   # back to the level above

# State vector.
ST_LEVEL = 0
ST_PC = 1
ST_AVAIL = 2   # bit s set iff shape s has pieces left
ST_NBUF = 3
STATE_SIZE = 4

# Counters.
CT_SOLUTIONS = 0
CT_NODES = 1            # images placed (fits)
CT_HEURISTIC_CHECKS = 2  # fit checks made by the E and S heuristics while choosing a cell
COUNTERS_SIZE = 3

# Columns of the per-level table ``lv`` (the explicit stack).
LV_BASE = 0   # first list pointer of the chosen set (set * Q)
LV_TODO = 1   # shapes still to try there (bits)
LV_S = 2      # the shape being tried
LV_K = 3      # next list entry to try
LV_END = 4    # end of that list
LV_POS = 5    # HK_ORDER: position of the target in the heuristic's cell list
LV_SIZE = 6

NO_SET = -1
MAX_COUNT = 1 << 62
#: Shapes are bits of an int64, so a (sub)problem may have at most this many distinct shapes
#: (a region of 256 cells cannot hold more than about 45).
MAX_SHAPES = 62


@njit(inline="always")
def _disjoint(W, lmask, e, o0, o1, o2, o3):
    """True iff list entry ``e`` fits (its layout does not meet the occupancy)."""
    b = e * W
    if lmask[b] & o0:
        return False
    if W > 1 and lmask[b + 1] & o1:
        return False
    if W > 2 and lmask[b + 2] & o2:
        return False
    if W > 3 and lmask[b + 3] & o3:
        return False
    return True


@njit(inline="always")
def _occupied(W, c, o0, o1, o2, o3):
    """1 if cell ``c`` is occupied, else 0."""
    if W == 1:
        return np.int64((o0 >> np.uint64(c)) & np.uint64(1))
    w = c >> 6
    word = o0
    if w == 1:
        word = o1
    elif W > 2 and w == 2:
        word = o2
    elif W > 3 and w == 3:
        word = o3
    return np.int64((word >> np.uint64(c & 63)) & np.uint64(1))


@njit(inline="always")
def _set_of(W, b, cell_set, unk_nb, unk_n, o0, o1, o2, o3):
    """The image list set for heuristic/cell slot ``b = h * V + v`` in the current occupancy:
    the cell's first set plus the compact ILSI of its unknown neighbours."""
    z = 0
    for t in range(unk_n[b]):
        z |= _occupied(W, unk_nb[b * 6 + t], o0, o1, o2, o3) << t
    return cell_set[b] + z


@njit(inline="always")
def _first_hole(W, o0, o1, o2, o3):
    if W == 1:
        return lowest_bit(~o0)
    if ~o0:
        return lowest_bit(~o0)
    if ~o1:
        return 64 + lowest_bit(~o1)
    if W > 2 and ~o2:
        return 128 + lowest_bit(~o2)
    return 192 + lowest_bit(~o3)


@njit(inline="always")
def _open_neighbours(W, nbmask, v, o0, o1, o2, o3):
    b = v * W
    n = popcount(nbmask[b] & ~o0)
    if W > 1:
        n += popcount(nbmask[b + 1] & ~o1)
    if W > 2:
        n += popcount(nbmask[b + 2] & ~o2)
    if W > 3:
        n += popcount(nbmask[b + 3] & ~o3)
    return n


@njit(inline="always")
def _count_fits(W, st, Q, avail, fmax, nonempty, lptr, lmask, o0, o1, o2, o3):
    """The seed's countFits: fits of the available shapes' images in set ``st``, counted no
    further than ``fmax``.  Returns (fits, images checked)."""
    f = 0
    checks = 0
    if fmax <= 0:
        return 0, 0
    base = st * Q
    todo = nonempty[st] & avail
    while todo:
        s = lowest_bit(todo)
        todo &= todo - 1
        for e in range(lptr[base + s], lptr[base + s + 1]):
            checks += 1
            if _disjoint(W, lmask, e, o0, o1, o2, o3):
                f += 1
                if f >= fmax:
                    return f, checks
    return f, checks


@njit(cache=True)
def _select_by_fits(W, hv, kind, Q, avail, cell_set, unk_nb, unk_n, nbmask, nonempty, lptr,
                    lmask, cand, counters, o0, o1, o2, o3):
    """selectFila for E and S (kept out of the main loop: it is large and F never needs it).
    E: the holes with fewest open neighbours are the candidates; S: every hole.  Then the
    candidate (in cell order) whose set has fewest fits, counted with early exit."""
    nc = 0
    best_n = 1 << 30
    for w in range(W):
        word = o0
        if w == 1:
            word = o1
        elif w == 2:
            word = o2
        elif w == 3:
            word = o3
        holes = ~word
        while holes:
            v = w * 64 + lowest_bit(holes)
            holes &= holes - np.uint64(1)
            if kind == HK_NEIGHBOURS:
                n = _open_neighbours(W, nbmask, v, o0, o1, o2, o3)
                if n < best_n:
                    best_n = n
                    nc = 0
                if n > best_n:
                    continue
            cand[nc] = v
            nc += 1
    best = NO_SET
    fmin = MAX_COUNT
    checks = 0
    for i in range(nc):
        st = _set_of(W, hv + cand[i], cell_set, unk_nb, unk_n, o0, o1, o2, o3)
        f, c = _count_fits(W, st, Q, avail, fmin, nonempty, lptr, lmask, o0, o1, o2, o3)
        checks += c
        if f < fmin:
            fmin = f
            best = st
        if fmin == 0:
            break
    counters[CT_HEURISTIC_CHECKS] += checks
    return best


@njit(cache=True)
def search(wtag, n_cells, n_shapes, n_pieces, heur_of_level, heur_kind,
           lmask, limg, lptr, nonempty, cell_set, unk_nb, unk_n, nbmask, order,
           left, occ_stack, lv, chosen, attempts, fits, cand, state, counters,
           sol_buf, store, max_in_buf, node_budget):
    """Run solveFila from the saved ``state`` until done, ``max_in_buf`` solutions are in the
    buffer, or ``node_budget`` images have been placed.  Returns DONE, BUFFER_FULL or
    BUDGET_SPENT; ``state`` (with the stacks) then holds where to resume.

    The seed's shape warehouse (the shapes with pieces left, ``N_s`` = ``left[s]``) is the bit
    set ``avail``: a shape leaves it when its last piece is placed and returns when that piece
    is removed (the seed's swap-to-end and back), and the shapes tried at a set are
    ``nonempty[set] & avail``, which skips empty lists without touching them.
    ``occ_stack[l*W:(l+1)*W]`` is the occupancy on entering level ``l`` (``l`` pieces placed);
    ``chosen[l]`` the image placed there.  ``attempts[l]`` / ``fits[l]`` count the images
    tried / placed at level ``l`` (``n_pieces - l`` pieces remaining).  ``heur_of_level[l]`` is
    the heuristic at level ``l``, of kind ``heur_kind[h]``.
    """
    W = len(wtag)
    V = n_cells
    Q = n_shapes
    level = state[ST_LEVEL]
    pc = state[ST_PC]
    avail = state[ST_AVAIL]
    nbuf = state[ST_NBUF]
    budget = node_budget
    placed = 0
    status = DONE
    o0 = occ_stack[level * W]
    o1 = occ_stack[level * W + 1] if W > 1 else np.uint64(0)
    o2 = occ_stack[level * W + 2] if W > 2 else np.uint64(0)
    o3 = occ_stack[level * W + 3] if W > 3 else np.uint64(0)
    # The current level's list position, kept in registers; saved in ``lv`` on the way down.
    base = 0
    todo = 0
    s = 0
    k = 0
    end = 0
    while True:
        if pc == PC_ENTER:
            if level == n_pieces:
                counters[CT_SOLUTIONS] += 1
                if store:
                    for d in range(n_pieces):
                        sol_buf[nbuf, d] = chosen[d]
                nbuf += 1
                pc = PC_LEAVE
                if nbuf >= max_in_buf:
                    status = BUFFER_FULL
                    break
            elif budget <= 0:
                status = BUDGET_SPENT
                break
            else:
                # selectFila.
                h = heur_of_level[level]
                kind = heur_kind[h]
                hv = h * V
                if kind == HK_FIRST:
                    v = _first_hole(W, o0, o1, o2, o3)
                    st = _set_of(W, hv + v, cell_set, unk_nb, unk_n, o0, o1, o2, o3)
                elif kind == HK_ORDER:
                    m = 0
                    if level > 0 and heur_of_level[level - 1] == h:
                        m = lv[level - 1, LV_POS] + 1
                    while m < V and _occupied(W, order[hv + m], o0, o1, o2, o3):
                        m += 1
                    st = NO_SET
                    if m < V:
                        lv[level, LV_POS] = m
                        st = _set_of(W, hv + order[hv + m], cell_set, unk_nb, unk_n,
                                     o0, o1, o2, o3)
                else:
                    st = _select_by_fits(W, hv, kind, Q, avail, cell_set, unk_nb, unk_n, nbmask,
                                         nonempty, lptr, lmask, cand, counters, o0, o1, o2, o3)
                if st == NO_SET:
                    pc = PC_LEAVE
                else:
                    base = st * Q
                    todo = nonempty[st] & avail
                    pc = PC_SHAPE
        if pc == PC_SHAPE:
            # Lines 4-9: the next available shape whose list here is not empty.
            if todo == 0:
                pc = PC_LEAVE
            else:
                s = lowest_bit(todo)
                todo &= todo - 1
                left[s] -= 1
                if left[s] == 0:
                    avail &= ~(np.int64(1) << s)
                k = lptr[base + s]
                end = lptr[base + s + 1]
                pc = PC_SCAN
        if pc == PC_SCAN:
            # Lines 10-13: the next image of list I_s that fits.
            start = k
            while k < end and not _disjoint(W, lmask, k, o0, o1, o2, o3):
                k += 1
            if k < end:
                attempts[level] += k - start + 1
                fits[level] += 1
                lv[level, LV_BASE] = base
                lv[level, LV_TODO] = todo
                lv[level, LV_S] = s
                lv[level, LV_K] = k + 1
                lv[level, LV_END] = end
                chosen[level] = limg[k]
                b = k * W
                o0 |= lmask[b]
                if W > 1:
                    o1 |= lmask[b + 1]
                if W > 2:
                    o2 |= lmask[b + 2]
                if W > 3:
                    o3 |= lmask[b + 3]
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
                continue
            attempts[level] += end - start
            # Lines 14-17: undo the shape bookkeeping; on to the next shape.
            if left[s] == 0:
                avail |= np.int64(1) << s
            left[s] += 1
            pc = PC_SHAPE
            continue
        if pc == PC_LEAVE:
            if level == 0:
                status = DONE
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
            todo = lv[level, LV_TODO]
            s = lv[level, LV_S]
            k = lv[level, LV_K]
            end = lv[level, LV_END]
            pc = PC_SCAN
    counters[CT_NODES] += placed
    state[ST_LEVEL] = level
    state[ST_PC] = pc
    state[ST_AVAIL] = avail
    state[ST_NBUF] = nbuf
    return status


@njit(cache=True)
def build_lists(wtag, cells, local_of, neighbours, rank, pof, nof, img_ids, img_shape,
                n_shapes, cell_ptr, cell_idx, max_entries):
    """Compile a (sub)problem into image list sets, once.

    ``cells[v]`` is the puzzle cell numbered ``v`` here and ``local_of`` the inverse (-1 for a
    cell that is not open); ``neighbours[c, d]`` is the puzzle cell next to ``c`` in ILSI
    direction ``d`` (-1 if none).  For each heuristic ``h``, ``rank[h, c]`` orders the puzzle
    cells (fixed orders), and ``pof[h]`` says whether POF applies.  ``img_ids`` are the images
    (rows of the puzzle's CSR ``cell_ptr`` / ``cell_idx``) with shape ``img_shape`` (0..Q-1).

    Returns ``(n_entries, cell_set, unk_nb, unk_n, lptr, nonempty, lmask, limg, nbmask,
    order)``, ``nonempty[k]`` having bit ``s`` set iff shape ``s`` has images in set ``k``;
    ``n_entries`` is -1 (and the lists are empty) if more than ``max_entries`` entries would be
    needed, so the caller can retry without NOF.
    """
    W = len(wtag)
    V = len(cells)
    H = len(pof)
    Q = n_shapes
    cell_set = np.zeros(H * V, dtype=np.int64)
    unk_nb = np.zeros(H * V * 6, dtype=np.int64)
    unk_n = np.zeros(H * V, dtype=np.int64)
    n_sets = 0
    for h in range(H):
        for v in range(V):
            c = cells[v]
            b = h * V + v
            n = 0
            if nof:
                for d in range(6):
                    g = neighbours[c, d]
                    if g < 0 or local_of[g] < 0:
                        continue            # no such open cell: reads as occupied
                    if pof[h] and rank[h, g] < rank[h, c]:
                        continue            # filled before v is targeted
                    unk_nb[b * 6 + n] = local_of[g]
                    n += 1
            unk_n[b] = n
            cell_set[b] = n_sets
            n_sets += 1 << n
    nbmask = np.zeros(V * W, dtype=np.uint64)
    for v in range(V):
        for d in range(6):
            g = neighbours[cells[v], d]
            if g >= 0 and local_of[g] >= 0:
                u = local_of[g]
                nbmask[v * W + (u >> 6)] |= np.uint64(1) << np.uint64(u & 63)
    order = np.zeros(H * V, dtype=np.int64)
    key = np.zeros(V, dtype=np.int64)
    for h in range(H):
        for v in range(V):
            key[v] = rank[h, cells[v]]
        order[h * V:(h + 1) * V] = np.argsort(key, kind="mergesort")

    # Two passes over (image, heuristic, target cell, compact ILSI): count, then fill.
    lptr = np.zeros(n_sets * Q + 1, dtype=np.int64)
    nonempty = np.zeros(n_sets, dtype=np.int64)
    n_entries = 0
    lmask = np.zeros(0, dtype=np.uint64)
    limg = np.zeros(0, dtype=np.int32)
    cursor = np.zeros(0, dtype=np.int64)
    for fill in range(2):
        if fill == 1:
            for k in range(n_sets * Q):
                lptr[k + 1] += lptr[k]
            n_entries = lptr[n_sets * Q]
            if n_entries > max_entries:
                return (-1, cell_set, unk_nb, unk_n, lptr, nonempty, lmask, limg, nbmask,
                        order)
            lmask = np.zeros(n_entries * W, dtype=np.uint64)
            limg = np.zeros(n_entries, dtype=np.int32)
            cursor = lptr[:-1].copy()
        for a in range(len(img_ids)):
            i = img_ids[a]
            p0 = cell_ptr[i]
            p1 = cell_ptr[i + 1]
            inside = True
            for p in range(p0, p1):
                if local_of[cell_idx[p]] < 0:
                    inside = False
            if not inside:
                continue
            s = img_shape[a]
            for h in range(H):
                first = -1
                if pof[h]:
                    for p in range(p0, p1):
                        c = cell_idx[p]
                        if first < 0 or rank[h, c] < rank[h, first]:
                            first = c
                for p in range(p0, p1):
                    c = cell_idx[p]
                    if pof[h] and c != first:
                        continue
                    b = h * V + local_of[c]
                    n = unk_n[b]
                    covered = 0
                    for t in range(n):
                        u = cells[unk_nb[b * 6 + t]]
                        for p2 in range(p0, p1):
                            if cell_idx[p2] == u:
                                covered |= 1 << t
                    free = ((1 << n) - 1) & ~covered
                    z = free
                    while True:
                        slot = (cell_set[b] + z) * Q + s
                        if fill == 0:
                            lptr[slot + 1] += 1
                            nonempty[cell_set[b] + z] |= np.int64(1) << s
                        else:
                            e = cursor[slot]
                            cursor[slot] += 1
                            limg[e] = i
                            for p2 in range(p0, p1):
                                u = local_of[cell_idx[p2]]
                                lmask[e * W + (u >> 6)] |= np.uint64(1) << np.uint64(u & 63)
                        if z == 0:
                            break
                        z = (z - 1) & free
    return (n_entries, cell_set, unk_nb, unk_n, lptr, nonempty, lmask, limg, nbmask, order)
