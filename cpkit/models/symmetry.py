"""Symmetries of a tiling puzzle, the rotational-redundancy filter, and exact counting up to them.

**The group.**  A transformation ``g`` (one of the 24 rotations for ``unique="rotation"``, one of
the 48 rotations and reflections for ``"mirror"``), followed by the translation that puts the
region back on its bounding box, is a symmetry of the puzzle when it maps the free region onto
itself and maps the multiset of mobile shapes onto itself (each shape's image, under the pieces'
own transformations, is a shape with the same number of copies).  Then it maps every solution to
a solution.  One-sided pieces restrict the group: turning a board of one-sided pieces over turns
each piece into its mirror image, which is a symmetry only if those mirror images are pieces too.
Stationary pieces only shape the region; the region is what must be preserved.

**The filter.**  Pick a piece ``P`` whose shape is unique.  The symmetries that keep ``P``'s
shape (``H_P``) permute ``P``'s images in orbits; keeping one image per orbit (the one with the
smallest cell numbers, i.e. packed towards the low corner) means the search only finds the
solutions ``F`` whose ``P`` sits on a kept image.  Every class of symmetric solutions meets ``F``,
usually exactly once.

**Exact counting.**  Not always exactly once: a kept image may be fixed by a symmetry (a 1x1x1
cube at the centre of a 3x3x3 box), ``H_P`` may be smaller than the group (a chiral piece under
reflections), or no piece is unique.  So a found solution ``S`` is counted iff no symmetric copy
``h(S)`` that is also in ``F`` is smaller (as a sorted tuple of image numbers).  Each class then
counts once, and the check is skipped entirely when it provably never rejects (every kept image
has a trivial stabiliser and ``H_P`` is the whole group).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from .. import _aot
from ..errors import InputError
from .geometry import canonical, group, neighbours, transform
from .tiling import Puzzle


@dataclass(frozen=True)
class Symmetry:
    """Cell map ``c -> matrix @ c + shift`` that maps the region onto itself."""

    matrix: np.ndarray
    shift: np.ndarray
    reflection: bool

    def apply(self, cells: np.ndarray) -> np.ndarray:
        return cells @ self.matrix.T + self.shift


def puzzle_symmetries(puzzle: Puzzle, unique: str) -> list[Symmetry]:
    """The symmetry group for a counting mode ("raw": identity only); identity first."""
    if unique not in ("raw", "rotation", "mirror"):
        raise InputError(f"unknown counting mode {unique!r}")
    kind = {"raw": None, "rotation": "rotations", "mirror": "mirror"}[unique]
    mats = group(kind) if kind else group("rotations")[:1]
    coords = puzzle.cell_coords.astype(np.int64)
    grid = puzzle.index_grid
    box = np.array(grid.shape)
    lo = coords.min(axis=0)
    piece_kind = puzzle.group_kind
    canon_count = {canonical(s.orientations[0], piece_kind): s.count for s in puzzle.shapes}
    out = []
    for m in mats:
        moved = coords @ m.T
        shift = lo - moved.min(axis=0)
        moved += shift
        # The map is one to one: the region maps onto itself iff every moved cell is in it
        # (a grid lookup: comparing sets of tuples took a second on 16,900 cells).
        if np.any(moved.max(axis=0) >= box) or \
                np.any(grid[moved[:, 0], moved[:, 1], moved[:, 2]] < 0):
            continue
        ok = all(canon_count.get(_canonical_after(s.orientations[0], m, piece_kind)) == s.count
                 for s in puzzle.shapes)
        if ok:
            out.append(Symmetry(m, shift, bool(round(np.linalg.det(m)) == -1)))
    return out


def _canonical_after(cells, m: np.ndarray, kind: str):
    """``canonical(transform(cells, m), kind)`` for a signed permutation ``m``, from the two
    canonical forms of the piece (as drawn, mirrored), without transforming it: ``m`` either
    belongs to the pieces' group or is a reflection of it (for one-sided pieces, a matrix that
    keeps the plane; any other falls back to transforming)."""
    if kind == "mirror":
        return canonical(cells, kind)
    if kind == "planar" and abs(m[2, 2]) != 1:
        return canonical(transform(cells, m), kind)
    part = m if kind == "rotations" else m[:2, :2]
    if round(np.linalg.det(part)) == 1:
        return canonical(cells, kind)
    return canonical(transform(cells, np.diag([-1, 1, 1])), kind)


def image_permutation(puzzle: Puzzle, symmetries: list[Symmetry]) -> np.ndarray:
    """``perm[h, i]``: the image that symmetry ``h`` maps image ``i`` to.  Images of one size
    are rows of cell numbers (sorted); a moved row is found among them by binary search on the
    rows' bytes (a dictionary of tuples, image by image, took seconds on 40,000 monominoes)."""
    img = puzzle.images
    coords = puzzle.cell_coords.astype(np.int64)
    grid = puzzle.index_grid
    lengths = np.diff(img.cell_ptr)
    perm = np.empty((len(symmetries), len(img)), dtype=np.int64)
    maps = []
    for sym in symmetries:
        moved = sym.apply(coords)
        maps.append(grid[moved[:, 0], moved[:, 1], moved[:, 2]].astype(np.int32))
    for size in distinct_ints(lengths):
        ids = np.flatnonzero(lengths == size)
        rows = img.cell_idx[img.cell_ptr[ids][:, None] + np.arange(size)].astype(np.int32)
        keys = row_keys(np.sort(rows, axis=1))
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        for h, cell_map in enumerate(maps):
            moved = row_keys(np.sort(cell_map[rows], axis=1))
            at = np.minimum(np.searchsorted(ordered, moved), len(ordered) - 1)
            if np.any(ordered[at] != moved):
                raise AssertionError("a symmetry of the region maps an image outside the images")
            perm[h, ids] = ids[order[at]]
    return perm


