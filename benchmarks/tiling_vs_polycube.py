"""The ``tiling-vs-polycube`` suite: ``cpkit tile`` with no tuning flags against Busche's
polycube 1.2.1 with its best published flags, one process each, side by side in one run.

Each puzzle is run as bundled and as a file the suite writes turned (a quarter turn in the
plane for a flat puzzle; for a solid one, its axes permuted and mirrored), so that neither
program meets only the drawings it was tuned on.  Times are whole processes (start-up, reading,
compiling or loading kernels, search, exit), from the suite's clock; each program's own search
seconds are read from its output (cpkit's include choosing the configuration).  cpkit runs
``python -m cpkit tile FILE --count-only --workers 1 --json`` with Python's byte-code cache on,
as installed; polycube ``-q -i1`` (no solutions printed, its counts and timers).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import Table, progress
from . import polycube_ref as ref
from .tiling import INSTANCES
from .tiling_cut_boxes import cut_table, seed as cut_seed

#: The puzzles: (label, bundled file).  The first twelve are the tiling targets' list; the last
#: four are of cpkit's choosing, for seconds to a minute of polycube time.  On the AMD EPYC of
#: docs/benchmarks.md: the two 64-cell boxes take it 3.7 to 7.5 s; the pentominoes and the L
#: tetromino in 16 x 4 take 38 s drawn 4 wide (as bundled) and 0.16 s drawn 16 wide; the PT
#: pieces in the 13 x 13 diamond (17 pieces, and a region that is not a box) 34 to 45 s.
PUZZLES = [
    ("pentominoes 10 x 6", "pentominoes_10x6.txt"),
    ("pentominoes 12 x 5", "pentominoes_12x5.txt"),
    ("pentominoes 15 x 4", "pentominoes_15x4.txt"),
    ("pentominoes 20 x 3", "pentominoes_20x3.txt"),
    ("pentominoes 8 x 8, centre hole", "pentominoes_8x8_centre_hole.txt"),
    ("one-sided pentominoes 30 x 3", "pentominoes_onesided_30x3.txt"),
    ("Soma cube", "somacube.txt"),
    ("Tetris Cube", "tetriscube.txt"),
    ("Bedlam cube", "bedlamcube.txt"),
    ("pentominoes 3 x 4 x 5", "pentominoes_3x4x5.txt"),
    ("pentominoes 2 x 5 x 6", "pentominoes_2x5x6.txt"),
    ("pentominoes 2 x 3 x 10", "pentominoes_2x3x10.txt"),
    ("pentominoes and square tetromino 8 x 8", "pentominoes_square_8x8.txt"),
    ("pentominoes and L tetromino 2 x 4 x 8", "pentominoes_l_2x4x8.txt"),
    ("pentominoes and L tetromino 16 x 4", "pentominoes_l_16x4.txt"),
    ("pentominoes and tetrominoes in the 13 x 13 diamond", "pt12_diamond.txt"),
]
QUICK = ("pentominoes_10x6.txt", "somacube.txt", "pentominoes_2x3x10.txt")
#: A quarter turn in the plane; a solid's axes permuted (x to y, y to z, z to x) and mirrored.
TURN_2D = ((0, -1, 0), (1, 0, 0), (0, 0, 1))
TURN_3D = ((0, 0, -1), (1, 0, 0), (0, 1, 0))
#: Runs shorter than this (either program) are repeated three times, the median kept.
REPEAT_BELOW = 3.0
TIMEOUT = 600.0


@dataclass
class CpkitRun:
    count: int | None
    seconds: float                  # whole process
    search_seconds: float | None    # search, with choosing the configuration
    figures: dict
    cpu_seconds: float | None = None


def cpkit_command() -> list[str]:
    """``python -m cpkit`` with this interpreter, from the current folder: the checkout the
    suite runs from (its console script would run the installed one, which an editable
    install ties to another checkout)."""
    return [sys.executable, "-m", "cpkit"]


def installed_env() -> dict[str, str]:
    """The environment cpkit runs in as installed: byte-code cache on (some containers turn
    it off, and every start-up then compiles cpkit's sources again)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_cpkit(path: Path, *args: str, timeout: float = TIMEOUT) -> CpkitRun:
    start, cpu = time.perf_counter(), ref.children_cpu()
    try:
        done = subprocess.run([*cpkit_command(), "tile", str(path), "--count-only",
                               "--workers", "1", "--json", *args], capture_output=True,
                              text=True, timeout=timeout, env=installed_env())
    except subprocess.TimeoutExpired:
        return CpkitRun(None, time.perf_counter() - start, None, {})
    seconds, cpu = time.perf_counter() - start, ref.children_cpu() - cpu
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"cpkit tile {path} failed: {done.stderr.strip()[-300:]}")
    figures = json.loads(lines[-1])
    search = figures["seconds"] + figures.get("choice_seconds", 0.0)
    return CpkitRun(figures["solutions"] if figures["complete"] else None, seconds, search,
                    figures, cpu)


