"""Reading and writing polycube definition files."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from cpkit.errors import InputError
from cpkit.io.polycube import parse_polycube, read_polycube, write_polycube
from cpkit.models.tiling import Piece, Puzzle
from tests.conftest import ROOT, TILING

TETRIS_DEF = """# Tetris Cube Puzzle Definition
D:xDim=4:yDim=4:zDim=4
C:name=A:type=M:layout=0 0 2,  1 0 2,  2 0 2,  2 0 1,  2 0 0,  2 1 0  # Blue angle with end-notch
C:name=B:type=M:layout=0 0 0,  1 0 0,  2 0 0,  2 1 0,  2 2 0,  2 1 1  # Blue angle with mid-notch
C:name=C:type=M:layout=0 0 0,  1 0 0,  1 0 1,  2 0 1,  2 1 1          # Blue angled staircase
C:name=D:type=M:layout=0 0 0,  1 0 0,  2 0 0,  2 1 0,  3 1 0          # Blue 2-D serpent
C:name=E:type=M:layout=0 0 1,  0 0 0,  1 0 0,  1 1 0,  1 2 0,  2 1 0  # Red dog with tail
C:name=F:type=M:layout=0 0 0,  1 0 0,  0 0 1,  1 0 1,  0 1 0          # Red ziggurat
C:name=G:type=M:layout=0 2 0,  0 1 0,  0 0 0,  1 0 0,  2 0 0          # Red angle
C:name=H:type=M:layout=0 0 0,  1 0 0,  2 0 0,  3 0 0,  2 1 0          # Red line with mid-notch
C:name=I:type=M:layout=0 0 1,  1 0 1,  2 0 1,  0 1 1,  0 1 0          # Yellow pole with twisty top
C:name=J:type=M:layout=0 0 0,  1 0 0,  1 0 1,  1 1 1,  2 1 1          # Yellow cork-screw
C:name=K:type=M:layout=0 0 0,  1 0 0,  2 0 0,  1 1 0,  1 1 1          # Yellow radar dish
C:name=L:type=M:layout=0 1 0,  1 1 0,  1 1 1,  2 1 1,  1 0 1,  1 2 1  # Yellow sphinx
~D
"""


def test_reads_the_seed_tetris_cube_definition(tiling_instance):
    (puzzle,) = parse_polycube(TETRIS_DEF, "tetris.txt")
    assert puzzle.box == (4, 4, 4) and puzzle.n_pieces == 12
    ours = tiling_instance("tetriscube.txt")
    assert [s.orientation_set for s in puzzle.shapes] == [s.orientation_set for s in ours.shapes]


def test_picture_blocks_layers_and_stationary_pieces():
    text = """D:xDim=3:yDim=2:zDim=2
