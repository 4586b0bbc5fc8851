"""Random tiling puzzles: a box cut at random into pieces of one size, all different.

The benchmarks' puzzles are the classics (pentominoes, the Soma cube, the Tetris Cube), and
the automatic configuration was tuned on them.  A box cut at random gives puzzles nobody has
tuned on, in any number: each piece is grown cell by cell from the free cell with the fewest
free neighbours (the one most likely to be cut off), the growth redrawn while the piece repeats
the shape of another (under the puzzle's rotations) or leaves a pocket of free cells that
pieces of that size cannot fill, the whole cut started again when a piece cannot be grown.
The pieces are then turned at random and shuffled, so the file does not show how they were cut.
The puzzle therefore has at least one solution, the cut.

The generator uses Python's ``random.Random(seed)``, whose draws are stable across Python
versions, so a box, a piece size and a seed name a puzzle for good.
"""

from __future__ import annotations

import math
import random
import string

from ..errors import InputError, whole
from .geometry import (Cell, canonical, component_sizes, group, neighbours, normalize,
                       transform)
from .tiling import Piece, Puzzle

#: Whole cuts tried before giving up, and growths tried for each piece of a cut.
ATTEMPTS = 400
GROWTHS = 60
#: How many different pieces of n cells there are: polyominoes turned over in space (a box
#: one cell thick holds no other) and polycubes under rotation, mirror images apart (OEIS
#: A000105, A000162), by size from 0.  A box holds no more different pieces than these.
FLAT_SHAPES = (0, 1, 1, 2, 5, 12, 35, 108, 369, 1285)
SOLID_SHAPES = (0, 1, 1, 2, 8, 29, 166, 1023, 6922, 48311)
#: The largest box cut (cells): the cut's free-pocket checks walk the box once per piece.
MAX_CELLS = 4096

Cut = list[tuple[str, tuple[Cell, ...]]]


def generate(box: tuple[int, ...], piece_size: int, *, seed: int,
             name: str | None = None) -> Puzzle:
    """A random puzzle: ``box`` (x, y[, z]) cut into pieces of ``piece_size`` cells, all
    different under rotation (see the module's text)."""
    return plant(box, piece_size, seed=seed, name=name)[0]


def plant(box: tuple[int, ...], piece_size: int, *, seed: int, name: str | None = None
          ) -> tuple[Puzzle, Cut]:
    """The puzzle ``generate`` makes and the cut it was made from: each piece's name and its
    cells in the box (a solution of the puzzle, which tests use as a witness)."""
    dims = _box(box)
    size = whole(piece_size, "the piece size")
    cells = math.prod(dims)
    _check(dims, size, cells)
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        cut = _cut(dims, size, rng)
        if cut is not None:
            break
    else:
        raise InputError(f"no cut of the {_describe(dims)} box into {cells // size} different "
                         f"pieces of {size} cells found in {ATTEMPTS} attempts (seed {seed}): "
                         f"try another seed, a larger piece size or a smaller box")
    rotations = _turns(dims)
    names = _names(len(cut))
    order = list(range(len(cut)))
    rng.shuffle(order)
    pieces, placed = [], []
    for k, index in enumerate(order):
        turn = rotations[rng.randrange(len(rotations))]
        drawn = tuple(sorted(normalize(transform(cut[index], turn)),
                             key=lambda c: (c[2], c[1], c[0])))
        pieces.append(Piece(names[k], drawn))
        placed.append((names[k], tuple(sorted(cut[index]))))
    if name is None:
        name = f"cut_{_describe(dims)}_n{size}_s{seed}"
    return Puzzle(pieces, box=dims, name=name), placed


def _box(box: tuple[int, ...]) -> tuple[int, int, int]:
    if len(box) not in (2, 3):
        raise InputError(f"a box has two or three sides, got {len(box)}")
    sides = tuple(whole(side, "a side of the box") for side in box)
    if min(sides) < 1:
        raise InputError(f"the sides of a box are at least 1, got {_describe(sides)}")
    return (sides + (1,))[:3]


