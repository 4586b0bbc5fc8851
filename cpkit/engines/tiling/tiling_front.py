"""What every tiling engine shares: image filters, symmetry, and counting semantics.

Engines enumerate the raw tilings of a puzzle restricted to a set of images (``keep``).  This
front decides that set and what is counted:

1. a puzzle that parity proves impossible is answered at once (no search);
2. one-shot image filters (volume, parity, then fit after the redundancy filter) drop images
   that cannot be in a solution;
3. for ``unique="rotation"`` / ``"mirror"`` the rotational-redundancy filter constrains one
   piece (``cpkit.models.symmetry``) and each found solution is counted only if it is its
   class's representative, so counts are exact whatever the piece and the group;
4. the engine runs; solutions stream through ``on_images`` when they must be checked, decoded or
   passed on.

Filters and the redundancy choice are deterministic, so the same options give the same counts
and statistics.  The set-up counts in the time limit (compiling does not): a Ctrl-C, SIGTERM or
the limit between two of its steps ends the run with its summary (nothing counted, ``complete``
false).  Every filter has an off switch; a trigger or re-applied filter whose table of piece
states would be too large (``tiling_filters.MAX_TABLE``) is dropped with a note (``notes``),
never an error: the counts do not depend on it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ...errors import EngineUnavailable, InputError
from ...models.reorient import Correspondence, conjugated
from ...models.symmetry import RedundancyPlan, plan_redundancy, warm_up_check
from ...models.tiling import Puzzle, Tiling
from ...propagators import tiling_filters as tf
from ...result import COMPLETE, Result, Stats
from ...signals import InterruptFlag
from ..runtime.driver import RunClock, SetupStopped, StopSearch, check_setup, setting_up
from ..runtime.jit import warm
from . import tiling_result

UNIQUE_MODES = ("raw", "rotation", "mirror")
#: Engines that check triggers and dynamic filters during search.
TRIGGER_ENGINES = ("dlx", "hybrid", "auto")
#: Engines told whether the redundancy filter constrained a piece (they may place it first).
PLAN_AWARE_ENGINES = ("hybrid", "auto")
#: Options every engine may be given through the API: the front refuses them itself (with a
#: clearer message than a signature could) for an engine without DLX triggers.  They are the
#: dlx, hybrid and auto engines' options (``tiling_options``), from which the command line
#: builds ``--volume-trigger`` and ``--parity-trigger`` and refuses them to the others.
FRONT_BUILT = ("parity_trigger", "volume_trigger")
#: What the front hands the engines itself: a caller's value would clash with it.
FRONT_SUPPLIED = ("engine_name", "keep", "on_images", "constrained", "prepared")
#: The front's own parameters (``prepare``'s), which no engine takes.
FRONT_PARAMETERS = ("unique", "redundancy", "volume_filter", "parity_filter", "fit_filter",
                    "limit", "time_limit")


def _filter_from(value: bool | int | None, pieces: int, what: str) -> int | None:
    """A filter setting: False/None off, True one-shot, N re-applied while >= N pieces remain."""
    if value is None or value is False:
        return None
    if value is True:
        return pieces
    if isinstance(value, int) and value >= 1:
        return min(value, pieces)
    raise InputError(f"{what}: expected on/off or a number of pieces >= 1, got {value!r}")


@dataclass
class Front:
    """The outcome of the front's preparation: the images the engine searches (``keep``), the
    counting check, the engine options (triggers and re-applied filters merged in), and the
    figures to report.  ``proof`` is a finished result when no search is needed."""

    keep: np.ndarray
    plan: RedundancyPlan | None
    engine_options: dict[str, Any]
    extra: dict[str, Any]
    jit_seconds: float
    proof: Result | None = None

    @property
    def check(self) -> bool:
        """Whether each found solution must pass ``plan.is_counted`` to count."""
        return self.plan is not None and not self.plan.exact_without_check

    def counts(self, image_ids: np.ndarray) -> bool:
        return not self.check or self.plan.is_counted(image_ids)

    @staticmethod
    def front_options(redundancy, volume_filter, parity_filter, fit_filter) -> dict[str, Any]:
        return {"redundancy": redundancy, "volume_filter": volume_filter,
                "parity_filter": parity_filter, "fit_filter": fit_filter}

    def searched_with(self, options: dict[str, Any]) -> dict[str, Any]:
        """The engine's options for a search of this front prepared beforehand, without the
        engine's own options (the automatic configuration prepares the orientations it
        compares): the front's, and those of ``options`` (a solve call's) that are neither
        the front's parameters nor built by it."""
        return dict(self.engine_options, **{
            k: v for k, v in options.items() if k not in FRONT_BUILT and k not in FRONT_PARAMETERS})


