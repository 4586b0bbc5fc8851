"""Estimates of what searching a compiled FILA (sub)problem costs, by stratified sampling.

``sample`` expands the tree that ``fila_kernel.search`` would search with the heuristic of
each level ``heur_of_level`` (F, E or S; the problem's image list sets must hold those
heuristics) level by level, keeping a population of at most ``population`` nodes per level,
each weighted by the number of nodes it stands for (see its text).  At every node it does
what the search does there (choose the target with the level's heuristic, try every image of
the target's lists for the shapes left), with the search's own selection and bookkeeping code
(``select_by_fits``, ``target_set``, ``drop_neighbours``, ``overlap``; ``fila_occupancy``), so it sees exactly
the nodes the search would.  Fixed orders other than F (``HK_ORDER``) are not sampled: the
automatic configuration, the only user, never schedules them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...runtime.bits import lowest_bit
from .fila_layout import *  # noqa: F403  (CT_*, HK_*, IL_*, NO_SET, W_*: the figures)
from .fila_occupancy import drop_neighbours, first_hole, overlap, select_by_fits, target_set


@njit(cache=True, _nrt=False)
def sample(wtag, n_cells, n_shapes, n_pieces, width, heur_of_level, heur_kind, e_below,
           lmask, lptr, nonempty, ilsi, nbmask, planes0, left0, population, rand,
           occ, planes, left, avail, weight, kids_occ, kids_planes, kids_left, kids_avail,
           picks, first_pick, cand, counters, totals):
    """Estimate the figures of the whole tree with a population of at most ``population``
    nodes per level (Chen's stratified sampling, one stratum per level; a particle filter).

    Level by level, every node of the population is expanded as the search would expand it
    (target chosen by the level's heuristic, every image of its lists tried), and its figures,
    times its weight, are added to ``totals``; its children inherit its weight.  If there are
    more than ``population`` children, ``population`` of them are drawn by systematic
    resampling, with probability proportional to weight, each then weighing the total over
    ``population``.  Every level's total weight is therefore an unbiased estimate of its number
    of nodes, and dead ends cost the estimate no walks: the population stays on the branches
    that live, which is where independent random walks (Knuth's) spend few of their samples,
    so their estimates of these trees are heavy-tailed (a relative error of about 0.5 over 300
    walks where this has about 0.1; docs/algorithms.md, "Choosing the engine").  ``rand[l]`` is
    the uniform offset of level ``l``'s resampling.  The arrays from ``occ`` to ``cand`` are
    scratch (``fila_probe.Sampler`` sizes them); ``totals`` receives the ``W_*`` figures."""
    W = len(wtag)
    V = n_cells
    Q = n_shapes
    P3 = 3 * W
    full, rest = divmod(V, 64)
    for x in range(totals.shape[0]):
        totals[x] = 0.0
    # The root.
    for w in range(W):
        occ[w] = np.uint64(0xFFFFFFFFFFFFFFFF)
    for w in range(full):
        occ[w] = np.uint64(0)
    if rest:
        occ[full] = np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(rest)
    for x in range(P3):
        planes[x] = planes0[x]
    a0 = 0
    for q in range(Q):
        left[q] = left0[q]
        if left0[q] > 0:
            a0 |= np.int64(1) << q
    avail[0] = a0
    weight[0] = 1.0
    n = 1
    work = 0
    for level in range(n_pieces + 1):
        if n == 0:
            break
        if level == n_pieces:
            for i in range(n):
                totals[W_SOLUTIONS] += weight[i]
            break
        h = heur_of_level[level]
        kind = heur_kind[h]
        hv = h * V
        n_picks = 0
        mass = 0.0
        for i in range(n):
            o0 = occ[i * W]
            o1 = occ[i * W + 1] if W > 1 else np.uint64(0)
            o2 = occ[i * W + 2] if W > 2 else np.uint64(0)
            o3 = occ[i * W + 3] if W > 3 else np.uint64(0)
            wi = weight[i]
            ai = avail[i]
            if kind == HK_FIRST:
                v = first_hole(W, o0, o1, o2, o3)
                r = (hv + v) * IL_SIZE
                st = target_set(W, width, ilsi, r, o0, o1, o2, o3)
                totals[W_F_NODES] += wi
            else:
                before = counters[CT_HEURISTIC_CHECKS]
                st = select_by_fits(W, hv, kind, width, Q, ai, ilsi, planes, i * P3,
                                     nonempty, lptr, lmask, cand, counters, o0, o1, o2, o3)
                checks = counters[CT_HEURISTIC_CHECKS] - before
                work += checks
                totals[W_CHECKS] += wi * checks
                totals[W_E_NODES if kind == HK_NEIGHBOURS else W_S_NODES] += wi
            first_pick[i] = n_picks
            tried = 0
            if st != NO_SET:
                base = st * Q
                untried = nonempty[st] & ai
                while untried:
                    q = lowest_bit(untried)
                    untried &= untried - 1
                    for e in range(lptr[base + q], lptr[base + q + 1]):
                        tried += 1
                        if overlap(W, lmask, e * W, o0, o1, o2, o3) == 0:
                            picks[2 * n_picks] = e
                            picks[2 * n_picks + 1] = q
                            n_picks += 1
            degree = n_picks - first_pick[i]
            work += tried
            totals[W_ATTEMPTS] += wi * tried
            totals[W_FITS] += wi * degree
            if e_below[level]:
                totals[W_E_PLACED] += wi * degree
            mass += wi * degree
        first_pick[n] = n_picks
        if n_picks == 0:
            n = 0
            break
        # The children: all of them, or ``population`` drawn by systematic resampling.
        keep = n_picks if n_picks <= population else population
        step = mass / keep
        point = rand[level] * step
        cum = 0.0
        m = 0
        for i in range(n):
            wi = weight[i]
            for j in range(first_pick[i], first_pick[i + 1]):
                if n_picks <= population:
                    chosen = 1
                else:
                    cum += wi
                    chosen = 0
                    while m + chosen < keep and point + (m + chosen) * step < cum:
                        chosen += 1
                for _ in range(chosen):
                    e = picks[2 * j]
                    q = picks[2 * j + 1]
                    b = np.uint64(e * W)
                    for w in range(W):
                        kids_occ[m * W + w] = occ[i * W + w] | lmask[b + np.uint64(w)]
                    for x in range(Q):
                        kids_left[m * Q + x] = left[i * Q + x]
                    kids_left[m * Q + q] -= 1
                    a = avail[i]
                    if kids_left[m * Q + q] == 0:
                        a &= ~(np.int64(1) << q)
                    kids_avail[m] = a
                    if e_below[level]:
                        drop_neighbours(W, lmask, b, nbmask, planes, i * P3, kids_planes,
                                         m * P3)
                    weight[population + m] = wi if n_picks <= population else step
                    m += 1
        n = m
        for x in range(n * W):
            occ[x] = kids_occ[x]
        for x in range(n * Q):
            left[x] = kids_left[x]
        for i in range(n):
            avail[i] = kids_avail[i]
            weight[i] = weight[population + i]
        if e_below[level]:
            for x in range(n * P3):
                planes[x] = kids_planes[x]
    totals[W_WORK] = work
