"""Kernel state layouts: the helper that numbers fields, and the layouts the kernels declare."""

from __future__ import annotations

import pytest

from cpkit.engines.edge_matching.cp import em_cp_kernel as K
from cpkit.engines.edge_matching.cp import em_cp_layout
from cpkit.engines.edge_matching.edges import em_edges_kernel as edges_kernel
from cpkit.propagators import colorpair_layout as lay
from cpkit.propagators import edge_supports_layout as edges_lay
from cpkit.state_layout import Layout, bind, fields

LAYOUTS = [lay.HEADER, lay.CELL, lay.TILE, K.SEARCH_HEADER, em_cp_layout.LEVEL,
           edges_lay.MODEL, edges_lay.TILE_COUNTERS, edges_lay.ALLDIFF_SECTION,
           edges_kernel.STATE, edges_kernel.COUNTERS, edges_kernel.LEVEL]


def test_fields_number_in_order_with_widths_and_a_reserve():
    layout = fields("record", "A", ("B", 3), "C", start=10, reserve=2)
    assert layout.offsets == {"A": 10, "B": 11, "C": 14}
    assert (layout.start, layout.end) == (10, 17)
    assert sorted(layout.slots()) == list(range(10, 15))


def test_fields_refuse_a_name_twice_and_a_region_they_do_not_fill():
    with pytest.raises(ValueError, match="declared twice"):
        fields("record", "A", "A")
    with pytest.raises(ValueError, match="end at 3, the region at 4"):
        fields("record", "A", "B", reserve=1, end=4)


def test_check_finds_shared_slots_strays_and_accidental_gaps():
    shared = Layout("shared", 0, 3, 0, {"A": 0, "B": 1, "C": 1}, {"A": 1, "B": 1, "C": 2})
    with pytest.raises(ValueError, match="share a slot"):
        shared.check()
    stray = Layout("stray", 0, 2, 0, {"A": 0, "B": 2}, {"A": 1, "B": 1})
    with pytest.raises(ValueError, match="outside"):
        stray.check()
    gap = Layout("gap", 0, 4, 1, {"A": 0, "B": 2}, {"A": 1, "B": 1})
    with pytest.raises(ValueError, match=r"free slots \[1, 3\]"):
        gap.check()


def test_bind_makes_module_constants_and_refuses_a_name_bound_twice():
    namespace: dict = {"__all__": []}
    bind(namespace, fields("record", "A", "B"))
    assert (namespace["A"], namespace["B"], namespace["__all__"]) == (0, 1, ["A", "B"])
    with pytest.raises(ValueError, match="already bound"):
        bind(namespace, fields("other", "B"))


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.name)
def test_each_declared_layout_is_distinct_in_range_and_gapless_but_for_its_reserve(layout):
    layout.check()
    taken = layout.slots()
    assert len(taken) == sum(layout.widths.values())
    assert all(layout.start <= s < layout.end for s in taken)
    assert set(range(layout.start, layout.end)) - set(taken) == \
        set(range(layout.end - layout.reserve, layout.end))


def test_the_g_header_is_the_propagator_s_fields_then_the_search_s():
    # The propagator's fields fill 0 .. G_SEARCH - 1; its reserve is exactly the search's
    # region, which the search's fields fill but for its own reserve.
    assert lay.HEADER.start == 0 and lay.G_SEARCH == lay.HEADER.end - lay.HEADER.reserve
    assert (K.SEARCH_HEADER.start, K.SEARCH_HEADER.end) == (lay.G_SEARCH, lay.G_HEADER)
    both = list(lay.HEADER.slots()) + list(K.SEARCH_HEADER.slots())
    assert len(both) == len(set(both))
    assert set(range(lay.G_HEADER)) - set(both) == \
        set(range(lay.G_HEADER - K.SEARCH_HEADER.reserve, lay.G_HEADER))


def test_records_match_their_strides_and_the_demand_slots():
    assert lay.CELL_STRIDE == lay.CELL.end and lay.TILE_STRIDE == lay.TILE.end
    assert lay.CELL.widths["C_SIDE"] == 4
    assert lay.CELL.widths["C_DPAIR"] == lay.CELL.widths["C_DINS"] == lay.N_SLOTS


def test_the_module_constants_are_the_declared_offsets():
    for layout, module in [(lay.HEADER, lay), (lay.CELL, lay), (lay.TILE, lay),
                           (K.SEARCH_HEADER, K), (em_cp_layout.LEVEL, K),
                           (edges_lay.MODEL, edges_lay), (edges_lay.TILE_COUNTERS, edges_lay),
                           (edges_lay.ALLDIFF_SECTION, edges_lay),
                           (edges_kernel.STATE, edges_kernel),
                           (edges_kernel.COUNTERS, edges_kernel),
                           (edges_kernel.LEVEL, edges_kernel)]:
        for name, offset in layout.offsets.items():
            assert getattr(module, name) == offset and type(getattr(module, name)) is int


def test_checkpointed_edges_state_keeps_its_hand_numbered_slots():
    # A split run's checkpoint stores the edges search's state, counters and tile counters:
    # the declared layouts must give the numbers the slots had when written by hand.
    assert edges_kernel.STATE.offsets == {
        "ST_LEVEL": 0, "ST_PC": 1, "ST_NBUF": 2, "ST_TRAIL": 3, "ST_STOP": 4,
        "ST_SHAVE_CELL": 5, "ST_SHAVE_AT": 6, "ST_SHAVE_REMOVED": 7}
    assert edges_kernel.STATE_SIZE == 8 and edges_kernel.COUNTERS_SIZE == 7
    assert (edges_lay.T_ON, edges_lay.T_AD, edges_lay.T_SINGLES, edges_lay.T_TILE_CELLS) == \
        (0, 6, 9, 10)
    assert (edges_lay.M_N_TILES, edges_lay.M_HEAD, edges_lay.A_TYPE_TILES) == (18, 19, 6)
