"""The FILA occupancy sanity checker (``CPKIT_SANITY``): the search's state recomputed from the
images placed on its stack.

Between two kernel calls the search stands on a node of level ``l`` (``state[ST_LEVEL]``) with
``chosen[0..l-1]`` placed.  ``check`` rebuilds from those images alone (their cells read from the
problem's image lists, their shapes from the list each is filed in) what the kernel keeps
incrementally, and compares:

- the occupancy on entering every level ``0..l`` (``occ_stack``): the root's (the bits past the
  open cells set, nothing else), then each image added to the one above, never over an occupied
  cell; so the open cells are exactly those no placed image covers;
- the pieces left per shape (``left``: the problem's less the images placed of that shape, never
  negative) and the set of shapes with pieces left (``state[ST_AVAIL]``);
- where a deeper level uses E, the open-neighbour counts (the three bit planes of ``planes``) of
  every open cell at every level whose planes the search keeps.

It holds whenever the kernel returns (placing and removing an image keep it), and costs a pass
over the placed images and the open cells, in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .... import sanity
from . import fila_layout as L

NAME = "fila"
WORD = 64


class ImageTable:
    """Each image of a compiled problem (``fila_search.FilaProblem``): its cells (bits of the occupancy, a Python int) and its
    local shape, read from the lists it is filed in (any entry of an image holds its mask)."""

    def __init__(self, problem: Any):
        w, q = problem.words, max(problem.n_shapes, 1)
        images, first = np.unique(problem.limg, return_index=True)
        slot = np.searchsorted(problem.lptr, first, side="right") - 1
        self.mask = {int(i): words_int(problem.lmask[e * w:(e + 1) * w])
                     for i, e in zip(images, first)}
        self.shape = {int(i): int(s) for i, s in zip(images, slot % q)}


def words_int(words: np.ndarray) -> int:
    """The bits of ``words`` (64-bit words, word 0 lowest) as one integer."""
    return sum(int(word) << (WORD * k) for k, word in enumerate(words))


def check(problem: Any, images: ImageTable, state: np.ndarray, occ_stack: np.ndarray,
          chosen: np.ndarray, left: np.ndarray, planes: np.ndarray) -> None:
    """Raise ``SanityError`` unless the search's occupancy, pieces left and open-neighbour
    counts are those of the images ``chosen[0..level-1]`` placed on ``problem``."""
    sanity.calls[NAME] += 1
    w, v = problem.words, problem.n_cells
    level = int(state[L.ST_LEVEL])
    sanity.require(0 <= level <= problem.n_pieces, NAME, f"level {level} outside "
                   f"0..{problem.n_pieces}")
    outside = ((1 << (WORD * w)) - 1) ^ ((1 << v) - 1)
    occupied = outside
    placed = np.zeros(problem.n_shapes, dtype=np.int64)
    for depth in range(level + 1):
        found = words_int(occ_stack[depth * w:(depth + 1) * w])
        sanity.require(found == occupied, NAME,
                       f"the occupancy on entering level {depth} is not the root's plus the "
                       f"images placed above it (cells {_cells(found ^ occupied)} differ)")
        if depth < level:
            image = int(chosen[depth])
            sanity.require(image in images.mask, NAME, f"level {depth}: image {image} is in no "
                           f"list of this problem")
            mask = images.mask[image]
            sanity.require(mask & occupied == 0, NAME, f"level {depth}: image {image} covers "
                           f"occupied cells {_cells(mask & occupied)}")
            occupied |= mask
            placed[images.shape[image]] += 1
    expected = problem.left - placed
    sanity.require(bool((expected >= 0).all()), NAME,
                   f"more images placed than pieces of shapes {np.flatnonzero(expected < 0)}")
    sanity.require(np.array_equal(left[:problem.n_shapes], expected), NAME,
                   f"left {left[:problem.n_shapes].tolist()}, expected {expected.tolist()}")
    avail = sum(1 << s for s in np.flatnonzero(expected > 0).tolist())
    sanity.require(int(state[L.ST_AVAIL]) == avail, NAME,
                   f"ST_AVAIL {int(state[L.ST_AVAIL]):#x}, expected {avail:#x}")
    _check_planes(problem, occ_stack, level, planes)


def _check_planes(problem: Any, occ_stack: np.ndarray, level: int,
                  planes: np.ndarray) -> None:
    """The open-neighbour count of every open cell at the levels whose planes are kept: level
    0, and every level below one that a deeper use of E made the search update."""
    w, v = problem.words, problem.n_cells
    neighbours = [words_int(problem.nbmask[c * w:(c + 1) * w]) for c in range(v)]
    for depth in range(level + 1):
        if depth > 0 and not problem.e_below[depth - 1]:
            break                           # not kept from here down (no E below)
        free = ~words_int(occ_stack[depth * w:(depth + 1) * w])
        at = depth * 3 * w
        bits = [words_int(planes[at + b * w:at + (b + 1) * w]) for b in range(3)]
        for c in range(v):
            if free >> c & 1:
                count = sum((bits[b] >> c & 1) << b for b in range(3))
                expected = (neighbours[c] & free).bit_count()
                sanity.require(count == expected, NAME,
                               f"level {depth}: cell {c} counts {count} open neighbours, has "
                               f"{expected}")


def _cells(bits: int) -> list[int]:
    return [c for c in range(bits.bit_length()) if bits >> c & 1][:8]
