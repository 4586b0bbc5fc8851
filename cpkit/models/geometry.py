"""Cells of the cubic lattice and the groups that act on them.

A cell is an ``(x, y, z)`` tuple of ints.  A *shape* is a frozenset-like sorted tuple of cells
translated so its minimum corner is the origin (``normalize``).  Transformations are 3x3 integer
matrices: the 24 proper rotations of the cube, the 48 rotations and reflections, and the 4
rotations about the z axis used by one-sided (flat, never flipped) pieces.

Planar puzzles need no group of their own: they use the 3D rotations, and bounding the images to
a box one cell thick keeps exactly the rotations that leave the piece in the plane (8 for a free
polyomino; its flips are half-turns through the third dimension).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from typing import Iterable

import numpy as np

Cell = tuple[int, int, int]
Shape = tuple[Cell, ...]


def normalize(cells: Iterable[Cell]) -> Shape:
    """Sorted cells translated so that the minimum of each coordinate is 0."""
    cells = list(cells)
    if not cells:
        return ()
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cells))


def transform(cells: Iterable[Cell], matrix: np.ndarray) -> list[Cell]:
    """Apply a 3x3 integer matrix to each cell (no translation)."""
    arr = np.asarray(list(cells), dtype=np.int64).reshape(-1, 3)
    out = arr @ np.asarray(matrix, dtype=np.int64).T
    return [tuple(int(v) for v in row) for row in out]


@lru_cache(maxsize=None)
def _signed_permutation_matrices() -> tuple[np.ndarray, ...]:
    """All 48 signed permutation matrices, ordered deterministically (identity first)."""
    mats = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for row, (col, sign) in enumerate(zip(perm, signs)):
                m[row, col] = sign
            mats.append(m)
    mats.sort(key=lambda m: (not np.array_equal(m, np.eye(3, dtype=np.int64)), m.tolist()[::-1]))
    for m in mats:
        m.setflags(write=False)
    return tuple(mats)


@lru_cache(maxsize=None)
def group(kind: str) -> tuple[np.ndarray, ...]:
    """The transformation group named ``kind``.

    ``"rotations"``: the 24 proper rotations (determinant +1);
    ``"mirror"``: all 48 rotations and reflections;
    ``"planar"``: the 4 rotations about the z axis (one-sided polyominoes).
    """
    mats = _signed_permutation_matrices()
    if kind == "mirror":
        return mats
    proper = tuple(m for m in mats if round(np.linalg.det(m)) == 1)
    if kind == "rotations":
        return proper
    if kind == "planar":
        return tuple(m for m in proper if m[2, 2] == 1)
    raise ValueError(f"unknown transformation group {kind!r}")


def orientations(cells: Iterable[Cell], kind: str) -> list[Shape]:
    """Distinct normalized orientations of ``cells`` under ``group(kind)``, in group order."""
    return list(_orientations(_shape_key(cells), kind))


def _shape_key(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """``cells`` as a tuple of int triples (the caches' key); a piece's cells already are."""
    if isinstance(cells, tuple) and all(type(c) is tuple for c in cells):
        return cells
    return tuple(tuple(int(v) for v in c) for c in cells)


@lru_cache(maxsize=4096)
def _orientations(cells: tuple[Cell, ...], kind: str) -> tuple[Shape, ...]:
    """``orientations`` of one drawing of a piece, computed once per process: a puzzle builds
    them for every piece, and the automatic configuration builds a puzzle per orientation."""
    return tuple(dict.fromkeys(_images(cells, kind)))


#: Each drawing met as an image of another (``_images``), by kind of group: that drawing and
#: the index of the transform that gives it.  At most ``IMAGES_KEPT`` of them.
_IMAGE_OF: dict[tuple[Shape, str], tuple[Shape, int]] = {}
#: Every transform's image of a drawing turned by ``_images`` (the drawings ``_IMAGE_OF`` names).
_TURNED: dict[tuple[Shape, str], tuple[Shape, ...]] = {}
IMAGES_KEPT = 100_000


def _images(cells: tuple[Cell, ...], kind: str) -> tuple[Shape, ...]:
    """Each transform's image of the drawing ``cells``, normalized, in group order (repeats
    kept).  The images of an image are read off the first drawing's by the group's product
    (``products``), not turned again: the automatic configuration builds its oriented puzzles
    from the canonical drawings of the pieces, each an image of the file's (in a fresh
    process the 20 x 3's oriented puzzle took 2.0-3.2 ms to build turning them, 0.8-1.1 ms
    reading them off)."""
    seen = _IMAGE_OF.get((cells, kind))
    if seen is not None:
        base, h = seen
        images = _TURNED[base, kind]
        return tuple(images[g] for g in products(kind)[:, h].tolist())
    arr = np.asarray(cells, dtype=np.int64).reshape(-1, 3)
    mats = stacked(kind)
    # Every transform at once, each image moved to the origin.
    lo, hi = arr.min(axis=0), arr.max(axis=0)
    moved = arr @ mats.transpose(0, 2, 1)
    moved -= bounds_under(mats, lo, hi)[0][:, None, :]
    # Each image's cells sorted (x, then y, then z).
    moved = sorted_cells(moved, (0, 1, 2))[0]
    images = tuple(tuple(map(tuple, image)) for image in moved.tolist())
    if len(_IMAGE_OF) > IMAGES_KEPT:
        _IMAGE_OF.clear()
        _TURNED.clear()
    _TURNED[cells, kind] = images
    for h, image in enumerate(images):
        _IMAGE_OF.setdefault((image, kind), (cells, h))
    return images


@lru_cache(maxsize=None)
def products(kind: str) -> np.ndarray:
    """The group's product table: ``products(kind)[g, h]`` is the index of the transform
    ``group(kind)[g] @ group(kind)[h]`` (the group is closed: every product is in it)."""
    mats = stacked(kind)
    # Each matrix (entries -1, 0 and 1) by its base-3 code; every product at once.
    weights = 3 ** np.arange(9, dtype=np.int64).reshape(3, 3)
    codes = ((mats + 1) * weights).sum(axis=(1, 2))
    product_codes = ((np.einsum("gij,hjk->ghik", mats, mats) + 1) * weights).sum(axis=(2, 3))
    order = np.argsort(codes)
    return order[np.searchsorted(codes[order], product_codes)]


def sorted_cells(images: np.ndarray, axes: tuple[int, int, int]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The cells of each image (images, cells, 3; coordinates >= 0) sorted by ``axes[0]``,
    then ``axes[1]``, then ``axes[2]``, and each cell's rank in that order (images, cells),
    sorted alike: equal rows of ranks are equal images."""
    side = int(images.max()) + 1
    a, b, c = axes
    rank = (images[:, :, a] * side + images[:, :, b]) * side + images[:, :, c]
    order = np.argsort(rank, axis=1)
    return (np.take_along_axis(images, order[:, :, None], axis=1),
            np.take_along_axis(rank, order, axis=1))


