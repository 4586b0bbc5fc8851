"""The progress line and its time left."""

from __future__ import annotations

import io
import math
import time

import pytest

from cpkit.parallel.progress import Progress, SearchLine, SolverLine


def test_time_left_is_between_the_pending_estimates_and_the_finished_subproblems_mean():
    bar = Progress(3, [10.0, 10.0, 20.0], enabled=False)
    # Nothing finished: the 40 estimated nodes at 4 a second.
    assert bar.time_left(set(), 0, rate=4.0) == 10.0
    # Subproblem 0 took 120 nodes: its two successors estimated at 30, by the mean at 240;
    # the geometric mean, 84.85 nodes at 6 a second.
    assert math.isclose(bar.time_left({0}, 120, rate=6.0), math.sqrt(30 * 240) / 6)
    assert bar.time_left({0, 1, 2}, 160, rate=6.0) == 0.0
    assert bar.time_left(set(), 0, rate=0.0) == float("inf")


def test_the_line_is_not_timed_by_the_estimates_that_chose_the_order(monkeypatch, tmp_path):
    """The largest estimates go first, and they are the ones that overshot most: scaled by
    them, the time left read "~0s" a third of the way through a Tetris cube count.  The line's
    estimates come from other probes."""
    import cpkit
    from cpkit.parallel import backends, coordinator, plan, progress
    from tests.conftest import TILING

    made, shown, submitted = {}, [], []
    sizes, line, submit = plan.subproblem_sizes, progress.Progress.__init__, \
        backends.InlineBackend.submit

    def recording_sizes(tree, paths, seed=0, seconds=plan.PLAN_SECONDS, cancel=None):
        made[seed] = sizes(tree, paths, seed, seconds, cancel)
        return made[seed]

    def recording_line(self, total, estimates, *args, **kwargs):
        shown.append(estimates)
        line(self, total, estimates, *args, **kwargs)

    def recording_submit(self, index, *args):
        submitted.append(index)
        submit(self, index, *args)

    monkeypatch.setattr(plan, "subproblem_sizes", recording_sizes)
    monkeypatch.setattr(progress.Progress, "__init__", recording_line)
    monkeypatch.setattr(backends.InlineBackend, "submit", recording_submit)
    result = cpkit.solve(str(TILING / "somacube.txt"), unique="rotation", count_only=True,
                         workers=1, subproblems=40, progress=True,
                         checkpoint=str(tmp_path / "soma.ck"))
    assert result.complete and result.count == 480
    assert sorted(made) == [0, coordinator.LINE_SEED] and shown == [made[coordinator.LINE_SEED]]
    order = made[0]
    assert [order[k] for k in submitted] == sorted(order, reverse=True)
    assert made[0] != made[coordinator.LINE_SEED]


def test_line_shows_subproblems_solutions_rate_and_time_left():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=True, stream=out)
    bar.update({0, 1, 2}, 1234, 3000, force=True)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\r[") and text.endswith("\n")
    assert "3/10 subproblems" in text and "1,234 solutions" in text and "M nodes/s" in text
    assert "left ~" in text


def test_silent_when_disabled():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=False, stream=out)
    bar.update({0}, 1, 1, force=True)
    bar.close()
    assert out.getvalue() == ""


def test_clear_blanks_the_line_for_other_output_and_the_next_update_redraws_it():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=True, stream=out)
    bar.update({0}, 1, 10, force=True)
    bar.clear()
    blanked = out.getvalue()
    assert blanked.endswith("\r") and blanked.rsplit("\r", 2)[-2].strip() == ""
    bar.update({0, 1}, 2, 20)                     # not forced, and at once: drawn again
    assert out.getvalue()[len(blanked):].startswith("\r[") and "2/10 subproblems" in out.getvalue()
    bar.close()
    bar.clear()                                   # nothing shown after close: nothing written
    assert out.getvalue().endswith("\n")


def test_search_line_shows_nodes_solutions_and_the_deepest_board_from_its_first_slice():
    out = io.StringIO()
    line = SearchLine(256, enabled=True, stream=out)
    time.sleep(0.3)                               # compiling: not search time
    line.update({"nodes": 0, "solutions": 0, "deepest": 0})
    time.sleep(0.05)
    line.update({"nodes": 5_000_000, "solutions": 0, "deepest": 201}, force=True)
    line.close()
    last = out.getvalue().rsplit("\r", 1)[-1]
    assert "5,000,000 nodes" in last and "0 solutions" in last
    assert "deepest 201 of 256 cells" in last
    # 5 M nodes in about 0.05 s of search: ~100 M nodes/s; timed from the construction (with
    # the 0.3 s of compiling) it would show about 14.
    rate = float(last.split(" M nodes/s")[0].split()[-1])
    assert rate > 30


