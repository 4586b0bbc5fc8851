"""Frozen bundles of C-contiguous integer arrays: the only things that cross into numba.

``CoverArrays`` is Knuth's dancing-links memory layout for an exact cover (dlx1, with the
multiplicity field of Algorithm M): items ``1..N`` with the root ``0`` (primary items ``1..P`` on
the root's doubly linked list, secondary items linked to themselves), and a node array holding,
for every option, a spacer followed by one node per item of the option.  A pointer is an array
index.  ``top[x]`` is the item of node ``x`` (``<= 0`` marks a spacer); for a spacer, ``ulink``
points at the first node of the previous option and ``dlink`` at the last node of the next one,
which lets ``hide`` walk round an option without left/right links.

``BoardArrays`` is an edge-matching puzzle: neighbours, orientations with their packed colours,
and the colour pairs of every tile (the ColorPair propagator's index).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CoverArrays:
    n_primary: int
    n_items: int
    llink: np.ndarray       # int32[N+1]: item list
    rlink: np.ndarray       # int32[N+1]
    length: np.ndarray      # int32[N+1]: options still in each item's list
    need: np.ndarray        # int32[N+1]: times each item must still be covered (secondary: 1)
    top: np.ndarray         # int32[T]: item of each node, <= 0 for spacers
    ulink: np.ndarray       # int32[T]
    dlink: np.ndarray       # int32[T]
    row_of: np.ndarray      # int32[T]: option number of each node, -1 for headers and spacers
    option_first: np.ndarray  # int32[n_options]: first node of each option

    @classmethod
    def build(cls, n_primary: int, n_items: int, option_ptr: np.ndarray,
              option_items: np.ndarray, need: np.ndarray) -> "CoverArrays":
        n_opts = len(option_ptr) - 1
        nnz = int(option_ptr[-1])
        n = n_items
        total = n + 2 + n_opts + nnz
        top = np.zeros(total, dtype=np.int32)
        ulink = np.zeros(total, dtype=np.int32)
        dlink = np.zeros(total, dtype=np.int32)
        row_of = np.full(total, -1, dtype=np.int32)

        lengths = np.diff(option_ptr).astype(np.int64)
        k = np.arange(n_opts, dtype=np.int64)
        spacer = n + 1 + k + option_ptr[:-1]                  # spacer before option k
        first = spacer + 1
        last = spacer + lengths
        final_spacer = n + 1 + n_opts + nnz

        # Option nodes, in node order.
        owner = np.repeat(k, lengths)
        nodes = n + 2 + owner + np.arange(nnz, dtype=np.int64)
        items = option_items.astype(np.int64) + 1
        top[nodes] = items
        row_of[nodes] = owner

        # Spacers.
        top[spacer] = -k
        top[final_spacer] = -n_opts
        if n_opts:
            ulink[spacer[1:]] = first[:-1]
            dlink[spacer] = last
            ulink[final_spacer] = first[-1]

        # Vertical lists: nodes of each item in increasing node order, closed through the header.
        order = np.argsort(items, kind="stable")       # nodes increase already
        s_nodes, s_items = nodes[order], items[order]
        length = np.bincount(s_items, minlength=n + 1).astype(np.int32)
        if nnz:
            same_next = np.empty(nnz, dtype=bool)
            same_next[:-1] = s_items[1:] == s_items[:-1]
            same_next[-1] = False
            nxt = np.where(same_next, np.roll(s_nodes, -1), s_items)
            same_prev = np.empty(nnz, dtype=bool)
            same_prev[1:] = s_items[1:] == s_items[:-1]
            same_prev[0] = False
            prv = np.where(same_prev, np.roll(s_nodes, 1), s_items)
            dlink[s_nodes] = nxt
            ulink[s_nodes] = prv
            starts = ~same_prev
            ends = ~same_next
            dlink[s_items[starts]] = s_nodes[starts]
            ulink[s_items[ends]] = s_nodes[ends]
        empty_items = np.flatnonzero(length[1:] == 0) + 1
        dlink[empty_items] = empty_items
        ulink[empty_items] = empty_items

        # Item list: root 0 and primary items 1..P in a circle; secondary items self-linked.
        llink = np.arange(n + 1, dtype=np.int32)
        rlink = np.arange(n + 1, dtype=np.int32)
        ring = np.arange(n_primary + 1, dtype=np.int32)
        rlink[ring] = np.roll(ring, -1)
        llink[ring] = np.roll(ring, 1)

        need_full = np.ones(n + 1, dtype=np.int32)
        need_full[1:n_primary + 1] = need
        need_full[0] = 0
        return cls(n_primary, n_items, llink, rlink, length, need_full, top, ulink, dlink,
                   row_of, first.astype(np.int32))

    def fresh(self) -> tuple[np.ndarray, ...]:
        """Private copies of the arrays a search mutates: llink, rlink, length, need, ulink, dlink."""
        return (self.llink.copy(), self.rlink.copy(), self.length.copy(), self.need.copy(),
                self.ulink.copy(), self.dlink.copy())

    def fresh_sources(self) -> tuple[np.ndarray, ...]:
        """The pristine arrays ``fresh`` copies, in the same order (read only)."""
        return (self.llink, self.rlink, self.length, self.need, self.ulink, self.dlink)


@dataclass(frozen=True)
class BoardArrays:
    """An edge-matching puzzle for the engines (``cpkit.models.edge_matching.compile_board``).

    Cells are numbered ``y * width + x`` from the bottom-left corner; sides 0..3 are north, east,
    south, west.  An *orientation* is a tile with one of its distinct rotations; orientations are
    numbered tile by tile (``tile_ori_start`` is the CSR index).  Colours take ``n_values`` values
    (grey 0 included) and fit in one byte, so ``ori_packed`` holds an orientation's four colours,
    north in the low byte.  Colour pairs are numbered as in ``cpkit.models.edge_matching``.
    """

    width: int
    height: int
    n_cells: int
    n_tiles: int
    n_values: int
    n_pairs: int
    nbr: np.ndarray             # int32[n_cells, 4]: neighbour cell per side, -1 for the frame
    ori_tile: np.ndarray        # int32[n_ori]: tile of each orientation
    ori_rot: np.ndarray         # int32[n_ori]: its (smallest) rotation
    ori_col: np.ndarray         # int32[n_ori, 4]: colours shown north, east, south, west
    ori_packed: np.ndarray      # int64[n_ori]: the same, one byte per side
    tile_ori_start: np.ndarray  # int32[n_tiles + 1]
    tile_pairs: np.ndarray      # int32[n_tiles, 6]: distinct pairs of each tile, -1 padded
    tile_n_pairs: np.ndarray    # int32[n_tiles]
    hint_cell: np.ndarray       # int32[n_hints]
    hint_ori: np.ndarray        # int32[n_hints]: orientation placed on the hint's cell

    @property
    def n_orientations(self) -> int:
        return len(self.ori_tile)

    @property
    def scan_order(self) -> np.ndarray:
        """The cells column by column from the bottom-left corner, each column bottom up: the
        brute force's order (the paper's lexicographic order), which the CP search can share
        (``--heuristic scan``) so that the two differ only by propagation."""
        x, y = np.divmod(np.arange(self.n_cells), self.height)
        return (y * self.width + x).astype(np.int32)
