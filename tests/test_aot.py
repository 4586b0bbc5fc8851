"""Kernels built ahead of time (cpkit/_aot.py): an extension runs only for the argument types it
was built for, only for the sources it was built from, never under bounds checking, and
computes what its JIT kernel computes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cpkit import _aot
from cpkit.engines.exact_cover.dlx import dlx_kernel
from cpkit.io.polycube import read_polycube

from .conftest import TILING


@pytest.fixture
def own_folder(tmp_path, monkeypatch):
    """An empty folder for extensions, no manifest read yet, extensions in use."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(_aot, "ENABLED", True)
    monkeypatch.setattr(_aot, "_manifest", None)
    return tmp_path / "aot"


def test_an_argument_of_another_type_takes_the_jit_kernel(own_folder):
    """The check in front of an extension: a spy stands for it; a call whose arrays are of the
    built types reaches it, one with another dtype, a non-contiguous or a read-only array, a
    tuple of another length or a float for an int goes to the JIT kernel."""
    calls = []
    spec = [["array", "int32", 1, True], "int", ["tuple", 1], "bool"]
    kernel = _aot.Kernel("spy", lambda *a: ("jit", a))
    kernel.take([(spec, lambda *a: calls.append(a) or ("aot", a))])
    good = (np.zeros(4, np.int32), 3, (1,), True)
    assert kernel(*good)[0] == "aot"
    read_only = np.zeros(4, np.int32)
    read_only.flags.writeable = False
    for bad in [(np.zeros(4, np.int64), 3, (1,), True),
                (np.zeros(8, np.int32)[::2], 3, (1,), True),
                (read_only, 3, (1,), True),
                (np.zeros((2, 2), np.int32), 3, (1,), True),
                (np.zeros(4, np.int32), 3.0, (1,), True),
                (np.zeros(4, np.int32), True, (1,), True),
                (np.zeros(4, np.int32), 3, (1, 2), True),
                (np.zeros(4, np.int32), 3, (1,), 1)]:
        assert kernel(*bad)[0] == "jit"
    assert len(calls) == 1


def test_no_extension_is_used_under_bounds_checking_or_when_turned_off(monkeypatch):
    monkeypatch.delenv("CPKIT_AOT", raising=False)
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "1")
    assert not _aot.enabled()
    monkeypatch.setenv("NUMBA_BOUNDSCHECK", "0")
    assert _aot.enabled()
    monkeypatch.setenv("CPKIT_AOT", "0")
    assert not _aot.enabled()


@pytest.mark.parametrize("other", ["fingerprint", "machine"])
def test_a_manifest_of_other_sources_or_another_machine_is_not_read(own_folder, monkeypatch,
                                                                    other):
    own_folder.mkdir()
    manifest = {"fingerprint": _aot.fingerprint(), "suffix": _aot._suffix(),
                "machine": _aot.machine(),
                "kernels": {"dlx_active_options": [{"name": "dlx_active_options_0",
                                                    "args": []}]}}
    (own_folder / _aot.MANIFEST).write_text(json.dumps(manifest))
    assert _aot._read_manifest() == manifest
    monkeypatch.setattr(_aot, "_manifest", None)
    manifest[other] = "another"
    (own_folder / _aot.MANIFEST).write_text(json.dumps(manifest))
    assert _aot._read_manifest() == {}
    assert _aot.Kernel("dlx_active_options", dlx_kernel.active_options).built() == []


