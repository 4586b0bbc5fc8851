"""Edge-matching puzzle files: the paper's native format and the community's published layouts.

All four are whitespace-separated integers, one record per line (docs/formats.md):

- ``native`` (Benoist's benchmark files): board size ``N`` (cpkit also accepts and writes
  ``W H`` for an oblong board), the number of colours, the number of hints, one
  ``row column tile rotation`` line per hint (rows from the top, columns from the left, tiles
  from 1, all 1-based; rotation: the side of the tile that faces north), then one
  ``top right bottom left`` line per tile;
- ``heule`` (Heule's files, e.g. the Eternity II pieces and its four clue puzzles): the number
  of hints, the hint lines (rotation counted in clockwise quarter turns, as Heule's encoder
  applies it), then the tiles to the end of the file; no size line;
- ``puz`` (Gallicchio's ``.puz``): ``W H``, then one ``N E S W`` line per tile;
- ``tiles`` (Brendan Owen's published sets): the tiles alone, one ``up right down left`` line
  each.

Where no size is written it follows from the numbers of corner, edge and inner tiles
(``board_size``), oblong boards included.  Blank lines, ``#`` comments and ``c`` comment lines
are ignored.  ``detect_format`` tells the layouts apart from the number of integers on the first
lines.  Every error is reported as ``file:line: message``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from ..models.edge_matching import (GREY, MAX_COLOURS, MAX_SIDE, EdgeMatchingPuzzle, Hint,
                                    tile_kind)
from .text import read_text, whole_number

FORMATS = ("native", "heule", "puz", "tiles")


@dataclass
class _Line:
    number: int
    values: list[int]


def read_edge_matching(path: str | Path, *, format: str = "auto",
                       ignore_hints: bool = False) -> EdgeMatchingPuzzle:
    """The puzzle in ``path``; ``format`` is one of ``FORMATS`` or "auto"."""
    return parse_edge_matching(read_text(path), str(path), format=format,
                               ignore_hints=ignore_hints)


def _meaningful(raw: str) -> list[str]:
    """The tokens of one line without its comment: ``#`` to the end of the line, or the whole
    line when its first token is ``c`` (the DIMACS-style comments of ``.puz`` files)."""
    tokens = raw.split("#", 1)[0].split()
    return [] if tokens[:1] == ["c"] else tokens


def looks_like_edge_matching(text: str) -> bool:
    """True if the first meaningful line is whole numbers only (a polycube file starts with a
    ``D:`` directive)."""
    for raw in text.splitlines():
        tokens = _meaningful(raw)
        if tokens:
            return all(whole_number(tok) is not None for tok in tokens)
    return False


def _lines(text: str, path: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = _meaningful(raw)
        if not tokens:
            continue
        values = [whole_number(tok) for tok in tokens]
        if None in values:
            bad = tokens[values.index(None)]
            raise InputError(f"expected whole numbers, found {bad!r}", path, number)
        out.append(_Line(number, values))
    if not out:
        raise InputError("the file is empty", path)
    return out


def detect_format(lines: list[_Line], path: str) -> str:
    """The layout, from the number of values on the first two lines: four on the first is a
    tile (``tiles``); a size line ``W H`` then a tile is ``puz``; a size (one or two numbers)
    then one number, the colours, is ``native``; one number, the hint count, then four, a hint
    or a tile, is ``heule``."""
    first = len(lines[0].values)
    second = len(lines[1].values) if len(lines) > 1 else 0
    if first == 4:
        return "tiles"
    if first == 2 and second == 4:
        return "puz"
    if first in (1, 2) and second == 1:
        return "native"
    if first == 1 and second == 4:
        return "heule"
    shape = f"{first} number{'s' if first != 1 else ''}" + \
        (f", then {second}" if second else ", then nothing")
    raise InputError(
        f"cannot tell the layout of this file from its first lines ({shape}): name it with "
        f"--format native (size, colours, hints, tiles), --format heule (hint count, hints, "
        f"tiles), --format puz ('W H', tiles) or --format tiles (tiles only)",
        path, lines[0].number)


def board_size(tiles: list[tuple[int, ...]]) -> tuple[int, int] | None:
    """``(width, height)`` of the board ``tiles`` fill, from their numbers of corner, edge and
    inner tiles: a W x H board has 4 corners, ``2(W-2) + 2(H-2)`` edge tiles and
    ``(W-2)(H-2)`` inner ones, so ``W-2`` and ``H-2`` are the roots of
    ``z^2 - (edges / 2) z + inner``.  An oblong board is laid wider than high (Heule's encoder
    takes the fewest rows).  None if the numbers fit no board."""
    kinds = Counter(tile_kind(t) for t in tiles)
    if kinds["corner"] != 4 or kinds["edge"] % 2 or kinds["invalid"]:
        return None
    half, inner = kinds["edge"] // 2, kinds["inner"]
    root = math.isqrt(max(half * half - 4 * inner, 0))
    if root * root != half * half - 4 * inner or (half + root) % 2:
        return None
    return (half + root) // 2 + 2, (half - root) // 2 + 2


class _Reader:
    """Consumes the numeric lines of one file in order, with located errors."""

    def __init__(self, lines: list[_Line], path: str):
        self.lines = lines
        self.path = path
        self.at = 0

    def error(self, message: str, line: _Line | None = None) -> InputError:
        if line is None:
            line = self.lines[min(self.at, len(self.lines) - 1)]
        return InputError(message, self.path, line.number)

    def take(self, what: str, sizes: tuple[int, ...]) -> _Line:
        if self.at >= len(self.lines):
            last = self.lines[-1].number
            raise InputError(f"the file ends early: expected {what}", self.path, last)
        line = self.lines[self.at]
        if len(line.values) not in sizes:
            want = " or ".join(str(s) for s in sizes)
            raise self.error(f"expected {what} ({want} number{'s' if sizes != (1,) else ''}), "
                             f"found {len(line.values)}", line)
        self.at += 1
        return line

    def size(self) -> tuple[int, int]:
        line = self.take("the board size (N, or W H)", (1, 2))
        width = line.values[0]
        height = line.values[-1]
        for v in (width, height):
            if not 2 <= v <= MAX_SIDE:
                raise self.error(f"board side {v} is outside 2..{MAX_SIDE}", line)
        return width, height

    def count(self, what: str, low: int, high: int) -> int:
        line = self.take(what, (1,))
        value = line.values[0]
        if not low <= value <= high:
            raise self.error(f"{what} must be between {low} and {high}, got {value}", line)
        return value

    def hints(self, n: int) -> list[tuple[_Line, int, int, int, int]]:
        out = []
        for _ in range(n):
            line = self.take("a hint: row column tile rotation", (4,))
            out.append((line, *line.values))
        return out

    def tiles(self, n: int | None, n_colours: int | None) -> list[tuple[int, ...]]:
        """``n`` tile lines, or every line left if ``n`` is None (layouts without a size)."""
        if n is None:
            n = len(self.lines) - self.at
            if n == 0:
                raise self.error("the file ends early: expected the tiles")
        out = []
        for k in range(n):
            line = self.take(f"tile {k + 1} of {n}: four colours", (4,))
            for c in line.values:
                if c < 0 and n_colours is None:
                    raise self.error(f"colour {c} is negative (colours are 0, the grey frame, "
                                     f"or more)", line)
                if c < 0 or (n_colours is not None and c > n_colours):
                    raise self.error(f"colour {c} is outside 0..{n_colours}", line)
            if tile_kind(line.values) == "invalid":
                raise self.error(f"tile {k + 1} has grey ({GREY}) on sides that cannot all face "
                                 f"the frame", line)
            out.append(tuple(line.values))
        return out

    def end(self) -> None:
        if self.at < len(self.lines):
            raise self.error("unexpected extra line after the last tile", self.lines[self.at])

    def sized(self, tiles: list[tuple[int, ...]]) -> tuple[int, int]:
        """The board of a layout that writes no size: from the tiles' kinds, else a square of
        their number (the puzzle then says which kind is short), else an error."""
        size = board_size(tiles)
        side = math.isqrt(len(tiles))
        if size is None and side * side == len(tiles) and side >= 2:
            size = side, side
        if size is None:
            kinds = Counter(tile_kind(t) for t in tiles)
            raise InputError(f"the file writes no board size and its {len(tiles)} tiles "
                             f"({kinds['corner']} corner, {kinds['edge']} edge, "
                             f"{kinds['inner']} inner: grey sides 2, 1, 0) fill no W x H board",
                             self.path)
        if max(size) > MAX_SIDE:
            raise InputError(f"the tiles make a {size[0]} x {size[1]} board, larger than "
                             f"{MAX_SIDE} on a side", self.path)
        return size


def _hints(raw, width: int, height: int, n_tiles: int, reader: _Reader,
           clockwise: bool) -> list[Hint]:
    """The hints as ``Hint``s: rows from the top and columns from the left, both from 1, to
    cells; a rotation in clockwise quarter turns (``clockwise``) to the side facing north."""
    out = []
    for line, row, column, tile, rotation in raw:
        if not 1 <= row <= height:
            raise reader.error(f"hint row {row} is outside 1..{height}", line)
        if not 1 <= column <= width:
            raise reader.error(f"hint column {column} is outside 1..{width}", line)
        if not 1 <= tile <= n_tiles:
            raise reader.error(f"hint tile {tile} is outside 1..{n_tiles}", line)
        if not 0 <= rotation <= 3:
            raise reader.error(f"hint rotation {rotation} is outside 0..3", line)
        out.append(Hint(column - 1, height - row, tile - 1,
                        (-rotation) % 4 if clockwise else rotation))
    return out


def parse_edge_matching(text: str, path: str = "<input>", *, format: str = "auto",
                        ignore_hints: bool = False) -> EdgeMatchingPuzzle:
    lines = _lines(text, path)
    if format == "auto":
        format = detect_format(lines, path)
    if format not in FORMATS:
        raise InputError(f"unknown edge-matching format {format!r}; expected one of "
                         f"{', '.join(FORMATS)} or auto")
    reader = _Reader(lines, path)
    n_colours = None
    raw_hints: list = []
    if format == "native":
        width, height = reader.size()
        n_colours = reader.count("the number of colours", 1, MAX_COLOURS)
        n_hints = reader.count("the number of hints", 0, width * height)
        raw_hints = reader.hints(n_hints)
        tiles = reader.tiles(width * height, n_colours)
    elif format == "puz":
        width, height = reader.size()
        tiles = reader.tiles(width * height, n_colours)
    else:
        if format == "heule":
            n_hints = reader.count("the number of hints", 0, MAX_SIDE * MAX_SIDE)
            raw_hints = reader.hints(n_hints)
        tiles = reader.tiles(None, n_colours)
        width, height = reader.sized(tiles)
    reader.end()
    hints = _hints(raw_hints, width, height, len(tiles), reader, clockwise=format == "heule")
    try:
        return EdgeMatchingPuzzle(tiles, width, height, hints=() if ignore_hints else hints,
                                  n_colours=n_colours, name=Path(path).name.split(".")[0])
    except InputError as exc:
        raise exc.located(path) from None


def format_native(puzzle: EdgeMatchingPuzzle) -> str:
    """The puzzle in the native format (``W H`` on the first line for an oblong board)."""
    size = f"{puzzle.width}" if puzzle.square else f"{puzzle.width} {puzzle.height}"
    out = [size, str(puzzle.n_colours), str(len(puzzle.hints))]
    for h in puzzle.hints:
        out.append(f"{puzzle.height - h.y} {h.x + 1} {h.tile + 1} {h.rotation}")
    out.extend(" ".join(str(c) for c in t) for t in puzzle.tiles)
    return "\n".join(out) + "\n"


def write_native(puzzle: EdgeMatchingPuzzle, out: str | Path | TextIO) -> None:
    text = format_native(puzzle)
    if isinstance(out, (str, Path)):
        Path(out).write_text(text)
    else:
        out.write(text)
