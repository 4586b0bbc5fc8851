"""The edge-matching front: every engine counts the same way (property test over random
generated boards), counting modes, roots, options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings

from cpkit import load
from cpkit.errors import EngineUnavailable, InputError
from cpkit.models.edge_matching import Hint, rotate
from cpkit.models.em_generator import generate, plant
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve
from tests.conftest import unsolvable_board
from tests.oracles import count_boards
from tests.strategies import edge_matching_puzzles

ENGINES = ("cp", "backtrack", "cpsat", "edges")


def check_engines_agree(puzzle) -> None:
    """The three engines give one count; every solution they report is valid and distinct; raw
    counting without hints finds every rotated copy."""
    counts = {}
    for engine in ENGINES:
        result = solve(puzzle, engine=engine)
        assert result.complete, engine
        assert all(verify_board(puzzle, s) == [] for s in result.solutions), engine
        assert len(set(result.solutions)) == result.count, engine
        counts[engine] = result.count
    complete = solve(puzzle, engine="edges", alldifferent=True)    # Régin's filtering too
    assert all(verify_board(puzzle, s) == [] for s in complete.solutions)
    counts["edges --alldifferent"] = complete.count
    shaved = solve(puzzle, engine="edges", shave=2)             # singleton tests too
    assert all(verify_board(puzzle, s) == [] for s in shaved.solutions)
    counts["edges --shave 2"] = shaved.count
    assert len(set(counts.values())) == 1, counts
    assert counts["cp"] >= (0 if puzzle.hints else 1)     # a generated board has its own
    raw = solve(puzzle, engine="backtrack", unique="raw", count_only=True).count
    copies = 1 if puzzle.hints else 4 if puzzle.square else 2
    assert raw == copies * counts["cp"]


@settings(max_examples=100)
@given(puzzle=edge_matching_puzzles(sides=(4, 5, 6)))
def test_engines_agree_on_random_boards(puzzle):
    check_engines_agree(puzzle)


@pytest.mark.kernel
@settings(max_examples=10)
@given(puzzle=edge_matching_puzzles(sides=(2, 3, 4)))
def test_engines_agree_on_small_random_boards(puzzle):
    # Small enough for the bounds-checked rerun of the kernel tests.
    check_engines_agree(puzzle)


# Small puzzles the oracle enumerates in well under a second: squares and oblongs, few and many
# colours, a 2 x 2 board (every cell a corner).
SMALL = [(3, 3, 1, 2, 0), (3, 3, 2, 1, 1), (4, 3, 2, 2, 2), (3, 4, 1, 2, 3), (2, 2, 1, 1, 5),
         (4, 2, 2, 1, 6), (3, 3, 3, 3, 7), (4, 4, 2, 3, 4)]


@pytest.mark.parametrize("engine", [pytest.param("cp", marks=pytest.mark.kernel),
                                    pytest.param("backtrack", marks=pytest.mark.kernel),
                                    "cpsat"])
@pytest.mark.parametrize("width, height, border, inner, seed", SMALL)
def test_raw_and_rotation_counts_match_the_oracle(engine, width, height, border, inner, seed):
    puzzle = generate(width, height, border_colours=border, inner_colours=inner, seed=seed)
    raw = solve(puzzle, engine=engine, unique="raw")
    assert raw.complete and raw.count == count_boards(puzzle)
    assert all(verify_board(puzzle, s) == [] for s in raw.solutions)
    assert len(set(raw.solutions)) == raw.count
    rotation = solve(puzzle, engine=engine, unique="rotation", count_only=True)
    # Tiles are told apart by index, so no solution is its own rotation: every class has as
    # many members as the board has rotations onto itself.
    assert raw.count == (4 if width == height else 2) * rotation.count


def test_a_planted_board_is_found():
    puzzle, planted = plant(5, 4, border_colours=3, inner_colours=4, seed=17)
    assert verify_board(puzzle, planted) == []
    found = solve(puzzle, engine="cp", unique="raw").solutions

    # Engines report the smallest rotation of an orientation: compare the colours shown.
    def shown(solution):
        return [rotate(puzzle.tiles[t], r) for t, r in zip(solution.tiles, solution.rotations)]

    assert shown(planted) in [shown(s) for s in found]


@pytest.mark.parametrize("engine, options, message", [
    ("backtrack", dict(heuristic="min-offer"), "backtrack engine takes no option 'heuristic'"),
    ("cpsat", dict(shave="all"), "cpsat engine takes no option 'shave'"),
    ("cp", dict(huristic="min-offer"), "cp engine takes no option 'huristic'"),
])
def test_an_option_the_engine_does_not_take_is_named(engine, options, message):
    with pytest.raises(EngineUnavailable, match=message):
        solve(generate(3, border_colours=1, inner_colours=1, seed=0), engine=engine, **options)


@pytest.mark.parametrize("engine", ENGINES)
def test_oblong_boards_count_the_half_turn_only(engine):
    puzzle = generate(4, 3, border_colours=2, inner_colours=2, seed=2)
    raw = solve(puzzle, engine=engine, unique="raw", count_only=True)
    rotation = solve(puzzle, engine=engine, unique="rotation", count_only=True)
    assert rotation.options["roots"] == 2 and rotation.unique == "rotation"
    assert raw.count == 2 * rotation.count > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_with_hints_both_modes_count_the_solutions_that_respect_them(engine):
    puzzle, planted = plant(4, border_colours=2, inner_colours=3, seed=5)
    hinted = puzzle.with_hints([Hint(1, 2, *planted.at(1, 2))])
    a = solve(hinted, engine=engine, unique="rotation")
    b = solve(hinted, engine=engine, unique="raw")
    assert a.count == b.count >= 1 and a.unique == b.unique == "hints"
    assert all(s.at(1, 2)[0] == planted.at(1, 2)[0] for s in a.solutions)


@pytest.mark.parametrize("options, message", [
    (dict(unique="mirror"), "unknown counting mode"),
    (dict(limit=0), "at least 1"),
    (dict(time_limit=0), "positive"),
])
def test_bad_options_are_input_errors(options, message):
    with pytest.raises(InputError, match=message):
        solve(generate(3, border_colours=1, inner_colours=1, seed=0), engine="cp", **options)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_limit_reports_a_partial_count(engine):
    # A 6 x 6 board with two colours per palette has millions of solutions.
    puzzle = generate(6, border_colours=2, inner_colours=2, seed=1)
    # (CP-SAT gets longer: it builds and presolves its model within the limit.)
    result = solve(puzzle, engine=engine, count_only=True,
                   time_limit=3.0 if engine == "cpsat" else 0.5)
    assert not result.complete and result.stop_reason == "time_limit" and result.count > 0


# ---------------------------------------------------------------------------- the deepest node
NUMBA_ENGINES = ("cp", "backtrack", "edges")


@pytest.mark.parametrize("engine", NUMBA_ENGINES)
def test_a_board_without_solution_reports_its_deepest_partial_board(engine):
    puzzle = unsolvable_board()
    result = solve(puzzle, engine=engine)
    assert result.complete and result.count == 0
    deepest = result.stats.extra["deepest"]
    assert 0 < deepest < puzzle.n_cells
    assert result.partial.filled == deepest
    assert verify_board(puzzle, result.partial, partial=True) == []


@pytest.mark.parametrize("engine", NUMBA_ENGINES)
def test_a_search_stopped_early_reports_a_consistent_deepest_board(engine):
    # Hinted, so the hint's cell is filled on the partial board and respected there.
    planted, solution = plant(7, border_colours=4, inner_colours=5, seed=3)
    tile, rotation = solution.at(3, 3)
    puzzle = planted.with_hints([Hint(3, 3, tile, rotation)])
    result = solve(puzzle, engine=engine, first=True, time_limit=0.05)
    assert result.partial is not None
    deepest = result.stats.extra["deepest"]
    assert result.partial.filled == deepest
    if result.count:
        assert deepest == puzzle.n_cells
        assert verify_board(puzzle, result.partial) == []
    else:
        assert verify_board(puzzle, result.partial, partial=True) == []
    assert result.partial.at(3, 3)[0] == tile


@pytest.mark.parametrize("engine", NUMBA_ENGINES)
def test_a_solved_board_is_its_own_deepest_node(engine):
    puzzle = generate(5, border_colours=3, inner_colours=4, seed=5)
    result = solve(puzzle, engine=engine, count_only=True)
    assert result.count > 0 and result.stats.extra["deepest"] == puzzle.n_cells
    assert verify_board(puzzle, result.partial) == []


@pytest.mark.parametrize("engine", NUMBA_ENGINES)
def test_progress_reports_end_on_the_results_figures(engine):
    puzzle = unsolvable_board()
    reports: list[dict[str, int]] = []
    result = solve(puzzle, engine=engine, on_progress=reports.append)
    assert reports, "the driver reports after every slice, the last one included"
    nodes = [r["nodes"] for r in reports]
    deepest = [r["deepest"] for r in reports]
    assert nodes == sorted(nodes) and deepest == sorted(deepest)
    assert reports[-1] == {"nodes": result.stats.nodes, "solutions": 0,
                           "deepest": result.stats.extra["deepest"]}


def _search_of(engine: str, puzzle, found: list):
    from cpkit.engines.edge_matching.backtrack.em_backtrack_search import BacktrackSearch
    from cpkit.engines.edge_matching.cp.em_cp_search import CpSearch
    from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch

    make = {"cp": CpSearch, "backtrack": BacktrackSearch, "edges": EdgesSearch}[engine]
    return make(puzzle, store=True, on_orientations=lambda row: found.append(list(row)))


@pytest.mark.parametrize("engine", NUMBA_ENGINES)
def test_a_restored_snapshot_goes_on_as_the_search_would(engine):
    """A subproblem checkpointed mid-search: a fresh search restored from a snapshot taken
    between slices finds the rest of the solutions, and ends on the same counters, as the
    search it was taken from would have."""
    board = generate(6, border_colours=4, inner_colours=5, seed=3)
    root = board.with_hints(board.symmetry_roots("rotation")[0])
    whole: list = []
    reference = _search_of(engine, root, whole)
    while not reference.step(1 << 30, 1 << 62)[0]:
        pass
    assert reference.solutions > 1
    before: list = []
    first = _search_of(engine, root, before)
    while first.solutions == 0:                    # stop between the first and last solution
        assert not first.step(1 << 30, 500)[0]
    snapshot = first.snapshot()
    after: list = []
    second = _search_of(engine, root, after)
    assert second.restore(snapshot)
    while not second.step(1 << 30, 1 << 62)[0]:
        pass
    assert 0 < len(before) < len(whole) and before + after == whole
    assert (second.nodes, second.solutions, second.deepest) == \
        (reference.nodes, reference.solutions, reference.deepest)
    other = generate(5, border_colours=3, inner_colours=4, seed=1)
    stranger = _search_of(engine, other.with_hints(other.symmetry_roots("rotation")[0]), [])
    assert not stranger.restore(snapshot)


# ---------------------------------------------------------------------------- bundled instances
EM_INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "edge_matching"
MANIFEST = json.loads((EM_INSTANCES / "manifest.json").read_text())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_bundled_instances_have_their_manifest_counts(name, engine):
    puzzle = load(EM_INSTANCES / name)
    result = solve(puzzle, engine=engine)
    assert result.complete and result.count == MANIFEST[name]["counts"]["rotation"]
    assert all(verify_board(puzzle, s) == [] for s in result.solutions)
    if engine == "backtrack":
        raw = solve(puzzle, engine=engine, unique="raw", count_only=True).count
        assert raw == MANIFEST[name]["counts"]["raw"]


def test_the_manifest_lists_every_bundled_instance():
    assert sorted(MANIFEST) == sorted(p.name for p in EM_INSTANCES.glob("*.txt"))
    assert len(MANIFEST) >= 10 and any(v["counts"]["rotation"] > 1 for v in MANIFEST.values())


def test_the_api_reads_counts_and_solves_edge_matching_files():
    import cpkit

    path = EM_INSTANCES / "gen_6_b6i6_s2.txt"
    counts = MANIFEST[path.name]["counts"]
    assert cpkit.load(path).family == "edge_matching"
    assert cpkit.count(path) == counts["rotation"]
    assert cpkit.count(path, unique="raw", engine="backtrack") == counts["raw"]
    result = cpkit.solve(cpkit.load(path), limit=2)        # the default engine: auto
    assert result.engine in ("backtrack", "cp", "edges") and result.count == 2
    assert result.stats.extra["engine_reason"]
    assert all(verify_board(cpkit.load(path), s) == [] for s in result.solutions)


@pytest.mark.parametrize("engine", ["cp", "edges"])
def test_a_shaving_limit_above_every_candidate_count_is_all(em_instance, engine):
    """``--shave 10**22`` overflowed the kernels' 64 bits (a traceback)."""
    puzzle = em_instance("gen_5_b3i4_s3.txt")
    huge = solve(puzzle, engine=engine, count_only=True, shave=10**22)
    every = solve(puzzle, engine=engine, count_only=True, shave="all")
    assert huge.count == every.count > 0
    assert (huge.stats.nodes, huge.stats.extra["shave_trials"]) == \
        (every.stats.nodes, every.stats.extra["shave_trials"])


