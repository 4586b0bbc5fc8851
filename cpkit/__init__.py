"""cpkit: constraint programming for tiling and edge-matching puzzles.

Layers (see docs/architecture.md): ``io`` reads files into the ``models`` layer (pure Python and
numpy), which compiles to flat arrays for the numba engines in ``search`` (with inference kernels
in ``propagators``); every engine returns a ``result.Result``; OR-Tools CP-SAT solves the same
models as an independent cross-check (``models.cpsat``).

The public API is ``load``, ``solve`` and ``count``.
"""

from __future__ import annotations

import os
import tempfile


def _default_numba_cache() -> str:
    """A writable directory for numba's on-disk cache (set before numba is imported)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for candidate in (os.path.join(base, "cpkit", "numba"),
                      os.path.join(tempfile.gettempdir(), f"cpkit-numba-{os.getuid()}")):
        try:
            os.makedirs(candidate, exist_ok=True)
            if os.access(candidate, os.W_OK):
                return candidate
        except OSError:
            continue
    return tempfile.mkdtemp(prefix="cpkit-numba-")


if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = _default_numba_cache()

from .api import count, load, solve  # noqa: E402

__all__ = ["load", "solve", "count"]
__version__ = "0.1.0"
