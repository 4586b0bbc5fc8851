"""Edge-matching puzzle files: the paper's native format, Brendan Owen's and Heule's layouts.

All three are whitespace-separated integers, one record per line (docs/formats.md):

- ``native`` (Benoist's benchmark files): board size ``N`` (cpkit also accepts and writes
  ``W H`` for an oblong board), the number of colours, the number of hints, one
  ``row column tile rotation`` line per hint (rows from the top, columns from the left, tiles
  from 1, all 1-based), then one ``top right bottom left`` line per tile;
- ``owen``: ``W H``, then one ``N E S W`` line per tile;
- ``heule``: the number of hints first, the hint lines (as in the native format), then ``W H``
  (or ``N``), then the tiles.

Blank lines and ``#`` comments are ignored.  ``detect_format`` tells the layouts apart from the
number of integers on the first lines.  Every error is reported as ``file:line: message``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from ..models.edge_matching import (GREY, MAX_COLOURS, MAX_SIDE, EdgeMatchingPuzzle, Hint,
                                    tile_kind)
from .text import read_text, whole_number

FORMATS = ("native", "owen", "heule")


@dataclass
class _Line:
    number: int
    values: list[int]


def read_edge_matching(path: str | Path, *, format: str = "auto",
                       ignore_hints: bool = False) -> EdgeMatchingPuzzle:
    """The puzzle in ``path``; ``format`` is one of ``FORMATS`` or "auto"."""
    return parse_edge_matching(read_text(path), str(path), format=format,
                               ignore_hints=ignore_hints)


def looks_like_edge_matching(text: str) -> bool:
    """True if the first meaningful line is whole numbers only (a polycube file starts with a
    ``D:`` directive)."""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            return all(whole_number(tok) is not None for tok in line.split())
    return False


def _lines(text: str, path: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split("#", 1)[0].split()
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
    first = len(lines[0].values)
    second = len(lines[1].values) if len(lines) > 1 else 0
    if first == 2 and second == 4:
        return "owen"
    if first in (1, 2) and second == 1:
        return "native"
    if first == 1 and second in (2, 4):
        return "heule"
    raise InputError(
        "cannot tell the layout of this file (native: size, colours, hints, ...; owen: 'W H' "
        "then tiles; heule: hint count, hints, 'W H', tiles); name it with --format",
        path, lines[0].number)


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

    def hints(self, n: int, width: int | None, height: int | None,
              n_tiles: int | None) -> list[tuple[_Line, int, int, int, int]]:
        out = []
        for _ in range(n):
            line = self.take("a hint: row column tile rotation", (4,))
            out.append((line, *line.values))
        return out

    def tiles(self, n: int, n_colours: int | None) -> list[tuple[int, ...]]:
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


def _hints(raw, width: int, height: int, n_tiles: int, reader: _Reader) -> list[Hint]:
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
        out.append(Hint(column - 1, height - row, tile - 1, rotation))
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
        raw_hints = reader.hints(n_hints, width, height, width * height)
    elif format == "heule":
        n_hints = reader.count("the number of hints", 0, MAX_SIDE * MAX_SIDE)
        raw_hints = reader.hints(n_hints, None, None, None)
        width, height = reader.size()
    else:
        width, height = reader.size()
    tiles = reader.tiles(width * height, n_colours)
    reader.end()
    hints = _hints(raw_hints, width, height, len(tiles), reader)
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


def format_board(puzzle: EdgeMatchingPuzzle, solution, colours: bool = False) -> str:
    """A solution as a grid, top row first: ``tile/rotation`` per cell (tiles from 1, as in the
    files); with ``colours``, each cell as ``north east south west`` instead.  The empty cells
    of a partial board show ``.``."""
    rows = []
    for y in range(puzzle.height - 1, -1, -1):
        cells = []
        for x in range(puzzle.width):
            tile, rot = solution.at(x, y)
            if tile < 0:
                cells.append(".")
            elif colours:
                shown = [puzzle.tiles[tile][(s + rot) % 4] for s in range(4)]
                cells.append(".".join(str(c) for c in shown))
            else:
                cells.append(f"{tile + 1}/{rot}")
        rows.append(cells)
    width = max(len(c) for row in rows for c in row)
    return "\n".join(" ".join(c.rjust(width) for c in row) for row in rows)