@pytest.mark.kernel
@pytest.mark.parametrize("engine", ["cp", "edges"])
def test_shaving_trials_count_against_a_slice_and_slices_resume_exactly(engine):
    """A slice of the search stops after its budget of nodes *and shaving trials*: one node can
    make thousands of trials, and with nodes alone a slice of 4,096 nodes with `--shave all` ran
    for minutes on a 10 x 10 board past its time limit and a Ctrl-C.  Slices still resume to
    the uninterrupted search's figures.  Slices end inside a node's shaving too (a 16 x 16
    board's root makes 300,000 trials, 15 s), and go on from the same trial."""
    from cpkit.engines.edge_matching.cp.em_cp_search import CpSearch
    from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch

    make = {"cp": CpSearch, "edges": EdgesSearch}[engine]
    puzzle = generate(5, border_colours=3, inner_colours=3, seed=51)
    whole = make(puzzle, store=False, shave="all")
    assert whole.step(1 << 40, 1 << 40)[0]
    sliced = make(puzzle, store=False, shave="all")
    assert not sliced.step(1 << 40, 2)[0]
    trials = sliced.statistics()["shave_trials"]
    assert sliced.nodes == 0 and trials == 2
    for budget in (50, 1):
        while not sliced.step(1 << 40, budget)[0]:
            pass
        assert (sliced.solutions, sliced.nodes, sliced.statistics()) == \
            (whole.solutions, whole.nodes, whole.statistics())
        sliced = make(puzzle, store=False, shave="all")


