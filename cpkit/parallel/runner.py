"""A run over workers, or in this process: ``run``.

``run`` is what ``cpkit.solve(..., workers=...)`` and the CLI's ``--workers`` / ``--scheduler``
/ ``--checkpoint`` / ``--resume`` call.  It checks the options, searches in this process a run
that asks for one worker (or whose tree is too small to split), and hands the others to the
``coordinator``.  The modules of a split run (the coordinator, the backends and
multiprocessing, checkpoints, edge matching's race) are imported only for one: a one-worker
``cpkit tile`` of the 10 x 6 pentominoes, 0.21 s in all, spent 5 ms importing them.
"""

from __future__ import annotations

import inspect
import math
import os
from functools import partial
from typing import Any, Callable

from ..errors import EngineUnavailable, InputError
from ..result import INTERRUPTED, Result
from ..signals import StopSignals
from ..engines.runtime.driver import RunClock, SetupStopped, setting_up
from . import splitter
from .progress import search_line

#: Without an explicit ``workers``, trees estimated smaller than this are searched in this
#: process: starting worker processes would cost more than it saves.
AUTO_MIN_NODES = 500_000


#: More local worker processes than this per core only share the cores while each takes its
#: memory and start-up time (a 1-second run with 8 workers on 2 cores reported 3 s).
MAX_WORKERS_PER_CORE = 4


def resolve_workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise InputError(f"workers must be a whole number >= 1, got {workers!r}")
    return workers


