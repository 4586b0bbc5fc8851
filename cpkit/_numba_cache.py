"""Where numba keeps cpkit's compiled kernels: one directory per version of cpkit's source.

numba invalidates a cached function only when *its own* source file changes.  A kernel that
calls helpers from other modules (the edge-matching CP search calls the ColorPair propagator in
``cpkit/propagators``) is therefore loaded stale from the cache after an edit, a ``git checkout``
or an upgrade that changes only the helpers' files: the old propagator runs, silently.  Keying
the cache directory by a hash of every source file of the package makes any change start from
an empty cache (one compile, about 20 s).

The key also holds where the package lives.  numba stamps each cached function with its source
file's modification time and size, so two checkouts of the same sources could not share their
machine code anyway: each run of one found the other's stamps, compiled again and overwrote
them (a benchmark in a second worktree recompiled after every run of the first).

This module must not import numba: ``NUMBA_CACHE_DIR`` is read when numba is first imported.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

#: Cache directories of other source versions unused for this long are removed.
STALE_AFTER_DAYS = 30

_PACKAGE = Path(__file__).resolve().parent


def source_fingerprint(package: Path = _PACKAGE) -> str:
    """A short hash of where ``package`` lives and of the paths and contents of every ``.py``
    file under it.  Every process computes it (``cpkit/__init__``): listed with ``os.walk``
    and read with ``open``, it takes half the time ``Path.rglob`` and ``read_bytes`` took
    (2.7 ms against 5 ms for cpkit's 1.2 MB of sources)."""
    digest = hashlib.sha256()
    digest.update(str(package.resolve()).encode())
    digest.update(b"\0")
    base = str(package)
    skip = len(base) + 1            # the path relative to the package: cut, not os.path.relpath
    paths = []
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        paths += [os.path.join(root, name) for name in files if name.endswith(".py")]
    for path in sorted(paths):
        digest.update(path[skip:].encode())
        digest.update(b"\0")
        with open(path, "rb") as fh:
            digest.update(fh.read())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def _prune(parent: Path, keep: Path) -> None:
    """Remove the sibling cache directories of ``keep`` not used for ``STALE_AFTER_DAYS``."""
    limit = time.time() - STALE_AFTER_DAYS * 86400
    try:
        siblings = list(parent.iterdir())
    except OSError:
        return
    for other in siblings:
        try:
            if other != keep and other.is_dir() and other.stat().st_mtime < limit:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            continue


#: These sources' fingerprint, once computed in this process (``fingerprint``).
_computed: str | None = None


def fingerprint() -> str:
    """These sources' fingerprint, computed once a process (``default_cache_dir`` made it
    already when cpkit chose numba's cache folder)."""
    global _computed
    if _computed is None:
        _computed = source_fingerprint()
    return _computed


def default_cache_dir() -> str:
    """A writable cache directory for this version of the sources.

    ``$XDG_CACHE_HOME/cpkit/numba/<fingerprint>`` (``~/.cache`` when unset), else the same under
    the temporary directory, else a fresh temporary directory.  The chosen directory's time
    stamp is refreshed on every use so that pruning keeps what is still in use.
    """
    key = fingerprint()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for parent in (Path(base) / "cpkit" / "numba",
                   Path(tempfile.gettempdir()) / f"cpkit-numba-{os.getuid()}"):
        candidate = parent / key
        try:
            candidate.mkdir(parents=True, exist_ok=True)
            if not os.access(candidate, os.W_OK):
                continue
            os.utime(candidate)
        except OSError:
            continue
        _prune(parent, candidate)
        return str(candidate)
    return tempfile.mkdtemp(prefix="cpkit-numba-")
