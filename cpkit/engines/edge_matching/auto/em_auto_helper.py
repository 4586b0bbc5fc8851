"""The race's second core: the brute force alone in a thread of its own (``--engine auto``
where the run may use more than one core).

On one core the race (``em_auto_search``) shares its time between the engines, so it pays for
every engine it tries: a board the brute force ends in 0.55 s took the race 1.9 s (E_9_11),
and where the race picked the brute force late, or the wrong engine, it took two to four times
the best.  With a second core, the brute force (the engine that most often wins, and whose
speed, 50 million nodes a second, a race on one core can only dilute) goes on alone in a
helper thread right after its glimpse, and the race in the calling thread goes on between the
other engines with the whole of its core.  The engines' kernels release the GIL (``nogil``),
so the two threads search at once; they meet only between slices, for a few microseconds of
Python.  The helper publishes its figures after every slice (nodes, solutions, the share of
its tree searched: its estimate of the time to go is made as for an engine raced in the
calling thread) and the solutions it found, which the calling thread hands out; the first
engine to finish, in either thread, ends the run.

The thread is started while the engines are set up (``HelperThread``) and goes on with the
race's own search, as it stood after the brute force's glimpse: a board whose first solution
takes a millisecond gets both cores from the start.  (A process of its own cost the first one
3 to 7 ms to fork, and 0.6 s or more to spawn where forking is unsafe: the generated 6 x 6
with 8 frame and 5 inner colours, whose first solution edge filtering finds in 2 ms, waited
17 ms for the brute force's solo.)
"""

from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ....models.edge_matching import BoardSolution
from ....result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result
from ....signals import InterruptFlag
from ...runtime.driver import DriveOutcome, drive
from .em_auto_entrants import FIRST_QUANTUM, LAST_QUANTUM, Entrant, cpu_seconds, weight
from .em_auto_relay import Relay

#: The engine the helper starts with.
ENGINE = "backtrack"
#: The helper leaves an engine whose estimated time to go is this many times that of the most
#: promising engine the race did not pick, and takes that one (``Helping.back_runner_up``).
#: Counting, the estimates of the time to go are what is raced for, but they err two to five
#: times either way over a run's first second: only an engine far behind is given up.
GIVE_UP_COUNTING = 10.0
#: ... and looking for solutions (``--first``, ``--limit``): where in its tree an engine finds
#: its first solution has little to do with the size of the tree, so the two engines
#: estimated closest to the end get a core each (E_9_10's first solution: cp picked, 1.3 s,
#: while the brute force, estimated six times further from the end than edge filtering, had
#: the second core; edge filtering alone takes 0.9 s).
GIVE_UP_FINDING = 1.0
#: Seconds between two looks at the helper where no engine is left to race beside it.
BESIDE_SECONDS = 0.002
#: The helper's first slice of the brute force, in nodes: about 2 ms.  Every slice's end
#: takes the GIL back from the calling thread, which may hold it for a while.  (Another engine
#: handed to the helper starts with the slice the race had sized for it.)
FIRST_SLICE = 1 << 16
#: How long the run waits for the helper to stop at its end (it stops within a slice).
STOP_SECONDS = 5.0


class HelperFailed(RuntimeError):
    """The search in the helper thread raised (a fault of cpkit's: the run does not go on
    with a search whose state is unknown)."""


