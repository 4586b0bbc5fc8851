"""Benchmark suite ``jit``: what a first run of each engine costs before it searches.

A user's first run of an engine (and every run after an upgrade: the cache is keyed by the
sources, ``cpkit/_numba_cache.py``) compiles its kernels; later runs load them from numba's
cache.  Each engine is measured in two fresh processes sharing an empty cache directory of its
own: the first compiles, the second loads.  The tiny bundled instances make the search itself
negligible; the figures are the engines' ``jit_seconds``.  The child also counts the helpers
compiled for more than one tuple of argument types (docs/architecture.md, "One signature per
helper"), each of which is compiled again with all it calls.
"""

from __future__ import annotations

import json
import tempfile

from . import ROOT, Table, progress
from .tiling import in_fresh_process

BOARD = ROOT / "instances" / "edge_matching" / "gen_4_b2i3_s2.txt"
TILING = ROOT / "instances" / "tiling" / "pentominoes_20x3.txt"

#: Engine, the instance it runs on.  The brute force first: it is the quick suite.
ENGINES = [("backtrack", BOARD), ("cp", BOARD), ("edges", BOARD), ("dlx", TILING),
           ("fila", TILING)]

#: Run in a child process: one engine on one instance, then its ``jit_seconds`` and the helpers
#: of the package holding several signatures, as JSON.
_CHILD = """
import json, sys
import numba
import cpkit
from cpkit.engines.dispatch import solve

engine, path = sys.argv[1], sys.argv[2]
result = solve(cpkit.load(path), count_only=True, engine=engine)
extra = 0
for name, module in list(sys.modules.items()):
    if name.startswith("cpkit"):
        for f in vars(module).values():
            if isinstance(f, numba.core.registry.CPUDispatcher) and f.__module__ == name:
                extra += max(0, len(f.signatures) - 1)
print(json.dumps({"jit": result.jit_seconds, "count": result.count, "extra": extra}))
"""


def jit_suite(quick: bool = False) -> list[Table]:
    rows = []
    engines = ENGINES[:1] if quick else ENGINES
    for number, (engine, path) in enumerate(engines, 1):
        progress(f"{engine}: compiling from an empty cache", number, len(engines))
        with tempfile.TemporaryDirectory(prefix="cpkit-jit-") as cache:
            cold = json.loads(in_fresh_process(_CHILD, cache, engine, str(path)))
            warm = json.loads(in_fresh_process(_CHILD, cache, engine, str(path)))
        if cold["count"] != warm["count"]:
            raise RuntimeError(f"{engine} counted {cold['count']} compiled and {warm['count']} "
                               f"loaded from the cache on {path.name}")
        rows.append([engine, path.name, round(cold["jit"], 2), round(warm["jit"], 2),
                     cold["extra"]])
    return [Table("Kernel compilation from an empty numba cache, and loading from it, per engine",
                  ["engine", "instance", "compile s", "load s", "extra signatures"], rows,
                  ["Each engine in two fresh processes sharing an empty cache directory of its "
                   "own: the first compiles its kernels, the second loads them (`jit_seconds` "
                   "of the result; the search of these tiny instances is negligible).  `extra "
                   "signatures`: helpers compiled for more than one tuple of argument types in "
                   "the compiling process, beyond their first (each is compiled again with all "
                   "it calls; 0 is the rule)."])]
