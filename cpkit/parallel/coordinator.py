"""The coordinator of a split run: split, hand out, collect, checkpoint, merge.

``runner.run`` hands it the runs it splits.  It prepares the model once here (the frontier
search runs in this process while the workers start), estimates each subproblem's size so the
largest go first (the first, when solutions are printed as the run goes), and merges the
figures of every part in the depth-first order of the subproblems, so that counts, statistics
and the order of solutions are those of the sequential run.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result
from ..signals import StopSignals
from ..engines.runtime.driver import RunClock
from . import backends, plan
from .checkpoint import Checkpoint, Recorder
from .job import Job, TaskSpec
from .progress import PlanLine, Progress
from .protocol import Frontier, Part
from .solution_order import Already, InOrder, ordered_solutions, shallow_by_position

#: Seed of the progress line's size estimates, apart from those that order the subproblems.
LINE_SEED = 1_000_003
POLL_SECONDS = 0.2


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
