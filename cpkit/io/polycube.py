"""polycube puzzle-definition files (the format of Busche's polycube 1.2.1; docs/formats.md).

A file holds one or more puzzles, each ``D:...`` ... ``~D``::

    # comment to end of line
    D:xDim=10:yDim=6:zDim=1[:oneSide]
    C:name=X:type=M:layout=1 0 0, 0 1 0, 1 1 0, 2 1 0, 1 2 0
    L[:stationary=* ...]
    . A A , . . B        <- one y-row (top row first), z-layers separated by commas
    ~L
    ~D

Everything reported as ``InputError`` carries ``file:line``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from .text import read_text, whole_number
from ..models.geometry import Cell, is_connected
from ..models.tiling import Piece, Puzzle

_D_TAGS = {"xDim", "yDim", "zDim", "oneSide"}
_C_TAGS = {"name", "type", "layout"}
#: Layout coordinates beyond this overflowed the 64-bit arithmetic of the rotations (a traceback);
#: no box is more than 1000 cells long, so a piece reaching this far is a typing error anyway.
MAX_COORDINATE = 10**9
_L_TAGS = {"stationary"}


@dataclass
class _PieceDef:
    name: str
    cells: list[Cell]
    stationary: bool
    line: int


@dataclass
class _PuzzleDef:
    line: int
    box: tuple[int, int, int]
    one_sided: bool
    pieces: list[_PieceDef] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)   # name -> line of definition
    fixed: dict[Cell, str] = field(default_factory=dict)  # cell -> stationary piece on it


def read_polycube(path: str | Path) -> list[Puzzle]:
    """All puzzles in a definition file."""
    return parse_polycube(read_text(path), str(path))


def parse_polycube(text: str, path: str = "<input>") -> list[Puzzle]:
    stem = Path(path).stem
    defs = _Parser(path).parse(text.splitlines())
    puzzles = []
    for k, d in enumerate(defs):
        name = stem if len(defs) == 1 else f"{stem}#{k + 1}"
        pieces = [Piece(p.name, tuple(p.cells), p.stationary) for p in d.pieces]
        try:
            puzzles.append(Puzzle(pieces, box=d.box, one_sided=d.one_sided, name=name))
        except InputError as exc:
            raise exc.located(path, d.line) from None
    return puzzles


class _Parser:
    def __init__(self, path: str):
        self.path = path

    def error(self, line: int, message: str) -> InputError:
        return InputError(message, self.path, line)

    def parse(self, lines: list[str]) -> list[_PuzzleDef]:
        puzzles: list[_PuzzleDef] = []
        current: _PuzzleDef | None = None
        block: list[tuple[int, str]] | None = None    # rows of an open L block
        block_head: tuple[int, dict[str, str | bool]] | None = None
        last = 0
        for lineno, raw in enumerate(lines, start=1):
            last = lineno
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            if block is not None:
                if text == "~L":
                    self._picture(current, block_head, block)
                    block = block_head = None
                elif text == "~D":
                    raise self.error(lineno, "~D inside an L block: close the picture with ~L "
                                             "first")
                else:
                    block.append((lineno, text))
                continue
            directive, tags = self._directive(lineno, text)
            if directive == "D":
                if current is not None:
                    raise self.error(lineno, f"a new D line before the puzzle begun at line "
                                             f"{current.line} was closed with ~D")
                current = self._d_line(lineno, tags)
            elif current is None:
                raise self.error(lineno, f"expected a D line to start a puzzle, found "
                                         f"'{directive}'")
            elif directive == "C":
                self._c_line(current, lineno, tags)
            elif directive == "L":
                self._check_tags(lineno, "L", tags, _L_TAGS, required=())
                block, block_head = [], (lineno, tags)
            elif directive == "~D":
                if tags:
                    raise self.error(lineno, "~D takes no fields")
                if not current.pieces:
                    raise self.error(lineno, "the puzzle defines no pieces")
                puzzles.append(current)
                current = None
            elif directive == "~L":
                raise self.error(lineno, "~L without an open L block")
            else:
                raise self.error(lineno, f"unknown directive '{directive}' (expected D, C, L, ~L "
                                         f"or ~D)")
        if block is not None:
            raise self.error(block_head[0], "L block not closed with ~L before the end of the file")
        if current is not None:
            raise self.error(current.line, "puzzle not closed with ~D before the end of the file")
        if not puzzles:
            raise self.error(max(last, 1), "no puzzle in the file (expected D:xDim=..:yDim=..:"
                                           "zDim=.. ... ~D)")
        return puzzles

    # ---------------------------------------------------------------- directive lines
    def _directive(self, lineno: int, text: str) -> tuple[str, dict[str, str | bool]]:
        fields = [f.strip() for f in text.split(":")]
        directive, tags = fields[0], {}
        for f in fields[1:]:
            if not f:
                raise self.error(lineno, "empty field (two colons in a row?)")
            key, eq, value = f.partition("=")
            key = key.strip()
            if key in tags:
                raise self.error(lineno, f"tag '{key}' given twice")
            tags[key] = value.strip() if eq else True
        return directive, tags

    def _check_tags(self, lineno, directive, tags, allowed, required) -> None:
        for key in tags:
            if key not in allowed:
                raise self.error(lineno, f"unknown tag '{key}' on a {directive} line (expected "
                                         f"{', '.join(sorted(allowed))})")
        for key in required:
            if key not in tags:
                raise self.error(lineno, f"{directive} line lacks '{key}='")

    def _int_tag(self, lineno: int, tags, key: str) -> int:
        value = tags[key]
        number = None if value is True else whole_number(str(value))
        if number is None:
            raise self.error(lineno, f"{key} must be a whole number, got {value!r}")
        if number < 1:
            raise self.error(lineno, f"{key} must be at least 1, got {number}")
        if number > 1000:
            raise self.error(lineno, f"{key}={number} is too large (at most 1000)")
        return number

    def _d_line(self, lineno: int, tags) -> _PuzzleDef:
        self._check_tags(lineno, "D", tags, _D_TAGS, required=("xDim", "yDim", "zDim"))
        box = tuple(self._int_tag(lineno, tags, k) for k in ("xDim", "yDim", "zDim"))
        one_sided = tags.get("oneSide", False)
        if one_sided is not True and one_sided is not False:
            raise self.error(lineno, "oneSide is a bare flag and takes no value")
        if one_sided and box[2] != 1:
            raise self.error(lineno, f"oneSide needs zDim=1, got zDim={box[2]}")
        return _PuzzleDef(lineno, box, bool(one_sided))

    def _c_line(self, d: _PuzzleDef, lineno: int, tags) -> None:
        self._check_tags(lineno, "C", tags, _C_TAGS, required=("name", "layout"))
        name = tags["name"]
        if name is True or not name:
            raise self.error(lineno, "name needs a value: name=NAME")
        if any(ch.isspace() for ch in name) or not name.isprintable():
            raise self.error(lineno, f"invalid piece name {name!r} (no spaces or control "
                                     f"characters)")
        kind = tags.get("type", "M")
        if kind not in ("M", "S"):
            raise self.error(lineno, f"type must be M (mobile) or S (stationary), got {kind!r}")
        layout = tags["layout"]
        if layout is True:
            raise self.error(lineno, "layout needs a value: x y z, x y z, ...")
        cells = []
        for k, triple in enumerate(layout.split(","), start=1):
            parts = triple.split()
            cell = tuple(whole_number(p) for p in parts)
            if len(cell) != 3 or None in cell:
                raise self.error(lineno, f"layout cell {k} is {triple.strip()!r}; expected three "
                                         f"whole numbers 'x y z'")
            if any(abs(v) > MAX_COORDINATE for v in cell):
                raise self.error(lineno, f"layout cell {k} is {triple.strip()!r}; coordinates "
                                         f"are at most {MAX_COORDINATE:,} in absolute value")
            cells.append(cell)
        if len(set(cells)) != len(cells):
            raise self.error(lineno, f"piece {name} lists a cell twice")
        if d.one_sided and any(c[2] != 0 for c in cells):
            raise self.error(lineno, f"piece {name}: in a oneSide puzzle every z must be 0")
        self._add(d, _PieceDef(name, cells, kind == "S", lineno))

    def _picture(self, d: _PuzzleDef, head, rows: list[tuple[int, str]]) -> None:
        head_line, tags = head
        stationary_names: set[str] = set()
        if "stationary" in tags:
            value = tags["stationary"]
            if value is True or not value.split():
                raise self.error(head_line, "stationary= needs one or more piece names")
            stationary_names = set(value.split())
        if not rows:
            raise self.error(head_line, "empty L block")
        X, Y, Z = d.box
        cells: dict[str, list[Cell]] = {}
        first_line: dict[str, int] = {}
        for r, (lineno, text) in enumerate(rows):
            y = Y - 1 - r
            for z, layer in enumerate(text.split(",")):
                for x, token in enumerate(layer.split()):
                    if token == ".":
                        continue
                    cells.setdefault(token, []).append((x, y, z))
                    first_line.setdefault(token, lineno)
        for missing in sorted(stationary_names - cells.keys()):
            raise self.error(head_line, f"stationary piece '{missing}' does not appear in the "
                                        f"picture")
        for name, cs in cells.items():
            is_stationary = name in stationary_names
            if d.one_sided and any(c[2] != 0 for c in cs):
                raise self.error(first_line[name], f"piece {name}: a oneSide puzzle has one "
                                                   f"layer (no commas in the picture)")
            self._add(d, _PieceDef(name, cs, is_stationary, first_line[name]))

    def _add(self, d: _PuzzleDef, piece: _PieceDef) -> None:
        """Checks of one piece, reported at the line that defines it (the model checks them
        too, but knows no lines: they were reported at the puzzle's D line)."""
        if piece.name in d.names:
            raise self.error(piece.line, f"piece name '{piece.name}' already defined at line "
                                         f"{d.names[piece.name]}")
        if not piece.name.isprintable():
            raise self.error(piece.line, f"invalid piece name {piece.name!r} (no control "
                                         f"characters)")
        if piece.stationary:
            X, Y, Z = d.box
            for c in piece.cells:
                if not (0 <= c[0] < X and 0 <= c[1] < Y and 0 <= c[2] < Z):
                    raise self.error(piece.line, f"stationary piece {piece.name} has cell "
                                                 f"{c[0]} {c[1]} {c[2]} outside the {X}x{Y}x{Z} box")
                if c in d.fixed:
                    raise self.error(piece.line, f"stationary pieces {d.fixed[c]} and "
                                                 f"{piece.name} overlap at {c[0]} {c[1]} {c[2]}")
            d.fixed.update((c, piece.name) for c in piece.cells)
        elif not is_connected(piece.cells):
            raise self.error(piece.line, f"piece {piece.name} is not connected: its cells do "
                                         f"not all join face to face (a polycube is one solid)")
        d.names[piece.name] = piece.line
        d.pieces.append(piece)


# ---------------------------------------------------------------------- writing
def write_polycube(puzzles: Puzzle | list[Puzzle], out: TextIO, comment: str = "") -> None:
    """Write puzzles so that polycube (and ``read_polycube``) read them back unchanged.

    A puzzle built from an explicit region gets a stationary piece ``*`` filling the cells of its
    bounding box outside the region, which is how the format expresses irregular regions.
    Stationary pieces are drawn in one picture unless a name cannot stand in one (``.``, a
    comma, a leading ``~``); then they are written as ``C`` lines of type S.  A name the format
    cannot hold at all (a colon or ``#``) is an ``InputError``.
    """
    if isinstance(puzzles, Puzzle):
        puzzles = [puzzles]
    if any(p.mirror for p in puzzles):
        # It read back without it: another puzzle, with another count.
        raise InputError("the polycube format has no mirror flag: write the puzzle without "
                         "mirror=True and solve it with --mirror (mirror=True)")
    for line in comment.splitlines():
        out.write(f"# {line}\n" if line else "#\n")
    for p in puzzles:
        X, Y, Z = p.box
        flag = ":oneSide" if p.one_sided else ""
        out.write(f"D:xDim={X}:yDim={Y}:zDim={Z}{flag}\n")
        pieces = list(p.pieces)
        taken = {c for q in p.stationary_pieces for c in q.cells} | set(p.cells)
        filler = [(x, y, z) for z in range(Z) for y in range(Y) for x in range(X)
                  if (x, y, z) not in taken]
        if filler:
            name = "*"
            while any(q.name == name for q in pieces):
                name += "*"
            pieces.append(Piece(name, tuple(filler), True))
        for q in pieces:
            _check_writable(q.name)
        fixed = [q for q in pieces if q.stationary]
        drawn = fixed if all(_drawable(q.name) for q in fixed) else []
        for q in pieces:
            if q not in drawn:
                layout = ", ".join(f"{x} {y} {z}" for x, y, z in q.cells)
                kind = "S" if q.stationary else "M"
                out.write(f"C:name={q.name}:type={kind}:layout={layout}\n")
        if drawn:
            # Stationary pieces as one picture: it shows the region's shape at a glance.
            owner = {c: q.name for q in drawn for c in q.cells}
            width = max(len(q.name) for q in drawn)
            out.write(f"L:stationary={' '.join(q.name for q in drawn)}\n")
            for y in range(Y - 1, -1, -1):
                layers = [" ".join(owner.get((x, y, z), ".").ljust(width) for x in range(X))
                          for z in range(Z)]
                out.write(" , ".join(layers).rstrip() + "\n")
            out.write("~L\n")
        out.write("~D\n")


def _check_writable(name: str) -> None:
    if ":" in name or "#" in name:
        raise InputError(f"piece name {name!r} cannot be written in the polycube format "
                         f"(':' separates fields, '#' starts a comment)")


def _drawable(name: str) -> bool:
    """Whether ``name`` reads back as that piece's name when it stands in a picture."""
    return name != "." and "," not in name and not name.startswith("~")
