"""The Eternity II files as the community publishes them (outside the repository: the folder
``CPKIT_ETERNITY2`` names, by default ``../shared/em-benchmarks/eternity2`` beside the checkout;
skipped when absent): every file reads without naming its layout, the clue puzzles solve, the
record boards score their published figures from their board files and their links alike."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from cpkit.api import load, score
from benchmarks.edge_matching import ETERNITY2
from cpkit.cli import main
from cpkit.errors import InputError
from cpkit.io.boards import format_board, load_board, parse_board, read_board
from cpkit.io.viewer_link import board_from_link, format_link
from cpkit.models.board import Board

pytestmark = pytest.mark.skipif(not ETERNITY2.is_dir(),
                                reason=f"the Eternity II files are missing ({ETERNITY2})")

RECORDS = {"Joshua_Blackwood_470": 470, "JBlackwood_PMcGavin_469": 469,
           "Joshua_Blackwood_468": 468, "Louis_Verhaard_467": 467, "Benjamin_Riotte_464": 464}
#: The sizes the files' README gives, width x height as cpkit lays an oblong board (wider).
SIZES = {"e2pieces": (16, 16), "e2_clues5": (16, 16), "e2_centre": (16, 16),
         "clue1": (6, 6), "clue2": (12, 6), "clue3": (6, 6), "clue4": (12, 6)}


def puzzle_files():
    return sorted(p for p in ETERNITY2.rglob("*")
                  if p.is_file() and p.suffix not in (".md", ".board", ".link"))


def test_every_puzzle_file_reads_without_naming_its_layout():
    files = puzzle_files()
    assert len(files) == 23
    for path in files:
        puzzle = load(path)
        name = path.name.split(".")[0]
        side = re.match(r"owen_(\d+)x", name)
        expected = SIZES.get(name, (16, 16) if name.startswith("e2_v") else None)
        if side:
            expected = (int(side[1]),) * 2
        assert (puzzle.width, puzzle.height) == expected, path
    # The README's clues, as hints: tile 139 on row 9, column 8 turned so its side 2 faces
    # north, in every file that has hints; the variants add three pinned corners.
    clues5 = load(ETERNITY2 / "pieces" / "e2_clues5.native")
    assert (clues5.height - clues5.hints[0].y, clues5.hints[0].x + 1, clues5.hints[0].tile + 1,
            clues5.hints[0].rotation) == (9, 8, 139, 2)
    assert len(load(ETERNITY2 / "variants" / "e2_v00.native").hints) == 8


def test_the_pieces_are_the_same_in_every_layout():
    heule = load(ETERNITY2 / "pieces" / "e2pieces.heule.txt")
    for other in ("e2_clues5.native", "e2_centre.native"):
        assert load(ETERNITY2 / "pieces" / other).tiles == heule.tiles
    urdl = load(ETERNITY2 / "owen" / "owen_08x08.urdl.txt")
    assert load(ETERNITY2 / "owen" / "owen_08x08.gallicchio.puz").tiles == urdl.tiles


def independent_check(puzzle_text: str, grid: str) -> list[str]:
    """Problems of a printed board as a solution of a Heule file, read here from scratch: the
    tiles are the lines after the hint count (tile k on line k + 1), a cell ``t/r`` shows side
    ``(s + r) % 4`` of tile ``t`` on its side ``s`` (north, east, south, west)."""
    lines = [line.split() for line in puzzle_text.splitlines() if line.strip()]
    tiles = [tuple(int(c) for c in line) for line in lines[1 + int(lines[0][0]):]]
    rows = [[tuple(int(v) for v in cell.split("/")) for cell in row.split()]
            for row in grid.splitlines()]
    height, width = len(rows), len(rows[0])
    problems = []
    used = sorted(t for row in rows for t, _ in row)
    if used != list(range(1, len(tiles) + 1)):
        problems.append("the tiles are not each used once")
    shows = [[tuple(tiles[t - 1][(s + r) % 4] for s in range(4)) for t, r in row] for row in rows]
    for i in range(height):
        for j in range(width):
            n, e, s, w = shows[i][j]
            frame = (i == 0, j == width - 1, i == height - 1, j == 0)
            for side, colour in enumerate((n, e, s, w)):
                if frame[side] != (colour == 0):
                    problems.append(f"({i}, {j}) side {side}: colour {colour}")
            if j + 1 < width and e != shows[i][j + 1][3]:
                problems.append(f"({i}, {j}) east")
            if i + 1 < height and s != shows[i + 1][j][0]:
                problems.append(f"({i}, {j}) south")
    return problems


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_the_clue_puzzles_solve_as_published(capsys, n):
    path = ETERNITY2 / "pieces" / f"clue{n}.heule.txt"
    assert main(["match", str(path), "--first"]) == 0
    out = capsys.readouterr().out
    grid = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0]
    assert independent_check(path.read_text(), grid) == []
    assert (len(grid.splitlines()[0].split()), len(grid.splitlines())) == SIZES[f"clue{n}"]
    # The checker refuses a board with two cells exchanged.
    cells = grid.split()
    cells[0], cells[1] = cells[1], cells[0]
    width = SIZES[f"clue{n}"][0]
    broken = "\n".join(" ".join(cells[k:k + width]) for k in range(0, len(cells), width))
    assert independent_check(path.read_text(), broken) != []


def test_owens_6x6_counts_its_published_65_with_the_brute_force(capsys):
    assert main(["match", str(ETERNITY2 / "owen" / "owen_06x06.urdl.txt"), "--count-only",
                 "--engine", "backtrack", "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["solutions"] == 65


@pytest.mark.slow
def test_owens_6x6_counts_its_published_65(capsys):
    """The default engine, as a user runs it (about 40 s on 2 cores: the cp engine's default
    heuristic makes 17 M nodes where the brute force makes 15 M far cheaper ones)."""
    assert main(["match", str(ETERNITY2 / "owen" / "owen_06x06.urdl.txt"), "--count-only",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["solutions"] == 65


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_records_score_their_published_figures_from_boards_and_links(name):
    board_file = ETERNITY2 / "records" / f"{name}.board"
    link_file = ETERNITY2 / "records" / f"{name}.link"
    puzzle = load(ETERNITY2 / "pieces" / "e2_centre.native")
    board = read_board(board_file)
    linked = load_board(link_file, puzzle)
    # The link and the board file hold the very same board (the colour letters derived from
    # these five are right for all five), and cpkit's own link for it reads back to it.
    assert linked == board
    assert board_from_link(puzzle, format_link(puzzle, board)) == board
    for source in (board_file, link_file, board):
        result = score(source, puzzle)
        assert (result.score, result.max_score, result.tiles_placed) == (RECORDS[name], 480, 256)
        assert len(result.mismatches) == 480 - RECORDS[name]
        assert result.hints == result.hints_placed == 1
    clues = ETERNITY2 / "pieces" / "e2_clues5.native"
    if name == "Benjamin_Riotte_464":
        assert score(board, clues).hints_placed == 5
    else:
        with pytest.raises(InputError, match=r"row \d+, column \d+: the puzzle's hint puts"):
            score(board, clues)
        assert score(board, clues, ignore_hints=True).score == RECORDS[name]
    assert parse_board(format_board(board)) == board


def test_the_records_links_letters_are_one_colour_each():
    """The encoding read off the records: four letters a cell, north east south west, top row
    first; in each link one letter per colour and one colour per letter."""
    puzzle = load(ETERNITY2 / "pieces" / "e2pieces.heule.txt")
    for name in RECORDS:
        shown = read_board(ETERNITY2 / "records" / f"{name}.board").colours(puzzle)
        text = (ETERNITY2 / "records" / f"{name}.link").read_text()
        edges = re.search(r"board_edges=([a-z]+)", text)[1]
        pairs = set(zip(edges, shown.ravel().tolist()))
        assert len(pairs) == len({a for a, _ in pairs}) == len({c for _, c in pairs}) == 23


def test_boards_that_break_a_rule_are_refused_with_the_cell_named():
    puzzle = load(ETERNITY2 / "pieces" / "e2_clues5.native")
    board = read_board(ETERNITY2 / "records" / "Benjamin_Riotte_464.board")
    tiles, rotations = np.array(board.tiles), np.array(board.rotations)
    twice = tiles.copy()
    twice[0, 2] = tiles[0, 1]
    with pytest.raises(InputError, match=rf"^row 1, column 3: tile {tiles[0, 1] + 1} is used "
                                         rf"twice \(also on row 1, column 2\)"):
        score(Board(twice, rotations), puzzle)
    turned = rotations.copy()
    turned[15, 1] = (turned[15, 1] + 2) % 4          # a bottom edge tile, grey turned north
    with pytest.raises(InputError, match=r"^row 16, column 2: the tile shows colour 0 on its "
                                         r"north side, inside the board \(grey faces inwards\)"):
        score(Board(tiles, turned), puzzle)
    hinted = rotations.copy()
    hinted[8, 7] = (hinted[8, 7] + 1) % 4             # the centre clue, row 9, column 8
    with pytest.raises(InputError, match=r"^row 9, column 8: the puzzle's hint puts tile "
                                         r"139/2 here, the board has 139/3"):
        score(Board(tiles, hinted), puzzle)
    # A partial board (the top eight rows) scores the edges between the tiles it holds.
    holes = tiles.copy()
    holes[8:, :] = -1
    partial = score(Board(holes, rotations), puzzle)
    assert partial.tiles_placed == 128 and partial.hints_placed == 2     # the clues of row 3
    inside = [m for m in score(board, puzzle).mismatches
              if m.row <= (7 if m.side == "east" else 6)]
    assert partial.score == 8 * 15 + 7 * 16 - len(inside) and partial.max_score == 480
