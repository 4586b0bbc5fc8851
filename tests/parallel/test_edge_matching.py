"""The edge-matching subproblem protocol (CP, brute force, edge filtering): split runs give the
sequential count at every depth and under every counting mode (the brute force and the edges
engine also its node count and solution order), probes are Knuth's unbiased estimator, and
foreign paths are refused."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings

import cpkit
from cpkit.errors import InputError
from cpkit.models.em_generator import generate
from cpkit.engines.edge_matching import em_split as split_em
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve
from tests.parallel.test_dlx import (assert_a_capped_frontier_is_its_prefix, exact_expectation,
                                     split_total)
from tests.conftest import EDGE_MATCHING, unsolvable_board
from tests.strategies import edge_matching_puzzles

pytestmark = pytest.mark.kernel

MANIFEST = json.loads((EDGE_MATCHING / "manifest.json").read_text())
PREPARE = {"cp": split_em.prepare_cp, "backtrack": split_em.prepare_backtrack,
           "edges": split_em.prepare_edges}
ENGINES = sorted(PREPARE)
#: Engines whose tree does not depend on how it was reached: split nodes add up exactly.
EXACT = ("backtrack", "edges")


def split_result(puzzle, engine: str, options: dict, depth: int, store: bool = False):
    tree = PREPARE[engine](puzzle, options)
    frontier, total, ordered = split_total(tree, depth, store)
    merged = tree.result(total, complete=True, stop_reason="complete", seconds=0.0,
                         jit_seconds=0.0, solutions=ordered)
    return frontier, merged


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("unique", ["rotation", "raw"])
@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_split_equals_sequential(em_instance, engine, unique, depth):
    puzzle = em_instance("gen_5_b3i4_s3.txt")
    sequential = solve(puzzle, engine=engine, unique=unique, count_only=True)
    frontier, merged = split_result(puzzle, engine, {"unique": unique}, depth)
    assert merged.count == sequential.count > 0
    assert merged.unique == sequential.unique and merged.engine == sequential.engine
    assert all(len(p) == depth for p in frontier.paths)
    if engine in EXACT:
        assert merged.stats.nodes == sequential.stats.nodes
    if depth > 1:
        assert len(frontier.paths) > len(puzzle.symmetry_roots(unique))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_split_runs_report_the_deepest_node(engine, depth):
    """On a board without solution the deepest node is a partial board; the brute force's and
    the edges engine's trees are the sequential ones cut in parts, so the deepest over the
    parts is the sequential run's."""
    puzzle = unsolvable_board()
    sequential = solve(puzzle, engine=engine)
    _, merged = split_result(puzzle, engine, {}, depth)
    assert merged.count == sequential.count == 0
    assert 0 < merged.stats.extra["deepest"] == merged.partial.filled < puzzle.n_cells
    assert verify_board(puzzle, merged.partial, partial=True) == []
    if engine in EXACT:
        assert merged.stats.extra["deepest"] == sequential.stats.extra["deepest"]


@pytest.mark.parametrize("engine", ENGINES)
def test_split_solutions_are_the_sequential_ones(em_instance, engine):
    """The brute force's and the edges engine's trees do not depend on the way in, so the
    merged order is the sequential one; the CP engine's subproblems may break ties in another
    order, so only the set is the same."""
    puzzle = em_instance("gen_4_b2i3_s2.txt")
    sequential = solve(puzzle, engine=engine, unique="raw")
    _, merged = split_result(puzzle, engine, {"unique": "raw"}, 3, store=True)
    assert len(merged.solutions) == sequential.count == 192
    if engine in EXACT:
        assert merged.solutions == sequential.solutions
    else:
        assert set(merged.solutions) == set(sequential.solutions)


@pytest.mark.parametrize("options", [{"alldifferent": True}, {"branching": "min-domain"},
                                     {"tiles": False}, {"shave": 3}, {"shave": "all"}])
