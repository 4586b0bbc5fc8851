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

from dataclasses import dataclass

import numpy as np
from numba import njit

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
@dataclass(frozen=True)
class StateTable:
    """Remaining-piece states of one kind (volume or parity) and what each can achieve.

    ``shape_class[s]`` is the class of shape ``s`` (-1: does not enter this table, e.g. a parity-0
    piece); ``radix[k]`` the weight of class ``k`` in the state number; ``initial`` the state with
    every piece remaining; ``achievable[state, value + offset]``.
    """

    shape_class: np.ndarray
    radix: np.ndarray
    initial: int
    achievable: np.ndarray      # uint8[n_states, n_values]
    offset: int

    def delta_of_shape(self) -> np.ndarray:
        """How much placing a piece of each shape lowers the state number."""
        d = np.zeros(len(self.shape_class), dtype=np.int64)
        ok = self.shape_class >= 0
        d[ok] = self.radix[self.shape_class[ok]]
        return d

    def can(self, state: int, value: int) -> bool:
        v = value + self.offset
        return 0 <= v < self.achievable.shape[1] and bool(self.achievable[state, v])


def _classes(values: list[int], counts: list[int]) -> tuple[np.ndarray, list[int], list[int]]:
    """Group shapes by value (ignoring value 0): class of each shape, class values, class counts."""
    distinct = sorted({v for v in values if v != 0})
    cls = np.array([distinct.index(v) if v != 0 else -1 for v in values], dtype=np.int64)
    ccount = [sum(c for v, c in zip(values, counts) if v == d) for d in distinct]
    return cls, distinct, ccount


def _mixed_radix(ccount: list[int]) -> tuple[np.ndarray, int]:
    radix = np.ones(len(ccount), dtype=np.int64)
    for k in range(1, len(ccount)):
        radix[k] = radix[k - 1] * (ccount[k - 1] + 1)
    n_states = int(np.prod([c + 1 for c in ccount])) if ccount else 1
    return radix, n_states