def prepare(puzzle: Puzzle, *, engine_name: str = "", engine_fn: Callable[..., Result] | None = None,
            unique: str = "rotation",
            redundancy: str | None = "auto", volume_filter: bool | int = True,
            parity_filter: bool | int = True, fit_filter: bool = False,
            limit: int | None = None, time_limit: float | None = None,
            **engine_options: Any) -> Front:
    """Check the options and run the deterministic preparation (filters, redundancy plan) that
    every search of ``puzzle`` under these options starts from; see ``solve``.  ``engine_fn``
    (if given) may check its own options first (``precheck``), before the filters run."""
    if unique not in UNIQUE_MODES:
        raise InputError(f"unknown counting mode {unique!r}; expected one of "
                         f"{', '.join(UNIQUE_MODES)}")
    pieces = puzzle.n_pieces
    vol_from = _filter_from(volume_filter, pieces, "volume filter")
    par_from = _filter_from(parity_filter, pieces, "parity filter")
    dynamic = {"volume_filter_from": vol_from if vol_from is not None and vol_from < pieces
               else None,
               "parity_filter_from": par_from if par_from is not None and par_from < pieces
               else None}
    in_search = {k: v for k, v in engine_options.items()
                 if k in ("parity_trigger", "volume_trigger") and v is not None}
    in_search.update({k: v for k, v in dynamic.items() if v is not None})
    notes = _drop_oversized(puzzle, in_search, engine_options, dynamic)
    if in_search and engine_name not in TRIGGER_ENGINES:
        raise EngineUnavailable(f"backtrack triggers and re-applied filters run inside DLX; the "
                                f"{engine_name or 'chosen'} engine cannot use "
                                f"{', '.join(sorted(in_search))}")
    engine_options = {k: v for k, v in engine_options.items()
                      if k not in ("parity_trigger", "volume_trigger") or v is not None}
    engine_options.update(in_search)

    precheck = getattr(engine_fn, "precheck", None)
    if precheck is not None:
        precheck(puzzle, **engine_options)       # fail before the (possibly long) filters
    jit = warm("tiling filters", tf.warm_up)
    if fit_filter:
        jit += warm("fit filter", tf.warm_up_fit)
    prep_start = time.perf_counter()
    extra: dict[str, Any] = {"notes": notes} if notes else {}
    check_setup()
    keep = np.ones(len(puzzle.images), dtype=bool)
    check_setup()
    if tf.parity_infeasible(puzzle):
        proof = Result("tiling", engine_name, unique, 0, True, COMPLETE, 0.0, jit, [],
                       Stats(extra={"proof": "parity", "prep_seconds":
                                    round(time.perf_counter() - prep_start, 6)}),
                       {"note": "the pieces' parities cannot sum to the region's parity"},
                       puzzle.name)
        return Front(keep, None, engine_options, extra, jit, proof)
    if vol_from is not None:
        extra["volume_filter_removed"] = tf.volume_filter(puzzle, keep)
        check_setup()
    if par_from is not None:
        extra["parity_filter_removed"] = tf.parity_filter(puzzle, keep)
        check_setup()
    plan = plan_redundancy(puzzle, unique, redundancy, allowed=keep, between=check_setup)
    keep &= plan.kept
    check_setup()
    if not plan.exact_without_check:        # every solution found is checked: its kernel
        loading = warm("redundancy check", warm_up_check)
        jit += loading
        prep_start += loading               # reported as jit, not as preparation
    if fit_filter:
        removed, passes = tf.fit_filter(puzzle, keep, between=check_setup)
        extra["fit_filter_removed"] = removed
        extra["fit_filter_passes"] = passes
    extra.update({"symmetries": plan.order, "constrained_piece": plan.piece,
                  "images_kept": int(keep.sum()),
                  "prep_seconds": round(time.perf_counter() - prep_start, 6)})
    return Front(keep, plan, engine_options, extra, jit)


def turned(front: Front, turn: Correspondence, other: Puzzle) -> Front:
    """``front``, prepared for one orientation of a puzzle, carried to ``other``, another
    orientation of it (``turn``: ``reorient.correspond``), in place of ``prepare``: the filters
    keep the same images up to the turn (volume, parity and fit are properties of the shapes
    and the region), and the redundancy plan is conjugated (``reorient.conjugated``).  The
    automatic configuration estimates several orientations: preparing each took 7-40 ms."""
    start = time.perf_counter()
    if front.proof is not None:
        raise ValueError("a front that needs no search has nothing to turn")
    plan = None if front.plan is None else conjugated(front.plan, turn, other)
    extra = dict(front.extra, prep_seconds=round(time.perf_counter() - start, 6))
    return Front(front.keep[turn.image_of], plan, dict(front.engine_options), extra, 0.0)


#: The in-search features that follow one table of piece states, by kind.
_IN_SEARCH = {"volume": ("volume_trigger", "volume_filter_from"),
              "parity": ("parity_trigger", "parity_filter_from")}


