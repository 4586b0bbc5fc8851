"""``kill -9`` at chosen and random moments of split counts (a tiling and an edge-matching
board), including while the run plans its split and while it writes its checkpoint: every
checkpoint left is readable, and resuming it gives the exact count.

The moments: *planning* is right after the run's first write (the checkpoint as the run
starts, before its split); *writing* is when the temporary file of a checkpoint write is seen
in the folder (the kill is counted as one during a write only if that file is still there
after the process died, i.e. the rename had not happened); *searching* is a uniform delay
after the checkpoint first holds the split.  The default suite kills the edge-matching run twice (planning,
writing); the ``slow`` tests do the same for the tiling, and kill ten times a board, resuming
every checkpoint left to its end."""

from __future__ import annotations

import json
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from cpkit.parallel.checkpoint import Checkpoint
from tests.conftest import EDGE_MATCHING, TILING
from tests.robustness import run, start, summary, wait_for

#: (command line, exact count): a split tiling count and a split edge-matching count.
TILING_RUN = (["tile", TILING / "pentominoes_10x6.txt", "--engine", "dlx", "--workers", "2",
               "--count-only", "--json"], 2339)
EM_RUN = (["match", EDGE_MATCHING / "gen_6_b4i5_s3.txt", "--engine", "cp", "--workers", "2",
           "--count-only", "--json"], 16)


def temporaries(ck: Path) -> list[Path]:
    return list(ck.parent.glob(f".{ck.name}.*.tmp"))


def checkpoint_options(ck: Path, every: float) -> list[str]:
    resume = ["--resume", str(ck)] if ck.exists() else []
    return ["--checkpoint", str(ck), "--checkpoint-every", str(every), *resume]


def kill_once(args: list, ck: Path, moment: str, rng: random.Random,
              every: float = 0.05) -> str:
    """Start the run (resuming ``ck`` if there), ``kill -9`` it at ``moment``, check that the
    checkpoint left is readable; returns what the kill hit: "planning" (no split in the file
    yet), "writing" (a temporary file left behind) or "search"."""
    for leftover in temporaries(ck):
        leftover.unlink()
    before = ck.stat().st_mtime_ns if ck.exists() else None
    proc = start(*args, *checkpoint_options(ck, every))
    try:
        wrote = wait_for(lambda: ck.exists() and ck.stat().st_mtime_ns != before, proc)
        if moment == "writing":
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline and \
                    not temporaries(ck):
                pass                                    # no sleep: a write takes a moment
        elif moment == "planning":
            time.sleep(rng.uniform(0.0, 0.2))
        else:
            wait_for(lambda: _planned(ck), proc)
            time.sleep(rng.uniform(0.0, 3.0))
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.communicate()
    assert wrote or ck.exists(), "the run wrote no checkpoint"
    hit = "writing" if temporaries(ck) else None
    Checkpoint.load(ck)                                 # never unreadable
    data = json.loads(ck.read_text())
    return hit or ("planning" if data["split"] is None else "search")


def _planned(ck: Path) -> bool:
    try:
        return json.loads(ck.read_text())["split"] is not None
    except (OSError, ValueError):
        return False


def finish(args: list, ck: Path) -> dict:
    proc = run(*args, *checkpoint_options(ck, 60), timeout=600)
    assert proc.returncode == 0, proc.stderr
    return summary(proc.stdout)


@pytest.mark.parametrize("board", [pytest.param(TILING_RUN, marks=pytest.mark.slow), EM_RUN],
                         ids=["tiling", "edge_matching"])
def test_kill_9_while_planning_and_while_writing_then_resume(tmp_path, board):
    """In the default suite for the edge-matching board only: a tiling run killed while it
    plans is in ``test_checkpoints``, at random moments in ``tests/cli/test_long_runs``."""
    args, count = board
    ck = tmp_path / "run.ck"
    rng = random.Random(55)
    hits = [kill_once(args, ck, "planning", rng)]
    for _ in range(5):                          # until a kill lands inside a write
        hits.append(kill_once(args, ck, "writing", rng, every=0.01))
        if hits[-1] == "writing":
            break
    assert "planning" in hits and "writing" in hits, hits
    result = finish(args, ck)
    assert result["complete"] and result["solutions"] == count


def test_an_auto_run_killed_while_it_races_resumes_to_the_exact_count(tmp_path):
    """``--engine auto`` races the engines before it splits: the checkpoint written as the run
    starts names no engine yet, and resuming it races again (nothing was searched that the
    new race could count twice)."""
    args, count = EM_RUN
    auto = [a for a in args if a not in ("--engine", "cp")]
    ck = tmp_path / "run.ck"
    assert kill_once(auto, ck, "planning", random.Random(7)) == "planning"
    assert json.loads(ck.read_text())["options"]["engine"] == "auto"
    result = finish(auto, ck)
    assert result["complete"] and result["solutions"] == count


#: The slow test's edge-matching board: a generated 7 x 7 that the edges engine (which keeps
#: its state inside unfinished subproblems) counts in about ten seconds on one core.
SLOW_EM = ["match", "--engine", "edges", "--workers", "2", "--count-only", "--json"]


@pytest.mark.slow
@pytest.mark.parametrize("family", ["tiling", "edge_matching"])
def test_ten_kills_each_checkpoint_resumed_to_the_exact_count(tmp_path, family):
    if family == "tiling":
        args, count = TILING_RUN
    else:
        board = tmp_path / "g7.txt"
        made = run("generate", "edge-matching", "--size", "7", "--border-colors", "5",
                   "--inner-colors", "6", "--seed", "1", "-o", board)
        assert made.returncode == 0, made.stderr
        args, count = [*SLOW_EM[:1], board, *SLOW_EM[1:]], 8
    ck = tmp_path / "run.ck"
    rng = random.Random(2026)
    moments = ["planning", "planning", "writing", "writing"] + ["searching"] * 6
    hits = []
    for k, moment in enumerate(moments):
        hits.append(kill_once(args, ck, moment, rng, every=0.01 if moment == "writing"
                              else 0.2))
        left = tmp_path / f"left{k}.ck"
        shutil.copy(ck, left)
        result = finish(args, left)             # every checkpoint left resumes exactly
        assert result["complete"] and result["solutions"] == count, (k, moment, result)
    print(f"{family}: kills hit {hits}")
    assert "planning" in hits and "writing" in hits and "search" in hits, hits
    result = finish(args, ck)
    assert result["complete"] and result["solutions"] == count
