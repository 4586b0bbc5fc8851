"""Local worker processes: a worker whose coordinator was killed ends on its own, even with a
large result it can no longer hand back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpkit.io.edge_matching import write_native
from cpkit.models.em_generator import generate

PROC = Path("/proc")
pytestmark = pytest.mark.skipif(not (PROC / "self" / "stat").exists(),
                                reason="reads processes from /proc (Linux)")


def children(pid: int) -> list[int]:
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def resident_bytes(pid: int) -> int:
    try:
        return int((PROC / str(pid) / "statm").read_text().split()[1]) * os.sysconf("SC_PAGESIZE")
    except OSError:
        return 0


def running(pid: int) -> bool:
    try:
        return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_of_a_killed_coordinator_exit_though_they_hold_solutions(tmp_path):
    """Enumerating a board with millions of solutions, each worker holds its subproblem's
    solutions (to hand them back in order); ``kill -9`` of the coordinator used to leave them
    blocked for ever, flushing that result into a pipe nobody reads."""
    board = tmp_path / "many.txt"
    write_native(generate(6, border_colours=2, inner_colours=2, seed=1), board)
    coordinator = subprocess.Popen(
        [sys.executable, "-m", "cpkit", "match", str(board), "--unique", "raw", "--workers", "2",
         "--engine", "backtrack", "--json"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 180                     # a cold numba cache compiles first
        holding: list[int] = []
        while not holding and time.time() < deadline and coordinator.poll() is None:
            # A worker starts at about 120 MB and grows by some 25 MB a second.
            holding = [p for p in children(coordinator.pid) if resident_bytes(p) > 250e6]
            time.sleep(0.2)
        assert holding, "no worker came to hold solutions"
        workers = children(coordinator.pid)
    finally:
        coordinator.send_signal(signal.SIGKILL)
        coordinator.wait()
    deadline = time.time() + 20
    while any(running(p) for p in workers) and time.time() < deadline:
        time.sleep(0.2)
    left = [p for p in workers if running(p)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_a_script_that_starts_workers_unguarded_is_told_how_to_guard_it(tmp_path):
    """Spawned workers import the main script again; one that calls ``cpkit.solve`` with
    workers at its top level makes every worker call it too, and die starting.  The error
    says so, not only that a worker died."""
    script = tmp_path / "unguarded.py"
    puzzle = Path(__file__).resolve().parents[2] / "instances" / "tiling" / "somacube.txt"
    script.write_text(f"import cpkit\nprint(cpkit.solve({str(puzzle)!r}, workers=2).count)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert "a worker process died while starting" in last
    assert 'if __name__ == "__main__":' in last
