"""Favoured colours: the tiles that show a few chosen colours are pushed to the top of the board.

The row scan's breaks fall in its last rows, where it places the tiles the top left over.
Blackwood's solver (the 470 board) requires the scan to have placed, by each cell of the top,
a growing number of sides of a few *heuristic* colours, and tries the tiles that show them
first: the top uses up nearly every side of those colours, and the last rows are filled from
the other colours alone, among which exact fits are more frequent.  cpkit does the same with
colours chosen from the puzzle:

- **Which colours** (``favoured_colours``): one frame colour and an eighth of the inner colours
  (at least one), chosen so that as few tiles as possible show any of them (for each frame
  colour, inner colours added one at a time, each the one that adds the fewest tiles; ties to
  more sides, then the lower colour).  Concentrated on few tiles, their sides can be used up
  early; on Eternity II this picks frame colour 17 and inner colours 2 and 18 (92 tiles with
  120 sides), the most concentrated choice of one frame and two inner colours, while three
  colours spread over 113 tiles (9, 7 and 8) left the scan no board in 10^9 placements.
- **How many sides by each cell** (``ramp``): a share of the favoured sides of the unhinted
  tiles that grows with the share of the board's cells filled, in the shape of Blackwood's
  published ramp: none in the first row (1/16 of the cells), then about 23 % of the sides by
  10 % of the cells, 58 % by 22 %, 73 % by 30 %, 87 % by 40 % and 97.5 % by 62.5 %, no
  minimum beyond; all scaled by ``scale`` (0.9 by default: at 1.0 the scan found boards on
  Eternity II for three seeds in eight, and poor ones); the worker loosens it where no top
  meets it (``anytime.FAVOUR_STUCK``), but not for tops caught in their first rows, which
  start again (``anytime.FAVOUR_EARLY_ROWS``).  Only on boards of ``MIN_CELLS`` or more, and
  for the edges objective.
- In the kernel (``_scan_kernel.search``), a candidate whose favoured sides leave the total
  below the cell's minimum is not placed; each candidate list is sorted by favoured sides,
  most first (``Lists.shuffle``), so the first such candidate ends the list.

Measured in CHANGELOG.md (Eternity II with its five clues: 456.25 matched edges on average
without, 458.0 with, on the same eight seeds and budget).
"""

from __future__ import annotations

import numpy as np

from ..models.edge_matching import GREY, rim_sides
from .tables import Tables

#: The ramp's points: (share of the cells filled, share of the favoured sides placed).
RAMP = ((1 / 16, 0.0), (26 / 256, 28 / 122), (56 / 256, 71 / 122), (76 / 256, 89 / 122),
        (102 / 256, 106 / 122), (160 / 256, 119 / 122))
#: Boards with fewer cells get no favoured colours: the ramp can rule out a board that the
#: scan alone would find (a 5 x 5 board's solution, in the tests), and on small boards the
#: scan alone is not short of time.  From 10 x 10 up they won on every run measured
#: (CHANGELOG.md: Brendan Owen's 10 x 10 to 15 x 15 sets).
MIN_CELLS = 100
#: Favoured inner colours: this share of the inner colours, at least one.
INNER_SHARE = 1 / 8


def frame_and_inner(tables: Tables) -> tuple[list[int], list[int]]:
    """The colours shown beside a grey side (frame colours), and the others (grey apart)."""
    tiles = tables.colour[::4].tolist()              # each tile once, as listed
    frame = {t[s] for t in tiles for s in rim_sides(t)}
    inner = {c for t in tiles for c in t} - frame - {GREY}
    return sorted(frame), sorted(inner)


def favoured_colours(tables: Tables) -> tuple[int, ...]:
    """The colours the top of the board should use up (see the module's text); none on a
    puzzle without both frame and inner colours."""
    frame, inner = frame_and_inner(tables)
    if not frame or not inner:
        return ()
    tiles = tables.colour[::4]                       # each tile once, as listed
    shows = {k: (tiles == k).any(axis=1) for k in frame + inner}
    sides = {k: int((tiles == k).sum()) for k in frame + inner}
    wanted = max(1, round(len(inner) * INNER_SHARE))
    best: tuple | None = None
    for f in frame:
        chosen, covered = [f], shows[f]
        for _ in range(min(wanted, len(inner))):
            k = min((k for k in inner if k not in chosen),
                    key=lambda k: (int((covered | shows[k]).sum()), -sides[k], k))
            chosen.append(k)
            covered = covered | shows[k]
        key = (int(covered.sum()), -sum(sides[k] for k in chosen), sorted(chosen))
        if best is None or key < best[0]:
            best = (key, tuple(sorted(chosen)))
    return best[1]


def favoured_sides(tables: Tables, colours: tuple[int, ...]) -> np.ndarray:
    """How many sides of each orientation show one of ``colours`` (int32; none: all 0)."""
    return np.isin(tables.colour, np.array(colours, dtype=np.int64)).sum(axis=1) \
        .astype(np.int32)


def ramp(tables: Tables, order: np.ndarray, sides: np.ndarray, scale: float) -> np.ndarray:
    """The favoured sides the scan must have placed once each cell of ``order`` is filled
    (the kernel's ``fav_min``, by depth, one more entry than ``order``): a share of those of the
    unhinted tiles (``RAMP``) times ``scale``, by the share of the cells filled (as
    ``Schedule.limits``, the ``d``-th cell of ``order`` in row-major order)."""
    free = np.flatnonzero(tables.hinted_tile == 0)
    total = float(sides[4 * free].sum())
    filled = (np.sort(order).astype(np.float64) + 1) / tables.n_cells
    xs, ys = zip(*RAMP)
    share = np.where(filled > xs[-1], 0.0, np.interp(filled, xs, ys, left=0.0))
    out = np.zeros(order.shape[0] + 1, dtype=np.int32)
    out[:-1] = np.floor(share * total * scale)
    return out