def whole_seconds(*command: str) -> tuple[float, float]:
    """The wall and CPU seconds of one process running ``command``."""
    start, cpu = time.perf_counter(), ref.children_cpu()
    subprocess.run(list(command), capture_output=True, check=True, env=installed_env())
    return time.perf_counter() - start, ref.children_cpu() - cpu


def write_turned(puzzle, matrix, folder: Path, name: str) -> Path:
    """The puzzle's file turned by ``matrix``, written by the suite (never edited by hand)."""
    from cpkit.io.polycube import write_polycube
    from cpkit.models.reorient import Turn, turned

    turn = Turn.of(np.array(matrix), puzzle.box)
    path = folder / name
    with open(path, "w") as fh:
        write_polycube(turned(puzzle, turn, name=Path(name).stem), fh,
                       comment=f"{puzzle.name} turned ({turn.describe()}) by the "
                               f"benchmark suite tiling-vs-polycube.")
    return path


def files(folder: Path, quick: bool) -> list[tuple[str, str, Path, object]]:
    """(label, variant, file, puzzle) for every run: each puzzle as bundled and turned."""
    from cpkit.io.polycube import read_polycube

    out = []
    for label, name in PUZZLES:
        if quick and name not in QUICK:
            continue
        path = INSTANCES / name
        puzzle = read_polycube(path)[0]
        matrix = TURN_2D if puzzle.dimension == 2 else TURN_3D
        turned_path = write_turned(puzzle, matrix, folder, name.replace(".txt", "_turned.txt"))
        out.append((label, "as bundled", path, puzzle))
        out.append((label, "turned", turned_path, puzzle))
    return out


def published(name: str) -> int | None:
    manifest = json.loads((INSTANCES / "manifest.json").read_text())
    entry = manifest.get(name, {})
    return entry.get("counts", {}).get("rotation", entry.get("computed", {}).get("rotation"))


def side_by_side(binary: Path | None, path: Path, dimension: int, timeout: float = TIMEOUT
                 ) -> tuple[CpkitRun, ref.Run | None]:
    """cpkit and polycube on one file, alternately, three times each if both are short (the
    median of each kept); each process stopped at ``timeout`` seconds."""
    mine = [run_cpkit(path, timeout=timeout)]
    theirs = [ref.run(binary, path, ref.flags_for(dimension), timeout)] if binary else []
    short = mine[0].seconds < REPEAT_BELOW and (not theirs or theirs[0].seconds < REPEAT_BELOW)
    if short:
        for _ in range(2):
            mine.append(run_cpkit(path, timeout=timeout))
            if binary:
                theirs.append(ref.run(binary, path, ref.flags_for(dimension), timeout))
    return _median(mine), (_median(theirs) if theirs else None)


