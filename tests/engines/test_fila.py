"""FILA alone: published counts and statistics, agreement with DLX (same search tree under the
same fill order) and CP-SAT, the NOF invariant, every heuristic, multi-word occupancies, and
resuming."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.errors import EngineUnavailable, InputError
from cpkit.models.tiling import Piece, Puzzle
from cpkit.result import LIMIT, verify_tiling
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.tiling.fila import fila_search as fila
from cpkit.engines.dispatch import solve
from cpkit.engines.tiling.tiling_heuristics import FILA_LETTERS, parse_schedule
from tests.strategies import puzzles

pytestmark = pytest.mark.kernel

HEURISTICS = ["f", "x", "y", "z", "r", "a@160", "e", "s", "e:f=3", "x:e=4:f=2", "s:y=3"]


def fila_search(puzzle: Puzzle, heuristic: str = "f", nof: bool = True,
                words: int | None = None, keep: np.ndarray | None = None) -> fila.FilaSearch:
    """A complete FILA search of the whole puzzle, with the stacks open to inspection."""
    plan = fila.FilaPlan.build(puzzle, parse_schedule(heuristic, FILA_LETTERS), nof)
    ids = np.flatnonzero(keep) if keep is not None else np.arange(len(puzzle.images))
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8), ids,
                                   fila.shape_counts(puzzle), words=words)
    search = fila.FilaSearch(problem.n_pieces, store=False)
    search.load(problem)
    while not search.step(1 << 40, 1 << 30)[0]:
        pass
    return search


@pytest.mark.parametrize("name, raw", [
    ("pentominoes_20x3.txt", 8),
    ("somacube.txt", 11520),
    ("pentominoes_10x6.txt", 9356),
])
def test_published_raw_counts(tiling_instance, name, raw):
    result = fila.solve_tiling(tiling_instance(name), count_only=True)
    assert result.complete and result.count == raw


def test_f_without_nof_makes_de_bruijns_published_attempts_and_fits(tiling_instance):
    """Busche's Table 2, row P-4: de Bruijn's algorithm on the raw 10x6 (every image tried at
    the lowest open cell, POF being the de Bruijn/Fletcher trick) makes 178,983,597 attempts
    and 25,848,915 fits.  FILA with F and no NOF is that search."""
    result = fila.solve_tiling(tiling_instance("pentominoes_10x6.txt"), heuristic="f",
                               nof=False, count_only=True)
    assert result.count == 9356
    assert result.stats.attempts == 178_983_597
    assert result.stats.fits == 25_848_915


def test_solutions_are_valid_and_distinct(tiling_instance):
    puzzle = tiling_instance("pentominoes_20x3.txt")
    for heuristic in ("f", "e", "s"):
        result = fila.solve_tiling(puzzle, heuristic=heuristic)
        assert len(result.solutions) == 8
        assert all(verify_tiling(puzzle, t) == [] for t in result.solutions)
        assert len({t.placements for t in result.solutions}) == 8


@pytest.mark.parametrize("heuristic", HEURISTICS)
@pytest.mark.parametrize("nof", [True, False])
def test_every_heuristic_finds_every_solution(tiling_instance, heuristic, nof):
    result = fila.solve_tiling(tiling_instance("somacube.txt"), heuristic=heuristic, nof=nof,
                               count_only=True)
    assert result.count == 11520


@pytest.mark.parametrize("heuristic", ["f", "e:f=3", "s", "x:r=3"])
def test_wider_occupancies_search_the_same_tree(tiling_instance, heuristic):
    """The 2-, 3- and 4-word kernels make exactly the 1-word kernel's attempts and fits."""
    puzzle = tiling_instance("somacube.txt")
    one = fila_search(puzzle, heuristic)
    for words in (2, 3, 4):
        wide = fila_search(puzzle, heuristic, words=words)
        assert wide.solutions == one.solutions == 11520
        assert np.array_equal(wide.attempts, one.attempts)
        assert np.array_equal(wide.fits, one.fits)


@pytest.mark.parametrize("name", ["somacube.txt", "pentominoes_20x3.txt"])
def test_f_fits_equal_strict_dlx_fits_level_by_level(tiling_instance, name):
    """FILA's F and DLX's strict first-hole order ``f!`` target the same cell at every node and
    place the same images there: the same search tree, so the same fits at every level."""
    puzzle = tiling_instance(name)
    for nof in (True, False):
        f = fila.solve_tiling(puzzle, heuristic="f", nof=nof, count_only=True)
        d = dlx.solve_tiling(puzzle, heuristic="f!", count_only=True)
        assert f.stats.fits_by_remaining == d.stats.fits_by_remaining
        assert f.count == d.count


