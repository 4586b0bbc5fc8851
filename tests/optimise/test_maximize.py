"""``cpkit match --maximize`` and ``cpkit.maximize``: every board reported is scored again by
the independent ``cpkit score``; boards with a solution end on it; checkpoints survive
``kill -9``; options that do not apply are refused in one line."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cpkit
from benchmarks.edge_matching import ETERNITY2
from cpkit.io.edge_matching import write_native
from cpkit.models.em_generator import generate
from tests.cli.test_match import one_line_error, run
from tests.conftest import ROOT

needs_eternity2 = pytest.mark.skipif(not ETERNITY2.is_dir(),
                                     reason=f"the Eternity II files are missing ({ETERNITY2})")


def written(tmp_path: Path, size: int, border: int, inner: int, seed: int = 1) -> Path:
    path = tmp_path / f"g{size}_{seed}.txt"
    write_native(generate(size, border_colours=border, inner_colours=inner, seed=seed), path)
    return path


def rescored(capsys, tmp_path: Path, out: str, puzzle: Path) -> dict:
    """The board ``cpkit match --maximize`` printed (and its link), scored by ``cpkit score``:
    both must give the JSON summary's figures."""
    lines = out.split("best board (", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    board, link = tmp_path / "best.board", tmp_path / "best.link"
    board.write_text("\n".join(lines[:-1]) + "\n")
    link.write_text(lines[-1] + "\n")
    scores = []
    for path in (board, link):
        status, text, _ = run(capsys, "score", path, "--puzzle", puzzle, "--json")
        assert status == 0
        scores.append(json.loads(text))
    assert scores[0] == {**scores[1], "board": scores[0]["board"]}
    return scores[0]


@pytest.mark.parametrize("objective", ["edges", "tiles"])
def test_a_board_with_a_solution_ends_on_a_perfect_board(capsys, tmp_path, objective):
    puzzle = written(tmp_path, 6, 2, 3)
    status, out, _ = run(capsys, "match", puzzle, "--maximize", objective, "--workers", "1",
                         "--time-limit", "60", "--link", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["complete"] and summary["stop_reason"] == "complete"
    assert summary["score"] == summary["max_score"] == (36 if objective == "tiles" else 60)
    score = rescored(capsys, tmp_path, out, puzzle)
    assert score["score"] == summary["matched_edges"] == 60
    assert score["tiles_placed"] == summary["tiles_placed"] == 36


def test_an_unsolved_board_is_scored_again_by_cpkit_score(capsys, tmp_path):
    """A 12 x 12 board with few colours is not solved in a second: the run stops at its time
    limit with a full board whose score ``cpkit score`` confirms."""
    puzzle = written(tmp_path, 12, 3, 8)
    status, out, err = run(capsys, "match", puzzle, "--maximize", "edges", "--workers", "1",
                           "--time-limit", "1", "--link", "--json", "--seed", "3",
                           "--progress", "0.2")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["seed"] == 3 and summary["workers"] == 1
    assert re.search(r"best \d+ of 264 edges \(\d+s ago\)  [\d.]+ M nodes/s", err), err
    score = rescored(capsys, tmp_path, out, puzzle)
    assert score["score"] == summary["score"] and score["tiles_placed"] == 144
    assert summary["stop_reason"] in ("time_limit", "complete")
    assert 0 <= summary["seconds_to_best"] <= summary["seconds"]
    for field in ("max_score", "tiles_placed", "nodes", "jit_seconds", "cpu_seconds"):
        assert field in summary


def test_the_api_returns_the_same_result():
    puzzle = generate(5, border_colours=2, inner_colours=3, seed=2)
    result = cpkit.maximize(puzzle, "edges", time_limit=30, workers=1)
    assert result.complete and result.board is not None
    assert cpkit.score(result.board, puzzle).score == result.score == 40


def test_two_workers_share_their_best_board(tmp_path):
    """Two local worker processes with a short epoch: the run ends with the perfect board of a
    solvable puzzle, found by either."""
    puzzle = generate(6, border_colours=2, inner_colours=3, seed=5)
    result = cpkit.maximize(puzzle, "tiles", time_limit=60, workers=2, epoch=0.5)
    assert result.workers == 2 and result.complete and result.tiles_placed == 36
    assert cpkit.score(result.board, puzzle).tiles_placed == 36


def test_options_of_the_search_for_solutions_are_refused(capsys, tmp_path):
    puzzle = written(tmp_path, 5, 2, 3)
    one_line_error(capsys, "match", puzzle, "--maximize", "edges", "--first",
                   match="--first applies to the search for solutions, not to --maximize")
    one_line_error(capsys, "match", puzzle, "--seed", "2", match="--seed goes with --maximize")


def cpkit_run(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cpkit", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def test_a_run_killed_with_sigkill_resumes_from_its_checkpoint(capsys, tmp_path):
    """The checkpoint holds the best board at every write; after ``kill -9`` the resumed run
    starts from it, so it ends at least as well, and its seconds count on."""
    puzzle = written(tmp_path, 14, 4, 10)
    ck = tmp_path / "run.ck"
    proc = cpkit_run("match", str(puzzle), "--maximize", "edges", "--workers", "1",
                     "--checkpoint", str(ck), "--checkpoint-every", "0.3")
    deadline = time.time() + 180
    scores = []
    while time.time() < deadline and proc.poll() is None and len(set(scores)) < 2:
        try:
            data = json.loads(ck.read_text())
        except (OSError, ValueError):
            data = None
        if data and data["best"]["board"] is not None:
            scores.append(data["best"]["score"])
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    data = json.loads(ck.read_text())
    held = data["best"]["score"]
    assert held > 0 and data["kind"] == "maximize" and data["workers"]
    status, out, _ = run(capsys, "match", puzzle, "--maximize", "edges", "--workers", "1",
                         "--resume", ck, "--time-limit", "0.5", "--json", "--link")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["score"] >= held
    assert summary["seconds"] >= data["seconds"]
    assert rescored(capsys, tmp_path, out, puzzle)["score"] == summary["score"]
    one_line_error(capsys, "match", puzzle, "--maximize", "tiles", "--resume", ck,
                   match="other options: objective='edges' (now 'tiles')")
    one_line_error(capsys, "match", puzzle, "--resume", ck, "--count-only",
                   match="comes from a run of --maximize")


@needs_eternity2
def test_eternity2_boards_are_full_and_scored_again(capsys, tmp_path):
    puzzle = ETERNITY2 / "variants" / "e2_v00.native"
    status, out, _ = run(capsys, "match", puzzle, "--maximize", "edges", "--workers", "1",
                         "--time-limit", "2", "--link", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    score = rescored(capsys, tmp_path, out, puzzle)
    assert status == 0 and score["tiles_placed"] == 256 and score["hints_placed"] == 8
    assert score["score"] == summary["score"] and summary["max_score"] == 480


def test_a_dask_cluster_runs_the_same_workers():
    distributed = pytest.importorskip("distributed")
    puzzle = generate(6, border_colours=2, inner_colours=3, seed=6)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = cpkit.maximize(puzzle, "edges", time_limit=60, client=client, epoch=0.5)
    assert result.complete and result.workers == 2
    assert cpkit.score(result.board, puzzle).score == result.score == 60


def test_ctrl_c_stops_with_the_best_board(tmp_path):
    from tests.cli import interrupted_summary

    puzzle = written(tmp_path, 12, 3, 8)
    summary = interrupted_summary("match", str(puzzle), "--maximize", "edges", "--workers", "1",
                                  "--json", "--progress", "0.2", after=0.5, searching="best")
    assert summary["score"] > 0 and summary["tiles_placed"] == 144


def test_a_checkpoint_that_cannot_be_written_still_prints_the_best_board(capsys, tmp_path,
                                                                          monkeypatch):
    """A full disk after the first checkpoint: the run goes on, prints its best board and
    exits with status 3 (the result printed, the last checkpoint not written)."""
    from cpkit.errors import InputError
    from cpkit.optimise import checkpoint

    writes = []

    def full_disk(path, text, what):
        writes.append(path)
        if len(writes) > 1:
            raise InputError(f"cannot write {what}: No space left on device", str(path))
        real(path, text, what)

    real = checkpoint.write_atomically
    monkeypatch.setattr(checkpoint, "write_atomically", full_disk)
    puzzle = written(tmp_path, 12, 3, 8)
    ck = tmp_path / "run.ck"
    status, out, err = run(capsys, "match", puzzle, "--maximize", "edges", "--workers", "1",
                           "--time-limit", "1", "--json", "--checkpoint", str(ck))
    assert status == 3 and len(writes) >= 2 and "No space left on device" in err
    assert json.loads(out.strip().splitlines()[-1])["tiles_placed"] == 144
    assert checkpoint.MaximizeCheckpoint.load(ck).board is None    # the first write's
