"""Standard output that cannot be written (a full disk, a pipe closed by ``head``) ends the run
with one line and its own exit status (74, 141), never a traceback; and ``cpkit cover``
prints its solutions as it finds them, as ``tile`` and ``match`` do."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import EDGE_MATCHING, TILING
from tests.robustness import one_line, read_line, run, start, summary
from tests.robustness.memory import peak_mb

FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def queens(path: Path, n: int) -> Path:
    """The n queens as a dlx1 exact cover: rows and columns primary, diagonals secondary."""
    items = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    diagonals = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    lines = [" ".join(items) + " | " + " ".join(diagonals)]
    lines += [f"r{r} c{c} a{r + c} b{r - c + n - 1}" for r in range(n) for c in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


@needs_full
@pytest.mark.parametrize("args", [
    ["tile", TILING / "pentominoes_20x3.txt", "--count-only", "--json"],
    ["tile", TILING / "pentominoes_20x3.txt", "--unique", "raw"],
    ["match", EDGE_MATCHING / "gen_4_b2i3_s2.txt", "--json"]], ids=["json", "tilings", "boards"])
def test_a_full_disk_on_standard_output_is_one_line(args):
    with FULL.open("w") as full:
        proc = run(*args, stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 74, proc.stderr
    one_line(proc.stderr, "cannot write to standard output", "No space left on device")


@needs_full
def test_cover_on_a_full_disk_is_one_line(tmp_path):
    with FULL.open("w") as full:
        proc = run("cover", queens(tmp_path / "q6.dlx", 6), stdout=full,
                   stderr=subprocess.PIPE)
    assert proc.returncode == 74, proc.stderr
    one_line(proc.stderr, "No space left on device")


@pytest.mark.parametrize("engine", ["cp", "cpsat"])
def test_a_pipe_closed_by_head_stops_the_run_with_one_line(engine):
    """``cpkit match ... | head -1``: the reader goes away after the first line."""
    proc = start("match", EDGE_MATCHING / "gen_4_b2i3_s2.txt", "--unique", "raw", "--engine",
                 engine)
    assert read_line(proc.stdout, 120) == "solution 1:\n"
    proc.stdout.close()                         # what head does after its line
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141, err
    one_line(err, "standard output was closed")


def test_cover_streams_its_solutions(tmp_path):
    """15 queens (2,279,184 covers): the first is printed at once, and memory stays flat (all
    were kept to be printed at the end: 394 MB in ten seconds)."""
    proc = start("cover", queens(tmp_path / "q15.dlx", 15), "--workers", "1")
    try:
        assert read_line(proc.stdout, 60) == "solution 1:\n", "nothing printed while searching"
        began = time.monotonic()
        drained = 0
        while time.monotonic() - began < 4:             # keep the pipe drained meanwhile
            drained += len(proc.stdout.readline())
        peak = peak_mb(proc.pid)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    final = out.strip().splitlines()[-1]
    assert "exact covers, stopped early (interrupted)" in final
    assert drained > 100_000 and peak < 300, (drained, peak)


def test_cover_prints_every_solution_in_order_with_the_json_summary(tmp_path):
    proc = run("cover", queens(tmp_path / "q6.dlx", 6), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("solution ") == 4 and "solution 4:" in proc.stdout
    assert summary(proc.stdout)["solutions"] == 4       # six queens: four solutions
