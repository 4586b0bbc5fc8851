"""Long runs from the command line: kill -9 and Ctrl-C at random moments, resumed each time,
give exactly the uninterrupted count; options and their errors; Monte-Carlo; pictures."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, TILING

PENT = str(TILING / "pentominoes_10x6.txt")
#: 10x6 pentominoes up to rotation with the volume filter: 2,339 solutions and 768,356 fits
#: (FILA Table 1, P2), in about two seconds of search.
PENT_COUNT, PENT_FITS = 2339, 768_356
SPLIT = ["--engine", "dlx", "--workers", "2", "--subproblems", "200", "--count-only", "--json"]


def cpkit(*args: str) -> list[str]:
    return [sys.executable, "-m", "cpkit", *args]


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(cpkit(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)


def summary(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def checkpointed(ck: Path) -> list[str]:
    resume = ["--resume", str(ck)] if ck.exists() else []
    return ["--checkpoint", str(ck), "--checkpoint-every", "0.1", *resume]


def done_count(ck: Path) -> int:
    try:
        return len(json.loads(ck.read_text())["done"])
    except (OSError, ValueError):
        return -1


def test_sigkill_at_random_moments_then_resume_gives_the_exact_count(tmp_path):
    ck = tmp_path / "pent.ck"
    rng = random.Random(2024)
    for _ in range(4):
        before = ck.stat().st_mtime_ns if ck.exists() else None
        proc = start("tile", PENT, *SPLIT, *checkpointed(ck))
        # Once this run has split (its first checkpoint write), kill it at a random moment:
        # while workers start, search, or the checkpoint is being rewritten (every 0.1 s).
        deadline = time.time() + 120
        while proc.poll() is None and time.time() < deadline and \
                (not ck.exists() or ck.stat().st_mtime_ns == before):
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 4.0))
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
    assert ck.exists(), "no checkpoint was written before the kills"
    proc = start("tile", PENT, *SPLIT, *checkpointed(ck))
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    result = summary(out)
    assert result["complete"] and result["solutions"] == PENT_COUNT
    assert result["fits"] == PENT_FITS
    data = json.loads(ck.read_text())
    assert not data["pending"] and len(data["done"]) == len(data["split"]["paths"])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_writes_a_checkpoint_and_reports_then_resume_finishes(tmp_path, sig):
    ck = tmp_path / "pent.ck"
    proc = start("tile", PENT, *SPLIT, *checkpointed(ck))
    deadline = time.time() + 120
    while done_count(ck) < 5 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    partial = summary(out)
    if partial["complete"]:
        pytest.skip("the run finished before the signal arrived (a very fast machine)")
    assert proc.returncode == 130, err
    assert partial["stop_reason"] == "interrupted"
    assert 0 <= partial["solutions"] <= PENT_COUNT
    data = json.loads(ck.read_text())
    assert data["pending"]
    proc = start("tile", PENT, *SPLIT, *checkpointed(ck))
    out, err = proc.communicate(timeout=300)
    result = summary(out)
    assert proc.returncode == 0, err
    assert result["solutions"] == PENT_COUNT and result["fits"] == PENT_FITS


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(cpkit(*args), capture_output=True, text=True, cwd=cwd)


def one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = [line for line in proc.stderr.strip().splitlines()
             if not line.startswith("cpkit: compiling")]     # a cold or slow cache load
    assert len(lines) == 1 and lines[0].startswith("cpkit: error:"), proc.stderr
    for word in words:
        assert word in lines[0]


def test_bad_long_run_options_are_one_line_errors(tmp_path):
    soma = str(TILING / "somacube.txt")
    refused = run_cli("tile", soma, "--count-only", "--workers", "0")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1].endswith("--workers: must be at least 1, got 0")
    one_line_error(run_cli("tile", soma, "--checkpoint", str(tmp_path / "x")), "--count-only")
    one_line_error(run_cli("tile", soma, "--count-only", "--resume", str(tmp_path / "none")),
                   "cannot read")
    corrupt = tmp_path / "corrupt.ck"
    corrupt.write_text('{"format": "cpkit-checkpoint", "vers')
    one_line_error(run_cli("tile", soma, "--count-only", "--resume", str(corrupt)), "JSON")
    ck = tmp_path / "soma.ck"
    ok = run_cli("tile", soma, "--count-only", "--unique", "raw", "--workers", "1",
                 "--checkpoint", str(ck), "--json")
    assert ok.returncode == 0 and summary(ok.stdout)["solutions"] == 11520
    one_line_error(run_cli("tile", str(TILING / "pentominoes_20x3.txt"), "--count-only",
                           "--resume", str(ck)), "another puzzle")
    one_line_error(run_cli("tile", soma, "--count-only", "--unique", "mirror", "--resume",
                           str(ck)), "other options")
    one_line_error(run_cli("tile", soma, "--count-only", "--engine", "cpsat", "--workers", "2"),
                   "cannot split")
    one_line_error(run_cli("tile", soma, "--render", str(tmp_path / "x.gif")), ".png")


def test_resuming_a_finished_checkpoint_reports_the_count(tmp_path):
    soma = str(TILING / "somacube.txt")
    ck = tmp_path / "soma.ck"
    args = ["tile", soma, "--count-only", "--unique", "raw", "--workers", "1", "--json"]
    first = summary(run_cli(*args, "--checkpoint", str(ck)).stdout)
    again = summary(run_cli(*args, "--resume", str(ck)).stdout)
    assert first["solutions"] == again["solutions"] == 11520
    assert first["fits"] == again["fits"]


def test_cover_with_two_workers_counts_like_one(tmp_path):
    """A dlx1 file: the 10x6 pentomino matrix, split over two worker processes."""
    from cpkit.io.dlx_format import write_dlx
    from cpkit.io.polycube import read_polycube

    puzzle = read_polycube(TILING / "pentominoes_20x3.txt")[0]
    path = tmp_path / "p20x3.dlx"
    with open(path, "w") as fh:
        write_dlx(puzzle.exact_cover(), fh)
    one = summary(run_cli("cover", str(path), "--count-only", "--workers", "1", "--json").stdout)
    two = summary(run_cli("cover", str(path), "--count-only", "--workers", "2",
                          "--subproblems", "40", "--json").stdout)
    assert one["solutions"] == two["solutions"] == 8
    assert one["fits"] == two["fits"] and two["subproblems"] >= 40


def test_monte_carlo_estimates_without_solving():
    proc = run_cli("tile", str(TILING / "somacube.txt"), "--engine", "dlx", "--unique", "raw",
                   "--monte-carlo", "3000", "--json")
    assert proc.returncode == 0, proc.stderr
    est = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "solutions" not in est
    assert (est["name"], est["family"], est["engine"]) == ("somacube", "tiling", "dlx")
    # DLX: 145,450 fits and 11,520 solutions; the estimate is within four standard errors.
    assert abs(est["estimated_nodes"] - 145_450) < 4 * est["nodes_error"]
    assert abs(est["estimated_solutions"] - 11_520) < 4 * est["solutions_error"]
    text = run_cli("tile", str(TILING / "pentominoes_10x6.txt"), "--monte-carlo", "20",
                   "--mc-remaining", "6")
    assert text.returncode == 0 and "nodes/s" in text.stdout
    # 10 probes on 20x3 (2 solutions up to rotation) reach none: said, not left as "0 +- 0"
    rare = run_cli("tile", str(TILING / "pentominoes_20x3.txt"), "--monte-carlo", "10")
    assert rare.returncode == 0 and "~ 0.0 +- 0.0" in rare.stdout
    assert "no probe reached a solution" in rare.stdout


def test_monte_carlo_stops_at_the_time_limit_and_on_ctrl_c_with_its_estimate(tmp_path):
    board = tmp_path / "b10.txt"
    assert run_cli("generate", "edge-matching", "--size", "10", "--border-colors", "11",
                   "--inner-colors", "11", "--seed", "1", "-o", str(board)).returncode == 0
    many = ["match", str(board), "--engine", "cp", "--monte-carlo", "100000000", "--json"]
    began = time.perf_counter()
    proc = run_cli(*many, "--time-limit", "1")
    est = summary(proc.stdout)
    assert proc.returncode == 0 and time.perf_counter() - began < 60
    assert est["stop_reason"] == "time_limit" and 2 <= est["probes"] < 100_000_000
    assert est["probe_seconds"] < 2 and est["estimated_nodes"] > 0
    proc = start(*many)
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    est = summary(out)
    assert proc.returncode == 130 and est["stop_reason"] == "interrupted", err
    assert est["probes"] > 0 and est["estimated_nodes"] > 0


def test_monte_carlo_whose_first_probe_outlasts_the_time_limit_says_it_has_no_estimate(tmp_path):
    """One probe of a 16 x 16 board shaved at every node takes an hour: the time limit cuts it
    (it once ran on, deaf to Ctrl-C), and there is no estimate to give rather than a wrong one
    (NaN printed as "beyond the float range")."""
    board = tmp_path / "b16.txt"
    assert run_cli("generate", "edge-matching", "--size", "16", "--border-colors", "5",
                   "--inner-colors", "17", "--seed", "1", "-o", str(board)).returncode == 0
    probe = ["match", str(board), "--engine", "edges", "--shave", "all", "--monte-carlo", "5",
             "--time-limit", "0.5"]
    began = time.perf_counter()
    proc = run_cli(*probe)
    assert proc.returncode == 0 and time.perf_counter() - began < 60, proc.stderr
    assert "no Monte-Carlo probe ended within the time limit" in proc.stdout
    est = summary(run_cli(*probe, "--json").stdout)
    assert est["probes"] == 0 and est["stop_reason"] == "time_limit"
    assert est["estimated_nodes"] is None and est["probe_seconds"] < 10


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_render_writes_pictures(tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"soma{suffix}"
    proc = run_cli("render", str(TILING / "somacube.txt"), "-o", str(out), "--solution", "3")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes().startswith(magic)
    tiled = tmp_path / f"p{suffix}"
    proc = run_cli("tile", str(TILING / "pentominoes_20x3.txt"), "--count-only", "--render",
                   str(tiled))
    assert proc.returncode == 0, proc.stderr
    assert tiled.read_bytes().startswith(magic)


@pytest.mark.parametrize("engine", ["cp", "backtrack"])
def test_match_with_two_workers_counts_like_one(engine):
    from tests.conftest import EDGE_MATCHING

    board = str(EDGE_MATCHING / "gen_6_b4i5_s3.txt")
    runs = []
    for workers in ("1", "2"):
        proc = start("match", board, "--engine", engine, "--workers", workers,
                     "--subproblems", "40", "--count-only", "--json")
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        runs.append(summary(out))
    assert runs[0]["solutions"] == runs[1]["solutions"] == 16
    assert runs[1]["subproblems"] >= 40 and runs[1]["workers"] == 2


@pytest.mark.parametrize("workers", ["2", "1"])
def test_a_killed_edge_matching_run_resumes_inside_its_subproblems(tmp_path, workers):
    """While the run goes, the workers send their subproblem's state every --checkpoint-every
    seconds and the checkpoint keeps it, so after kill -9 the resumed run goes on inside those
    subproblems (unfinished: on a fast machine the smaller of the two may have finished) and
    ends on the figures of one uninterrupted run.  With one worker the subproblem is searched
    in the coordinator's own process, which saved nothing until it ended."""
    board = tmp_path / "g7.txt"
    made = run_cli("generate", "edge-matching", "--size", "7", "--border-colors", "5",
                   "--inner-colors", "7", "--seed", "12", "-o", str(board))
    assert made.returncode == 0, made.stderr
    args = ["match", str(board), "--engine", "backtrack", "--workers", workers,
            "--subproblems", "2", "--count-only", "--json"]
    whole = summary(run_cli(*args).stdout)
    assert whole["complete"] and whole["solutions"] == 4
    ck = tmp_path / "g7.ck"
    proc = start(*args, "--checkpoint", str(ck), "--checkpoint-every", "0.2")
    deadline = time.time() + 120
    while proc.poll() is None and time.time() < deadline and \
            '"states"' not in (ck.read_text() if ck.exists() else ""):
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    data = json.loads(ck.read_text())
    assert data["states"] and set(data["states"]).isdisjoint(data["done"]) and \
        len(data["done"]) < 2, "killed before a state was saved, or too late"
    resumed = run_cli(*args, "--resume", str(ck))
    assert resumed.returncode == 0, resumed.stderr
    result = summary(resumed.stdout)
    assert result["complete"] and result["solutions"] == 4
    assert result["nodes"] == whole["nodes"]
