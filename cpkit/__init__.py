"""cpkit: constraint programming for tiling and edge-matching puzzles.

Layers (see docs/architecture.md): ``io`` reads files into the ``models`` layer (pure Python and
numpy), which compiles to flat arrays for the numba engines in ``engines`` (one folder each,
with inference kernels in ``propagators``); every engine returns a ``result.Result``; OR-Tools CP-SAT solves the same
models as an independent cross-check (``models.cpsat``).

The public API is ``load``, ``solve``, ``count``, ``estimate`` (the size of an engine's search
tree, by Monte-Carlo probes), ``score`` and ``maximize`` (edge-matching boards: their score, and
the best board within a time limit).
"""

from __future__ import annotations

import os

from . import _numba_import
from ._numba_cache import default_cache_dir

# Before numba is imported: it reads NUMBA_CACHE_DIR once.  A directory the user sets is used
# as it is (and is then the user's to clear after changing cpkit's sources).
if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = default_cache_dir()
_numba_import.install()

from .api import count, estimate, load, maximize, score, solve  # noqa: E402

__all__ = ["load", "solve", "count", "estimate", "score", "maximize"]
__version__ = "0.1.0"
