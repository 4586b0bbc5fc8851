"""``cpkit score`` and ``cpkit match --link``: boards printed by a run scored again, from the
board file and from the link, and boards that break a rule refused in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks.edge_matching import ETERNITY2
from cpkit.cli import main
from tests.cli.test_match import one_line_error, run

EM = Path(__file__).resolve().parents[2] / "instances" / "edge_matching"
SMALL = EM / "gen_5_b4i5_s1.txt"
RECORDS = ETERNITY2 / "records"
needs_eternity2 = pytest.mark.skipif(not ETERNITY2.is_dir(),
                                     reason=f"the Eternity II files are missing ({ETERNITY2})")


def first_board(capsys, tmp_path: Path, puzzle: Path = SMALL) -> tuple[Path, Path]:
    """The first solution ``cpkit match --link`` prints, saved as a board file and a link file."""
    status, out, _ = run(capsys, "match", puzzle, "--first", "--link")
    assert status == 0
    lines = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    board, link = tmp_path / "first.board", tmp_path / "first.link"
    board.write_text("\n".join(lines[:-1]) + "\n")
    link.write_text(lines[-1] + "\n")
    return board, link


def test_a_solution_scores_every_inner_edge_from_its_board_and_its_link(capsys, tmp_path):
    for path in first_board(capsys, tmp_path):
        status, out, _ = run(capsys, "score", path, "--puzzle", SMALL, "--json")
        summary = json.loads(out)
        assert status == 0 and summary["score"] == summary["max_score"] == 40    # 5 x 5
        assert summary["tiles_placed"] == summary["cells"] == 25
        assert summary["mismatches"] == [] and summary["board"] == "first"


def test_the_text_report_and_the_link(capsys, tmp_path):
    board, link = first_board(capsys, tmp_path)
    status, out, _ = run(capsys, "score", board, "--puzzle", SMALL, "--link")
    lines = out.splitlines()
    assert status == 0 and lines[0] == ("first: 40 of 40 edges matched; 25 of 25 tiles placed "
                                        "(puzzle gen_5_b4i5_s1)")
    assert lines[1] == link.read_text().strip().replace("gen_5_b4i5_s1", "first")


def test_mismatched_edges_are_listed(capsys, tmp_path):
    board, _ = first_board(capsys, tmp_path)
    rows = [row.split() for row in board.read_text().splitlines()]
    rows[1][1], rows[1][2] = rows[1][2], rows[1][1]          # two inner tiles exchanged
    board.write_text("\n".join(" ".join(r) for r in rows) + "\n")
    status, out, _ = run(capsys, "score", board, "--puzzle", SMALL, "--json")
    summary = json.loads(out)
    cells = {tuple(m["cell"]) for m in summary["mismatches"]} | \
        {tuple(m["neighbour"]) for m in summary["mismatches"]}
    assert status == 0 and summary["score"] == 40 - len(summary["mismatches"]) < 40
    assert cells <= {(2, 2), (2, 3), (1, 2), (1, 3), (3, 2), (3, 3), (2, 1), (2, 4)}


@pytest.mark.parametrize("edit, message", [
    (lambda rows: rows[0].__setitem__(1, rows[0][0]), r"first.board: row 1, column 2: tile \d+ "
                                                      r"is used twice \(also on row 1, column 1\)"),
    (lambda rows: rows[4].__setitem__(2, rows[4][2].split("/")[0] + "/" +
                                      str((int(rows[4][2].split("/")[1]) + 2) % 4)),
     r"first.board: row 5, column 3: the tile shows colour 0 on its north side, inside the "
     r"board \(grey faces inwards\)"),
    (lambda rows: rows[0].__setitem__(0, "99/0"), "row 1, column 1: tile 99 is not a tile of "
                                                  r"the puzzle \(1..25\)"),
    (lambda rows: rows.pop(), "first.board: the board is 5 x 4, the puzzle 5 x 5"),
])
def test_boards_that_break_a_rule_are_refused_in_one_line(capsys, tmp_path, edit, message):
    board, _ = first_board(capsys, tmp_path)
    rows = [row.split() for row in board.read_text().splitlines()]
    edit(rows)
    board.write_text("\n".join(" ".join(r) for r in rows) + "\n")
    line = one_line_error(capsys, "score", board, "--puzzle", SMALL, match="")
    assert re.search(message, line), line


def test_a_hint_the_board_breaks_is_refused(capsys, tmp_path):
    from cpkit.io.edge_matching import read_edge_matching

    board, _ = first_board(capsys, tmp_path)
    corner = board.read_text().split()[0]                   # row 1, column 1 of the solution
    puzzle = read_edge_matching(SMALL)
    top_left = puzzle.cell(0, puzzle.height - 1)
    other = next(k for k in puzzle.corner_tiles() if k + 1 != int(corner.split("/")[0]))
    rotation = puzzle.corner_rotation(other, top_left)
    hinted = tmp_path / "hinted.txt"
    lines = SMALL.read_text().splitlines()
    hinted.write_text("\n".join(lines[:2] + ["1", f"1 1 {other + 1} {rotation}"] + lines[3:]))
    one_line_error(capsys, "score", board, "--puzzle", hinted,
                   match=f"first.board: row 1, column 1: the puzzle's hint puts tile "
                         f"{other + 1}/{rotation} here, the board has {corner}")
    assert run(capsys, "score", board, "--puzzle", hinted, "--ignore-hints")[0] == 0


def test_a_puzzle_with_more_colours_than_letters_is_refused_before_the_run(capsys, tmp_path):
    wide = tmp_path / "wide.txt"
    assert run(capsys, "generate", "edge-matching", "--size", "6", "--border-colors", "6",
               "--inner-colors", "24", "--seed", "1", "--output", wide)[0] == 0
    one_line_error(capsys, "match", wide, "--link", match="the viewer's links have 26 letters")


@needs_eternity2
@pytest.mark.parametrize("suffix", [".board", ".link"])
def test_the_records_score_their_published_figures(capsys, suffix):
    puzzle = ETERNITY2 / "pieces" / "e2_centre.native"
    for path, figure in ((RECORDS / f"Joshua_Blackwood_470{suffix}", 470),
                         (RECORDS / f"JBlackwood_PMcGavin_469{suffix}", 469),
                         (RECORDS / f"Joshua_Blackwood_468{suffix}", 468),
                         (RECORDS / f"Louis_Verhaard_467{suffix}", 467),
                         (RECORDS / f"Benjamin_Riotte_464{suffix}", 464)):
        status, out, _ = run(capsys, "score", path, "--puzzle", puzzle, "--json")
        summary = json.loads(out)
        assert status == 0 and (summary["score"], summary["max_score"]) == (figure, 480)
        assert summary["tiles_placed"] == 256 and summary["hints_placed"] == 1


@needs_eternity2
def test_a_record_breaking_the_clues_is_refused_with_the_cell(capsys):
    one_line_error(capsys, "score", RECORDS / "Joshua_Blackwood_470.link", "--puzzle",
                   ETERNITY2 / "pieces" / "e2_clues5.native",
                   match="Joshua_Blackwood_470.link: row 14, column 3: the puzzle's hint puts "
                         "tile 181/1 here, the board has 109/2")


def test_help_names_the_board_file_and_the_link(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "board file" in text and "e2.bucas.name" in text and "--puzzle FILE" in text