def test_edges_options_reach_the_subproblems(em_instance, options):
    puzzle = em_instance("gen_5_b3i4_s3.txt")
    sequential = solve(puzzle, engine="edges", count_only=True, **options)
    _, merged = split_result(puzzle, "edges", dict(options, unique="rotation"), 3)
    assert (merged.count, merged.stats.nodes) == (sequential.count, sequential.stats.nodes)
    for key, value in options.items():
        assert merged.options[key] == value


@pytest.mark.parametrize("options", [{"backjump": False}, {"shave": 2},
                                     {"heuristic": "min-offer", "preemption": False}])
def test_cp_options_reach_the_subproblems(em_instance, options):
    puzzle = em_instance("gen_5_b3i4_s3.txt")
    sequential = solve(puzzle, engine="cp", count_only=True, **options)
    _, merged = split_result(puzzle, "cp", dict(options, unique="rotation"), 3)
    assert merged.count == sequential.count
    for key, value in options.items():
        assert merged.options[key] == value


@settings(max_examples=15, deadline=None)
@given(edge_matching_puzzles(sides=(3, 4)))
def test_random_puzzles_split_like_sequential(puzzle):
    """Random boards, some oblong (two roots), some with a hint (one root, 'hints')."""
    for engine in ENGINES:
        sequential = solve(puzzle, engine=engine, count_only=True)
        _, merged = split_result(puzzle, engine, {"unique": "rotation"}, 3)
        assert merged.count == sequential.count
        assert merged.unique == sequential.unique
        if engine in EXACT:
            assert merged.stats.nodes == sequential.stats.nodes


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("stop", [None, 2, 4])
def test_knuth_estimator_is_exactly_unbiased(engine, stop):
    """Averaged over all random paths, the probes' solution estimate is the count; for the
    brute force (a fixed tree) the node estimate is its node count too.  Raw counting on a
    square board: four roots (the first corner's tile in each corner), which are choices but
    not nodes."""
    puzzle = generate(3, border_colours=1, inner_colours=2, seed=1)
    sequential = solve(puzzle, engine=engine, unique="raw", count_only=True)
    tree = PREPARE[engine](puzzle, {"unique": "raw"})
    nodes, sols = exact_expectation(tree, [], stop)
    assert sequential.count > 0
    assert sols == pytest.approx(sequential.count, rel=1e-9)
    if engine in EXACT:
        assert nodes == pytest.approx(sequential.stats.nodes, rel=1e-9)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cancelled_probe_is_abandoned_at_once(em_instance, engine):
    """A probe asks ``cancel`` as it walks (one walk of a 16 x 16 board shaved at every node
    takes minutes): once it says stop, the walk ends and is left out (None)."""
    tree = PREPARE[engine](em_instance("gen_7_b6i7_s1.txt"), {})
    rand = [0.5] * (tree.max_depth + 1)
    assert tree.probe([], rand, None, lambda: False) is not None
    asked = 0

    def third_time() -> bool:
        nonlocal asked
        asked += 1
        return asked >= 3

    assert tree.probe([], rand, None, third_time) is None and asked == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_a_frontier_search_cancelled_before_it_starts_searches_nothing(em_instance, engine):
    """``cancel`` is asked before each slice, not after: a split whose time limit the planning
    spent stops at once (a slice of a 16 x 16 board shaved at every node took 0.8 s)."""
    tree = PREPARE[engine](em_instance("gen_7_b6i7_s1.txt"), {})
    cut = tree.frontier(3, store=False, cancel=lambda: True)
    assert not cut.above.complete and cut.above.nodes == 0 and cut.paths == []
    whole = tree.frontier(3, store=False, cancel=lambda: False)
    assert whole.above.complete and whole.above.nodes > 0 and whole.paths


@pytest.mark.parametrize("engine", ENGINES)
def test_a_frontier_search_stops_past_its_bound(em_instance, engine):
    assert_a_capped_frontier_is_its_prefix(PREPARE[engine](em_instance("gen_6_b4i5_s3.txt"), {}),
                                           4)


