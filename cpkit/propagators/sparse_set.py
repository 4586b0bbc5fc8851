"""Families of sparse sets in an int32 arena: O(1) insert, remove, membership, and restore.

A family holds ``S`` sets over the universe ``0 .. U-1`` and lives in a flat int32 array ``a``
(shared with other data: a "pointer" is an array index) at three offsets: ``mem``, ``where`` and
``size``.  Set ``s`` owns row ``s`` of the ``mem`` and ``where`` blocks: ``a[mem + s*U + i]``
lists the universe in some order, the first ``a[size + s]`` entries being the members, and
``a[where + s*U + e]`` is the position of ``e`` in that row.  Inserting or removing ``e`` swaps
it with the entry at the boundary and moves the boundary (the classical structure of the paper's
footnote 3).  Undoing an operation is the opposite operation, at the same cost, so a trail of
operations restores any earlier state.  The entries of a row beyond the size keep their values:
for a set that only ever loses elements they are exactly the elements removed (the paper's
``Unavailable`` for an Offer set).

These are numba functions over one array and scalars, inlined into their callers.

``ix``: kernels index their arenas with unsigned integers, ``a[ix(i)]``.  Numba adds a
negative-index wrap-around to every access through a signed index (three instructions and a
dependency); an unsigned index has none, which halves the instruction count of the ColorPair
propagator (measured with callgrind).  Indices are never negative here.
"""

from __future__ import annotations

import numpy as np
from numba import njit


#: Cast an index to unsigned (see the module docstring).
ix = np.uint64


def family_size(n_sets: int, universe: int) -> int:
    """int32 entries a family needs: its ``mem`` and ``where`` blocks and its sizes."""
    return 2 * n_sets * universe + n_sets


def init_family(a: np.ndarray, mem: int, where: int, size: int, n_sets: int,
                universe: int) -> None:
    """Make the family at these offsets ``n_sets`` empty sets."""
    row = np.tile(np.arange(universe, dtype=a.dtype), n_sets)
    a[mem:mem + n_sets * universe] = row
    a[where:where + n_sets * universe] = row
    a[size:size + n_sets] = 0


def new_family(n_sets: int, universe: int) -> tuple[np.ndarray, int, int, int]:
    """A standalone family: ``(a, mem, where, size)``."""
    a = np.zeros(family_size(n_sets, universe), dtype=np.int32)
    mem, where, size = 0, n_sets * universe, 2 * n_sets * universe
    init_family(a, mem, where, size, n_sets, universe)
    return a, mem, where, size


@njit(cache=True, inline="always")
def contains(a, where, size, universe, s, e):
    return a[ix(where + s * universe + e)] < a[ix(size + s)]


@njit(cache=True, inline="always")
def insert(a, mem, where, size, universe, s, e):
    """Add ``e`` (not a member) to set ``s``."""
    row = s * universe
    i = a[ix(where + row + e)]
    j = a[ix(size + s)]
    other = a[ix(mem + row + j)]
    a[ix(mem + row + j)] = e
    a[ix(where + row + e)] = j
    a[ix(mem + row + i)] = other
    a[ix(where + row + other)] = i
    a[ix(size + s)] = j + 1


@njit(cache=True, inline="always")
def remove(a, mem, where, size, universe, s, e):
    """Take ``e`` (a member) out of set ``s``."""
    row = s * universe
    i = a[ix(where + row + e)]
    j = a[ix(size + s)] - 1
    last = a[ix(mem + row + j)]
    a[ix(mem + row + j)] = e
    a[ix(where + row + e)] = j
    a[ix(mem + row + i)] = last
    a[ix(where + row + last)] = i
    a[ix(size + s)] = j


@njit(cache=True, inline="always")
def member(a, mem, universe, s, k):
    """The ``k``-th member of set ``s`` (``0 <= k < size``)."""
    return a[ix(mem + s * universe + k)]
