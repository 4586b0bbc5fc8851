"""The tiling kernels' declared layouts (DLX's state, counters and configuration; FILA's state,
counters, level and ilsi rows; the FILA estimates' figures; the hybrid loop's state): distinct, in range, gapless, bound
as the module constants the kernels read, and the sizes the searches allocate."""

from __future__ import annotations

import numpy as np
import pytest

from cpkit.engines.exact_cover.dlx import dlx_kernel, dlx_layout
from cpkit.engines.tiling.fila import fila_kernel, fila_layout, fila_probe_kernel
from cpkit.engines.tiling.hybrid import hybrid_kernel, hybrid_layout

#: (layout, the module that declares it, the kernel module that reads it, its size's name)
LAYOUTS = [
    (dlx_layout.STATE, dlx_layout, dlx_kernel, "STATE_SIZE"),
    (dlx_layout.COUNTERS, dlx_layout, dlx_kernel, "COUNTERS_SIZE"),
    (dlx_layout.CONFIG, dlx_layout, dlx_kernel, "CFG_SIZE"),
    (fila_layout.STATE, fila_layout, fila_kernel, "STATE_SIZE"),
    (fila_layout.COUNTERS, fila_layout, fila_kernel, "COUNTERS_SIZE"),
    (fila_layout.LEVEL, fila_layout, fila_kernel, "LV_SIZE"),
    (fila_layout.ILSI_ROW, fila_layout, fila_kernel, "IL_SIZE"),
    (fila_layout.FIGURES, fila_layout, fila_probe_kernel, "N_FIGURES"),
    (hybrid_layout.HYBRID, hybrid_layout, hybrid_kernel, "H_SIZE"),
]


@pytest.mark.parametrize("layout, declared, kernel, size", LAYOUTS,
                         ids=[layout.name for layout, *_ in LAYOUTS])
def test_a_tiling_layout_is_distinct_gapless_and_bound_where_the_kernel_reads_it(
        layout, declared, kernel, size):
    layout.check()
    taken = layout.slots()
    assert sorted(taken) == list(range(layout.start, layout.end)) and layout.reserve == 0
    assert getattr(kernel, size) == getattr(declared, size) == layout.end
    for name, offset in layout.offsets.items():
        value = getattr(kernel, name)
        assert value == offset and type(value) is int, name


def test_the_ilsi_row_is_one_cache_line_with_six_neighbour_slots():
    assert fila_layout.ILSI_ROW.widths["IL_NB"] == 6            # the six ILSI directions
    assert fila_layout.IL_SIZE * np.dtype(np.int64).itemsize == 64


def test_the_searches_allocate_their_vectors_from_the_layouts(tiling_instance):
    from cpkit.engines.exact_cover.dlx import dlx_search
    from cpkit.engines.tiling.fila import fila_search

    search = dlx_search.prepare_tiling(tiling_instance("pentominoes_20x3.txt")).search(store=False)
    assert (len(search.state), len(search.counters), len(search.constraints.cfg)) == \
        (dlx_layout.STATE_SIZE, dlx_layout.COUNTERS_SIZE, dlx_layout.CFG_SIZE)
    fila = fila_search.FilaSearch(12)
    assert (len(fila.state), len(fila.counters), fila.lv.shape[1]) == \
        (fila_layout.STATE_SIZE, fila_layout.COUNTERS_SIZE, fila_layout.LV_SIZE)