def _check(dims: tuple[int, int, int], size: int, cells: int) -> None:
    if size < 2:
        raise InputError(f"pieces of {size} cell(s) cannot all be different; the piece size "
                         f"is at least 2")
    if cells > MAX_CELLS:
        raise InputError(f"the {_describe(dims)} box has {cells} cells; at most {MAX_CELLS}")
    if cells % size:
        raise InputError(f"the {_describe(dims)} box has {cells} cells, not a multiple of the "
                         f"piece size {size}")
    pieces = cells // size
    if pieces < 2:
        raise InputError(f"the {_describe(dims)} box holds one piece of {size} cells; a "
                         f"puzzle has at least two")
    flat = min(dims) == 1
    shapes = (FLAT_SHAPES if flat else SOLID_SHAPES)
    if size < len(shapes) and pieces > shapes[size]:
        raise InputError(f"there are {shapes[size]} different "
                         f"{'flat ' if flat else ''}pieces of {size} cells, and the "
                         f"{_describe(dims)} box takes {pieces}: try a larger piece size or "
                         f"a smaller box")


def _turns(dims: tuple[int, int, int]) -> list:
    """The rotations a piece is drawn in at random: any, in a solid box; in a flat one,
    those that keep it flat (its thin axis onto itself), so a flat puzzle's file is flat."""
    rotations = group("rotations")
    if min(dims) > 1:
        return list(rotations)
    thin = dims.index(1)
    return [m for m in rotations if m[thin][thin] != 0]


def _describe(dims: tuple[int, ...]) -> str:
    return "x".join(map(str, dims))


def _names(count: int) -> list[str]:
    letters = string.ascii_uppercase + string.ascii_lowercase
    return [letters[k] if k < len(letters) else f"P{k + 1}" for k in range(count)]


def _cut(dims: tuple[int, int, int], size: int, rng: random.Random
         ) -> list[tuple[Cell, ...]] | None:
    """One attempt at the cut: the pieces' cells, or None where a piece could not be grown."""
    free = {(x, y, z) for z in range(dims[2]) for y in range(dims[1]) for x in range(dims[0])}
    shapes: set[tuple[Cell, ...]] = set()
    pieces = []
    while free:
        start = _most_enclosed(free, rng)
        for _ in range(GROWTHS):
            piece = _grow(start, free, size, rng)
            if piece is None:
                return None
            shape = canonical(piece, "rotations")
            if shape not in shapes and _fillable(free - set(piece), size):
                break
        else:
            return None
        shapes.add(shape)
        free -= set(piece)
        pieces.append(piece)
    return pieces


def _most_enclosed(free: set[Cell], rng: random.Random) -> Cell:
    """A free cell with the fewest free neighbours (a random one of them)."""
    open_sides = {c: sum(n in free for n in neighbours(c)) for c in free}
    fewest = min(open_sides.values())
    return rng.choice(sorted(c for c, sides in open_sides.items() if sides == fewest))


def _grow(start: Cell, free: set[Cell], size: int, rng: random.Random
          ) -> tuple[Cell, ...] | None:
    """``size`` free cells joined face to face from ``start``, each next one a random free
    neighbour of those taken; None if they run out first."""
    taken = [start]
    seen = {start}
    while len(taken) < size:
        rim = sorted({n for c in taken for n in neighbours(c) if n in free and n not in seen})
        if not rim:
            return None
        cell = rng.choice(rim)
        taken.append(cell)
        seen.add(cell)
    return tuple(taken)


def _fillable(free: set[Cell], size: int) -> bool:
    """Whether every pocket of free cells (a part joined face to face) could take whole
    pieces of ``size`` cells: its cells a multiple of it."""
    return all(cells % size == 0 for cells in component_sizes(free))


def parse_box(text: str) -> tuple[int, ...]:
    """``"3x4x5"`` or ``"10x6"`` as sides."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise InputError(f"a box is written WxH or WxHxD (e.g. 10x6 or 3x4x5), got {text!r}")
    return tuple(int(p) for p in parts)

