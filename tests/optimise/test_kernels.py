"""The optimiser's kernels against the reference scorer and against brute force: board scores
equal ``score_board``'s, the row scan finds the solutions of solvable boards and reports every
board with the breaks it has, and resuming a sliced search repeats the unsliced one."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cpkit.models.board import EMPTY, Board
from cpkit.models.em_generator import plant
from cpkit.models.score import score_board
from cpkit.optimise import _board_kernel as board_kernel
from cpkit.optimise import _scan_kernel as scan
from cpkit.optimise import favour
from cpkit.optimise._rng import new_state
from cpkit.optimise.assignment import reassign, reassign_holes
from cpkit.optimise.neighbourhoods import Lists, refill_region, run_scan
from cpkit.optimise.schedule import Schedule
from cpkit.optimise.tables import compile_tables

pytestmark = pytest.mark.kernel


def planted(size=5, seed=3, border=2, inner=3):
    puzzle, solution = plant(size, border_colours=border, inner_colours=inner, seed=seed)
    tables = compile_tables(puzzle)
    return puzzle, tables, tables.orientations(Board.of(solution))


def shuffled_board(tables, solution, rng):
    """A full board that keeps the frame rule: the solution's tiles permuted within their kind
    (corner, edge, inner) and each turned to a rotation its new cell allows."""
    board = solution.copy()
    for kind in range(3):
        cells = np.flatnonzero(tables.kind[solution >> 2] == kind)
        tiles = (solution[cells] >> 2)[rng.permutation(cells.size)]
        for c, t in zip(cells, tiles):
            cls = tables.cell_class[c]
            allowed = tables.allowed[tables.allowed_start[cls]:tables.allowed_start[cls + 1]]
            options = [o for o in allowed if o >> 2 == t] or [4 * t]
            board[c] = options[rng.integers(len(options))]
    return board


@pytest.mark.parametrize("seed", range(6))
def test_board_scores_are_the_reference_scores(seed):
    puzzle, tables, solution = planted(6, seed)
    rng = np.random.default_rng(seed)
    board = shuffled_board(tables, solution, rng)
    board[rng.random(board.size) < 0.3] = EMPTY          # partial boards count too
    reference = score_board(puzzle, tables.board(board))
    assert board_kernel.matched_edges(tables.colour, tables.neighbour, board) == reference.score
    everywhere = np.ones(board.size, dtype=np.int32)
    assert board_kernel.breaks_touching(tables.colour, tables.neighbour, board, everywhere) == \
        len(reference.mismatches)
    per_cell = np.zeros(board.size, dtype=np.int32)
    board_kernel.cell_breaks(tables.colour, tables.neighbour, board, per_cell)
    assert per_cell.sum() == 2 * len(reference.mismatches)


def test_a_solution_scores_the_maximum():
    puzzle, tables, solution = planted(7, 1)
    assert board_kernel.matched_edges(tables.colour, tables.neighbour, solution) == \
        tables.inner_edges == score_board(puzzle, tables.board(solution)).max_score


def scan_all(tables, order, limit, cap, holes, budget, seed=0):
    """Every board the scan reports until its tree is exhausted, with ``budget`` placements
    a call."""
    lists = Lists(tables)
    lists.shuffle(tables, new_state(seed))
    board = np.empty(tables.n_cells, dtype=np.int32)
    used = np.zeros(tables.n_tiles, dtype=np.int32)
    best = np.empty_like(board)
    state = scan.new_state(order.size, cap)
    scan.reset(tables.fixed, board, used, state["st"], state["brk"])
    found = []
    while True:
        status = run_scan(tables, lists, order, limit, board, used, state, best, budget, holes)
        if status == scan.FOUND:
            found.append(best.copy())
        elif status == scan.EXHAUSTED:
            return found, int(state["st"][scan.S_NODES])


@pytest.mark.parametrize("seed", range(4))
def test_the_scan_without_breaks_finds_a_solution_of_a_solvable_board(seed):
    puzzle, tables, _ = planted(5, seed)
    order = np.flatnonzero(tables.fixed < 0).astype(np.int32)
    found, _ = scan_all(tables, order, np.zeros(order.size, np.int32), 0, False, 10**9)
    assert found
    assert score_board(puzzle, tables.board(found[0])).score == tables.inner_edges


def test_sliced_scans_repeat_the_whole_scan():
    """The kernel stops at any node budget and goes on where it stopped: the boards found and
    the nodes made do not depend on the slicing."""
    puzzle, tables, _ = planted(4, 2, border=2, inner=2)
    order = np.flatnonzero(tables.fixed < 0).astype(np.int32)
    limit = Schedule(total=6, start=0.3, power=1.0).limits(order, tables.n_cells)
    whole = scan_all(tables, order, limit, 1 << 20, False, 10**9)
    sliced = scan_all(tables, order, limit, 1 << 20, False, 7)
    assert whole[1] == sliced[1] and len(whole[0]) == len(sliced[0]) >= 1
    assert all(np.array_equal(a, b) for a, b in zip(*[whole[0], sliced[0]]))


@pytest.mark.parametrize("holes", [False, True])
def test_every_board_reported_has_the_breaks_the_schedule_allowed(holes):
    """A board reported with ``b`` breaks (holes) scores ``max - b``, by the reference scorer,
    and each is strictly better than the one before (the cap drops below each)."""
    puzzle, tables, _ = planted(5, 9, inner=4)
    order = np.flatnonzero(tables.fixed < 0).astype(np.int32)
    limit = np.full(order.size, 6, dtype=np.int32)
    found, _ = scan_all(tables, order, limit, 6, holes, 1000)
    scores = []
    for board in found:
        ref = score_board(puzzle, tables.board(board))
        if holes:
            assert not ref.mismatches
            scores.append(ref.tiles_placed)
        else:
            assert ref.tiles_placed == tables.n_cells
            scores.append(ref.score)
    assert scores == sorted(set(scores)) and scores[-1] == (tables.n_cells if holes
                                                            else tables.inner_edges)


def best_permutation(tables, board, cells):
    """The most matched edges over every way to put the tiles of ``cells`` back (brute
    force: each permutation, each tile at its best rotation)."""
    tiles = board[cells] >> 2
    best = -1
    for perm in itertools.permutations(range(cells.size)):
        trial = board.copy()
        for c, k in zip(cells, perm):
            options = [4 * tiles[k] + r for r in range(4)]
            scored = []
            for o in options:
                trial[c] = o
                if not _frame_ok(tables, c, o):
                    continue
                scored.append((board_kernel.matched_edges(tables.colour, tables.neighbour,
                                                          trial), o))
            if not scored:
                break
            trial[c] = max(scored)[1]
        else:
            best = max(best, board_kernel.matched_edges(tables.colour, tables.neighbour, trial))
    return best


def _frame_ok(tables, cell, o):
    return all((tables.neighbour[cell, s] < 0) == (tables.colour[o, s] == 0) for s in range(4))


@pytest.mark.parametrize("seed", range(5))
def test_the_assignment_refill_is_optimal(seed):
    puzzle, tables, solution = planted(6, seed, inner=4)
    rng = np.random.default_rng(seed)
    board = shuffled_board(tables, solution, rng)
    inner = [c for c in range(tables.n_cells) if tables.cell_class[c] == 4]
    cells = []
    for c in rng.permutation(inner):
        if all(tables.neighbour[c, s] not in cells for s in range(4)):
            cells.append(int(c))
        if len(cells) == 5:
            break
    cells = np.array(cells, dtype=np.int64)
    expected = best_permutation(tables, board, cells)
    before = board_kernel.matched_edges(tables.colour, tables.neighbour, board)
    gain = reassign(tables.colour, tables.neighbour, board, cells, new_state(seed))
    after = board_kernel.matched_edges(tables.colour, tables.neighbour, board)
    assert after == expected == before + gain
    assert sorted(board >> 2) == list(range(tables.n_tiles))


def test_the_holes_assignment_fills_every_hole_of_a_solution():
    puzzle, tables, solution = planted(6, 2, inner=4)
    board = solution.copy()
    cells = np.array([7, 9, 14, 16, 21], dtype=np.int64)        # inner, pairwise apart
    spare = board[cells] >> 2
    board[cells] = EMPTY
    gain = reassign_holes(tables.colour, tables.neighbour, board, cells, spare, new_state(1))
    assert gain == cells.size and (board >= 0).all()
    assert not score_board(puzzle, tables.board(board)).mismatches


def test_a_region_refill_restores_a_damaged_solution():
    puzzle, tables, solution = planted(6, 4, inner=4)
    board = solution.copy()
    region = np.array([r * 6 + c for r in range(1, 4) for c in range(1, 4)], dtype=np.int32)
    board[region[0]], board[region[4]] = board[region[4]], board[region[0]]
    assert score_board(puzzle, tables.board(board)).score < tables.inner_edges
    refilled, gain = refill_region(tables, Lists(tables), board, region, 10**6, False)
    assert gain > 0
    assert score_board(puzzle, tables.board(refilled)).score == tables.inner_edges


def test_a_restored_worker_goes_on_as_the_stopped_one():
    """A worker's snapshot holds its whole state: restored into a new worker, the same slices
    of scan and the same moves give the same boards and figures."""
    from cpkit.optimise import anytime
    from cpkit.optimise.anytime import Anytime, Config

    puzzle = plant(8, border_colours=2, inner_colours=5, seed=7)[0]
    config = Config(stuck_nodes=2_000, restart_nodes=20_000)
    first = Anytime(puzzle, "edges", 5, config)
    saved_slice = anytime.SLICE_NODES
    anytime.SLICE_NODES = 500
    try:
        for _ in range(40):
            first._scan_slice()
        second = Anytime(puzzle, "edges", 99, config)
        second.restore(first.snapshot())
        for worker in (first, second):
            for k in range(60):
                worker._scan_slice()
                if k % 7 == 0 and worker.best is not None:
                    worker._move()
    finally:
        anytime.SLICE_NODES = saved_slice
    assert first.report() == second.report()
    assert np.array_equal(first.best, second.best)
    assert np.array_equal(first.board, second.board)


def test_a_seed_replays_exactly_on_a_placements_budget():
    """With the split between scan and moves counted in work (``pace`` "work"), two workers of
    one seed given the same placements budget make the same moves and end on the same board,
    however long each slice took (with ``pace`` "clock" such runs part within a second)."""
    from cpkit.optimise import anytime
    from cpkit.optimise.anytime import Anytime, Config

    puzzle = plant(12, border_colours=3, inner_colours=8, seed=11)[0]
    config = Config(stuck_nodes=5_000, restart_nodes=100_000, pace="work")
    saved_slice = anytime.SLICE_NODES
    anytime.SLICE_NODES = 2_000
    try:
        workers = [Anytime(puzzle, "edges", 4, config) for _ in range(2)]
        for worker in workers:
            worker.run(float("inf"), nodes=400_000)
    finally:
        anytime.SLICE_NODES = saved_slice
    first, second = (w.report() for w in workers)
    assert first["moves"] > 0 and first["nodes"] >= 400_000
    for key in ("score", "nodes", "moves", "restarts", "boards", "gains"):
        assert first[key] == second[key], key
    assert np.array_equal(workers[0].best, workers[1].best)
    assert np.array_equal(workers[0].board, workers[1].board)


@pytest.mark.parametrize("tighten", ["total", "start"])
def test_a_schedule_aims_lower_after_a_better_board(tighten):
    """Aiming at fewer breaks never allows more by any cell, scales the breaks allowed by the
    last cell, and (``tighten`` "start") shrinks the break zone by the same ratio."""
    order = np.arange(256, dtype=np.int32)
    before = Schedule(total=30.0, start=0.70, power=1.7, tighten=tighten)
    after = before.aiming_at(20, 30)
    old, new = before.limits(order, 256), after.limits(order, 256)
    assert np.all(new <= old) and np.all(np.diff(new) >= 0)
    assert old[-1] == 30 and new[-1] == 20
    first = np.flatnonzero(new > 0)[0]
    if tighten == "start":
        assert after.start == pytest.approx(1 - 0.30 * 20 / 30)
        assert first >= int(after.start * 256)
    else:
        assert after.start == before.start and first >= np.flatnonzero(old > 0)[0]


@pytest.mark.parametrize("seed", range(4))
def test_the_scan_keeps_to_the_favoured_ramp(seed):
    """With a minimum of favoured sides by each depth (the planted solution's own counts, so
    that a board meets it), the scan without breaks still finds a solution, and every board
    it reports has placed at least the minimum by every depth: the sorted lists' early end
    (the first candidate short of the minimum ends its list) loses nothing."""
    puzzle, tables, solution = planted(6, seed, border=2, inner=4)
    order = np.flatnonzero(tables.fixed < 0).astype(np.int32)
    colours = favour.favoured_colours(tables)
    assert colours
    lists = Lists(tables)
    lists.fav = favour.favoured_sides(tables, colours)
    lists.shuffle(tables, new_state(seed))
    board = np.empty(tables.n_cells, dtype=np.int32)
    used = np.zeros(tables.n_tiles, dtype=np.int32)
    best = np.empty_like(board)
    state = scan.new_state(order.size, 0)
    state["fav_min"][:-1] = np.cumsum(lists.fav[solution[order]])
    scan.reset(tables.fixed, board, used, state["st"], state["brk"])
    found = []
    while True:
        status = run_scan(tables, lists, order, np.zeros(order.size, np.int32), board, used,
                          state, best, 1000, False)
        if status == scan.FOUND:
            found.append(best.copy())
        elif status == scan.EXHAUSTED:
            break
    assert found
    for b in found:
        assert score_board(puzzle, tables.board(b)).score == tables.inner_edges
        assert (np.cumsum(lists.fav[b[order]]) >= state["fav_min"][:-1]).all()


@pytest.mark.parametrize("seed", range(4))
def test_boards_with_breaks_meet_the_favoured_ramp(seed):
    """Boards with breaks under the optimiser's ramp: every one reported has placed the
    minimum of favoured sides by every depth (the lists shuffled but not sorted, so that
    the boards found first would fall short of it)."""
    puzzle, tables, _ = planted(7, seed, border=3, inner=5)
    order = np.flatnonzero(tables.fixed < 0).astype(np.int32)
    lists = Lists(tables)
    lists.shuffle(tables, new_state(seed))
    lists.fav = favour.favoured_sides(tables, favour.favoured_colours(tables))
    board = np.empty(tables.n_cells, dtype=np.int32)
    used = np.zeros(tables.n_tiles, dtype=np.int32)
    best = np.empty_like(board)
    state = scan.new_state(order.size, 12)
    state["fav_min"][:] = favour.ramp(tables, order, lists.fav, 0.7)
    scan.reset(tables.fixed, board, used, state["st"], state["brk"])
    limit = np.full(order.size, 12, dtype=np.int32)
    found = []
    while len(found) < 5:
        status = run_scan(tables, lists, order, limit, board, used, state, best, 1000, False)
        if status == scan.FOUND:
            found.append(best.copy())
        elif status == scan.EXHAUSTED or state["st"][scan.S_NODES] > 2_000_000:
            break
    assert found
    for b in found:
        assert (np.cumsum(lists.fav[b[order]]) >= state["fav_min"][:-1]).all()