@pytest.mark.parametrize("name, heuristic", [
    ("somacube.txt", "f"), ("somacube.txt", "e"), ("somacube.txt", "s"),
    ("somacube.txt", "e:f=3"), ("somacube.txt", "r"),
    ("pentominoes_20x3.txt", "f"), ("pentominoes_20x3.txt", "e:f=4"),
])
def test_nof_keeps_fits_and_lowers_no_fits(tiling_instance, name, heuristic):
    """The invariant: NOF only drops images that meet an occupied face neighbour of the target,
    which never fit, and E/S choose by exact fit counts, so the search tree is unchanged: fits
    are equal at every level, attempts (hence no-fits) never higher at any level, and on these
    puzzles strictly fewer in total."""
    puzzle = tiling_instance(name)
    on = fila_search(puzzle, heuristic, nof=True)
    off = fila_search(puzzle, heuristic, nof=False)
    assert on.solutions == off.solutions
    assert np.array_equal(on.fits, off.fits)
    assert np.all(on.attempts <= off.attempts)
    assert on.attempts.sum() - on.fits.sum() < off.attempts.sum() - off.fits.sum()


def test_resuming_in_tiny_slices_changes_nothing(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    for heuristic in ("f", "e:f=3"):
        whole = fila_search(puzzle, heuristic)
        plan = fila.FilaPlan.build(puzzle, parse_schedule(heuristic, FILA_LETTERS))
        problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                       np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
        sliced = fila.FilaSearch(problem.n_pieces, store=True, buffer=5)
        sliced.load(problem)
        while not sliced.step(1 << 40, 61)[0]:
            pass
        assert sliced.solutions == len(sliced.found) == 11520
        assert len({tuple(sorted(s)) for s in sliced.found}) == 11520
        assert np.array_equal(sliced.attempts, whole.attempts)
        assert np.array_equal(sliced.fits, whole.fits)



@pytest.mark.parametrize("heuristic", ["f", "e:f=3"])
def test_a_stopped_search_counts_the_images_it_has_tried(tiling_instance, heuristic):
    """Attempts are counted a list at a time, when the list is entered; a search stopped by
    its node budget takes off the untried rest of each list in progress and puts it back
    when it resumes.  So the figures at a stop do not depend on how the search got there:
    in one call or in slices of 7 nodes, stopped after as many nodes, they are the same,
    and the first search's attempts at each level grow from stop to stop up to the
    whole search's."""
    puzzle = tiling_instance("somacube.txt")
    plan = fila.FilaPlan.build(puzzle, parse_schedule(heuristic, FILA_LETTERS))
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle))

    def search() -> fila.FilaSearch:
        out = fila.FilaSearch(problem.n_pieces, store=False)
        out.load(problem)
        return out

    whole = fila_search(puzzle, heuristic)
    sliced, before = search(), np.zeros_like(whole.attempts)
    for nodes in (100, 1_000, 5_000):
        at_once = search()
        at_once.step(1 << 40, nodes)
        while sliced.nodes < nodes:
            sliced.step(1 << 40, min(7, nodes - sliced.nodes))
        assert np.array_equal(sliced.attempts, at_once.attempts)
        assert np.array_equal(sliced.fits, at_once.fits)
        assert np.all(before <= sliced.attempts) and np.all(sliced.attempts <= whole.attempts)
        assert np.all(sliced.fits <= sliced.attempts)
        before = sliced.attempts.copy()

def open_neighbour_counts(search: fila.FilaSearch, level: int) -> dict[int, int]:
    """Each hole's count of open neighbours as the planes of ``level`` hold it."""
    pr = search.problem
    W = pr.words
    planes = search.planes[level * 3 * W:(level + 1) * 3 * W]
    occ = search.occ_stack[level * W:(level + 1) * W]
    counts = {}
    for v in range(pr.n_cells):
        w, bit = divmod(v, 64)
        if not (int(occ[w]) >> bit) & 1:
            counts[v] = sum(((int(planes[b * W + w]) >> bit) & 1) << b for b in range(3))
    return counts


