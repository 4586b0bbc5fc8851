"""Edge-matching puzzles (Eternity II style): the board, the tiles, their orientations and colour
pairs, validated and compiled to the flat arrays the engines search.

Conventions (Benoist & Bourreau, section 2.1):

- A tile is four colours clockwise from north: ``(north, east, south, west)``.  Colour 0 is the
  grey of the frame; colours ``1..n_colours`` are the others.
- A cell is ``(x, y)``: column ``x`` from the left, row ``y`` from the bottom, both from 0; its
  number is ``y * width + x`` (so cell 0 is the bottom-left corner and numbers follow a row scan).
- Rotation ``r`` says which side of the tile faces north: placed with rotation ``r``, a tile shows
  ``tile[(s + r) % 4]`` on side ``s`` of its cell (0 north, 1 east, 2 south, 3 west).
- A tile whose rotations coincide (``a b a b``, ``a a a a``) has fewer *distinct orientations*;
  a placement is a tile and a distinct orientation, never a rotation number, so such a tile is
  counted once per distinct orientation.  Reported rotations are the smallest rotation of the
  orientation.
- Tiles are distinguished by their index: two identical tiles swapped give two solutions (this is
  how the published counts of the paper's instances were counted; docs/algorithms.md).
- A hint fixes a tile, in an orientation, on a cell; every solution must respect the hints.

Colour pairs (section 3): a *clockwise pair* ``(a, b)`` is two consecutive sides ``s, s+1`` of a
tile showing ``a`` then ``b``; an *opposite pair* ``{a, b}`` is two opposite sides.  Every pair has
an index in ``0 .. n_pairs``: clockwise ``(a, b)`` is ``a * C + b`` and opposite ``{a, b}``
(``a <= b``) is ``C * C + a * C + b``, with ``C = n_colours + 1``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Sequence

import numpy as np

from ..errors import InputError, whole
from .arrays import BoardArrays

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SIDE_NAMES = ("north", "east", "south", "west")
GREY = 0
#: Colours are packed one byte per side in the engines.
MAX_COLOURS = 254
#: Boards larger than this are refused (a 16x16 Eternity II board is 256 cells).
MAX_CELLS = 4096
MAX_SIDE = 64
UNIQUE_MODES = ("rotation", "raw")


def check_board_size(width: int, height: int) -> None:
    """Refuse a board outside 2 .. ``MAX_SIDE`` on a side (at most ``MAX_CELLS`` cells), the
    sizes every file layout and engine take."""
    if width < 2 or height < 2:
        raise InputError(f"the board must be at least 2 x 2, got {width} x {height}")
    if max(width, height) > MAX_SIDE:
        raise InputError(f"a {width} x {height} board is too large (at most {MAX_SIDE} on a "
                         f"side, {MAX_CELLS} cells)")


@dataclass(frozen=True)
class Hint:
    """Tile ``tile`` (0-based) on cell ``(x, y)`` with rotation ``rotation``."""

    x: int
    y: int
    tile: int
    rotation: int


def _colours(tile, k: int) -> tuple[int, ...]:
    """Tile ``k``'s colours as a tuple of ints, if they are a sequence of whole numbers."""
    if type(tile) is tuple and all(type(c) is int for c in tile):
        return tile         # the common case, kept cheap: split runs build a puzzle a subproblem
    if isinstance(tile, (str, bytes)) or not isinstance(tile, Sequence | np.ndarray):
        raise InputError(f"tile {k + 1} must be a row of four colours, got {tile!r}")
    return tuple(whole(c, f"tile {k + 1}'s colour") for c in tile)


def _hint(hint) -> Hint:
    """``hint`` if it is a ``Hint`` of whole numbers."""
    if not isinstance(hint, Hint):
        raise InputError(f"hints must be Hint(x, y, tile, rotation), got {hint!r}")
    for field in ("x", "y", "tile", "rotation"):
        whole(getattr(hint, field), f"a hint's {field}")
    return hint