@pytest.mark.kernel
@pytest.mark.parametrize("engine", ["cp", "edges"])
def test_a_snapshot_taken_inside_a_nodes_shaving_resumes_exactly(engine):
    """A checkpoint of a subproblem can be written while the search is half way through a
    node's shaving: the fresh search it is restored into goes on from the same trial."""
    from cpkit.engines.edge_matching.cp import em_cp_kernel as _em_cp_kernel
    from cpkit.engines.edge_matching.edges import em_edges_kernel as _em_edges_kernel
    from cpkit.engines.edge_matching.cp.em_cp_search import CpSearch
    from cpkit.engines.edge_matching.edges.em_edges_search import EdgesSearch

    make = {"cp": CpSearch, "edges": EdgesSearch}[engine]

    def shaving(search) -> bool:
        if engine == "cp":
            return search.g[_em_cp_kernel.G_PC] == _em_cp_kernel.PC_SHAVE
        return search.state[_em_edges_kernel.ST_PC] == _em_edges_kernel.PC_SHAVE

    puzzle = generate(5, border_colours=3, inner_colours=3, seed=51)
    whole = make(puzzle, store=False, shave="all")
    assert whole.step(1 << 40, 1 << 40)[0]
    first = make(puzzle, store=False, shave="all")
    for _ in range(10_000):
        first.step(1 << 40, 3)
        if shaving(first) and first.nodes > 0:
            break
    assert shaving(first) and first.nodes > 0
    second = make(puzzle, store=False, shave="all")
    assert second.restore(first.snapshot())
    while not second.step(1 << 40, 7)[0]:
        pass
    assert (second.solutions, second.nodes, second.statistics()) == \
        (whole.solutions, whole.nodes, whole.statistics())
