"""The paper's reference models of section 6.3: 4-edge consistency, the complete AllDifferent
and edge filtering.

Benoist & Bourreau compare their ColorPair rules with a Choco model that filters each cell's
tiles against the colours of its known edges ("4-edge consistency") and runs Régin's complete
AllDifferent over the tiles, branching on the cell with the smallest domain and placing a tile
and its rotation at once.  Their preemption rule (section 4.1) finds some of the sets of cells
that the complete AllDifferent finds; this engine measures what the rest is worth in nodes.

It is a reference for node counts on small boards, not a fast engine: pure Python with networkx
(Hopcroft-Karp matching, strongly connected components), thousands of nodes per second.

- **Domains**: per empty cell, the orientations (tile and rotation) whose sides are grey exactly
  on the frame.
- **4-edge consistency**: when a cell is placed, each empty neighbour keeps the orientations
  showing the placed side's colour, and no other cell keeps the placed tile.
- **Complete AllDifferent** (Régin 1994): a maximum matching between the empty cells and the
  tiles of their domains; none covering every cell is a failure; otherwise a cell keeps a tile
  only if the edge is in the matching, on an alternating cycle (both ends in one strongly
  connected component of the graph with matched edges cell -> tile and the others
  tile -> cell) or on an alternating path from a free tile.
- **Edge filtering** (``edges=True``, the paper's third model, whose Choco version has a colour
  variable per edge): a cell keeps an orientation only if every empty neighbour can show the
  same colour on the shared edge (AC-3 over the edges).
- A cell left with one orientation is placed (``propagated``); the filters run to a fixed point.
- **Branching**: the empty cell with the fewest orientations (the paper's minDomain), or with
  ``branching="dom-ddeg"`` the smallest ratio of orientations to empty neighbours (a cell with
  none last), as the compiled ``edges`` engine does by default; first in cell order on ties,
  its orientations in order.  ``nodes`` counts those placements, as for the other engines.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import Callable, Iterator, Sequence

import networkx as nx
import numpy as np

from ....errors import InputError
from ....models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from ....result import Result, Stats
from ..em_front import CELL_RULES, GeneratorSearch, run_roots

ENGINE = "alldiff"
#: The search nests one generator per level (Python's recursion limit is about 1,000): boards up
#: to Eternity II's 16 x 16.
MAX_CELLS = 256

Domains = dict[int, set[int]]


class Failure(Exception):
    """A domain became empty or the tiles cannot all be matched."""


class AlldiffSearch(GeneratorSearch):
    """A resumable search of one puzzle (its hints are the root placements)."""

    def __init__(self, puzzle: EdgeMatchingPuzzle, store: bool = True,
                 on_orientations: Callable[[np.ndarray], None] | None = None,
                 alldifferent: bool = True, edges: bool = False,
                 branching: str = "min-domain"):
        """``alldifferent=False`` leaves 4-edge consistency alone (the tiles stay pairwise
        different: a placed tile leaves every other domain); ``edges=True`` adds edge
        filtering (the paper's third model); ``branching`` is one of ``CELL_RULES``."""
        a = puzzle.arrays
        self.alldifferent = alldifferent
        self.edges = edges
        if branching not in CELL_RULES:
            raise InputError(f"unknown branching rule {branching!r}")
        self.dom_ddeg = branching == "dom-ddeg"
        self.n_cells = a.n_cells
        self.nbr = a.nbr.tolist()
        self.ori_col = a.ori_col.tolist()
        self.ori_tile = a.ori_tile.tolist()
        self.propagated = 0
        self._init_events(self._run(list(zip(a.hint_cell.tolist(), a.hint_ori.tolist()))),
                          store, on_orientations)

    # ------------------------------------------------------------------------- filtering
    def _initial_domains(self) -> Domains:
        domains = {}
        for c in range(self.n_cells):
            frame = [self.nbr[c][s] < 0 for s in range(4)]
            domains[c] = {o for o, col in enumerate(self.ori_col)
                          if all((col[s] == 0) == frame[s] for s in range(4))}
        return domains

    def _place(self, placed: list[int], domains: Domains, c: int, o: int) -> set[int]:
        """Put ``o`` on ``c`` and filter the neighbours and the tile; the cells whose domains
        changed."""
        placed[c] = o
        del domains[c]
        tile = self.ori_tile[o]
        touched = set()
        for x, dom in domains.items():
            drop = {q for q in dom if self.ori_tile[q] == tile}
            if drop:
                dom -= drop
                touched.add(x)
        for s in range(4):
            x = self.nbr[c][s]
            if x >= 0 and x in domains:
                colour, facing = self.ori_col[o][s], (s + 2) % 4
                domains[x] = {q for q in domains[x] if self.ori_col[q][facing] == colour}
                touched.add(x)
        return touched

    def _edge_filter(self, domains: Domains, work: set[int]) -> None:
        """Edge filtering to a fixed point (AC-3 over the edges between empty cells): a cell
        keeps an orientation only if each empty neighbour can show the same colour on the
        shared edge.  ``work`` holds the changed cells and receives the cells it changes."""
        queue = [y for y in work if y in domains]
        while queue:
            y = queue.pop()
            for s in range(4):
                c = self.nbr[y][s]
                if c < 0 or c not in domains:
                    continue
                shown = {self.ori_col[q][s] for q in domains[y]}
                facing = (s + 2) % 4
                kept = {o for o in domains[c] if self.ori_col[o][facing] in shown}
                if len(kept) < len(domains[c]):
                    if not kept:
                        raise Failure
                    domains[c] = kept
                    work.add(c)
                    queue.append(c)

    def _alldifferent(self, domains: Domains) -> set[int]:
        """Régin's filtering of the tiles (see the module docstring); the cells it changed."""
        graph = nx.Graph()
        cells = [("c", x) for x in domains]
        graph.add_nodes_from(cells)
        tiles_of = {x: {self.ori_tile[q] for q in dom} for x, dom in domains.items()}
        graph.add_edges_from((("c", x), ("t", t)) for x, ts in tiles_of.items() for t in ts)
        matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=cells)
        if any(cell not in matching for cell in cells):
            raise Failure
        directed = nx.DiGraph()
        directed.add_nodes_from(graph)
        for x, ts in tiles_of.items():
            for t in ts:
                if matching[("c", x)] == ("t", t):
                    directed.add_edge(("c", x), ("t", t))
                else:
                    directed.add_edge(("t", t), ("c", x))
        component = {}
        for k, members in enumerate(nx.strongly_connected_components(directed)):
            for v in members:
                component[v] = k
        free = [v for v in graph if v[0] == "t" and v not in matching]
        reached = set(free).union(*(nx.descendants(directed, v) for v in free))
        touched = set()
        for x, ts in tiles_of.items():
            cell = ("c", x)
            gone = {t for t in ts if matching[cell] != ("t", t) and
                    component[cell] != component[("t", t)] and ("t", t) not in reached}
            if gone:
                domains[x] = {q for q in domains[x] if self.ori_tile[q] not in gone}
                touched.add(x)
        return touched

    def _propagate(self, placed: list[int], domains: Domains, work: set[int]) -> None:
        """Filter from the changed cells ``work`` and place the cells left with one
        orientation, until nothing changes; Failure if a domain empties."""
        while True:
            if self.edges:
                self._edge_filter(domains, work)
            singles = []
            for x in work:
                if x in domains:
                    if not domains[x]:
                        raise Failure
                    if len(domains[x]) == 1:
                        singles.append(x)
            work = set()
            for x in singles:
                if x in domains:
                    if not domains[x]:
                        raise Failure
                    (o,) = domains[x]
                    self.propagated += 1
                    work |= self._place(placed, domains, x, o)
            if work:
                continue
            if not domains or not self.alldifferent:
                return
            work = self._alldifferent(domains)
            if not work:
                return

    # ---------------------------------------------------------------------------- search
    def _run(self, roots: Sequence[tuple[int, int]]) -> Iterator[np.ndarray | None]:
        """Yields None after each node and the orientation of every cell at each solution."""
        placed = [-1] * self.n_cells
        domains = self._initial_domains()
        try:
            for c, o in roots:
                if c not in domains or o not in domains[c]:
                    raise Failure
                self._place(placed, domains, c, o)
            self._propagate(placed, domains, set(domains))
        except Failure:
            return
        yield from self._below(placed, domains)

    def _below(self, placed: list[int], domains: Domains) -> Iterator[np.ndarray | None]:
        if not domains:
            yield np.array(placed, dtype=np.int32)
            return
        c = min(domains, key=lambda x: self._cell_key(domains, x))
        for o in sorted(domains[c]):
            self.nodes += 1
            child_placed = list(placed)
            child = {x: set(dom) for x, dom in domains.items()}
            try:
                self._propagate(child_placed, child, self._place(child_placed, child, c, o))
            except Failure:
                child = None
            yield None
            if child is not None:
                yield from self._below(child_placed, child)

    def _cell_key(self, domains: Domains, x: int) -> tuple:
        if not self.dom_ddeg:
            return len(domains[x]), x
        free = sum(1 for y in self.nbr[x] if y in domains)
        return free == 0, Fraction(len(domains[x]), max(free, 1)), x


