"""Tiling benchmark suites."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import Table

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances" / "tiling"


def _puzzle(name: str):
    from ..io.polycube import read_polycube

    return read_polycube(INSTANCES / name)[0]


def c_reference() -> Path | None:
    """Build benchmarks/dlx_ref.c (plain C dancing links) once; None if impossible here."""
    src = ROOT / "benchmarks" / "dlx_ref.c"
    cc = shutil.which("cc") or shutil.which("gcc")
    if not src.exists() or cc is None:
        return None
    out = ROOT / "benchmarks" / "bin" / "dlx_ref"
    if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([cc, "-O2", "-o", str(out), str(src)], check=True)
    return out


def run_c_reference(binary: Path, cover) -> dict[str, float]:
    from ..io.dlx_format import write_dlx

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


def cold_jit_seconds(module: str) -> float:
    """Seconds to compile ``module``'s kernels from an empty numba cache, in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = f"import {module} as m; print(m.jit_seconds())"
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def dlx_suite(quick: bool = False) -> list[Table]:
    """DLX against a plain C dancing-links program and CP-SAT, raw counts (issue: foundation)."""
    from ..search import cpsat, dlx

    names = ["pentominoes_20x3.txt", "somacube.txt"] if quick else \
        ["pentominoes_10x6.txt", "somacube.txt"]
    binary = c_reference()
    rows = []
    for name in names:
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
    jit = cold_jit_seconds("cpkit.search.dlx")
    return [Table(
        "DLX, raw counts (every symmetric copy)",
        ["puzzle", "engine", "solutions", "fits", "attempts", "search s", "jit s",
         "time / cpkit dlx"],
        rows,
        [f"`jit s` is the time to load the cached kernels in this process; compiling them from "
         f"an empty cache took {jit:.2f} s.  DLX attempts equal fits (only compatible options "
         f"remain in the matrix).  CP-SAT reports no fits; its branch counts are not "
         f"comparable.  The last column is the ratio of search times in this run."])]
