"""Models as OR-Tools CP-SAT models: the independent cross-check of every numba engine.

Building and solving are kept apart (as in ``ortools.sat.python.cp_model``): the functions here
only build; ``cpkit.engines.cpsat.cpsat_search`` solves and counts.  OR-Tools is imported lazily so that cpkit
starts fast when CP-SAT is not used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .exact_cover import ExactCover


@dataclass
class CoverModel:
    """A CP-SAT model of an exact cover: one Boolean per option."""

    model: object            # cp_model.CpModel
    option_vars: list        # BoolVar per option
    trivially_infeasible: bool = False


def exact_cover_model(cover: ExactCover) -> CoverModel:
    """``sum(options containing i) == need[i]`` for each primary item ``i`` and ``<= 1`` for each
    secondary item; tilings pass their images, so this is one Boolean per image with exactly-one
    per cell and exactly-``count`` per shape."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"o{k}") for k in range(cover.n_options)]
    members: list[list[int]] = [[] for _ in range(cover.n_items)]
    owner = np.repeat(np.arange(cover.n_options), np.diff(cover.option_ptr))
    for k, item in zip(owner.tolist(), cover.option_items.tolist()):
        members[item].append(k)
    infeasible = False
    for item, opts in enumerate(members):
        if item < cover.n_primary:
            need = int(cover.need[item])
            if len(opts) < need:
                infeasible = True
                continue
            model.add(sum(x[k] for k in opts) == need)
        elif len(opts) > 1:
            model.add_at_most_one(x[k] for k in opts)
    return CoverModel(model, x, infeasible)


#: The edge-matching model's tables (a row per cell and fitting orientation) stop here: a 24 x 24
#: board of distinct tiles has about 950,000 rows, which CP-SAT takes in 1.6 GB; at 32 x 32
#: (3.3 million) it needed 3 GB and ran 13 s for a 5 s limit.
MAX_TABLE_ROWS = 1 << 20


@dataclass
class BoardModel:
    """A CP-SAT model of an edge-matching puzzle: a tile variable per cell and a colour variable
    per edge between two cells (the four sides of a cell share them with its neighbours; frame
    sides are grey constants)."""

    model: object            # cp_model.CpModel
    tile_vars: list          # IntVar per cell
    side_exprs: list         # per cell, its (north, east, south, west) variable or constant 0


def edge_matching_model(puzzle) -> BoardModel:
    """One allowed-assignments table per cell over (tile, north, east, south, west): every tile
    in every distinct orientation that shows grey exactly on the cell's frame sides (hinted cells
    only their hinted orientation); AllDifferent over the tile variables.  Solutions are then
    exactly the boards counted by the numba engines (tiles by index, distinct orientations)."""
    from ortools.sat.python import cp_model

    a = puzzle.arrays
    model = cp_model.CpModel()
    inner = list(range(1, puzzle.n_colours + 1))
    east = {}
    north = {}
    for cell in range(a.n_cells):
        if a.nbr[cell, 1] >= 0:
            east[cell] = model.new_int_var_from_domain(cp_model.Domain.from_values(inner),
                                                       f"e{cell}")
        if a.nbr[cell, 0] >= 0:
            north[cell] = model.new_int_var_from_domain(cp_model.Domain.from_values(inner),
                                                        f"n{cell}")
    tiles = [model.new_int_var(0, a.n_tiles - 1, f"t{cell}") for cell in range(a.n_cells)]
    hinted = dict(zip(a.hint_cell.tolist(), a.hint_ori.tolist()))
    frames = [tuple(bool(f) for f in row) for row in a.nbr < 0]
    every = np.arange(a.n_orientations)
    # Cells share these tables (a board has at most nine kinds of cell): one pass over the
    # orientations for each kind rather than one per cell.
    tables = {frame: _table_rows(a, frame, every) for frame in set(frames)}
    rows_in_all = sum(len(tables[frame]) for frame in frames)
    if rows_in_all > MAX_TABLE_ROWS:
        raise InputError(f"the CP-SAT model of a {puzzle.width} x {puzzle.height} board would "
                         f"have {rows_in_all:,} table rows (at most {MAX_TABLE_ROWS:,}: CP-SAT "
                         f"then needs gigabytes and overruns its time limit); use --engine cp")
    sides = []
    for cell in range(a.n_cells):
        nb = a.nbr[cell]
        shown = [north.get(cell), east.get(cell),
                 north.get(int(nb[2])) if nb[2] >= 0 else None,
                 east.get(int(nb[3])) if nb[3] >= 0 else None]
        sides.append([v if v is not None else 0 for v in shown])
        rows = _table_rows(a, frames[cell], np.array([hinted[cell]])) if cell in hinted \
            else tables[frames[cell]]
        model.add_allowed_assignments([tiles[cell]] + [v for v in shown if v is not None], rows)
    model.add_all_different(tiles)
    return BoardModel(model, tiles, sides)


def _table_rows(a, frame: tuple[bool, ...], orientations: np.ndarray) -> list[list[int]]:
    """The table rows of a cell whose sides ``frame`` lie on the frame: (tile, colours of the
    other sides) for each of ``orientations`` that is grey exactly there."""
    fits = orientations[((a.ori_col[orientations] == 0) == np.array(frame)).all(axis=1)]
    keep = [s for s in range(4) if not frame[s]]
    return np.column_stack([a.ori_tile[fits], a.ori_col[fits][:, keep]]).tolist()
