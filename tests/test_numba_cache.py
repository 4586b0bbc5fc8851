"""The numba cache directory follows the package's sources (cpkit/_numba_cache.py), and what goes
into it is compiled once per helper."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from cpkit import _numba_cache
from benchmarks.jit import jit_suite


def _package(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_fingerprint_follows_every_source_file(tmp_path):
    """A change to any module (a helper the kernels call, not only a kernel) gives a new key;
    so does the same package in another place (numba's stamps would not match there)."""
    files = {"search/kernel.py": "def k(): pass\n", "propagators/helper.py": "X = 1\n"}
    a = _numba_cache.source_fingerprint(_package(tmp_path / "a", files))
    assert _numba_cache.source_fingerprint(tmp_path / "a") == a
    edited = _package(tmp_path / "a", dict(files, **{"propagators/helper.py": "X = 2\n"}))
    assert _numba_cache.source_fingerprint(edited) != a
    _package(tmp_path / "a", files)
    assert _numba_cache.source_fingerprint(tmp_path / "a") == a
    (tmp_path / "a" / "propagators" / "helper.py").rename(tmp_path / "a" / "propagators" /
                                                          "other.py")
    assert _numba_cache.source_fingerprint(tmp_path / "a") != a
    assert _numba_cache.source_fingerprint(_package(tmp_path / "b", files)) != a


def test_cache_dir_is_keyed_and_old_versions_are_pruned(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    parent = tmp_path / "cpkit" / "numba"
    old = parent / "0123456789abcdef"
    recent = parent / "fedcba9876543210"
    for directory in (old, recent):
        directory.mkdir(parents=True)
    long_ago = time.time() - (_numba_cache.STALE_AFTER_DAYS + 1) * 86400
    os.utime(old, (long_ago, long_ago))
    chosen = _numba_cache.default_cache_dir()
    assert chosen == str(parent / _numba_cache.source_fingerprint())
    assert not old.exists()          # unused for longer than the limit
    assert recent.exists()           # another checkout's cache, still in use


def test_import_sets_the_keyed_directory_unless_the_user_chose_one(tmp_path):
    code = "import os, cpkit; print(os.environ['NUMBA_CACHE_DIR'])"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    keyed = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.strip()
    assert keyed == str(tmp_path / "cpkit" / "numba" / _numba_cache.source_fingerprint())
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    chosen = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True).stdout.strip()
    assert chosen == str(tmp_path / "mine")


@pytest.mark.slow
def test_every_helper_is_compiled_once():
    """A helper compiled for several argument types (an int32 here, an int64 there, a literal
    constant) is compiled, with all it calls, once per type: the CP kernel took twice as long
    to compile (docs/architecture.md, "One signature per helper").  From an empty cache, every
    engine's kernels must compile each helper once, and load from the cache afterwards."""
    (table,) = jit_suite()
    assert [row[0] for row in table.rows] == ["backtrack", "cp", "edges", "dlx", "fila"]
    for engine, instance, compile_s, load_s, extra in table.rows:
        assert extra == 0, engine
        assert load_s < compile_s, engine


def _imported(code: str, cwd) -> list[str]:
    """What a fresh interpreter running ``code`` in ``cwd`` prints, one item a line."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_BOUNDSCHECK"}
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                          check=True, env=env)
    return done.stdout.split()


def test_numba_is_imported_without_scipy_and_yaml(tmp_path):
    """numba's import skips its SciPy version check and its YAML config reader (15-25 ms of a
    small puzzle's whole run); both import as usual afterwards."""
    code = ("import sys, cpkit, numba; print('scipy' in sys.modules, 'yaml' in sys.modules); "
            "import scipy.optimize, yaml; print(yaml.safe_load('a: 1')['a'])")
    assert _imported(code, tmp_path) == ["False", "False", "1"]


def test_a_numba_config_file_is_still_read(tmp_path):
    """With a ``.numba_config.yaml`` in the current folder, numba reads it as usual."""
    (tmp_path / ".numba_config.yaml").write_text("boundscheck: 1\n")
    code = "import cpkit, numba; print(numba.config.BOUNDSCHECK)"
    assert _imported(code, tmp_path) == ["1"]


def test_a_tiling_run_loads_its_kernels_without_numba_s_array_modules(tmp_path):
    """The command line rebuilds the cached kernels' environments without importing the
    modules they name (``jit._lean_environments``): 40-45 ms a process.  The count stays."""
    puzzle = os.path.join(os.path.dirname(__file__), "..", "instances", "tiling",
                          "pentominoes_10x6.txt")
    code = ("import sys, json, io, contextlib; from cpkit.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            f"    main(['tile', {os.path.abspath(puzzle)!r}, '--count-only', '--workers', '1',"
            " '--json'])\n"
            "print(json.loads(out.getvalue())['solutions'], 'numba.np.arrayobj' in sys.modules)")
    _imported(code, tmp_path)           # a first run compiles what is not cached yet
    assert _imported(code, tmp_path) == ["2339", "False"]