def _digits(state: int, radix: np.ndarray, ccount: list[int]) -> list[int]:
    return [(state // int(radix[k])) % (ccount[k] + 1) for k in range(len(ccount))]


def volume_table(puzzle: Puzzle) -> StateTable:
    """achievable[state, v]: some sub-multiset of the remaining pieces has total size v."""
    sizes = [s.size for s in puzzle.shapes]
    counts = [s.count for s in puzzle.shapes]
    cls, distinct, ccount = _classes(sizes, counts)
    radix, n_states = _mixed_radix(ccount)
    n_values = puzzle.n_cells + 1
    if n_states * n_values > MAX_TABLE:
        raise InputError(f"too many distinct piece sizes for volume tables "
                         f"({n_states:,} states); switch the volume filter and trigger off")
    table = np.zeros((n_states, n_values), dtype=np.uint8)
    for state in range(n_states):
        reach = np.zeros(n_values, dtype=bool)
        reach[0] = True
        for size, n in zip(distinct, _digits(state, radix, ccount)):
            for _ in range(n):
                if size < n_values:
                    shifted = np.zeros(n_values, dtype=bool)
                    shifted[size:] = reach[:-size]
                    reach |= shifted
        table[state] = reach
    initial = int(sum(radix[k] * ccount[k] for k in range(len(ccount))))
    return StateTable(cls, radix, initial, table, 0)


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
    mags = parity_magnitudes(puzzle)
    counts = [s.count for s in puzzle.shapes]
    cls, distinct, ccount = _classes(mags, counts)
    radix, n_states = _mixed_radix(ccount)
    offset = int(sum(m * c for m, c in zip(mags, counts)))
    n_values = 2 * offset + 1
    if n_states * n_values > MAX_TABLE:
        raise InputError(f"too many distinct piece parities for parity tables "
                         f"({n_states:,} states); switch the parity filter and trigger off")
    table = np.zeros((n_states, n_values), dtype=np.uint8)
    for state in range(n_states):
        reach = np.zeros(n_values, dtype=bool)
        reach[offset] = True
        for m, n in zip(distinct, _digits(state, radix, ccount)):
            for _ in range(n):
                nxt = np.zeros(n_values, dtype=bool)
                nxt[m:] |= reach[:-m]
                nxt[:-m] |= reach[m:]
                reach = nxt
        table[state] = reach
    initial = int(sum(radix[k] * ccount[k] for k in range(len(ccount))))
    return StateTable(cls, radix, initial, table, offset)


def region_parity(puzzle: Puzzle) -> int:
    return int(cell_colours(puzzle).sum())


def parity_infeasible(puzzle: Puzzle) -> bool:
    """True when no choice of orientations can give the region's parity: no solution exists."""
    table = parity_table(puzzle)
    return not table.can(table.initial, region_parity(puzzle))


# ---------------------------------------------------------------------- flood fill (numba)
@njit(cache=True, _nrt=False)
def volumes_ok(open_cell, nb_ptr, nb_idx, achievable_row, stack, seen):
    """Flood-fill the open cells; False as soon as a region's volume is not achievable.

    ``open_cell`` (uint8) marks open cells; ``stack`` and ``seen`` are scratch arrays of the
    number of cells (``seen`` is returned cleared).
    """
    n = open_cell.shape[0]
    ok = True
    for start in range(n):
        if open_cell[start] == 0 or seen[start] != 0:
            continue
        top = 0
        stack[top] = start
        top += 1
        seen[start] = 1
        volume = 0
        while top > 0:
            top -= 1
            c = stack[top]
            volume += 1
            for k in range(nb_ptr[c], nb_ptr[c + 1]):
                d = nb_idx[k]
                if open_cell[d] != 0 and seen[d] == 0:
                    seen[d] = 1
                    stack[top] = d
                    top += 1
        if achievable_row[volume] == 0:
            ok = False
            break
    for c in range(n):
        seen[c] = 0
    return ok


@njit(cache=True)
def _volume_filter_kernel(keep, cell_ptr, cell_idx, shape_of, vdelta, state0, achievable,
                          nb_ptr, nb_idx, n_cells):
    open_cell = np.ones(n_cells, dtype=np.uint8)
    stack = np.zeros(n_cells, dtype=np.int32)
    seen = np.zeros(n_cells, dtype=np.uint8)
    removed = 0
    for i in range(keep.shape[0]):
        if not keep[i]:
            continue
        for k in range(cell_ptr[i], cell_ptr[i + 1]):
            open_cell[cell_idx[k]] = 0
        state = state0 - vdelta[shape_of[i]]
        if not volumes_ok(open_cell, nb_ptr, nb_idx, achievable[state], stack, seen):
            keep[i] = False
            removed += 1
        for k in range(cell_ptr[i], cell_ptr[i + 1]):
            open_cell[cell_idx[k]] = 1
    return removed


def volume_filter(puzzle: Puzzle, keep: np.ndarray) -> int:
    """One-shot volume image filter: drop (in ``keep``) every image whose placement leaves an
    open region whose volume no sub-multiset of the other pieces can fill.  Returns how many
    images it removed."""
    table = volume_table(puzzle)
    nb_ptr, nb_idx = neighbour_csr(puzzle)
    img = puzzle.images
    return int(_volume_filter_kernel(keep, img.cell_ptr, img.cell_idx, img.shape,
                                     table.delta_of_shape(), table.initial, table.achievable,
                                     nb_ptr, nb_idx, puzzle.n_cells))


def parity_filter(puzzle: Puzzle, keep: np.ndarray) -> int:
    """One-shot parity image filter: for each piece with non-zero parity and each sign, drop its
    images of that sign if the other pieces could not then reach the remaining parity."""
    table = parity_table(puzzle)
    par = image_parities(puzzle)
    target = region_parity(puzzle)
    delta = table.delta_of_shape()
    shape_of = puzzle.images.shape
    removed = 0
    for s in range(len(puzzle.shapes)):
        if delta[s] == 0:
            continue
        state = table.initial - int(delta[s])
        for sign in (1, -1):
            sel = keep & (shape_of == s) & (np.sign(par) == sign)
            if not sel.any():
                continue
            p = int(par[np.flatnonzero(sel)[0]])
            if not table.can(state, target - p):
                keep[sel] = False
                removed += int(sel.sum())
    return removed


# ---------------------------------------------------------------------- fit filter
@njit(cache=True)
def _overlaps(masks, i, j):
    for w in range(masks.shape[1]):
        if masks[i, w] & masks[j, w]:
            return True
    return False


@njit(cache=True)
def _fit_pass(keep, masks, cells_of_image_ptr, cells_of_image, images_of_cell_ptr,
              images_of_cell, shape_of, need, n_cells, n_shapes):
    """One pass of the fit filter over the kept images; returns how many it removed.

    ``masks[i]`` is image i's cell bitset (uint64 words).  Image i is removed if, with i placed,
    some other open cell has no kept image disjoint from i (of a shape still needed), or some
    shape still needed has fewer disjoint kept images than it still needs.
    """
    removed = 0
    n_images = keep.shape[0]
    disjoint_count = np.zeros(n_shapes, dtype=np.int64)
    in_image = np.zeros(n_cells, dtype=np.uint8)
    for i in range(n_images):
        if not keep[i]:
            continue
        si = shape_of[i]
        for k in range(cells_of_image_ptr[i], cells_of_image_ptr[i + 1]):
            in_image[cells_of_image[k]] = 1
        ok = True
        # Every open cell needs a compatible image.
        for c in range(n_cells):
            if in_image[c]:
                continue
            found = False
            for k in range(images_of_cell_ptr[c], images_of_cell_ptr[c + 1]):
                j = np.int64(images_of_cell[k])   # int64, like the second call's
                if not keep[j] or j == i:
                    continue
                if shape_of[j] == si and need[si] == 1:
                    continue
                if not _overlaps(masks, i, j):
                    found = True
                    break
            if not found:
                ok = False
                break
        if ok:
            # Every shape still needed must have enough compatible images.
            for s in range(n_shapes):
                disjoint_count[s] = 0
            for j in range(n_images):
                if not keep[j] or j == i:
                    continue
                sj = shape_of[j]
                remaining = need[sj] - (1 if sj == si else 0)
                if remaining <= 0 or disjoint_count[sj] >= remaining:
                    continue
                if not _overlaps(masks, i, j):
                    disjoint_count[sj] += 1
            for s in range(n_shapes):
                remaining = need[s] - (1 if s == si else 0)
                if disjoint_count[s] < remaining:
                    ok = False
                    break
        for k in range(cells_of_image_ptr[i], cells_of_image_ptr[i + 1]):
            in_image[cells_of_image[k]] = 0
        if not ok:
            keep[i] = False
            removed += 1
    return removed


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


def fit_filter(puzzle: Puzzle, keep: np.ndarray, max_passes: int | None = None) -> tuple[int, int]:
    """Fit filter, repeated until nothing changes (or ``max_passes``).
    Returns (removed, passes)."""
    img = puzzle.images
    masks = image_masks(puzzle)
    cptr, cimg = images_of_cells(puzzle)
    need = np.array([s.count for s in puzzle.shapes], dtype=np.int64)
    total = 0
    passes = 0
    while max_passes is None or passes < max_passes:
        passes += 1
        removed = int(_fit_pass(keep, masks, img.cell_ptr, img.cell_idx, cptr, cimg, img.shape,
                                need, puzzle.n_cells, len(puzzle.shapes)))
        total += removed
        if removed == 0:
            break
    return total, passes


def warm_up() -> None:
    """Compile (or load) the filter kernels on a tiny puzzle, with real argument types."""
    from ..models.tiling import Piece

    tiny = Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0))), Piece("b", ((0, 0, 0),))], box=(3, 1, 1))
    keep = np.ones(len(tiny.images), dtype=bool)
    volume_filter(tiny, keep)
    fit_filter(tiny, keep)
