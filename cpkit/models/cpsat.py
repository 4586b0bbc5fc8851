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
