"""The engines' compiled reads of their depth-first position (``explored``) against a Python
reference sum over the branches read from the same state."""

from __future__ import annotations

import pytest

from cpkit.engines.edge_matching.backtrack import em_backtrack_kernel as BK
from cpkit.engines.edge_matching.backtrack.em_backtrack_search import BacktrackSearch
from cpkit.engines.edge_matching.cp import em_cp_kernel as CK
from cpkit.engines.edge_matching.cp.em_cp_search import CpSearch
from cpkit.engines.edge_matching.edges import em_edges_kernel as EK
from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch
from cpkit.models.em_generator import generate

pytestmark = pytest.mark.kernel


def tree_share(branches: list[tuple[int, int]]) -> float:
    """The reference: each node's finished branches, weighted by the share of the tree one of
    its parent's branches stands for (every subtree the same size)."""
    share, weight = 0.0, 1.0
    for done, total in branches:
        if total <= 0:
            break
        share += weight * min(max(done, 0), total) / total
        weight /= total
    return share


def backtrack_branches(s: BacktrackSearch) -> list[tuple[int, int]]:
    dep = s.dep.reshape(-1, BK.DEP_STRIDE)
    out = []
    for d in s.free_depths[s.free_depths < int(s.state[BK.ST_DEPTH])]:
        w, south = dep[d, BK.D_WEST], dep[d, BK.D_SOUTH]
        key = dep[d, BK.D_KEY_BASE] + (dep[w, BK.D_EAST] if w >= 0 else 0) * s.a.n_values + \
            (dep[south, BK.D_NORTH] if south >= 0 else 0)
        start = int(s.list_start[key])
        out.append((int(dep[d, BK.D_PTR]) - 1 - start, int(s.list_start[key + 1]) - start))
    return out


def cp_branches(s: CpSearch) -> list[tuple[int, int]]:
    rows = [int(s.g[CK.O_LV]) + level * CK.LV_STRIDE for level in range(int(s.g[CK.G_LEVEL]))]
    ends = [int(s.m[r + CK.L_END]) for r in rows]
    return [(int(s.m[r + CK.L_PTR]) - 1 - base, end - base)
            for r, base, end in zip(rows, [0] + ends, ends)]


def edges_branches(s: EdgesSearch) -> list[tuple[int, int]]:
    return [(int(s.lv[level * EK.LV_STRIDE + EK.L_PTR]) - 1 - level * s.cand_stride,
             int(s.lv[level * EK.LV_STRIDE + EK.L_END]) - level * s.cand_stride)
            for level in range(int(s.state[EK.ST_LEVEL]))]


@pytest.mark.parametrize("search, branches, budget", [
    (BacktrackSearch, backtrack_branches, 3000), (CpSearch, cp_branches, 40),
    (EdgesSearch, edges_branches, 5)])
@pytest.mark.parametrize("side, border, inner, seed", [
    (5, 2, 3, 1), (6, 4, 5, 2), (7, 6, 6, 3), (8, 8, 8, 4)])
def test_the_compiled_share_is_the_reference_sum(search, branches, budget, side, border,
                                                 inner, seed):
    s = search(generate(side, border_colours=border, inner_colours=inner, seed=seed),
               store=False)
    positions = set()
    for _ in range(40):
        finished, _ = s.step(1 << 40, budget)
        if finished:
            assert s.explored() == 1.0
            break
        assert s.explored() == tree_share(branches(s))
        positions.add(s.explored())
    assert len(positions) > 1           # the position moved: the sums were of real branches
