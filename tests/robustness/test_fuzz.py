"""A thousand mutated files of each kind (polycube definitions, edge-matching boards, dlx1
exact covers) and random bytes: each one is refused with exit status 2 and one line naming the
file, or read and solved; never a traceback; the process stays under 500 MB.

How, and why it is faithful: 3,000 runs of ``python -m cpkit`` would each spend about a
second starting Python, importing numba and loading the kernels, far too long for the default
suite.  So one process per kind (``tests/robustness/fuzz_driver.py``, started as a user starts
cpkit, in a fresh interpreter) calls ``cpkit.cli.main`` -- the function the ``cpkit`` command
runs, with the same arguments -- once per input, with standard output and standard error
captured: a traceback would be an exception out of ``main``, which the driver reports with the
input that raised it (shrunk by Hypothesis to a smallest one).  Its peak resident memory
(``VmHWM``: see ``tests/robustness/memory.py``), over all its inputs, bounds the memory of
each run.
Each valid mutant is solved (``--count-only --workers 1 --time-limit 2``), so the search on
what a reader accepts is exercised too.  The three processes run side by side.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

KINDS = ("polycube", "edge_matching", "dlx1")
PER_KIND = 1000
MAX_MB = 500


def fuzz(tmp_path) -> dict[str, dict]:
    """One driver process per kind, side by side; each one's report, or the test fails with
    the input that broke the contract."""
    procs = {}
    for kind in KINDS:
        (tmp_path / kind).mkdir(exist_ok=True)
        procs[kind] = subprocess.Popen(
            [sys.executable, "-m", "tests.robustness.fuzz_driver", kind, str(PER_KIND),
             str(tmp_path / kind)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT)
    reports = {}
    for kind, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        lines = out.strip().splitlines()
        if proc.returncode != 0 or not lines:
            pytest.fail(f"{kind}: the contract broke\n{out[-6000:]}\n{err[-6000:]}")
        reports[kind] = json.loads(lines[-1])
    return reports


def test_a_thousand_mutated_files_of_each_kind_get_one_line_and_no_traceback(tmp_path):
    for kind, report in fuzz(tmp_path).items():
        assert report["inputs"] == PER_KIND, report
        assert report["refused"] > PER_KIND // 2, report          # mostly broken files
        peaks = tmp_path / kind / "peaks.jsonl"     # the inputs that raised the peak
        assert report["peak_rss_mb"] < MAX_MB, (
            report, peaks.read_text()[-6000:] if peaks.exists() else "")
