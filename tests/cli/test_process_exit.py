"""The ``cpkit`` process's start and end: numba loaded without its BLAS probe, cached kernels
loaded without numba's other implementations, and the quick exit that skips the interpreter's
teardown keeping every line of output and the status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "tiling"


def _buffered_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)       # block-buffered standard output, as in a pipe
    return env


def test_output_to_a_file_is_complete_and_the_status_kept(tmp_path):
    out = tmp_path / "out.txt"
    with out.open("w") as stream:
        done = subprocess.run([sys.executable, "-m", "cpkit", "tile",
                               str(INSTANCES / "pentominoes_20x3.txt"), "--workers", "1",
                               "--json"], stdout=stream, stderr=subprocess.PIPE, text=True,
                              env=_buffered_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    summary = json.loads(lines[-1])
    assert summary["solutions"] == 2
    assert sum(line.startswith("solution ") for line in lines) == 2


def test_bad_input_still_ends_with_status_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("this is not a puzzle\n")
    done = subprocess.run([sys.executable, "-m", "cpkit", "tile", str(bad)],
                          capture_output=True, text=True, env=_buffered_env(), timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith("cpkit: error: ") and "Traceback" not in done.stderr


def test_the_command_line_loads_numba_without_importing_scipy_linalg():
    script = (
        "import sys\n"
        "from cpkit.engines.runtime import jit\n"
        "from cpkit.engines.tiling.fila import fila_probe\n"
        "jit.skip_blas_probe = True\n"
        "fila_probe.jit_seconds()\n"
        "loaded = 'scipy.linalg' in sys.modules\n"
        "from scipy.optimize import linear_sum_assignment\n"
        "print(loaded, linear_sum_assignment([[1, 0], [0, 1]])[1].tolist())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "[1,", "0]"]


def test_the_command_line_loads_cached_kernels_without_numbas_other_implementations():
    """A load from the cache installs none of numba's typing and lowering implementations
    (``jit._lean_cache_loads``); they are imported only when something compiles.  The script
    runs twice: the first run may compile (a cold cache), the second must load."""
    script = (
        "import sys\n"
        "from cpkit.engines.runtime import jit\n"
        "from cpkit.engines.tiling.fila import fila_probe\n"
        "from cpkit.engines.exact_cover.dlx import dlx_search\n"
        "jit.skip_blas_probe = True\n"
        "fila_probe.jit_seconds()\n"
        "dlx_search.jit_seconds()\n"
        "print('numba.np.polynomial.polynomial_core' in sys.modules,\n"
        "      'numba.typed.dictimpl' in sys.modules, 'scipy.linalg' in sys.modules)\n")
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False"]
