"""Dancing-links operations over arrays (Knuth's dlx1 with the multiplicities of Algorithm M).

The DLX kernels (``dlx_kernel``) and the dynamic filters (``dlx_filters``) change the matrix
only through these: hiding and unhiding an option's nodes, covering and uncovering an item,
committing an option (X5) and its exact inverse (X6), removing a whole option (the filters'),
and the start of an item's options and the tweak of Algorithm M (an option taken as the first of
an item needed several times stays hidden while its successors are tried).  The link arrays are
those of ``cpkit.models.arrays.CoverArrays``: ``llink``/``rlink`` over the items (0 the root),
``length`` and ``need`` per item, ``top``/``ulink``/``dlink`` per node (spacers have
``top <= 0``).  Every function undoes exactly what its pair did, in reverse order, so the matrix
is restored bit for bit when the search backtracks (``dlx_sanity`` checks it).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, _nrt=False)
def hide(p, length, top, ulink, dlink):
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
def unhide(p, length, top, ulink, dlink):
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
def cover(i, llink, rlink, length, top, ulink, dlink):
    p = dlink[i]
    while p != i:
        hide(p, length, top, ulink, dlink)
        p = dlink[p]
    lft = llink[i]
    rgt = rlink[i]
    rlink[lft] = rgt
    llink[rgt] = lft


@njit(cache=True, _nrt=False)
def uncover(i, llink, rlink, length, top, ulink, dlink):
    lft = llink[i]
    rgt = rlink[i]
    rlink[lft] = i
    llink[rgt] = i
    p = ulink[i]
    while p != i:
        unhide(p, length, top, ulink, dlink)
        p = ulink[p]


@njit(cache=True, _nrt=False)
def commit(x, llink, rlink, length, need, top, ulink, dlink):
    """Account for the items of option ``x`` other than the branching item (X5)."""
    p = x + 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = ulink[p]
        else:
            need[j] -= 1
            if need[j] == 0:
                cover(np.int64(j), llink, rlink, length, top, ulink, dlink)
            p += 1


@njit(cache=True, _nrt=False)
def uncommit(x, llink, rlink, length, need, top, ulink, dlink):
    """Exact inverse of ``commit`` (X6)."""
    p = x - 1
    while p != x:
        j = top[p]
        if j <= 0:
            p = dlink[p]
        else:
            if need[j] == 0:
                uncover(j, llink, rlink, length, top, ulink, dlink)
            need[j] += 1
            p -= 1


@njit(cache=True, _nrt=False)
def hide_option(p, llink, length, top, ulink, dlink):
    """Remove the whole option of node ``p`` (every node, ``p`` included) from the matrix."""
    hide(p, length, top, ulink, dlink)
    j = top[p]
    u = ulink[p]
    d = dlink[p]
    dlink[u] = d
    ulink[d] = u
    length[j] -= 1


@njit(cache=True, _nrt=False)
def unhide_option(p, llink, length, top, ulink, dlink):
    j = top[p]
    u = ulink[p]
    d = dlink[p]
    dlink[u] = p
    ulink[d] = p
    length[j] += 1
    unhide(p, length, top, ulink, dlink)


@njit(cache=True, inline="always")
def start_item(level, i, need, llink, rlink, length, top, ulink, dlink, mode, tweak_base, ttop):
    """X4: start branching on item ``i`` at ``level`` (cover it now if it is needed once)."""
    if need[i] == 1:
        mode[level] = 0
        cover(i, llink, rlink, length, top, ulink, dlink)
        need[i] = 0
    else:
        mode[level] = 1
        tweak_base[level] = ttop


@njit(cache=True, inline="always")
def tweak(x, i, length, top, ulink, dlink, tweak_stack, ttop):
    """Hide option ``x``, the first in item ``i``'s list, and push it on the tweak stack."""
    hide(x, length, top, ulink, dlink)
    d = dlink[x]
    dlink[i] = d
    ulink[d] = i
    length[i] -= 1
    tweak_stack[ttop] = x
    return ttop + 1
