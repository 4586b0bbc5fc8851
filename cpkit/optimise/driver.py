"""The anytime driver: workers, the best board they share, checkpoints, progress, signals.

``maximize`` runs ``workers`` searches (``Anytime``, seeds ``seed``, ``seed + 1``, ...) until the
time limit, a Ctrl-C / SIGTERM, or a perfect board, and returns the best board any of them found
(``MaximizeResult``).  One worker runs in this process; more run as tasks of the split runs'
backends (``cpkit.parallel.backends``: local spawned processes, or a Dask cluster with
``client``/``scheduler``), one task per worker and *epoch*: at the end of each epoch every worker
hands back its state and gets it again with the best board so far, which it takes if it is
better than its own (``share``; without it the workers are independent seeds, one epoch long).

With ``checkpoint`` the file (``optimise.checkpoint``) is written when the run starts, every
``checkpoint_every`` seconds (the workers send their states that often) and when it stops, and
``resume`` continues from one: every worker from its state, the best board kept, the seconds
counted on.  A ``kill -9`` loses at most what was found since the last write.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import numpy as np

from ..errors import InputError
from ..models.edge_matching import EdgeMatchingPuzzle
from ..models.score import inner_edges
from ..parallel.progress import ScoreLine
from ..result import COMPLETE, INTERRUPTED, TIME_LIMIT
from . import _board_kernel as board_kernel
from .anytime import OBJECTIVES, Anytime, Config, warm
from .checkpoint import MaximizeCheckpoint
from .result import MaximizeResult
from .tables import compile_tables
from .tasks import read_task_state, task_state

#: Seconds between the workers' exchanges of the best board, by default.
EPOCH_SECONDS = 20.0
#: Seconds of search between two looks at the clock, the signals and the line (one worker).
SLICE_SECONDS = 0.25


class _Best:
    """The best board known to the coordinator, with the search seconds of its finding."""

    def __init__(self, score: int = -1, board: np.ndarray | None = None, at: float = 0.0):
        self.score, self.board, self.at = score, board, at
        self.seen_at = 0.0                   # run seconds when the score was first reported
        self.reported = score

    def offer(self, score: int, board: np.ndarray | None, at: float) -> None:
        if board is not None and score > self.score:
            self.score, self.board, self.at = score, board.copy(), at

    def report(self, score: int, now: float) -> None:
        """A worker's running figures said ``score`` (its board comes with its state)."""
        if score > self.reported:
            self.reported, self.seen_at = score, now


def _options(objective: str, seed: int, config: Config) -> dict[str, Any]:
    return {"objective": objective, "seed": seed, "config": config.to_json()}


def maximize(puzzle: EdgeMatchingPuzzle, objective: str = "edges", *,
             time_limit: float | None = None, seed: int = 0, workers: int | None = None,
             client: Any = None, scheduler: str | None = None, checkpoint: str | None = None,
             resume: str | None = None, checkpoint_every: float = 60.0,
             progress: bool | float = False, config: Config | None = None,
             source: dict[str, Any] | None = None, epoch: float | None = EPOCH_SECONDS,
             cancel: Callable[[], bool] | None = None) -> MaximizeResult:
    """The best board found for ``puzzle`` (see the module docstring).  ``source``: the
    puzzle file's identity for checkpoints (``cpkit.parallel.checkpoint.model_identity``);
    ``epoch``: seconds between exchanges of the best board (None: no exchange);
    ``cancel``: asked between slices, True stops the run as a Ctrl-C does."""
    from ..parallel.runner import resolve_workers
    from ..signals import StopSignals

    if objective not in OBJECTIVES:
        raise InputError(f"the objective must be one of {', '.join(OBJECTIVES)}, got "
                         f"{objective!r}")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"the time limit must be positive, got {time_limit!r}")
    config = config or Config()
    distributed = client is not None or scheduler is not None
    # On a Dask cluster, one worker per cluster worker unless told otherwise.
    n_workers = None if (workers is None and distributed) else resolve_workers(workers)
    options = _options(objective, seed, config)
    if (checkpoint or resume) and source is None:
        raise InputError("checkpoints name their puzzle file: give the puzzle as a path "
                         "(or source=model_identity(path))")
    saved = None
    if resume:
        saved = MaximizeCheckpoint.load(resume)
        saved.check_matches(source, options, resume)
    if checkpoint:
        from ..parallel.checkpoint import check_writable

        check_writable(checkpoint)
    run = _Run(puzzle, objective, seed, config, time_limit, checkpoint, checkpoint_every,
               progress, source, options, saved)
    with StopSignals() as signals:
        stop = (lambda: signals.stopped() or cancel()) if cancel else signals.stopped
        if distributed or n_workers > 1:
            run.parallel(n_workers, client, scheduler, epoch, stop)
        else:
            run.inline(stop)
    return run.result(INTERRUPTED if signals.stopped() else None)


