"""The coordinator of a split run: split, hand out, collect, checkpoint, merge.

``run`` is what ``cpkit.solve(..., workers=...)`` and the CLI's ``--workers`` / ``--scheduler``
/ ``--checkpoint`` / ``--resume`` call.  It decides whether a split run is worth it, prepares the
model once here (the frontier search runs in this process while the workers start), estimates
each subproblem's size so the largest go first (the first, when solutions are printed as the run
goes), and merges the figures of every part in the depth-first order of the subproblems, so that
counts, statistics and the order of solutions are those of the sequential run.
"""

from __future__ import annotations

import inspect
import math
import os
import time
from functools import partial
from typing import Any, Callable

from ..errors import EngineUnavailable, InputError
from ..result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result
from ..signals import StopSignals
from ..engines.runtime.driver import RunClock, SetupStopped, setting_up
from . import auto_race, backends, plan, splitter
from .checkpoint import Checkpoint, Recorder, check_writable
from .job import Job, TaskSpec, tree as prepared_tree
from .progress import PlanLine, Progress, search_line
from .protocol import Frontier, Part
from .solution_order import Already, InOrder, ordered_solutions, shallow_by_position

#: Seed of the progress line's size estimates, apart from those that order the subproblems.
LINE_SEED = 1_000_003
#: Without an explicit ``workers``, trees estimated smaller than this are searched in this
#: process: starting worker processes would cost more than it saves.
AUTO_MIN_NODES = 500_000
POLL_SECONDS = 0.2


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
        check_writable(checkpoint)
    if subproblems is not None and subproblems < 1:
        raise InputError(f"subproblems must be at least 1, got {subproblems}")
    check_run_options({"limit": limit, "time_limit": time_limit, "on_solution": on_solution,
                       "count_only": count_only})
    plain = workers == 1 and not distributed and not durable
    if plain or (workers is None and not distributed and not durable and limit is not None):
        return in_sequence(partial(auto_race.solve_here, cores=n_workers)
                           if races and not plain else sequential)
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


def _emit(result: Result, on_solution) -> Result:
    """Hand ``result``'s solutions to ``on_solution`` and keep none, as a sequential run that
    streams them."""
    if on_solution is not None:
        for s in result.solutions:
            on_solution(s)
        result.solutions = []
    return result


