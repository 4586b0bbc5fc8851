"""Counting up to symmetry through every engine, on puzzles built here (3D boxes, a holed
board) with classic published counts, checked against raw counts divided by the group order."""

from __future__ import annotations

import pytest

from cpkit.errors import EngineUnavailable
from cpkit.models.catalog import _pieces
from cpkit.models.polyforms import PENTOMINOES
from cpkit.models.symmetry import puzzle_symmetries
from cpkit.models.tiling import Piece, Puzzle
from cpkit.engines.dispatch import solve


def box(x, y, z):
    return Puzzle(_pieces(PENTOMINOES), box=(x, y, z), name=f"pentominoes_{x}x{y}x{z}")


def scott():
    """Dana Scott's 1958 problem: the 8x8 board minus its central 2x2."""
    hole = Piece("*", ((3, 3, 0), (4, 3, 0), (3, 4, 0), (4, 4, 0)), True)
    return Puzzle(_pieces(PENTOMINOES) + [hole], box=(8, 8, 1), name="scott")


@pytest.mark.kernel
@pytest.mark.parametrize("make, unique, published", [
    (lambda: box(2, 3, 10), "mirror", 12),
    (lambda: box(2, 5, 6), "mirror", 264),
    (scott, "rotation", 65),
])
def test_classic_counts_match_raw_over_group_order(make, unique, published):
    puzzle = make()
    order = len(puzzle_symmetries(puzzle, unique))
    raw = solve(puzzle, unique="raw", count_only=True).count
    assert solve(puzzle, unique=unique, count_only=True).count == published
    assert raw == published * order        # no solution of these is symmetric


@pytest.mark.slow
def test_pentominoes_3x4x5():
    assert solve(box(3, 4, 5), unique="mirror", count_only=True).count == 3940


@pytest.mark.parametrize("make, unique, count", [
    (scott, "rotation", 65),
    (lambda: box(2, 3, 10), "mirror", 12),
    # 26 s of CP-SAT on a loaded 2-core machine; the default run checks counting up to
    # rotation in three dimensions on the Soma cube below.
    pytest.param(lambda: box(2, 3, 10), "rotation", 24, marks=pytest.mark.slow),
])
def test_cpsat_counts_up_to_symmetry(make, unique, count):
    assert solve(make(), engine="cpsat", unique=unique, count_only=True).count == count


@pytest.mark.parametrize("name, unique, count", [
    ("somacube.txt", "rotation", 480),
    ("somacube.txt", "mirror", 240),
    ("pentominoes_20x3.txt", "rotation", 2),
])
def test_cpsat_published_counts_up_to_symmetry(tiling_instance, name, unique, count):
    assert solve(tiling_instance(name), engine="cpsat", unique=unique,
                 count_only=True).count == count


@pytest.mark.slow
@pytest.mark.parametrize("name, count", [("pentominoes_10x6.txt", 2339),
                                         ("pentominoes_12x5.txt", 1010),
                                         ("pentominoes_15x4.txt", 368),
                                         ("pentominoes_onesided_30x3.txt", 46)])
def test_cpsat_slow_published_counts(tiling_instance, name, count):
    assert solve(tiling_instance(name), engine="cpsat", count_only=True).count == count


def test_limit_counts_representatives_only(tiling_instance):
    """With a residual check active (mirror mode on a flat puzzle), --limit still stops at
    exactly N counted solutions."""
    result = solve(tiling_instance("pentominoes_10x6.txt"), unique="mirror", limit=7)
    assert result.count == len(result.solutions) == 7 and not result.complete


@pytest.mark.parametrize("engine, options, message", [
    ("dlx", dict(nof=True), "dlx engine takes no option 'nof'"),
    ("cpsat", dict(heuristic="s"), "cpsat engine takes no option 'heuristic'"),
    ("auto", dict(volume_filtre=3), "auto engine takes no option 'volume_filtre'"),
])
def test_an_option_the_engine_does_not_take_is_named(engine, options, message):
    with pytest.raises(EngineUnavailable, match=message):
        solve(box(5, 4, 3), engine=engine, **options)


@pytest.mark.parametrize("engine", ["dlx", "fila", "auto"])
def test_progress_reports_end_on_the_results_figures(tiling_instance, engine):
    """The figures of the one-process progress line: nodes and the deepest node grow, and the
    last report is the result's (its solutions counted as the front counts them: with no
    piece constrained it checks each raw solution, and counts fewer than the engine finds)."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    reports: list[dict[str, int]] = []
    result = solve(puzzle, engine=engine, unique="mirror", redundancy=None, count_only=True,
                   on_progress=reports.append)
    assert result.count == 2339 and result.stats.extra["found"] > result.count
    nodes = [r["nodes"] for r in reports]
    deepest = [r["deepest"] for r in reports]
    assert nodes == sorted(nodes) and deepest == sorted(deepest)
    assert reports[-1] == {"nodes": result.stats.nodes, "solutions": 2339,
                           "deepest": puzzle.n_pieces}


def test_cpsat_progress_reports_count_the_solutions_as_the_front_does(tiling_instance):
    """CP-SAT's reports (from the thread waiting for it) count what the front counts, not the
    raw solutions CP-SAT finds, and the last one, after the search, holds the final count."""
    puzzle = tiling_instance("pentominoes_20x3.txt")
    reports: list[dict[str, int]] = []
    result = solve(puzzle, engine="cpsat", unique="mirror", redundancy=None, count_only=True,
                   on_progress=reports.append)
    assert result.count == 2 and result.stats.extra["found"] == 8
    solutions = [r["solutions"] for r in reports]
    assert solutions == sorted(solutions) and solutions[-1] == 2
    assert 0 < reports[-1]["branches"] <= result.stats.nodes
