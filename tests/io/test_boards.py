"""Boards as data: the ``Board`` type, board files and viewer links, read and written; and the
property that every board ``cpkit match`` prints reads back as the board the engine found."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpkit.cli import main
from cpkit.errors import InputError
from cpkit.io.boards import format_board, load_board, parse_board, write_board
from cpkit.io.edge_matching import write_native
from cpkit.io.viewer_link import (DEFAULT_ORDER, board_from_link, format_link, is_link,
                                  parse_link)
from cpkit.models.board import EMPTY, Board
from cpkit.models.edge_matching import BoardSolution, EdgeMatchingPuzzle, Hint
from cpkit.models.score import score_board
from cpkit.models.em_generator import plant
from cpkit.result import verify_board
from cpkit.engines.dispatch import solve
from tests.conftest import unsolvable_board


def planted(width=5, height=4, seed=2):
    """A generated board and its planted solution; seed 2 gives 20 tiles that no rotation
    makes alike (so a board's tiles follow from its colours)."""
    puzzle, solution = plant(width, height, border_colours=4, inner_colours=6, seed=seed)
    return puzzle, Board.of(solution)


def distinct(puzzle: EdgeMatchingPuzzle) -> bool:
    """No two tiles alike, in any rotation."""
    return len({min(t[r:] + t[:r] for r in range(4)) for t in puzzle.tiles}) == puzzle.n_tiles


def test_board_converts_to_and_from_the_engines_cells():
    puzzle, board = planted()
    solution = board.to_solution()
    assert Board.of(solution) == board and verify_board(puzzle, solution) == []
    # Row 0 of a Board is the top row; the engines' cell 0 is the bottom-left corner.
    assert solution.at(0, puzzle.height - 1) == (board.tiles[0, 0], board.rotations[0, 0])
    tiles, rotations = board.cells()
    assert Board.from_cells(board.width, board.height, tiles, rotations) == board
    assert (board.width, board.height, board.filled, board.full) == (5, 4, 20, True)
    with pytest.raises(ValueError):
        board.tiles[0, 0] = 1                       # read-only: boards are values


@pytest.mark.parametrize("quarter_turns", [1, 2, 3])
def test_a_turned_board_solves_the_turned_puzzle_with_its_hints(quarter_turns):
    """Turning a puzzle and its board together keeps every score: the planted solution stays
    a solution (hints at their turned cells, turned with it), a partial board keeps its
    matched edges; an oblong board swaps its sides; four turns give the board back."""
    puzzle, board = planted(6, 4, seed=5)
    cells = [(0, 0), (2, 1), (5, 3)]
    hinted = puzzle.with_hints(Hint(x, y, *board.to_solution().at(x, y)) for x, y in cells)
    turned = hinted.turned(quarter_turns)
    solution = board.turned(quarter_turns)
    assert (turned.width, turned.height) == ((6, 4) if quarter_turns == 2 else (4, 6))
    assert verify_board(turned, solution.to_solution()) == []
    score = score_board(turned, solution)
    assert score.score == score.max_score
    assert verify_board(hinted.turned(quarter_turns + 2), solution.to_solution()) != []
    tiles, rotations = board.tiles.copy(), board.rotations.copy()
    tiles[1, 1], tiles[2, 3] = board.tiles[2, 3], board.tiles[1, 1]     # two inner tiles
    tiles[2, 1] = EMPTY                                                  # and a hole
    other = Board(tiles, rotations)
    mine = score_board(puzzle, other)
    theirs = score_board(puzzle.turned(quarter_turns), other.turned(quarter_turns))
    assert theirs.score == mine.score < mine.max_score and theirs.tiles_placed == 23
    assert solution.turned(4 - quarter_turns) == board


def test_empty_cells_have_rotation_zero_and_compare_equal():
    a = Board([[0, -1], [1, 2]], [[1, 3], [0, 2]])
    assert a.rotations[0, 1] == 0 and a.filled == 3 and not a.full
    assert a == Board([[0, -1], [1, 2]], [[1, 0], [0, 2]])
    assert Board.empty(3, 2).filled == 0 and Board.empty(3, 2).tiles.shape == (2, 3)
    for bad in ([[0, -2], [1, 2]], [[0]]):
        with pytest.raises(InputError):
            Board(bad)


def test_board_file_round_trip(tmp_path):
    puzzle, board = planted()
    holes = np.array(board.tiles)
    holes[1, 2] = holes[3, 0] = EMPTY
    partial = Board(holes, board.rotations)
    for b in (board, partial):
        path = tmp_path / "b.board"
        write_board(b, path, comment="a board")
        assert path.read_text().startswith("# a board\n")
        assert load_board(path, puzzle) == b
        assert parse_board(format_board(b)) == b
    assert format_board(partial).splitlines()[1].split()[2] == "."


@pytest.mark.parametrize("text, line, message", [
    ("1/0 2/0\n3/0\n", 2, "row 2 has 1 cells, the first row 2"),
    ("1/0 2/4\n3/0 4/0\n", 1, "found '2/4'"),
    ("1/0 0/1\n3/0 4/0\n", 1, "found '0/1'"),
    ("1/0 2\n3/0 4/0\n", 1, "found '2'"),
    ("# nothing\n", None, "holds no board"),
    ("1/0 2/0\n", 1, "at least 2 x 2"),
])
def test_board_file_errors_name_the_line(text, line, message):
    with pytest.raises(InputError, match=message) as err:
        parse_board(text, "f.board")
    assert str(err.value).startswith(f"f.board:{line}: " if line else "f.board: ")


def test_link_round_trip_and_the_letters():
    puzzle, board = planted()
    link = format_link(puzzle, board)
    assert link.startswith("https://e2.bucas.name/#puzzle=") and is_link(link)
    assert "board_w=5&board_h=4" in link and link.endswith("&motifs_order=jblackwood")
    edges = link.split("board_edges=")[1].split("&")[0]
    # Top-left cell: its four colours, north east south west, as letters a + colour.
    shown = board.colours(puzzle)
    assert edges[:4] == "".join(chr(ord("a") + c) for c in shown[0, 0])
    assert np.array_equal(parse_link(link), shown)
    assert distinct(puzzle) and board_from_link(puzzle, link) == board
    # An empty cell is "aaaa" both ways.
    holes = np.array(board.tiles)
    holes[2, 2] = EMPTY
    partial = Board(holes, board.rotations)
    link = format_link(puzzle, partial)
    assert link.split("board_edges=")[1][4 * 12:4 * 13] == "aaaa"
    assert board_from_link(puzzle, link).filled == partial.filled


def test_a_link_in_the_viewers_own_order_reads():
    """Without motifs_order the letters are the viewer's order (DEFAULT_ORDER, colour k is
    DEFAULT_ORDER[k]); the parameters alone, without the address, read too."""
    puzzle, board = planted()
    edges = "".join(DEFAULT_ORDER[c] for c in board.colours(puzzle).ravel())
    params = f"puzzle=x&board_w=5&board_h=4&board_edges={edges}"
    assert board_from_link(puzzle, params).colours(puzzle).tolist() == \
        board.colours(puzzle).tolist()


@pytest.mark.parametrize("change, message", [
    (lambda s: s.replace("jblackwood", "mine"), "unknown motifs_order 'mine'"),
    (lambda s: s.replace("board_w=5", "board_w=6"), "board_edges has 80 letters; a 6 x 4"),
    (lambda s: s.replace("board_h=4", "board_h=x"), "board_h must be a whole number"),
    (lambda s: s.replace("&board_w=5", ""), "no board_w parameter"),
    (lambda s: s.replace("board_edges=a", "board_edges=A"), "holds 'A'"),
])
def test_link_errors_name_the_file(change, message):
    puzzle, board = planted()
    with pytest.raises(InputError, match=message) as err:
        board_from_link(puzzle, change(format_link(puzzle, board)), "b.link")
    assert str(err.value).startswith("b.link: ")


def test_link_cells_that_no_tile_shows_or_that_repeat_a_tile_are_named():
    puzzle, board = planted()
    assert distinct(puzzle)
    head, rest = format_link(puzzle, board).split("board_edges=")
    edges, tail = rest.split("&", 1)

    def with_cell(k: int, letters: str) -> str:
        """The link with cell ``k`` (top row first) showing ``letters``."""
        return f"{head}board_edges={edges[:4 * k]}{letters}{edges[4 * k + 4:]}&{tail}"

    with pytest.raises(InputError, match=r"^b\.link: row 2, column 2 shows 25 25 25 25 \(north "
                                         r"east south west\), which no tile"):
        board_from_link(puzzle, with_cell(6, "zzzz"), "b.link")
    tile = board.tiles[1, 0] + 1
    with pytest.raises(InputError, match=rf"^b\.link: row 2, column 2: tile {tile} is used "
                                         rf"twice \(also on row 2, column 1\)"):
        board_from_link(puzzle, with_cell(6, edges[20:24]), "b.link")


def test_a_puzzle_with_too_many_colours_for_the_letters_gets_no_link():
    puzzle, board = planted()
    wide = EdgeMatchingPuzzle(puzzle.tiles, puzzle.width, puzzle.height, n_colours=30)
    with pytest.raises(InputError, match="colours 0..25; this puzzle has colours 0..30"):
        format_link(wide, board)


def _printed_boards(out: str) -> list[tuple[str, str | None]]:
    """Every board ``cpkit match`` printed: its grid and, with ``--link``, its link."""
    found = []
    for block in out.split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines and (lines[0].startswith("solution ") or lines[0].startswith("deepest")):
            link = lines[-1] if lines[-1].startswith("https://") else None
            found.append(("\n".join(lines[1:-1] if link else lines[1:]), link))
    return found


@st.composite
def match_runs(draw):
    """A generated board, or half the time one with the colours of its inner tiles shuffled
    among them (usually no solution is left, and the run prints its deepest partial board);
    and an engine."""
    width, height = draw(st.integers(3, 5)), draw(st.integers(4, 5))
    puzzle, _ = plant(width, height, border_colours=draw(st.integers(1, 3)),
                      inner_colours=draw(st.integers(3, 6)), seed=draw(st.integers(0, 10_000)))
    if draw(st.booleans()):
        inner = [k for k, t in enumerate(puzzle.tiles) if 0 not in t]
        colours = draw(st.permutations([c for k in inner for c in puzzle.tiles[k]]))
        tiles = list(puzzle.tiles)
        for i, k in enumerate(inner):
            tiles[k] = tuple(colours[4 * i:4 * i + 4])
        puzzle = EdgeMatchingPuzzle(tiles, width, height, name="shuffled")
    return puzzle, draw(st.sampled_from(["cp", "backtrack", "edges"]))


@settings(max_examples=16)
@given(match_runs())
def test_every_board_cpkit_match_prints_reads_back_unchanged(tmp_path_factory, run):
    puzzle, engine = run
    path = tmp_path_factory.mktemp("boards") / "p.txt"
    write_native(puzzle, path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["match", str(path), "--engine", engine, "--show", "3", "--limit", "3",
                     "--link", "--time-limit", "20"]) in (0, None)
    printed = _printed_boards(out.getvalue())
    result = solve(puzzle, engine=engine, limit=3)
    expected = [Board.of(s) for s in result.solutions] or \
        [Board.of(b) for b in (result.partial,) if b is not None]
    assert len(printed) == len(expected)
    for (grid, link), board in zip(printed, expected):
        read = parse_board(grid)
        assert read == board and format_board(read) == grid
        full = read.full
        assert verify_board(puzzle, read.to_solution(), partial=not full) == []
        # Tiles alike in some rotation may come back exchanged; the colours never change.
        again = board_from_link(puzzle, link)
        assert np.array_equal(again.colours(puzzle), board.colours(puzzle))
        assert again == board or not distinct(puzzle)


def test_the_deepest_partial_board_reads_back(tmp_path, capsys):
    puzzle = unsolvable_board()
    path = tmp_path / "u.txt"
    write_native(puzzle, path)
    assert main(["match", str(path), "--engine", "backtrack", "--link"]) == 0
    (grid, link), = _printed_boards(capsys.readouterr().out)
    board = parse_board(grid)
    assert board == Board.of(solve(puzzle, engine="backtrack").partial) and not board.full
    assert board_from_link(puzzle, link).filled == board.filled
    assert isinstance(board.to_solution(), BoardSolution)
