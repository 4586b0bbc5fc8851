"""Suite ``jit``: compile from an empty cache, then load from it, in fresh processes."""

from __future__ import annotations

from benchmarks.jit import jit_suite


def test_the_quick_suite_compiles_then_loads_the_brute_force_with_one_signature_per_helper():
    (table,) = jit_suite(quick=True)
    assert [row[:2] for row in table.rows] == [["backtrack", "gen_4_b2i3_s2.txt"]]
    engine, instance, compile_s, load_s, extra = table.rows[0]
    assert 0 <= load_s < compile_s      # the second process found the first one's kernels
    assert extra == 0
