"""Named piece sets of the classic puzzles, written from their shapes.

Shapes are given as picture strings (one row per line, top row first, ``#`` a cell) or, for
polycubes, as cell lists.  ``free_polyominoes(n)`` enumerates every free n-omino, which is how the
35 hexominoes are produced rather than typed in.
"""

from __future__ import annotations


from .geometry import Cell, Shape, canonical, group, neighbours, normalize, transform


def picture(text: str) -> Shape:
    """Cells of a planar picture: rows top to bottom, ``#`` (or any non-space, non-dot) a cell."""
    rows = [r for r in text.strip("\n").splitlines()]
    height = len(rows)
    cells = [(x, height - 1 - y, 0) for y, row in enumerate(rows)
             for x, ch in enumerate(row) if ch not in " ."]
    return normalize(cells)


PENTOMINOES: dict[str, Shape] = {
    "F": picture(".##\n##.\n.#."),
    "I": picture("#####"),
    "L": picture("#.\n#.\n#.\n##"),
    "N": picture(".#\n.#\n##\n#."),
    "P": picture("##\n##\n#."),
    "T": picture("###\n.#.\n.#."),
    "U": picture("#.#\n###"),
    "V": picture("#..\n#..\n###"),
    "W": picture("#..\n##.\n.##"),
    "X": picture(".#.\n###\n.#."),
    "Y": picture(".#\n##\n.#\n.#"),
    "Z": picture("##.\n.#.\n.##"),
}

TETROMINOES: dict[str, Shape] = {
    "i": picture("####"),
    "o": picture("##\n##"),
    "t": picture("###\n.#."),
    "l": picture("#.\n#.\n##"),
    "s": picture(".##\n##."),
}


def mirrored(shape: Shape) -> Shape:
    """The mirror image (x -> -x)."""
    return normalize([(-x, y, z) for x, y, z in shape])


def one_sided_pentominoes() -> dict[str, Shape]:
    """The 18 one-sided pentominoes: the 12 free ones plus the mirror image (lower-case name) of
    each of the six that differ from their mirror image under plane rotations."""
    out = dict(PENTOMINOES)
    for name, shape in PENTOMINOES.items():
        if canonical(shape, "planar") != canonical(mirrored(shape), "planar"):
            out[name.lower()] = mirrored(shape)
    return out


# The Tetris Cube, as in the seed's definition file (cells x y z).
TETRIS_CUBE: dict[str, Shape] = {
    "A": ((0, 0, 2), (1, 0, 2), (2, 0, 2), (2, 0, 1), (2, 0, 0), (2, 1, 0)),
    "B": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (2, 2, 0), (2, 1, 1)),
    "C": ((0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1), (2, 1, 1)),
    "D": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (3, 1, 0)),
    "E": ((0, 0, 1), (0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (2, 1, 0)),
    "F": ((0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1), (0, 1, 0)),
    "G": ((0, 2, 0), (0, 1, 0), (0, 0, 0), (1, 0, 0), (2, 0, 0)),
    "H": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (2, 1, 0)),
    "I": ((0, 0, 1), (1, 0, 1), (2, 0, 1), (0, 1, 1), (0, 1, 0)),
    "J": ((0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1), (2, 1, 1)),
    "K": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 1, 1)),
    "L": ((0, 1, 0), (1, 1, 0), (1, 1, 1), (2, 1, 1), (1, 0, 1), (1, 2, 1)),
}

# Piet Hein's Soma cube: the seven irregular polycubes of at most four cubes.
SOMA: dict[str, Shape] = {
    "V": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "L": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "T": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "Z": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "A": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)),
    "B": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)),
    "P": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _flat_canonical(cells) -> Shape:
    """Canonical form of a z = 0 shape under the 8 symmetries that keep it in that plane."""
    flat = [m for m in group("rotations") if abs(int(m[2, 2])) == 1]
    return min(normalize(transform(cells, m)) for m in flat)


def free_polyominoes(n: int) -> list[Shape]:
    """Every free n-omino (up to rotation and reflection, lying in z = 0), sorted."""
    level = {((0, 0, 0),)}
    for _ in range(n - 1):
        grown = set()
        for shape in level:
            cells = set(shape)
            for c in shape:
                for nb in neighbours(c):
                    if nb[2] == 0 and nb not in cells:
                        grown.add(_flat_canonical(cells | {nb}))
        level = grown
    return sorted(level, key=lambda s: (max(c[0] for c in s) - max(c[1] for c in s), s))


def parse_layers(text: str) -> dict[str, list[Cell]]:
    """Cells of each name in a layered picture: each line holds one y-row of every z-layer
    side by side (layers separated by runs of spaces, z = 0 first), top row first."""
    rows = [r.split() for r in text.strip("\n").splitlines()]
    height = len(rows)
    out: dict[str, list[Cell]] = {}
    for y_from_top, layers in enumerate(rows):
        for z, layer in enumerate(layers):
            for x, ch in enumerate(layer):
                if ch != ".":
                    out.setdefault(ch, []).append((x, height - 1 - y_from_top, z))
    return out


# The Bedlam cube: twelve pentacubes and one tetracube (M), read off a published solution.
BEDLAM: dict[str, Shape] = {
    "A": ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (2, 0, 0)),
    "B": ((0, 1, 0), (0, 2, 0), (1, 0, 0), (1, 0, 1), (1, 1, 0)),
    "C": ((0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 2), (1, 1, 1)),
    "D": ((0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2), (0, 2, 1)),
    "E": ((0, 1, 0), (1, 0, 0), (1, 0, 1), (1, 1, 0), (2, 1, 0)),
    "F": ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 2, 1), (1, 1, 1)),
    "G": ((0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 1), (2, 0, 0)),
    "H": ((0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2), (0, 2, 0)),
    "I": ((0, 1, 1), (1, 1, 1), (2, 0, 0), (2, 1, 0), (2, 1, 1)),
    "J": ((0, 2, 0), (1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 2, 0)),
    "K": ((0, 0, 1), (1, 0, 0), (1, 0, 1), (1, 1, 1), (2, 0, 1)),
    "L": ((0, 0, 1), (0, 0, 2), (1, 0, 0), (1, 0, 1), (2, 0, 0)),
    "M": ((0, 1, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)),
}


def hexominoes() -> dict[str, Shape]:
    """The 35 free hexominoes, named A-Z then 1-9 in the order of ``free_polyominoes(6)``."""
    names = [chr(ord("A") + k) for k in range(26)] + [str(k) for k in range(1, 10)]
    return dict(zip(names, free_polyominoes(6)))


def diamond(radius: int) -> list[Cell]:
    """Cells of the square diamond |x - r| + |y - r| <= r in a (2r+1) x (2r+1) box."""
    size = 2 * radius + 1
    return [(x, y, 0) for y in range(size) for x in range(size)
            if abs(x - radius) + abs(y - radius) <= radius]