@pytest.mark.parametrize("name, heuristic, words", [
    ("somacube.txt", "e:f=2", None), ("tetriscube.txt", "s:e=5:f=3", None),
    ("pentominoes_2x3x10.txt", "e", 2),
])
def test_open_neighbour_counts_follow_the_search(tiling_instance, name, heuristic, words):
    """E reads each hole's open neighbours from bit planes the search updates as it places
    images (and restores by level as it backtracks): at every node among the first 3,000
    one at a time, where E reads them, they equal a count from the occupancy, for every
    hole."""
    puzzle = tiling_instance(name)
    plan = fila.FilaPlan.build(puzzle, parse_schedule(heuristic, FILA_LETTERS))
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle),
                                   words=words)
    W = problem.words
    neighbours = [[u for u in range(problem.n_cells)
                   if (int(problem.nbmask[v * W + u // 64]) >> (u % 64)) & 1]
                  for v in range(problem.n_cells)]
    search = fila.FilaSearch(problem.n_pieces, store=False)
    search.load(problem)
    checked = 0
    for _ in range(3000):
        level = search.level
        if level < problem.n_pieces and \
                problem.heur_kind[problem.heur_of_level[level]] == fila.L.HK_NEIGHBOURS:
            counts = open_neighbour_counts(search, level)
            assert counts == {v: sum(u in counts for u in neighbours[v]) for v in counts}
            checked += 1
        if search.step(1 << 40, 1)[0]:
            break
    assert checked > 300



@pytest.mark.parametrize("box, cells, checks", [
    # A P-pentomino region in a 2 x 3 box: (0, 2) alone has the fewest open neighbours (one).
    ((2, 3, 1), ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 2, 0)), False),
    # A 1 x 5 strip: both ends have one.
    ((5, 1, 1), ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)), True),
])
def test_e_counts_fits_only_to_choose_between_cells(box, cells, checks):
    """E's fit counts decide between the holes with the fewest open neighbours; a lone such
    hole is the target whatever its count, and counting would only scan the lists the search
    then scans: the root's choice makes fit checks only where two holes tie."""
    outside = tuple(c for c in np.ndindex(*box) if c not in cells)
    pieces = [Piece("d", ((0, 0, 0), (1, 0, 0))), Piece("t", ((0, 0, 0), (1, 0, 0), (2, 0, 0)))]
    puzzle = Puzzle(pieces + ([Piece("*", outside, True)] if outside else []), box=box)
    plan = fila.FilaPlan.build(puzzle, parse_schedule("e", FILA_LETTERS), True)
    problem = fila.compile_problem(puzzle, plan, np.ones(puzzle.n_cells, dtype=np.uint8),
                                   np.arange(len(puzzle.images)), fila.shape_counts(puzzle))
    search = fila.FilaSearch(problem.n_pieces, store=False)
    search.load(problem)
    search.step(1 << 40, 1)                 # the root's choice and one placement
    assert (search.heuristic_checks > 0) == checks
    assert fila.solve_tiling(puzzle, heuristic="e").count == \
        dlx.solve_tiling(puzzle, count_only=True).count > 0

def test_limit_and_time_limit(tiling_instance):
    puzzle = tiling_instance("pentominoes_10x6.txt")
    result = fila.solve_tiling(puzzle, limit=5)
    assert result.count == len(result.solutions) == 5
    assert not result.complete and result.stop_reason == LIMIT
    partial = fila.solve_tiling(puzzle, count_only=True, time_limit=0.2)
    assert not partial.complete and partial.count < 9356


def test_repeated_and_stationary_pieces():
    """Identical pieces are never permuted (each tiling once) and stationary pieces only shape
    the region: four L-trominoes and a stationary 2x2 in a 4x4 square, as DLX counts it."""
    l3 = ((0, 0, 0), (1, 0, 0), (0, 1, 0))
    hole = Piece("*", ((1, 1, 0), (2, 1, 0), (1, 2, 0), (2, 2, 0)), True)
    puzzle = Puzzle([Piece(f"L{k}", l3) for k in range(4)] + [hole], box=(4, 4, 1))
    expected = dlx.solve_tiling(puzzle, count_only=True).count
    assert expected > 0
    for heuristic in ("f", "e", "s"):
        result = fila.solve_tiling(puzzle, heuristic=heuristic)
        assert result.count == expected
        assert all(verify_tiling(puzzle, t) == [] for t in result.solutions)


