"""The exact refill (CP-SAT) against brute force and the reference scorer: its answer is the best
arrangement of the region's tiles, it never lowers a board's score, the board stays a
permutation of the tiles with the hinted tiles in place."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cpkit.models.edge_matching import Hint
from cpkit.models.score import score_board
from cpkit.optimise import _board_kernel as board_kernel
from cpkit.optimise.anytime import Anytime, Config
from cpkit.optimise.exact import refill_exact
from cpkit.optimise.tables import compile_tables

from .test_kernels import planted, shuffled_board


def best_arrangement(tables, board, cells):
    """The most matched edges of ``board`` over every placement of the tiles of ``cells`` in
    them, each in every rotation that keeps grey exactly towards the frame (brute force)."""
    best = -1
    tiles = board[cells] >> 2
    trial = board.copy()
    for perm in itertools.permutations(tiles.tolist()):
        options = []
        for c, t in zip(cells, perm):
            cls = tables.cell_class[c]
            allowed = tables.allowed[tables.allowed_start[cls]:tables.allowed_start[cls + 1]]
            options.append([o for o in allowed if o >> 2 == t])
        for chosen in itertools.product(*options):
            trial[cells] = chosen
            best = max(best, int(board_kernel.matched_edges(tables.colour, tables.neighbour,
                                                            trial)))
    return best


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("corner", [False, True])
def test_the_exact_refill_is_the_best_arrangement(seed, corner):
    """A 2 x 2 region of a shuffled board (in the middle, or in a corner: a corner, two edge
    cells and an inner cell, whose tiles cannot change places): CP-SAT's answer scores what
    brute force finds best, and the reference scorer agrees."""
    puzzle, tables, solution = planted(5, seed, inner=4)
    board = shuffled_board(tables, solution, np.random.default_rng(seed))
    top = 0 if corner else 1
    cells = np.array([r * 5 + c for r in (top, top + 1) for c in (top, top + 1)])
    before = score_board(puzzle, tables.board(board)).score
    outcome = refill_exact(tables, board, cells, 10.0, seed)
    assert outcome.optimal
    after = score_board(puzzle, tables.board(outcome.board)).score
    assert after == best_arrangement(tables, board, cells) >= before
    assert after - before == outcome.after - outcome.before
    assert np.array_equal(np.delete(outcome.board, cells), np.delete(board, cells))
    assert sorted(outcome.board >> 2) == list(range(tables.n_tiles))


def test_an_exact_refill_restores_a_damaged_solution():
    puzzle, tables, solution = planted(6, 4, inner=4)
    board = solution.copy()
    region = np.array([r * 6 + c for r in range(1, 5) for c in range(1, 5)])
    board[region] = board[region[::-1]]                 # the 4 x 4 inner block turned over
    assert score_board(puzzle, tables.board(board)).score < tables.inner_edges
    outcome = refill_exact(tables, board, region, 10.0)
    assert outcome.optimal and outcome.after == outcome.bound
    assert score_board(puzzle, tables.board(outcome.board)).score == tables.inner_edges


def test_exact_moves_never_lower_the_board_and_keep_the_hints():
    """A worker with the scan and exact moves only, on a board with hinted cells: every best
    board is a permutation of the tiles with the hints in place, scored by ``score_board`` as
    the worker scores it, and the score never goes down."""
    puzzle, _, solution = planted(8, 11, inner=6)
    hints = [Hint(x, 7 - y, int(solution[8 * y + x] >> 2), int(solution[8 * y + x] & 3))
             for y, x in ((2, 2), (3, 5), (5, 3))]
    puzzle = puzzle.with_hints(hints)
    tables = compile_tables(puzzle)
    hinted = np.flatnonzero(tables.fixed >= 0)
    worker = Anytime(puzzle, "edges", 3, Config(methods=("scan", "exact"), move_share=0.9,
                                                  exact_rows=4, exact_columns=4,
                                                  exact_seconds=0.5))
    while worker.best is None:
        worker._scan_slice()
    scores = []
    for _ in range(12):
        if worker.best_score == worker.max_score:
            break
        worker._move()
        scores.append(worker.best_score)
        board = worker.best
        assert sorted(board >> 2) == list(range(tables.n_tiles))
        assert np.array_equal(board[hinted], tables.fixed[hinted])
        assert score_board(puzzle, tables.board(board)).score == worker.best_score
    assert scores and scores == sorted(scores)
    assert worker.figures.exact_moves == len(scores)