def test_search_line_leaves_the_first_slice_out_of_its_rate():
    """The clock starts when the first slice ends, so that slice's nodes are not counted: timed
    from its end alone, 4,096 nodes showed as a thousand million a second."""
    out = io.StringIO()
    line = SearchLine(None, enabled=True, stream=out, unit="options")
    line.update({"nodes": 4096, "solutions": 0, "deepest": 30})
    assert out.getvalue() == ""                   # nothing to time yet
    time.sleep(0.2)
    line.update({"nodes": 4096 + 20_000, "solutions": 1, "deepest": 34}, force=True)
    last = out.getvalue().rsplit("\r", 1)[-1]
    assert "deepest 34 options" in last and "24,096 nodes" in last
    assert float(last.split(" M nodes/s")[0].split()[-1]) < 0.2    # 20,000 in >= 0.2 s


def test_solver_line_shows_solutions_and_the_branches_by_the_latest_after_its_first_update():
    """CP-SAT gives its branch count only at a solution: the line says so, and shows none
    before the first solution.  Its clock starts at the first update (CP-SAT started)."""
    out = io.StringIO()
    line = SolverLine(enabled=0.1, stream=out)
    line.update({"solutions": 0, "branches": 0})          # the clock starts here
    line.update({"solutions": 0, "branches": 0})
    assert out.getvalue() == ""
    time.sleep(0.15)
    line.update({"solutions": 0, "branches": 0})
    time.sleep(0.15)
    line.update({"solutions": 3, "branches": 12_345})
    line.close()
    assert out.getvalue() == ("0s  CP-SAT  0 solutions\n"
                              "0s  CP-SAT  3 solutions  12,345 branches by the latest solution\n")


@pytest.mark.parametrize("enabled", [True, 10.0])
def test_a_one_process_line_draws_the_last_report_when_it_closes(enabled):
    """The search's last report (its final count) comes sooner than the line's interval after
    the one before: undrawn, the line left on the screen or in the log showed an older count."""
    out = io.StringIO()
    line = SolverLine(enabled=enabled, stream=out)
    line.update({"solutions": 0, "branches": 0})          # the clock starts here
    line.update({"solutions": 5, "branches": 70}, force=True)
    line.update({"solutions": 9, "branches": 120})        # not due: kept
    assert "9 solutions" not in out.getvalue()
    line.close()
    last = [text.rstrip() for text in out.getvalue().replace("\r", "\n").split("\n")
            if text.strip()][-1]
    assert last.endswith("9 solutions  120 branches by the latest solution")
    assert out.getvalue().endswith("\n") and out.getvalue().count("9 solutions") == 1


def test_search_line_silent_when_disabled():
    out = io.StringIO()
    line = SearchLine(25, enabled=False, stream=out)
    line.update({"nodes": 1, "solutions": 1, "deepest": 25}, force=True)
    line.close()
    assert out.getvalue() == ""


def test_a_split_line_counts_running_subproblems_in_its_rate_and_shows_the_deepest_board():
    """On a hard board no subproblem may finish for hours: the rate counts the nodes the
    workers report from the subproblems they are searching, and with no subproblem finished
    the time left is the estimates at that rate (it showed 0.00 M nodes/s and no time)."""
    out = io.StringIO()
    bar = Progress(4, [1e9] * 4, enabled=True, stream=out, n_cells=256)
    time.sleep(0.05)
    bar.update(set(), 0, 0, force=True, running_nodes=5_000_000, deepest=199)
    bar.close()
    last = out.getvalue().rsplit("\r", 1)[-1]
    assert "0/4 subproblems" in last and "deepest 199/256" in last
    assert float(last.split(" M nodes/s")[0].split()[-1]) > 1
    assert "left ~" in last and "left ~?" not in last
    tiling = io.StringIO()
    Progress(4, [1.0] * 4, enabled=True, stream=tiling).update({0}, 1, 10, force=True)
    assert "deepest" not in tiling.getvalue()