def test_foreign_paths_and_options_are_refused(em_instance):
    tree = split_em.prepare_backtrack(em_instance("gen_4_b2i3_s2.txt"), {"unique": "raw"})
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([5], store=False)
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([0, 10 ** 6], store=False)
    with pytest.raises(InputError, match="does not exist"):
        tree.solve([0, 3, 3], store=False)
    with pytest.raises(InputError, match="takes no option"):
        split_em.prepare_backtrack(em_instance("gen_4_b2i3_s2.txt"), {"heuristic": "min-offer"})
    with pytest.raises(InputError, match="unknown heuristic"):
        split_em.prepare_cp(em_instance("gen_4_b2i3_s2.txt"), {"heuristic": "best"})
    with pytest.raises(InputError, match="unknown branching rule"):
        split_em.prepare_edges(em_instance("gen_4_b2i3_s2.txt"), {"branching": "best"})


@pytest.mark.parametrize("engine", ENGINES)
def test_two_workers_equal_sequential(em_instance, engine):
    puzzle = em_instance("gen_6_b4i5_s3.txt")
    sequential = solve(puzzle, engine=engine, count_only=True)
    split = cpkit.solve(puzzle, engine=engine, count_only=True, workers=2, subproblems=32)
    assert split.complete and split.count == sequential.count == 16
    assert split.stats.extra["subproblems"] >= 32 and split.stats.extra["workers"] == 2
    if engine in EXACT:
        assert split.stats.nodes == sequential.stats.nodes


def test_checkpoint_resumes_to_the_same_count_and_nodes(tmp_path):
    """A limit of one solution stops the first run part-way (its checkpoint keeps the finished
    subproblems and the state of the one that found it); resuming finishes with the sequential
    figures.  A solution limit rather than a time limit: a run stopped during its split writes
    no checkpoint, and on a loaded machine the split outlasted a 0.05 s limit."""
    path = EDGE_MATCHING / "gen_6_b4i5_s3.txt"
    ck = tmp_path / "em.ck"
    options = dict(engine="backtrack", count_only=True, workers=1, subproblems=200)
    sequential = solve(cpkit.load(path), engine="backtrack", count_only=True)
    first = cpkit.solve(str(path), checkpoint=str(ck), limit=1, **options)
    assert first.stop_reason == "limit" and json.loads(ck.read_text())["pending"]
    again = cpkit.solve(str(path), checkpoint=str(ck), resume=str(ck), **options)
    assert again.complete and again.count == sequential.count == 16
    assert again.stats.nodes == sequential.stats.nodes
    with pytest.raises(InputError, match="other options"):
        cpkit.solve(str(path), resume=str(ck), **dict(options, engine="cp"))


def test_a_resumed_run_without_checkpoint_reads_the_file_and_never_writes_it(tmp_path):
    """``--resume F`` alone: the periodic save had no file to write to (a traceback at the
    first one, 60 s into the run by default)."""
    path = EDGE_MATCHING / "gen_6_b4i5_s3.txt"
    ck = tmp_path / "em.ck"
    options = dict(engine="backtrack", count_only=True, workers=1, subproblems=200)
    cpkit.solve(str(path), checkpoint=str(ck), limit=1, **options)     # stops part-way
    before = ck.read_bytes()
    assert json.loads(before)["pending"]
    again = cpkit.solve(str(path), resume=str(ck), checkpoint_every=0.001, **options)
    assert again.complete and again.count == 16 and ck.read_bytes() == before


