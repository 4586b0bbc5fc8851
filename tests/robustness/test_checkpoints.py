"""Checkpoints never destroy an input or a result: a file that is not a checkpoint is never
written over, a failed write after the search is a warning under the printed result, and a run
killed before its split is planned leaves a checkpoint to resume from."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal

from tests.conftest import TILING
from tests.robustness import refused, run, start, summary, wait_for

PENT = TILING / "pentominoes_10x6.txt"
PENT_COUNT = 2339                        # up to rotation (instances/tiling/manifest.json)


def test_the_puzzle_given_as_its_own_checkpoint_is_left_untouched(tmp_path):
    puzzle = tmp_path / "p.txt"
    shutil.copy(PENT, puzzle)
    before = puzzle.read_bytes(), puzzle.stat().st_mtime_ns
    proc = run("tile", puzzle, "--count-only", "--workers", "1", "--checkpoint", puzzle)
    refused(proc, str(puzzle), "not a cpkit checkpoint")
    assert (puzzle.read_bytes(), puzzle.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]     # no temporary left


def test_other_files_are_refused_as_checkpoint_targets_and_checkpoints_are_replaced(tmp_path):
    notes = tmp_path / "results.txt"
    notes.write_text("somacube: 480 solutions, counted last week\n")
    refused(run("tile", TILING / "somacube.txt", "--count-only", "--checkpoint", notes),
            "not a cpkit checkpoint")
    assert notes.read_text().startswith("somacube: 480")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(run("tile", TILING / "somacube.txt", "--count-only", "--checkpoint", fifo),
            "not a regular file")
    assert fifo.is_fifo()
    # An empty file (what mktemp leaves) and an earlier checkpoint are fine targets.
    ck = tmp_path / "soma.ck"
    ck.touch()
    for _ in range(2):
        done = run("tile", TILING / "somacube.txt", "--count-only", "--workers", "1",
                   "--checkpoint", ck, "--json")
        assert done.returncode == 0 and summary(done.stdout)["solutions"] == 480, done.stderr
        assert json.loads(ck.read_text())["format"] == "cpkit-checkpoint"


def test_a_checkpoint_that_cannot_be_written_after_the_search_is_a_warning(tmp_path):
    """A file-size limit stands in for a nearly full disk: the checkpoint written at the
    start (under a kilobyte) fits, those with the subproblems done (tens of kilobytes) do
    not.  The count is printed all the same, with one warning, and exit status 3."""
    args = ["tile", PENT, "--count-only", "--workers", "1"]
    warm = run(*args, "--checkpoint", tmp_path / "warm.ck", "--json")   # loads the kernels
    assert summary(warm.stdout)["solutions"] == PENT_COUNT, warm.stderr
    ck = tmp_path / "p.ck"
    small = {resource.RLIMIT_FSIZE: 4096}
    for json_flag in ([], ["--json"]):
        if ck.exists():
            ck.unlink()
        proc = run(*args, "--checkpoint", ck, *json_flag, limits=small)
        assert proc.returncode == 3, proc.stderr
        if json_flag:
            assert summary(proc.stdout)["solutions"] == PENT_COUNT
            assert "File too large" in summary(proc.stdout)["checkpoint_error"]
        else:
            assert f"{PENT_COUNT:,} solutions" in proc.stdout
        lines = [line for line in proc.stderr.splitlines() if not line.startswith(
            "cpkit: compiling")]
        assert len(lines) == 1 and lines[0].startswith("cpkit: warning: ") and \
            "File too large" in lines[0] and "Traceback" not in proc.stderr, proc.stderr
        # The file holds a checkpoint written before, whole: readable, and not finished.
        data = json.loads(ck.read_text())
        assert data["split"] is None or data["pending"]


def test_a_run_killed_while_it_plans_leaves_a_checkpoint_to_resume(tmp_path):
    """The checkpoint is written as the run starts, before the split is planned (a second
    here, seconds on a large board), and resuming it plans again."""
    ck = tmp_path / "p.ck"
    args = ["tile", PENT, "--count-only", "--workers", "2", "--json"]
    proc = start(*args, "--checkpoint", ck)
    assert wait_for(ck.exists, proc), proc.communicate()
    first = json.loads(ck.read_text())
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    assert first["format"] == "cpkit-checkpoint" and first["split"] is None
    resumed = run(*args, "--resume", ck, "--checkpoint", ck)
    assert resumed.returncode == 0, resumed.stderr
    assert summary(resumed.stdout)["solutions"] == PENT_COUNT
    assert summary(resumed.stdout)["complete"] is True
    assert json.loads(ck.read_text())["split"] is not None


def test_a_corrupt_checkpoint_is_explained_in_its_own_terms(tmp_path):
    """Python's own messages ("corrupt checkpoint ('split')", "invalid literal for int()")
    told a user nothing."""
    good = tmp_path / "good.ck"
    made = run("tile", TILING / "somacube.txt", "--count-only", "--workers", "1",
               "--checkpoint", good)
    assert made.returncode == 0, made.stderr
    data = json.loads(good.read_text())
    cases = {"missing": ({k: v for k, v in data.items() if k != "split"},
                         "the field 'split' is missing"),
             "kind": ({**data, "split": {**data["split"], "depth": "x"}},
                      "the field 'split.depth' holds \"x\""),
             "figure": ({**data, "done": {"0": {"count": "many"}}}, "the field 'done'")}
    for name, (content, words) in cases.items():
        bad = tmp_path / f"{name}.ck"
        bad.write_text(json.dumps(content))
        line = refused(run("tile", TILING / "somacube.txt", "--count-only", "--resume", bad),
                       str(bad), "corrupt checkpoint", words)
        assert "invalid literal" not in line and "('" not in line


def test_an_empty_checkpoint_name_is_not_blamed_on_the_puzzle():
    line = refused(run("tile", TILING / "somacube.txt", "--count-only", "--checkpoint", ""),
                   "checkpoint")
    assert "somacube" not in line and "puzzle as a file path" not in line


def test_a_checkpointed_run_refuses_a_puzzle_read_from_a_pipe(tmp_path):
    """The checkpoint records the puzzle file's hash, read again: a pipe gives nothing the
    second time."""
    proc = run("tile", "/dev/stdin", "--count-only", "--checkpoint", tmp_path / "s.ck",
               input=(TILING / "somacube.txt").read_text())
    refused(proc, "/dev/stdin", "a pipe")
