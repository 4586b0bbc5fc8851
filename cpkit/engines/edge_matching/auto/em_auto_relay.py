"""Handing out the solutions of ``--engine auto``'s race (``em_auto_search``): each once, at
most the limit, whichever engine finds it.  Every engine searches its own tree, so the engine
the run follows finds again what others found and printed; the relay remembers what it
passed on and holds those back."""

from __future__ import annotations

from typing import Any, Callable

from ....models.edge_matching import BoardSolution

#: Solutions printed before a run stops watching its engine (``em_auto_search``, step 4,
#: remembers each, so that the next engine does not print it again).
WATCHED_SOLUTIONS = 100_000


class Relay:
    """Passes the solutions of the engine the run follows to the caller, each once and at most
    ``limit`` in all: after a switch of engines (``em_auto_search``, step 4), the next one
    finds again what the last one printed.  Its entrants are ``em_auto_search.Entrant``s.  It
    remembers what it passed on (up to ``WATCHED_SOLUTIONS``).
    ``during_races``: while no engine is followed (the race), every engine's solutions are
    passed on as they come too, as long as it can remember them (else they wait, kept by
    their engine, for the engine the run follows)."""

    def __init__(self, on_solution: Callable[[BoardSolution], None], limit: int | None,
                 during_races: bool = False):
        self.on_solution = on_solution
        self.limit = limit
        self.during_races = during_races
        self.passed = 0
        self.seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    @property
    def watching(self) -> bool:
        """Whether a switch of engines can still be relayed without repeats."""
        return len(self.seen) < WATCHED_SOLUTIONS

    def follow(self, entrant: Any) -> None:
        """Relay ``entrant``'s solutions: those it kept so far, and the next as they come."""
        kept = list(entrant.solutions)
        entrant.solutions.clear()
        entrant.relay[0] = self.pass_on
        for solution in kept:
            self.pass_on(solution)

    def keep(self, entrant: Any) -> None:
        """Keep ``entrant``'s solutions (an engine not followed, or no longer: it may be
        followed later), and with ``during_races`` pass each on while the relay can remember
        it."""
        if not self.during_races:
            entrant.relay[0] = entrant.solutions.append
            return

        def keep_and_pass_on(solution: BoardSolution) -> None:
            entrant.solutions.append(solution)
            if self.watching:
                self.pass_on(solution)
        entrant.relay[0] = keep_and_pass_on

    def pass_on(self, solution: BoardSolution) -> None:
        key = (solution.tiles, solution.rotations)
        if key in self.seen or (self.limit is not None and self.passed >= self.limit):
            return
        if self.watching:
            self.seen.add(key)
        self.passed += 1
        self.on_solution(solution)