@dataclass(frozen=True)
class BoardSolution:
    """A filled board: the tile (0-based) and rotation on every cell, cells numbered
    ``y * width + x`` from the bottom-left corner.  A partial board (the deepest node of a
    search that found no solution) has tile -1 on its empty cells."""

    width: int
    height: int
    tiles: tuple[int, ...]
    rotations: tuple[int, ...]

    @property
    def filled(self) -> int:
        return sum(t >= 0 for t in self.tiles)

    def at(self, x: int, y: int) -> tuple[int, int]:
        cell = y * self.width + x
        return self.tiles[cell], self.rotations[cell]


def rotate(tile: Sequence[int], rotation: int) -> tuple[int, int, int, int]:
    """The colours ``(north, east, south, west)`` a tile shows with ``rotation``."""
    return tuple(int(tile[(s + rotation) % 4]) for s in range(4))


def distinct_rotations(tile: Sequence[int]) -> list[int]:
    """The smallest rotation of each distinct orientation of ``tile`` (1, 2 or 4 of them)."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for r in range(4):
        shown = rotate(tile, r)
        if shown not in seen:
            seen.add(shown)
            out.append(r)
    return out


def grey_sides(tile: Sequence[int]) -> tuple[int, ...]:
    return tuple(s for s in range(4) if tile[s] == GREY)


def rim_sides(tile: Sequence[int]) -> tuple[int, ...]:
    """The coloured sides of a frame tile next to a grey side: on a board they lie along the
    rim and only ever meet other such sides (two on an edge tile, two on a corner)."""
    grey = grey_sides(tile)
    return tuple(s for s in range(4) if tile[s] != GREY
                 and any((s - g) % 4 in (1, 3) for g in grey))


def tile_kind(tile: Sequence[int]) -> str:
    """"corner" (two adjacent grey sides), "edge" (one), "inner" (none) or "invalid"."""
    grey = grey_sides(tile)
    if not grey:
        return "inner"
    if len(grey) == 1:
        return "edge"
    if len(grey) == 2 and (grey[1] - grey[0]) in (1, 3):
        return "corner"
    return "invalid"


class EdgeMatchingPuzzle:
    """A ``width`` x ``height`` board and ``width * height`` tiles, with optional hints.

    The constructor validates everything an engine relies on and raises ``InputError`` with a
    message that says what is wrong (the readers add ``file:line``).
    """

    family = "edge_matching"

    def __init__(self, tiles: Iterable[Sequence[int]], width: int, height: int | None = None, *,
                 hints: Iterable[Hint] = (), n_colours: int | None = None, name: str = ""):
        self.width = whole(width, "the board width")
        self.height = whole(self.width if height is None else height, "the board height")
        if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
            raise InputError(f"tiles must be rows of four colours, got {tiles!r}")
        self.tiles: tuple[tuple[int, int, int, int], ...] = tuple(
            _colours(t, k) for k, t in enumerate(tiles))
        self.hints: tuple[Hint, ...] = tuple(_hint(h) for h in hints)
        self.name = name
        self._check_board()
        used = max((c for t in self.tiles for c in t), default=0)
        self.n_colours = used if n_colours is None else whole(n_colours, "n_colours")
        self._check_tiles()
        self._check_frame()
        self._check_hints()

    # ------------------------------------------------------------------ validation
    def _check_board(self) -> None:
        check_board_size(self.width, self.height)
        for k, t in enumerate(self.tiles):
            if len(t) != 4:
                raise InputError(f"tile {k + 1} has {len(t)} colours, expected 4")
        if len(self.tiles) != self.n_cells:
            raise InputError(f"a {self.width} x {self.height} board needs {self.n_cells} tiles, "
                             f"got {len(self.tiles)}")

    def _check_tiles(self) -> None:
        if not 1 <= self.n_colours <= MAX_COLOURS:
            raise InputError(f"the number of colours must be between 1 and {MAX_COLOURS}, got "
                             f"{self.n_colours}")
        for k, t in enumerate(self.tiles):
            for c in t:
                if not 0 <= c <= self.n_colours:
                    raise InputError(f"tile {k + 1} has colour {c}, outside 0..{self.n_colours}")

    def _check_frame(self) -> None:
        kinds = Counter()
        for k, t in enumerate(self.tiles):
            kind = tile_kind(t)
            if kind == "invalid":
                raise InputError(f"tile {k + 1} ({' '.join(map(str, t))}) has grey on sides that "
                                 f"cannot all face the frame")
            kinds[kind] += 1
        w, h = self.width, self.height
        expected = {"corner": 4, "edge": 2 * (w - 2) + 2 * (h - 2),
                    "inner": (w - 2) * (h - 2)}
        for kind, n in expected.items():
            if kinds[kind] != n:
                raise InputError(f"a {w} x {h} board needs {n} {kind} tiles (grey sides: corner "
                                 f"2, edge 1, inner 0), got {kinds[kind]}")
        # A frame tile's sides next to its grey side lie along the rim, so they only ever meet
        # other such sides: each colour must appear an even number of times among them, and an
        # even number of times among all other sides.
        ring, other = Counter(), Counter()
        for t in self.tiles:
            along = rim_sides(t)
            for s in range(4):
                if t[s] != GREY:
                    (ring if s in along else other)[t[s]] += 1
        for counter, where in ((ring, "on frame sides along the rim"),
                               (other, "on the other sides")):
            odd = sorted(c for c, n in counter.items() if n % 2)
            if odd:
                raise InputError(f"colour {odd[0]} appears an odd number of times {where} "
                                 f"({counter[odd[0]]}): no board can match all its edges")

    def _check_hints(self) -> None:
        cells: dict[int, Hint] = {}
        tiles: dict[int, Hint] = {}
        for hint in self.hints:
            if not (0 <= hint.x < self.width and 0 <= hint.y < self.height):
                raise InputError(f"hint cell {self._where(hint)} is outside the "
                                 f"{self.width} x {self.height} board")
            if not 0 <= hint.tile < self.n_tiles:
                raise InputError(f"hint tile {hint.tile + 1} is not a tile (1..{self.n_tiles})")
            if not 0 <= hint.rotation <= 3:
                raise InputError(f"hint rotation {hint.rotation} is not in 0..3")
            cell = self.cell(hint.x, hint.y)
            if cell in cells:
                raise InputError(f"two hints for the cell at {self._where(hint)}")
            if hint.tile in tiles:
                raise InputError(f"tile {hint.tile + 1} is hinted twice")
            cells[cell] = tiles[hint.tile] = hint
            shown = rotate(self.tiles[hint.tile], hint.rotation)
            for s in range(4):
                border = self.neighbour(cell, s) < 0
                if border != (shown[s] == GREY):
                    raise InputError(
                        f"hint: tile {hint.tile + 1} with rotation {hint.rotation} shows colour "
                        f"{shown[s]} on its {SIDE_NAMES[s]} side at {self._where(hint)}, where "
                        f"{'the frame needs grey' if border else 'grey is not allowed'}")
        for cell, hint in cells.items():
            shown = rotate(self.tiles[hint.tile], hint.rotation)
            for s in (NORTH, EAST):
                other = cells.get(self.neighbour(cell, s))
                if other is not None:
                    facing = rotate(self.tiles[other.tile], other.rotation)[(s + 2) % 4]
                    if facing != shown[s]:
                        raise InputError(f"hints at {self._where(hint)} and {self._where(other)} "
                                         f"do not match ({shown[s]} against {facing})")

    def _where(self, hint: Hint) -> str:
        """A hint's cell as the files number it: rows from the top, both from 1."""
        return f"row {self.height - hint.y}, column {hint.x + 1}"

    # ------------------------------------------------------------------ geometry
    @property
    def n_cells(self) -> int:
        return self.width * self.height

    @property
    def n_tiles(self) -> int:
        return len(self.tiles)

    @property
    def square(self) -> bool:
        return self.width == self.height

    def cell(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def neighbour(self, cell: int, side: int) -> int:
        """The cell beyond ``side`` of ``cell``, or -1 for the frame."""
        x, y = self.xy(cell)
        dx, dy = ((0, 1), (1, 0), (0, -1), (-1, 0))[side]
        x, y = x + dx, y + dy
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.cell(x, y)
        return -1

    def corner_tiles(self) -> list[int]:
        return [k for k, t in enumerate(self.tiles) if tile_kind(t) == "corner"]

    def corner_rotation(self, tile: int, cell: int) -> int:
        """The rotation that puts ``tile``'s grey sides on the frame sides of corner ``cell``."""
        for r in range(4):
            shown = rotate(self.tiles[tile], r)
            if all((shown[s] == GREY) == (self.neighbour(cell, s) < 0) for s in range(4)):
                return r
        raise InputError(f"tile {tile + 1} does not fit corner cell {self.xy(cell)}")

    # ------------------------------------------------------------------ variants
    def with_hints(self, hints: Iterable[Hint]) -> "EdgeMatchingPuzzle":
        return EdgeMatchingPuzzle(self.tiles, self.width, self.height, hints=tuple(hints),
                                  n_colours=self.n_colours, name=self.name)

    def without_hints(self) -> "EdgeMatchingPuzzle":
        return self.with_hints(())

    def turned(self, quarter_turns: int = 1) -> "EdgeMatchingPuzzle":
        """The same puzzle with its board turned clockwise by ``quarter_turns`` quarter turns:
        the tiles as they are, each hint moved and turned with the board (``Board.turned``
        turns a board of this puzzle into one of the turned puzzle, with the same score).  A
        file drawn another way round is this puzzle turned; the benchmarks use it to measure
        the engines on orientations they were not tuned on."""
        width, height, hints = self.width, self.height, self.hints
        for _ in range(quarter_turns % 4):
            hints = tuple(Hint(h.y, width - 1 - h.x, h.tile, (h.rotation - 1) % 4)
                          for h in hints)
            width, height = height, width
        return EdgeMatchingPuzzle(self.tiles, width, height, hints=hints,
                                  n_colours=self.n_colours, name=self.name)

    def symmetry_roots(self, unique: str) -> list[tuple[Hint, ...]]:
        """The sub-searches whose solutions, added up, count the puzzle under ``unique``.

        Each root is the puzzle's hints plus the placements that break the board's symmetry.
        With hints, the hints already fix the board's orientation: one root, the hints alone,
        whatever ``unique`` says.  Without hints, ``raw`` searches everything; ``rotation`` fixes
        the first corner tile: on a square board at the bottom-left corner (exactly one of the
        four rotations of any solution has it there), on an oblong board at the bottom-left or
        the bottom-right corner (the half-turn, the only rotation that maps the board onto
        itself, exchanges bottom-left with top-right and bottom-right with top-left).
        """
        if unique not in UNIQUE_MODES:
            raise InputError(f"unknown counting mode {unique!r}; expected one of "
                             f"{', '.join(UNIQUE_MODES)}")
        if self.hints or unique == "raw":
            return [self.hints]
        corner = self.corner_tiles()[0]
        cells = [self.cell(0, 0)] if self.square else [self.cell(0, 0),
                                                       self.cell(self.width - 1, 0)]
        return [(Hint(*self.xy(c), corner, self.corner_rotation(corner, c)),) for c in cells]

    def effective_unique(self, unique: str) -> str:
        """What the count of ``unique`` means for this puzzle: "hints" when hints fix it."""
        return "hints" if self.hints else unique

    # ------------------------------------------------------------------ compiled form
    @cached_property
    def arrays(self) -> BoardArrays:
        return compile_board(self)

    def solution_from_orientations(self, orientation_of_cell: Sequence[int]) -> BoardSolution:
        """A ``BoardSolution`` from the orientation number placed on every cell (-1: empty)."""
        a = self.arrays
        ori = np.asarray(orientation_of_cell, dtype=np.int64)
        empty = ori < 0
        placed = np.where(empty, 0, ori)
        tiles = np.where(empty, -1, a.ori_tile[placed])
        rotations = np.where(empty, 0, a.ori_rot[placed])
        return BoardSolution(self.width, self.height, tuple(int(t) for t in tiles),
                             tuple(int(r) for r in rotations))

    def board_colours(self, solution: BoardSolution) -> np.ndarray:
        """The colours ``solution`` shows, as an int array ``[height, width, 4]`` (north, east,
        south, west), row 0 being the top row: the layout ``cpkit.render.render_board`` draws.
        An empty cell of a partial board shows -1 on its four sides."""
        n = self.n_cells
        if (solution.width, solution.height) != (self.width, self.height) or \
                len(solution.tiles) != n or len(solution.rotations) != n or \
                any(not -1 <= t < self.n_tiles for t in solution.tiles) or \
                any(not 0 <= r <= 3 for r in solution.rotations):
            # Python's negative indices would show tile -2 as the last tile.
            raise InputError(f"not a board of this {self.width} x {self.height} puzzle: each "
                             f"cell needs a tile 0..{self.n_tiles - 1} (-1: empty) and a "
                             f"rotation 0..3")
        out = np.full((self.height, self.width, 4), -1, dtype=np.int64)
        for y in range(self.height):
            for x in range(self.width):
                tile, rotation = solution.at(x, y)
                if tile >= 0:
                    out[self.height - 1 - y, x] = rotate(self.tiles[tile], rotation)
        return out

    def describe(self) -> str:
        hints = f", {len(self.hints)} hint(s)" if self.hints else ""
        return (f"{self.name or 'edge-matching puzzle'}: {self.width} x {self.height}, "
                f"{self.n_colours} colours{hints}")

    def __repr__(self) -> str:
        return f"EdgeMatchingPuzzle({self.describe()})"


def clockwise_pair(a: int, b: int, n_values: int) -> int:
    return a * n_values + b


def opposite_pair(a: int, b: int, n_values: int) -> int:
    lo, hi = (a, b) if a <= b else (b, a)
    return n_values * n_values + lo * n_values + hi


def tile_pairs(tile: Sequence[int], n_values: int) -> list[int]:
    """The distinct colour pairs of a tile: its clockwise pairs, then its opposite pairs."""
    out: list[int] = []
    for s in range(4):
        p = clockwise_pair(tile[s], tile[(s + 1) % 4], n_values)
        if p not in out:
            out.append(p)
    for s in range(2):
        p = opposite_pair(tile[s], tile[s + 2], n_values)
        if p not in out:
            out.append(p)
    return out


def pack_sides(shown: Sequence[int]) -> int:
    """Four colours in one integer, one byte per side (north in the low byte)."""
    return int(shown[0]) | int(shown[1]) << 8 | int(shown[2]) << 16 | int(shown[3]) << 24


def compile_board(puzzle: EdgeMatchingPuzzle) -> BoardArrays:
    n_values = puzzle.n_colours + 1
    nbr = np.array([[puzzle.neighbour(c, s) for s in range(4)] for c in range(puzzle.n_cells)],
                   dtype=np.int32)
    ori_tile, ori_rot, ori_col, start = [], [], [], [0]
    for k, t in enumerate(puzzle.tiles):
        for r in distinct_rotations(t):
            ori_tile.append(k)
            ori_rot.append(r)
            ori_col.append(rotate(t, r))
        start.append(len(ori_tile))
    ori_col_arr = np.array(ori_col, dtype=np.int32).reshape(-1, 4)
    pairs = np.full((puzzle.n_tiles, 6), -1, dtype=np.int32)
    n_pairs_of = np.zeros(puzzle.n_tiles, dtype=np.int32)
    for k, t in enumerate(puzzle.tiles):
        ps = tile_pairs(t, n_values)
        pairs[k, :len(ps)] = ps
        n_pairs_of[k] = len(ps)
    hint_cell, hint_ori = [], []
    for hint in puzzle.hints:
        shown = rotate(puzzle.tiles[hint.tile], hint.rotation)
        o = next(o for o in range(start[hint.tile], start[hint.tile + 1])
                 if tuple(ori_col_arr[o]) == shown)
        hint_cell.append(puzzle.cell(hint.x, hint.y))
        hint_ori.append(o)
    return BoardArrays(
        width=puzzle.width, height=puzzle.height, n_cells=puzzle.n_cells,
        n_tiles=puzzle.n_tiles, n_values=n_values, n_pairs=2 * n_values * n_values,
        nbr=nbr,
        ori_tile=np.array(ori_tile, dtype=np.int32), ori_rot=np.array(ori_rot, dtype=np.int32),
        ori_col=ori_col_arr,
        ori_packed=np.array([pack_sides(c) for c in ori_col], dtype=np.int64),
        tile_ori_start=np.array(start, dtype=np.int32),
        tile_pairs=pairs, tile_n_pairs=n_pairs_of,
        hint_cell=np.array(hint_cell, dtype=np.int32), hint_ori=np.array(hint_ori, dtype=np.int32))
