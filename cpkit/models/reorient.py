"""Turning a tiling puzzle as a whole: the box, its region and its pieces under one of the 48
rotations and reflections of the cubic lattice.

Two uses.  The automatic engine (``cpkit.engines.dispatch.orientation``) solves a puzzle in the
orientation that suits its search best and maps the solutions back; the benchmarks write a
puzzle's file turned or mirrored (``turned``), to measure cpkit on files drawn another way.

A ``Turn`` maps cell ``c`` of a box to ``matrix @ c + shift`` in the turned box: ``matrix`` is a
signed permutation, ``shift`` puts the image back on non-negative coordinates.  ``oriented``
builds the puzzle the search sees: region and stationary pieces turned, each mobile piece
replaced by its canonical shape (``geometry.canonical``) under the pieces' own group, so that the
search depends on the turned region and the set of pieces alone, not on how the file drew each
piece (a piece's orientations are generated in an order that starts from its cells as given).
Two files that are turns or mirror images of one another therefore have the same oriented
puzzles (``distinct`` lists them, each with a key).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .geometry import (Cell, bounds_under, canonical, normalize, orientations, sorted_cells,
                       stacked, transform)
from .symmetry import RedundancyPlan, Symmetry, distinct_ints, row_keys
from .tiling import Piece, Placement, Puzzle, Tiling


@dataclass(frozen=True)
class Turn:
    """The cell map ``c -> matrix @ c + shift`` from a box onto the turned box ``box``."""

    matrix: tuple[tuple[int, int, int], ...]
    shift: tuple[int, int, int]
    box: tuple[int, int, int]

    @classmethod
    def of(cls, matrix: np.ndarray, box: tuple[int, int, int]) -> "Turn":
        m = np.asarray(matrix, dtype=np.int64)
        corner = m @ (np.array(box, dtype=np.int64) - 1)
        shift = np.maximum(-corner, 0)
        turned = np.abs(m) @ np.array(box, dtype=np.int64)
        return cls(tuple(tuple(int(v) for v in row) for row in m),
                   tuple(int(v) for v in shift), tuple(int(v) for v in turned))

    @property
    def is_identity(self) -> bool:
        return self.matrix == ((1, 0, 0), (0, 1, 0), (0, 0, 1))

    @property
    def reflection(self) -> bool:
        (a, b, c), (d, e, f), (g, h, i) = self.matrix
        return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) == -1

    def cells(self, cells) -> list[Cell]:
        """The turned cells (absolute positions in the turned box)."""
        m = np.array(self.matrix, dtype=np.int64)
        arr = np.asarray(list(cells), dtype=np.int64).reshape(-1, 3) @ m.T + np.array(self.shift)
        return [tuple(int(v) for v in row) for row in arr]

    def back(self, cells) -> list[Cell]:
        """The inverse map: cells of the turned box back to the original box."""
        m = np.array(self.matrix, dtype=np.int64)
        arr = (np.asarray(list(cells), dtype=np.int64).reshape(-1, 3) - np.array(self.shift)) @ m
        return [tuple(int(v) for v in row) for row in arr]

    def describe(self) -> str:
        """``x'=y, y'=-x, z'=z`` style: which original axis each turned axis follows."""
        names = "xyz"
        parts = []
        for axis, row in enumerate(self.matrix):
            col = next(i for i, v in enumerate(row) if v)
            parts.append(f"{names[axis]}'={'-' if row[col] < 0 else ''}{names[col]}")
        return ", ".join(parts)


def all_turns(puzzle: Puzzle) -> list[Turn]:
    """Every turn of the puzzle a search may use, each fitted to the puzzle's cells (free and
    stationary: their bounding box goes to the origin).  All 48 for a puzzle whose pieces may
    take any orientation; for a one-sided puzzle only those that keep the board in its plane,
    face up (its pieces cannot be turned over, so a mirror image of the board must mirror the
    pieces too, which ``oriented`` does); a flat free puzzle keeps its thin side along z
    (``Puzzle.dimension`` and the 2D search configurations look at z).  The 48 are applied at
    once (one array product): the choice of ``--engine auto`` lists them on every run, and
    turning the cells matrix by matrix cost a millisecond, as much as a small puzzle's search."""
    every = _occupied(puzzle)
    lo, hi = every.min(axis=0), every.max(axis=0)
    mats, rows = _mirror_group()
    low, high = bounds_under(mats, lo, hi)
    box = high - low + 1
    keep = np.ones(len(mats), dtype=bool)
    if puzzle.one_sided:
        keep &= mats[:, 2, 2] == 1
    if (hi - lo).min() == 0:
        keep &= box[:, 2] == 1
    return [Turn(rows[t], tuple((-low[t]).tolist()), tuple(box[t].tolist()))
            for t in np.flatnonzero(keep).tolist()]


