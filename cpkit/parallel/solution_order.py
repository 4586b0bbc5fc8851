"""A split run's solutions in the order of the sequential search: streamed while the run goes
(``InOrder``) or all at its end (``ordered_solutions``).  Solutions found above the split depth
fall between subproblems; each subproblem's come in its own order."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .protocol import Frontier, Part


class InOrder:
    """Hands a split run's solutions to ``on_solution`` while it runs, in the sequential order:
    a subproblem's as soon as every subproblem before it has finished (with those found above
    the split depth in their places), at most ``cap`` in all.  A subproblem's solutions are
    dropped once given, so the coordinator holds only those that wait for an earlier
    subproblem; ``rest`` lists what was not given, for the end of the run."""

    def __init__(self, frontier: Frontier, decode: Callable[[list[int]], Any],
                 on_solution: Callable[[Any], None] | None, cap: int | None,
                 before: Callable[[], None] = lambda: None, given: Sequence[Any] = ()):
        """``given``: solutions (decoded) handed out before the run, the first of the
        sequential order (those of an ``auto`` race's engine): counted, not given again."""
        self.shallow = shallow_by_position(frontier)
        self.n_paths = len(frontier.paths)
        self.decode, self.on_solution, self.cap, self.before = decode, on_solution, cap, before
        self.next = 0               # the first subproblem not yet given
        self.shallow_given = -1     # the last position whose shallow solutions were given
        self.given = len(given)
        self.already = Already(given, decode)

    @property
    def active(self) -> bool:
        return self.on_solution is not None

    def advance(self, done: dict[int, Part]) -> None:
        if not self.active:
            return
        while True:
            if self.shallow_given < self.next:
                self._give(self.shallow.get(self.next, ()))
                self.shallow_given = self.next
            if self.next >= self.n_paths or self.next not in done:
                return
            self._give(done[self.next].solutions)
            done[self.next].solutions = []
            self.next += 1

    def rest(self, parts: dict[int, Part]) -> list[list[int]]:
        """The solutions not given yet, in the sequential order (``parts``: every subproblem
        that came back, finished or not)."""
        out: list[list[int]] = []
        for k in range(self.next, self.n_paths + 1):
            if k > self.shallow_given:
                out.extend(self.shallow.get(k, ()))
            if k in parts:
                out.extend(parts[k].solutions)
        return self.already.drop(out)

    def _give(self, solutions) -> None:
        cleared = False
        for s in solutions:
            if self.cap is not None and self.given >= self.cap:
                return
            decoded = self.decode(s)
            if decoded in self.already:
                continue
            if not cleared:
                self.before()
                cleared = True
            self.on_solution(decoded)
            self.given += 1


class Already:
    """Solutions handed out before a split run (``InOrder``'s ``given``), to leave out of what
    it hands out: looked up by value, decoded, so nothing is paid when there are none."""

    def __init__(self, given: Sequence[Any], decode: Callable[[list[int]], Any]):
        self.given = set(given)
        self.decode = decode

    def __contains__(self, decoded: Any) -> bool:
        return bool(self.given) and decoded in self.given

    def drop(self, solutions: list[list[int]]) -> list[list[int]]:
        """``solutions`` (engine-native) without those handed out already."""
        if not self.given:
            return solutions
        return [s for s in solutions if self.decode(s) not in self.given]


def shallow_by_position(frontier: Frontier) -> dict[int, list[list[int]]]:
    out: dict[int, list[list[int]]] = {}
    for pos, sol in frontier.shallow:
        out.setdefault(pos, []).append(sol)
    return out


def ordered_solutions(frontier: Frontier, parts: dict[int, Part]) -> list[list[int]]:
    """Every solution in the order of the sequential search: those found above the split
    depth where they fall between subproblems, each subproblem's in its own order."""
    shallow = shallow_by_position(frontier)
    out: list[list[int]] = []
    for k in range(len(frontier.paths) + 1):
        out.extend(shallow.get(k, ()))
        if k in parts:
            out.extend(parts[k].solutions)
    return out
