"""Volume, parity and fit reasoning for tilings: tables, image filters, trigger kernels.

Busche's constraints (seed 001, "Constraints"):

- **Volume.**  Once pieces are placed, the open cells fall into face-connected regions; each
  region must be filled exactly, so its volume must be a sum of sizes of remaining pieces.
- **Parity.**  Colour the cells as a 3D checkerboard (black when x+y+z is even).  An image's
  parity is its black cells minus its white cells; every image of a piece has parity +m or -m for
  the piece's magnitude m.  The open cells' parity must be reachable as a signed sum of the
  remaining pieces' magnitudes.

Both are answered by table lookup.  The remaining pieces are summarised by a *state*: how many
pieces of each size (volume) or of each non-zero magnitude (parity) remain, as a mixed-radix
number, so placing a piece subtracts its class's radix (the seed's place/unplace transitions)
and ``achievable[state, value]`` is precomputed.

An *image filter* removes images that cannot be in any solution; a *backtrack trigger* tests the
condition after each placement during search (in the DLX kernel).  The fit filter removes images
after which some open cell or some remaining piece has no compatible image left, repeated to a
fixed point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import _aot
from ..errors import InputError
from ..models.tiling import Puzzle

#: Refuse state tables larger than this many entries (states x values).
MAX_TABLE = 50_000_000


# ---------------------------------------------------------------------- geometry of the region
def neighbour_csr(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """Face neighbours of each region cell, as CSR (``ptr``, ``idx``) over cell indices."""
    grid = puzzle.index_grid
    X, Y, Z = puzzle.box
    ptr = [0]
    idx: list[int] = []
    for x, y, z in puzzle.cells:
        for dx, dy, dz in ((-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)):
            u, v, w = x + dx, y + dy, z + dz
            if 0 <= u < X and 0 <= v < Y and 0 <= w < Z and grid[u, v, w] >= 0:
                idx.append(int(grid[u, v, w]))
        ptr.append(len(idx))
    return np.array(ptr, dtype=np.int32), np.array(idx, dtype=np.int32)


def cell_colours(puzzle: Puzzle) -> np.ndarray:
    """+1 for a black cell (x+y+z even), -1 for a white one."""
    return np.where(puzzle.cell_coords.sum(axis=1) % 2 == 0, 1, -1).astype(np.int32)


def image_parities(puzzle: Puzzle) -> np.ndarray:
    """Signed parity of every image (black cells minus white cells)."""
    img = puzzle.images
    colours = cell_colours(puzzle)
    owner = np.repeat(np.arange(len(img)), np.diff(img.cell_ptr))
    out = np.zeros(len(img), dtype=np.int64)
    np.add.at(out, owner, colours[img.cell_idx])
    return out.astype(np.int32)


# ---------------------------------------------------------------------- state tables
class TableTooLarge(InputError):
    """The full state table of a trigger or re-applied filter would exceed ``MAX_TABLE``."""


@dataclass(frozen=True)
class StateSpace:
    """The remaining-piece states of one kind (volume: piece sizes; parity: signed parity
    magnitudes) and the sums each can reach.

    Shapes are grouped into *classes* by value (``distinct``; value 0 enters no class, e.g. a
    parity-0 piece); a state is how many pieces of each class remain, numbered in mixed radix.
    ``row(counts)`` gives the reachable sums of one state as a Python integer used as a bit
    set (bit ``v + offset``), by doubling shifts: O(log count) big-integer operations per class,
    so 10,000 identical monominoes cost microseconds where a table of every state cost
    minutes.  The one-shot filters and the parity proof need a few rows; only the DLX triggers
    and re-applied filters, which follow the state during the search, need the whole ``table``.
    """

    signed: bool                # parity: each piece adds +value or -value
    shape_class: np.ndarray     # class of each shape, -1 for none
    distinct: tuple[int, ...]   # value of each class
    ccount: tuple[int, ...]     # pieces of each class
    n_values: int
    offset: int

    @classmethod
    def of(cls, values: list[int], counts: list[int], signed: bool,
           n_values: int | None = None) -> "StateSpace":
        distinct = sorted({v for v in values if v != 0})
        where = {v: k for k, v in enumerate(distinct)}
        shape_class = np.array([where.get(v, -1) for v in values], dtype=np.int64)
        ccount = [0] * len(distinct)
        for v, c in zip(values, counts):
            if v != 0:
                ccount[where[v]] += c
        offset = sum(v * c for v, c in zip(distinct, ccount)) if signed else 0
        width = 2 * offset + 1 if signed else n_values
        return cls(signed, shape_class, tuple(distinct), tuple(ccount), width, offset)

    @property
    def radix(self) -> np.ndarray:
        radix = np.ones(len(self.ccount), dtype=np.int64)
        for k in range(1, len(self.ccount)):
            radix[k] = radix[k - 1] * (self.ccount[k - 1] + 1)
        return radix

    @property
    def n_states(self) -> int:
        return math.prod(c + 1 for c in self.ccount)

    @property
    def entries(self) -> int:
        """The size of the whole table (states x values)."""
        return self.n_states * self.n_values

    @property
    def initial(self) -> int:
        return int(sum(r * c for r, c in zip(self.radix, self.ccount)))

    def row(self, counts: tuple[int, ...] | list[int]) -> int:
        """The sums reachable with ``counts[k]`` pieces of class ``k``, as a bit set."""
        mask = (1 << self.n_values) - 1
        bits = 1 << self.offset
        for value, count in zip(self.distinct, counts):
            if self.signed:
                # c signed copies of m: -cm, -cm + 2m, ..., cm.
                bits = _or_shifts(bits, 2 * value, count) >> (value * count)
            else:
                bits = _or_shifts(bits, value, count) & mask
        return bits & mask

    def row_without(self, cls_index: int) -> int:
        """The reachable sums once one piece of class ``cls_index`` is placed."""
        counts = list(self.ccount)
        counts[cls_index] -= 1
        return self.row(counts)

    def can(self, bits: int, value: int) -> bool:
        v = value + self.offset
        return 0 <= v < self.n_values and bool(bits >> v & 1)

    def table(self) -> np.ndarray:
        """uint8[n_states, n_values]: ``achievable[state, v + offset]``, built class by class
        (each digit from the one below it by one shift), O(states x values) in all;
        ``TableTooLarge`` past ``MAX_TABLE`` entries."""
        if self.entries > MAX_TABLE:
            raise TableTooLarge(f"its table would hold {self.entries:,} entries (at most "
                                f"{MAX_TABLE:,})")
        dims = [c + 1 for c in reversed(self.ccount)]       # class 0's digit varies fastest
        table = np.zeros(dims + [self.n_values], dtype=bool)
        table[(0,) * len(dims) + (self.offset,)] = True
        for k, (value, count) in enumerate(zip(self.distinct, self.ccount)):
            axis = len(dims) - 1 - k
            lower = (slice(None),) * (len(dims) - 1 - axis)   # classes below k: all done
            higher = (0,) * axis                              # classes above k: none yet
            for d in range(1, count + 1):
                prev = table[higher + (d - 1,) + lower]
                cur = table[higher + (d,) + lower]
                if self.signed:
                    cur[..., value:] |= prev[..., :-value]
                    cur[..., :-value] |= prev[..., value:]
                elif value < self.n_values:
                    cur[...] = prev
                    cur[..., value:] |= prev[..., :-value]
                else:
                    cur[...] = prev
        return table.reshape(self.n_states, self.n_values).astype(np.uint8)


def _or_shifts(bits: int, step: int, count: int) -> int:
    """``bits << step * j`` or-ed over j = 0..count, in O(log count) shifts."""
    acc, span = bits, 1                 # acc holds j = 0 .. span - 1
    while 2 * span <= count + 1:
        acc |= acc << (step * span)
        span *= 2
    if span < count + 1:
        acc |= acc << (step * (count + 1 - span))
    return acc


@dataclass(frozen=True)
class StateTable:
    """The whole table of a ``StateSpace``, for the DLX kernel: ``achievable[state, value +
    offset]``; ``shape_class[s]`` the class of shape ``s`` (-1: none), ``radix[k]`` the weight
    of class ``k`` in the state number, ``initial`` the state with every piece remaining."""

    shape_class: np.ndarray
    radix: np.ndarray
    initial: int
    achievable: np.ndarray      # uint8[n_states, n_values]
    offset: int

    @classmethod
    def of(cls, space: StateSpace) -> "StateTable":
        return cls(space.shape_class, space.radix, space.initial, space.table(), space.offset)

    def delta_of_shape(self) -> np.ndarray:
        """How much placing a piece of each shape lowers the state number."""
        d = np.zeros(len(self.shape_class), dtype=np.int64)
        ok = self.shape_class >= 0
        d[ok] = self.radix[self.shape_class[ok]]
        return d

    def can(self, state: int, value: int) -> bool:
        v = value + self.offset
        return 0 <= v < self.achievable.shape[1] and bool(self.achievable[state, v])


def volume_space(puzzle: Puzzle) -> StateSpace:
    """Subset sums of piece sizes, up to the number of free cells."""
    return StateSpace.of([s.size for s in puzzle.shapes], [s.count for s in puzzle.shapes],
                         signed=False, n_values=puzzle.n_cells + 1)


def parity_space(puzzle: Puzzle) -> StateSpace:
    """Signed sums of piece parity magnitudes."""
    return StateSpace.of(parity_magnitudes(puzzle), [s.count for s in puzzle.shapes],
                         signed=True)


def volume_table(puzzle: Puzzle) -> StateTable:
    """achievable[state, v]: some sub-multiset of the remaining pieces has total size v."""
    return StateTable.of(volume_space(puzzle))


def parity_magnitudes(puzzle: Puzzle) -> list[int]:
    """|black - white| of each shape (the same for all its images)."""
    out = []
    for s in puzzle.shapes:
        cells = np.array(s.orientations[0])
        colours = np.where(cells.sum(axis=1) % 2 == 0, 1, -1)
        out.append(abs(int(colours.sum())))
    return out


def parity_table(puzzle: Puzzle) -> StateTable:
    """achievable[state, p + offset]: the remaining non-zero-parity pieces can be signed to sum
    to p."""
    return StateTable.of(parity_space(puzzle))


def region_parity(puzzle: Puzzle) -> int:
    return int(cell_colours(puzzle).sum())


def parity_infeasible(puzzle: Puzzle) -> bool:
    """True when no choice of orientations can give the region's parity: no solution exists."""
    space = parity_space(puzzle)
    return not space.can(space.row(space.ccount), region_parity(puzzle))