@lru_cache(maxsize=None)
def _mirror_group() -> tuple[np.ndarray, tuple[tuple[tuple[int, int, int], ...], ...]]:
    """The 48 matrices of ``group("mirror")`` stacked, and each as the tuples a ``Turn``
    holds."""
    mats = stacked("mirror")
    return mats, tuple(tuple(tuple(row) for row in m.tolist()) for m in mats)


def _occupied(puzzle: Puzzle) -> np.ndarray:
    """The free cells and the stationary pieces' cells, as rows."""
    return np.array(puzzle.cells + [c for p in puzzle.stationary_pieces for c in p.cells],
                    dtype=np.int64).reshape(-1, 3)


def turned(puzzle: Puzzle, turn: Turn, name: str | None = None) -> Puzzle:
    """The puzzle with everything turned as drawn: what a file rotated or mirrored by hand
    holds (mobile pieces keep their drawing, turned and moved to the origin)."""
    pieces = [Piece(p.name, tuple(turn.cells(p.cells)), True) if p.stationary
              else Piece(p.name, normalize(transform(p.cells, np.array(turn.matrix))))
              for p in puzzle.pieces]
    return _rebuilt(puzzle, pieces, turn, puzzle.name if name is None else name)


def oriented(puzzle: Puzzle, turn: Turn) -> Puzzle:
    """The puzzle the search sees in orientation ``turn``: the region turned, each mobile
    piece's shape canonical (its file drawing no longer matters), names and order kept."""
    forms = _piece_forms(puzzle)
    pieces = []
    for p in puzzle.pieces:
        if p.stationary:
            pieces.append(Piece(p.name, tuple(sorted(turn.cells(p.cells),
                                                     key=lambda c: (c[2], c[1], c[0]))), True))
        else:
            pieces.append(Piece(p.name, forms[p.name][turn.reflection]))
    return _rebuilt(puzzle, pieces, turn, puzzle.name)


def distinct(puzzle: Puzzle) -> list[tuple[Turn, tuple]]:
    """One turn per distinct oriented puzzle (the first in ``all_turns`` order) with a key
    that tells the oriented puzzles apart (its box, free cells and pieces), computed without
    building them.  A puzzle and any turn of it have the same keys and the same oriented
    puzzles (the turns put the puzzle's cells at the origin, whatever box the file gave)."""
    seen: dict[tuple, Turn] = {}
    for turn, key in keyed_turns(puzzle):
        seen.setdefault(key, turn)
    return [(turn, key) for key, turn in seen.items()]


def keyed_turns(puzzle: Puzzle) -> list[tuple[Turn, tuple]]:
    """Every turn of ``all_turns`` with the key of the oriented puzzle it gives (``distinct``):
    a puzzle with symmetries of its own reaches each oriented puzzle by several turns."""
    forms = _piece_forms(puzzle)
    pieces = {flip: tuple((p.name, forms[p.name][flip]) for p in puzzle.mobile_pieces)
              for flip in (False, True)}
    turns = all_turns(puzzle)
    matrices = np.array([t.matrix for t in turns], dtype=np.int64)
    shifts = np.array([t.shift for t in turns], dtype=np.int64)
    moved = puzzle.cell_coords.astype(np.int64) @ matrices.transpose(0, 2, 1) \
        + shifts[:, None, :]
    # Each turn's cells in the order z, then y, then x.
    cells = sorted_cells(moved, (2, 1, 0))[0].astype(np.int32)
    return [(turn, (turn.box, cells[t].tobytes(), pieces[turn.reflection], puzzle.one_sided,
                    puzzle.mirror)) for t, turn in enumerate(turns)]


