"""Scores of a board held as one orientation per cell, in numba, for the optimiser's loops.

The reference scorer is ``cpkit.models.score.score_board`` (it also checks the rules); these are
the same counts over the kernels' arrays, fast enough to call thousands of times a second, and
tested against it.  An edge counts when both its cells hold a tile; it is *matched* when they
show the same colour there and *broken* otherwise.
"""

from __future__ import annotations

from numba import njit

from ..models.board import EMPTY


@njit(cache=True)
def matched_edges(colour, neighbour, board):
    """The matched edges of ``board`` (each edge once: from its north or west cell)."""
    matched = 0
    for c in range(board.shape[0]):
        o = board[c]
        if o == EMPTY:
            continue
        for s in (1, 2):                     # east, south
            m = neighbour[c, s]
            if m >= 0 and board[m] != EMPTY and colour[o, s] == colour[board[m], s ^ 2]:
                matched += 1
    return matched


@njit(cache=True)
def cell_breaks(colour, neighbour, board, out):
    """``out[c]``: the broken edges around cell ``c`` (0 to 4)."""
    for c in range(board.shape[0]):
        out[c] = 0
    for c in range(board.shape[0]):
        o = board[c]
        if o == EMPTY:
            continue
        for s in (1, 2):
            m = neighbour[c, s]
            if m >= 0 and board[m] != EMPTY and colour[o, s] != colour[board[m], s ^ 2]:
                out[c] += 1
                out[m] += 1


@njit(cache=True)
def breaks_touching(colour, neighbour, board, inside):
    """The broken edges with at least one cell where ``inside`` is non-zero (all of them when
    ``inside`` is all ones)."""
    broken = 0
    for c in range(board.shape[0]):
        o = board[c]
        if o == EMPTY:
            continue
        for s in (1, 2):
            m = neighbour[c, s]
            if m >= 0 and board[m] != EMPTY and (inside[c] or inside[m]) \
                    and colour[o, s] != colour[board[m], s ^ 2]:
                broken += 1
    return broken