@lru_cache(maxsize=None)
def stacked(kind: str) -> np.ndarray:
    """``group(kind)`` as one array (transforms, 3, 3)."""
    return np.stack(group(kind)).astype(np.int64)


def bounds_under(mats: np.ndarray, lo: np.ndarray, hi: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The low and high corners of the box ``lo``..``hi`` under each signed permutation of
    ``mats`` (transforms, 3, 3), without moving a cell: each axis of the image is an axis of
    the box, its low end the image of that axis's low end, or of its high end if reversed."""
    ahead, reversed_ = np.maximum(mats, 0), np.minimum(mats, 0)
    return ahead @ lo + reversed_ @ hi, ahead @ hi + reversed_ @ lo


def canonical(cells: Iterable[Cell], kind: str) -> Shape:
    """A representative that is equal for two cell sets iff one is a transform of the other."""
    return _canonical(_shape_key(cells), kind)


@lru_cache(maxsize=4096)
def _canonical(cells: tuple[Cell, ...], kind: str) -> Shape:
    return min(_orientations(cells, kind))


def neighbours(cell: Cell) -> list[Cell]:
    """The six face neighbours of a cell."""
    x, y, z = cell
    return [(x - 1, y, z), (x + 1, y, z), (x, y - 1, z), (x, y + 1, z), (x, y, z - 1), (x, y, z + 1)]


def is_connected(cells: Iterable[Cell]) -> bool:
    """True if the cells form one face-connected component (the empty set counts as connected)."""
    return _connected(_shape_key(cells))


@lru_cache(maxsize=4096)
def _connected(cells: tuple[Cell, ...]) -> bool:
    """``is_connected``, once per drawing: every puzzle built checks each of its pieces."""
    return len(component_sizes(cells)) <= 1


def component_sizes(cells: Iterable[Cell]) -> list[int]:
    """The number of cells in each face-connected part of ``cells``."""
    left = set(cells)
    sizes = []
    while left:
        stack = [left.pop()]
        size = 1
        while stack:
            for nb in neighbours(stack.pop()):
                if nb in left:
                    left.remove(nb)
                    stack.append(nb)
                    size += 1
        sizes.append(size)
    return sizes
