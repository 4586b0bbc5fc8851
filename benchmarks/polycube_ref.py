"""Busche's polycube 1.2.1, the reference program of the suite ``tiling-vs-polycube``.

polycube is GPL software and no part of cpkit: the benchmark builds it from its unmodified
sources, kept outside the repository (``../shared/reference/polycube-1.2.1`` beside a checkout,
or the folder named by ``CPKIT_POLYCUBE_SOURCES``), with their own ``build.sh`` into a scratch
folder, and runs it on the same definition files as cpkit.  Where it cannot be built (no
sources, no C++ compiler or Boost), ``build`` says why and the suite reports that instead.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from . import ROOT

SOURCES = ROOT.parent / "shared" / "reference" / "polycube-1.2.1"

#: The best published configurations (the reference folder's README): 3D puzzles (the Tetris
#: Cube's), and the 2D pentomino rectangles.  ``-q`` prints no solutions (cpkit runs with
#: ``--count-only``), ``-i1`` prints the count and the timings read back here.
FLAGS_3D = ("-r#", "-F", "-m10", "-b5")
FLAGS_2D = ("-r#", "-F", "-b10")
QUIET = ("-q", "-i1")


@dataclass
class Run:
    """One polycube process: the count (None if it did not finish), its whole-process wall
    seconds, and the search seconds it reports itself (its ``solve`` timer)."""

    count: int | None
    seconds: float
    search_seconds: float | None
    timed_out: bool = False
    cpu_seconds: float | None = None


def sources() -> Path:
    return Path(os.environ.get("CPKIT_POLYCUBE_SOURCES", SOURCES))


def build(scratch: Path) -> tuple[Path | None, str]:
    """Build polycube into ``scratch``; (the binary, "") or (None, why not)."""
    src = sources()
    script = src / "build.sh"
    if not script.exists():
        return None, f"no polycube 1.2.1 sources at {src} (set CPKIT_POLYCUBE_SOURCES)"
    for tool in ("gcc", "g++"):
        if shutil.which(tool) is None:
            return None, f"no {tool} to build polycube 1.2.1 (apt-get install g++)"
    binary = scratch / "polycube"
    done = subprocess.run(["sh", str(script), str(binary)], capture_output=True, text=True)
    if done.returncode != 0 or not binary.exists():
        last = (done.stderr.strip().splitlines() or ["unknown error"])[-1]
        return None, (f"polycube 1.2.1 did not build ({last[:160]}); it needs g++ and "
                      f"libboost-program-options-dev")
    return binary, ""


def flags_for(dimension: int) -> tuple[str, ...]:
    return FLAGS_2D if dimension == 2 else FLAGS_3D


def run(binary: Path, path: Path, flags: tuple[str, ...], timeout: float) -> Run:
    """Run polycube on ``path`` with ``flags`` (and ``QUIET``), one process, timed whole."""
    start, cpu = time.perf_counter(), children_cpu()
    try:
        done = subprocess.run([str(binary), *flags, *QUIET, str(path)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(None, time.perf_counter() - start, None, timed_out=True)
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    found = re.search(r"^SOLUTIONS=(\d+)", done.stdout, re.M)
    solve = re.search(r"^\s*solve\s*:\s*([0-9.]+)", done.stdout, re.M)
    return Run(int(found.group(1)) if found else None, seconds,
               float(solve.group(1)) if solve else None, cpu_seconds=cpu)


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