def _median(runs, key=lambda r: r.seconds):
    runs = sorted(runs, key=key)
    return runs[len(runs) // 2]


def steadied(path: Path, *args: str, key) -> CpkitRun:
    """cpkit once on ``path``; a run whose process took under ``REPEAT_BELOW`` made three
    times and the run of the median ``key`` kept: a search of a few milliseconds, run once,
    says as much about the machine as about the search."""
    runs = [run_cpkit(path, *args)]
    if runs[0].seconds < REPEAT_BELOW:
        runs += [run_cpkit(path, *args) for _ in range(2)]
    return _median(runs, key)


def target(mine: CpkitRun, theirs: ref.Run | None) -> tuple[float | None, str, bool | None]:
    """The ratio the target is about, what it compares, and whether it is met: over 1 s of
    polycube, whole processes at most 0.5; under, cpkit's search against polycube's whole
    process at most 1.0.  A polycube run stopped at ``TIMEOUT`` gives a bound (the ratio is
    below the one shown)."""
    if theirs is None or (theirs.count is None and not theirs.timed_out):
        return None, "", None
    if theirs.seconds > 1.0:
        ratio = mine.seconds / theirs.seconds
        return ratio, "whole / whole <= 0.5", ratio <= 0.5
    if mine.search_seconds is None:
        return None, "", None
    ratio = mine.search_seconds / theirs.seconds
    return ratio, "search / whole <= 1.0", ratio <= 1.0


def speed_table(binary: Path | None, why: str, folder: Path, quick: bool
                ) -> tuple[Table, dict[str, dict[str, CpkitRun]]]:
    runs = files(folder, quick)
    rows = []
    by_puzzle: dict[str, dict[str, CpkitRun]] = {}
    for number, (label, variant, path, puzzle) in enumerate(runs, 1):
        progress(f"{label}, {variant}", number, len(runs))
        mine, theirs = side_by_side(binary, path, puzzle.dimension)
        by_puzzle.setdefault(label, {})[variant] = mine
        ratio, what, met = target(mine, theirs)
        expected = published(path.name.replace("_turned", ""))
        over = theirs is not None and theirs.timed_out
        rows.append([label, variant, expected, mine.count,
                     theirs.count if theirs else None, mine.seconds, mine.search_seconds,
                     mine.figures.get("choice_seconds"),
                     (f"> {theirs.seconds:.0f}" if over else theirs.seconds) if theirs
                     else None,
                     theirs.search_seconds if theirs else None,
                     (f"< {mine.seconds / theirs.seconds:.3f}" if over else
                      mine.seconds / theirs.seconds) if theirs else None,
                     mine.cpu_seconds, theirs.cpu_seconds if theirs else None,
                     mine.cpu_seconds / theirs.cpu_seconds
                     if theirs and theirs.cpu_seconds and mine.cpu_seconds else None,
                     ratio, what, met, _configuration(mine)])
    notes = [f"polycube 1.2.1 was not run: {why}."] if binary is None else []
    notes += [
        "Whole-process seconds are the suite's clock around each process; `cpkit search s` "
        "is cpkit's search with the choice of orientation and configuration (`choice s`, "
        "which includes preparing the filters of each orientation it estimates), `polycube "
        "search s` polycube's own `solve` timer; `CPU s` the whole process's user and system "
        "CPU seconds, which a loaded machine inflates less than the clock.  Runs under 3 s "
        "were made three times, "
        "alternately, and the median kept.  Flags: cpkit `tile FILE --count-only --workers 1 "
        f"--json`; polycube `{' '.join(ref.FLAGS_2D)}` (2D) or `{' '.join(ref.FLAGS_3D)}` (3D) "
        f"with `{' '.join(ref.QUIET)}`.  Counts are up to rotation; `published` is the "
        "manifest's (instances/tiling/manifest.json).",
        "Targets: over 1 s of polycube, cpkit's whole process at most 0.5 times polycube's; "
        "under 1 s, cpkit's search at most polycube's whole process."]
    return Table("cpkit against polycube 1.2.1, one process each, side by side",
                 ["puzzle", "file", "published", "cpkit count", "polycube count",
                  "cpkit whole s", "cpkit search s", "choice s", "polycube whole s",
                  "polycube search s", "whole / whole", "cpkit CPU s", "polycube CPU s",
                  "CPU / CPU", "target ratio", "target", "met", "cpkit configuration"], rows,
                 notes), by_puzzle


def _configuration(run: CpkitRun) -> str:
    f = run.figures
    if not f:
        return ""
    return (f"{f.get('orientation', '')}; {f.get('options', {}).get('heuristic', '')}"
            f"{' at ' + str(f['fila_at']) if 'fila_at' in f else ''}")


def orientation_table(folder: Path, quick: bool, by_puzzle: dict[str, dict[str, CpkitRun]]
                      ) -> Table:
    """The automatic choice against every orientation searched as drawn: each distinct turn
    of the puzzle written to a file and run with ``--orientation file`` (the default
    configuration for its dimension, no choice), against ``auto`` on the bundled and turned
    files."""
    from cpkit.io.polycube import read_polycube
    from cpkit.engines.tiling.auto.tiling_candidates import candidates

    rows = []
    for label, name in PUZZLES:
        if (quick and name not in QUICK) or label not in by_puzzle:
            continue
        puzzle = read_polycube(INSTANCES / name)[0]
        auto = [r.search_seconds for r in by_puzzle[label].values()
                if r.search_seconds is not None]
        if not auto:
            continue
        limit = 3 * max(auto) + 5.0
        searched, each_auto, configurations = [], [], set()
        for k, cand in enumerate(candidates(puzzle)):
            progress(f"{label}, orientation {k + 1} as drawn")
            path = write_turned(puzzle, cand.turn.matrix, folder,
                                name.replace(".txt", f"_orientation{k + 1}.txt"))
            run = steadied(path, "--orientation", "file", "--time-limit", f"{limit:.1f}",
                           key=lambda r: r.figures.get("seconds", 0.0))
            done = run.figures.get("complete", False)
            searched.append((run.figures.get("seconds") if done else None, cand))
            progress(f"{label}, orientation {k + 1}, auto")
            drawn = steadied(path, key=lambda r: r.search_seconds or 0.0)
            each_auto.append(drawn.search_seconds)
            configurations.add((_configuration(drawn).split("; ")[-1],
                                drawn.figures.get("constrained_piece")))
            if drawn.count != by_puzzle[label]["as bundled"].count:
                raise RuntimeError(f"auto counts {drawn.count} on {path.name}")
        finished = [s for s, _ in searched if s is not None]
        best = min(finished) if finished else None
        worst = "; ".join(f"{'x'.join(map(str, c.puzzle.box))}: "
                          f"{'> %.0f' % limit if s is None else '%.3f' % s}"
                          for s, c in searched)
        rows.append([label, len(searched), worst, best, auto[0],
                     auto[1] if len(auto) > 1 else None,
                     max(auto) / best if best else None,
                     f"{min(each_auto):.3f}-{max(each_auto):.3f}", len(configurations),
                     max(each_auto) / best if best else None])
    return Table(
        "The automatic orientation against every orientation searched as drawn (search s)",
        ["puzzle", "orientations", "each as drawn (box: search s)", "best", "auto, bundled",
         "auto, turned", "auto / best", "auto on each drawing", "configurations",
         "worst auto / best"], rows,
        ["`each as drawn`: cpkit `--orientation file` on each distinct turn of the puzzle "
         "(written by the suite), with the default configuration for its dimension (F alone "
         "in 2D; E, then F for the last three pieces in 3D) and no choice; runs stopped at "
         "three times auto's search plus 5 s are shown as `> limit`; a run whose process took "
         "under 3 s was made three times and the median search kept.  `auto`: the search "
         "seconds (with the choice) of the table above; `auto on each drawing`: the least and "
         "most of auto's on each of those files, and `configurations` how many it chose "
         "among them (one: the same search whatever the drawing).  Target: auto within 1.2 "
         "times the best."])


def startup_table() -> Table:
    """What a whole process costs besides the search: the interpreter, ``cpkit --version``,
    and the 10 x 6's whole process taken apart."""
    def median(runs):
        runs = sorted(runs)
        return runs[len(runs) // 2]

    python = median(whole_seconds(sys.executable, "-c", "pass") for _ in range(5))
    version = median(whole_seconds(*cpkit_command(), "--version") for _ in range(5))
    runs = sorted((run_cpkit(INSTANCES / "pentominoes_10x6.txt") for _ in range(5)),
                  key=lambda r: r.seconds)
    r = runs[2]
    f = r.figures
    rest = r.seconds - f["jit_seconds"] - f.get("choice_seconds", 0.0) - f["seconds"]
    return Table(
        "Start-up: whole processes (median of five)",
        ["process", "whole s", "CPU s", "loading kernels s", "filters s", "choice s",
         "search s", "the rest s"],
        [["python -c pass", python[0], python[1], None, None, None, None, None],
         ["cpkit --version", version[0], version[1], None, None, None, None, None],
         ["cpkit tile pentominoes_10x6.txt --count-only --workers 1 --json", r.seconds,
          r.cpu_seconds, f["jit_seconds"], f.get("prep_seconds"), f.get("choice_seconds"),
          f["seconds"], rest]],
        ["`loading kernels`: the kernels' machine code, from the extensions built ahead of "
         "time (`make`, cpkit/_aot.py) or numba's cache (`jit_seconds`, numba's own start "
         "included); `filters`: the volume and parity filters and the redundancy plan "
         "(`prep_seconds`); `the rest`: the interpreter, imports, reading the file, the "
         "filters, the summary.  Target: the 10 x 6 whole process under 0.8 s."])


def tiling_vs_polycube_suite(quick: bool = False) -> list[Table]:
    """cpkit against polycube 1.2.1 (see the module's text)."""
    if not quick:
        cut_seed()                  # a mistyped seed is said before the suite runs
    with tempfile.TemporaryDirectory(prefix="cpkit-bench-") as scratch:
        folder = Path(scratch)
        progress("building polycube 1.2.1")
        binary, why = ref.build(folder)
        progress("warming cpkit's caches")
        # Every kernel the runs load: the Soma cube's first search finishes before any
        # estimate, so the 10 x 6 loads (or compiles) the estimates' kernels; the hybrid's
        # compiled hand-over loop, which only runs of over 1,000 hand-overs load.
        # The kernels built ahead of time, as ``make`` builds them (cpkit/_aot.py).
        subprocess.run([sys.executable, "-m", "cpkit.engines.tiling.tiling_ahead"], check=True,
                       env=installed_env())
        for name in ("somacube.txt", "pentominoes_10x6.txt"):
            run_cpkit(INSTANCES / name)
        subprocess.run([sys.executable, "-c", "from cpkit.engines.tiling.hybrid.hybrid_search "
                        "import loop_jit_seconds; loop_jit_seconds(1)"], check=True,
                       env=installed_env())
        load = os.getloadavg()[0]
        speed, by_puzzle = speed_table(binary, why, folder, quick)
        tables = [speed] + ([] if quick else [cut_table(binary, folder)]) + \
            [orientation_table(folder, quick, by_puzzle), startup_table()]
        tables[0].notes.append(f"Load average (1 min) when the suite started: {load:.2f}; at "
                               f"the end: {os.getloadavg()[0]:.2f}.")
    return tables
