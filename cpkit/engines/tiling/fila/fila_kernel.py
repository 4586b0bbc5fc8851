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
already be filled).  The *compact* ILSI ``z`` packs the occupancy of the unknown neighbours only:
the seed's ``getIlsiXX``, which never looks at known neighbours, with the known bits dropped, so
no set is built for a state that cannot occur.  Row ``b = h*V + v`` of ``ilsi`` (8 int64, one
cache line) holds the cell's first set, its number ``n`` of unknown neighbours and those
neighbours; the unused slots name ``v`` itself, which is open whenever ``v`` is the target, so
``z`` is a fixed-length sum with no branches.  Set ``k`` holds one list per shape: entries
``lptr[k*Q + s] .. lptr[k*Q + s + 1]``, each an image's layout mask (``W`` words of ``lmask``) and
its image number (``limg``); ``nonempty[k]`` has bit ``s`` set iff that list is not empty.

**Performance notes.**  The hot loop calls no helper that takes an array (numba would count
references to it on every call), and the E/S selection, which is large, is a separate function
so that the F path keeps its registers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime.bits import lowest_bit

# Heuristic kinds (selectFila variants).
HK_FIRST = 0       # F: lowest open cell in the numbering (a bit scan); POF
HK_ORDER = 1       # any other fixed order: first open cell of a cell list; POF
HK_NEIGHBOURS = 2  # E: fewest open neighbours, then fewest fits (early exit); no POF
HK_FITS = 3        # S: fewest fits (early exit); no POF

# Return status of ``search`` (as in the DLX kernel).
DONE = 0
BUFFER_FULL = 1
BUDGET_SPENT = 2
AT_STOP = 3        # entered level ``ST_STOP``: the caller records the node, then resumes

# Where a stopped search resumes.
PC_ENTER = 0   # enter ``level``: report a solution or choose its image list set
PC_LEAVE = 1   # leave ``level`` at once (its solution was reported when the buffer filled)
PC_SCAN = 2    # (inside a call only) looking for the next image that fits

# State vector.
ST_LEVEL = 0
ST_PC = 1
ST_AVAIL = 2   # bit s set iff shape s has pieces left
ST_NBUF = 3
ST_FLOOR = 4   # the search ends when the lists of this level are done (0: the whole tree)
ST_STOP = 5    # stop on entering this level (-1: never); split runs collect their subproblems
STATE_SIZE = 6

# Counters.
CT_SOLUTIONS = 0
CT_NODES = 1             # images placed (fits)
CT_HEURISTIC_CHECKS = 2  # fit checks made by the E and S heuristics while choosing a cell
COUNTERS_SIZE = 3

# Columns of the per-level table ``lv`` (the explicit stack).
LV_BASE = 0   # first list pointer of the chosen set (set * Q)
LV_UNTRIED = 1   # shapes still to try there (bits)
LV_S = 2      # the shape being tried
LV_K = 3      # next list entry to try
LV_END = 4    # end of that list
LV_POS = 5    # HK_ORDER: position of the target in the heuristic's cell list
LV_SIZE = 6

# Layout of a row of ``ilsi``.
IL_FIRST = 0   # the cell's first image list set
IL_N = 1       # how many of its neighbours are unknown
IL_NB = 2      # the unknown neighbours (6 slots)
IL_SIZE = 8

NO_SET = -1
MAX_COUNT = 1 << 62
#: Shapes are bits of an int64, so a (sub)problem may have at most this many distinct shapes
#: (a region of 256 cells cannot hold more than about 45).
MAX_SHAPES = 62


@njit(inline="always")
def _bit(W, c, o0, o1, o2, o3):
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
def _compact_ilsi(W, width, a0, a1, a2, a3, a4, a5, o0, o1, o2, o3):
    """The compact ILSI from the (up to) six unknown neighbours ``a0..a5``; ``width`` is the
    most any cell of the problem has (a constant of the problem, so the branches predict)."""
    z = _bit(W, a0, o0, o1, o2, o3) | (_bit(W, a1, o0, o1, o2, o3) << 1)
    if width > 2:
        z |= (_bit(W, a2, o0, o1, o2, o3) << 2) | (_bit(W, a3, o0, o1, o2, o3) << 3)
        if width > 4:
            z |= (_bit(W, a4, o0, o1, o2, o3) << 4) | (_bit(W, a5, o0, o1, o2, o3) << 5)
    return z


