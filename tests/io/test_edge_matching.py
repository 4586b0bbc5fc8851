"""Edge-matching files: the three layouts, detection, errors with file:line, writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpkit.api import load
from cpkit.errors import InputError
from cpkit.io.edge_matching import (format_native, looks_like_edge_matching, parse_edge_matching,
                                    read_edge_matching)
from cpkit.models.edge_matching import Hint, rotate
from cpkit.models.em_generator import generate

BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"

TILES = ["1 2 0 0", "3 4 0 2", "5 0 0 4", "6 7 1 0", "8 9 3 7", "10 0 5 9", "0 11 6 0",
         "0 12 8 11", "0 0 10 12"]


def native(hints=()):
    return "\n".join(["3", "12", str(len(hints)), *hints, *TILES]) + "\n"


def test_four_layouts_read_the_same_puzzle():
    a = parse_edge_matching(native(["2 2 5 0"]))
    b = parse_edge_matching("1\n2 2 5 0\n" + "\n".join(TILES))         # heule: no size line
    c = parse_edge_matching("3 3\n" + "\n".join(TILES))                 # puz
    d = parse_edge_matching("\n".join(TILES))                            # tiles only
    assert a.tiles == b.tiles == c.tiles == d.tiles
    assert a.hints == b.hints == (Hint(1, 1, 4, 0),)     # row 2 from the top of 3 = y 1
    assert c.hints == d.hints == () and c.n_colours == d.n_colours == 12
    assert {(p.width, p.height) for p in (a, b, c, d)} == {(3, 3)}


def test_heule_hint_rotations_are_clockwise_quarter_turns():
    """Heule's encoder shows side ``(j - r) % 4`` of a hinted tile on side ``j``: a rotation
    of 1 turns the tile a quarter clockwise, which puts its west side north (rotation 3)."""
    puzzle = parse_edge_matching("1\n2 2 5 1\n" + "\n".join(TILES))
    assert puzzle.hints == (Hint(1, 1, 4, 3),)
    north, east, south, west = (int(c) for c in TILES[4].split())
    assert rotate(puzzle.tiles[4], 3) == (west, north, east, south)


def test_heules_old_size_line_is_refused_at_its_line():
    with pytest.raises(InputError, match=r"^f\.txt:3: expected tile 1 of 10: four colours"):
        parse_edge_matching("1\n2 2 5 0\n3 3\n" + "\n".join(TILES), "f.txt")


@pytest.mark.parametrize("width, height", [(6, 12), (12, 6), (5, 3), (2, 7), (2, 2), (9, 9)])
def test_headerless_sizes_follow_from_the_tile_kinds(width, height):
    """Corner, edge and inner tiles give the sides (laid wider than high), whatever the order
    of the tiles."""
    p = generate(width, height, border_colours=3, inner_colours=4, seed=width * height)
    lines = [" ".join(map(str, t)) for t in p.tiles][::-1]
    for text in ("\n".join(lines), "0\n" + "\n".join(lines)):
        q = parse_edge_matching(text)
        assert (q.width, q.height) == (max(width, height), min(width, height))
        assert q.tiles == p.tiles[::-1]


def test_tiles_that_fill_no_board_are_refused_by_their_kinds():
    corners = ["0 0 1 1", "1 0 0 1", "1 1 0 0", "0 1 1 0"]
    with pytest.raises(InputError, match=r"^f\.txt: the file writes no board size and its 5 "
                                         r"tiles \(4 corner, 0 edge, 1 inner"):
        parse_edge_matching("\n".join(corners + ["1 1 1 1"]), "f.txt")
    # A square number of tiles is taken as a square board, whose check says what is short.
    with pytest.raises(InputError, match=r"^f\.txt: a 3 x 3 board needs 4 edge tiles"):
        parse_edge_matching("\n".join(corners + ["1 1 1 1"] * 5), "f.txt")


def test_c_comment_lines_are_skipped():
    text = "c a .puz file\nc\n3 3\n" + "\n".join(TILES)
    assert parse_edge_matching(text).tiles == parse_edge_matching(native()).tiles
    assert looks_like_edge_matching(text)


def test_format_can_be_forced():
    with pytest.raises(InputError, match="expected the number of colours"):
        parse_edge_matching("3 3\n" + "\n".join(TILES), format="native")


def test_comments_and_blank_lines_are_ignored():
    text = "# a puzzle\n3 3   # width height\n\n" + "\n".join(TILES)
    assert parse_edge_matching(text).n_tiles == 9


@pytest.mark.parametrize("text, line, message", [
    ("3\n12\n0\n1 2 0 x\n", 4, "whole numbers"),
    ("3\n12\n0\n1 0_2 0 0\n", 4, "whole numbers"),
    ("3\n12\n0\n1 \uff12 0 0\n", 4, "whole numbers"),
    ("3\n1_2\n0\n", 2, "whole numbers"),
    (native()[:-len(TILES[-1]) - 1], 11, "ends early"),
    (native() + "1 2 3 4\n", 13, "extra line"),
    ("3\n12\n0\n1 2 0\n", 4, "four colours"),
    ("3\n12\n0\n1 2 0 13\n", 4, "outside 0..12"),
    ("3\n12\n0\n1 2 0 -1\n", 4, "outside 0..12"),
    ("2 2\n0 0 -1 1\n", 2, r"colour -1 is negative \(colours are 0, the grey frame, or more"),
    ("3\n12\n1\n4 1 1 0\n" + "\n".join(TILES), 4, "row 4 is outside"),
    ("3\n12\n0\n0 1 0 1\n", 4, "cannot all face the frame"),
    ("99\n12\n0\n", 1, "outside 2..64"),
    ("1 2 3\n4\n", 1, "cannot tell the layout"),
    ("7\n1 2\n", 1, "name it with --format native"),
])
def test_errors_name_the_line(text, line, message):
    with pytest.raises(InputError, match=message) as err:
        parse_edge_matching(text, "f.txt")
    assert str(err.value).startswith(f"f.txt:{line}: ")


def test_a_byte_order_mark_is_skipped(tmp_path):
    marked = tmp_path / "bom.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + native().encode())
    assert read_edge_matching(marked).tiles == parse_edge_matching(native()).tiles


def test_model_errors_name_the_file():
    bad = native().replace("1 2 0 0", "1 2 0 1").replace("5 0 0 4", "5 0 0 2")
    with pytest.raises(InputError, match=r"^f\.txt: ") as err:
        parse_edge_matching(bad, "f.txt")
    assert "corner" in str(err.value) or "odd" in str(err.value)


def test_write_native_round_trip_and_oblong_extension(tmp_path):
    p = generate(5, 3, border_colours=2, inner_colours=3, seed=4)
    p = p.with_hints([Hint(0, 0, p.corner_tiles()[0], p.corner_rotation(p.corner_tiles()[0], 0))])
    text = format_native(p)
    assert text.splitlines()[0] == "5 3"
    q = parse_edge_matching(text)
    assert (q.width, q.height, q.tiles, q.hints, q.n_colours) == \
        (p.width, p.height, p.tiles, p.hints, p.n_colours)


def test_ignore_hints_and_load_detects_edge_matching(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(native(["2 2 5 0"]))
    assert read_edge_matching(path, ignore_hints=True).hints == ()
    puzzle = load(path)
    assert puzzle.family == "edge_matching" and len(puzzle.hints) == 1
    assert load(path, ignore_hints=True).hints == ()


@pytest.mark.skipif(not BENOIST.is_dir(),
                    reason="the paper's instances are missing (CPKIT_EM_BENCHMARKS)")
def test_the_papers_instances_read_and_validate():
    files = sorted(BENOIST.glob("E_*"))
    assert len(files) == 48
    for f in files:
        p = read_edge_matching(f)
        n = int(f.name.split("_")[1])
        assert (p.width, p.height) == (n, n)
        # One hint: a corner tile at the bottom-left cell, rotation 0 (em-benchmarks/README.md).
        assert len(p.hints) == 1 and (p.hints[0].x, p.hints[0].y, p.hints[0].rotation) == (0, 0, 0)
        assert format_native(p).split() == f.read_text().split()