def test_an_extension_computes_what_its_jit_kernel_computes(own_folder):
    """DLX's ``active_options`` built ahead of time into an empty folder (a few seconds of
    ``pycc``): on the matrices of real searches, stopped at several depths, it lists the
    options its JIT kernel lists, and a call with an array of another dtype is answered by the
    JIT kernel instead of crashing in the extension."""
    pytest.importorskip("numba.pycc")
    searches = _searches_stopped_on_the_way()
    built = _aot.build(lambda: [s.remaining_options() for s in searches],
                       names=["dlx_active_options"], quiet=True)
    if not built:
        pytest.skip("no C compiler or Python headers for numba's pycc here")
    kernel = _aot.Kernel("dlx_active_options", dlx_kernel.active_options)
    assert len(kernel.built()) == 1
    for s in searches:
        args = (s.rlink, s.top, s.dlink, s.row_of, s.n_options, s.n_primary)
        assert _aot.matches(kernel.built()[0][0], args)
        assert np.array_equal(kernel(*args), dlx_kernel.active_options(*args))
    s = searches[-1]
    wide = s.rlink.astype(np.int64)
    assert np.array_equal(kernel(wide, s.top, s.dlink, s.row_of, s.n_options, s.n_primary),
                          dlx_kernel.active_options(wide, s.top, s.dlink, s.row_of,
                                                    s.n_options, s.n_primary))


def _searches_stopped_on_the_way():
    """DLX searches of the Soma cube, each stopped after a few nodes more than the last."""
    from cpkit.engines.tiling.hybrid.hybrid_search import Config, build_search
    from cpkit.engines.tiling.tiling_heuristics import parse_schedule

    puzzle = read_polycube(TILING / "somacube.txt")[0]
    out = []
    for budget in (0, 3, 10, 40):
        search, _ = build_search(puzzle, Config(3, parse_schedule("s:f=3")), None, store=False)
        dlx = search.dlx
        dlx.reset()
        if budget:
            dlx.step(1 << 20, budget)
        out.append(dlx)
    return out


def test_a_default_run_counts_with_every_kernel_built_ahead(own_folder):
    """Every kernel of ``_aot.KERNELS`` built into an empty folder (about 100 s of ``pycc``),
    then the 10 x 6 pentominoes and the square 8 x 8 (whose redundancy plan checks each
    solution found) counted by the default engine in a fresh process (in this one the
    hybrid's compiled hand-over loop may be loaded already, and it calls DLX and FILA
    itself), and the one-sided 30 x 3 with FILA on two words and the estimates' kernel on
    two words: 2,339, 16,146 and 46 solutions, every kernel answered by its extension at
    least once, and numba never imported (its import was a third of the process's start)."""
    pytest.importorskip("numba.pycc")
    from cpkit.engines.tiling import tiling_ahead

    if not _aot.build(tiling_ahead.warm, quiet=True):
        pytest.skip("no C compiler or Python headers for numba's pycc here")
    script = f"""
import json, sys
from cpkit import _aot, count
from cpkit.io.polycube import read_polycube
calls, usual = set(), _aot._load
def counted(name):
    def wrap(fn):
        def call(*args):
            calls.add(name)
            return fn(*args)
        return call
    return [(spec, wrap(fn)) for spec, fn in usual(name)]
_aot._load = counted
n = [count(read_polycube({str(TILING)!r} + "/" + name)[0], workers=1)
     for name in ("pentominoes_10x6.txt", "pentominoes_square_8x8.txt")]
# FILA on two words of open cells: 65 when the one-sided 30 x 3 hands over at 13 pieces.
n.append(count(read_polycube({str(TILING)!r} + "/pentominoes_onesided_30x3.txt")[0],
               workers=1, engine="hybrid", fila_at=13, heuristic="s:f=13"))
from cpkit.engines.tiling.fila import fila_probe
fila_probe.jit_seconds(2)                   # the estimates on two words
print(json.dumps([n, sorted(calls), "numba" in sys.modules, "llvmlite" in sys.modules]))
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(own_folder.parent))
    env.pop("CPKIT_AOT", None)
    env.pop("NUMBA_BOUNDSCHECK", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    n, called, numba, llvmlite = json.loads(done.stdout.strip().splitlines()[-1])
    assert n == [2339, 16146, 46]
    assert called == sorted(_aot.KERNELS)
    assert not numba and not llvmlite
