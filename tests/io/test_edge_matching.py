"""Edge-matching files: the three layouts, detection, errors with file:line, writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpkit.api import load
from cpkit.errors import InputError
from cpkit.io.edge_matching import format_native, parse_edge_matching, read_edge_matching
from cpkit.models.edge_matching import Hint
from cpkit.models.em_generator import generate

BENOIST = Path(__file__).resolve().parents[3] / "shared" / "em-benchmarks" / "benoist"

TILES = ["1 2 0 0", "3 4 0 2", "5 0 0 4", "6 7 1 0", "8 9 3 7", "10 0 5 9", "0 11 6 0",
         "0 12 8 11", "0 0 10 12"]


def native(hints=()):
    return "\n".join(["3", "12", str(len(hints)), *hints, *TILES]) + "\n"


def test_three_layouts_read_the_same_puzzle():
    a = parse_edge_matching(native(["2 2 5 0"]))
    b = parse_edge_matching("1\n2 2 5 0\n3 3\n" + "\n".join(TILES))
    c = parse_edge_matching("3 3\n" + "\n".join(TILES))
    assert a.tiles == b.tiles == c.tiles
    assert a.hints == b.hints == (Hint(1, 1, 4, 0),)     # row 2 from the top of 3 = y 1
    assert c.hints == () and c.n_colours == 12


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


@pytest.mark.skipif(not BENOIST.is_dir(), reason="../shared/em-benchmarks/benoist is missing")
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