def solve(puzzle: EdgeMatchingPuzzle, *, roots: Sequence[tuple[Hint, ...]],
          limit: int | None = None, time_limit: float | None = None, count_only: bool = False,
          on_solution: Callable[[BoardSolution], None] | None = None,
          alldifferent: bool = True, edges: bool = False,
          branching: str = "min-domain") -> Result:
    """Every solution of ``puzzle`` under each root (hints), by the section 6.3 model."""
    if puzzle.n_cells > MAX_CELLS:
        raise InputError(f"the alldiff engine (a Python reference for small boards) takes at "
                         f"most {MAX_CELLS} cells; this board has {puzzle.n_cells}")
    chain, outcome, solutions = run_roots(
        puzzle, roots,
        partial(AlldiffSearch, alldifferent=alldifferent, edges=edges, branching=branching),
        limit=limit, time_limit=time_limit, count_only=count_only, on_solution=on_solution)
    stats = Stats(nodes=chain.total("nodes"), extra={"propagated": chain.total("propagated")})
    return Result("edge_matching", ENGINE, "raw", chain.total("solutions"), outcome.complete,
                  outcome.stop_reason, outcome.seconds, 0.0, solutions, stats,
                  {"alldifferent": alldifferent, "edges": edges, "branching": branching},
                  puzzle.name)
