"""Sanity checkers (``CPKIT_SANITY``): the engines run with them on (ColorPair, DLX links, FILA
occupancy), counts and nodes unchanged, and a corrupted state is caught."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpkit import sanity
from cpkit.engines.dispatch import solve
from cpkit.engines.edge_matching.cp import em_cp_search as em_cp
from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch
from cpkit.engines.exact_cover.dlx import dlx_sanity
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.tiling.fila import fila_layout, fila_sanity
from cpkit.engines.tiling.fila import fila_search as fila
from cpkit.errors import InputError
from cpkit.io.edge_matching import read_edge_matching
from cpkit.models.em_generator import generate
from cpkit.models.exact_cover import ExactCover
from cpkit.propagators import colorpair_layout as lay
from cpkit.propagators import colorpair_sanity, edge_supports_sanity
from cpkit.propagators import edge_supports_layout as edges_lay
from tests.strategies import exact_covers, puzzles

pytestmark = pytest.mark.kernel

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "edge_matching"


@pytest.mark.parametrize("name, options", [
    ("gen_4_b2i3_s2.txt", {}),
    ("gen_5x4_b3i4_s1.txt", {"shave": 2}),
    ("gen_5_b3i4_s3.txt", {"opposite": False, "backjump": False}),
])
def test_the_cp_engine_checked_at_every_node_counts_the_same(monkeypatch, name, options):
    puzzle = read_edge_matching(INSTANCES / name)
    monkeypatch.delenv("CPKIT_SANITY", raising=False)
    plain = solve(puzzle, engine="cp", count_only=True, **options)
    monkeypatch.setenv("CPKIT_SANITY", "1")
    before = sanity.calls[colorpair_sanity.NAME]
    checked = solve(puzzle, engine="cp", count_only=True, **options)
    calls = sanity.calls[colorpair_sanity.NAME] - before
    assert (checked.count, checked.stats.nodes, checked.complete) == \
        (plain.count, plain.stats.nodes, True)
    # A check after every node entered but solutions: a kernel call ends at the first node it
    # enters past its budget, unless the node is a solution (a placement that propagation
    # refutes is undone, and the next tried, in the same call).
    entered = plain.stats.nodes - plain.stats.extra["failed_nodes"] - plain.count
    assert calls >= entered > 0


def test_every_n_nodes_checks_less_often(monkeypatch):
    puzzle = read_edge_matching(INSTANCES / "gen_4_b2i3_s2.txt")
    monkeypatch.setenv("CPKIT_SANITY", "50")
    before = sanity.calls[colorpair_sanity.NAME]
    result = solve(puzzle, engine="cp", count_only=True)
    calls = sanity.calls[colorpair_sanity.NAME] - before
    assert 0 < calls < result.stats.nodes


def _search_midway():
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=4)
    search = em_cp.CpSearch(puzzle.with_hints(puzzle.symmetry_roots("rotation")[0]),
                            store=False)
    search.step(1 << 20, 5)
    colorpair_sanity.check(search.st, search.m, search.g)
    return search


def _drop_an_offered_tile(s):
    """A tile leaves an Offer set while unplaced (the largest set shrinks under its last)."""
    sizes = s.g[lay.O_OFF_SIZE]
    p = int(s.m[sizes:sizes + s.g[lay.G_PAIRS]].argmax())
    s.m[sizes + p] -= 1


def _forget_the_demands_of_a_cell(s):
    """An empty cell with a known side forgets its demand slots."""
    cells = s.g[lay.O_CELLS]
    for c in range(s.n_cells):
        r = cells + c * lay.CELL_STRIDE
        if s.m[r + lay.C_ORI] < 0 and s.m[r + lay.C_KNOWN] >= 2:
            s.m[r + lay.C_DPAIR:r + lay.C_DPAIR + lay.N_SLOTS] = -1
            return
    raise AssertionError("no empty cell with two known sides")


def _miscount_a_preemption(s):
    s.m[s.g[lay.O_NB_PRE]] += 1


def _miscount_the_empty_cells(s):
    s.g[lay.G_EMPTY] += 1


@pytest.mark.parametrize("corrupt, found", [
    (_drop_an_offered_tile, "Offer"), (_forget_the_demands_of_a_cell, "demands"),
    (_miscount_a_preemption, "nb_pre"), (_miscount_the_empty_cells, "G_EMPTY")])
def test_a_corrupted_colorpair_state_is_caught(corrupt, found):
    search = _search_midway()
    corrupt(search)
    with pytest.raises(sanity.SanityError, match=found):
        colorpair_sanity.check(search.st, search.m, search.g)


EDGES_COUNTED = ("propagated", "failed_nodes", "shave_trials", "shave_removed")


@pytest.mark.parametrize("name, options", [
    ("gen_4_b2i3_s2.txt", {}),
    ("gen_5x4_b3i4_s1.txt", {"shave": 2}),
    ("gen_5_b3i4_s3.txt", {"alldifferent": True, "branching": "min-domain"}),
    ("gen_5_b3i4_s3.txt", {"tiles": False, "shave": "all"}),
])
def test_the_edges_engine_checked_at_every_node_counts_the_same(monkeypatch, name, options):
    puzzle = read_edge_matching(INSTANCES / name)
    plain, checked, calls = _checked(
        monkeypatch, edge_supports_sanity.NAME,
        lambda: solve(puzzle, engine="edges", count_only=True, **options))
    assert (checked.count, checked.stats.nodes, checked.complete) == \
        (plain.count, plain.stats.nodes, True)
    assert [checked.stats.extra[k] for k in EDGES_COUNTED] == \
        [plain.stats.extra[k] for k in EDGES_COUNTED]
    # A check after every node entered but solutions (and after every shaving trial).
    entered = plain.stats.nodes - plain.stats.extra["failed_nodes"] - plain.count
    assert calls >= entered > 0


def _edges_midway():
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=4)
    search = EdgesSearch(puzzle.with_hints(puzzle.symmetry_roots("rotation")[0]), store=False,
                         alldifferent=True)
    search.step(1 << 20, 5)
    search.check()
    return search


def _first_open_cell(s):
    return int(next(c for c in range(len(s.placed)) if s.placed[c] < 0))


def _miscount_a_domain(s):
    s.size[_first_open_cell(s)] += 1


def _drop_an_orientation_quietly(s):
    """An orientation leaves a domain without its supports (nor its size) following."""
    c = _first_open_cell(s)
    n_ori = len(s.dom) // len(s.placed)
    o = int(next(o for o in range(n_ori) if s.dom[c * n_ori + o]))
    s.dom[c * n_ori + o] = 0
    s.size[c] -= 1


def _forget_a_colour_of_an_edge(s):
    e = int(next(e for e in range(len(s.mask)) if s.mask[e]))
    s.mask[e] &= s.mask[e] - np.uint64(1)       # its lowest colour


def _free_a_placed_tile(s):
    s.used[:] = 0


def _miscount_a_tiles_cells(s):
    s.tl[edges_lay.T_TILE_CELLS] += 1


@pytest.mark.parametrize("corrupt, found", [
    (_miscount_a_domain, "size"), (_drop_an_orientation_quietly, "support"),
    (_forget_a_colour_of_an_edge, "edge"), (_free_a_placed_tile, "used tiles"),
    (_miscount_a_tiles_cells, "cells that can take it")])
def test_a_corrupted_edge_filtering_state_is_caught(corrupt, found):
    search = _edges_midway()
    corrupt(search)
    with pytest.raises(sanity.SanityError, match=found):
        search.check()


@pytest.mark.parametrize("midway, corrupt, found", [
    (_search_midway, _miscount_a_preemption, "nb_pre"),
    (_edges_midway, _miscount_a_domain, "size")], ids=["cp", "edges"])
def test_a_corrupted_state_stops_a_checked_search(monkeypatch, midway, corrupt, found):
    search = midway()
    corrupt(search)
    monkeypatch.setenv("CPKIT_SANITY", "1")
    with pytest.raises(sanity.SanityError, match=found):
        search.step(1 << 20, 10)


def test_a_bad_setting_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("CPKIT_SANITY", "yes")
    with pytest.raises(InputError, match="CPKIT_SANITY='yes'"):
        sanity.every()


def _checked(monkeypatch, checker, run):
    """``run()`` with sanity off, then on at every node: both results and the checks made."""
    monkeypatch.delenv("CPKIT_SANITY", raising=False)
    plain = run()
    monkeypatch.setenv("CPKIT_SANITY", "1")
    before = sanity.calls[checker]
    checked = run()
    monkeypatch.delenv("CPKIT_SANITY")
    return plain, checked, sanity.calls[checker] - before


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(exact_covers())
def test_dlx_checked_at_every_node_counts_the_same(monkeypatch, case):
    n_primary, n_items, rows, need = case
    names = [f"i{k}" for k in range(n_items)]
    cover = ExactCover.from_rows(names[:n_primary], names[n_primary:], rows, need=need)
    plain, checked, calls = _checked(monkeypatch, dlx_sanity.NAME,
                                     lambda: dlx.solve_cover(cover, count_only=True))
    assert (checked.count, checked.stats.nodes) == (plain.count, plain.stats.nodes)
    # A check after every placement but those that complete a solution.
    assert calls >= max(1, plain.stats.nodes - plain.count)


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(puzzles())
def test_dlx_on_tilings_checked_at_every_node_counts_the_same(monkeypatch, puzzle):
    plain, checked, calls = _checked(monkeypatch, dlx_sanity.NAME,
                                     lambda: dlx.solve_tiling(puzzle, count_only=True))
    assert (checked.count, checked.stats.nodes) == (plain.count, plain.stats.nodes)
    # A check after every placement but those that complete a solution.
    assert calls >= max(1, plain.stats.nodes - plain.count)


def _dlx_midway(tiling_instance):
    puzzle = tiling_instance("pentominoes_20x3.txt")
    search = dlx.prepare_tiling(puzzle).search(store=False)
    search.step(1 << 20, 6)
    dlx_sanity.check(search.llink, search.rlink, search.length, search.top, search.ulink,
                     search.dlink, search.n_primary)
    return search


def _lengthen_the_first_item(s):
    s.length[s.rlink[0]] += 1


def _unlink_a_node_upwards(s):
    s.ulink[s.dlink[s.rlink[0]]] = 0


def _unlink_an_item_leftwards(s):
    s.llink[s.rlink[s.rlink[0]]] = 0


@pytest.mark.parametrize("corrupt, found", [
    (_lengthen_the_first_item, "length"), (_unlink_a_node_upwards, "ulink"),
    (_unlink_an_item_leftwards, "llink")])
def test_corrupted_dancing_links_are_caught(tiling_instance, corrupt, found):
    search = _dlx_midway(tiling_instance)
    corrupt(search)
    with pytest.raises(sanity.SanityError, match=found):
        dlx_sanity.check(search.llink, search.rlink, search.length, search.top, search.ulink,
                         search.dlink, search.n_primary)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(puzzles(), st.sampled_from(["f", "e:f=2", "s"]))
def test_fila_checked_at_every_node_counts_the_same(monkeypatch, puzzle, heuristic):
    plain, checked, calls = _checked(
        monkeypatch, fila_sanity.NAME,
        lambda: fila.solve_tiling(puzzle, heuristic=heuristic, count_only=True))
    assert (checked.count, checked.stats.nodes, checked.stats.attempts) == \
        (plain.count, plain.stats.nodes, plain.stats.attempts)
    # A check after every placement but those that complete a solution.
    assert calls >= max(1, plain.stats.nodes - plain.count)


def test_the_hybrid_s_fila_part_is_checked_too(monkeypatch, tiling_instance):
    puzzle = tiling_instance("pentominoes_20x3.txt")
    plain, checked, calls = _checked(
        monkeypatch, fila_sanity.NAME,
        lambda: solve(puzzle, engine="hybrid", fila_at=6, heuristic="s:e=6:f=2",
                      count_only=True))
    assert (checked.count, checked.stats.nodes) == (plain.count, plain.stats.nodes)
    assert checked.count == 2 and calls > 0          # the 20 x 3's two tilings


def _fila_midway(tiling_instance):
    """A FILA search of the 20 x 3 pentominoes with E above F, stopped 8 levels down."""
    puzzle = tiling_instance("pentominoes_20x3.txt")
    plan = fila.FilaPlan.build(puzzle, fila.parse_schedule("e:f=3", fila.FILA_LETTERS))
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
    search = fila.FilaSearch(problem.n_pieces, store=False)
    search.load(problem)
    search.stop_at(8)
    search.step(1 << 20, 1 << 20)
    assert search.at_stop and search.level == 8
    search._check()
    return search


def _fill_an_open_cell(s):
    w = s.problem.words
    s.occ_stack[s.level * w] |= np.uint64(1) << np.uint64(int(np.argmin(
        [(int(s.occ_stack[s.level * w]) >> c) & 1 for c in range(64)])))


def _give_back_a_piece(s):
    s.left[int(np.flatnonzero(s.left == 0)[0])] += 1


def _lose_a_shape_with_pieces_left(s):
    s.state[fila_layout.ST_AVAIL] &= ~(1 << int(np.flatnonzero(s.left > 0)[0]))


def _swap_the_last_image(s):
    s.chosen[s.level - 1] = s.chosen[s.level - 2]


def _miscount_open_neighbours(s):
    w = s.problem.words
    s.planes[s.level * 3 * w] ^= ~s.occ_stack[s.level * w]      # every open cell's low bit


@pytest.mark.parametrize("corrupt, found", [
    (_fill_an_open_cell, "occupancy on entering level 8"), (_give_back_a_piece, "left"),
    (_lose_a_shape_with_pieces_left, "ST_AVAIL"), (_swap_the_last_image, "covers occupied"),
    (_miscount_open_neighbours, "open neighbours")])
def test_a_corrupted_fila_occupancy_is_caught(tiling_instance, corrupt, found):
    search = _fila_midway(tiling_instance)
    corrupt(search)
    with pytest.raises(sanity.SanityError, match=found):
        search._check()


def test_a_corrupted_occupancy_stops_a_checked_fila_search(monkeypatch, tiling_instance):
    search = _fila_midway(tiling_instance)
    search.stop_at(-1)
    _give_back_a_piece(search)
    monkeypatch.setenv("CPKIT_SANITY", "1")
    with pytest.raises(sanity.SanityError, match="left"):
        search.step(1 << 20, 10)
