"""Build the kernels of a default tiling run ahead of time (``cpkit._aot``):
``python -m cpkit.engines.tiling.tiling_ahead``, which ``make`` runs after installing.

The warm-ups below are the engines' own (each calls its kernels on a tiny puzzle with a real
run's argument types), run through the JIT kernels, so the signatures built are those a run
calls (the hybrid's compiled hand-over loop's too); occupancies of up to ``WORDS`` words (192
open cells: the switches the automatic configuration estimates), wider ones stay JIT.
"""

from __future__ import annotations

from ... import _aot
from ...models import symmetry
from ...propagators import tiling_filters
from ..exact_cover.dlx import dlx_search
from .auto.tiling_prober import WORDS
from .fila import fila_probe, fila_search
from .hybrid import hybrid_search


def warm() -> None:
    """Every kernel of ``_aot.KERNELS`` called once through its JIT version: the warm-ups
    themselves, not ``jit_seconds``, which runs each once a process and not at all after a
    run that took the extensions (their JIT kernels would then have no signature to build)."""
    tiling_filters.warm_up()
    symmetry.warm_up_check()
    dlx_search._warm_up()
    for words in range(1, WORDS + 1):
        fila_search._warm_up(words)
        fila_probe._warm_up(words)
        hybrid_search._warm_up_loop(words)


if __name__ == "__main__":
    _aot.build(warm)
