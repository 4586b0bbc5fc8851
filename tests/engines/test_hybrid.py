"""The DLX-to-FILA hybrid and the automatic configuration: the FILA paper's published
statistics, agreement with DLX at every switch point, triggers while DLX is in charge,
resuming, and clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.errors import EngineUnavailable, InputError
from cpkit.models.catalog import _pieces
from cpkit.models.polyforms import hexominoes
from cpkit.models.tiling import Piece, Puzzle
from cpkit.result import LIMIT, verify_tiling
from cpkit.engines.tiling.hybrid import hybrid_search as hybrid
from cpkit.engines.dispatch import solve
from tests.strategies import puzzles

pytestmark = pytest.mark.kernel

# FILA Table 1, test case P4 (the informational output quoted in the seed), indexed by pieces
# remaining: 10x6, X constrained, volume filter once, DLX (min-fit) places the first piece and
# FILA with F the last 11.
P4_ATTEMPTS = [0, 301_677, 3_478_035, 5_722_296, 3_665_538, 1_284_992, 386_776, 200_366,
               126_819, 28_279, 3_088, 131, 7]
P4_FITS = [0, 2_339, 302_256, 760_374, 617_667, 272_072, 82_406, 26_950, 17_275, 7_994, 1_744,
           131, 7]


def schedules(at: int) -> list[str | None]:
    """Schedules valid for a switch at ``at`` pieces (FILA letters only at or below it)."""
    if at == 0:
        return [None, "s", "x:f=3"]
    return [None, f"s:f={at}", f"s:e={at}" + (":f=1" if at > 1 else ""), f"x:y={at}",
            f"f:s={at}"]


def p4(tiling_instance, nof: bool):
    return solve(tiling_instance("pentominoes_10x6.txt"), engine="hybrid", heuristic="s:f=11",
                 fila_at=11, nof=nof, volume_filter=True, parity_filter=False, count_only=True)


def test_p4_reproduces_the_published_attempts_and_fits_per_level(tiling_instance):
    result = p4(tiling_instance, nof=False)
    assert result.count == 2339 and result.stats.extra["constrained_piece"] == "X"
    assert result.stats.attempts_by_remaining == P4_ATTEMPTS
    assert result.stats.fits_by_remaining == P4_FITS
    assert result.stats.fits == 2_091_215 and result.stats.no_fits == 13_106_789


def test_p5_nof_keeps_the_fits_and_makes_the_published_no_fits(tiling_instance):
    result = p4(tiling_instance, nof=True)
    assert result.stats.fits_by_remaining == P4_FITS
    assert result.stats.no_fits == 4_682_886
    on, off = result.stats.attempts_by_remaining, P4_ATTEMPTS
    assert all(a <= b for a, b in zip(on, off))


@pytest.mark.parametrize("name, unique, count", [
    ("somacube.txt", "rotation", 480),
    ("pentominoes_20x3.txt", "rotation", 2),
])
def test_every_switch_point_counts_the_same(tiling_instance, name, unique, count):
    puzzle = tiling_instance(name)
    for at in range(0, puzzle.n_pieces + 2):
        options = schedules(at)
        spec = options[at % len(options)]
        result = solve(puzzle, engine="hybrid", unique=unique, fila_at=at, heuristic=spec,
                       count_only=True)
        assert result.count == count, (at, spec)
    assert solve(puzzle, engine="hybrid", unique="mirror", fila_at=puzzle.n_pieces - 2,
                 count_only=True).count == solve(puzzle, engine="dlx", unique="mirror",
                                                 count_only=True).count


def test_hybrid_fits_add_up_by_level(tiling_instance):
    """Above the switch the levels are DLX's (attempts = fits), below FILA's; every solution is
    a fit at the last level."""
    result = solve(tiling_instance("somacube.txt"), engine="hybrid", unique="raw", fila_at=4,
                   heuristic="s:e=4:f=2", count_only=True)
    stats = result.stats
    assert stats.fits_by_remaining[1] == result.count == 11520
    for n in range(5, 8):
        assert stats.attempts_by_remaining[n] == stats.fits_by_remaining[n]
    assert stats.extra["fila_subproblems"] == stats.fits_by_remaining[5]


def test_solutions_are_valid(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    result = solve(puzzle, engine="hybrid", unique="raw", fila_at=5)
    assert len(result.solutions) == 11520
    assert all(verify_tiling(puzzle, t) == [] for t in result.solutions[:500])
    assert len({t.placements for t in result.solutions}) == 11520


def test_triggers_and_dynamic_filters_act_while_dlx_is_in_charge(tiling_instance):
    puzzle = tiling_instance("pentominoes_10x6.txt")
    plain = solve(puzzle, engine="hybrid", fila_at=9, count_only=True)
    for options in (dict(volume_trigger=10), dict(parity_trigger=10),
                    dict(volume_filter=10), dict(parity_filter=10)):
        result = solve(puzzle, engine="hybrid", fila_at=9, count_only=True, **options)
        assert result.count == 2339
        assert result.stats.fits <= plain.stats.fits


def test_resuming_in_tiny_slices_changes_nothing(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    config = hybrid.make_config(puzzle, "s:e=5:f=2", 5, True, False)
    ids = np.arange(len(puzzle.images))
    sliced = hybrid.HybridSearch(puzzle, ids, config, store=True)
    while not sliced.step(1 << 40, 13)[0]:
        pass
    whole = hybrid.HybridSearch(puzzle, ids, config, store=False)
    while not whole.step(1 << 40, 1 << 30)[0]:
        pass
    assert sliced.solutions == len(sliced.found) == whole.solutions == 11520
    assert sliced.stats().fits_by_remaining == whole.stats().fits_by_remaining
    assert sliced.stats().attempts_by_remaining == whole.stats().attempts_by_remaining


def test_limit_is_exact(tiling_instance):
    result = solve(tiling_instance("pentominoes_10x6.txt"), limit=7)
    assert result.count == len(result.solutions) == 7
    assert not result.complete and result.stop_reason == LIMIT


def test_auto_configuration_rule(tiling_instance):
    flat = hybrid.auto_config(tiling_instance("pentominoes_10x6.txt"), constrained=True)
    assert (flat.fila_at, str(flat.schedule), flat.nof) == (11, "s:f=11", True)
    raw = hybrid.auto_config(tiling_instance("pentominoes_10x6.txt"), constrained=False)
    assert raw.fila_at == 12
    cube = hybrid.auto_config(tiling_instance("tetriscube.txt"), constrained=True)
    assert (cube.fila_at, str(cube.schedule)) == (11, "s:e=11:f=3")
    wide = hybrid.auto_config(tiling_instance("pentominoes_onesided_30x3.txt"), constrained=True)
    assert wide.fila_at == 12                         # 12 pentominoes fill 60 <= 64 cells
    hexes = hybrid.auto_config(Puzzle(_pieces(hexominoes()), box=(15, 14, 1)), constrained=False)
    assert hexes.fila_at == 10
    same = Puzzle([Piece(f"d{k}", ((0, 0, 0), (1, 0, 0))) for k in range(8)], box=(4, 4, 1))
    assert not hybrid.auto_config(same, constrained=False).nof


def test_auto_is_the_default_engine(tiling_instance):
    result = solve(tiling_instance("pentominoes_10x6.txt"), count_only=True)
    assert result.engine == "hybrid" and result.count == 2339
    assert result.options["fila_at"] == 11
    raw = solve(tiling_instance("pentominoes_20x3.txt"), unique="raw", count_only=True)
    assert raw.engine == "fila" and raw.count == 8         # no piece to place first


def test_too_many_cells_at_the_switch_is_a_clear_error():
    domino = ((0, 0, 0), (1, 0, 0))
    puzzle = Puzzle([Piece(f"d{k}", domino) for k in range(150)], box=(20, 15, 1))
    with pytest.raises(EngineUnavailable, match="smaller --fila-at"):
        solve(puzzle, engine="hybrid", unique="raw", fila_at=150, limit=1)
    assert hybrid.auto_config(puzzle, constrained=False).fila_at == 32


def test_schedule_letters_are_checked_per_engine(tiling_instance):
    puzzle = tiling_instance("somacube.txt")
    with pytest.raises(InputError, match="not available to DLX"):
        solve(puzzle, engine="hybrid", fila_at=3, heuristic="e:f=3")
    with pytest.raises(InputError, match="at least 0"):
        solve(puzzle, engine="hybrid", fila_at=-1)


@settings(max_examples=40)
@given(puzzles(), st.data())
def test_random_puzzles_match_dlx(puzzle, data):
    at = data.draw(st.integers(0, puzzle.n_pieces + 1))
    spec = data.draw(st.sampled_from(schedules(at)))
    unique = data.draw(st.sampled_from(["raw", "rotation"]))
    expected = solve(puzzle, engine="dlx", unique=unique, count_only=True).count
    result = solve(puzzle, engine="hybrid", unique=unique, fila_at=at, heuristic=spec,
                   nof=data.draw(st.booleans()), count_only=True)
    assert result.count == expected


@pytest.mark.slow
@pytest.mark.parametrize("name, count", [
    ("tetriscube.txt", 9839), ("pentominoes_12x5.txt", 1010), ("pentominoes_15x4.txt", 368),
    ("pentominoes_onesided_30x3.txt", 46), ("bedlamcube.txt", 19186),
])
def test_published_counts_with_the_automatic_engine(tiling_instance, name, count):
    assert solve(tiling_instance(name), count_only=True).count == count


def test_a_trigger_beyond_the_piece_count_is_never_active(tiling_instance):
    """A trigger from 10**22 pieces overflowed the kernel's 64-bit configuration (a
    traceback); it is the same search as one from a count above the pieces."""
    puzzle = tiling_instance("pentominoes_10x6.txt")
    for name in ("volume_trigger", "parity_trigger"):
        huge = solve(puzzle, engine="hybrid", fila_at=9, count_only=True, **{name: 10**22})
        above = solve(puzzle, engine="hybrid", fila_at=9, count_only=True, **{name: 13})
        assert huge.count == above.count == 2339
        assert (huge.stats.fits, huge.stats.nodes) == (above.stats.fits, above.stats.nodes)