@njit(inline="always")
def _overlap(W, lmask, b, o0, o1, o2, o3):
    """The occupied cells of the image whose mask starts at ``lmask[b]`` (0: it fits)."""
    hit = lmask[b] & o0
    if W > 1:
        hit |= lmask[b + 1] & o1
    if W > 2:
        hit |= lmask[b + 2] & o2
    if W > 3:
        hit |= lmask[b + 3] & o3
    return hit


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
def _with_open_count(k, b0, b1, b2, hole):
    """The cells of ``hole`` (one word) whose open-neighbour count, read from the bit planes
    ``b0``, ``b1``, ``b2`` of that word, is ``k``."""
    m = hole
    m &= b0 if k & 1 else ~b0
    m &= b1 if k & 2 else ~b1
    m &= b2 if k & 4 else ~b2
    return m


@njit(cache=True, _nrt=False)
def _select_by_fits(W, hv, kind, width, Q, avail, ilsi, planes, pb, nonempty, lptr, lmask, cand,
                    counters, o0, o1, o2, o3):
    """selectFila for E and S.  E: the holes with fewest open neighbours are the candidates;
    S: every hole.  Then the candidate (in cell order) whose set has fewest fits, counted with
    the seed's countFits (which stops at the best count so far).  Returns the set.

    E reads each cell's open-neighbour count from the three bit planes ``planes[pb + b*W + w]``
    (bit ``b`` of the count of cell ``64 w + i`` is bit ``i`` of word ``w`` of plane ``b``),
    which the search keeps up to date as it places and removes images (``_drop_neighbours``),
    so the holes with the fewest open neighbours are a few word operations away instead of a
    popcount per hole at every node."""
    nc = 0
    fewest = 0
    if kind == HK_NEIGHBOURS:
        fewest = 7
        for k in range(7):
            any_ = np.uint64(0)
            for w in range(W):
                hole = ~o0
                if w == 1:
                    hole = ~o1
                elif w == 2:
                    hole = ~o2
                elif w == 3:
                    hole = ~o3
                any_ |= _with_open_count(k, planes[pb + w], planes[pb + W + w],
                                     planes[pb + 2 * W + w], hole)
            if any_:
                fewest = k
                break
    for w in range(W):
        word = o0
        if w == 1:
            word = o1
        elif w == 2:
            word = o2
        elif w == 3:
            word = o3
        holes = ~word
        if kind == HK_NEIGHBOURS:
            holes = _with_open_count(fewest, planes[pb + w], planes[pb + W + w],
                                 planes[pb + 2 * W + w], holes)
        while holes:
            v = w * 64 + lowest_bit(holes)
            holes &= holes - np.uint64(1)
            cand[nc] = v
            nc += 1
    best = NO_SET
    fmin = MAX_COUNT
    checks = 0
    for i in range(nc):
        r = (hv + cand[i]) * IL_SIZE
        st = ilsi[r + IL_FIRST] + _compact_ilsi(
            W, width, ilsi[r + 2], ilsi[r + 3], ilsi[r + 4], ilsi[r + 5], ilsi[r + 6],
            ilsi[r + 7], o0, o1, o2, o3)
        # countFits(I, q, o, fmin)
        f = 0
        base = st * Q
        untried = nonempty[st] & avail
        while untried and f < fmin:
            s = lowest_bit(untried)
            untried &= untried - 1
            for e in range(lptr[base + s], lptr[base + s + 1]):
                checks += 1
                if _overlap(W, lmask, e * W, o0, o1, o2, o3) == 0:
                    f += 1
                    if f >= fmin:
                        break
        if f < fmin:
            fmin = f
            best = st
            if fmin == 0:
                break
    counters[CT_HEURISTIC_CHECKS] += checks
    return best


