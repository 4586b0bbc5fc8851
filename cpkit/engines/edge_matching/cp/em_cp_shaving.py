"""The edge-matching CP search's shaving: its hooks for the shaving driver
(``cpkit.propagators.shaving``) and the exclusions it leaves behind.

At the node entered at ``level`` (its placements belong to level ``level - 1``), every empty cell
that demands a pair and has at most ``G_SHAVE`` candidates has each tried (placed, propagated,
taken back); the values that fail at once are excluded (with the failure's reason, resolved past
the trial); a cell left with no value fails the node, a cell left with one gets it (a propagated
placement; a cell that had a single candidate gets it without a trial first).  Passes repeat
while they place something (a fixed point: exclusions alone change no other cell's trials).  On
a failure the explanation is in the propagator's first scratch row.

An exclusion (cell, orientation) is trailed (``G_XTOP``) and chained per cell (``O_XHEAD``);
branching skips excluded values (``drop_excluded``), and ``why_not`` adds their reasons to an
explanation.  The place of a paused pass is in ``g`` (``G_SHAVE_*``), the current cell's
candidates in ``cand`` from ``base``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....propagators import colorpair as cp
from ....propagators import colorpair_layout as lay
from ....propagators import explain as ex
from ....propagators import shaving as sh
from ....propagators.sparse_set import ix
from .em_cp_layout import *  # noqa: F403  (the search's G_*, O_* fields)


# ---------------------------------------------------------------------------------- exclusions
@njit(cache=False)
def undo_exclusions(m, g, mark):
    xtrail = g[O_XTRAIL]
    xhead = g[O_XHEAD]
    while g[G_XTOP] > mark:
        g[G_XTOP] -= 1
        e = xtrail + 3 * g[G_XTOP]
        m[ix(xhead + m[ix(e)])] = m[ix(e + 2)]


@njit(cache=False)
def exclude(m, g, c, o):
    """Remember that orientation ``o`` fails on cell ``c``; returns the exclusion's index."""
    k = g[G_XTOP]
    e = g[O_XTRAIL] + 3 * k
    head = g[O_XHEAD] + c
    m[ix(e)] = c
    m[ix(e + 1)] = o
    m[ix(e + 2)] = m[ix(head)]
    m[ix(head)] = k
    g[G_XTOP] = k + 1
    return k


@njit(cache=False)
def drop_excluded(m, g, c, cand, base, end):
    """Remove the excluded orientations of ``c`` from ``m[cand + base:cand + end]``; new end."""
    xtrail = g[O_XTRAIL]
    first = m[ix(g[O_XHEAD] + c)]
    if first < 0:
        return end
    out = base
    for i in range(base, end):
        o = m[ix(cand + i)]
        k = first
        excluded = False
        while k >= 0:
            if m[ix(xtrail + 3 * k + 1)] == o:
                excluded = True
                break
            k = m[ix(xtrail + 3 * k + 2)]
        if not excluded:
            m[ix(cand + out)] = o
            out += 1
    return out


@njit(cache=False)
def why_not(st, m, g, c, row):
    """Added to ``row``: why no value outside the candidates of ``c`` (minus its exclusions) can
    go on it -- the restriction explanation and every exclusion's reason."""
    w = g[lay.G_WORDS]
    ex.restriction(st, m, g, c, row)
    xtrail = g[O_XTRAIL]
    xreason = g[O_XREASON]
    k = m[ix(g[O_XHEAD] + c)]
    while k >= 0:
        ex.union(g, row, xreason + k * w, w)
        k = m[ix(xtrail + 3 * k + 2)]


# ---------------------------------------------------------------------------------- shaving
# The hooks' ``ctx`` is (st, m, g, level, cand, base).
@njit(cache=False, inline="always")
def _shave_begin(ctx, c):
    """The first index of ``c``'s candidates if it is shaved (empty, two known sides, a demand,
    at most ``G_SHAVE`` candidates once its exclusions are dropped); else -1."""
    st, m, g, level, cand, base = ctx
    r = g[lay.O_CELLS] + c * lay.CELL_STRIDE
    if m[ix(r + lay.C_ORI)] >= 0 or m[ix(r + lay.C_KNOWN)] < 2:
        return np.int64(-1)
    demands = False
    for k in range(lay.N_SLOTS):
        if m[ix(r + lay.C_DPAIR + k)] >= 0:
            demands = True
    if not demands:
        return np.int64(-1)
    end = cp.candidates(st, m, g, c, cand, base)
    end = drop_excluded(m, g, c, cand, base, end)
    if end - base > g[G_SHAVE]:
        return np.int64(-1)
    g[G_SHAVE_SURVIVORS] = 0
    g[G_SHAVE_LAST] = -1
    if end - base == 1:
        # A single value: placing it is its own trial (a failure fails the node).
        g[G_SHAVE_SURVIVORS] = 1
        g[G_SHAVE_LAST] = m[ix(cand + base)]
        end = base
    g[G_SHAVE_END] = end
    return np.int64(base)


