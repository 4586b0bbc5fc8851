"""The order the optimiser's scan fills cells in (``schedule.fill_order``: row by row, the last
rows column by column): every cell meets its north and west neighbours filled and its east and
south ones empty, the break schedule and the favoured ramp follow the cells filled whatever the
order, an exhaustive scan ends on the same best board score in either order, and a saved
worker or checkpoint goes on in its own order or is refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from cpkit.models.edge_matching import EdgeMatchingPuzzle
from cpkit.models.em_generator import plant
from cpkit.models.score import score_board
from cpkit.optimise import favour
from cpkit.optimise.schedule import Schedule, fill_order
from cpkit.optimise.tables import compile_tables

from .test_kernels import scan_all

pytestmark = pytest.mark.kernel


def _fixed(width, height, rng):
    fixed = np.full(width * height, -1, dtype=np.int32)
    fixed[rng.random(width * height) < 0.2] = 0           # hinted cells: anything >= 0
    return fixed


@pytest.mark.parametrize("seed", range(12))
def test_each_cell_comes_after_its_north_and_west_neighbours_and_before_the_others(seed):
    rng = np.random.default_rng(seed)
    width, height = (int(v) for v in rng.integers(1, 8, size=2))
    fixed = _fixed(width, height, rng)
    for rows in range(height + 2):
        order = fill_order(fixed, width, height, rows)
        assert sorted(order.tolist()) == np.flatnonzero(fixed < 0).tolist()
        at = {int(c): d for d, c in enumerate(order)}
        for c, d in at.items():
            row, col = divmod(c, width)
            north = (row - 1) * width + col if row else None
            west = c - 1 if col else None
            east = c + 1 if col < width - 1 else None
            south = c + width if row < height - 1 else None
            for before in (north, west):
                assert before is None or fixed[before] >= 0 or at[before] < d
            for after in (east, south):
                assert after is None or fixed[after] >= 0 or at[after] > d


def test_no_column_rows_is_row_major_and_all_of_them_column_major():
    fixed = np.full(12, -1, dtype=np.int32)
    fixed[5] = 3
    assert fill_order(fixed, 4, 3, 0).tolist() == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11]
    assert fill_order(fixed, 4, 3, 2).tolist() == [0, 1, 2, 3, 4, 8, 9, 6, 10, 7, 11]
    assert fill_order(fixed, 4, 3, 3).tolist() == [0, 4, 8, 1, 9, 2, 6, 10, 3, 7, 11]


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_breaks_and_favoured_sides_go_by_the_cells_filled_not_their_order(rows):
    puzzle = plant(16, border_colours=5, inner_colours=17, seed=2)[0]
    tables = compile_tables(puzzle)
    by_rows = fill_order(tables.fixed, 16, 16, 0)
    ended = fill_order(tables.fixed, 16, 16, rows)
    schedule = Schedule(total=30.0, start=0.7, power=1.7)
    limits = schedule.limits(ended, tables.n_cells)
    assert np.array_equal(limits, schedule.limits(by_rows, tables.n_cells))
    assert (np.diff(limits) >= 0).all() and limits[-1] == 30
    sides = favour.favoured_sides(tables, favour.favoured_colours(tables))
    assert np.array_equal(favour.ramp(tables, ended, sides, 0.9),
                          favour.ramp(tables, by_rows, sides, 0.9))


def _scrambled(seed):
    """A planted 5 x 5 puzzle whose inner tiles' colours are shuffled among them (every
    colour as often as before): the planted solution is gone and the best board has
    breaks (on the seeds below: 2 or 3 edges, 1 or 2 holes)."""
    puzzle = plant(5, border_colours=3, inner_colours=6, seed=seed)[0]
    tiles = np.array(puzzle.tiles)
    inner = (tiles != 0).all(axis=1)
    tiles[inner] = np.random.default_rng(seed).permutation(tiles[inner].ravel()).reshape(-1, 4)
    return EdgeMatchingPuzzle(tiles.tolist(), 5, 5)


@pytest.mark.parametrize("seed", [1, 4, 11])
@pytest.mark.parametrize("holes", [False, True])
def test_an_exhaustive_scan_ends_on_the_same_score_in_either_order(seed, holes):
    """The scan's boards are those where each cell meets its north or west neighbour (or, with
    holes, every placed pair): a property of the board, not of the order it was filled in.
    Searched to the end with the same allowance, both orders end on the same best score, and
    each board they report has the score the reference scorer gives it."""
    puzzle = _scrambled(seed)
    tables = compile_tables(puzzle)
    ends = []
    for rows in (0, 2):
        order = fill_order(tables.fixed, 5, 5, rows)
        limit = np.full(order.size, 4, dtype=np.int32)
        found, _ = scan_all(tables, order, limit, 4, holes, 100_000, seed=seed)
        assert found
        scores = [score_board(puzzle, tables.board(b)) for b in found]
        if holes:
            assert not any(s.mismatches for s in scores)
            ends.append(scores[-1].tiles_placed)
        else:
            assert all(s.tiles_placed == 25 for s in scores)
            ends.append(scores[-1].score)
    assert ends[0] == ends[1]


@pytest.mark.parametrize("saved_rows", [None, 0, 2, 3])
def test_a_worker_resumes_in_the_order_its_state_was_saved_with(saved_rows, monkeypatch):
    """The scan's state is by depth, so a restored worker fills cells in the order of the
    worker that saved it (a state saved without one, before the fill order existed, in rows),
    whatever its own configuration, and goes on exactly as that worker would."""
    import io

    from cpkit.optimise import anytime
    from cpkit.optimise.anytime import Anytime, Config

    monkeypatch.setattr(anytime, "SLICE_NODES", 500)
    puzzle = plant(8, border_colours=2, inner_colours=5, seed=7)[0]
    rows = 0 if saved_rows is None else saved_rows
    first = Anytime(puzzle, "edges", 5,
                    Config(stuck_nodes=2_000, restart_nodes=20_000, column_rows=rows))
    for _ in range(30):
        first._scan_slice()
    blob = first.snapshot()
    if saved_rows is None:
        data = dict(np.load(io.BytesIO(blob)))
        del data["order"]
        old = io.BytesIO()
        np.savez(old, **data)
        blob = old.getvalue()
    second = Anytime(puzzle, "edges", 99, Config(stuck_nodes=2_000, restart_nodes=20_000))
    second.restore(blob)
    assert np.array_equal(second.order, first.order)
    for worker in (first, second):
        for _ in range(40):
            worker._scan_slice()
    assert first.report() == second.report()
    assert np.array_equal(first.board, second.board)


def test_a_checkpoint_of_another_configuration_is_refused_by_name(tmp_path):
    """A checkpoint written before ``column_rows`` existed (or with another value) is refused
    with the field named, not the whole configuration printed twice."""
    from cpkit.errors import InputError
    from cpkit.optimise.anytime import Config
    from cpkit.optimise.checkpoint import MaximizeCheckpoint

    model = {"path": "p.txt", "sha256": "0", "index": 0}
    ours = {"objective": "edges", "seed": 0, "config": Config().to_json()}
    old = {"objective": "edges", "seed": 0, "config": Config().to_json()}
    del old["config"]["column_rows"]
    for saved, said in ((old, r"other options: config\.column_rows not recorded \(now 2\)$"),
                        ({**old, "config": Config(column_rows=0).to_json()},
                         r"other options: config\.column_rows=0 \(now 2\)$")):
        with pytest.raises(InputError, match=said):
            MaximizeCheckpoint(model, saved).check_matches(model, ours, tmp_path / "c")