@njit(inline="always")
def _drop_neighbours(W, lmask, b, nbmask, src, at, dst, to):
    """Open-neighbour counts after placing the image whose mask starts at ``lmask[b]``: the
    planes ``src[at:at + 3W]`` copied to ``dst[to:to + 3W]``, less one for every neighbour of
    each covered cell (a bit-parallel subtraction of the neighbour masks).  A covered cell's
    own count goes on falling as its neighbours fill, and is right again when they empty."""
    for x in range(3 * W):
        dst[to + x] = src[at + x]
    for w in range(W):
        m = lmask[b + np.uint64(w)]
        while m:
            u = w * 64 + lowest_bit(m)
            m &= m - np.uint64(1)
            for x in range(W):
                d = nbmask[u * W + x]
                b0 = dst[to + x]
                b1 = dst[to + W + x]
                dst[to + x] = b0 ^ d
                d &= ~b0
                dst[to + W + x] = b1 ^ d
                d &= ~b1
                dst[to + 2 * W + x] ^= d


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
    tried / placed at level ``l`` (``n_pieces - l`` pieces remaining).  ``heur_of_level[l]`` is
    the heuristic at level ``l``, of kind ``heur_kind[h]``.  ``planes[l*3*W:(l+1)*3*W]`` holds
    every cell's number of open neighbours on entering level ``l`` (three bit planes, see
    ``_select_by_fits``), kept while a level below uses E (``e_below[l]``).

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
                    v = _first_hole(W, o0, o1, o2, o3)
                elif kind == HK_ORDER:
                    m = 0
                    if level > 0 and heur_of_level[level - 1] == h:
                        m = lv[level - 1, LV_POS] + 1
                    while m < V and _bit(W, order[hv + m], o0, o1, o2, o3):
                        m += 1
                    if m < V:
                        lv[level, LV_POS] = m
                        v = order[hv + m]
                else:
                    st = _select_by_fits(W, hv, kind, width, Q, avail, ilsi, planes,
                                         level * 3 * W, nonempty, lptr, lmask, cand, counters,
                                         o0, o1, o2, o3)
                if v >= 0:
                    r = (hv + v) * IL_SIZE
                    st = ilsi[r + IL_FIRST] + _compact_ilsi(
                        W, width, ilsi[r + 2], ilsi[r + 3], ilsi[r + 4], ilsi[r + 5],
                        ilsi[r + 6], ilsi[r + 7], o0, o1, o2, o3)
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
            start = k
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
                attempts[level] += k - start + 1
                if level >= floor or limg[k] == path[level]:
                    break
                k += 1
                continue
            if s >= 0:
                attempts[level] += end - start
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
            _drop_neighbours(W, lmask, b, nbmask, planes, level * 3 * W, planes,
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
    counters[CT_NODES] += placed
    state[ST_LEVEL] = level
    state[ST_PC] = pc
    state[ST_AVAIL] = avail
    state[ST_NBUF] = nbuf
    return status


@njit(cache=True)
def build_lists(wtag, by_number, is_open, left_by_shape, neighbours, rank, pof, pof_first, nof,
                img_ids, image_shape, cell_ptr, cell_idx, max_entries):
    """Compile a (sub)problem into image list sets, once.

    The open cells are those with ``is_open[c]``, numbered in the order of ``by_number`` (the
    puzzle cells sorted by the numbering heuristic); ``neighbours[c, d]`` is the puzzle cell next
    to ``c`` in ILSI direction ``d`` (-1 if none).  The shapes are those with
    ``left_by_shape[s] > 0`` pieces left, numbered in order.  For each heuristic ``h``,
    ``rank[h, c]`` orders the puzzle cells (fixed orders), ``pof[h]`` says whether POF applies
    and ``pof_first[h, i]`` is the first cell of image ``i`` in that order.  ``img_ids`` are the images (rows of the puzzle's CSR ``cell_ptr`` / ``cell_idx``,
    of shape ``image_shape``); an image outside the open cells or of a shape with no piece left
    is ignored.

    Returns ``(n_entries, width, cells, left, ilsi, lptr, nonempty, lmask, limg, nbmask,
    order, planes)``: ``cells[v]`` is the puzzle cell numbered ``v``, ``left`` the pieces left
    per shape, ``width`` the most unknown neighbours of any cell, ``planes`` every cell's number
    of open neighbours (three bit planes of ``W`` words).  ``n_entries`` is -1 (and the
    lists are empty) if more than ``max_entries`` entries would be needed, so the caller can
    retry without NOF.
    """
    W = len(wtag)
    H = len(pof)
    n_all = len(is_open)
    local_of = np.full(n_all, -1, dtype=np.int64)
    V = 0
    for c in by_number:
        if is_open[c]:
            local_of[c] = V
            V += 1
    cells = np.zeros(V, dtype=np.int64)
    for c in range(n_all):
        if local_of[c] >= 0:
            cells[local_of[c]] = c
    shape_local = np.full(len(left_by_shape), -1, dtype=np.int64)
    Q = 0
    for g in range(len(left_by_shape)):
        if left_by_shape[g] > 0:
            shape_local[g] = Q
            Q += 1
    left = np.zeros(Q, dtype=np.int64)
    for g in range(len(left_by_shape)):
        if shape_local[g] >= 0:
            left[shape_local[g]] = left_by_shape[g]
    ilsi = np.zeros(H * V * IL_SIZE, dtype=np.int64)
    n_sets = 0
    width = 0
    for h in range(H):
        for v in range(V):
            c = cells[v]
            r = (h * V + v) * IL_SIZE
            n = 0
            for d in range(6):
                ilsi[r + IL_NB + d] = v          # unused slots read the (open) target itself
            if nof:
                for d in range(6):
                    g = neighbours[c, d]
                    if g < 0 or local_of[g] < 0:
                        continue            # no such open cell: reads as occupied
                    if pof[h] and rank[h, g] < rank[h, c]:
                        continue            # filled before v is targeted
                    ilsi[r + IL_NB + n] = local_of[g]
                    n += 1
            ilsi[r + IL_N] = n
            ilsi[r + IL_FIRST] = n_sets
            n_sets += 1 << n
            width = max(width, n)
    nbmask = np.zeros(V * W, dtype=np.uint64)
    planes = np.zeros(3 * W, dtype=np.uint64)     # open neighbours of each cell, at the root
    for v in range(V):
        n_open = 0
        for d in range(6):
            g = neighbours[cells[v], d]
            if g >= 0 and local_of[g] >= 0:
                u = local_of[g]
                nbmask[v * W + (u >> 6)] |= np.uint64(1) << np.uint64(u & 63)
                n_open += 1
        for bit in range(3):
            if (n_open >> bit) & 1:
                planes[bit * W + (v >> 6)] |= np.uint64(1) << np.uint64(v & 63)
    # Each heuristic's cell list: the open cells in its order (ranks are permutations).
    order = np.zeros(H * V, dtype=np.int64)
    by_rank = np.zeros(n_all, dtype=np.int64)
    for h in range(H):
        for c in range(n_all):
            by_rank[rank[h, c]] = c
        m = 0
        for c in by_rank:
            if local_of[c] >= 0:
                order[h * V + m] = local_of[c]
                m += 1

    # 1. Each usable image once: its shape and local layout mask.
    n_img = len(img_ids)
    img_s = np.full(n_img, -1, dtype=np.int64)
    img_mask = np.zeros(n_img * W, dtype=np.uint64)
    for a in range(n_img):
        i = img_ids[a]
        s = shape_local[image_shape[i]]
        for p in range(cell_ptr[i], cell_ptr[i + 1]):
            u = local_of[cell_idx[p]]
            if u < 0:
                s = -1                      # not inside the open cells: never usable
                break
            img_mask[a * W + (u >> 6)] |= np.uint64(1) << np.uint64(u & 63)
        img_s[a] = s
    # 2. Count the entries of each (set, shape) list, then 3. fill them.  An image goes to the
    # lists of its target cells (under POF only the first of its cells in the heuristic's
    # order), in every compact ILSI in which its covered unknown neighbours are open.
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
                return (-1, width, cells, left, ilsi, lptr, nonempty, lmask, limg, nbmask, order,
                        planes)
            lmask = np.zeros(n_entries * W, dtype=np.uint64)
            limg = np.zeros(n_entries, dtype=np.int32)
            cursor = lptr[:-1].copy()
        for a in range(n_img):
            s = img_s[a]
            if s < 0:
                continue
            i = img_ids[a]
            p0 = cell_ptr[i]
            p1 = cell_ptr[i + 1]
            for h in range(H):
                for p in range(p0, p1):
                    c = cell_idx[p]
                    if pof[h] and c != pof_first[h, i]:
                        continue
                    r = (h * V + local_of[c]) * IL_SIZE
                    n = ilsi[r + IL_N]
                    covered = 0
                    for t in range(n):
                        u = ilsi[r + IL_NB + t]
                        if (img_mask[a * W + (u >> 6)] >> np.uint64(u & 63)) & np.uint64(1):
                            covered |= 1 << t
                    free = ((1 << n) - 1) & ~covered
                    z = free
                    while True:
                        st = ilsi[r + IL_FIRST] + z
                        slot = st * Q + s
                        if fill == 0:
                            lptr[slot + 1] += 1
                            nonempty[st] |= np.int64(1) << s
                        else:
                            e = cursor[slot]
                            cursor[slot] += 1
                            limg[e] = i
                            for w in range(W):
                                lmask[e * W + w] = img_mask[a * W + w]
                        if z == 0:
                            break
                        z = (z - 1) & free
    return (n_entries, width, cells, left, ilsi, lptr, nonempty, lmask, limg, nbmask, order,
            planes)
