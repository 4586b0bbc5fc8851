"""Choosing the edge-matching engine per board (``--engine auto``, the default).

No engine wins everywhere (docs/benchmarks.md, ``em-auto``): the brute force makes 50 million
nodes a second and wins wherever its tree is small enough, which is most boards with many
colours for their size; edge filtering (``edges``) makes 10 to 1,000 times fewer nodes than the
ColorPair engine (``cp``), each 10 to 50 times dearer, and wins on the 7 x 7 to 9 x 9 boards
with few colours; ``cp`` sits in between.  Their trees differ by orders of magnitude from one
board to the next, so the choice is measured on the board itself:

1. **A glimpse of every engine, then the brute force alone** (``GLIMPSE_SECONDS``,
   ``SOLO_SECONDS``): most small boards end there.  The solo's turns double from the glimpse;
   after each, an engine whose estimated time to go (step 3) is ``RIVAL_MARGIN`` times below
   the brute force's gets a turn as long, and ends the solo if it still is: where edge
   filtering races through its tree (many frame colours for the inner ones) it searches after
   a few milliseconds instead of waiting out the brute force's solo; where the brute force
   looks like ending within its solo and leads every other engine's estimate by that margin,
   the solo goes on.  With a second core there is no solo: the brute force goes on in a
   helper thread right after a shorter glimpse (``HELPED_GLIMPSE_SECONDS``;
   ``em_auto_helper``), and the race, beside it, goes on between the others.
2. **A race** in rounds: every engine searches its own tree for a quantum of time (doubling
   from round to round), one after the other in this process, the least estimated time to go
   first (every numba search here is a resumable state machine, so nothing is lost between
   turns).  Turns and the seconds the estimates are made of are the searching thread's
   processor time (``em_auto_entrants.cpu_seconds``): on a machine whose cores other programs
   share, wall-clock turns that waited for a core made the choice follow the load.  An
   engine that finishes (or reaches the ``limit`` of solutions) wins: its result is exact,
   whatever the others did.
3. **A decision**: each engine's time to finish is estimated from how much of its tree it has
   searched (``RootChain.explored``: the depth-first position read as a share of the tree,
   every subtree taken as the same size), the seconds it spent divided by that share.  Once the
   race has cost ``RACE_SHARE`` of the smallest estimate still to go (or ``MAX_RACE_SECONDS``),
   the engine with that estimate goes on alone, from where it stopped, once every engine has
   had its turn: ``JUDGE_SHARE`` of the leader's estimated time to go each, within
   ``MIN_TURN_SECONDS`` and ``JUDGE_AFTER_SECONDS`` (an engine's first tens of milliseconds
   tell little), or its weight's share of that for an engine far behind (a brute force that
   ends in a tenth of a second does not wait for two engines estimated ten times slower to
   have searched that long); one estimated to finish within ``MIN_TURN_SECONDS`` goes on at
   once.

4. **A watch on the decision**: the engine picked goes on alone for ``OVERRUN`` times its
   estimated time to go (at least as long as the race took).  If it has not finished by then,
   its estimate was wrong (the depth-first share takes every subtree as the same size, and a
   tree whose hard part lies to the right fools it).  From then on its estimates are scaled by
   the factor it fell short by (``Entrant.skew``): a depth-first share that misled once tends
   to mislead again (on E_9_11 edge filtering estimated 0.36 s to go, overran 0.71 s, and
   still estimated 0.4 s).  If even the corrected estimate says it is nearly done, it gets
   that much longer alone (less than the others' turns would cost); otherwise every other
   engine gets ``MAKE_UP`` of that time, the most promising first and each the less the
   further its estimate lies behind what the overrunning engine still needs (as in the race),
   but no less than a share that doubles at each overrun, then the race resumes where every
   engine stands, and the next engine picked goes on alone for at least twice as long as the
   last.  So the time a wrong pick costs grows geometrically with what the right engine
   gets: a few times its time at worst.
   Solutions already printed are not printed again by the next engine (``Relay``).

Solutions go out as the race finds them, whichever engine finds them (each once: the engine
followed afterwards finds them again and the ``Relay`` holds them back), so a run whose race
lasts seconds prints what it has at once; a split run prints its engine's right after the race
(``Choice.solutions``).

Step 3 is what keeps the overhead small on long runs; the race keeps it small on short ones;
step 4 bounds what a wrong decision costs.

Why the depth-first share and not Knuth's probes (``cpkit.parallel.plan``): measured on the
paper's boards it estimates the brute force's tree within a factor of two after a few million
nodes, where 200 probes fell short by 10 to 1,000 times (E_10_13: 1.0 million for 955 million)
and took seconds; it costs nothing but the search itself.

The choice and why are in the result (``engine``, ``engine_reason``); the figures of the race
are in ``engine_race``.  A split run (``cpkit.parallel.runner``) makes the same race in its
coordinator before splitting, and records the engine in its checkpoint, so that a resumed run
goes on with it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Sequence

from ....errors import CpkitError
from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from ....propagators import colorpair_build
from ....result import COMPLETE, INTERRUPTED, LIMIT, TIME_LIMIT, Result
from ..edges import em_edges_search as em_edges
from ....signals import InterruptFlag
from ...runtime.driver import DriveOutcome, drive
from ..em_front import root_chain
from . import em_auto_helper
from .em_auto_entrants import FIRST_QUANTUM, LAST_QUANTUM, MIN_WEIGHT, MODULES, Entrant
from .em_auto_entrants import cpu_seconds, describe, race_figures
from .em_auto_entrants import weight as _weight
from .em_auto_helper import Helping, RemoteEntrant
from .em_auto_relay import Relay

ENGINE = "auto"
#: The engines raced, in the order they take their turns; each with the options it runs with.
CANDIDATES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("backtrack", {}), ("cp", {}), ("edges", {}))
#: Nodes of an engine's first slice: a tenth of a millisecond's work or so (the edges engine
#: makes 30,000 to 200,000 nodes a second, the brute force 50 million), so that no glimpse
#: overshoots.
FIRST_NODES = {"backtrack": 1 << 12, "cp": 1 << 7, "edges": 1 << 4}
#: The brute force's solo: turns doubling from ``GLIMPSE_SECONDS`` up to the first figure, at
#: most the second figure in all; past the first figure it stops once its estimated time to go
#: exceeds the time it has spent, unless it is under the second figure and ``RIVAL_MARGIN``
#: times below every other engine's (the brute force looks like ending within its solo).
#: It ends most boards of a few million nodes, faster than anything else could.
SOLO_SECONDS = (0.02, 0.2)
#: The race stops once it has cost this share of the smallest estimated time still to go.
RACE_SHARE = 0.2
#: ... and in any case after this long (the estimates are good enough by then).
MAX_RACE_SECONDS = 10.0
#: Every engine's first turn (the glimpse), the brute force's first: a board that one of them
#: ends in under a millisecond costs no more than the glimpses.
GLIMPSE_SECONDS = 0.0005
#: The brute force's glimpse where the helper goes on with it: its search ends the smallest
#: boards (a tenth of a millisecond), then the helper's thread goes on with it while the
#: others have their glimpses here.
HELPED_GLIMPSE_SECONDS = 0.0001
#: During the solo, an engine whose estimated time to go is this many times below the brute
#: force's gets a turn as long as the brute force's last; still this far below after it, it
#: ends the solo.  (Estimates after a few milliseconds err by a factor of two or three either
#: way: the margin keeps a lucky glimpse from costing the brute force's small boards much.)
RIVAL_MARGIN = 1.5
#: A leader this many times ahead of the runner-up ends the race this many times sooner.
MAX_LEAD = 10.0
#: An engine is judged once it has searched ``JUDGE_SHARE`` of the leader's estimated time to
#: go, at least ``MIN_TURN_SECONDS`` and at most ``JUDGE_AFTER_SECONDS`` (its weight's share of
#: that, for one far behind).  Over an engine's first tens of milliseconds its estimate is
#: mostly a bound, not a measure (its depth-first position is still in the first branches of
#: the top levels, and the estimate grows with the time spent), and it errs by five to ten
#: times either way: on the generated 8 x 8 with 8 frame and 8 inner colours, edge
#: filtering's estimate of its whole search was 2.1 s after 20 ms, 0.54 s after 100 ms, for
#: 0.74 s, and the brute force's 0.78 s and 0.76 s, for 4.9 s; a race that judged every
#: engine after 30 ms picked the brute force there.  Where the leader is estimated to end
#: within a few tenths of a second, a wrong pick costs little and the race stays short.
JUDGE_SHARE = 0.1
JUDGE_AFTER_SECONDS = 0.08
#: An engine estimated to finish within this goes on at once; the shortest window alone.
MIN_TURN_SECONDS = 0.03
#: A split run whose chosen engine has less than this many seconds to go finishes in the
#: process that raced: starting the workers would cost about as much.
STAY_BELOW = 2.0
#: ... and below this where the brute force goes on in a helper thread beside it: a split run
#: cannot correct a wrong pick, and the race's estimates err two to five times over its first
#: second (on the generated 10 x 10 with 9 frame and 13 inner colours edge filtering promised
#: 6.8 s and had not finished in 20, where the brute force takes 10 s), while the run here, the
#: helper beside it, watches its pick (step 4); halving a run this short saves less than a wrong
#: pick costs.
HELPED_STAY_BELOW = 30.0
#: The engine the race picked goes on alone for this many times its estimated time to go
#: before the race resumes (step 4).
OVERRUN = 2.0
#: After an overrun, each other engine searches this share of the time the overrunning one
#: had alone.
MAKE_UP = 0.5


def _entrants(puzzle: EdgeMatchingPuzzle, roots: Sequence[tuple[Hint, ...]],
              store: bool) -> tuple[list[Entrant], list[str]]:
    """An entrant per candidate engine that can take the board, and why the others cannot (a
    board too large for the cp engine's pair sets, more colours than edge filtering holds)."""
    entrants, left_out = [], []
    for engine, options in CANDIDATES:
        module = MODULES[engine]
        try:
            if engine == "cp":
                colorpair_build.check_fits(puzzle.arrays)
            elif engine == "edges":
                em_edges.check_fits(puzzle.arrays)
        except CpkitError as exc:
            left_out.append(f"{engine}: {exc}")
            continue
        kept: list[BoardSolution] = []
        relay: list[Callable[[BoardSolution], None]] = [kept.append]
        # Counting only, the searches keep no solution: making each a ``BoardSolution`` costs
        # tens of microseconds (a 5 x 5 board's 334,080 solutions: 14 s, for a 1.2 s search).
        chain, _ = root_chain(puzzle, roots, module.search_factory(options),
                              count_only=not store,
                              on_solution=(lambda s, r=relay: r[0](s)) if store else None)
        entrants.append(Entrant(engine, dict(options), chain, kept,
                                budget=FIRST_NODES.get(engine, 1 << 10), relay=relay,
                                puzzle=puzzle))
    return entrants, left_out


@dataclass
class Decision:
    """What the race decided: the engine to go on with, why, and how long the race took."""

    winner: Entrant
    reason: str
    seconds: float
    finished: bool                      # the winner ended the search during the race
    stopped: bool = False               # the time limit, Ctrl-C or SIGTERM ended the race
    interrupted: bool = False           # ... Ctrl-C or SIGTERM


def race(entrants: list[Entrant], *, limit: int | None, time_limit: float | None,
         stop: Callable[[], bool], share: float = RACE_SHARE, fresh: bool = True,
         helping: Helping | None = None) -> Decision:
    """Run the race (the module docstring, steps 1 to 3; a race resumed by step 4, not
    ``fresh``, skips the glimpse and the brute force's solo).  ``helping``: the brute force
    goes on in a helper thread after its glimpse (``em_auto_helper``)."""
    began = time.perf_counter()

    def out_of_time() -> bool:
        return stop() or (helping is not None and helping.ended() is not None) or (
            time_limit is not None and time.perf_counter() - began >= time_limit)

    goal = "reached the limit of solutions" if limit is not None else "finished the search"
    if fresh:
        early = _opening(entrants, limit, out_of_time, helping)
        if early is not None:
            e, how = early
            return Decision(e, f"{e.label} {goal} first, {how}, in {e.seconds:.3f} s",
                            time.perf_counter() - began, True)

    def won(ended: Entrant) -> Decision:
        return Decision(ended, f"{ended.label} {goal} first in the race "
                        f"({describe(entrants)})", time.perf_counter() - began, True)

    quantum = FIRST_QUANTUM
    while True:
        if (ended := _first_done(entrants, limit)) is not None:    # the helper's, meanwhile
            return won(ended)
        lead = min(e.estimate() for e in entrants)
        # The most promising first: an engine about to finish ends the race before the others'
        # turns (sorted is stable: the candidates' order among equals, and before anything is
        # known).
        for e in sorted(entrants, key=lambda e: e.estimate()):
            if out_of_time():
                break
            e.turn(quantum * _weight(e.estimate(), lead), limit, out_of_time)
            if _first_done(entrants, limit) is not None:
                break
        if (ended := _first_done(entrants, limit)) is not None:
            return won(ended)
        spent = time.perf_counter() - began
        if out_of_time():
            best = min(entrants, key=lambda e: (-e.found, e.estimate()))
            return Decision(best, f"stopped during the race ({describe(entrants)})", spent,
                            False, stopped=True, interrupted=stop())
        ranked = sorted(entrants, key=lambda e: e.estimate())
        best, left = ranked[0], ranked[0].estimate()
        # Judge once every engine has had a fair turn (the further behind, the shorter: its
        # weight's share of it), or one is about to finish.
        judge = min(JUDGE_AFTER_SECONDS, max(MIN_TURN_SECONDS, JUDGE_SHARE * left))
        ready = left < MIN_TURN_SECONDS or all(
            e.seconds >= judge * _weight(e.estimate(), left) for e in entrants)
        # The further behind the runner-up, the sooner the race has seen enough.
        lead = ranked[1].estimate() / left if len(ranked) > 1 and left > 0 else math.inf
        if ready and (spent >= share * left / min(lead, MAX_LEAD) or spent >= MAX_RACE_SECONDS):
            return Decision(best, f"{best.label} has the least estimated time to go after a "
                                  f"{spent:.2f} s race ({describe(entrants)})", spent, False)
        quantum = min(LAST_QUANTUM, quantum * 2)


def _first_done(entrants: list[Entrant], limit: int | None) -> Entrant | None:
    """The engine that finished the search or reached the limit, if any: in the race, that
    of the turn just taken, or the helper's brute force."""
    return next((e for e in entrants if e.done(limit)), None)


def _opening(entrants: list[Entrant], limit: int | None, out_of_time: Callable[[], bool],
             helping: Helping | None = None) -> tuple[Entrant, str] | None:
    """The race's first steps (the module docstring, step 1): every engine a glimpse, the brute
    force first, then the brute force alone in doubling turns while it looks like finishing
    soon and no other engine looks like finishing sooner.  With ``helping``, the brute force
    goes on in the helper thread right after its glimpse, and has no solo: the rounds race
    the others beside it.  The engine that ended the run and how, or None: the rounds go
    on."""
    for e in list(entrants):
        if out_of_time():               # the helper's search ended meanwhile, or the run
            return None
        helped = helping is not None and e.engine == em_auto_helper.ENGINE
        e.turn(HELPED_GLIMPSE_SECONDS if helped else GLIMPSE_SECONDS, limit, out_of_time)
        if e.done(limit):
            return e, "in its glimpse"
        if helped:
            helping.start(entrants, e)
    first = entrants[0]
    if first.engine != "backtrack" or (helping is not None and helping.remote is not None):
        return None
    turn = GLIMPSE_SECONDS
    while not out_of_time() and first.seconds < SOLO_SECONDS[1]:
        ahead = first.estimate()
        if first.seconds >= SOLO_SECONDS[0] and ahead > first.seconds and (
                ahead > SOLO_SECONDS[1] or
                any(e.estimate() < RIVAL_MARGIN * ahead for e in entrants[1:])):
            return None                 # a long tree: the rounds will tell
        turn = min(SOLO_SECONDS[0], 2 * turn)
        first.turn(turn, limit, out_of_time)
        if first.done(limit):
            return first, "alone"
        ahead = first.estimate()
        for e in entrants[1:]:
            if RIVAL_MARGIN * e.estimate() < ahead and not out_of_time():
                e.turn(turn, limit, out_of_time)
                if e.done(limit):
                    return e, "in a turn beside the brute force's"
                if RIVAL_MARGIN * e.estimate() < ahead:
                    return None         # still ahead after a turn as long: race now
    return None


def jit_seconds() -> float:
    return sum(MODULES[engine].jit_seconds() for engine, _ in CANDIDATES)


@dataclass
class Choice:
    """The engine a race picked for a run that goes on elsewhere (a split run): its name,
    options and the reason, with the race's seconds.  ``solutions``: those the picked engine
    found during the race (when solutions are kept), in its depth-first order.  The split run
    hands them out at once, and leaves them out of what it hands out later: otherwise they
    would wait for every subproblem before theirs to finish (hours, on a board with millions
    of solutions).  For the brute force and edge filtering they are the first of the split
    run's own order (the same tree, searched in the same order)."""

    engine: str
    options: dict[str, Any]
    reason: str
    seconds: float
    race: dict[str, Any]
    solutions: list[BoardSolution] = field(default_factory=list)


def decide(puzzle: EdgeMatchingPuzzle, roots: Sequence[tuple[Hint, ...]], *,
           limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
           on_solution: Callable[[BoardSolution], None] | None = None,
           on_progress: Callable[[dict[str, int]], None] | None = None,
           share: float = RACE_SHARE, stay_below: float = math.inf,
           cores: int = 1) -> Result | Choice:
    """Race the engines on ``puzzle`` (the module docstring).  Returns the ``Result`` of the
    whole run when the race ends it, or when the winner's estimated time still to go is below
    ``stay_below`` seconds (it then goes on here, from where it stopped); otherwise the
    ``Choice``, for a split run.  ``share``: ``RACE_SHARE`` by default (a split run over N
    workers passes a smaller one: the race runs on one core).  ``cores``: how many the run
    may use; with two or more, the brute force goes on in a helper thread after its glimpse
    (``em_auto_helper``)."""
    jit = jit_seconds()
    store = on_solution is not None or not count_only
    # A run that cannot go on elsewhere hands out every engine's solutions as the race finds
    # them (the race may last seconds); a split run hands out its engine's after the race
    # (``Choice.solutions``), since its workers find the others again.
    relay = None if on_solution is None else \
        Relay(on_solution, limit, during_races=math.isinf(stay_below))
    # The helper's thread starts while the engines are set up.
    helping = Helping(limit, relay) if em_auto_helper.can_start(cores) else None
    try:
        entrants, left_out = _entrants(puzzle, roots, store)
        if relay is not None:
            for e in entrants:
                relay.keep(e)
        began = time.perf_counter()
        with InterruptFlag() as interrupt:
            decision = race(entrants, limit=limit, time_limit=time_limit,
                            stop=_stopper(entrants, on_progress, interrupt), share=share,
                            helping=helping)
        winner = decision.winner
        reason = decision.reason
        if left_out:
            reason += f"; not raced: {'; '.join(left_out)}"
        if not decision.finished and not decision.stopped and winner.estimate() >= stay_below:
            return Choice(winner.engine, winner.options, reason, decision.seconds,
                          race_figures(decision.seconds, entrants), list(winner.solutions))
        # The winner's solutions so far go out (those handed out during the race are not
        # handed out again), and the rest as they come.
        if relay is not None:
            relay.follow(winner)
        if decision.finished:
            stopped = COMPLETE if winner.finished else LIMIT
        elif decision.stopped:
            stopped = INTERRUPTED if decision.interrupted else TIME_LIMIT
        else:
            winner, reason, stopped = _watch(entrants, decision, reason, limit=limit,
                                             time_limit=time_limit, began=began, relay=relay,
                                             on_progress=on_progress, share=share,
                                             helping=helping)
        outcome = DriveOutcome(stopped, time.perf_counter() - began)
        result = _result_of(winner, outcome, jit, helping, entrants)
    finally:
        if helping is not None:
            helping.close()
    if relay is not None and relay.passed > result.count:
        # Stopped before the engine followed reached what other engines found during the
        # race: those were handed out, and count among the solutions found.
        result.count = relay.passed
    result.stats.extra["engine_reason"] = reason
    result.stats.extra["engine_race"] = race_figures(decision.seconds, entrants)
    return result


def _result_of(winner: Entrant, outcome: DriveOutcome, jit: float, helping: Helping | None,
               entrants: list[Entrant]) -> Result:
    """The run's ``Result``: that of the engine it ended with (the helper's, if that was the
    engine in the helper; or, where the helper gave none, the engine that found most)."""
    if isinstance(winner, RemoteEntrant):
        assert helping is not None
        result = helping.result(outcome.stop_reason)
        if result is not None:
            result.seconds, result.jit_seconds = outcome.seconds, jit
            result.solutions = list(winner.solutions)
            return result
        winner = max((e for e in entrants if not isinstance(e, RemoteEntrant)),
                     key=lambda e: e.found)
        outcome = DriveOutcome(INTERRUPTED if outcome.stop_reason == INTERRUPTED
                               else TIME_LIMIT, outcome.seconds)
    return winner.result_of(outcome, jit)


def _stopper(entrants: list[Entrant], on_progress: Callable[[dict[str, int]], None] | None,
             interrupt: InterruptFlag) -> Callable[[], bool]:
    """The race's ``stop``: reports progress over every engine, True on Ctrl-C or SIGTERM."""
    def stop() -> bool:
        if on_progress is not None:
            on_progress({"nodes": sum(e.nodes for e in entrants),
                         "solutions": max(e.found for e in entrants),
                         "deepest": max(e.progress()["deepest"] for e in entrants)})
        return interrupt.raised
    return stop


def _watch(entrants: list[Entrant], decision: Decision, reason: str, *, limit: int | None,
           time_limit: float | None, began: float, relay: Relay | None,
           on_progress: Callable[[dict[str, int]], None] | None,
           share: float, helping: Helping | None = None) -> tuple[Entrant, str, str]:
    """Step 4: the decision's engine alone for ``OVERRUN`` times its estimated time to go; if
    it has not finished, the race resumes, and so on.  Returns the engine that ended the run,
    the reason it ran, and how the run stopped."""
    winner = decision.winner
    last = 0.0                              # the last window alone, after an overrun
    overruns = 0

    def remaining() -> float | None:
        return None if time_limit is None else \
            max(1e-3, time_limit - (time.perf_counter() - began))

    while True:
        if helping is not None and (change := helping.back_runner_up(entrants, winner)):
            reason += f"; {change}"
        left = remaining()
        window = left
        if relay is None or relay.watching:
            allowance = max(OVERRUN * winner.estimate(), decision.seconds, MIN_TURN_SECONDS,
                            2 * last)
            if left is None or allowance < left:
                window = allowance
        others = [e for e in entrants if e is not winner and not e.done(limit)]
        rest = _alone(winner, window, limit, on_progress, helping, others)
        if helping and (ended := helping.ended_elsewhere(winner, entrants)) is not None:
            return ended, reason + f"; {ended.label} finished first", \
                COMPLETE if ended.finished else LIMIT
        if rest.stop_reason != TIME_LIMIT or window == left:
            return winner, reason, rest.stop_reason
        last = window
        overruns += 1
        # Nearly done even by its corrected estimate: a short extension costs less than the
        # others' make-up turns (an estimate that falls short once more is corrected again).
        extension = OVERRUN * winner.estimate()
        if extension < MAKE_UP * window:
            left = remaining()
            rest = _alone(winner, extension if left is None else min(extension, left), limit,
                          on_progress, helping, others)
            if helping and (ended := helping.ended_elsewhere(winner, entrants)) is not None:
                return ended, reason + f"; {ended.label} finished first", \
                    COMPLETE if ended.finished else LIMIT
            if rest.stop_reason != TIME_LIMIT or (left is not None and extension >= left):
                return winner, reason, rest.stop_reason
        with InterruptFlag() as interrupt:
            stop = _stopper(entrants, on_progress, interrupt)
            finish_by = None if time_limit is None else began + time_limit

            def out_of_time() -> bool:
                return stop() or (helping is not None and helping.ended() is not None) or (
                    finish_by is not None and time.perf_counter() >= finish_by)

            # The most promising first, each the less the further it lies behind what the
            # overrunning engine still needs (by its corrected estimate, and at least a make-up
            # turn's worth), but never less than a share that doubles at each overrun: an
            # estimate that fell short once may be a little short (E_10_24: the brute force
            # needed 5.7 s where it promised 2.6, and make-up turns of half its window for two
            # engines 15 and 70 s from the end took the 4.8 s it lacked) or far short, and
            # another overrun says it was far.
            floor = min(1.0, MIN_WEIGHT * 2 ** (overruns - 1))
            lead = max(winner.estimate(), MAKE_UP * window)
            others = sorted((e for e in entrants if e is not winner), key=Entrant.estimate)
            for e in others:
                if not e.done(limit) and not out_of_time():
                    e.turn(MAKE_UP * window * max(floor, _weight(e.estimate(), lead)), limit,
                           out_of_time)
                    if e.done(limit):
                        break
            # One may have finished in its turn, or the helper's brute force meanwhile.
            made_up = _first_done(entrants, limit)
            if made_up is not None:
                when = "while the others had their turns" if made_up is winner else \
                    "in its make-up turn"
                decision = Decision(made_up, f"{made_up.label} finished {when} "
                                    f"({describe(entrants)})", 0.0, True)
            else:
                decision = race(entrants, limit=limit, time_limit=remaining(), stop=stop,
                                share=share, fresh=False, helping=helping)
        reason += (f"; {winner.label} overran its window of {window:.2f} s, so the others "
                   f"had their turns: {decision.reason}")
        if relay is not None and decision.winner is not winner:
            relay.keep(winner)
            relay.follow(decision.winner)
        winner = decision.winner
        if decision.finished:
            return winner, reason, COMPLETE if winner.finished else LIMIT
        if decision.stopped:
            return winner, reason, INTERRUPTED if decision.interrupted else TIME_LIMIT


def _alone(winner: Entrant, window: float | None, limit: int | None,
           on_progress: Callable[[dict[str, int]], None] | None,
           helping: Helping | None = None, others: Sequence[Entrant] = ()) -> DriveOutcome:
    """``winner`` alone for ``window`` seconds (or to the end), or until the helper's search
    ends (the brute force in the helper: ``em_auto_helper.race_beside``, the ``others`` race
    meanwhile).  Stopped
    by the window, its estimate fell short: its ``skew`` grows by the factor it fell short by
    (at least)."""
    promised, before = winner.estimate(), winner.seconds
    if isinstance(winner, RemoteEntrant):
        rest = em_auto_helper.race_beside(winner, others, window, limit, on_progress)
    else:
        room = None if limit is None else limit - winner.found
        report = None if on_progress is None else (
            lambda w=winner: on_progress(w.progress()))
        alone = cpu_seconds()
        rest = drive(winner.chain.step, limit=room, time_limit=window, on_progress=report,
                     cancel=None if helping is None else lambda: helping.ended() is not None,
                     first_slice=winner.budget)
        winner.seconds += cpu_seconds() - alone
    if rest.stop_reason == TIME_LIMIT and window is not None and promised > 0:
        # By the processor time it had: a window on a loaded machine gives it less.
        had = min(window, winner.seconds - before)
        winner.skew *= max(1.0, had / promised)
    return rest


def choose(puzzle: EdgeMatchingPuzzle, *, workers: int, split_soon: bool = False,
           **options: Any) -> Result | Choice:
    """For a split run over ``workers`` processes: race in this process (``options``: those of
    ``cpkit.engines.dispatch.solve``).  The ``Result`` if the race ended the run or the winner
    has under ``STAY_BELOW`` seconds to go (it then finishes here: starting workers would cost
    more; ``HELPED_STAY_BELOW`` with the helper, unless ``split_soon``: a checkpointed run
    records nothing before it splits, a cluster's run belongs on the cluster), else the
    ``Choice`` of engine.  The race's share of the run is divided by the workers, as they
    will share the rest."""
    from ..em_front import solve as front

    helped = em_auto_helper.can_start(workers) and not split_soon
    stay = HELPED_STAY_BELOW if helped else STAY_BELOW
    engine_fn = partial(decide, share=RACE_SHARE / max(1, workers), stay_below=stay,
                        cores=workers)
    return front(puzzle, engine_fn, **options)


def solve_on(puzzle: EdgeMatchingPuzzle, *, cores: int, **options: Any) -> Result:
    """``solve`` in this process where the run may use ``cores`` cores (``cpkit match``'s
    default for ``--first`` and ``--limit``: every core; ``options``: those of
    ``cpkit.engines.dispatch.solve``): with two or more, the brute force goes on in a helper
    thread after its glimpse."""
    from ..em_front import solve as front

    result = front(puzzle, partial(decide, cores=cores), **options)
    assert isinstance(result, Result)
    return result


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          on_progress: Callable[[dict[str, int]], None] | None = None) -> Result:
    """Every solution of ``puzzle`` under each root, by the engine the race picks (the module
    docstring), in this process; the result is that engine's, with the race's time in its
    ``seconds`` and the choice in ``engine_reason``."""
    result = decide(puzzle, roots, limit=limit, time_limit=time_limit, count_only=count_only,
                    on_solution=on_solution, on_progress=on_progress)
    assert isinstance(result, Result)
    return result
