"""The ``auto`` tiling engine: the DLX-to-FILA hybrid in the orientation and configuration
``autoconfig.choose`` picks, with solutions turned back into the file's own frame.

The puzzle the search sees is the chosen turn of the file's (``models.reorient``); counts do not
depend on it (a turn maps the solutions and the symmetries of one onto the other's), nor do the
solutions printed or returned, which are turned back.  ``orientation="file"`` searches the puzzle
as drawn (with the geometric default configuration), as does any explicit ``heuristic`` or
``fila_at``: a schedule written by hand may name the file's axes (``x``, ``y``, ``z``).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

from ....errors import InputError
from ....models import reorient
from ....models.tiling import Puzzle, Tiling
from ....result import Result
from . import tiling_autoconfig as autoconfig
from .. import tiling_front as tiling
from ....signals import InterruptFlag
from ...runtime.driver import RunClock, SetupStopped, check_setup, setting_up

ORIENTATIONS = ("auto", "file")
#: Puzzles of more pieces are searched as drawn with the default configuration: the choice's
#: random DLX descents go through every level above the switch, and its turned copies rebuild
#: every piece (10,000 identical monominoes: 11.7 s of choosing for a search of one solution).
CHOOSE_MAX_PIECES = 256


def choice_for(puzzle: Puzzle, *, orientation: str = "auto", heuristic: str | None = None,
               fila_at: int | None = None, nof: bool | None = None, limit: int | None = None,
               keep: bool = False, store: bool = True,
               **front_options: Any) -> autoconfig.Choice | None:
    """The configuration of ``puzzle`` under these options, or None when the puzzle is to be
    searched as drawn with the options as given.  A run in one process that stops at its
    first ``limit`` solutions is searched as drawn: the choice prices the whole tree, and the
    configuration that searches it fastest can be far slower to a first solution (the 35
    hexominoes in the 15 x 14 parallelogram: none in 300 s turned, the first in 3 s as
    drawn).  ``keep``: the choice is also kept for the next call on this puzzle with these
    options in this process (``_KEPT``).  ``store``: whether the run lists or hands out
    solutions (the search begun first keeps them only then; a kept choice always does)."""
    if orientation not in ORIENTATIONS:
        raise InputError(f"orientation must be one of {', '.join(ORIENTATIONS)}, got "
                         f"{orientation!r}")
    if orientation == "file" or heuristic is not None or fila_at is not None or \
            limit is not None or puzzle.n_pieces > CHOOSE_MAX_PIECES:
        return None
    key = _options_key(nof, front_options)
    kept = _KEPT.pop(puzzle, None)
    if kept is not None and kept[0] == key:
        return kept[1]
    choice = autoconfig.choose(puzzle, front_options, nof, store=store or keep)
    if keep:
        _KEPT[puzzle] = (key, choice)
    return choice


def _options_key(nof: bool | None, front_options: dict[str, Any]) -> tuple:
    """The options a choice depends on, with the front's defaults filled in and the triggers
    given as None (none) left out: the same key whether an option is given or implied."""
    given = {k: v for k, v in front_options.items() if v is not None or k in FRONT_DEFAULTS}
    return nof, tuple(sorted({**FRONT_DEFAULTS, **given}.items()))


#: The front's options as ``solve`` defaults them (a choice is kept for the same options,
#: whether given or implied; a trigger given as None is no trigger).
FRONT_DEFAULTS = dict(unique="rotation", redundancy="auto", volume_filter=True,
                      parity_filter=True, fit_filter=False)
#: A choice made for a split run's tree (``hybrid_split.prepare``), handed once to the next
#: ``choice_for`` of its puzzle with the same options: a run the runner finds too short to
#: split is searched by the sequential solve, which need not choose again (0.2 s of the
#: square 8 x 8's 1.4 s), and goes on with the search the choice began.
_KEPT: "weakref.WeakKeyDictionary[Puzzle, tuple[tuple, autoconfig.Choice]]" = \
    weakref.WeakKeyDictionary()


def solve(puzzle: Puzzle, engine_fn: Callable[..., Result], *, orientation: str = "auto",
          unique: str = "rotation", redundancy: str | None = "auto",
          volume_filter: bool | int = True, parity_filter: bool | int = True,
          fit_filter: bool = False, limit: int | None = None, time_limit: float | None = None,
          count_only: bool = False, on_solution: Callable[[Tiling], None] | None = None,
          **engine_options: Any) -> Result:
    """``tiling.solve`` with the engine ``auto``, on the puzzle turned as ``choice_for``
    decides.  ``orientation``: "auto" (choose), or "file" (search the puzzle as drawn)."""
    front_options = dict(unique=unique, redundancy=redundancy, volume_filter=volume_filter,
                         parity_filter=parity_filter, fit_filter=fit_filter)
    front_options.update({k: engine_options[k] for k in ("parity_trigger", "volume_trigger")
                          if engine_options.get(k) is not None})
    # The choice is set-up: it counts in the time limit and stops on Ctrl-C or SIGTERM.
    with InterruptFlag() as interrupt:
        clock = RunClock(time_limit, lambda: interrupt.raised)
        try:
            with setting_up(clock):
                choice = choice_for(puzzle, orientation=orientation,
                                    heuristic=engine_options.get("heuristic"),
                                    fila_at=engine_options.get("fila_at"),
                                    nof=engine_options.get("nof"), limit=limit,
                                    store=on_solution is not None or not count_only,
                                    **front_options)
                check_setup()
        except SetupStopped as stop:
            return Result.unsearched("tiling", "auto", unique, stop.reason,
                                     prep_seconds=clock.spent(), jit_seconds=clock.compiled(),
                                     options=front_options, name=puzzle.name)
        return _solve(puzzle, engine_fn, choice, orientation, unique, front_options,
                      limit, clock.left(), count_only, on_solution, engine_options)


def _solve(puzzle: Puzzle, engine_fn: Callable[..., Result], choice: autoconfig.Choice | None,
           orientation: str, unique: str, front_options: dict[str, Any], limit: int | None,
           time_limit: float | None, count_only: bool,
           on_solution: Callable[[Tiling], None] | None, engine_options: dict[str, Any]
           ) -> Result:
    """The search ``choice`` configures (None: the puzzle as drawn, the options as given)."""
    if choice is None:
        return tiling.solve(puzzle, engine_fn, engine_name="auto", limit=limit,
                            time_limit=time_limit, count_only=count_only,
                            on_solution=on_solution, **front_options,
                            **{k: v for k, v in engine_options.items()
                               if k not in front_options})
    turn = choice.candidate.turn
    config = choice.config
    turned_back = None if on_solution is None else \
        (lambda t: on_solution(reorient.tiling_back(t, turn)))
    options = {k: v for k, v in engine_options.items()
               if k not in front_options and k not in ("heuristic", "fila_at", "nof")}
    front_options["redundancy"] = choice.redundancy
    result = tiling.solve(choice.candidate.puzzle, engine_fn, engine_name="auto",
                          prepared=choice.front, limit=limit, time_limit=time_limit,
                          count_only=count_only, on_solution=turned_back,
                          heuristic=str(config.schedule), fila_at=config.fila_at,
                          nof=config.nof, **front_options, **options,
                          **({"started": choice.started} if choice.started else {}))
    result.solutions = [reorient.tiling_back(t, turn) for t in result.solutions]
    result.name = puzzle.name
    return with_choice(result, choice, orientation)


def with_choice(result: Result, choice: autoconfig.Choice, orientation: str) -> Result:
    """The ``auto`` engine's part of a result (``tiling_result``: the one place, for a run in
    one process and a split run, ``hybrid_split``): the time the choice compiled, its figures,
    the orientation asked for and the configuration chosen."""
    result.jit_seconds += choice.jit_seconds
    result.stats.extra.update(choice.report())
    result.options["orientation"] = orientation
    if choice.config.reason:
        result.options["configuration"] = choice.config.reason
    return result