def run(model: Any, *, engine: str = "auto", workers: int | None = None, client: Any = None,
        scheduler: str | None = None, limit: int | None = None,
        time_limit: float | None = None, count_only: bool = False,
        on_solution: Callable[[Any], None] | None = None, checkpoint: str | None = None,
        resume: str | None = None, checkpoint_every: float = 60.0,
        progress: bool | float = False,
        source: dict[str, Any] | None = None, subproblems: int | None = None,
        max_stored: int | None = None, **options: Any) -> Result:
    """Solve ``model`` like ``cpkit.engines.dispatch.solve``, split over ``workers`` processes
    (None: all cores; small trees stay here), a Dask ``client`` or ``scheduler`` address.

    ``checkpoint``: file to write finished/pending subproblems to, every ``checkpoint_every``
    seconds and when stopped; ``resume``: a checkpoint to continue (``source`` identifies the
    puzzle file, see ``checkpoint.model_identity``).  ``subproblems``: how many to aim for
    (default: from a tree-size estimate).  ``progress``: True draws the progress line on
    stderr, rewritten in place; a number of seconds writes it as a new line that often.
    ``max_stored``: keep only the first solutions (the sequential order's), as many as that, in
    ``Result.solutions`` and for ``on_solution`` (a split run holds a subproblem's solutions
    until it and every subproblem before it have finished, to give them in that order;
    ``cpkit match --show N`` needs N, not millions).
    """
    from ..engines.dispatch import AUTO, check_options, check_run_options, family_of
    from ..engines.dispatch import solve as sequential

    family = family_of(model)
    name = AUTO.get(family, engine) if engine == "auto" else engine
    engine_fn = check_options(family, name, options)
    if options.pop("first", False):              # edge matching's "stop at the first"
        limit = 1 if limit is None else min(limit, 1)
    n_workers = resolve_workers(workers)
    distributed = client is not None or scheduler is not None
    cores = os.cpu_count() or 1
    if not distributed and n_workers > MAX_WORKERS_PER_CORE * cores:
        raise InputError(f"--workers {n_workers}: at most {MAX_WORKERS_PER_CORE * cores} worker "
                         f"processes on this machine ({cores} cores); each loads the engines "
                         f"(about 150 MB)")
    if not isinstance(progress, bool) and not (
            isinstance(progress, (int, float)) and 0 < progress < math.inf):
        raise InputError(f"progress must be True, False or a positive number of seconds, "
                         f"got {progress!r}")
    # An engine whose ``solve`` takes ``on_progress`` draws its own line in one process
    # (e.g. ``--first`` on a hard board); the others (alldiff) report nothing as they search.
    reports = "on_progress" in inspect.signature(engine_fn).parameters
    if not isinstance(progress, bool) and not reports:
        raise EngineUnavailable(f"the {name} engine reports no progress while it searches; "
                                f"--progress applies to the other engines")
    durable = checkpoint is not None or resume is not None
    prepare = splitter(family, name)
    if max_stored is not None and (isinstance(max_stored, bool) or not isinstance(
            max_stored, int) or max_stored < 0):
        raise InputError(f"max_stored must be a whole number >= 0, got {max_stored!r}")

    def in_sequence(sequential: Callable[..., Any] = sequential,
                    time_limit: float | None = time_limit) -> Any:
        """The search in this process (with its own progress line where the engine reports
        one): the same ``solve`` as ``cpkit.solve``'s, so a result is assembled in one place;
        with ``max_stored``, the first solutions only.  ``sequential``: the solve to run
        (``em_auto.choose``, which may return the engine it chose for a split run)."""
        line = search_line(model, family, name, progress if reports else False)
        reporting = {"on_progress": line.update} if line.enabled else {}

        def on_cleared_line(solution: Any) -> None:
            with line.lock:
                line.clear()
                on_solution(solution)

        emit = on_cleared_line if on_solution is not None and line.enabled else on_solution
        try:
            if max_stored is None or count_only:
                streaming = {} if emit is None else {"on_solution": emit}
                return sequential(model, engine=name, limit=limit, time_limit=time_limit,
                                  count_only=count_only, **streaming, **reporting, **options)
            kept: list[Any] = []

            def keep(solution: Any) -> None:
                if len(kept) < max_stored:
                    kept.append(solution)
                    if emit is not None:
                        emit(solution)

            result = sequential(model, engine=name, limit=limit, time_limit=time_limit,
                                count_only=False, on_solution=keep, **reporting, **options)
            if isinstance(result, Result):
                result.solutions = kept if emit is None else []  # as ``_emit`` leaves them
            return result
        finally:
            line.close()

    races = family == "edge_matching" and name == "auto"        # em_auto: no tree of its own
    if prepare is None and not races:
        if distributed or durable or (workers or 1) > 1:
            raise EngineUnavailable(f"the {name} engine cannot split its search: it runs with "
                                    f"--workers 1 and no --checkpoint, --resume or --scheduler")
        return in_sequence()
    if durable and not count_only and max_stored is None and limit is None:
        raise InputError("a checkpointed run that prints solutions keeps them in the "
                         "checkpoint: give --first, --limit N or --show N (or count with "
                         "--count-only)")
    if durable and source is None:
        raise InputError("checkpoints need the puzzle as a file path (to record its identity)")
    if checkpoint is not None:
        from .checkpoint import check_writable
        check_writable(checkpoint)
    if subproblems is not None and subproblems < 1:
        raise InputError(f"subproblems must be at least 1, got {subproblems}")
    check_run_options({"limit": limit, "time_limit": time_limit, "on_solution": on_solution,
                       "count_only": count_only})
    plain = workers == 1 and not distributed and not durable
    if plain or (workers is None and not distributed and not durable and limit is not None):
        if races and not plain:
            from . import auto_race
            return in_sequence(partial(auto_race.solve_here, cores=n_workers))
        return in_sequence(sequential)
    from . import auto_race, plan
    from .coordinator import Coordinator
    from .job import Job, tree as prepared_tree
    from .protocol import Part
    reason, picked = None, None
    if races:
        if resume is not None and auto_race.before_the_race(resume, source):
            resume = None           # killed while racing: nothing was searched, race again
        if resume is None and checkpoint is not None:
            auto_race.save_before_the_race(checkpoint, source, options)
        race = partial(auto_race.race, workers=n_workers, split_soon=durable or distributed)
        picked = in_sequence(race) if resume is None else auto_race.resumed_engine(resume, family)
        if isinstance(picked, Result):
            return picked
        name, reason = picked.engine, picked.reason
        options.update({k: v for k, v in picked.options.items() if k not in options})
        engine_fn = check_options(family, name, options)
        if time_limit is not None:
            time_limit = max(1e-3, time_limit - picked.seconds)

    with StopSignals() as signals:      # a Ctrl-C while preparing still gets a report
        clock = RunClock(time_limit, signals.stopped)
        job = Job(family, name, model, options)
        coordinator = Coordinator(job, n_workers, client, scheduler, limit, time_limit,
                                  count_only, on_solution, checkpoint, resume, checkpoint_every,
                                  progress, source, subproblems, clock, max_stored)
        coordinator.engine_reason = reason
        if picked is not None and not durable:
            coordinator.head = picked.solutions
        coordinator.open_checkpoint()
        try:
            with setting_up(clock):
                tree = coordinator.tree = prepared_tree(job)
        except SetupStopped as stop:
            unique = options.get("unique", "raw" if family == "exact_cover" else "rotation")
            return Result.unsearched(family, name, unique, stop.reason,
                                     prep_seconds=clock.spent(), jit_seconds=clock.compiled(),
                                     options={}, name=getattr(model, "name", ""),
                                     subproblems=0, subproblems_done=0)
        if tree.proof is not None:
            return tree.proof
        small = False
        if workers is None and not distributed and not durable and not signals.raised \
                and reason is None:         # a race has sized the tree already
            small, coordinator.sized = plan.too_small_to_split(
                tree, AUTO_MIN_NODES, plan.planning_budget(time_limit), clock.over)
        if signals.raised:      # before the split: no subproblem yet, as a split run says
            result = tree.result(Part(), complete=False, stop_reason=INTERRUPTED, seconds=0.0,
                                 jit_seconds=0.0, solutions=[])
            result.stats.extra.update(subproblems=0, subproblems_done=0)
            return result
        if small:       # searched here by the sequential solve, on the time left
            result = in_sequence(time_limit=clock.left())
            result.jit_seconds += clock.compiled()      # compiled while preparing the tree
            return result
        result = coordinator.run(signals)
        if reason is not None:          # the race's time is part of the run's
            result.seconds += picked.seconds
            result.stats.extra.update(engine_reason=reason, engine_race=picked.race)
        return result