def nearest_the_start(plan: RedundancyPlan | None, first: Puzzle, other: Puzzle,
                      turns: list[Turn]) -> Turn:
    """Of ``turns``, each carrying ``first`` onto ``other`` (its own frame's turns), the one
    that carries the images ``plan`` keeps of its constrained piece nearest the start of
    ``other``'s cell numbering (the least sum of their first cells), as planning ``other``
    afresh would keep them (``symmetry.plan_redundancy``: the member of each class with the
    smallest cell numbers); the first of ``turns`` on a tie or where nothing is constrained.
    The kept images decide where the search may place the piece: carried to the far end of
    the fill, they made the 2 x 4 x 8 box with the L tetromino look nine times as long to
    search as kept at its start (glances of 124 s against 14 s)."""
    if plan is None or plan.shape < 0 or len(turns) == 1:
        return turns[0]
    img = first.images
    ids = np.flatnonzero(plan.kept & (plan.shape_of == plan.shape))
    size = first.shapes[plan.shape].size
    coords = first.cell_coords[img.cell_idx[img.cell_ptr[ids][:, None] + np.arange(size)]]
    grid = other.index_grid

    def spread(turn: Turn) -> int:
        moved = coords.astype(np.int64) @ np.array(turn.matrix, dtype=np.int64).T \
            + np.array(turn.shift, dtype=np.int64)
        return int(grid[moved[..., 0], moved[..., 1], moved[..., 2]].min(axis=1).sum())

    return min(turns, key=spread)


def region_of(key: tuple) -> tuple:
    """The part of a ``distinct`` key that says where the pieces go (the box and the free
    cells), without the pieces: two oriented puzzles of one region differ by a mirror image of
    the pieces."""
    return key[:2]


@dataclass(frozen=True)
class Correspondence:
    """How one oriented puzzle of a source lies on another (``correspond``): cell ``c`` of the
    first is cell ``matrix @ c + shift`` of the second, and image ``i`` of the second is image
    ``image_of[i]`` of the first (the same piece shape on the mapped cells); ``image_to`` is
    the inverse map, ``shape_to[s]`` the second's index of the first's shape ``s``."""

    matrix: np.ndarray
    shift: np.ndarray
    image_of: np.ndarray
    image_to: np.ndarray
    shape_to: np.ndarray


def correspond(first: Puzzle, first_turn: Turn, other: Puzzle, other_turn: Turn
               ) -> Correspondence:
    """The correspondence of two orientations of one source puzzle (``oriented`` by
    ``first_turn`` and ``other_turn``): what the automatic configuration maps a prepared
    front through instead of preparing each orientation's again.  Shapes are matched by their
    pieces' names (under a reflection a one-sided piece takes its mirror form, as its name
    does)."""
    m0 = np.array(first_turn.matrix, dtype=np.int64)
    mk = np.array(other_turn.matrix, dtype=np.int64)
    matrix = mk @ m0.T
    shift = np.array(other_turn.shift, dtype=np.int64) - matrix @ np.array(first_turn.shift,
                                                                           dtype=np.int64)
    moved = other.cell_coords.astype(np.int64) @ matrix - shift @ matrix    # other -> first
    grid = first.index_grid
    cell_map = grid[moved[:, 0], moved[:, 1], moved[:, 2]].astype(np.int32)
    if np.any(cell_map < 0):
        raise AssertionError("two orientations of one puzzle have different regions")
    shape_in_first = {name: s.index for s in first.shapes for name in s.names}
    shape_map = np.array([shape_in_first[s.names[0]] for s in other.shapes], dtype=np.int32)
    a, b = first.images, other.images
    image_of = np.full(len(b), -1, dtype=np.int64)
    for size in distinct_ints(np.diff(b.cell_ptr)):
        ids_b = np.flatnonzero(np.diff(b.cell_ptr) == size)
        ids_a = np.flatnonzero(np.diff(a.cell_ptr) == size)
        rows_a = np.sort(a.cell_idx[a.cell_ptr[ids_a][:, None] + np.arange(size)], axis=1)
        rows_b = np.sort(cell_map[b.cell_idx[b.cell_ptr[ids_b][:, None] + np.arange(size)]],
                         axis=1)
        keys_a = row_keys(np.column_stack([a.shape[ids_a], rows_a]).astype(np.int32))
        keys_b = row_keys(np.column_stack([shape_map[b.shape[ids_b]], rows_b])
                           .astype(np.int32))
        order = np.argsort(keys_a, kind="stable")
        at = np.minimum(np.searchsorted(keys_a[order], keys_b), len(order) - 1)
        if len(ids_a) != len(ids_b) or np.any(keys_a[order][at] != keys_b):
            raise AssertionError("two orientations of one puzzle have different images")
        image_of[ids_b] = ids_a[order[at]]
    image_to = np.empty_like(image_of)
    image_to[image_of] = np.arange(len(image_of))
    shape_to = np.empty_like(shape_map)
    shape_to[shape_map] = np.arange(len(shape_map), dtype=np.int32)
    return Correspondence(matrix, shift, image_of, image_to, shape_to)


