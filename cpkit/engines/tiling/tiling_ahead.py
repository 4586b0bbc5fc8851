"""Build the kernels of a default tiling run ahead of time (``cpkit._aot``):
``python -m cpkit.engines.tiling.tiling_ahead``, which ``make`` runs after installing.

The warm-ups below are the engines' own (each calls its kernels on a tiny puzzle with a real
run's argument types), run through the JIT kernels, so the signatures built are those a run
calls; occupancies of one word only (up to 64 open cells: most puzzles), the others stay JIT.
"""

from __future__ import annotations

from ... import _aot
from ...propagators import tiling_filters
from ..exact_cover.dlx import dlx_search
from .fila import fila_probe, fila_search


def warm() -> None:
    """Every kernel of ``_aot.KERNELS`` called once through its JIT version."""
    tiling_filters.warm_up()
    dlx_search.jit_seconds()
    fila_search.jit_seconds(1)
    fila_probe.jit_seconds()


if __name__ == "__main__":
    _aot.build(warm)
