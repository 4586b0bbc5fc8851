"""``cpkit match``, ``cpkit generate`` and ``cpkit render`` on edge-matching puzzles: output
contract, errors as one line with exit status 2, Ctrl-C as a partial result."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cpkit.cli import main
from cpkit.io.edge_matching import read_edge_matching
from cpkit.parallel.plan import MAX_OVERSHOOT, MAX_SUBPROBLEMS, MIN_PER_WORKER
from cpkit.result import verify_board
from tests.cli import interrupted_summary
from tests.conftest import unsolvable_board

EM = Path(__file__).resolve().parents[2] / "instances" / "edge_matching"
MANIFEST = json.loads((EM / "manifest.json").read_text())
SMALL = EM / "gen_5_b4i5_s1.txt"


def run(capsys, *args):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(capsys, *args, match: str) -> str:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cpkit: error: ") and match in lines[0], err
    return lines[0]


def generated(capsys, tmp_path: Path, size: int, border: int, inner: int) -> Path:
    """A board written by ``cpkit generate edge-matching`` (seed 1) into ``tmp_path``."""
    board = tmp_path / f"gen_{size}_b{border}i{inner}.txt"
    assert run(capsys, "generate", "edge-matching", "--size", size, "--border-colors", border,
               "--inner-colors", inner, "--seed", "1", "--output", board)[0] == 0
    return board


@pytest.mark.parametrize("engine", ["cp", "backtrack", "cpsat", "alldiff", "edges"])
def test_json_summary_is_the_last_line(capsys, engine):
    status, out, _ = run(capsys, "match", SMALL, "--engine", engine, "--count-only", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and len(out.strip().splitlines()) == 1
    assert summary["solutions"] == MANIFEST[SMALL.name]["counts"]["rotation"]
    assert summary["complete"] is True and summary["engine"] == engine
    assert summary["unique"] == "rotation"
    for key in ("seconds", "nodes", "nodes_per_s", "jit_seconds", "stop_reason"):
        assert key in summary
    # CP-SAT does not say what its propagation placed; the brute force places nothing so
    assert ("propagated" in summary) == (engine != "cpsat")
    assert (summary.get("propagated") == 0) == (engine == "backtrack")


def test_the_default_engine_races_and_says_which_engine_answered_and_why(capsys):
    status, out, _ = run(capsys, "match", SMALL, "--count-only", "--json", "--workers", "1")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["complete"] and summary["engine"] in ("backtrack", "cp",
                                                                         "edges")
    assert summary["solutions"] == MANIFEST[SMALL.name]["counts"]["rotation"]
    assert summary["engine_reason"] and set(summary["engine_race"]["engines"]) == {
        "backtrack", "cp", "edges"}
    status, out, _ = run(capsys, "match", SMALL, "--count-only")
    assert status == 0 and re.search(r"engine (backtrack|cp|edges) chosen by auto: ", out), out


@pytest.mark.parametrize("engine, effort", [("cpsat", r"[\d,]+ CP-SAT branches, search [\d.]+ s "
                                                      r"\([\d,]+ branches/s\)"),
                                            ("cp", r"[\d,]+ nodes, [\d,]+ propagated, search "
                                                   r"[\d.]+ s \([\d,]+ nodes/s\)")])
def test_the_text_summary_names_cpsats_nodes_as_its_branches(capsys, engine, effort):
    """CP-SAT's ``nodes`` is its branch count, not a tile placement: the text line says so (the
    tile and cover commands' lines too), where it read "nodes" beside the cp engine's."""
    status, out, _ = run(capsys, "match", SMALL, "--engine", engine, "--count-only")
    assert status == 0 and re.search(f"engine {engine}, {effort}", out), out


def test_the_edges_engine_takes_the_complete_alldifferent_and_the_papers_branching(capsys):
    status, out, _ = run(capsys, "match", SMALL, "--engine", "edges", "--alldifferent",
                         "--branching", "min-domain", "--unique", "raw", "--count-only",
                         "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["options"]["alldifferent"] is True
    assert summary["options"]["branching"] == "min-domain"
    assert summary["solutions"] == MANIFEST[SMALL.name]["counts"]["raw"]


def test_the_edges_engine_splits_over_two_workers_with_the_same_nodes(capsys):
    board = EM / "gen_6_b4i5_s3.txt"
    args = ("match", board, "--engine", "edges", "--count-only", "--json")
    one = json.loads(run(capsys, *args)[1].strip().splitlines()[-1])
    status, out, _ = run(capsys, *args, "--workers", "2", "--subproblems", "16")
    two = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and two["workers"] == 2 and two["subproblems"] >= 16
    assert (two["solutions"], two["nodes"]) == (one["solutions"], one["nodes"])
    assert two["solutions"] == MANIFEST[board.name]["counts"]["rotation"]


def test_solutions_print_as_boards_that_verify(capsys):
    puzzle = read_edge_matching(SMALL)
    status, out, _ = run(capsys, "match", SMALL, "--show", "2", "--unique", "raw")
    assert status == 0 and out.count("solution ") == 2
    grid = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(grid) == puzzle.height
    cells = [cell.split("/") for row in grid for cell in row.split()]
    assert len(cells) == puzzle.n_cells
    # Printed top row first, tiles from 1: rebuild the board and check it independently.
    from cpkit.models.edge_matching import BoardSolution

    tiles, rotations = [0] * puzzle.n_cells, [0] * puzzle.n_cells
    for k, (tile, rotation) in enumerate(cells):
        x, y = k % puzzle.width, puzzle.height - 1 - k // puzzle.width
        tiles[puzzle.cell(x, y)] = int(tile) - 1
        rotations[puzzle.cell(x, y)] = int(rotation)
    board = BoardSolution(puzzle.width, puzzle.height, tuple(tiles), tuple(rotations))
    assert verify_board(puzzle, board) == []
    assert "solutions (raw), complete" in out.strip().splitlines()[-1]


def test_first_limit_and_ignore_hints(capsys, tmp_path):
    status, out, _ = run(capsys, "match", SMALL, "--first", "--json")
    assert status == 0 and json.loads(out.splitlines()[-1])["solutions"] == 1
    status, out, _ = run(capsys, "match", SMALL, "--limit", "2", "--count-only", "--json")
    summary = json.loads(out.splitlines()[-1])
    assert (summary["solutions"], summary["complete"], summary["stop_reason"]) == (2, False,
                                                                                   "limit")
    # A file with a hint: the hinted count, or the puzzle's own with --ignore-hints.
    text = SMALL.read_text().splitlines()
    puzzle = read_edge_matching(SMALL)
    corner = puzzle.corner_tiles()[0]
    hint = f"5 1 {corner + 1} {puzzle.corner_rotation(corner, 0)}"
    hinted = tmp_path / "hinted.txt"
    hinted.write_text("\n".join(text[:2] + ["1", hint] + text[3:]) + "\n")
    status, out, _ = run(capsys, "match", hinted, "--count-only", "--json", "--unique", "raw")
    summary = json.loads(out.splitlines()[-1])
    assert summary["unique"] == "hints"
    assert summary["solutions"] == MANIFEST[SMALL.name]["counts"]["rotation"]
    status, out, _ = run(capsys, "match", hinted, "--count-only", "--json", "--unique", "raw",
                         "--ignore-hints")
    assert json.loads(out.splitlines()[-1])["solutions"] == MANIFEST[SMALL.name]["counts"]["raw"]


@pytest.mark.parametrize("args, match", [
    (["no_such_file.txt"], "no such file"),
    ([EM / "manifest.json"], "manifest.json:1: expected whole numbers"),
    ([SMALL, "--format", "puz"], "gen_5_b4i5_s1.txt:2:"),
    ([SMALL, "--engine", "backtrack", "--no-preemption"], "--no-preemption applies to the cp"),
    ([SMALL, "--render", "x.gif"], ".png or .svg"),
    ([SMALL, "--engine", "alldiff", "--workers", "2"], "alldiff engine runs in one process"),
    ([SMALL, "--engine", "cpsat", "--workers", "2"],
     "--checkpoint and --scheduler apply to the backtrack, cp and edges engines"),
    ([SMALL, "--engine", "alldiff", "--progress", "5"], "alldiff engine reports no progress"),
    ([SMALL, "--progress", "inf"], "progress must be True, False or a positive number"),
    ([SMALL, "--monte-carlo", "10", "--progress", "5"], "--progress applies to a search"),
    ([SMALL, "--monte-carlo", "10"], "--monte-carlo estimates the tree of one engine"),
    ([SMALL, "--edge-filtering"], "--edge-filtering applies to the alldiff engine, not auto"),
    ([SMALL, "--no-tile-rules"], "--no-tile-rules applies to the edges engine, not auto"),
    ([SMALL, "--engine", "alldiff", "--alldifferent"],
     "--alldifferent applies to the edges engine, not alldiff"),
    ([SMALL, "--branching", "min-domain"], "--branching applies to the edges engine, not auto"),
])
def test_errors_are_one_line(capsys, args, match):
    one_line_error(capsys, "match", *args, match=match)


def test_option_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as err:
        main(["match", str(SMALL), "--unique", "mirror"])
    assert err.value.code == 2
    capsys.readouterr()


def test_the_summary_line_says_solution_for_one(capsys):
    one = EM / "gen_6_b5i6_s2.txt"
    assert MANIFEST[one.name]["counts"]["rotation"] == 1
    _, out, _ = run(capsys, "match", one, "--count-only")
    assert out.strip().splitlines()[-1].startswith("gen_6_b5i6_s2: 1 solution (rotation)")
    _, out, _ = run(capsys, "match", SMALL, "--count-only")
    assert out.strip().splitlines()[-1].startswith("gen_5_b4i5_s1: 6 solutions (rotation)")


def test_show_prints_that_many_of_a_split_run_and_counts_all(capsys):
    board = EM / "gen_6_b4i5_s3.txt"
    status, out, _ = run(capsys, "match", board, "--workers", "2", "--show", "2", "--json")
    assert status == 0 and json.loads(out.splitlines()[-1])["solutions"] == 16
    assert out.count("solution ") == 2 and "solution 2:" in out


@pytest.mark.parametrize("engine", ["cp", "edges"])
def test_a_checkpoint_resumes_with_the_default_shaving_given_explicitly(capsys, tmp_path,
                                                                         engine):
    """``--shave 0`` is the default itself, and a checkpoint that recorded a limit as text
    (as ``cpkit match`` did before it parsed the flag) still resumes with the same limit."""
    board = EM / "gen_6_b4i5_s3.txt"
    ck = tmp_path / "em.ck"
    common = ["--engine", engine, "--count-only", "--json", "--workers", "1"]
    status, _, _ = run(capsys, "match", board, *common, "--checkpoint", ck)
    assert status == 0
    status, out, _ = run(capsys, "match", board, *common, "--resume", ck, "--shave", "0")
    summary = json.loads(out.splitlines()[-1])
    assert status == 0 and summary["complete"] and summary["solutions"] == 16
    one_line_error(capsys, "match", board, *common, "--resume", ck, "--shave", "1",
                   match="other options: shave=0 (now 1)")
    data = json.loads(ck.read_text())
    data["options"]["shave"] = "1"
    ck.write_text(json.dumps(data))
    status, out, _ = run(capsys, "match", board, *common, "--resume", ck, "--shave", "1")
    assert status == 0 and json.loads(out.splitlines()[-1])["solutions"] == 16


def test_a_first_or_limit_run_can_be_checkpointed_and_resumed(capsys, tmp_path):
    """``--first`` and ``--limit N`` take ``--checkpoint`` (an attack on a hard board with
    ``--first`` can be stopped and continued); resuming prints the same boards.  A run that
    would print every solution is refused, one line."""
    board = EM / "gen_5_b3i4_s3.txt"
    ck = tmp_path / "em.ck"
    common = ["--engine", "backtrack", "--workers", "1", "--subproblems", "20"]
    status, before, _ = run(capsys, "match", board, *common, "--limit", "3", "--checkpoint", ck)
    assert status == 0 and before.count("solution ") == 3
    status, again, _ = run(capsys, "match", board, *common, "--limit", "3", "--resume", ck)
    boards = [chunk for chunk in again.split("\n\n") if chunk.startswith("solution ")]
    assert status == 0 and len(boards) == 3 and all(b in before for b in boards)
    status, first, _ = run(capsys, "match", board, *common, "--first", "--checkpoint", ck)
    assert status == 0 and first.split("\n\n")[0] == boards[0]
    one_line_error(capsys, "match", board, *common, "--checkpoint", ck,
                   match="give --first, --limit N or --show N")


def test_the_python_model_refuses_boards_beyond_its_depth(capsys, tmp_path):
    big = generated(capsys, tmp_path, 17, 5, 17)
    one_line_error(capsys, "match", big, "--engine", "alldiff", match="at most 256 cells")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_cp_engine_refuses_a_board_whose_pair_sets_would_not_fit(capsys, tmp_path, workers):
    # 32 x 32 of 220 colours: 97,682 pairs, each with a set over the tiles and one over the
    # cells; the run took 2.1 GB before, 64 x 64 8 GB.
    big = generated(capsys, tmp_path, 32, 20, 200)
    one_line_error(capsys, "match", big, "--engine", "cp", "--first", "--workers", workers,
                   match="1.5 GiB for this 32 x 32 board (at most 1 GiB)")


def test_the_edges_engine_refuses_more_colours_than_a_word_holds(capsys, tmp_path):
    # 74 colours declared, 73 shown (grey included) on this 12 x 12 board.
    wide = generated(capsys, tmp_path, 12, 4, 70)
    one_line_error(capsys, "match", wide, "--engine", "edges",
                   match="at most 64 colours with grey, this puzzle's tiles show 73")


def test_the_edges_engine_needs_a_bit_only_for_the_colours_the_tiles_show(capsys, tmp_path):
    # 74 colours declared, 63 shown on this 9 x 9 board: it used to be refused.
    wide = generated(capsys, tmp_path, 9, 4, 70)
    counts = []
    for engine in ("edges", "backtrack"):
        code, out, _ = run(capsys, "match", wide, "--engine", engine, "--json", "--workers", "1")
        assert code == 0
        counts.append(json.loads(out.splitlines()[-1])["solutions"])
    assert counts[0] == counts[1] > 0


def test_the_edges_engine_refuses_boards_whose_domains_would_not_fit(capsys, tmp_path):
    huge = generated(capsys, tmp_path, 58, 8, 40)
    one_line_error(capsys, "match", huge, "--engine", "edges",
                   match="keeps a flag per cell and orientation")


@pytest.mark.parametrize("engine", ["cp", "backtrack", "edges"])
def test_a_board_without_solution_prints_its_deepest_partial_board(capsys, tmp_path, engine):
    from cpkit.io.edge_matching import write_native

    board = tmp_path / "none.txt"
    write_native(unsolvable_board(), board)
    code, out, _ = run(capsys, "match", board, "--engine", engine, "--json", "--workers", "1")
    summary = json.loads(out.splitlines()[-1])
    assert code == 0 and summary["solutions"] == 0 and summary["complete"]
    head, *grid = out.split("\n\n")[0].splitlines()
    assert head == f"deepest partial board ({summary['deepest']} of 25 cells):"
    assert len(grid) == 5 and sum(row.split().count(".") for row in grid) == \
        25 - summary["deepest"] > 0
    code, out, _ = run(capsys, "match", board, "--engine", engine, "--count-only")
    assert code == 0 and "deepest partial board" not in out
    assert f"complete, deepest {summary['deepest']} of 25 cells;" in out


def test_a_malformed_file_names_its_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3\n5\n0\n1 2 3 4\n")
    one_line_error(capsys, "match", bad, match="bad.txt:4: the file ends early")
    bad.write_text("3\n5\n0\n" + "1 1 0 0\n" * 9)
    one_line_error(capsys, "match", bad, match="bad.txt: a 3 x 3 board needs 4 corner tiles")


def test_sigint_reports_partial_results(tmp_path):
    """Ctrl-C during a long count prints the summary of what was found, exit status 130.  (One
    process: it prints its first solution when found, which says the search is under way.
    Split runs are interrupted in tests/cli/test_long_runs.py.)"""
    from cpkit.io.edge_matching import write_native
    from cpkit.models.em_generator import generate

    long = tmp_path / "long.txt"          # two colours per palette: millions of solutions
    write_native(generate(6, border_colours=2, inner_colours=2, seed=1), long)
    summary = interrupted_summary("match", str(long), "--unique", "raw", "--show", "1",
                                  "--workers", "1", "--json", after=1.0, ready="solution 1:")
    assert summary["nodes"] > 0 and summary["solutions"] > 1


def test_an_eternity_sized_board_with_few_colours_plans_its_split(capsys, tmp_path):
    """16 x 16 with two colours a palette: Knuth's estimate of the tree passes the float range
    (it once ended the default two-worker run in a traceback); the estimate says so in JSON's
    terms and the run splits as finely as it plans to: at the first depth with 20,000
    subproblems, or the one above it if that first one holds more than ``MAX_OVERSHOOT``."""
    board = generated(capsys, tmp_path, 16, 2, 2)
    status, out, _ = run(capsys, "match", board, "--engine", "cp", "--monte-carlo", "2",
                         "--json")
    estimate = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and estimate["estimated_nodes"] is None
    # The planning counts in the time limit and takes a share of it: 2 s left no time for a
    # split (0 subproblems, the plan cut at 2 s); 8 s leave it its budget.
    status, out, _ = run(capsys, "match", board, "--engine", "cp", "--workers", "2",
                         "--time-limit", "8", "--count-only", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0 and summary["complete"] is False and summary["stop_reason"] == "time_limit"
    n = summary["subproblems"]
    if n < MAX_SUBPROBLEMS:
        from cpkit.engines.edge_matching.em_split import prepare_cp

        below = prepare_cp(read_edge_matching(board), {}).frontier(summary["split_depth"] + 1,
                                                                   False)
        assert n >= 2 * MIN_PER_WORKER and len(below.paths) > MAX_OVERSHOOT


def test_render_after_a_run_that_found_nothing_draws_its_deepest_board(capsys, tmp_path):
    """A 16 x 16 board with Eternity II's palettes has no solution in a second; ``--render``
    once searched it again for one, without the time limit: for ever.  It draws the deepest
    partial board instead (the tiles placed there labelled, the empty cells blank)."""
    board, drawn = generated(capsys, tmp_path, 16, 5, 17), tmp_path / "deepest.svg"
    proc = subprocess.run([sys.executable, "-m", "cpkit", "match", str(board), "--workers", "1",
                           "--time-limit", "1", "--render", str(drawn), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["solutions"] == 0 and 0 < summary["deepest"] < 256
    assert f"drew the deepest partial board to {drawn}" in proc.stderr
    labels = re.findall(r"<!-- (\d+) -->", drawn.read_text())
    assert len(labels) == len(set(labels)) == summary["deepest"]



def test_cpsat_keeps_no_partial_board_to_draw(capsys, tmp_path):
    from cpkit.io.edge_matching import write_native

    board, drawn = tmp_path / "none.txt", tmp_path / "x.png"
    write_native(unsolvable_board(), board)
    code, out, err = run(capsys, "match", board, "--engine", "cpsat", "--render", drawn)
    assert code == 0 and "0 solutions" in out and "deepest" not in out
    assert "no solution to draw" in err and not drawn.exists()


def test_generate_writes_the_native_format(capsys, tmp_path):
    out = tmp_path / "g.txt"
    status, stdout, err = run(capsys, "generate", "edge-matching", "--size", "5", "--height", "4",
                              "--border-colors", "3", "--inner-colors", "4", "--seed", "1",
                              "-o", out)
    assert status == 0 and stdout == "" and "5 x 4" in err
    assert out.read_text() == (EM / "gen_5x4_b3i4_s1.txt").read_text()
    status, stdout, _ = run(capsys, "generate", "edge-matching", "--size", "5", "--height", "4",
                            "--border-colors", "3", "--inner-colors", "4", "--seed", "1")
    assert stdout == out.read_text()


@pytest.mark.parametrize("args, match", [
    (["--size", "1", "--border-colors", "1", "--inner-colors", "1", "--seed", "0"],
     "at least 2 x 2"),
    (["--size", "99", "--border-colors", "1", "--inner-colors", "1", "--seed", "0"],
     "too large"),
    (["--size", "4", "--border-colors", "200", "--inner-colors", "100", "--seed", "0"],
     "at most"),
    (["--size", "4", "--border-colors", "1", "--inner-colors", "1", "--seed", "0", "-o",
      "/no/such/dir/x.txt"], "cannot write"),
])
def test_generate_errors_are_one_line(capsys, args, match):
    one_line_error(capsys, "generate", "edge-matching", *args, match=match)


def test_match_and_render_draw_a_solution(capsys, tmp_path):
    drawn = tmp_path / "first.png"
    status, out, err = run(capsys, "match", SMALL, "--count-only", "--render", drawn)
    assert status == 0 and drawn.read_bytes().startswith(b"\x89PNG") and str(drawn) in err
    svg = tmp_path / "third.svg"
    status, out, _ = run(capsys, "render", SMALL, "-o", svg, "--solution", "3")
    assert status == 0 and svg.read_text().startswith("<?xml")
    one_line_error(capsys, "render", SMALL, "-o", tmp_path / "x.png", "--solution", "99",
                   match="there is no solution 99")