def test_redundancy_filter_restricted_images(tiling_instance):
    """Through the front: images restricted by the volume and redundancy filters."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    assert solve(puzzle, engine="fila", count_only=True).count == 2339
    assert solve(tiling_instance("somacube.txt"), engine="fila", unique="mirror",
                 count_only=True).count == 240


def test_too_many_cells_is_a_clear_error():
    domino = ((0, 0, 0), (1, 0, 0))
    puzzle = Puzzle([Piece(f"d{k}", domino) for k in range(130)], box=(20, 13, 1))
    with pytest.raises(EngineUnavailable, match="at most 256 open cells"):
        fila.solve_tiling(puzzle, count_only=True)


def test_engine_letters_are_checked(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    with pytest.raises(InputError, match="not available to DLX"):
        dlx.solve_tiling(puzzle, heuristic="e")
    with pytest.raises(InputError, match="bad heuristic"):
        fila.solve_tiling(puzzle, heuristic="q")


def test_images_outside_the_open_cells_are_ignored(tiling_instance):
    """The list builder never trusts its caller: images that leave the open cells, or whose
    shape has no piece left, never enter a list."""
    puzzle = tiling_instance("somacube.txt")
    plan = fila.FilaPlan.build(puzzle, parse_schedule("f", FILA_LETTERS))
    is_open = np.ones(puzzle.n_cells, dtype=np.uint8)
    is_open[:3] = 0
    left = fila.shape_counts(puzzle)
    left[0] = 0
    problem = fila.compile_problem(puzzle, plan, is_open, np.arange(len(puzzle.images)), left)
    img = puzzle.images
    for i in problem.limg:
        assert img.shape[i] != 0 and not np.any(np.isin(img.cells_of(i), [0, 1, 2]))


@settings(max_examples=40)
@given(puzzles(), st.sampled_from(HEURISTICS), st.booleans(), st.sampled_from([1, 1, 2, 4]))
def test_random_puzzles_match_dlx(puzzle, heuristic, nof, words):
    expected = dlx.solve_tiling(puzzle, count_only=True).count
    search = fila_search(puzzle, heuristic, nof=nof, words=words)
    assert search.solutions == expected


@settings(max_examples=25)
@given(puzzles(), st.sampled_from(["raw", "rotation"]), st.sampled_from(["f", "e:f=2", "s"]))
def test_random_puzzles_through_the_front_match_dlx(puzzle, unique, heuristic):
    expected = solve(puzzle, engine="dlx", unique=unique, count_only=True).count
    got = solve(puzzle, engine="fila", unique=unique, heuristic=heuristic, count_only=True)
    assert got.count == expected


@settings(max_examples=10)
@given(puzzles(max_cells=10))
def test_random_puzzles_match_cpsat(puzzle):
    expected = solve(puzzle, engine="cpsat", unique="raw", count_only=True).count
    assert solve(puzzle, engine="fila", unique="raw", count_only=True).count == expected


@settings(max_examples=40, deadline=None)
@given(puzzles(max_cells=12), st.sampled_from(["f", "e", "s", "e:f=2", "x:s=3", "r"]),
       st.booleans(), st.data())
def test_each_image_list_holds_the_images_its_set_stands_for(puzzle, heuristic, nof, data):
    """The lists ``build_lists`` compiles, against their definition: for heuristic ``h``,
    cell ``v`` and compact ILSI ``z``, the list of shape ``q`` holds, in image order, the
    usable images of that shape whose target under ``h`` is ``v`` (under POF their first
    cell in ``h``'s order, else any of their cells) and that cover none of ``v``'s unknown
    neighbours that ``z`` marks occupied; ``nonempty`` marks the lists that hold any."""
    plan = fila.FilaPlan.build(puzzle, parse_schedule(heuristic, FILA_LETTERS), nof)
    n = puzzle.n_cells
    is_open = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), np.uint8)
    is_open[data.draw(st.integers(0, n - 1))] = 1
    ids = np.flatnonzero(data.draw(st.lists(st.booleans(), min_size=len(puzzle.images),
                                            max_size=len(puzzle.images))))
    pr = fila.compile_problem(puzzle, plan, is_open, ids, fila.shape_counts(puzzle))
    img, V, Q = puzzle.images, pr.n_cells, max(pr.n_shapes, 1)
    local = {int(c): v for v, c in enumerate(pr.cells)}
    shapes = [g for g, k in enumerate(fila.shape_counts(puzzle)) if k > 0]
    cells_of = {int(i): [int(c) for c in img.cell_idx[img.cell_ptr[i]:img.cell_ptr[i + 1]]]
                for i in ids}
    usable = [i for i, cs in cells_of.items() if all(is_open[c] for c in cs)]
    for h in range(len(plan.kinds)):
        for v in range(V):
            row = pr.ilsi[(h * V + v) * fila.L.IL_SIZE:(h * V + v + 1) * fila.L.IL_SIZE]
            unknown = [int(pr.cells[u]) for u in row[fila.L.IL_NB:fila.L.IL_NB + row[fila.L.IL_N]]]
            for z in range(1 << len(unknown)):
                occupied = {c for t, c in enumerate(unknown) if z >> t & 1}
                st_ = row[fila.L.IL_FIRST] + z
                for q, g in enumerate(shapes):
                    want = [i for i in usable
                            if img.shape[i] == g and not occupied & set(cells_of[i])
                            and (plan.pof_first[h, i] == pr.cells[v] if plan.pof[h]
                                 else int(pr.cells[v]) in cells_of[i])]
                    got = pr.limg[pr.lptr[st_ * Q + q]:pr.lptr[st_ * Q + q + 1]]
                    assert list(got) == want
                    assert bool(pr.nonempty[st_] >> q & 1) == bool(want)
                    for e, i in zip(range(pr.lptr[st_ * Q + q], pr.lptr[st_ * Q + q + 1]), want):
                        mask = sum(1 << local[c] for c in cells_of[i])
                        words = pr.lmask[e * pr.words:(e + 1) * pr.words]
                        assert sum(int(w) << (64 * k) for k, w in enumerate(words)) == mask