L:stationary=S
A A B , S . .
A B B , . . .
~L
C:name=T:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0, 2 1 0
~D"""
    (p,) = parse_polycube(text)
    stationary = {q.name: q for q in p.pieces}
    assert stationary["S"].stationary and stationary["S"].cells == ((0, 1, 1),)
    assert set(stationary["A"].cells) == {(0, 1, 0), (1, 1, 0), (0, 0, 0)}
    assert p.n_cells == 11 and p.n_pieces == 3


def test_identical_pieces_form_one_shape():
    text = "D:xDim=4:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\nC:name=b:layout=0 0 0, 0 1 0\n~D"
    (p,) = parse_polycube(text)
    assert len(p.shapes) == 1 and p.shapes[0].count == 2


def test_several_puzzles_in_one_file():
    one = "D:xDim=2:yDim=1:zDim=1\nC:name=d:layout=0 0 0, 1 0 0\n~D\n"
    puzzles = parse_polycube(one + "# second\n" + one.replace("xDim=2", "xDim=1:yDim=2").replace(":yDim=1", "", 1), "two.txt")
    assert [q.name for q in puzzles] == ["two#1", "two#2"]


@pytest.mark.parametrize("text, line, fragment", [
    ("D:xDim=x:yDim=1:zDim=1\n~D", 1, "xDim must be a whole number"),
    ("D:xDim=0:yDim=1:zDim=1\n~D", 1, "at least 1"),
    ("D:xDim=\u00b2:yDim=1:zDim=1\n~D", 1, "xDim must be a whole number"),
    ("D:xDim=1_0:yDim=1:zDim=1\n~D", 1, "xDim must be a whole number"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 \uff10, 1 0 0\n~D", 2, "layout cell 1"),
    ("D:xDim=2:yDim=1:zDim=1:color=red\n~D", 1, "unknown tag 'color'"),
    ("D:xDim=2:yDim=1:zDim=1:xDim=3\n~D", 1, "given twice"),
    ("D:xDim=2:yDim=1\n~D", 1, "lacks 'zDim='"),
    ("C:name=a:layout=0 0 0\n", 1, "expected a D line"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0\n~D", 2, "layout cell 1"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=a:type=Q:layout=0 0 0\n~D", 2, "type must be M"),
    ("D:xDim=1:yDim=1:zDim=1\nC:name=a:layout=99999999999999999999999 0 0\n~D", 2,
     "coordinates are at most 1,000,000,000"),
    ("D:xDim=1:yDim=1:zDim=1\nC:name:layout=0 0 0\n~D", 2, "name needs a value"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\nC:name=a:layout=0 0 0\n~D", 3,
     "already defined at line 2"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=s:type=S:layout=5 0 0\n~D", 2, "outside the 2x1x1 box"),
    ("D:xDim=3:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\n~D", 1, "volume 2"),
    ("D:xDim=2:yDim=1:zDim=1\n~D", 2, "defines no pieces"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\n", 1, "not closed with ~D"),
    ("D:xDim=2:yDim=1:zDim=1\nL\na a\n", 2, "not closed with ~L"),
    ("D:xDim=2:yDim=1:zDim=1\nL:stationary=q\na a\n~L\n~D", 2, "'q' does not appear"),
    ("D:xDim=2:yDim=1:zDim=2:oneSide\n~D", 1, "oneSide needs zDim=1"),
    ("D:xDim=2:yDim=1:zDim=1\nZ:foo\n~D", 2, "unknown directive 'Z'"),
    ("", 1, "no puzzle in the file"),
    ("D:xDim=2:yDim=1:zDim=1\nC:name=s:type=S:layout=0 0 0, 1 0 0\n~D", 1, "no mobile pieces"),
])
def test_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(InputError) as info:
        parse_polycube(text, "bad.txt")
    message = str(info.value)
    assert message.startswith(f"bad.txt:{line}: "), message
    assert fragment in message, message


def test_unreadable_files(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_polycube(tmp_path / "missing.txt")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="bin.txt:1: not UTF-8 text: byte 0xff in column 1"):
        read_polycube(binary)


def test_a_byte_order_mark_is_skipped(tmp_path):
    text = (TILING / "somacube.txt").read_text()
    marked = tmp_path / "bom.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    (p,) = read_polycube(marked)
    assert p.box == (3, 3, 3) and len(p.pieces) == 7


@pytest.mark.parametrize("path", sorted(TILING.glob("*.txt")), ids=lambda p: p.name)
def test_round_trip_of_bundled_puzzles(path):
    (p,) = read_polycube(path)
    buf = io.StringIO()
    write_polycube(p, buf)
    (q,) = parse_polycube(buf.getvalue(), str(path))
    assert q.box == p.box and q.cells == p.cells and q.one_sided == p.one_sided
    assert [(r.name, r.cells, r.stationary) for r in q.pieces] == \
        [(r.name, r.cells, r.stationary) for r in p.pieces]


def test_region_puzzles_are_written_with_a_filler():
    p = Puzzle([Piece("a", ((0, 0, 0), (1, 0, 0)))], region=[(1, 1, 0), (2, 1, 0)])
    buf = io.StringIO()
    write_polycube(p, buf)
    (q,) = parse_polycube(buf.getvalue())
    assert q.cells == p.cells and q.box == (3, 2, 1)


@pytest.mark.parametrize("name", [".", "a,b", "~L", "~D", "*"])
def test_stationary_names_a_picture_cannot_hold_are_written_on_c_lines(name):
    p = Puzzle([Piece("m", ((0, 0, 0), (1, 0, 0))), Piece(name, ((2, 0, 0),), True)],
               box=(3, 1, 1))
    buf = io.StringIO()
    write_polycube(p, buf)
    (q,) = parse_polycube(buf.getvalue())
    assert [(r.name, r.cells, r.stationary) for r in q.pieces] == \
        [(r.name, r.cells, r.stationary) for r in p.pieces]


@pytest.mark.parametrize("name", ["a:b", "a#b"])
def test_names_the_format_cannot_hold_are_refused(name):
    p = Puzzle([Piece(name, ((0, 0, 0),))], box=(1, 1, 1))
    with pytest.raises(InputError, match="cannot be written"):
        write_polycube(p, io.StringIO())


def test_bundled_files_match_their_generator():
    script = ROOT / "tools" / "make_tiling_instances.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_a_mirror_puzzle_is_not_written_as_one_without_mirror():
    """The format has no mirror flag: written, the Soma cube read back with 11,520 raw
    solutions instead of the mirror puzzle's 27,024."""
    import io

    from cpkit.io.polycube import write_polycube
    from cpkit.models.tiling import Puzzle

    (soma,) = read_polycube(TILING / "somacube.txt")
    out = io.StringIO()
    with pytest.raises(InputError, match="no mirror flag"):
        write_polycube([soma, Puzzle(soma.pieces, box=soma.box, mirror=True)], out)
    assert out.getvalue() == ""
