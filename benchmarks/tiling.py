"""Tiling benchmark suites."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import ROOT, Table, progress

INSTANCES = ROOT / "instances" / "tiling"


def _puzzle(name: str):
    from cpkit.io.polycube import read_polycube

    return read_polycube(INSTANCES / name)[0]


def c_reference(name: str = "dlx_ref") -> Path | None:
    """Build benchmarks/NAME.c (a plain C reference program; by default dancing links) once;
    None if impossible here."""
    src = ROOT / "benchmarks" / f"{name}.c"
    cc = shutil.which("cc") or shutil.which("gcc")
    if not src.exists() or cc is None:
        return None
    out = ROOT / "benchmarks" / "bin" / name
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([cc, "-O2", "-o", str(out), str(src)], check=True)
    return out


def run_c_reference(binary: Path, cover) -> dict[str, float]:
    from cpkit.io.dlx_format import write_dlx

    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as fh:
        renamed = type(cover)([f"i{k}" for k in range(cover.n_primary)], cover.secondary,
                              cover.option_ptr, cover.option_items, cover.need)
        write_dlx(renamed, fh)
        path = fh.name
    try:
        out = subprocess.run([str(binary), path], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return {k: float(v) for k, v in (kv.split("=") for kv in out.split())}


def in_fresh_process(code: str, cache: str, *args: str) -> str:
    """The last line ``code`` prints, run with ``args`` by a fresh Python whose numba cache is
    the directory ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return out.strip().splitlines()[-1]