def test_runs_too_short_for_a_subproblem_still_finish_it_one_after_another(tmp_path):
    """One subproblem needing about 1.8 s of search (edges engine; 7 x 7, 5 + 6 colours), runs
    of 0.4 s each, every one resuming the last one's checkpoint: each goes on inside the
    subproblem where the last one stopped, so they finish it, with the figures and solutions of
    one uninterrupted run (each run starting it over never finished)."""
    from cpkit.io.edge_matching import write_native

    board = tmp_path / "g7.txt"
    write_native(generate(7, border_colours=5, inner_colours=6, seed=1), board)
    ck = tmp_path / "g7.ck"
    options = dict(engine="edges", workers=1, subproblems=1, limit=10)
    whole = cpkit.solve(str(board), **options)
    assert whole.complete and whole.count == 8
    run, shown = cpkit.solve(str(board), checkpoint=str(ck), time_limit=0.4, **options), []
    for _ in range(40):
        assert not run.complete and json.loads(ck.read_text())["states"]
        shown = []
        run = cpkit.solve(str(board), checkpoint=str(ck), resume=str(ck), time_limit=0.4,
                          on_solution=shown.append, **options)
        if run.complete:
            break
    assert run.complete and run.count == 8 and run.stats.nodes == whole.stats.nodes
    assert shown == whole.solutions and "states" not in json.loads(ck.read_text())


def test_a_damaged_state_searches_the_subproblem_from_its_start(em_instance):
    tree = split_em.prepare_backtrack(em_instance("gen_6_b4i5_s3.txt"), {})
    stopped = tree.solve([0], store=False, time_limit=1e-9, state_every=60.0)
    assert not stopped.complete and tree.state_nodes(stopped.state) == stopped.nodes > 0
    assert tree.state_nodes(b"junk") == 0
    fresh = tree.solve([0], store=False)
    again = tree.solve([0], store=False, state=b"PK\x03\x04 not a saved state")
    assert again.complete and (again.count, again.nodes) == (fresh.count, fresh.nodes) == \
        (16, fresh.nodes)


def test_a_state_of_another_subproblem_is_dropped(em_instance):
    """A checkpoint's states are keyed by subproblem; one put under another key (a damaged or
    edited file) fits the search's arrays, and went on to count the other subtree."""
    tree = split_em.prepare_backtrack(em_instance("gen_6_b4i5_s3.txt"), {})
    frontier = tree.frontier(2, store=False)
    first, second = frontier.paths[0], frontier.paths[2]
    stopped = tree.solve(first, store=False, time_limit=1e-9, state_every=60.0)
    assert not stopped.complete and stopped.nodes > 0
    whole, fresh = tree.solve(first, store=False), tree.solve(second, store=False)
    assert (whole.count, whole.nodes) != (fresh.count, fresh.nodes)
    swapped = tree.solve(second, store=False, state=stopped.state)
    assert swapped.complete and (swapped.count, swapped.nodes) == (fresh.count, fresh.nodes)
    again = tree.solve(first, store=False, state=stopped.state)
    assert again.complete and (again.count, again.nodes) == (whole.count, whole.nodes)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_bundled_boards_two_workers_give_the_manifest_counts(em_instance, name, engine):
    puzzle = em_instance(name)
    for unique, expected in MANIFEST[name]["counts"].items():
        split = cpkit.solve(puzzle, engine=engine, unique=unique, count_only=True, workers=2,
                            subproblems=32)
        assert split.complete and split.count == expected, unique


def test_dask_local_cluster_counts(em_instance):
    distributed = pytest.importorskip("distributed")
    puzzle = em_instance("gen_6_b4i5_s3.txt")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        for engine in ENGINES:
            split = cpkit.solve(puzzle, engine=engine, count_only=True, client=client,
                                subproblems=32)
            assert split.complete and split.count == 16
            assert split.stats.extra["backend"] == "DaskBackend"
            if engine in EXACT:
                sequential = solve(puzzle, engine=engine, count_only=True)
                assert split.stats.nodes == sequential.stats.nodes


