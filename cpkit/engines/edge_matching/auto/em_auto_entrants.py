"""An engine in ``--engine auto``'s race (``em_auto_search``): its search over every root,
stepped a turn at a time in this process, and its estimate of the time it still needs."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ....models.edge_matching import BoardSolution
from ....result import Result
from ...runtime.driver import MAX_SLICE_NODES, SLICE_SECONDS, DriveOutcome
from ..backtrack import em_backtrack_search as em_backtrack
from ..cp import em_cp_search as em_cp
from ..edges import em_edges_search as em_edges
from ..em_front import RootChain
from ..em_result import chain_figures

#: The engines that can be raced, by name.
MODULES = {"backtrack": em_backtrack, "cp": em_cp, "edges": em_edges}

#: Each engine's turn in the first round of the race; every round doubles it, up to the last.
FIRST_QUANTUM = 0.001
LAST_QUANTUM = 0.25
#: The smallest share of a turn an engine far behind the leader still gets.
MIN_WEIGHT = 0.25


def cpu_seconds() -> float:
    """The calling thread's processor seconds: what an engine's turns are measured in.  On a
    shared machine a thread waits for a core at random moments; measured by the wall clock,
    a turn that waited looks slow, its engine's estimate grows by the wait, and the race's
    choice follows the machine's load instead of the board.  On the generated 7 x 7 board
    with 8 frame and 6 inner colours, which edge filtering counts in 1,106 nodes, the brute
    force's solo made 0.15 million nodes before edge filtering's turn on an idle machine and
    1.55 million by the wall clock with two other programs busy on its two cores; by this
    clock 0.14-0.15 million either way.  Where the thread's clock is not read to the
    microsecond (``THREAD_CLOCK``), the wall clock."""
    return time.thread_time() if THREAD_CLOCK else time.perf_counter()


#: Whether the thread's processor clock serves for turns of a millisecond: ``clock_gettime``
#: (Linux, macOS) reads it to the nanosecond; Windows counts it in scheduler ticks (15.6 ms).
THREAD_CLOCK = time.get_clock_info("thread_time").implementation.startswith("clock_gettime")


@dataclass
class Entrant:
    """One engine in the race: its search over every root, the solutions it found (kept until
    it wins), and the time it spent."""

    engine: str
    options: dict[str, Any]
    chain: RootChain
    solutions: list[BoardSolution]
    #: Processor seconds its turns took (``cpu_seconds``).
    seconds: float = 0.0
    budget: int = 1 << 10
    finished: bool = False
    relay: list[Callable[[BoardSolution], None]] = field(default_factory=list)
    #: How many times its estimates have proven too short (``_watch``): they are scaled by it.
    skew: float = 1.0
    #: The board (the helper's result is made for it).
    puzzle: Any = None

    @property
    def label(self) -> str:
        extra = "".join(f" --{k} {v}" for k, v in self.options.items())
        return self.engine + extra

    @property
    def found(self) -> int:
        return self.chain.total("solutions")

    @property
    def nodes(self) -> int:
        return self.chain.total("nodes")

    def turn(self, seconds: float, limit: int | None, stop: Callable[[], bool]) -> None:
        """Search for about ``seconds`` of processor time (slices sized as ``drive`` sizes them,
        by the wall clock), or until the search ends, reaches ``limit`` solutions, or
        ``stop()``."""
        began = cpu_seconds()
        target = min(SLICE_SECONDS, seconds / 2)
        while not self.finished:
            room = (1 << 62) if limit is None else limit - self.found
            if room <= 0:
                break
            t0 = time.perf_counter()
            self.finished, _ = self.chain.step(room, self.budget)
            took = time.perf_counter() - t0
            scale = 2.0 if took < target / 4 else (0.5 if took > target else 1.0)
            self.budget = int(min(MAX_SLICE_NODES, max(1, self.budget * scale)))
            if cpu_seconds() - began >= seconds or stop():
                break
        self.seconds += cpu_seconds() - began

    def done(self, limit: int | None) -> bool:
        return self.finished or (limit is not None and self.found >= limit)

    def explored(self) -> float:
        """The share of its tree searched (``RootChain.explored``)."""
        return self.chain.explored()

    def progress(self) -> dict[str, int]:
        """The figures of a progress line (``RootChain.progress``)."""
        return self.chain.progress()

    def result_of(self, outcome: DriveOutcome, jit: float, kept: bool = True) -> Result:
        """Its engine's ``Result`` for a run that ended as ``outcome`` (with the solutions it
        kept, unless not ``kept``)."""
        return MODULES[self.engine].result_of(
            self.puzzle, chain_figures(self.chain, outcome, self.solutions if kept else [], jit),
            self.options)

    def estimate(self) -> float:
        """Seconds still to go by the share of its tree searched (``RootChain.explored``);
        infinite before any share is known."""
        if self.finished:
            return 0.0
        share = self.explored()
        return self.skew * (self.seconds / share - self.seconds) if share > 0 else math.inf


def weight(estimate: float, lead: float) -> float:
    """The share of a turn an engine gets: a whole one while it leads or nothing is known, less
    the further its estimate lies behind the leader's (at least ``MIN_WEIGHT``), so that the
    race spends its time on the likely winner but keeps measuring the others."""
    if math.isinf(lead) or estimate <= lead:
        return 1.0
    return max(MIN_WEIGHT, math.sqrt(lead / estimate))


def describe(entrants: list[Entrant]) -> str:
    """Each engine's seconds and estimated time to go, for a run's reason."""
    parts = []
    for e in entrants:
        est = e.estimate()
        left = "done" if e.finished else ("?" if math.isinf(est) else f"~{_seconds(est)} left")
        parts.append(f"{e.label} {e.seconds:.2f} s ({left})")
    return "; ".join(parts)


def _seconds(x: float) -> str:
    return f"{x:.3g} s" if x < 1e6 else f"{x:.1e} s"


def race_figures(seconds: float, entrants: list[Entrant]) -> dict[str, Any]:
    """The race's figures for the result's ``engine_race``."""
    return {"seconds": round(seconds, 6),
            "engines": {e.label: {"seconds": round(e.seconds, 6), "nodes": e.nodes,
                                  "estimated_seconds_left": _finite(e.estimate())}
                        for e in entrants}}


def _finite(x: float) -> float | None:
    return round(x, 3) if math.isfinite(x) else None