def cold_jit_seconds(module: str) -> float:
    """Seconds to compile ``module``'s kernels from an empty numba cache, in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        return float(in_fresh_process(f"import {module} as m; print(m.jit_seconds())", cache))


def dlx_suite(quick: bool = False) -> list[Table]:
    """DLX against a plain C dancing-links program and CP-SAT, raw counts."""
    from cpkit.engines.cpsat import cpsat_search as cpsat
    from cpkit.engines.exact_cover.dlx import dlx_search as dlx

    names = ["pentominoes_20x3.txt", "somacube.txt"] if quick else \
        ["pentominoes_10x6.txt", "somacube.txt"]
    binary = c_reference()
    rows = []
    for number, name in enumerate(names, 1):
        progress(name, number, len(names))
        puzzle = _puzzle(name)
        cover = puzzle.exact_cover()
        r = dlx.solve_tiling(puzzle, count_only=True)
        c = run_c_reference(binary, cover) if binary else None
        rows.append([puzzle.name, "cpkit dlx (numba)", r.count, r.stats.fits, r.stats.attempts,
                     r.seconds, r.jit_seconds, 1.0])
        if c:
            rows.append([puzzle.name, "plain C dlx (benchmarks/dlx_ref.c)", int(c["solutions"]),
                         int(c["nodes"]), int(c["nodes"]), c["seconds"], None,
                         c["seconds"] / r.seconds])
        s = cpsat.solve_tiling(puzzle, count_only=True)
        rows.append([puzzle.name, "CP-SAT (one Boolean per image)", s.count, None, None,
                     s.seconds, None, s.seconds / r.seconds])
    jit = cold_jit_seconds("cpkit.engines.exact_cover.dlx.dlx_search")
    return [Table(
        "DLX, raw counts (every symmetric copy)",
        ["puzzle", "engine", "solutions", "fits", "attempts", "search s", "jit s",
         "time / cpkit dlx"],
        rows,
        [f"`jit s` is the time to load the cached kernels in this process; compiling them from "
         f"an empty cache took {jit:.2f} s.  DLX attempts equal fits (only compatible options "
         f"remain in the matrix).  CP-SAT reports no fits; its branch counts are not "
         f"comparable.  The last column is the ratio of search times in this run."])]


# Rows of Busche's Table 2 (seed 001; 2.5 GHz P4) and FILA Table 1 (seed 000; 2.9 GHz i3) that
# used DLX alone, keyed by our configuration label: (seed row, fits, seconds).
SEED_DLX_ROWS = {
    ("pentominoes_10x6.txt", "raw"): ("Table 2 P-1", 3_615_971, 38.761),
    ("pentominoes_10x6.txt", "R"): ("Table 2 P-5 / FILA P1", 892_247, 9.449),
    ("pentominoes_10x6.txt", "R + V filter"): ("FILA P2", 768_356, 1.754),
    ("tetriscube.txt", "R(G)"): ("Table 2 TC-5", 68_141_081, 1237.0),
    ("tetriscube.txt", "R(L)"): ("FILA TC1", 30_255_329, 112.951),
}

# Configurations: label -> solve() options.  "R" is the redundancy filter (automatic piece).
FILTER_CONFIGS = [
    ("raw", dict(unique="raw", volume_filter=False, parity_filter=False)),
    ("R", dict(volume_filter=False, parity_filter=False)),
    ("R + V filter", dict(volume_filter=True, parity_filter=False)),
    ("R + P filter", dict(volume_filter=False, parity_filter=True)),
    ("R + F filter", dict(volume_filter=False, parity_filter=False, fit_filter=True)),
    ("R + P trigger", dict(volume_filter=False, parity_filter=False, parity_trigger=1)),
    ("R + V trigger", dict(volume_filter=False, parity_filter=False, volume_trigger=1)),
    ("R + V filter re-applied", dict(volume_filter=1, parity_filter=False)),
    ("R + V + P + F filters", dict(volume_filter=True, parity_filter=True, fit_filter=True)),
]
TC_CONFIGS = [
    ("R(G)", dict(redundancy="G", volume_filter=False, parity_filter=False)),
    ("R(L)", dict(redundancy="L", volume_filter=False, parity_filter=False)),
    ("R(L) + P trigger", dict(redundancy="L", volume_filter=False, parity_filter=False,
                              parity_trigger=1)),
    ("R(L) + P filter", dict(redundancy="L", volume_filter=False, parity_filter=True)),
    ("R(L) + V trigger", dict(redundancy="L", volume_filter=False, parity_filter=False,
                              volume_trigger=1)),
    ("R(L) + F filter", dict(redundancy="L", volume_filter=False, parity_filter=False,
                             fit_filter=True)),
]


def filters_suite(quick: bool = False) -> list[Table]:
    """DLX with and without each filter and trigger."""
    from cpkit.engines.dispatch import solve

    plan = [("pentominoes_10x6.txt", FILTER_CONFIGS),
            ("pentominoes_onesided_30x3.txt", FILTER_CONFIGS),
            ("tetriscube.txt", TC_CONFIGS)]
    if quick:
        plan = [("pentominoes_20x3.txt", FILTER_CONFIGS[:3]), ("somacube.txt", FILTER_CONFIGS[:3])]
    rows = []
    for number, (name, configs) in enumerate(plan, 1):
        progress(name, number, len(plan))
        puzzle = _puzzle(name)
        for label, options in configs:
            r = solve(puzzle, engine="dlx", count_only=True, **options)
            extra = r.stats.extra
            removed = sum(int(extra.get(k, 0)) for k in
                          ("volume_filter_removed", "parity_filter_removed", "fit_filter_removed"))
            triggered = int(extra.get("parity_backtracks", 0)) + \
                int(extra.get("volume_backtracks", 0))
            seed = SEED_DLX_ROWS.get((name, label))
            rows.append([puzzle.name, label, extra.get("constrained_piece") or "-", r.count,
                         r.stats.attempts, r.stats.fits, removed,
                         int(extra.get("filtered_in_search", 0)), triggered,
                         float(extra.get("prep_seconds", 0.0)), r.seconds,
                         seed[0] if seed else "", seed[1] if seed else None,
                         seed[2] if seed else None])
    return [Table(
        "DLX (min-fit) with each filter and trigger, counts up to rotation",
        ["puzzle", "configuration", "piece", "solutions", "attempts", "fits", "images filtered",
         "hidden in search", "trigger backtracks", "filter s", "search s", "seed row",
         "seed fits", "seed s"],
        rows,
        ["R: rotational-redundancy filter (automatic piece, or the named one).  Filters run once "
         "before the search unless 're-applied' (after every placement).  Triggers test every "
         "placement.  DLX attempts equal fits.  Seed times are from a 2.5 GHz Pentium 4 "
         "(Table 2) or a 2.9 GHz i3 (FILA Table 1) and are given for scale only; fits are "
         "comparable where the configuration is the same."])]