#: The compiled check of ``RedundancyPlan.is_counted``, from its extension when built ahead.
_COUNTED = _aot.Kernel("redundancy_check")


def warm_up_check() -> None:
    """Compile (or load) the check on a tiny plan with a real run's argument types."""
    _COUNTED(np.zeros((2, 1), dtype=np.int64), np.zeros(1, dtype=np.int64),
             np.zeros(1, dtype=np.int64), np.ones(1, dtype=bool), -1)


def distinct_ints(values: np.ndarray) -> np.ndarray:
    """The distinct values of a non-negative integer array, ascending (``np.unique``'s answer):
    numpy 2's ``np.unique`` imports its masked-array module on its first call, 16 ms of every
    tiling run's start, for values that are piece sizes and image ranks here."""
    values = np.asarray(values).ravel()
    return np.flatnonzero(np.bincount(values)) if values.size else np.zeros(0, dtype=np.int64)


def row_keys(rows: np.ndarray) -> np.ndarray:
    """Each row of a 2D int32 array as one opaque value (its bytes), to sort and search."""
    rows = np.ascontiguousarray(rows)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


@dataclass
class RedundancyPlan:
    """What the redundancy filter keeps and how found solutions are counted exactly."""

    symmetries: list[Symmetry]
    perm: np.ndarray                 # int64[|H|, n_images]
    piece: str | None                # the constrained piece, None if none could be used
    shape: int                       # its shape index, -1 if none
    kept: np.ndarray                 # bool[n_images]: images allowed by the filter
    exact_without_check: bool        # True: every class is found exactly once
    residual: float                  # average stabiliser order of kept images (1.0: perfect)
    shape_of: np.ndarray             # int64[n_images]: shape of each image

    @property
    def order(self) -> int:
        return len(self.symmetries)

    def is_counted(self, image_ids: np.ndarray) -> bool:
        """Whether the found solution ``image_ids`` is its class's representative (compiled:
        ``tiling_filter_kernels.counted``; symmetry by symmetry in numpy, the square 8 x 8's
        19,371 solutions found took 0.26 s of its 1.1 s count)."""
        if self.exact_without_check:
            return True
        return bool(_COUNTED(self.perm, np.sort(np.asarray(image_ids, dtype=np.int64)),
                             self.shape_of, self.kept, self.shape))


def _by_cells(puzzle: Puzzle, shape: int) -> np.ndarray:
    """The images of ``shape`` in the order of their sorted cell numbers, compared as tuples."""
    img = puzzle.images
    ids = np.flatnonzero(img.shape == shape)
    size = puzzle.shapes[shape].size
    cells = img.cell_idx[img.cell_ptr[ids][:, None] + np.arange(size)]
    return ids[np.lexsort(cells.T[::-1])]


def _branching(cells) -> int:
    """Largest number of face neighbours any cell of the piece has within it."""
    cs = set(map(tuple, cells))
    return max(sum(nb in cs for nb in neighbours(c)) for c in cs)