def _interrupt_once_the_line_shows_the_workers(monkeypatch, deepest_above: int = -1) -> None:
    """Send this process a Ctrl-C once a split run's line has drawn the workers' own figures:
    over 0.1 M nodes/s (and a board deeper than ``deepest_above``) while no subproblem has
    finished.  A fixed time limit made these tests depend on the machine: a loaded one took
    the whole limit to start the workers, and the line never showed them."""
    import os
    import signal

    drawn = Progress.update
    sent = []

    def update(self, done, solutions, nodes, force=False, running_nodes=0, deepest=0,
               earlier_nodes=0):
        drawn(self, done, solutions, nodes, force, running_nodes, deepest, earlier_nodes)
        rate = (nodes + running_nodes) / (time.perf_counter() - self.start)
        if not sent and not done and rate > 0.1e6 and deepest > deepest_above:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(Progress, "update", update)


def _drawn_lines(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.split("\r")
            if "subproblems" in line and "planning: " not in line]


def _rate(line: str) -> float:
    return float(line.split(" M nodes/s")[0].split()[-1])


def test_local_workers_report_the_subproblems_they_are_searching(capsys, monkeypatch):
    """A ``--first`` split run on an Eternity-size board: no subproblem finishes, yet the line
    shows the workers' node rate and deepest board (it showed 0.00 M nodes/s and nothing else
    until a subproblem came back).  The time limit only bounds a failing run."""
    import cpkit
    from cpkit.models.em_generator import generate

    board = generate(16, border_colours=5, inner_colours=17, seed=7)
    _interrupt_once_the_line_shows_the_workers(monkeypatch, deepest_above=100)
    result = cpkit.solve(board, engine="backtrack", workers=2, subproblems=64, first=True,
                         time_limit=60.0, progress=True)
    assert result.stop_reason == "interrupted"
    assert result.stats.extra["subproblems_done"] == 0 and result.count == 0
    lines = _drawn_lines(capsys)
    assert max(_rate(line) for line in lines) > 0.1
    assert max(int(line.split("deepest ")[1].split("/")[0]) for line in lines) > 100


def test_tiling_workers_report_the_subproblems_they_are_searching(tiling_instance, capsys,
                                                                   monkeypatch):
    """The same for a tiling split into a few huge subproblems: none finishes, yet the line
    counts the workers' nodes (and the solutions they have found)."""
    import cpkit

    puzzle = tiling_instance("hexominoes_15x14_parallelogram.txt")
    _interrupt_once_the_line_shows_the_workers(monkeypatch)
    result = cpkit.solve(puzzle, workers=2, subproblems=2, count_only=True, time_limit=60.0,
                         progress=True)
    assert result.stop_reason == "interrupted"
    assert result.stats.extra["subproblems_done"] == 0
    assert max(_rate(line) for line in _drawn_lines(capsys)) > 0.1


def test_a_resumed_runs_rate_leaves_out_what_earlier_runs_searched():
    out = io.StringIO()
    bar = Progress(4, [1e6] * 4, enabled=True, stream=out)
    time.sleep(0.1)
    bar.update({0, 1}, 5, 40_000_000, force=True, running_nodes=1_000_000,
               earlier_nodes=40_000_000)
    rate = float(out.getvalue().rsplit("\r", 1)[-1].split(" M nodes/s")[0].split()[-1])
    assert 1 <= rate <= 10            # 1 M nodes in about 0.1 s, not 41 M


def test_durations_read_at_a_glance():
    from cpkit.parallel.progress import duration

    assert [duration(x) for x in (41, 185, 5 * 3600 + 7 * 60, 3 * 86400 + 4 * 3600,
                                  7_672_868 * 3600, 5e32, float("inf"))] == \
        ["41s", "3m05s", "5h07m", "3d04h", "875 years", "1.6e+25 years", "?"]


def test_a_log_line_is_a_new_line_every_so_many_seconds_with_the_time_elapsed():
    """``--progress S`` (a log file, a batch job): no carriage returns or padding to rewrite a
    line in place, and at most one line every S seconds whatever the update rate."""
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=0.2, stream=out)
    bar.update({0}, 1, 10)                        # at once: not yet due
    assert out.getvalue() == ""
    time.sleep(0.25)
    for _ in range(50):
        bar.update({0, 1}, 3, 20)
    bar.clear()
    bar.close()
    lines = out.getvalue().split("\n")
    assert lines[-1] == "" and len(lines) == 2 and "\r" not in out.getvalue()
    assert lines[0].startswith("0s  [####") and "2/10 subproblems  3 solutions" in lines[0]


