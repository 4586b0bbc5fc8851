"""FILA's occupancy and target selection, shared by the search (``fila_kernel``) and its
estimates (``fila_probe_kernel``), so both see exactly the same nodes.

**Occupancy.**  The open cells of the (sub)problem are numbered ``0..V-1`` and the occupancy is a
bit field of ``W`` 64-bit words (``V <= 64 W``, ``W <= 4``), held in the locals ``o0..o3``.  ``W``
is the length of the tuple ``wtag``: numba compiles one machine-code version per tuple length and
``W`` is a constant in each, so every ``if W > 1`` below disappears from the one-word version
(which therefore pays nothing for the wider ones).  Bits ``V..64W-1`` start set, so the holes are
exactly the zero bits.

The helpers that read it are inlined (``inline="always"``): the search's hot loop calls no
helper that takes an array (numba would count references to it on every call).  The E/S
selection (``select_by_fits``), which is large, is a function of its own so that the F path
keeps its registers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime.bits import lowest_bit
from .fila_layout import (CT_HEURISTIC_CHECKS, HK_NEIGHBOURS, IL_FIRST, IL_NB, IL_SIZE, MAX_COUNT,
                          NO_SET)


@njit(inline="always")
def occupied(W, c, o0, o1, o2, o3):
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
def compact_ilsi(W, width, a0, a1, a2, a3, a4, a5, o0, o1, o2, o3):
    """The compact ILSI from the (up to) six unknown neighbours ``a0..a5``; ``width`` is the
    most any cell of the problem has (a constant of the problem, so the branches predict)."""
    z = occupied(W, a0, o0, o1, o2, o3) | (occupied(W, a1, o0, o1, o2, o3) << 1)
    if width > 2:
        z |= (occupied(W, a2, o0, o1, o2, o3) << 2) | (occupied(W, a3, o0, o1, o2, o3) << 3)
        if width > 4:
            z |= (occupied(W, a4, o0, o1, o2, o3) << 4) | (occupied(W, a5, o0, o1, o2, o3) << 5)
    return z


@njit(inline="always")
def target_set(W, width, ilsi, r, o0, o1, o2, o3):
    """The image list set of the cell whose ``ilsi`` row starts at ``r``, under the occupancy:
    its first set plus the compact ILSI of its unknown neighbours."""
    return ilsi[r + IL_FIRST] + compact_ilsi(
        W, width, ilsi[r + IL_NB], ilsi[r + IL_NB + 1], ilsi[r + IL_NB + 2], ilsi[r + IL_NB + 3],
        ilsi[r + IL_NB + 4], ilsi[r + IL_NB + 5], o0, o1, o2, o3)


@njit(inline="always")
def overlap(W, lmask, b, o0, o1, o2, o3):
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
def first_hole(W, o0, o1, o2, o3):
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
def with_open_count(k, b0, b1, b2, hole):
    """The cells of ``hole`` (one word) whose open-neighbour count, read from the bit planes
    ``b0``, ``b1``, ``b2`` of that word, is ``k``."""
    m = hole
    m &= b0 if k & 1 else ~b0
    m &= b1 if k & 2 else ~b1
    m &= b2 if k & 4 else ~b2
    return m


@njit(cache=True, _nrt=False)
def select_by_fits(W, hv, kind, width, Q, avail, ilsi, planes, pb, nonempty, lptr, lmask, cand,
                    counters, o0, o1, o2, o3):
    """selectFila for E and S.  E: the holes with fewest open neighbours are the candidates;
    S: every hole.  Then the candidate (in cell order) whose set has fewest fits, counted with
    the seed's countFits (which stops at the best count so far); a lone candidate is not
    counted.  Returns the set.

    E reads each cell's open-neighbour count from the three bit planes ``planes[pb + b*W + w]``
    (bit ``b`` of the count of cell ``64 w + i`` is bit ``i`` of word ``w`` of plane ``b``),
    which the search keeps up to date as it places and removes images (``drop_neighbours``),
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
                any_ |= with_open_count(k, planes[pb + w], planes[pb + W + w],
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
            holes = with_open_count(fewest, planes[pb + w], planes[pb + W + w],
                                 planes[pb + 2 * W + w], holes)
        while holes:
            v = w * 64 + lowest_bit(holes)
            holes &= holes - np.uint64(1)
            cand[nc] = v
            nc += 1
    if nc == 1:
        # A lone candidate is chosen whatever its count: counting its fits would only scan
        # the lists the search then scans (half of E's calls on the square 8 x 8).
        return target_set(W, width, ilsi, (hv + cand[0]) * IL_SIZE, o0, o1, o2, o3)
    best = NO_SET
    fmin = MAX_COUNT
    checks = 0
    for i in range(nc):
        r = (hv + cand[i]) * IL_SIZE
        st = target_set(W, width, ilsi, r, o0, o1, o2, o3)
        # countFits(I, q, o, fmin)
        f = 0
        base = st * Q
        untried = nonempty[st] & avail
        while untried and f < fmin:
            s = lowest_bit(untried)
            untried &= untried - 1
            for e in range(lptr[base + s], lptr[base + s + 1]):
                checks += 1
                if overlap(W, lmask, e * W, o0, o1, o2, o3) == 0:
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
def drop_neighbours(W, lmask, b, nbmask, src, at, dst, to):
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