class _Run:
    """One ``maximize`` call: the clock, the best board, the workers' states, the line."""

    def __init__(self, puzzle, objective, seed, config, time_limit, checkpoint,
                 checkpoint_every, progress, source, options, saved):
        self.puzzle, self.objective, self.seed, self.config = puzzle, objective, seed, config
        self.time_limit, self.checkpoint = time_limit, checkpoint
        self.checkpoint_every = checkpoint_every
        self.source, self.options = source, options
        self.tables = compile_tables(puzzle)
        self.max_score = (self.tables.n_cells if objective == "tiles"
                          else self.tables.inner_edges)
        self.previous = saved.seconds if saved else 0.0
        self.states: list[bytes] = list(saved.states) if saved else []
        self.best = _Best()
        if saved and saved.board is not None:
            self.best = _Best(saved.score, saved.best_board(), saved.seconds_to_best)
        self.figures: dict[int, dict[str, int]] = {}      # per worker, latest
        self.cpu = 0.0
        self.jit = warm()
        self.line = ScoreLine(self.max_score, "tiles" if objective == "tiles" else "edges",
                              progress)
        self.started = time.perf_counter()
        self.stop_reason: str | None = None
        self.ended: float | None = None
        self.workers = 1
        self.checkpoint_error: str | None = None
        self._saved_at = self.started

    # ------------------------------------------------------------------ the clock
    def elapsed(self) -> float:
        """Search seconds of this run (frozen when it decides to stop: collecting the workers'
        last states and closing them is not search)."""
        return (self.ended or time.perf_counter()) - self.started

    def time_left(self) -> float:
        if self.time_limit is None:
            return float("inf")
        return self.time_limit - self.elapsed()

    def done(self, stop: Callable[[], bool]) -> bool:
        if self.best.score >= self.max_score:
            self.stop_reason = COMPLETE
        elif self.time_left() <= 0:
            self.stop_reason = TIME_LIMIT
        elif stop():
            self.stop_reason = INTERRUPTED
        if self.stop_reason is not None and self.ended is None:
            self.ended = time.perf_counter()
        return self.stop_reason is not None

    # ------------------------------------------------------------------ bookkeeping
    def take_state(self, k: int, blob: bytes) -> None:
        """Worker ``k``'s latest state (a task state): kept for the checkpoint, its best board
        offered to the run's."""
        snapshot, _ = read_task_state(blob)
        if not snapshot:
            # A task given out after the deadline comes back unstarted with the state it was
            # given: a new worker's is empty.
            return
        while len(self.states) <= k:
            self.states.append(b"")
        self.states[k] = snapshot
        score, board, at = Anytime.best_in(snapshot)
        self.best.offer(score, board, at)

    def tick(self, force: bool = False) -> None:
        """Draw the line and write the checkpoint when they are due."""
        for figures in self.figures.values():
            self.best.report(figures["score"], self.elapsed())
        score = max(self.best.score, self.best.reported)
        if not self.line.waiting() or force:
            age = self.elapsed() - self.best.seen_at if score >= 0 else None
            self.line.update({"score": score, "best_age": age,
                              "nodes": sum(f["nodes"] for f in self.figures.values()),
                              "moves": sum(f["moves"] for f in self.figures.values())}, force)
        if self.checkpoint and (force or
                                time.perf_counter() - self._saved_at >= self.checkpoint_every):
            self.save()

    def save(self) -> None:
        """Write the checkpoint; a failed write (a full disk) is kept in ``checkpoint_error``
        and the search goes on (the file holds the previous checkpoint), as split runs do."""
        self._saved_at = time.perf_counter()
        board = None if self.best.board is None else [int(v) for v in self.best.board]
        try:
            MaximizeCheckpoint(self.source, self.options, self.previous + self.elapsed(),
                               self.best.score, board, self.best.at, list(self.states)
                               ).save(self.checkpoint)
        except InputError as exc:
            self.checkpoint_error = str(exc)
        else:
            self.checkpoint_error = None

    # ------------------------------------------------------------------ one worker
    def inline(self, stop: Callable[[], bool]) -> None:
        worker = Anytime(self.puzzle, self.objective, self.seed, self.config, self.tables)
        if self.states and self.states[0]:
            worker.restore(self.states[0])
        if self.best.board is not None:
            worker.offer(self.best.board)
        if self.checkpoint:
            self.take_state(0, task_state(worker.snapshot(), None))
            self.save()
        cpu = time.process_time()
        self.line.update({"score": self.best.score, "best_age": 0.0, "nodes": 0, "moves": 0})
        while not self.done(stop):
            worker.run(min(SLICE_SECONDS, self.time_left()), stop)
            self.figures[0] = worker.report()
            if worker.best is not None and worker.best_score > self.best.score:
                self.best.offer(worker.best_score, worker.best, worker.best_at)
            due = self.checkpoint and \
                time.perf_counter() - self._saved_at >= self.checkpoint_every
            if due:
                self.states[0] = worker.snapshot()
            self.tick()
        self.cpu += time.process_time() - cpu
        self.take_state(0, task_state(worker.snapshot(), None))
        self.tick(force=True)
        self.line.close()

    # ------------------------------------------------------------------ several workers
    def parallel(self, n: int | None, client: Any, scheduler: str | None,
                 epoch: float | None, stop: Callable[[], bool]) -> None:
        from ..parallel.backends import DaskBackend, LocalBackend
        from ..parallel.job import Job, TaskSpec

        backend = (DaskBackend(client, scheduler) if client is not None or scheduler
                   else LocalBackend(n))
        n = self.workers = backend.workers if n is None else n
        try:
            backend.start(Job("edge_matching", "maximize", self.puzzle, self.options))
            ready = backend.ready()
            self.jit = max(self.jit, ready["jit_seconds"])
            self.started = time.perf_counter()         # the clock starts with the search
            if self.checkpoint:
                self.save()
            state_every = self.checkpoint_every if self.checkpoint else None
            worker_of: dict[int, int] = {}
            counter = [0]

            def submit(k: int) -> None:
                left = self.time_left()
                span = left if epoch is None else min(left, epoch)
                deadline = None if span == float("inf") else time.time() + span
                snapshot = self.states[k] if k < len(self.states) else b""
                index = counter[0]
                counter[0] += 1
                worker_of[index] = k
                backend.submit(index, [k, self.seed + k],
                               TaskSpec(deadline=deadline, state_every=state_every),
                               task_state(snapshot, self.best.board))

            for k in range(n):
                submit(k)
            self.line.update({"score": self.best.score, "best_age": 0.0, "nodes": 0,
                              "moves": 0})
            pending = n
            while pending:
                for index, part in backend.poll(0.2):
                    k = worker_of.pop(index)
                    pending -= 1
                    self._collect(k, part)
                    if not self.done(stop):
                        submit(k)
                        pending += 1
                for index, figures in backend.running().items():
                    self.figures[worker_of.get(index, -1)] = figures
                for index, blob in backend.states().items():
                    if index in worker_of:
                        self.take_state(worker_of[index], blob)
                if self.done(stop):
                    backend.cancel()
                    for index, part in backend.drain(10.0):
                        if index in worker_of:
                            self._collect(worker_of.pop(index), part)
                    break
                self.tick()
        finally:
            backend.close()
        self.figures.pop(-1, None)
        self.tick(force=True)
        self.line.close()

    def _collect(self, k: int, part) -> None:
        """A task came back: its worker's state, figures and CPU time."""
        self.cpu += part.cpu_seconds
        if part.state:
            self.take_state(k, part.state)
        self.figures[k] = {"score": self.best.score, "nodes": part.nodes, **part.extra}

    # ------------------------------------------------------------------ the result
    def result(self, signalled: str | None) -> MaximizeResult:
        from ..models.board import EMPTY

        board = None if self.best.board is None else self.tables.board(self.best.board)
        matched = tiles = 0
        if self.best.board is not None:
            b = self.best.board
            matched = int(board_kernel.matched_edges(self.tables.colour, self.tables.neighbour,
                                                     b))
            tiles = int((b != EMPTY).sum())
        totals = {k: sum(f.get(k, 0) for f in self.figures.values())
                  for k in ("nodes", "moves", "restarts", "boards")}
        reason = signalled or self.stop_reason or TIME_LIMIT
        if self.best.score >= self.max_score:
            reason = COMPLETE
        return MaximizeResult(
            name=self.puzzle.name, objective=self.objective, board=board,
            score=max(self.best.score, 0), max_score=self.max_score, matched_edges=matched,
            inner_edges=inner_edges(self.tables.width, self.tables.height), tiles_placed=tiles,
            cells=self.tables.n_cells, seconds_to_best=self.best.at, stop_reason=reason,
            seconds=self.previous + self.elapsed(), cpu_seconds=self.cpu, jit_seconds=self.jit,
            workers=self.workers, seed=self.seed, options=self.options,
            checkpoint_error=self.checkpoint_error, **totals)
