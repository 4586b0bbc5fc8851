"""Turning a tiling puzzle as a whole: the box, its region and its pieces under one of the 48
rotations and reflections of the cubic lattice.

Two uses.  The automatic engine (``cpkit.search.orientation``) solves a puzzle in the
orientation that suits its search best and maps the solutions back; the benchmarks write a
puzzle's file turned or mirrored (``turned``), to measure cpkit on files drawn another way.

A ``Turn`` maps cell ``c`` of a box to ``matrix @ c + shift`` in the turned box: ``matrix`` is a
signed permutation, ``shift`` puts the image back on non-negative coordinates.  ``oriented``
builds the puzzle the search sees: region and stationary pieces turned, each mobile piece
replaced by its canonical shape (``geometry.canonical``) under the pieces' own group, so that the
search depends on the turned region and the set of pieces alone, not on how the file drew each
piece (a piece's orientations are generated in an order that starts from its cells as given).
Two files that are turns or mirror images of one another therefore have the same oriented
puzzles, and one ``key`` for each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import Cell, canonical, group, normalize, transform
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
        return round(float(np.linalg.det(np.array(self.matrix)))) == -1

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
    """Every turn of the puzzle's box a search may use: all 48 for a puzzle whose pieces may
    take any orientation; for a one-sided puzzle only the turns that keep the board in its
    plane, face up (its pieces cannot be turned over, so a mirror of the board must mirror the
    pieces too, which ``oriented`` does); a flat free puzzle must keep its thin side along z
    (``Puzzle.dimension`` and the 2D search configurations look at z)."""
    out = []
    for m in group("mirror"):
        if puzzle.one_sided and m[2, 2] != 1:
            continue
        turn = Turn.of(m, puzzle.box)
        if puzzle.dimension == 2 and turn.box[2] != 1:
            continue
        out.append(turn)
    return out


def turned(puzzle: Puzzle, turn: Turn, name: str | None = None) -> Puzzle:
    """The puzzle with everything turned as drawn: what a file rotated or mirrored by hand
    holds (mobile pieces keep their drawing, turned and moved to the origin)."""
    pieces = [Piece(p.name, tuple(turn.cells(p.cells)), True) if p.stationary
              else Piece(p.name, normalize(transform(p.cells, np.array(turn.matrix))))
              for p in puzzle.pieces]
    return Puzzle(pieces, box=turn.box, one_sided=puzzle.one_sided, mirror=puzzle.mirror,
                  name=puzzle.name if name is None else name)


def oriented(puzzle: Puzzle, turn: Turn) -> Puzzle:
    """The puzzle the search sees in orientation ``turn``: the region turned, each mobile
    piece's shape canonical (its file drawing no longer matters), names and order kept."""
    kind = puzzle.group_kind
    pieces = []
    for p in puzzle.pieces:
        if p.stationary:
            pieces.append(Piece(p.name, tuple(sorted(turn.cells(p.cells),
                                                     key=lambda c: (c[2], c[1], c[0]))), True))
        else:
            pieces.append(Piece(p.name, canonical(transform(p.cells, np.array(turn.matrix)),
                                                  kind)))
    if not puzzle.stationary_pieces and len(puzzle.cells) != int(np.prod(puzzle.box)):
        # A puzzle built from an explicit region: turn the region itself.
        return Puzzle(pieces, region=turn.cells(puzzle.cells), one_sided=puzzle.one_sided,
                      mirror=puzzle.mirror, name=puzzle.name)
    return Puzzle(pieces, box=turn.box, one_sided=puzzle.one_sided, mirror=puzzle.mirror,
                  name=puzzle.name)


def key(puzzle: Puzzle) -> tuple:
    """Equal for two oriented puzzles iff their searches are the same: box, free cells, and
    the mobile pieces (name and shape) in order."""
    return (puzzle.box, tuple(puzzle.cells),
            tuple((p.name, p.cells) for p in puzzle.mobile_pieces),
            puzzle.one_sided, puzzle.mirror)


def tiling_back(tiling: Tiling, turn: Turn) -> Tiling:
    """A solution of the oriented puzzle as the same solution of the original one."""
    return Tiling(tuple(Placement(pl.piece, tuple(turn.back(pl.cells)))
                        for pl in tiling.placements))