def test_a_one_process_log_line_starts_after_its_first_interval_of_search():
    out = io.StringIO()
    line = SearchLine(49, enabled=0.1, stream=out)
    line.update({"nodes": 100, "solutions": 0, "deepest": 3})     # the clock starts here
    line.update({"nodes": 200, "solutions": 0, "deepest": 4})
    assert out.getvalue() == ""
    time.sleep(0.15)
    line.update({"nodes": 9_000, "solutions": 2, "deepest": 40})
    line.close()
    assert out.getvalue().endswith("2 solutions  deepest 40 of 49 cells\n")
    assert out.getvalue().count("\n") == 1


def test_a_split_run_writes_its_log_lines_to_stderr(capsys, tmp_path):
    import cpkit
    from tests.conftest import TILING

    # The checkpoint keeps the small search split (it would run in one process).
    result = cpkit.solve(str(TILING / "somacube.txt"), unique="rotation", count_only=True,
                         workers=1, subproblems=40, progress=1e-9,
                         checkpoint=str(tmp_path / "soma.ck"))
    assert result.complete and result.count == 480
    err = capsys.readouterr().err.splitlines()
    assert len(err) > 1 and all("M nodes/s  left ~" in line for line in err)
    done = [int(line.split("] ")[1].split("/")[0]) for line in err]
    assert done == sorted(done) and done[0] < done[-1]


def test_a_split_run_ends_its_log_with_the_final_figures(capsys, tmp_path):
    """The run ends sooner than its first interval: the one line it writes, at the end, shows
    every subproblem done and every solution (it wrote none)."""
    import cpkit
    from tests.conftest import TILING

    result = cpkit.solve(str(TILING / "somacube.txt"), unique="rotation", count_only=True,
                         workers=1, subproblems=40, progress=600.0,
                         checkpoint=str(tmp_path / "soma.ck"))
    assert result.complete and result.count == 480
    err = capsys.readouterr().err.splitlines()
    total = result.stats.extra["subproblems"]
    assert len(err) == 1 and f"] {total}/{total} subproblems  480 solutions" in err[0]


@pytest.mark.parametrize("progress", [0, -1.5, float("inf"), "5"])
def test_progress_is_true_false_or_a_positive_number_of_seconds(progress):
    import cpkit
    from cpkit.errors import InputError
    from tests.conftest import TILING

    with pytest.raises(InputError, match="progress must be True, False or a positive number"):
        cpkit.solve(str(TILING / "somacube.txt"), workers=1, progress=progress)


def test_the_planning_line_waits_a_second_then_says_what_the_run_does(monkeypatch):
    from cpkit.parallel import progress

    out = io.StringIO()
    line = progress.PlanLine(True, out)
    line.stage = "splitting the tree into subproblems"
    line.tick()
    assert out.getvalue() == ""                    # under a second: no line to flicker
    monkeypatch.setattr(line, "start", time.perf_counter() - 3.2)
    line.tick()
    assert "planning: splitting the tree into subproblems  3s" in out.getvalue()
    line.clear()
    assert out.getvalue().endswith("\r")


def test_a_long_split_logs_the_planning_line(tiling_instance, capsys, tmp_path):
    """The 15 x 14 hexomino parallelogram's frontier search takes many seconds: the terminal
    said nothing until the summary.  Logged (``progress`` a number), a line every interval."""
    import cpkit

    puzzle = tiling_instance("hexominoes_15x14_parallelogram.txt")
    # The limit covers the set-up too (0.5 to 1.5 s on a quiet machine; about 3.3 s once in CI,
    # the bounds-checked tests running beside it), then a split of seconds: lines from its
    # first second on, every quarter of a second.
    result = cpkit.solve(puzzle, workers=1, checkpoint=str(tmp_path / "ck"), count_only=True,
                         source={"test": "planning line"}, subproblems=10**6, time_limit=8.0,
                         progress=0.25)
    assert result.stop_reason == "time_limit"
    logged = [s for s in capsys.readouterr().err.splitlines() if s.startswith("planning: ")]
    assert logged and all(s.startswith("planning: splitting the tree") for s in logged)
    assert len(logged) >= 3