def test_dask_tasks_send_their_figures_and_states_while_they_search(tmp_path, monkeypatch):
    """One subproblem of about 1.8 s on a Dask worker, in a checkpointed run: the coordinator
    sees its running figures (the progress line) and its states (the checkpoint: a killed
    coordinator loses little) before its part comes back, and a state taken mid-search goes on
    to the uninterrupted run's figures."""
    distributed = pytest.importorskip("distributed")
    from cpkit.io.edge_matching import write_native
    from cpkit.parallel.backends import DaskBackend

    board = tmp_path / "g7.txt"
    write_native(generate(7, border_colours=5, inner_colours=6, seed=1), board)
    seen, paths = [], {}
    submit, poll = DaskBackend.submit, DaskBackend.poll

    def recording_submit(self, index, path, spec, state=b""):
        paths[index] = path
        return submit(self, index, path, spec, state)

    def recording_poll(self, timeout):
        seen.append((self.running(), self.states()))
        return poll(self, timeout)

    monkeypatch.setattr(DaskBackend, "submit", recording_submit)
    monkeypatch.setattr(DaskBackend, "poll", recording_poll)
    options = dict(engine="edges", subproblems=1, limit=10)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        run = cpkit.solve(str(board), client=client, checkpoint=str(tmp_path / "g7.ck"),
                          checkpoint_every=0.2, **options)
    whole = cpkit.solve(str(board), workers=1, **options)
    assert run.complete and run.count == whole.count == 8
    assert run.stats.nodes == whole.stats.nodes
    [(index, path)] = paths.items()
    figures = [running[index] for running, _ in seen if index in running]
    states = [states[index] for _, states in seen if index in states]
    # The last report can come after the last slice, with the whole count, and reach a poll
    # before the part does (seen once, bounds-checked): some report must be from mid-search.
    assert any(0 < f["nodes"] < whole.stats.nodes for f in figures)
    assert states
    tree = split_em.prepare_edges(cpkit.load(board), {})
    assert 0 < tree.state_nodes(states[-1]) < whole.stats.nodes
    resumed = tree.solve(path, store=False, state=states[-1])
    assert resumed.complete and (resumed.count, resumed.nodes) == (8, whole.stats.nodes)


def test_a_dask_task_its_coordinator_let_go_of_stops_searching():
    """A killed coordinator's client is gone, so the scheduler lets go of its tasks; the worker
    cannot stop a running task, so the search must see it and end (it went on for ever, its
    thread lost to the cluster).  Here the future is cancelled as the scheduler does then, and
    the worker's only thread must be free for the next task within seconds."""
    distributed = pytest.importorskip("distributed")
    from cpkit.parallel.backends import DaskBackend
    from cpkit.parallel.job import Job, TaskSpec

    endless = generate(16, border_colours=5, inner_colours=17, seed=7)     # days of search
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        backend = DaskBackend(client)
        backend.start(Job("edge_matching", "backtrack", endless, {}))
        backend.ready()
        backend.submit(0, [0], TaskSpec())
        deadline = time.monotonic() + 30
        while 0 not in backend.running() and time.monotonic() < deadline:
            assert backend.poll(0.2) == []
        assert backend.running()[0]["nodes"] > 0        # searching
        client.cancel(list(backend._futures.values()))
        assert client.submit(sum, [1, 2], pure=False).result(timeout=10) == 3
        backend.close()


def test_a_dask_run_stopped_early_ends_at_once_however_many_subproblems_it_has():
    """Every subproblem sent to the cluster must start and hand back a part before a stopped
    run ends; with all 11,868 of a 16 x 16 sent at once, a run with a 10 s limit took 42 s.
    Only a few a worker thread go out at a time."""
    distributed = pytest.importorskip("distributed")

    endless = generate(16, border_colours=5, inner_colours=17, seed=7)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        cpkit.solve(endless, engine="backtrack", first=True, client=client, time_limit=0.1)
        started = time.perf_counter()
        # A fixed number (2,801 at depth 4, split in 0.15 s): the planned one comes from a
        # timed estimate, smaller on a busy machine, and the next depth (32,414) takes 2 s.
        run = cpkit.solve(endless, engine="backtrack", first=True, client=client,
                          time_limit=1.0, subproblems=2_000)
        took = time.perf_counter() - started
    assert not run.complete and run.stop_reason == "time_limit"
    assert run.stats.extra["subproblems"] >= 2_000
    assert took < 6.0, took