@njit(cache=False, inline="always")
def _shave_value(ctx, c, at):
    st, m, g, level, cand, base = ctx
    if at >= g[G_SHAVE_END]:
        return np.int64(sh.END)
    return np.int64(m[ix(cand + at)])


@njit(cache=False, inline="always")
def _shave_try(ctx, c, o):
    """Try ``o`` on ``c``: a failure excludes it (while the pool has room), with its reason;
    a failure that does not depend on ``c`` fails the node."""
    st, m, g, level, cand, base = ctx
    explain = g[lay.G_EXPLAIN] != 0
    w = g[lay.G_WORDS]
    fail = g[lay.O_XROW]
    mark = g[lay.G_TRAIL]
    g[lay.G_LEVEL_NOW] = level
    m[ix(g[lay.O_LEVEL] + c)] = level
    g[G_TRIALS] += 1
    cp.assign(st, m, g, c, o)
    if cp.propagate(st, m, g):
        g[G_SHAVE_SURVIVORS] += 1
        g[G_SHAVE_LAST] = o
    elif g[G_XTOP] < g[G_XCAP]:
        if explain:
            if not ex.resolve(st, m, g, fail, mark):
                # The failure does not depend on c: the node fails.
                cp.undo_to(st, m, g, mark)
                g[lay.G_LEVEL_NOW] = level - 1
                g[G_SHAVED_FAIL] += 1
                return sh.FAILED
            k = exclude(m, g, c, o)
            ex.copy(g, g[O_XREASON] + k * w, fail, w)
        else:
            exclude(m, g, c, o)
        g[G_REMOVED] += 1
    else:
        g[G_SHAVE_SURVIVORS] += 1
        g[G_SHAVE_LAST] = o
    cp.undo_to(st, m, g, mark)
    g[lay.G_LEVEL_NOW] = level - 1
    return sh.HELD


@njit(cache=False, inline="always")
def _shave_end(ctx, c):
    """A cell left with no value fails the node; one left with a single value gets it."""
    st, m, g, level, cand, base = ctx
    explain = g[lay.G_EXPLAIN] != 0
    w = g[lay.G_WORDS]
    survivors = g[G_SHAVE_SURVIVORS]
    if survivors == 0:
        g[G_SHAVED_FAIL] += 1
        g[lay.G_FAIL_KIND] = lay.F_CELL
        g[lay.G_FAIL_WHO] = c
        if explain:
            fail = g[lay.O_XROW]
            ex.clear(g, fail, w)
            why_not(st, m, g, c, fail)
        return sh.FAILED
    if survivors > 1:
        return sh.HELD
    if explain:
        reason = g[lay.O_REASON] + c * w
        ex.clear(g, reason, w)
        why_not(st, m, g, c, reason)
    m[ix(g[lay.O_LEVEL] + c)] = level - 1
    g[G_SHAVED_IN] += 1
    cp.assign(st, m, g, c, np.int64(g[G_SHAVE_LAST]))
    if not cp.propagate(st, m, g):
        return sh.FAILED
    return sh.CHANGED


_shave = sh.shaving_driver(_shave_begin, _shave_value, _shave_try, _shave_end)


@njit(cache=False)
def shave(st, m, g, level, cand, base, budget):
    """Shaving at the node entered at ``level`` (the module docstring), at most ``budget``
    trials: ``SHAVE_DONE``, ``SHAVE_FAILED`` or ``SHAVE_PAUSED`` (``cpkit.propagators.shaving``;
    ``start_shave`` sets the place of a first pass)."""
    return _shave((st, m, g, level, cand, base), g, G_SHAVE_CELL, G_SHAVE_AT, G_SHAVE_CHANGED,
                  g[lay.G_CELLS], budget)


@njit(cache=False, inline="always")
def start_shave(g):
    """Put shaving's place at the start of its first pass."""
    g[G_SHAVE_CELL] = 0
    g[G_SHAVE_AT] = -1
    g[G_SHAVE_END] = 0
    g[G_SHAVE_SURVIVORS] = 0
    g[G_SHAVE_LAST] = -1
    g[G_SHAVE_CHANGED] = 0
