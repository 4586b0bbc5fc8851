"""Split runs through the coordinator: local worker processes, a Dask LocalCluster, limits,
solution order, checkpoints through the API, and the errors users can make."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

import cpkit
from cpkit.errors import CpkitError, InputError
from cpkit.parallel.protocol import Frontier, Part
from cpkit.parallel.solution_order import InOrder
from cpkit.engines.runtime import jit
from cpkit.engines.dispatch import solve
from tests.conftest import TILING

MANIFEST = json.loads((TILING / "manifest.json").read_text())


def same_figures(a, b) -> None:
    assert a.count == b.count
    assert a.stats.nodes == b.stats.nodes
    assert a.stats.fits_by_remaining == b.stats.fits_by_remaining


@pytest.mark.parametrize("name, unique", [("somacube.txt", "raw"), ("somacube.txt", "mirror"),
                                          ("pentominoes_10x6.txt", "rotation")])
def test_two_workers_equal_sequential(tiling_instance, name, unique):
    """Published counts with two local worker processes, and the same statistics."""
    puzzle = tiling_instance(name)
    sequential = solve(puzzle, unique=unique, count_only=True)
    split = cpkit.solve(puzzle, unique=unique, count_only=True, workers=2, subproblems=64)
    assert split.complete and split.stats.extra["subproblems"] >= 64
    assert split.count == MANIFEST[name]["counts"][unique]
    same_figures(split, sequential)


def test_solutions_come_in_the_sequential_order(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    sequential = solve(puzzle, unique="rotation")
    split = cpkit.solve(puzzle, unique="rotation", workers=2, subproblems=40)
    assert split.solutions == sequential.solutions
    first = cpkit.solve(puzzle, unique="rotation", workers=2, subproblems=40, limit=25)
    assert first.solutions == sequential.solutions[:25] and not first.complete


def test_solutions_are_handed_out_in_order_as_their_subproblems_finish():
    """``InOrder``: subproblem k's solutions (and those found above the split before it) go out
    once subproblems 0..k are done, whatever order they finish in, at most ``cap``; what was
    given is dropped, and ``rest`` is what was not, in order."""
    frontier = Frontier(1, [[0], [1], [2]], Part(), [(0, [100]), (2, [102]), (3, [103])])

    def parts():
        return {k: Part(solutions=[[k, 1], [k, 2]]) for k in range(3)}

    every = [[100], [0, 1], [0, 2], [1, 1], [1, 2], [102], [2, 1], [2, 2], [103]]
    given: list[list[int]] = []
    cleared = []
    done = parts()
    stream = InOrder(frontier, list, given.append, None, lambda: cleared.append(1))
    stream.advance({1: done[1]})
    assert given == [[100]] and stream.rest({1: done[1]}) == every[3:5] + [[102], [103]]
    stream.advance({0: done[0], 1: done[1]})
    assert given == every[:6] and stream.rest(done) == every[6:]
    assert done[0].solutions == done[1].solutions == []
    stream.advance(done)
    assert given == every and stream.given == len(every) and cleared
    assert stream.rest(done) == []
    capped: list[list[int]] = []
    stream = InOrder(frontier, list, capped.append, 2)
    stream.advance(parts())
    assert capped == [[100], [0, 1]] and stream.given == 2


@pytest.mark.parametrize("options", [{}, {"limit": 30}, {"max_stored": 7}])
def test_a_split_run_streams_its_solutions_in_the_sequential_order(tiling_instance, options):
    puzzle = tiling_instance("somacube.txt")
    sequential = solve(puzzle, unique="rotation")
    seen = []
    split = cpkit.solve(puzzle, unique="rotation", workers=2, subproblems=40,
                        on_solution=seen.append, **options)
    wanted = min(options.get("limit", 10 ** 9), options.get("max_stored", 10 ** 9))
    assert seen == sequential.solutions[:wanted] and split.solutions == []


def test_runs_that_stream_hand_out_the_first_subproblems_first(tiling_instance, monkeypatch):
    """With estimates (the progress line), a counting run hands the largest subproblems out
    first; a run that prints its solutions as it goes hands them out in order, since each waits
    for every subproblem before it (the first printed after 27 s instead of 2 s on E_7_4)."""
    from cpkit.parallel import backends, plan

    submitted: list[int] = []
    submit = backends.LocalBackend.submit

    def record(self, index, path, spec, state=b""):
        submitted.append(index)
        submit(self, index, path, spec, state)

    monkeypatch.setattr(backends.LocalBackend, "submit", record)
    monkeypatch.setattr(plan, "subproblem_sizes",
                        lambda tree, paths, **kw: [float(k) for k in range(len(paths))])
    puzzle = tiling_instance("somacube.txt")
    options = dict(unique="rotation", workers=2, subproblems=40, progress=True)
    counted = cpkit.solve(puzzle, count_only=True, **options)
    assert len(submitted) > 1 and submitted == sorted(submitted, reverse=True)
    submitted.clear()
    seen: list = []
    printed = cpkit.solve(puzzle, on_solution=seen.append, **options)
    assert len(submitted) > 1 and submitted == sorted(submitted)
    assert printed.count == counted.count == len(seen)


@pytest.mark.parametrize("workers", [1, 2])
def test_max_stored_keeps_the_first_solutions_and_counts_them_all(tiling_instance, em_instance,
                                                                  workers):
    """``max_stored`` (``--show N``) keeps the first solutions of the sequential order and
    hands only those to ``on_solution``; the count is the whole count.  (The edges engine's
    split runs keep the sequential order; the CP engine's need not.)"""
    for puzzle, engine in ((tiling_instance("somacube.txt"), "auto"),
                           (em_instance("gen_6_b4i5_s3.txt"), "edges")):
        sequential = solve(puzzle, engine=engine, unique="raw")
        seen = []
        options = dict(engine=engine, unique="raw", workers=workers, subproblems=40,
                       max_stored=3)
        kept = cpkit.solve(puzzle, **options)
        streamed = cpkit.solve(puzzle, **options, on_solution=seen.append)
        assert kept.count == streamed.count == sequential.count > 3 and kept.complete
        assert kept.solutions == seen == sequential.solutions[:3] and streamed.solutions == []
    with pytest.raises(InputError, match="max_stored must be a whole number >= 0"):
        cpkit.solve(puzzle, workers=workers, max_stored=-1)


def test_exact_cover_with_multiplicities_splits(tmp_path):
    """Items needed twice (Algorithm M's branching, tweaked options) split through the
    coordinator (in-process backend, with a checkpoint)."""
    from cpkit.models.exact_cover import ExactCover

    rows = [[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2], [0, 1, 4], [2, 3, 4], [0], [1],
            [2], [3], [0, 1, 2, 3]]
    cover = ExactCover.from_rows(["a", "b", "c", "d"], ["s"], rows, need=[2, 2, 2, 2])
    sequential = solve(cover)
    assert sequential.count > 10
    split = cpkit.solve(cover, workers=1, checkpoint=str(tmp_path / "c.json"), count_only=True,
                        subproblems=8, source={"path": "inline", "sha256": "x", "index": 0})
    same_figures(split, sequential)
    assert split.stats.extra["subproblems"] >= 8


def test_dask_local_cluster_counts(tiling_instance):
    distributed = pytest.importorskip("distributed")
    puzzle = tiling_instance("somacube.txt")
    sequential = solve(puzzle, unique="rotation", count_only=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert cpkit.count(puzzle, unique="rotation", client=client) == 480
        split = cpkit.solve(puzzle, unique="rotation", count_only=True, client=client,
                            subproblems=50)
    same_figures(split, sequential)
    assert split.stats.extra["backend"] == "DaskBackend"


@pytest.mark.parametrize("workers", [0, -3, 1.5])
def test_bad_worker_counts_are_refused(tiling_instance, workers):
    with pytest.raises(InputError, match="workers"):
        cpkit.count(tiling_instance("somacube.txt"), workers=workers)


def test_more_workers_than_the_cores_can_take_are_refused(tiling_instance, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    with pytest.raises(InputError, match="--workers 9: at most 8 worker processes"):
        cpkit.count(tiling_instance("somacube.txt"), workers=9)


def test_unreachable_scheduler_is_one_clear_error(tiling_instance, monkeypatch):
    pytest.importorskip("distributed")
    from cpkit.parallel.backends import DaskBackend
    from cpkit.parallel.runner import run

    monkeypatch.setattr(DaskBackend, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(CpkitError, match="cannot reach the Dask scheduler"):
        run(tiling_instance("somacube.txt"), scheduler="tcp://127.0.0.1:9", count_only=True)


@pytest.mark.parametrize("address", ["notanaddress", "http://x"])
def test_a_malformed_scheduler_address_is_one_clear_error(tiling_instance, address):
    pytest.importorskip("distributed")
    from cpkit.parallel.runner import run

    with pytest.raises(InputError, match=f"--scheduler {address}: .*tcp://host:8786"):
        run(tiling_instance("somacube.txt"), scheduler=address, count_only=True)


def test_an_unwritable_checkpoint_is_refused_before_the_search(tmp_path):
    with pytest.raises(InputError, match="cannot write the checkpoint"):
        cpkit.count(str(TILING / "somacube.txt"), checkpoint=str(tmp_path / "no" / "a.ck"))


def test_a_refused_resume_starts_no_worker(tmp_path, monkeypatch):
    """The checkpoint is read and checked before the workers start: a refusal costs no
    start-up and leaves no worker process to clean up."""
    from cpkit.parallel import backends

    def no_start(self, job):
        raise AssertionError("a worker was started for a refused checkpoint")

    monkeypatch.setattr(backends.LocalBackend, "start", no_start)
    with pytest.raises(InputError, match="cannot read the checkpoint"):
        cpkit.count(str(TILING / "somacube.txt"), workers=2, resume=str(tmp_path / "none"))


def test_local_workers_leave_no_queue_thread_behind(tiling_instance, monkeypatch):
    """A run's task queue is fed by a thread; ``close`` waits for it.  Left running, it could
    hold the queue's last reference while Python shuts down and have a semaphore reported as
    leaked (seen once, as four lines of warnings after a one-line error).  The feeder is
    slowed here so that one left running is still there to be seen."""
    import threading
    import time
    from multiprocessing import queues

    feed = queues.Queue._feed

    def slow_feed(*args):
        time.sleep(0.5)
        feed(*args)

    monkeypatch.setattr(queues.Queue, "_feed", staticmethod(slow_feed))

    def feeders() -> int:
        return sum(t.name == "QueueFeederThread" for t in threading.enumerate())

    before = feeders()
    run = cpkit.solve(tiling_instance("somacube.txt"), unique="raw", count_only=True,
                      workers=2, subproblems=40)
    assert run.complete and run.count == 11520
    assert feeders() == before


def test_checkpoint_through_the_api_resumes_to_the_same_count(tmp_path):
    path = TILING / "somacube.txt"
    ck = tmp_path / "soma.ck"
    for limit in (0.05, 0.2, 1.0, 5.0):
        # a limit that ends the split itself leaves the checkpoint written at the start, with
        # no split in it (a busy machine may need more)
        first = cpkit.solve(str(path), unique="raw", count_only=True, workers=1,
                            checkpoint=str(ck), time_limit=limit, subproblems=300)
        if json.loads(ck.read_text())["split"] is not None:
            break
    data = json.loads(ck.read_text())
    assert data["format"] == "cpkit-checkpoint"
    assert len(data["done"]) + len(data["pending"]) == len(data["split"]["paths"])
    if not first.complete:
        assert data["pending"]
    again = cpkit.solve(str(path), unique="raw", count_only=True, workers=1, resume=str(ck),
                        checkpoint=str(ck), subproblems=300)
    assert again.complete and again.count == 11520
    sequential = solve(cpkit.load(path), unique="raw", count_only=True)
    same_figures(again, sequential)
    with pytest.raises(InputError, match="other options"):
        cpkit.count(str(path), unique="rotation", workers=1, resume=str(ck))
    # the engine's default given by name is the same search (it was refused as another)
    ck.unlink()
    for limit in (0.05, 0.2, 1.0, 5.0):
        cpkit.solve(str(path), engine="dlx", unique="raw", count_only=True, workers=1,
                    checkpoint=str(ck), time_limit=limit, subproblems=300)
        if json.loads(ck.read_text())["split"] is not None:
            break
    named = cpkit.solve(str(path), engine="dlx", heuristic="s", unique="raw", count_only=True,
                        workers=1, resume=str(ck), subproblems=300)
    assert named.complete and named.count == 11520


def _stall_after(monkeypatch, finished: int) -> None:
    """The in-process backend hands back ``finished`` subproblems, then none (until the run's
    time limit ends it): an interruption at a known point."""
    import time

    from cpkit.parallel import backends

    poll = backends.InlineBackend.poll
    handed: list[int] = []

    def stalled(self, timeout):
        if len(handed) >= finished:
            time.sleep(timeout)
            return []
        out = poll(self, timeout)
        handed.extend(k for k, _ in out)
        return out

    monkeypatch.setattr(backends.InlineBackend, "poll", stalled)


@pytest.mark.parametrize("options", [{"limit": 600}, {"max_stored": 600}])
def test_a_checkpointed_run_that_prints_resumes_to_the_same_solutions(tmp_path, monkeypatch,
                                                                      options):
    """A run that prints (``--limit N``, ``--show N``) may be checkpointed: the file keeps the
    solutions it may still print, and the resumed run prints the sequential run's first N
    (the subproblems it had finished included) and counts as it would have."""
    path = str(TILING / "somacube.txt")
    sequential = solve(cpkit.load(path), unique="raw")
    ck = str(tmp_path / "soma.ck")
    run = dict(unique="raw", workers=1, subproblems=300, **options)
    _stall_after(monkeypatch, 4)
    seen: list = []
    first = cpkit.solve(path, checkpoint=ck, time_limit=2.0, on_solution=seen.append, **run)
    assert first.stop_reason == "time_limit" and seen == sequential.solutions[:len(seen)]
    data = json.loads(Path(ck).read_text())
    assert data["kept"] == 600 and len(data["done"]) == 4
    kept = sum(len(v) for v in data["solutions"].values()) + len(data["shallow"])
    assert 0 < kept <= 600 + len(data["shallow"])
    monkeypatch.undo()
    again: list = []
    resumed = cpkit.solve(path, resume=ck, checkpoint=ck, on_solution=again.append, **run)
    assert again == sequential.solutions[:600]
    assert resumed.count == (600 if "limit" in options else sequential.count)


def test_checkpoints_keep_only_what_a_resumed_run_can_print(tmp_path):
    """Printing every solution would need them all in the file; a counting run's file holds
    none; a file that kept N cannot serve a run that prints more."""
    path = str(TILING / "somacube.txt")
    ck = str(tmp_path / "a.ck")
    with pytest.raises(InputError, match="give --first, --limit N or --show N"):
        cpkit.solve(path, unique="raw", workers=1, checkpoint=ck)
    cpkit.solve(path, unique="raw", workers=1, limit=5, checkpoint=ck, subproblems=50)
    with pytest.raises(InputError, match="keeps the first 5 solution.*at most 5"):
        cpkit.solve(path, unique="raw", workers=1, limit=6, resume=ck)
    assert cpkit.solve(path, unique="raw", workers=1, limit=3, resume=ck).count == 3
    cpkit.solve(path, unique="raw", workers=1, count_only=True, checkpoint=ck, subproblems=50)
    with pytest.raises(InputError, match="counting run and holds no solutions"):
        cpkit.solve(path, unique="raw", workers=1, limit=1, resume=ck)


def test_a_limit_run_ends_when_any_subproblem_holds_the_limit(tiling_instance, monkeypatch):
    """Promptness over the sequential first N (docs/architecture.md, "Split runs"): with the
    subproblems searched last first, the run ends in the first one searched that holds a
    solution, without searching those before it, and reports that genuine solution."""
    from cpkit.parallel import backends, coordinator
    from cpkit.parallel import job as jobs
    from cpkit.result import verify_tiling

    def last_first(self, timeout):
        if not self._queue or self._cancelled():
            return []
        index, path, spec, state = self._queue.pop()
        return [(index, jobs.solve_task(self.job, path, spec, self._cancelled, state=state))]

    monkeypatch.setattr(backends.InlineBackend, "poll", last_first)
    monkeypatch.setattr(coordinator.Coordinator, "_backend", lambda self, signals:
                        backends.InlineBackend(lambda: signals.raised is not None))
    puzzle = tiling_instance("somacube.txt")
    result = cpkit.solve(puzzle, unique="raw", workers=2, subproblems=50, limit=1)
    first = solve(puzzle, unique="raw", limit=1).solutions[0]
    assert result.count == 1 and result.stop_reason == "limit"
    assert result.stats.extra["subproblems_done"] < result.stats.extra["subproblems"] - 1
    assert verify_tiling(puzzle, result.solutions[0]) == [] and result.solutions[0] != first


SLOW_PUZZLES = [("pentominoes_10x6.txt", "raw"), ("pentominoes_12x5.txt", "rotation"),
                ("pentominoes_15x4.txt", "rotation"), ("pentominoes_20x3.txt", "rotation"),
                ("pentominoes_onesided_30x3.txt", "rotation"), ("somacube.txt", "rotation"),
                ("tetriscube.txt", "rotation")]


@pytest.mark.slow
@pytest.mark.parametrize("name, unique", SLOW_PUZZLES)
def test_bundled_puzzles_two_workers_equal_sequential(tiling_instance, name, unique):
    """Every bundled puzzle that finishes in minutes: the published count with two workers, and
    the sequential run's statistics."""
    puzzle = tiling_instance(name)
    split = cpkit.solve(puzzle, unique=unique, count_only=True, workers=2)
    assert split.complete and split.count == MANIFEST[name]["counts"][unique]
    same_figures(split, solve(puzzle, unique=unique, count_only=True))


#: 15 x 14 parallelogram of hexominoes: a frontier with a million subproblems lies deep enough
#: that searching for it takes far longer than the limits below.
HEXOMINOES = "hexominoes_15x14_parallelogram.txt"


@pytest.mark.parametrize("family", ["tiling", "edge_matching"])
def test_the_time_limit_stops_a_long_split(tiling_instance, family, tmp_path):
    """The set-up and the frontier search count against ``time_limit``; once cut the split is
    not searched further, nor put into the checkpoint (which stays as the run wrote it at its
    start, with no split), and the run reports the limit at about its length."""
    if family == "tiling":
        puzzle, engine = tiling_instance(HEXOMINOES), "auto"
    else:
        from cpkit.models.em_generator import generate
        puzzle, engine = generate(16, border_colours=5, inner_colours=17, seed=1), "cp"
    ck = tmp_path / "ck.json"
    began, compiled = time.perf_counter(), jit.warmed_seconds()
    result = cpkit.solve(puzzle, engine=engine, count_only=True, workers=2, time_limit=1.0,
                         subproblems=10**6, checkpoint=str(ck), source={"test": family})
    spent = time.perf_counter() - began - (jit.warmed_seconds() - compiled)
    assert result.stop_reason == "time_limit" and not result.complete
    assert result.stats.extra["subproblems_done"] == 0 and 0.9 <= spent and \
        result.seconds < 3.0
    assert json.loads(ck.read_text())["split"] is None


def test_planning_counts_against_the_time_limit():
    """A tree whose tree-size walks never end in time (a 16 x 16 board shaved at every node:
    one walk takes an hour) spends what the set-up leaves of the limit planning and stops
    there, within a slice; the split used to get a limit of its own after it, and the run
    twice its length.  The set-up before the planning counts against the limit too (a tenth
    of a second here, 0.7 s on a loaded machine), so the planning gets most of it, not all."""
    from cpkit.models.em_generator import generate

    board = generate(16, border_colours=5, inner_colours=17, seed=1)
    result = cpkit.solve(board, engine="edges", shave="all", count_only=True, workers=2,
                         time_limit=2.0)
    assert result.stop_reason == "time_limit" and not result.complete
    assert result.stats.extra["subproblems_done"] == 0
    assert 1.0 <= result.stats.extra["plan_seconds"] < 3.5


def test_ctrl_c_during_the_split_reports_an_interrupted_run(tiling_instance):
    """A Ctrl-C reaches the frontier search's own handler first; it used to end the frontier
    search alone, and the run went on with the subproblems met so far as if they were all."""
    import os
    import signal
    import threading

    puzzle = tiling_instance(HEXOMINOES)
    solve(puzzle, count_only=True, limit=1)                # compiled before the clock starts
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = cpkit.solve(puzzle, count_only=True, workers=2, subproblems=10**6)
    finally:
        timer.cancel()
    assert result.stop_reason == "interrupted" and not result.complete
    assert result.stats.extra["subproblems_done"] == 0 and result.seconds < 5.0


def test_ctrl_c_while_preparing_reports_the_same_figures(tiling_instance, monkeypatch):
    """A Ctrl-C before the split (a loaded machine took over a second to prepare the tree, and
    the run above got the interruption there) reports no subproblem, as a split run does."""
    import os
    import signal

    from cpkit.parallel import job as jobs

    prepare = jobs.tree

    def interrupted(job):
        tree = prepare(job)
        os.kill(os.getpid(), signal.SIGINT)
        return tree

    monkeypatch.setattr(jobs, "tree", interrupted)
    result = cpkit.solve(tiling_instance(HEXOMINOES), count_only=True, workers=2)
    assert result.stop_reason == "interrupted" and not result.complete
    assert result.stats.extra["subproblems_done"] == result.stats.extra["subproblems"] == 0


def test_a_run_in_one_process_draws_its_own_progress_line(em_instance, capsys):
    """With ``progress`` a run in one process (``--workers 1``, or ``--first``) draws a line
    of nodes and the deepest board; the solutions it streams are printed on a cleared line."""
    puzzle = em_instance("gen_6_b4i5_s3.txt")
    printed = []

    def show(solution) -> None:
        printed.append(capsys.readouterr().err)     # what stderr held when it came
        print("solution")

    result = cpkit.solve(puzzle, engine="backtrack", workers=1, progress=True,
                         on_solution=show)
    err = capsys.readouterr().err
    assert result.complete and result.count == len(printed) > 0
    assert "deepest 36 of 36 cells" in "".join(printed) + err
    # Each solution came after the line was blanked ("\r", spaces, "\r").
    assert all(text == "" or text.endswith("\r") for text in printed)
    assert err.endswith("\n")


CPSAT_LINE = re.compile(r"\d+s  CP-SAT  ([\d,]+) solutions?( {2}[\d,]+ branches by the latest "
                        r"solution)?")


def cpsat_counts(lines: list[str]) -> list[int]:
    """The solutions shown on each CP-SAT progress line, every line checked whole."""
    for line in lines:
        assert CPSAT_LINE.fullmatch(line), line
    return [int(CPSAT_LINE.fullmatch(line)[1].replace(",", "")) for line in lines]


def test_a_cpsat_run_draws_its_line_between_the_solutions_it_streams(em_instance, capsys):
    """CP-SAT hands its solutions over on its own thread while the calling thread draws the
    line: no line cuts into a solution printed to the same stream, and the count never goes
    back; the last line, drawn after the search, shows them all (gen_6_b4i5_s3: 16 solutions
    in about 1.5 s, a line due every 50 ms).  Each solution takes longer to print than the
    line's interval, so without the line's lock a line would land inside it."""
    import time

    puzzle = em_instance("gen_6_b4i5_s3.txt")

    def show(solution) -> None:
        sys.stderr.write("sol")
        time.sleep(0.06)
        sys.stderr.write("ution\n")

    result = cpkit.solve(puzzle, engine="cpsat", workers=1, progress=1e-9, on_solution=show)
    lines = capsys.readouterr().err.splitlines()
    assert result.complete and lines.count("solution") == result.count == 16
    counts = cpsat_counts([line for line in lines if line != "solution"])
    assert counts == sorted(counts) and counts[-1] == 16


@pytest.mark.parametrize("engine, limit", [("dlx", 300), ("fila", 300), ("auto", 300),
                                           ("cpsat", 5)])
def test_a_tiling_run_in_one_process_draws_its_own_progress_line(tiling_instance, capsys,
                                                                engine, limit):
    """``--first`` and ``--limit N`` tiling runs stay in one process: the numba engines draw a
    line of nodes, solutions and the deepest node in pieces (they drew none); CP-SAT one of
    the solutions the front counts (not its raw ones) and its branches."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    result = cpkit.solve(puzzle, engine=engine, workers=1, progress=1e-9, count_only=True,
                         limit=limit)
    err = capsys.readouterr().err
    assert result.count == limit and result.stop_reason == "limit"
    if engine != "cpsat":
        assert "deepest 12 of 12 pieces" in err
    else:
        counts = cpsat_counts(err.splitlines())
        assert counts == sorted(counts) and counts[-1] == limit


def test_an_exact_cover_run_in_one_process_draws_its_own_progress_line(tiling_instance, capsys):
    cover = tiling_instance("pentominoes_10x6.txt").exact_cover()
    result = cpkit.solve(cover, workers=1, progress=True, count_only=True, limit=2000)
    assert result.count == 2000
    assert "deepest 12 options" in capsys.readouterr().err


def test_two_sigints_at_once_are_one_interruption_and_a_later_one_quits():
    """``timeout -s INT`` signals the process and its group: two SIGINTs at once.  The second
    was taken for a second Ctrl-C, and one run in six ended without its report."""
    import os
    import signal
    import time

    from cpkit.signals import StopSignals

    with StopSignals() as signals:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        assert signals.raised == "SIGINT"
        time.sleep(StopSignals.SAME_SECONDS + 0.1)
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)


@pytest.mark.parametrize("name, split", [("pentominoes_12x5.txt", False),
                                         ("pentominoes_l_2x4x8.txt", True)])
def test_a_run_on_all_cores_splits_what_the_automatic_configuration_prices_long(
        tiling_instance, monkeypatch, name, split):
    """Without ``workers``, the automatic configuration's estimate decides whether to split
    (``HybridTree.worth_splitting``): the 12 x 5 (estimated at about 0.3 s) is searched in
    this process with the choice made for its tree, chosen once; the 2 x 4 x 8 box with the
    L tetromino (about 5 s) is split.  The counts are the manifest's either way (the box's is
    cpkit's and polycube's, none being published)."""
    from cpkit.engines.tiling.auto import tiling_autoconfig as autoconfig
    from cpkit.parallel import runner

    made = []
    usual = autoconfig.choose
    monkeypatch.setattr(autoconfig, "choose", lambda *a, **k: made.append(1) or usual(*a, **k))
    result = runner.run(tiling_instance(name), count_only=True)
    entry = MANIFEST[name]
    assert result.count == {**entry.get("computed", {}), **entry["counts"]}["rotation"]
    assert len(made) == 1
    assert ("subproblems" in result.stats.extra) == split
