"""The warm-ups compile every kernel a tiling run calls, so that compiling is reported as
``jit_seconds`` and never charged to the search or to ``--engine auto``'s choice: a kernel
left out (the DLX kernel's ``active_options``) compiled inside the choice and turned its 0.06 s
into 2.5 s on a first run."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT

SCRIPT = r"""
import json, sys
from numba.core.registry import CPUDispatcher
from cpkit.engines.exact_cover.dlx import dlx_search as dlx
from cpkit.engines.runtime.jit import warm
from cpkit.engines.tiling.auto import tiling_autoconfig as autoconfig
from cpkit.engines.tiling.fila import fila_probe, fila_search as fila
from cpkit.propagators import tiling_filters
import cpkit

def compiled():
    return {f"{name}.{attr}": len(v.overloads)
            for name, mod in list(sys.modules.items()) if name.startswith("cpkit")
            for attr, v in list(vars(mod).items()) if isinstance(v, CPUDispatcher)}

warm("tiling filters", tiling_filters.warm_up)
dlx.jit_seconds()
fila.jit_seconds(1)
fila_probe.jit_seconds()
before = compiled()
puzzle = cpkit.load(sys.argv[1])
autoconfig.choose(puzzle, {})
after = compiled()
print(json.dumps(sorted(n for n, c in after.items() if c != before.get(n, 0))))
"""


def test_choosing_the_configuration_compiles_nothing_the_warm_ups_left_out():
    out = subprocess.run([sys.executable, "-c", SCRIPT,
                          str(ROOT / "instances/tiling/pentominoes_10x6.txt")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


FIT_SCRIPT = r"""
import json, sys
import cpkit
from cpkit.engines.runtime import jit
from cpkit.propagators import tiling_filter_kernels

puzzle = cpkit.load(sys.argv[1])
off = cpkit.solve(puzzle, engine="dlx", count_only=True)
loaded_off = jit.is_warm("fit filter"), len(tiling_filter_kernels.fit_pass.overloads)
on = cpkit.solve(puzzle, engine="dlx", count_only=True, fit_filter=True)
loaded_on = jit.is_warm("fit filter"), len(tiling_filter_kernels.fit_pass.overloads)
print(json.dumps([off.count, on.count, loaded_off, loaded_on]))
"""


def test_the_fit_filters_kernel_loads_only_for_a_run_that_asks_for_the_filter():
    """The fit filter is off by default: a run without it does not load its kernel (5 ms of
    every start), and one with it loads it in its warm-up, with the same count."""
    out = subprocess.run([sys.executable, "-c", FIT_SCRIPT,
                          str(ROOT / "instances/tiling/pentominoes_20x3.txt")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    off, on, loaded_off, loaded_on = json.loads(out.stdout.strip().splitlines()[-1])
    assert off == on == 2
    assert loaded_off == [False, 0]
    assert loaded_on == [True, 1]
