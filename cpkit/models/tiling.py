"""Tiling puzzles: pieces, regions, shapes and their bounded images.

A ``Puzzle`` is a set of pieces and a region of the cubic lattice.  Mobile pieces move (rotate and
translate; reflect too when ``mirror`` is set, never leave the plane when ``one_sided``);
stationary pieces stay where they are given and only shape the region.  Identical mobile pieces
form one ``PieceShape`` with a count, so solutions that merely swap identical pieces are one
solution.

An *image* is one placement of one shape: an orientation translated so that every cell lies in
the region (a *bounded* image, in the seed's words).  The images compile into an ``ExactCover``
with one primary item per free cell and one per shape (needed ``count`` times).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from ..errors import InputError
from .exact_cover import ExactCover
from .geometry import Cell, Shape, canonical, is_connected, normalize, orientations

#: Refuse to build more images than this: a puzzle that large cannot be enumerated anyway, and
#: building it would exhaust memory before any message could be given.
MAX_IMAGES = 5_000_000


@dataclass(frozen=True)
class Piece:
    """A named piece.  ``cells`` are absolute for a stationary piece, a shape for a mobile one."""

    name: str
    cells: tuple[Cell, ...]
    stationary: bool = False

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Placement:
    """One mobile piece at absolute cells."""

    piece: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Tiling:
    """A solution: the placements of all mobile pieces (stationary pieces are the puzzle's)."""

    placements: tuple[Placement, ...]

    def grid(self, puzzle: "Puzzle") -> dict[Cell, str]:
        """Piece name at every occupied cell, stationary pieces included."""
        out = {c: p.name for p in puzzle.stationary_pieces for c in p.cells}
        for pl in self.placements:
            for c in pl.cells:
                out[c] = pl.piece
        return out


@dataclass
class PieceShape:
    """The identical mobile pieces of one shape."""

    index: int
    names: tuple[str, ...]
    orientations: tuple[Shape, ...]
    orientation_set: frozenset = field(repr=False)

    @property
    def count(self) -> int:
        return len(self.names)

    @property
    def size(self) -> int:
        return len(self.orientations[0])

    @property
    def label(self) -> str:
        return self.names[0] if self.count == 1 else "/".join(self.names)


@dataclass(frozen=True)
class ImageTable:
    """All bounded images, by shape then orientation then translation (z, y, x order).

    ``cell_ptr``/``cell_idx`` is CSR over region cell indices (sorted within each image).
    """

    shape: np.ndarray        # int32[n]: shape index
    orientation: np.ndarray  # int32[n]: index into that shape's orientations
    offset: np.ndarray       # int32[n, 3]: translation of the normalized orientation
    cell_ptr: np.ndarray     # int64[n + 1]
    cell_idx: np.ndarray     # int32[nnz]

    def __len__(self) -> int:
        return len(self.shape)

    def cells_of(self, i: int) -> np.ndarray:
        return self.cell_idx[self.cell_ptr[i]:self.cell_ptr[i + 1]]


#: Placements a puzzle keeps decoded (``Puzzle.tiling_from_images``).
PLACEMENTS_KEPT = 200_000


class Puzzle:
    """A tiling puzzle.  Build it from pieces and either a box or an explicit region.

    ``box=(X, Y, Z)`` makes the region the box minus the stationary pieces' cells (the polycube
    file semantics); ``region=cells`` gives any cell set (stationary pieces, if any, are then only
    drawn, and must not overlap it).  Raises ``InputError`` for inconsistent input.
    """

    def __init__(self, pieces: Sequence[Piece], *, box: tuple[int, int, int] | None = None,
                 region: Iterable[Cell] | None = None, one_sided: bool = False,
                 mirror: bool = False, name: str = ""):
        self.name = name
        self.pieces = list(pieces)
        self.one_sided = bool(one_sided)
        self.mirror = bool(mirror)
        if self.one_sided and self.mirror:
            raise InputError("a puzzle cannot be both one-sided and allow mirror images")
        self.stationary_pieces = [p for p in self.pieces if p.stationary]
        self.mobile_pieces = [p for p in self.pieces if not p.stationary]
        self._check_pieces()
        fixed = [c for p in self.stationary_pieces for c in p.cells]
        if region is None:
            if box is None:
                raise InputError("a puzzle needs a box or a region")
            if len(box) != 3 or any(int(d) < 1 for d in box):
                raise InputError(f"box dimensions must be positive integers, got {box}")
            self.box = tuple(int(d) for d in box)
            self._check_stationary_in_box(fixed)
            X, Y, Z = self.box
            self._check_volume(X * Y * Z - len(fixed))      # before listing a huge box's cells
            fixed_set = set(fixed)
            cells = [(x, y, z) for z in range(Z) for y in range(Y) for x in range(X)
                     if (x, y, z) not in fixed_set]
        else:
            cells = sorted(set(tuple(int(v) for v in c) for c in region),
                           key=lambda c: (c[2], c[1], c[0]))
            if any(len(c) != 3 for c in cells):
                raise InputError("region cells must be (x, y, z) triples")
            if set(cells) & set(fixed):
                raise InputError("a stationary piece overlaps the region")
            every = cells + fixed
            if not every:
                raise InputError("the region is empty")
            lo = np.min(np.array(every), axis=0)
            if np.any(lo < 0):
                raise InputError("region cells must have non-negative coordinates")
            hi = np.max(np.array(every), axis=0)
            self.box = tuple(int(h) + 1 for h in hi)
        if not self.mobile_pieces:
            raise InputError("the puzzle has no mobile pieces")
        if not cells:
            raise InputError("the region is empty (no free cells)")
        if self.one_sided:
            if self.box[2] != 1:
                raise InputError("oneSide needs zDim=1")
            for p in self.mobile_pieces:
                if len({c[2] for c in p.cells}) != 1:
                    raise InputError(f"piece {p.name}: in a one-sided puzzle every z must be "
                                     f"equal")
        self._check_volume(len(cells))
        self.cells: list[Cell] = cells
        self.cell_index: dict[Cell, int] = {c: i for i, c in enumerate(cells)}
        self.shapes: list[PieceShape] = self._group_shapes()

    # ------------------------------------------------------------------ construction helpers
    def _check_pieces(self) -> None:
        seen: set[str] = set()
        for p in self.pieces:
            if not p.name or any(ch.isspace() for ch in p.name) or not p.name.isprintable():
                raise InputError(f"invalid piece name {p.name!r}")
            if p.name in seen:
                raise InputError(f"piece name {p.name} is used twice")
            seen.add(p.name)
            if not p.cells:
                raise InputError(f"piece {p.name} has no cells")
            if len(set(p.cells)) != len(p.cells):
                raise InputError(f"piece {p.name} lists a cell twice")
            if not p.stationary and not is_connected(p.cells):
                raise InputError(f"piece {p.name} is not connected: its cells do not all join "
                                 f"face to face (a polycube is one solid, and the volume "
                                 f"filter relies on it)")

    def _check_volume(self, free_cells: int) -> None:
        volume = sum(p.size for p in self.mobile_pieces)
        if volume != free_cells:
            raise InputError(f"the pieces have volume {volume} but the region has {free_cells} "
                             f"free cells; they must be equal")

    def _check_stationary_in_box(self, fixed: list[Cell]) -> None:
        X, Y, Z = self.box
        owner: dict[Cell, str] = {}
        for p in self.stationary_pieces:
            for c in p.cells:
                if not (0 <= c[0] < X and 0 <= c[1] < Y and 0 <= c[2] < Z):
                    raise InputError(f"stationary piece {p.name} has cell {c} outside the "
                                     f"{X}x{Y}x{Z} box")
                if c in owner:
                    raise InputError(f"stationary pieces {owner[c]} and {p.name} overlap at {c}")
                owner[c] = p.name

    @property
    def group_kind(self) -> str:
        """The orientation group of mobile pieces (see ``geometry.group``)."""
        if self.one_sided:
            return "planar"
        return "mirror" if self.mirror else "rotations"

    def _group_shapes(self) -> list[PieceShape]:
        kind = self.group_kind
        by_canon: dict[Shape, list[Piece]] = {}
        # Identical pieces (thousands of monominoes) share one canonical form: computed once
        # per distinct layout, not per piece.
        canon_of: dict[Shape, Shape] = {}
        for p in self.mobile_pieces:
            layout = normalize(p.cells)
            if layout not in canon_of:
                canon_of[layout] = canonical(layout, kind)
            by_canon.setdefault(canon_of[layout], []).append(p)
        shapes = []
        for idx, group_pieces in enumerate(by_canon.values()):
            orients = tuple(orientations(group_pieces[0].cells, kind))
            shapes.append(PieceShape(idx, tuple(p.name for p in group_pieces), orients,
                                     frozenset(orients)))
        return shapes

    # ------------------------------------------------------------------ derived views
    @property
    def region_set(self) -> frozenset:
        return frozenset(self.cells)

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_pieces(self) -> int:
        return len(self.mobile_pieces)

    @property
    def dimension(self) -> int:
        """2 for a puzzle in one layer of a box one cell thick, else 3."""
        return 2 if min(self.box) == 1 else 3

    @cached_property
    def index_grid(self) -> np.ndarray:
        """int32[X, Y, Z]: region cell index, or -1 outside the region."""
        grid = np.full(self.box, -1, dtype=np.int32)
        for i, (x, y, z) in enumerate(self.cells):
            grid[x, y, z] = i
        return grid

    @cached_property
    def cell_coords(self) -> np.ndarray:
        """int32[V, 3]: coordinates of region cell ``i``."""
        return np.array(self.cells, dtype=np.int32).reshape(-1, 3)

    @cached_property
    def images(self) -> ImageTable:
        bound = sum(len(s.orientations) for s in self.shapes) * int(np.prod(self.box))
        if bound > MAX_IMAGES and self._count_images() > MAX_IMAGES:
            raise InputError(f"the puzzle is too large: more than {MAX_IMAGES:,} piece images")
        X, Y, Z = self.box
        # Cells by their flat box index x + X (y + Y z): a translation adds its own flat index,
        # so an orientation's cells, sorted by it, stay sorted in every translation, and region
        # cells (numbered in the same order) need no sort.  The orientations of one extent and
        # size are translated together (one gather each, at most as many entries as the
        # translations ``_count_images`` bounds): one by one, the Tetris Cube's took 13 ms,
        # twice as long, and the choice of ``--engine auto`` builds a table per orientation.
        flat_grid = self.index_grid.transpose(2, 1, 0).ravel()
        stride = np.array([1, X, X * Y], dtype=np.int64)
        members = [(s.index, o, orient)
                   for s in self.shapes for o, orient in enumerate(s.orientations)]
        shape_of = np.array([m[0] for m in members], dtype=np.int32)
        orient_of = np.array([m[1] for m in members], dtype=np.int32)
        by_size: dict[int, list[int]] = {}
        for r, (_, _, orient) in enumerate(members):
            by_size.setdefault(len(orient), []).append(r)
        widest = max(by_size)
        ranks, offsets, cells = [], [], []
        for size, rs in by_size.items():
            arr = np.array([members[r][2] for r in rs], dtype=np.int64)
            flat = np.sort(arr @ stride, axis=1)
            exts, which = np.unique(arr.max(axis=1) + 1, axis=0, return_inverse=True)
            which, rs = which.ravel(), np.asarray(rs)
            for e, ext in enumerate(exts.tolist()):
                if ext[0] > X or ext[1] > Y or ext[2] > Z:
                    continue
                # Translations z, then y, then x (x fastest).
                t = np.indices((Z - ext[2] + 1, Y - ext[1] + 1, X - ext[0] + 1)
                               ).reshape(3, -1)[::-1].T
                group = np.flatnonzero(which == e)
                idx = flat_grid[(t @ stride)[None, :, None] + flat[group][:, None, :]]
                g, k = np.nonzero(np.all(idx >= 0, axis=2))
                ranks.append(rs[group[g]])
                offsets.append(t[k])
                padded = np.full((len(g), widest), -1, dtype=np.int32)
                padded[:, :size] = idx[g, k]
                cells.append(padded)
        if not sum(map(len, ranks)):
            empty = np.zeros(0, dtype=np.int32)
            return ImageTable(empty, empty, np.zeros((0, 3), np.int32), np.zeros(1, np.int64),
                              empty)
        # By shape, orientation, then translation: a stable sort on the orientation's rank
        # keeps each one's translations in their order.
        rank = np.concatenate(ranks)
        order = np.argsort(rank, kind="stable")
        rank = rank[order]
        padded = np.concatenate(cells)[order]
        real = padded >= 0
        ptr = np.zeros(len(rank) + 1, dtype=np.int64)
        np.cumsum(real.sum(axis=1), out=ptr[1:])
        return ImageTable(shape_of[rank], orient_of[rank],
                          np.concatenate(offsets)[order].astype(np.int32), ptr, padded[real])

    def _count_images(self) -> int:
        X, Y, Z = self.box
        n = 0
        for s in self.shapes:
            for orient in s.orientations:
                ext = np.array(orient).max(axis=0) + 1
                n += int(np.prod(np.maximum(np.array([X, Y, Z]) - ext + 1, 0)))
        return n

    def exact_cover(self, keep: np.ndarray | None = None) -> ExactCover:
        """Columns: region cells (in cell-index order), then shapes (needed ``count`` times).
        Rows: images (all, or those with ``keep[i]``).  Built once per ``keep``: the choice of
        ``--engine auto`` builds searches of one front several times (the search it begins,
        the estimates' descents), and a search copies the cover's arrays, never changes them."""
        key = None if keep is None else np.asarray(keep, dtype=bool).tobytes()
        covers = self.__dict__.setdefault("_covers", {})
        if key not in covers:
            covers[key] = self._exact_cover(keep)
        return covers[key]

    def _exact_cover(self, keep: np.ndarray | None) -> ExactCover:
        if keep is not None:
            return self.exact_cover().restricted(keep)
        img = self.images
        n_img = len(img)
        v = self.n_cells
        lengths = np.diff(img.cell_ptr) + 1
        ptr = np.zeros(n_img + 1, dtype=np.int64)
        np.cumsum(lengths, out=ptr[1:])
        items = np.empty(int(ptr[-1]), dtype=np.int32)
        shape_pos = ptr[1:] - 1
        mask = np.ones(len(items), dtype=bool)
        mask[shape_pos] = False
        items[mask] = img.cell_idx
        items[shape_pos] = v + img.shape
        primary = [f"{x},{y},{z}" for x, y, z in self.cells] + [s.label for s in self.shapes]
        need = np.array([1] * v + [s.count for s in self.shapes], dtype=np.int32)
        return ExactCover(primary, [], ptr, items, need, None, self.name)

    def tiling_from_images(self, image_ids: Iterable[int]) -> Tiling:
        """Decode chosen images into named placements.  Copies of a shape get their names in
        image order, so the same set of images always decodes the same way."""
        shape_of = self._image_shapes
        made = self._placements
        by_shape: dict[int, list[int]] = {}
        chosen = image_ids.tolist() if isinstance(image_ids, np.ndarray) else \
            [int(i) for i in image_ids]
        for i in sorted(chosen):
            by_shape.setdefault(shape_of[i], []).append(i)
        placements = []
        for s_idx, ids in by_shape.items():
            names = self.shapes[s_idx].names
            for name, i in zip(names, ids):
                placement = made.get((name, i))
                if placement is None:
                    cells = tuple(self.cells[c] for c in self.images.cells_of(i).tolist())
                    placement = Placement(name, cells)
                    if len(made) < PLACEMENTS_KEPT:
                        made[name, i] = placement
                placements.append(placement)
        placements.sort(key=lambda p: p.piece)
        return Tiling(tuple(placements))

    @cached_property
    def _image_shapes(self) -> list[int]:
        """Each image's shape index, as Python ints (``tiling_from_images`` reads one per
        placement of every solution listed)."""
        return self.images.shape.tolist()

    @cached_property
    def _placements(self) -> dict[tuple[str, int], Placement]:
        """The placements decoded so far (at most ``PLACEMENTS_KEPT``), by piece name and
        image: a listing decodes the same ones again and again (the 10 x 6's 2,339 solutions:
        28,068 placements, decoded one by one in 0.15 s, three times the search)."""
        return {}

    @cached_property
    def _image_by_cells(self) -> dict[tuple[int, ...], int]:
        img = self.images
        return {tuple(img.cells_of(i).tolist()): i for i in range(len(img))}

    def images_of_tiling(self, tiling: Tiling) -> list[int]:
        """The image numbers of a tiling's placements (inverse of ``tiling_from_images``)."""
        index = self.cell_index
        return [self._image_by_cells[tuple(sorted(index[c] for c in pl.cells))]
                for pl in tiling.placements]

    def describe(self) -> str:
        X, Y, Z = self.box
        kinds = "one-sided" if self.one_sided else ("mirror allowed" if self.mirror else "free")
        return (f"{self.name or 'puzzle'}: {X}x{Y}x{Z} box, {self.n_cells} free cells, "
                f"{self.n_pieces} pieces in {len(self.shapes)} shapes ({kinds})")

    def __repr__(self) -> str:
        return f"<Puzzle {self.describe()}>"


def piece_from_cells(name: str, cells: Iterable[Cell], stationary: bool = False) -> Piece:
    """A piece with its cells as given (only their shape matters for a mobile piece)."""
    return Piece(name, tuple(tuple(int(v) for v in c) for c in cells), stationary)