class HelperThread:
    """The helper's thread: started as the run starts, while the engines are set up (starting
    a thread takes 0.1 to 0.3 ms, the GIL handed back and forth; a board whose first solution
    takes half a millisecond would wait for it), it runs the searches handed to it
    (``submit``), one after the other, until ``close``."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, daemon=True, name="cpkit-auto-helper")
        self.thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def close(self) -> None:
        self._jobs.put(None)
        self.thread.join(timeout=STOP_SECONDS)


class Helper:
    """An engine's search (the brute force's, at first) going on in a thread from where
    ``local`` (the race's entrant) stands: ``seconds`` (searching in the thread), ``figures``
    (``RootChain.progress()``), ``explored``, ``outcome`` (once it stopped), ``error`` (if
    it raised); ``take()`` hands over the solutions found since the last call; ``stop(wait)``
    and ``close()`` end it; ``result()`` is its ``Result`` once it has.  The thread owns
    ``local``'s search until then: the calling thread reads only these."""

    def __init__(self, local: Entrant, limit: int | None, thread: HelperThread):
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ended = threading.Event()
        self._found: list[BoardSolution] = []
        self.seconds = 0.0
        self.figures = local.progress()
        self.explored = local.explored()
        #: How its search stopped, once it has; its ``Result`` is made from it by the calling
        #: thread (``result()``), not here: the GIL that making it holds, a tenth of a
        #: millisecond, would delay the race's thread seeing that the search ended.
        self.outcome: DriveOutcome | None = None
        self._local = local
        self._result: Result | None = None
        self.error: BaseException | None = None
        # The search hands its solutions to ``local.relay[0]``: from now on, to the thread's
        # list (the calling thread relays them, ``RemoteEntrant.turn``).
        local.relay[0] = self._collect
        room = None if limit is None else limit - local.found
        thread.submit(lambda: self._run(local, room))

    @property
    def running(self) -> bool:
        """Whether its search goes on (it has not ended, nor stopped when told)."""
        return not self._ended.is_set()

    def _collect(self, solution: BoardSolution) -> None:
        with self._lock:
            self._found.append(solution)

    def _run(self, local: Entrant, room: int | None) -> None:
        try:
            chain = local.chain
            began = cpu_seconds()           # this thread's, as the race's are its own

            def report() -> None:
                figures, explored = chain.progress(), chain.explored()
                with self._lock:
                    self.seconds = cpu_seconds() - began
                    self.figures, self.explored = figures, explored

            # ``drive`` reports after every slice, the last included.
            self.outcome = drive(chain.step, limit=room, time_limit=None, on_progress=report,
                                 cancel=self._stop.is_set,
                                 first_slice=FIRST_SLICE if local.engine == ENGINE
                                 else local.budget)
        except BaseException as exc:        # handed to the calling thread, which raises it
            self.error = exc
        finally:
            self._ended.set()

    def check(self) -> None:
        """Raise ``HelperFailed`` if its search raised."""
        if self.error is not None:
            raise HelperFailed(f"the search of the engine in the helper thread failed: "
                               f"{self.error!r}") from self.error

    def take(self) -> list[BoardSolution]:
        """The solutions found since the last call (each once)."""
        with self._lock:
            found, self._found = self._found, []
        return found

    def result(self) -> Result | None:
        """Its search's ``Result``, once it has stopped (the thread no longer touches it)."""
        if self._result is None and self.outcome is not None and not self.running:
            self._result = self._local.result_of(self.outcome, 0.0, kept=False)
        return self._result

    def stop(self, wait: float) -> Result | None:
        """Tell the helper to stop; its ``Result`` so far, if it stops within ``wait``."""
        self._stop.set()
        self._ended.wait(timeout=wait)
        return self.result()

    def close(self) -> None:
        self.stop(STOP_SECONDS)


@dataclass
class RemoteEntrant(Entrant):
    """The engine in the helper thread, as the race sees it: its turns cost the calling
    thread nothing (each takes the helper's figures and solutions, and whether it finished),
    its seconds are the helper's (and those the race gave it before), and its estimate is made
    from the share of its tree it reports, as for an engine raced in the calling thread."""

    helper: Helper | None = None
    base_seconds: float = 0.0
    stopped: bool = False               # the helper's search stopped (finished or the limit)

    @property
    def label(self) -> str:
        return f"{Entrant.label.fget(self)} (on a core of its own)"

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
        helper.check()
        outcome = helper.outcome    # before its solutions: the helper collects them first
        for solution in helper.take():
            self.relay[0](solution)
        self.seconds = self.base_seconds + helper.seconds
        self.stopped = outcome is not None
        self.finished = outcome is not None and outcome.complete

    def done(self, limit: int | None) -> bool:
        self.turn(0.0, limit, lambda: False)
        return self.finished or (self.stopped and limit is not None and self.found >= limit)


@dataclass
class Helping:
    """The helper's part in one run of the race: ``start`` hands the race's brute force to the
    helper thread after its glimpse, its ``RemoteEntrant`` in its place (``entrants`` is
    changed in place); ``back_runner_up`` may hand it another engine once the race has picked
    one; ``ended`` says whether the helper's engine finished (or reached the limit); ``close``
    stops it."""

    limit: int | None
    relay: Relay | None
    remote: RemoteEntrant | None = None
    #: The race's entrant whose search the helper goes on with.
    local: Entrant | None = None
    #: The thread, started with the run.
    thread: HelperThread = field(default_factory=HelperThread)

    def start(self, entrants: list[Entrant], local: Entrant) -> None:
        """The helper goes on with ``local``'s search (the race's brute force, after its
        glimpse), unless it runs one already or ``local``'s ended."""
        if self.remote is None and not local.done(self.limit):
            self._hand_to(entrants, local)

    def _hand_to(self, entrants: list[Entrant], local: Entrant) -> None:
        # Its own relay (the search's goes to the helper's list): the relay's keeping or
        # following of the engine applies to the solutions taken from the helper.
        remote = RemoteEntrant(local.engine, local.options, local.chain, local.solutions,
                               budget=local.budget, relay=[local.relay[0]], skew=local.skew,
                               base_seconds=local.seconds, seconds=local.seconds,
                               puzzle=local.puzzle)
        remote.helper = Helper(local, self.limit, self.thread)
        self.remote, self.local = remote, local
        entrants[entrants.index(local)] = remote

    def _take_back(self, entrants: list[Entrant]) -> bool:
        """Stop the helper: its engine goes on in the race, from where the helper left it
        (its last solutions and figures taken).  False if the thread did not stop (its search
        is not the race's to touch) or its engine ended meanwhile."""
        remote, local = self.remote, self.local
        remote.helper.stop(STOP_SECONDS)
        if remote.helper.running:
            return False
        if remote.done(self.limit):         # it ended meanwhile: the run ends with it
            return False
        local.relay[0] = remote.relay[0]
        local.seconds, local.skew = remote.seconds, remote.skew
        entrants[entrants.index(remote)] = local
        self.remote = self.local = None
        return True

    def back_runner_up(self, entrants: list[Entrant], winner: Entrant) -> str | None:
        """Once the race has picked ``winner``, an engine of the calling thread: if the
        helper's engine is estimated ``GIVE_UP_COUNTING`` times further from the end than the
        most promising other engine (``GIVE_UP_FINDING`` for ``--first`` and ``--limit``),
        the helper goes on with that one instead, and the race keeps the one it left.  The two
        engines most likely to finish first then have a core each (on the generated 10 x 10
        with 12 frame and 12 inner colours the race picked edge filtering, 3.7 s to a first
        solution, over cp, 2.5 s, while the helper's brute force could not finish).  What
        changed, for the run's reason; None if nothing did."""
        remote = self.remote
        if remote is None or winner is remote or remote.done(self.limit):
            return None
        others = [e for e in entrants
                  if e is not winner and e is not remote and not e.done(self.limit)]
        if not others:
            return None
        best = min(others, key=Entrant.estimate)
        factor = GIVE_UP_COUNTING if self.limit is None else GIVE_UP_FINDING
        if not remote.estimate() > factor * best.estimate():
            return None
        left = remote.label
        if not self._take_back(entrants):
            return None
        self._hand_to(entrants, best)
        return (f"{left} was estimated over {factor:g} times as far from the end as "
                f"{best.label}, which went on in its place")

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
        result = self.remote.helper.stop(STOP_SECONDS)      # at once if it has ended
        if result is not None and not result.complete and stop_reason not in (COMPLETE, LIMIT):
            result.stop_reason = stop_reason            # the helper was told to stop
        return result

    def close(self) -> None:
        if self.remote is not None:
            self.remote.helper.close()
        self.thread.close()


def race_beside(remote: RemoteEntrant, others: Sequence[Entrant], window: float | None,
                limit: int | None,
                on_progress: Callable[[dict[str, int]], None] | None) -> DriveOutcome:
    """The brute force in the helper has its window (``em_auto_search``, step 4): this thread
    races the ``others`` meanwhile, as the race would (the least estimated time to go first,
    turns doubling), until the helper's search or one of theirs ends, the window, Ctrl-C or
    SIGTERM.  An end in either thread is ``COMPLETE`` here; the caller sees which it was."""
    began = time.perf_counter()
    quantum = FIRST_QUANTUM
    with InterruptFlag() as interrupt:
        def over() -> bool:
            if on_progress is not None:
                on_progress(remote.progress())
            return interrupt.raised or remote.done(limit) or (
                window is not None and time.perf_counter() - began >= window) or any(
                e.done(limit) for e in others)

        while not over():
            if not others:
                time.sleep(BESIDE_SECONDS)
                continue
            lead = min(e.estimate() for e in others)
            for e in sorted(others, key=lambda e: e.estimate()):
                if not over():
                    # Looking for solutions, equal turns: where an engine finds its first
                    # has little to do with the size of its tree, which the estimates are of.
                    share = 1.0 if limit is not None else weight(e.estimate(), lead)
                    e.turn(quantum * share, limit, over)
            quantum = min(LAST_QUANTUM, quantum * 2)
    seconds = time.perf_counter() - began
    if remote.done(limit) or any(e.done(limit) for e in others):
        return DriveOutcome(COMPLETE, seconds)
    return DriveOutcome(INTERRUPTED if interrupt.raised else TIME_LIMIT, seconds)


def can_start(cores: int) -> bool:
    """Whether a run that may use ``cores`` cores starts the helper: at least two on this
    machine."""
    return min(cores, os.cpu_count() or 1) > 1