def _drop_oversized(puzzle: Puzzle, in_search: dict[str, Any], engine_options: dict[str, Any],
                    dynamic: dict[str, Any]) -> list[str]:
    """Drop (from the three dicts) the triggers and re-applied filters whose table of piece
    states would be too large, and say so: 100 x 100 monominoes need a parity table of 10,001
    states x 20,001 values.  The one-shot filters never need the table."""
    notes = []
    for kind, names in _IN_SEARCH.items():
        asked = [n for n in names if n in in_search]
        if not asked:
            continue
        space = tf.volume_space(puzzle) if kind == "volume" else tf.parity_space(puzzle)
        if space.entries <= tf.MAX_TABLE:
            continue
        for name in asked:
            for options in (in_search, engine_options, dynamic):
                options.pop(name, None)
        what = " and ".join(n.replace("_from", " re-applied").replace("_", " ")
                            for n in asked)
        notes.append(f"{what} dropped: the table of {kind} states would hold "
                     f"{space.entries:,} entries (at most {tf.MAX_TABLE:,})")
    return notes


def solve(puzzle: Puzzle, engine_fn: Callable[..., Result], *, engine_name: str = "",
          unique: str = "rotation", redundancy: str | None = "auto",
          volume_filter: bool | int = True, parity_filter: bool | int = True,
          fit_filter: bool = False, limit: int | None = None, time_limit: float | None = None,
          count_only: bool = False, on_solution: Callable[[Tiling], None] | None = None,
          prepared: Front | None = None, **engine_options: Any) -> Result:
    """Solve ``puzzle`` with ``engine_fn`` under counting mode ``unique``.

    ``redundancy``: ``"auto"`` (choose the piece), a piece name, or ``None`` (no piece is
    constrained; every raw solution is found and checked).  ``volume_filter`` and
    ``parity_filter``: True for a one-shot filter before the search, a number N to re-apply it
    after every placement while at least N pieces remain (DLX), False to switch it off.
    ``fit_filter``: one-shot, repeated to a fixed point.  Other options go to the engine (e.g.
    ``heuristic``, ``parity_trigger=N``, ``volume_trigger=N`` for DLX; ``on_progress`` for the
    numba engines, whose figures then count the solutions as this front does).
    ``prepared``: the front's preparation under these options, made already (the automatic
    configuration prepares the orientations it compares) without the engine's own options,
    which are taken from here.
    """
    front_options = Front.front_options(redundancy, volume_filter, parity_filter, fit_filter)
    # One flag for the set-up and the search: a Ctrl-C while the front prepares ends the set-up
    # at its next step, and the engine's search, started with the flag raised, after one slice.
    with InterruptFlag() as interrupt:
        clock = RunClock(time_limit, lambda: interrupt.raised)
        try:
            with setting_up(clock):
                front = prepared or prepare(
                    puzzle, engine_name=engine_name, engine_fn=engine_fn, unique=unique,
                    redundancy=redundancy, volume_filter=volume_filter,
                    parity_filter=parity_filter, fit_filter=fit_filter, limit=limit,
                    time_limit=time_limit, **engine_options)
                if front.proof is None and clock.over():
                    raise SetupStopped(clock.reason())
        except SetupStopped as stop:
            return Result.unsearched("tiling", engine_name, unique, stop.reason,
                                     prep_seconds=clock.spent(), jit_seconds=clock.compiled(),
                                     options=front_options, name=puzzle.name)
        if front.proof is not None:
            return front.proof
        searched = front.searched_with(engine_options) if prepared else front.engine_options
        return _search(puzzle, engine_fn, front, engine_name, unique, clock.left(), limit,
                       count_only, on_solution, front_options, searched)


def _search(puzzle: Puzzle, engine_fn: Callable[..., Result], front: Front, engine_name: str,
            unique: str, time_limit: float | None, limit: int | None, count_only: bool,
            on_solution: Callable[[Tiling], None] | None,
            front_options: dict[str, Any], engine_options: dict[str, Any]) -> Result:
    """The engine's search over the images the front kept, its solutions counted as the
    counting mode says, with ``engine_options``."""
    keep, check = front.keep, front.check
    counted = 0
    tilings: list[Tiling] = []

    def on_images(ids: np.ndarray) -> None:
        nonlocal counted
        if not front.counts(ids):
            return
        counted += 1
        if not count_only:
            tiling = puzzle.tiling_from_images(ids)
            if on_solution is not None:
                on_solution(tiling)
            else:
                tilings.append(tiling)
        if limit is not None and counted >= limit:
            raise StopSearch

    streaming = check or not count_only
    on_progress = engine_options.pop("on_progress", None)
    if on_progress is not None:
        # The engine counts raw solutions; the line shows those the front counts.
        engine_options["on_progress"] = lambda figures: on_progress(
            {**figures, "solutions": counted} if streaming else figures)
    if engine_name in PLAN_AWARE_ENGINES:
        engine_options["constrained"] = front.plan.piece is not None
    result = engine_fn(puzzle, keep=keep, limit=None if check else limit,
                       time_limit=time_limit, count_only=count_only,
                       on_images=on_images if streaming else None, **engine_options)
    found = result.count
    result.solutions = tilings
    return tiling_result.counted(result, front, unique=unique,
                                 count=counted if streaming else found, found=found,
                                 front_options=front_options)