def conjugated(plan: RedundancyPlan, turn: Correspondence, other: Puzzle
               ) -> RedundancyPlan:
    """``plan`` carried to ``other``, another orientation of its puzzle, through ``turn``
    (``reorient.correspond``): each symmetry ``g`` becomes ``T g T^-1`` for the turn's cell map
    ``T``, each image number is mapped, and the kept images are the mapped ones.  That is
    another choice of representatives than planning ``other`` afresh would make, as good: the
    counting check accepts any kept set that meets every class, and whether it can be skipped
    (trivial stabilisers, the whole group keeping the piece) does not change under a turn."""
    a, shift = turn.matrix, turn.shift
    symmetries = [Symmetry(a @ g.matrix @ a.T, a @ g.shift + shift - a @ g.matrix @ a.T @ shift,
                           g.reflection) for g in plan.symmetries]
    return RedundancyPlan(symmetries, turn.image_to[plan.perm[:, turn.image_of]], plan.piece,
                          int(turn.shape_to[plan.shape]) if plan.shape >= 0 else -1,
                          plan.kept[turn.image_of], plan.exact_without_check, plan.residual,
                          other.images.shape.astype(np.int64))


def _piece_forms(puzzle: Puzzle) -> dict[str, tuple]:
    """Each mobile piece's canonical shape under the pieces' group, as drawn and mirrored: a
    turn's pieces are the first when it is a rotation, the second when it is a reflection
    (for one-sided pieces, a reflection of the board mirrors each piece)."""
    return dict(_forms(tuple((p.name, p.cells) for p in puzzle.mobile_pieces),
                       puzzle.group_kind))


@lru_cache(maxsize=64)
def _forms(pieces: tuple, kind: str) -> tuple:
    """``_piece_forms`` of the pieces ``(name, cells)``, once per set of pieces: the choice of
    ``--engine auto`` asks for them for every orientation it builds.  A piece whose mirror
    image is one of its own orientations (every flat piece under the rotations, every piece
    under the whole group) has one canonical form for both, found without turning the mirror
    image 24 or 48 ways (1 of the 20 x 3's 3.8 ms of choice, in a fresh process)."""
    forms = []
    for name, cells in pieces:
        form = canonical(cells, kind)
        mirrored = normalize((-x, y, z) for x, y, z in cells)
        forms.append((name, (form, form if mirrored in orientations(cells, kind)
                             else canonical(mirrored, kind))))
    return tuple(forms)


def _rebuilt(puzzle: Puzzle, pieces: list[Piece], turn: Turn, name: str) -> Puzzle:
    """The turned puzzle: its free cells are the turned region, whether the puzzle was built
    from a box (the free cells and the stationary pieces fill it, so the bounding box is the
    turned box) or from a region (stationary pieces, if any, only drawn)."""
    region = sorted(turn.cells(puzzle.cells), key=lambda c: (c[2], c[1], c[0]))
    return Puzzle(pieces, region=region, one_sided=puzzle.one_sided, mirror=puzzle.mirror,
                  name=name)


def tiling_back(tiling: Tiling, turn: Turn) -> Tiling:
    """A solution of the oriented puzzle as the same solution of the original one.  Each
    placement's cells are turned back once per run (``_BACK``): a listing meets the same
    images again and again, and turning every placement of the 10 x 6 pentominoes' 2,339
    solutions back one by one took 0.44 s, five times their search."""
    memo = _BACK.get(turn)
    if memo is None or len(memo) > BACK_KEPT:
        _BACK.clear()
        memo = _BACK[turn] = {}
    out = []
    for pl in tiling.placements:
        cells = memo.get(pl.cells)
        if cells is None:
            cells = memo[pl.cells] = tuple(turn.back(pl.cells))
        out.append(Placement(pl.piece, cells))
    return Tiling(tuple(out))


#: Placements turned back (``tiling_back``): the cells in the oriented puzzle to those in the
#: file's, for the last turn used; at most ``BACK_KEPT`` of them.
_BACK: dict[Turn, dict[tuple[Cell, ...], tuple[Cell, ...]]] = {}
BACK_KEPT = 200_000