def plan_redundancy(puzzle: Puzzle, unique: str, piece: str | None = "auto",
                    allowed: np.ndarray | None = None,
                    between: Callable[[], None] = lambda: None) -> RedundancyPlan:
    """Choose the piece to constrain (``"auto"``, a piece name, or ``None`` for none) and the
    images it keeps.  ``allowed`` restricts the candidate images (earlier filters).
    ``between`` is called between the steps (it may raise to end a run's set-up: on 40,000
    monominoes each step takes seconds)."""
    syms = _symmetries(puzzle, unique)
    between()
    n_img = len(puzzle.images)
    allowed = np.ones(n_img, dtype=bool) if allowed is None else allowed
    everything = np.ones(n_img, dtype=bool)
    shape_of = puzzle.images.shape.astype(np.int64)
    if len(syms) == 1:
        return RedundancyPlan(syms, np.arange(n_img)[None, :], None, -1, everything, True, 1.0,
                              shape_of)
    perm = _permutation(puzzle, unique)
    between()
    name_to_shape = {n: s.index for s in puzzle.shapes for n in s.names}
    if piece not in (None, "auto"):
        if piece not in name_to_shape:
            known = ", ".join(p.name for p in puzzle.mobile_pieces)
            raise InputError(f"no mobile piece named {piece!r} to constrain (pieces: {known})")
        if puzzle.shapes[name_to_shape[piece]].count != 1:
            raise InputError(f"piece {piece} is one of several identical pieces; the "
                             f"redundancy filter needs a piece of unique shape")
        candidates = [name_to_shape[piece]]
    elif piece is None:
        candidates = []
    else:
        candidates = [s.index for s in puzzle.shapes if s.count == 1]
    options = _options(puzzle, syms, perm, candidates, allowed)
    if not options:
        return RedundancyPlan(syms, perm, None, -1, everything, False, float(len(syms)),
                              shape_of)
    _, s, reps, n_h, residual = options[0]
    kept = shape_of != s
    kept[reps] = True
    exact = n_h == len(syms) and residual == 1.0
    return RedundancyPlan(syms, perm, puzzle.shapes[s].names[0], s, kept, exact, residual,
                          shape_of)


def piece_choices(puzzle: Puzzle, unique: str, allowed: np.ndarray | None = None
                  ) -> list[tuple[str, int]]:
    """Every piece the filter can constrain, best first by the rule of ``"auto"``, with the
    number of its images the filter keeps."""
    syms = _symmetries(puzzle, unique)
    if len(syms) == 1:
        return []
    perm = _permutation(puzzle, unique)
    allowed = np.ones(len(puzzle.images), dtype=bool) if allowed is None else allowed
    candidates = [s.index for s in puzzle.shapes if s.count == 1]
    return [(puzzle.shapes[s].names[0], len(reps))
            for _, s, reps, _, _ in _options(puzzle, syms, perm, candidates, allowed)]


@lru_cache(maxsize=16)
def _symmetries(puzzle: Puzzle, unique: str) -> list[Symmetry]:
    """The symmetries, once per puzzle and counting mode (the automatic configuration plans
    several pieces of each orientation it estimates)."""
    return puzzle_symmetries(puzzle, unique)


@lru_cache(maxsize=16)
def _permutation(puzzle: Puzzle, unique: str) -> np.ndarray:
    """The image permutation of ``_symmetries``, once per puzzle and counting mode."""
    return image_permutation(puzzle, _symmetries(puzzle, unique))


def _options(puzzle: Puzzle, syms: list[Symmetry], perm: np.ndarray, candidates: list[int],
             allowed: np.ndarray) -> list[tuple]:
    """(score, shape, kept images, symmetries acting on it, residual) for each candidate shape
    with an allowed image, best score first: the symmetries that keep the shape should be the
    whole group, then each kept image's stabiliser small (1: every class found exactly once),
    then the piece large, branched (Westen's choice of the Tetris Cube's L, which the FILA
    seed found three times faster than polycube's G), with many orientations and few images
    kept, then by name."""
    n_img = len(puzzle.images)
    shape_of = puzzle.images.shape.astype(np.int64)
    out = []
    for s in candidates:
        # Symmetries that map this shape to itself: they act on its images.
        h_ok = [h for h in range(len(syms)) if np.all(shape_of[perm[h, shape_of == s]] == s)]
        mine = np.flatnonzero((shape_of == s) & allowed)
        if len(mine) == 0:
            continue
        # Each orbit's representative: its member with the smallest cell numbers (as a sorted
        # tuple) among those allowed.  A sound earlier filter keeps or drops whole orbits
        # (symmetric copies of a solution are solutions); if it split one, that orbit is in no
        # solution and any member will do.
        by_cells = _by_cells(puzzle, s)
        rank = np.full(n_img, len(by_cells), dtype=np.int64)
        rank[by_cells] = np.arange(len(by_cells))
        rank[~allowed] = len(by_cells)
        acting = perm[h_ok]
        reps = by_cells[distinct_ints(rank[acting[:, mine]].min(axis=0))]
        stab_sizes = (acting[:, reps] == reps).sum(axis=0)
        shape = puzzle.shapes[s]
        residual = float(np.mean(stab_sizes))
        score = (-len(h_ok), residual, -shape.size, -_branching(shape.orientations[0]),
                 -len(shape.orientations), len(reps), shape.names[0])
        out.append((score, s, reps, len(h_ok), residual))
    return sorted(out, key=lambda option: option[0])


def canonical_tiling_key(image_ids, perm: np.ndarray) -> tuple:
    """The smallest sorted image tuple over a solution's symmetric copies (for tests)."""
    ids = np.asarray(image_ids, dtype=np.int64)
    return min(tuple(np.sort(perm[h, ids]).tolist()) for h in range(perm.shape[0]))