class Coordinator:
    def __init__(self, job: Job, workers: int, client, scheduler, limit, time_limit,
                 count_only, on_solution, checkpoint, resume, checkpoint_every, progress,
                 source, subproblems, clock: RunClock, max_stored=None):
        self.job, self.tree, self.workers = job, None, workers      # the tree: ``run`` sets it
        self.clock = clock
        self.client, self.scheduler = client, scheduler
        self.limit, self.time_limit = limit, time_limit
        self.store = not count_only
        self.max_stored = max_stored
        self.on_solution = on_solution
        self.checkpoint_file, self.resume_file = checkpoint, resume
        self.checkpoint_every = checkpoint_every
        self.show_progress = progress
        self.source = source
        self.subproblems = subproblems
        self.ck: Checkpoint | None = None        # what the run records (``open_checkpoint``)
        self.recorder: Recorder | None = None    # where it writes it (``--checkpoint``)
        self._resumed_split = False              # the split comes from the resumed file
        self._previous_seconds = 0.0             # search time of the runs resumed
        self._planning = PlanLine(False)         # drawn while a run plans (``_run``)
        #: Why ``--engine auto`` picked the engine (recorded in the checkpoint), or None.
        self.engine_reason: str | None = None
        #: The solutions the engine found during an ``auto`` race: handed out before the
        #: split (``_hand_out_head``), never again.
        self.head: list[Any] = []
        self.sized: plan.Estimate | None = None  # the tree's size, if ``run`` estimated it

    def _recorded_options(self) -> dict[str, Any]:
        """What a checkpoint must agree on: the engine and every option shaping its search,
        those left out at their defaults."""
        return dict(self._defaults(), **self.job.options, engine=self.job.engine)

    def _defaults(self) -> dict[str, Any]:
        from ..engines.dispatch import option_defaults

        return option_defaults(self.job.family, self.job.engine)

    def _backend(self, signals: StopSignals):
        if self.client is not None or self.scheduler is not None:
            return backends.DaskBackend(self.client, self.scheduler)
        if self.workers == 1:
            return backends.InlineBackend(signals.stopped)
        return backends.LocalBackend(self.workers)

    def open_checkpoint(self) -> None:
        """Read and check the checkpoint being resumed (before any worker starts, so a refused
        file costs no start-up) and write the run's own checkpoint at once: a run killed while
        it prepares or plans (seconds on a large board) leaves a file to resume from.  Before
        the plan it holds no split; resuming it plans again."""
        resumed = self._load_resumed()
        if resumed is not None:
            self.ck = resumed
            self._resumed_split = resumed.planned
            self._previous_seconds = resumed.seconds
        elif self.checkpoint_file is not None:
            self.ck = Checkpoint.unplanned(self.source, self._recorded_options(), self._kept())
            self.ck.engine_reason = self.engine_reason
        if self.checkpoint_file is not None:
            self.recorder = Recorder(self.checkpoint_file, self.ck)
            self.recorder.start()

    def _save(self) -> None:
        if self.recorder is not None:
            self.recorder.save()

    def _split(self, workers: int, signals: StopSignals) -> tuple[Frontier, float]:
        """The subproblems: from the checkpoint being resumed, or a fresh split, and the
        seconds its frontier searches took.  A Ctrl-C or the time limit (``RunClock``) leaves
        the split unfinished: the checkpoint stays as it was (an unfinished frontier would
        resume into a wrong count); a finished one goes into it at once."""
        if self._resumed_split:
            return self.ck.frontier(), 0.0
        budget = plan.planning_budget(self.time_limit)
        target = self.subproblems or plan.subproblem_target(
            self.tree, workers, seconds=budget, cancel=self._watch("estimating the tree"),
            whole=self.sized)[0]
        began = time.time()
        enough = None if self.subproblems else plan.MIN_PER_WORKER * workers
        frontier = plan.split(self.tree, target, self.store,
                              self._watch("splitting the tree into subproblems"), enough,
                              seconds=plan.WALK_CUTOFF * budget)
        if self.ck is not None and frontier.above.complete:
            self.ck.plan(frontier)
            self.ck.seconds = self._previous_seconds + frontier.above.seconds
            self._save()
        return frontier, time.time() - began

    def _cap(self) -> int | None:
        """How many solutions the run hands out at most (None: all)."""
        caps = [c for c in (self.max_stored, self.limit) if c is not None]
        return min(caps, default=None)

    def _kept(self) -> int:
        """How many solutions a checkpoint of this run keeps: as many as it prints at most
        (``run`` refuses a checkpointed run that would print them all), none when counting."""
        return (self._cap() or 0) if self.store else 0

    def _streams(self) -> bool:
        """Whether solutions go to ``on_solution`` while the run goes (``InOrder``)."""
        return self.store and self.on_solution is not None and self._cap() != 0

    def _hand_out_head(self) -> None:
        """The race's solutions, at once (as many as the run hands out): on a board whose first
        subproblem takes long, they would otherwise wait for it to finish.  What is not handed
        out is forgotten: the split finds it again."""
        cap = self._cap()
        self.head = self.head[:cap] if self._streams() else []
        for solution in self.head:
            self.on_solution(solution)

    def _load_resumed(self) -> Checkpoint | None:
        """The checkpoint being resumed, read and checked against this run: before any worker
        starts, so a refused file costs no start-up."""
        if self.resume_file is None:
            return None
        ck = Checkpoint.load(self.resume_file)
        ck.check_matches(self.source, self._recorded_options(), self.resume_file,
                         self._defaults())
        ck.check_kept(self._kept(), self.resume_file)
        return ck

    def run(self, signals: StopSignals) -> Result:
        backend = self._backend(signals)
        try:
            self.clock.start_up(lambda: backend.start(self.job))
            return self._run(backend, signals)
        finally:
            backend.close()

    def _watch(self, stage: str) -> Callable[[], bool]:
        """The ``cancel`` of a planning step (``RunClock.over``), which draws the planning
        line on the way, saying ``stage``."""
        self._planning.stage = stage

        def over() -> bool:
            self._planning.tick()
            return self.clock.over()
        return over

    def _run(self, backend, signals: StopSignals) -> Result:
        self._planning = PlanLine(self.show_progress)
        try:
            return self._plan_and_search(backend, signals)
        finally:
            self._planning.clear()

    def _plan_and_search(self, backend, signals: StopSignals) -> Result:
        # While the workers start: split, and (for the progress line) estimate each
        # subproblem's size.  Depth-first order balances well already (docs/architecture.md);
        # with estimates at hand, the largest go first, unless solutions are being handed out
        # as the run goes: those wait for every subproblem before them, so the first ones go
        # first.
        split_start = time.perf_counter()
        self._hand_out_head()
        frontier, searched = self._split(backend.workers, signals)
        if not frontier.above.complete:         # a Ctrl-C or the time limit during the split
            reason = INTERRUPTED if signals.raised else TIME_LIMIT
            return self._merge(frontier, {}, {}, reason, searched, searched,
                               {"plan_seconds": time.perf_counter() - split_start}, backend)
        ck = self.ck
        done: dict[int, Part] = dict(ck.done) if ck is not None else {}
        pending = [k for k in range(len(frontier.paths)) if k not in done]
        sizes = [1.0] * len(frontier.paths)
        if self.show_progress:
            budget = plan.planning_budget(self.time_limit)
            stopped = self._watch("estimating the subproblems")
            if self._streams():
                sizes = plan.subproblem_sizes(self.tree, frontier.paths, seconds=budget,
                                              cancel=stopped)
            else:
                # The line needs estimates other than those the order is chosen by: the
                # subproblems that go first are those whose estimates overshot most, the rest
                # those whose estimates fell short (docs/architecture.md, progress).
                order = plan.subproblem_sizes(self.tree, frontier.paths, seconds=budget / 2,
                                              cancel=stopped)
                pending.sort(key=lambda k: -order[k])
                sizes = plan.subproblem_sizes(self.tree, frontier.paths, seed=LINE_SEED,
                                              seconds=budget / 2, cancel=stopped)
        plan_seconds = time.perf_counter() - split_start
        self._planning.clear()
        # The frontier search is part of the search; the rest of the planning is start-up.
        split_seconds = 0.0 if self._resumed_split else frontier.above.seconds
        # A resumed run without --checkpoint reads the file and never writes it.
        saving = self.recorder is not None
        started = self.clock.start_up(backend.ready)

        start = time.perf_counter()
        left = self.clock.left()
        deadline = None if left is None else time.time() + left
        # A checkpointed run asks for the running subproblems' states as often as it saves.
        spec = TaskSpec(self.store, self.limit, deadline, self.max_stored,
                        self.checkpoint_every if saving else None)
        resumed = ck.states if ck is not None else {}
        for k in pending:
            backend.submit(k, frontier.paths[k], spec, resumed.get(k, b""))
        # What earlier runs searched, for the line's rate: the finished subproblems read from
        # the checkpoint, and the nodes inside each resumed state (counted once it reports).
        earlier = sum(p.nodes for p in done.values())
        state_nodes = getattr(self.tree, "state_nodes", None)
        restored = {k: state_nodes(resumed[k]) for k in pending if k in resumed} \
            if self.show_progress and state_nodes is not None else {}
        partial: dict[int, Part] = {}
        boards = self.job.family == "edge_matching"         # parts keep the deepest board
        bar = Progress(len(frontier.paths), sizes, self.show_progress,
                       n_cells=self.job.model.n_cells if boards else 0)
        in_order = InOrder(frontier, self.tree.decode, self.on_solution if self.store else None,
                           self._cap(), bar.clear, self.head)
        last_save = [time.perf_counter()]
        reason = COMPLETE

        def duties() -> None:
            """Between polls, and between the slices of a subproblem searched in this process:
            save the checkpoint when due (with the running subproblems' states), draw the
            line."""
            now = time.perf_counter()
            if saving and now - last_save[0] >= self.checkpoint_every:
                ck.states.update((k, s) for k, s in backend.states().items() if k not in done)
                ck.seconds = self._previous_seconds + split_seconds + (now - start)
                self._save()
                last_save[0] = now
            self._draw(bar, frontier, done, backend, earlier, restored)

        backend.between_slices = duties

        def collect(finished) -> None:
            for k, part in finished:
                if not part.complete:
                    partial[k] = part
                    if ck is not None:
                        ck.record_unfinished(k, part)
                    continue
                done[k] = part
                if ck is not None:
                    ck.record(k, part)      # before ``in_order`` hands its solutions out

        try:
            while len(done) < len(frontier.paths):
                collect(backend.poll(POLL_SECONDS))
                in_order.advance(done)
                if partial and not signals.raised:
                    reason = self._why_partial(partial)
                    break
                if self._limit_reached(frontier, done):
                    reason = LIMIT
                    break
                if signals.raised:
                    reason = INTERRUPTED
                    break
                if deadline is not None and time.time() >= deadline:
                    reason = TIME_LIMIT
                    break
                duties()
            if len(done) < len(frontier.paths):
                backend.cancel()
                collect(backend.drain(10.0))
        finally:
            self._draw(bar, frontier, done, backend, earlier, restored, force=True)
            bar.close()
            if saving:
                ck.seconds = self._previous_seconds + split_seconds + \
                    (time.perf_counter() - start)
                self._save()
        if signals.raised:
            reason = INTERRUPTED
        seconds = split_seconds + (time.perf_counter() - start)
        started["plan_seconds"] = plan_seconds
        return self._merge(frontier, done, partial, reason, seconds, split_seconds, started,
                           backend, in_order)

    @staticmethod
    def _draw(bar: Progress, frontier: Frontier, done: dict[int, Part], backend,
              earlier: int = 0, restored: dict[int, int] | None = None,
              force: bool = False) -> None:
        """The progress line: finished subproblems, and what the workers report from those
        they are searching (every backend reports their figures).
        ``earlier``, ``restored``: nodes searched by earlier runs (finished subproblems; the
        states resumed, by subproblem), left out of the rate.  ``force``: draw even if drawn
        less than an interval ago (the last line, when the run ends)."""
        if not bar.enabled or (not force and bar.waiting()):   # sum only to draw: every slice
            return
        running = {k: f for k, f in backend.running().items() if k not in done}
        finished = [frontier.above, *done.values()]
        before = earlier + sum(n for k, n in (restored or {}).items()
                               if k in running or k in done)
        bar.update(set(done),
                   sum(p.count for p in finished) + sum(f["solutions"] for f in running.values()),
                   sum(p.nodes for p in done.values()),
                   running_nodes=sum(f["nodes"] for f in running.values()),
                   deepest=max([p.deepest for p in finished] +
                               [f["deepest"] for f in running.values()]),
                   earlier_nodes=before, force=force)

    def _why_partial(self, partial: dict[int, Part]) -> str:
        """A subproblem came back unfinished though nobody asked: a limit, the deadline, or a
        Ctrl-C that reached the worker directly (a terminal signals the whole group)."""
        if self.limit is not None and any(p.count >= self.limit for p in partial.values()):
            return LIMIT
        if self.time_limit is not None:
            return TIME_LIMIT
        return INTERRUPTED

    def _limit_reached(self, frontier: Frontier, done: dict[int, Part]) -> bool:
        """Whether the subproblems finished so far, taken in depth-first order from the first,
        already hold ``limit`` solutions (so the first ``limit`` are those of a sequential
        run)."""
        if self.limit is None:
            return False
        total = 0
        shallow = shallow_by_position(frontier)
        for k in range(len(frontier.paths)):
            total += len(shallow.get(k, ()))
            if total >= self.limit:
                return True
            if k not in done:
                return False
            total += done[k].count
        return total >= self.limit

    def _merge(self, frontier: Frontier, done, partial, reason, seconds, split_seconds, started,
               backend, in_order: InOrder | None = None) -> Result:
        """The run's result from its parts; its solutions are those ``in_order`` did not hand
        out during the run."""
        total = Part()
        total.add(frontier.above)
        total.solutions = []
        parts = dict(partial)
        parts.update(done)
        for part in parts.values():
            total.add(part)
        complete = len(done) == len(frontier.paths) and frontier.above.complete
        if complete:
            reason = COMPLETE
        streamed = in_order is not None and in_order.active
        given = in_order.given if streamed else len(self.head)
        if not self.store:
            solutions = []
        elif streamed:
            solutions = in_order.rest(parts)
        else:
            solutions = Already(self.head, self.tree.decode).drop(
                ordered_solutions(frontier, parts))
        cap = self._cap()
        if cap is not None:
            solutions = solutions[:max(0, cap - given)]
        if not complete:        # the race's solutions count even where the split fell short
            total.count = max(total.count, len(self.head))
        if self.limit is not None:
            total.count = min(total.count, self.limit)
            if total.count >= self.limit:
                reason, complete = LIMIT, False
        per_worker: dict[str, float] = {}
        for part in parts.values():
            per_worker[part.worker] = per_worker.get(part.worker, 0.0) + part.cpu_seconds
        result = self.tree.result(total, complete=complete, stop_reason=reason,
                                  seconds=self._previous_seconds + seconds,
                                  jit_seconds=started.get("jit_seconds", 0.0),
                                  solutions=solutions)
        result.stats.extra.update({
            "workers": backend.workers, "backend": type(backend).__name__,
            "subproblems": len(frontier.paths), "split_depth": frontier.depth,
            "subproblems_done": len(done), "split_seconds": round(split_seconds, 6),
            "busy_seconds": round(sum(p.seconds for p in parts.values()), 6),
            "cpu_seconds": round(frontier.above.cpu_seconds + sum(per_worker.values()), 6),
            "critical_cpu_seconds": round(frontier.above.cpu_seconds +
                                          max(per_worker.values(), default=0.0), 6),
            "plan_seconds": round(started["plan_seconds"], 6),
            "startup_seconds": round(started.get("startup_seconds", 0.0), 6)})
        if self.recorder is not None and self.recorder.error:
            result.stats.extra["checkpoint_error"] = self.recorder.error
        return _emit(result, self.on_solution)