#: The volume filter's kernel, from its extension when built ahead of time (``cpkit._aot``).
_VOLUME_FILTER = _aot.Kernel("volume_filter")


def volume_filter(puzzle: Puzzle, keep: np.ndarray) -> int:
    """One-shot volume image filter: drop (in ``keep``) every image whose placement leaves an
    open region whose volume no sub-multiset of the other pieces can fill.  Returns how many
    images it removed.  Only the states after one placement are needed: one row per piece
    size."""
    space = volume_space(puzzle)
    rows = np.zeros((max(len(space.distinct), 1), space.n_values), dtype=np.uint8)
    useful = np.zeros(len(space.distinct), dtype=bool)
    for k, size in enumerate(space.distinct):
        bits = space.row_without(k)
        rows[k] = _bits_to_row(bits, space.n_values)
        # Every volume the other pieces could face reachable (monominoes, or a piece of each
        # size up to a point): no image of this size can fail, so none is flood-filled.
        useful[k] = bits != (1 << max(puzzle.n_cells - size + 1, 0)) - 1
    img = puzzle.images
    tested = keep & useful[space.shape_class[img.shape]]
    if not tested.any():
        return 0
    nb_ptr, nb_idx = neighbour_csr(puzzle)
    before = int(tested.sum())
    _VOLUME_FILTER(tested, img.cell_ptr, img.cell_idx, img.shape, space.shape_class,
                   rows, nb_ptr, nb_idx, puzzle.n_cells)
    removed = before - int(tested.sum())
    keep &= tested | ~useful[space.shape_class[img.shape]]
    return removed


