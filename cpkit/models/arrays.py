"""Frozen bundles of C-contiguous integer arrays: the only things that cross into numba.

``CoverArrays`` is Knuth's dancing-links memory layout for an exact cover (dlx1, with the
multiplicity field of Algorithm M): items ``1..N`` with the root ``0`` (primary items ``1..P`` on
the root's doubly linked list, secondary items linked to themselves), and a node array holding,
for every option, a spacer followed by one node per item of the option.  A pointer is an array
index.  ``top[x]`` is the item of node ``x`` (``<= 0`` marks a spacer); for a spacer, ``ulink``
points at the first node of the previous option and ``dlink`` at the last node of the next one,
which lets ``hide`` walk round an option without left/right links.
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
        order = np.lexsort((nodes, items))
        s_nodes, s_items = nodes[order], items[order]
        length = np.zeros(n + 1, dtype=np.int32)
        np.add.at(length, s_items, 1)
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
