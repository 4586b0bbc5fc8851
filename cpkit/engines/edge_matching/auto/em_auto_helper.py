"""The race's second core: the brute force alone in a process of its own (``--engine auto``
where the run may use more than one core).

On one core the race (``em_auto_search``) shares its time between the engines, so it pays for
every engine it tries: a board the brute force ends in 0.55 s took the race 1.9 s (E_9_11),
and where the race picked the brute force late, or the wrong engine, it took two to four times
the best.  With a second core, the brute force (the engine that most often wins, and whose
speed, 50 million nodes a second, a race on one core can only dilute) searches alone in this
helper from the moment it is ready, and the race in the first process goes on between the
other engines with the whole of its core.  The helper reports its figures every
``REPORT_SECONDS`` (nodes, solutions, the share of its tree searched: its estimate of the time
to go is made as for an engine raced in the first process) and sends its solutions as it finds
them; the first engine to finish, in either process, ends the run.

The helper starts once the race's opening is over and the run has lasted 50 ms (a board the
brute force ends within its solo, or any engine within 50 ms, costs no more than it did).  On Linux it is forked from the first process: it goes on with
the brute force's search from where the race left it, kernels loaded, within milliseconds.
Elsewhere, or where the first process runs threads (forking one is unsafe), it is spawned, which
takes 0.6 s or more (Python, numpy, numba, the cached kernels), and starts the search afresh;
the first process races the brute force too until it is ready.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ....models.edge_matching import BoardSolution
from ....result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result
from ....signals import InterruptFlag
from ...runtime.driver import DriveOutcome, drive
from ..backtrack import em_backtrack_search as em_backtrack
from ..em_front import root_chain
from ..em_result import chain_figures
from .em_auto_entrants import FIRST_QUANTUM, LAST_QUANTUM, Entrant, weight
from .em_auto_relay import Relay

#: The engine the helper runs.
ENGINE = "backtrack"
#: Seconds between the helper's reports (its figures and the solutions found meanwhile).
REPORT_SECONDS = 0.05
#: Seconds between two looks at the helper where no engine is left to race beside it.
BESIDE_SECONDS = 0.002
#: The helper starts once the run has raced this long: forking costs the first process 3 to 7
#: ms, which would double the runs that end in a few milliseconds (the generated 7 x 7 with 8
#: frame colours: its first solution in 16 ms with a helper, 10 ms without).
START_AFTER = 0.05


def _main(start: Any, limit: int | None, store: bool, conn: Any, stop: Any,
          parent: int) -> None:
    """The helper process: the brute force, reporting to ``conn`` until it ends (the last
    report, then its ``Result``), ``stop`` is set (its ``Result`` so far), or the first process
    is gone.  ``start``: the race's brute-force ``Entrant`` (forked: its search goes on), or
    ``(puzzle, roots)`` (spawned: a search from the start)."""
    # The first process decides when to stop (a terminal's Ctrl-C reaches the helper too).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        _search(start, limit, store, conn, stop, parent)
    except (BrokenPipeError, EOFError, ConnectionResetError):
        pass                    # the first process stopped listening: nothing to tell it


def _search(start: Any, limit: int | None, store: bool, conn: Any, stop: Any,
            parent: int) -> None:
    jit = em_backtrack.jit_seconds()
    found: list[BoardSolution] = []
    if isinstance(start, Entrant):
        chain, puzzle = start.chain, start.puzzle
        start.relay[0] = found.append
    else:
        puzzle, roots = start
        chain, _ = root_chain(puzzle, roots, em_backtrack.search_factory({}),
                              count_only=not store, on_solution=found.append)
    began = time.perf_counter()
    conn.send(("ready", jit))
    last = [began]

    def report(force: bool = False) -> None:
        now = time.perf_counter()
        if force or now - last[0] >= REPORT_SECONDS:
            last[0] = now
            conn.send(("progress", now - began, chain.progress(), chain.explored(),
                       list(found)))
            found.clear()

    def orphaned() -> bool:
        return os.getppid() != parent

    outcome = drive(chain.step, limit=limit, time_limit=None, on_progress=report,
                    cancel=lambda: stop.is_set() or orphaned())
    if orphaned():
        return
    report(force=True)
    conn.send(("done", em_backtrack.result_of(puzzle, chain_figures(chain, outcome, [], jit),
                                              {})))


class Helper:
    """The helper process seen from the first one: ``poll()`` reads its reports; ``ready``,
    ``seconds`` (searching), ``figures`` (``RootChain.progress()``), ``explored``,
    ``solutions`` (not yet taken), ``result`` (once it stopped).  ``close()`` ends it."""

    def __init__(self, start: Any, limit: int | None, store: bool, method: str):
        ctx = mp.get_context(method)
        self._conn, sending = ctx.Pipe(duplex=False)
        self._stop = ctx.Event()
        self.process = ctx.Process(target=_main, daemon=True, name="cpkit-auto-helper",
                                   args=(start, limit, store, sending, self._stop,
                                         os.getpid()))
        self.process.start()
        sending.close()
        self.ready = False
        self.failed = False
        self.seconds = 0.0
        self.figures: dict[str, int] = {"nodes": 0, "solutions": 0, "deepest": 0}
        self.explored = 0.0
        self.solutions: list[BoardSolution] = []
        self.result: Result | None = None

    def poll(self) -> None:
        """Take every report the helper has sent (without waiting)."""
        if self.failed or self.result is not None:
            return
        try:
            while self._conn.poll():
                message = self._conn.recv()
                if message[0] == "ready":
                    self.ready = True
                elif message[0] == "progress":
                    _, self.seconds, self.figures, self.explored, found = message
                    self.solutions.extend(found)
                elif message[0] == "done":
                    self.result = message[1]
                    return              # its last message: the pipe's end follows
        except (EOFError, OSError):
            self.failed = True          # it ended without a result: the race goes on without

    def stop(self, wait: float) -> Result | None:
        """Tell the helper to stop; its ``Result`` so far, if it sends it within ``wait``."""
        self._stop.set()
        end = time.perf_counter() + wait
        while self.result is None and not self.failed and time.perf_counter() < end:
            if self._conn.poll(max(0.0, end - time.perf_counter())):
                self.poll()
        return self.result

    def close(self) -> None:
        self._stop.set()
        self.process.join(timeout=0.5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=1.0)
        self._conn.close()


@dataclass
class RemoteEntrant(Entrant):
    """The brute force in the helper, as the race sees it: its turns cost the first process
    nothing (each takes the helper's reports: figures, solutions, whether it finished), its
    seconds are the helper's (and, forked, those the race gave it before), and its estimate is
    made from the share of its tree it reports, as for an engine raced here."""

    helper: Helper | None = None
    base_seconds: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.engine} (in a process of its own)"

    @property
    def found(self) -> int:
        return self.helper.figures["solutions"]

    @property
    def nodes(self) -> int:
        return self.helper.figures["nodes"]

    def explored(self) -> float:
        return self.helper.explored

    def progress(self) -> dict[str, int]:
        return dict(self.helper.figures)

    def turn(self, seconds: float, limit: int | None, stop: Callable[[], bool]) -> None:
        helper = self.helper
        helper.poll()
        for solution in helper.solutions:
            self.relay[0](solution)
        helper.solutions.clear()
        self.seconds = self.base_seconds + helper.seconds
        self.finished = helper.result is not None and helper.result.complete

    def done(self, limit: int | None) -> bool:
        self.turn(0.0, limit, lambda: False)
        return self.finished or (self.helper.result is not None and limit is not None
                                 and self.found >= limit)


@dataclass
class Helping:
    """The helper's part in one run of the race: ``between_rounds`` starts it once the
    opening is over and ``START_AFTER`` has passed, and puts it in the place of the race's
    brute force (``entrants`` is changed in place); ``ended`` says whether it finished (or
    reached the limit); ``close`` stops it."""

    limit: int | None
    store: bool
    relay: Relay | None
    remote: RemoteEntrant | None = None
    local: Entrant | None = None
    kept_at_fork: int = 0
    forked: bool = False
    gave_up: bool = False
    helpers: list[Helper] = field(default_factory=list)
    began: float = field(default_factory=time.perf_counter)

    def between_rounds(self, entrants: list[Entrant]) -> None:
        if self.gave_up:
            return
        if not self.helpers:
            if time.perf_counter() - self.began >= START_AFTER:
                self._start(entrants)
        elif self.remote is None:
            self._swap(entrants)            # spawned: once it is ready
        elif self.remote.helper.failed and self.remote in entrants:
            # The helper died: the race's brute force takes its place again, as it was.
            entrants[entrants.index(self.remote)] = self.local
            del self.local.solutions[self.kept_at_fork:]
            self.remote = self.local = None
            self.gave_up = True

    def _start(self, entrants: list[Entrant]) -> None:
        local = next((e for e in entrants if e.engine == ENGINE and
                      not isinstance(e, RemoteEntrant)), None)
        if local is None or local.done(self.limit):
            return
        self.forked = _start_method() == "fork"
        start = local if self.forked else (local.puzzle, local.roots)
        self.helpers.append(Helper(start, self.limit, self.store,
                                   "fork" if self.forked else "spawn"))
        self.local = local
        self._swap(entrants)

    def _swap(self, entrants: list[Entrant]) -> None:
        """The helper's entrant in the place of the race's brute force: at once where it was
        forked (it goes on with the same search, the same solutions and relay), once it is
        ready where it was spawned (it starts afresh: its solutions are its own)."""
        local, helper = self.local, self.helpers[-1]
        helper.poll()
        if self.forked:
            self.kept_at_fork = len(local.solutions)
            helper.figures, helper.explored = local.progress(), local.explored()
            remote = RemoteEntrant(local.engine, local.options, local.chain, local.solutions,
                                   budget=local.budget, relay=local.relay, skew=local.skew,
                                   helper=helper, base_seconds=local.seconds,
                                   seconds=local.seconds)
        elif helper.ready:
            self.kept_at_fork = len(local.solutions)
            remote = RemoteEntrant(local.engine, local.options, local.chain, [],
                                   helper=helper)
            remote.relay = [remote.solutions.append]
            if self.relay is not None:
                self.relay.keep(remote)
        else:
            if helper.failed:
                self.gave_up = True
            return
        self.remote = remote
        entrants[entrants.index(local)] = remote

    def ended(self) -> RemoteEntrant | None:
        """The helper's entrant, if it finished the search or reached the limit."""
        if self.remote is not None and self.remote.done(self.limit):
            return self.remote
        return None

    def ended_elsewhere(self, winner: Entrant, entrants: Sequence[Entrant]) -> Entrant | None:
        """The engine that finished (or reached the limit) while ``winner`` had its window:
        the helper's brute force, or one raced beside it (``race_beside``); the run's
        solutions then come from it (the relay follows it)."""
        ended = self.ended()
        if ended is None or ended is winner:
            ended = next((e for e in entrants if e is not winner and e.done(self.limit)),
                         None) if isinstance(winner, RemoteEntrant) else None
        if ended is not None and self.relay is not None:
            self.relay.keep(winner)
            self.relay.follow(ended)
        return ended

    def result(self, stop_reason: str) -> Result | None:
        """The helper's ``Result``: as it ended, or (stopped by the run's time limit or a
        Ctrl-C) its figures so far, with the run's ``stop_reason``."""
        if self.remote is None:
            return None
        result = self.remote.helper.result or self.remote.helper.stop(wait=1.0)
        if result is not None and not result.complete and stop_reason not in (COMPLETE, LIMIT):
            result.stop_reason = stop_reason            # the helper was told to stop
        return result

    def close(self) -> None:
        for helper in self.helpers:
            helper.close()


def race_beside(remote: RemoteEntrant, others: Sequence[Entrant], window: float | None,
                limit: int | None,
                on_progress: Callable[[dict[str, int]], None] | None) -> DriveOutcome:
    """The brute force in the helper has its window (``em_auto_search``, step 4): this process
    races the ``others`` meanwhile, as the race would (the least estimated time to go first,
    turns doubling), until the helper's search or one of theirs ends, the window, Ctrl-C or
    SIGTERM, or the helper's failure (as the window would: the race then resumes without it).
    An end in either process is ``COMPLETE`` here; the caller sees which it was."""
    began = time.perf_counter()
    quantum = FIRST_QUANTUM
    with InterruptFlag() as interrupt:
        def over() -> bool:
            if on_progress is not None:
                on_progress(remote.progress())
            return interrupt.raised or remote.done(limit) or remote.helper.failed or (
                window is not None and time.perf_counter() - began >= window) or any(
                e.done(limit) for e in others)

        while not over():
            if not others:
                time.sleep(BESIDE_SECONDS)
                continue
            lead = min(e.estimate() for e in others)
            for e in sorted(others, key=lambda e: e.estimate()):
                if not over():
                    e.turn(quantum * weight(e.estimate(), lead), limit, over)
            quantum = min(LAST_QUANTUM, quantum * 2)
    seconds = time.perf_counter() - began
    if remote.done(limit) or any(e.done(limit) for e in others):
        return DriveOutcome(COMPLETE, seconds)
    return DriveOutcome(INTERRUPTED if interrupt.raised else TIME_LIMIT, seconds)


def _start_method() -> str:
    """"fork" where it is safe and quick (Linux, one thread), else "spawn"."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "spawn"


def can_start(cores: int) -> bool:
    """Whether a run that may use ``cores`` cores starts the helper: at least two on this
    machine, and not in a daemonic process (a worker of a ``multiprocessing`` pool may not have
    children)."""
    return min(cores, os.cpu_count() or 1) > 1 and not mp.current_process().daemon