def _bits_to_row(bits: int, width: int) -> np.ndarray:
    """A bit set (Python integer, bit v = value v) as uint8[width]."""
    raw = np.frombuffer(bits.to_bytes((width + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:width].copy()


def parity_filter(puzzle: Puzzle, keep: np.ndarray) -> int:
    """One-shot parity image filter: for each piece with non-zero parity and each sign, drop its
    images of that sign if the other pieces could not then reach the remaining parity."""
    space = parity_space(puzzle)
    par = image_parities(puzzle)
    target = region_parity(puzzle)
    shape_of = puzzle.images.shape
    removed = 0
    for s in range(len(puzzle.shapes)):
        k = int(space.shape_class[s])
        if k < 0:
            continue
        bits = space.row_without(k)
        for sign in (1, -1):
            sel = keep & (shape_of == s) & (np.sign(par) == sign)
            if not sel.any():
                continue
            p = int(par[np.flatnonzero(sel)[0]])
            if not space.can(bits, target - p):
                keep[sel] = False
                removed += int(sel.sum())
    return removed


# ---------------------------------------------------------------------- fit filter
def image_masks(puzzle: Puzzle) -> np.ndarray:
    """uint64[n_images, words]: the cell bitset of every image."""
    img = puzzle.images
    words = (puzzle.n_cells + 63) // 64
    masks = np.zeros((len(img), words), dtype=np.uint64)
    owner = np.repeat(np.arange(len(img)), np.diff(img.cell_ptr))
    bits = np.left_shift(np.uint64(1), (img.cell_idx % 64).astype(np.uint64))
    np.bitwise_or.at(masks, (owner, img.cell_idx // 64), bits)
    return masks


def images_of_cells(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """CSR from cell index to the images covering it."""
    img = puzzle.images
    owner = np.repeat(np.arange(len(img), dtype=np.int32), np.diff(img.cell_ptr))
    order = np.argsort(img.cell_idx, kind="stable")
    ptr = np.zeros(puzzle.n_cells + 1, dtype=np.int64)
    np.add.at(ptr, img.cell_idx + 1, 1)
    return np.cumsum(ptr), owner[order]


def fit_filter(puzzle: Puzzle, keep: np.ndarray, max_passes: int | None = None,
               between: Callable[[], None] = lambda: None) -> tuple[int, int]:
    """Fit filter, repeated until nothing changes (or ``max_passes``); ``between`` is called
    before each pass (it may raise to end the set-up).  Returns (removed, passes)."""
    from .tiling_filter_kernels import fit_pass    # the JIT kernel: the filter is off by default

    img = puzzle.images
    masks = image_masks(puzzle)
    cptr, cimg = images_of_cells(puzzle)
    need = np.array([s.count for s in puzzle.shapes], dtype=np.int64)
    total = 0
    passes = 0
    while max_passes is None or passes < max_passes:
        between()
        passes += 1
        removed = int(fit_pass(keep, masks, img.cell_ptr, img.cell_idx, cptr, cimg, img.shape,
                                need, puzzle.n_cells, len(puzzle.shapes)))
        total += removed
        if removed == 0:
            break
    return total, passes


def _tiny() -> tuple[Puzzle, np.ndarray]:
    """A puzzle of two pieces in a 3 x 1 x 1 box and all its images, for the warm-ups."""
    from ..models.tiling import Piece

    tiny = Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0))), Piece("b", ((0, 0, 0),))], box=(3, 1, 1))
    return tiny, np.ones(len(tiny.images), dtype=bool)


def warm_up() -> None:
    """Compile (or load) the volume filter's kernels, which every tiling run with the filter on
    (the default) calls, on a tiny puzzle with real argument types."""
    volume_filter(*_tiny())


def warm_up_fit() -> None:
    """Compile (or load) the fit filter's kernel: apart from ``warm_up``, because the filter is
    off by default and loading its kernel took 5 ms of every run's start."""
    fit_filter(*_tiny())
