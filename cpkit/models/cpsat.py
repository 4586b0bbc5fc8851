"""Models as OR-Tools CP-SAT models: the independent cross-check of every numba engine.

Building and solving are kept apart (as in ``ortools.sat.python.cp_model``): the functions here
only build; ``cpkit.search.cpsat`` solves and counts.  OR-Tools is imported lazily so that cpkit
starts fast when CP-SAT is not used.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
    sides = []
    for cell in range(a.n_cells):
        nb = a.nbr[cell]
        shown = [north.get(cell), east.get(cell),
                 north.get(int(nb[2])) if nb[2] >= 0 else None,
                 east.get(int(nb[3])) if nb[3] >= 0 else None]
        sides.append([v if v is not None else 0 for v in shown])
        frame = nb < 0
        orientations = [hinted[cell]] if cell in hinted else range(a.n_orientations)
        rows = []
        for o in orientations:
            col = a.ori_col[o]
            if all((col[s] == 0) == frame[s] for s in range(4)):
                rows.append([int(a.ori_tile[o])] + [int(col[s]) for s in range(4) if not frame[s]])
        model.add_allowed_assignments([tiles[cell]] + [v for v in shown if v is not None], rows)
    model.add_all_different(tiles)
    return BoardModel(model, tiles, sides)
