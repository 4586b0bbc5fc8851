"""FILA's image list sets, built once per (sub)problem (``build_lists``).

**Image list sets** (the seed's ``A[c][z]``).  For heuristic ``h`` and cell ``v``, the neighbours
whose state is not known in advance are listed in ILSI bit order (bit 5 = -x, 4 = -y, 3 = -z,
2 = +x, 1 = +y, 0 = +z); a neighbour is known when it does not exist in the subproblem (it reads
as occupied) or, for a fixed-order heuristic, when it comes earlier in the order (POF: it must
already be filled).  The *compact* ILSI ``z`` packs the occupancy of the unknown neighbours only:
the seed's ``getIlsiXX``, which never looks at known neighbours, with the known bits dropped, so
no set is built for a state that cannot occur.  Row ``b = h*V + v`` of ``ilsi`` (``IL_SIZE`` = 8
int64, one cache line; ``fila_layout``) holds the cell's first set, its number ``n`` of unknown
neighbours and those neighbours; the unused slots name ``v`` itself, which is open whenever
``v`` is the target, so ``z`` is a fixed-length sum with no branches
(``fila_occupancy.target_set``).  Set ``k`` holds one list per shape: entries
``lptr[k*Q + s] .. lptr[k*Q + s + 1]``, each an image's layout mask (``W`` words of ``lmask``)
and its image number (``limg``); ``nonempty[k]`` has bit ``s`` set iff that list is not empty.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime.bits import popcount
from .fila_layout import IL_FIRST, IL_N, IL_NB, IL_SIZE

#: The most unknown neighbours of a cell: the row's neighbour slots (one per face).
IL_NB_MAX = IL_SIZE - IL_NB


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
    # 2. The targets: an image goes to the lists of its target cells (under POF only the
    # first of its cells in the heuristic's order), in every compact ILSI in which its
    # covered unknown neighbours are open, i.e. every subset ``z`` of its ``free`` ones.
    # Bucketed by (heuristic, cell, shape), in image order, with their ``free`` masks.
    n_buckets = H * V * Q
    bptr = np.zeros(n_buckets + 1, dtype=np.int64)
    n_entries = 0
    cursor = bptr[:-1].copy()
    bimg = np.zeros(0, dtype=np.int64)
    bfree = np.zeros(0, dtype=np.int64)
    for sweep in range(2):
        if sweep == 1:
            for b in range(n_buckets):
                bptr[b + 1] += bptr[b]
            if n_entries > max_entries:
                return (-1, width, cells, left, ilsi, np.zeros(n_sets * Q + 1, dtype=np.int64),
                        np.zeros(n_sets, dtype=np.int64), np.zeros(0, dtype=np.uint64),
                        np.zeros(0, dtype=np.int32), nbmask, order, planes)
            cursor = bptr[:-1].copy()
            bimg = np.empty(bptr[n_buckets], dtype=np.int64)
            bfree = np.empty(bptr[n_buckets], dtype=np.int64)
        for a in range(n_img):
            s = img_s[a]
            if s < 0:
                continue
            i = img_ids[a]
            p0 = cell_ptr[i]
            p1 = cell_ptr[i + 1]
            for h in range(H):
                # Under POF an image is listed at its first cell only: go straight there.
                targets = 1 if pof[h] else p1 - p0
                for k in range(targets):
                    c = pof_first[h, i] if pof[h] else cell_idx[p0 + k]
                    r = (h * V + local_of[c]) * IL_SIZE
                    n = ilsi[r + IL_N]
                    covered = 0
                    for t in range(n):
                        u = ilsi[r + IL_NB + t]
                        if (img_mask[a * W + (u >> 6)] >> np.uint64(u & 63)) & np.uint64(1):
                            covered |= 1 << t
                    free = ((1 << n) - 1) & ~covered
                    b = (h * V + local_of[c]) * Q + s
                    if sweep == 0:
                        bptr[b + 1] += 1
                        n_entries += 1 << popcount(np.int64(free))
                    else:
                        bimg[cursor[b]] = a
                        bfree[cursor[b]] = free
                        cursor[b] += 1
    # 3. The lists, cell by cell in slot order (sets are numbered by heuristic, cell and
    # compact ILSI, a slot is a set's list for one shape): each cell's block of entries is
    # counted by (compact ILSI, shape), then filled, so the writes stay within the block.
    lptr = np.zeros(n_sets * Q + 1, dtype=np.int64)
    nonempty = np.zeros(n_sets, dtype=np.int64)
    lmask = np.empty(n_entries * W, dtype=np.uint64)     # every entry is written once
    limg = np.empty(n_entries, dtype=np.int32)
    fill_at = np.zeros((1 << IL_NB_MAX) * Q + 1, dtype=np.int64)
    e = 0
    for hv in range(H * V):
        r = hv * IL_SIZE
        first = ilsi[r + IL_FIRST]
        slots = (1 << ilsi[r + IL_N]) * Q
        fill_at[:slots + 1] = 0
        for s in range(Q):
            for j in range(bptr[hv * Q + s], bptr[hv * Q + s + 1]):
                free = bfree[j]
                z = free
                while True:
                    fill_at[z * Q + s + 1] += 1
                    if z == 0:
                        break
                    z = (z - 1) & free
        fill_at[0] = e
        for x in range(slots):
            if fill_at[x + 1]:
                nonempty[first + x // Q] |= np.int64(1) << (x % Q)
            fill_at[x + 1] += fill_at[x]
        for x in range(slots):
            lptr[first * Q + x] = fill_at[x]
        for s in range(Q):
            for j in range(bptr[hv * Q + s], bptr[hv * Q + s + 1]):
                a = bimg[j]
                i = img_ids[a]
                free = bfree[j]
                z = free
                while True:
                    x = fill_at[z * Q + s]
                    fill_at[z * Q + s] = x + 1
                    limg[x] = i
                    for w in range(W):
                        lmask[x * W + w] = img_mask[a * W + w]
                    if z == 0:
                        break
                    z = (z - 1) & free
        e = fill_at[slots - 1] if slots else e
    lptr[n_sets * Q] = e
    return (n_entries, width, cells, left, ilsi, lptr, nonempty, lmask, limg, nbmask, order,
            planes)
