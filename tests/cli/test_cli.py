"""The command line: output contract, exit statuses, error messages."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys

import pytest

import cpkit
from cpkit.cli import main
from tests.cli import interrupted_summary
from tests.conftest import EDGE_MATCHING, TILING


def run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_tile_json_is_the_last_line(capsys):
    status, out, _ = run(capsys, "tile", str(TILING / "pentominoes_20x3.txt"), "--unique", "raw",
                         "--count-only", "--json")
    summary = json.loads(out.strip().splitlines()[-1])
    assert status == 0
    assert summary["solutions"] == 8 and summary["complete"] is True
    assert summary["engine"] == "fila" and summary["unique"] == "raw"    # auto chose FILA
    assert summary["no_fits"] == summary["attempts"] - summary["fits"] > 0
    for key in ("seconds", "nodes", "fits", "attempts", "jit_seconds"):
        assert key in summary


def test_a_split_run_says_how_long_it_planned(capsys):
    """The summary line of a split run gives its planning (the estimates before the frontier
    search, which spend a time limit too); a run in one process plans nothing."""
    puzzle = str(TILING / "somacube.txt")
    _, split, _ = run(capsys, "tile", puzzle, "--count-only", "--workers", "2")
    _, alone, _ = run(capsys, "tile", puzzle, "--count-only", "--workers", "1")
    planned = re.search(r"search [\d.]+ s, planning ([\d.]+) s(, choosing [\d.]+ s)?, jit", split)
    assert planned and float(planned.group(1)) > 0
    assert "planning" not in alone and "480 solutions" in split and "480 solutions" in alone


def test_tile_prints_letter_grids(capsys):
    status, out, _ = run(capsys, "tile", str(TILING / "pentominoes_20x3.txt"), "--unique", "raw",
                         "--show", "2")
    assert status == 0
    assert out.count("solution ") == 2
    grid = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(grid) == 20 and all(len(row.split()) == 3 for row in grid)   # 3 wide, 20 high


def test_tile_3d_prints_layers_side_by_side(capsys):
    _, out, _ = run(capsys, "tile", str(TILING / "somacube.txt"), "--unique", "raw", "--limit",
                    "1")
    grid = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(grid) == 3 and all(len(row.split()) == 9 for row in grid)


def test_cpsat_engine_through_the_cli(capsys):
    _, out, _ = run(capsys, "tile", str(TILING / "pentominoes_20x3.txt"), "--engine", "cpsat",
                    "--unique", "raw", "--count-only", "--json")
    assert json.loads(out.splitlines()[-1])["solutions"] == 8


def test_cpsat_summary_reports_branches_not_fits(capsys):
    """CP-SAT places no piece one by one: the summary gives its branch count, the JSON's nodes,
    not fits that would read 0."""
    _, out, _ = run(capsys, "tile", str(TILING / "pentominoes_20x3.txt"), "--engine", "cpsat",
                    "--unique", "raw", "--count-only")
    summary = out.splitlines()[-1]
    assert re.search(r"engine cpsat, [\d,]+ CP-SAT branches, search", summary), summary
    assert "fits" not in summary


def test_counting_modes(capsys):
    counts = {}
    for unique in ("raw", "rotation", "mirror"):
        _, out, _ = run(capsys, "tile", str(TILING / "somacube.txt"), "--unique", unique,
                        "--count-only", "--json")
        counts[unique] = json.loads(out.splitlines()[-1])["solutions"]
    assert counts == {"raw": 11520, "rotation": 480, "mirror": 240}


def test_parity_proof_is_reported(tmp_path, capsys):
    from cpkit.io.polycube import write_polycube
    from cpkit.models.catalog import _pieces
    from cpkit.models.polyforms import hexominoes
    from cpkit.models.tiling import Puzzle

    f = tmp_path / "hex.txt"
    with open(f, "w") as fh:
        write_polycube(Puzzle(_pieces(hexominoes()), box=(14, 15, 1)), fh)
    status, out, _ = run(capsys, "tile", str(f), "--count-only")
    assert status == 0 and "0 solutions" in out and "parity" in out


def test_stats_table(capsys):
    _, out, _ = run(capsys, "tile", str(TILING / "somacube.txt"), "--unique", "raw",
                    "--count-only", "--stats")
    assert "pieces left" in out and "total" in out and "no-fits" in out


@pytest.mark.parametrize("engine_args", [
    ["--engine", "fila"], ["--engine", "fila", "--heuristic", "e:f=3", "--no-nof"],
    ["--engine", "hybrid", "--fila-at", "5", "--heuristic", "s:e=5:f=2", "--nof"],
    ["--engine", "hybrid"], ["--engine", "dlx"],
])
def test_engines_through_the_cli(capsys, engine_args):
    status, out, _ = run(capsys, "tile", str(TILING / "somacube.txt"), "--count-only", "--json",
                         *engine_args)
    summary = json.loads(out.splitlines()[-1])
    assert status == 0 and summary["solutions"] == 480


def test_hybrid_stats_show_the_configuration(capsys):
    _, out, _ = run(capsys, "tile", str(TILING / "pentominoes_10x6.txt"), "--count-only",
                    "--stats")
    assert "configuration: puzzle as drawn; heuristic s:f=11; FILA when 11 pieces remain; " \
           "NOF on" in out
    assert "2,339 solutions" in out and "engine hybrid" in out


@pytest.mark.parametrize("args, fragment", [
    (["tile", "/no/such/file.txt"], "no such file"),
    (["tile", str(TILING / "somacube.txt"), "--heuristic", "q"], "bad heuristic"),
    (["tile", str(TILING / "somacube.txt"), "-r", "Q"], "no mobile piece named 'Q'"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "cpsat", "--volume-trigger", "3"],
     "triggers"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "dlx", "--fila-at", "3"],
     "--fila-at applies to the auto and hybrid engines, not dlx"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "dlx", "--heuristic", "e"],
     "not available to DLX"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "hybrid", "--heuristic", "e:f=3",
      "--fila-at", "3"], "not available to DLX"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "cpsat", "--no-nof"],
     "--nof applies to"),
    (["tile", str(TILING / "somacube.txt"), "--engine", "fila", "--volume-filter", "3"],
     "re-applied filters run inside DLX"),
    (["tile", str(TILING / "pentominoes_onesided_30x3.txt"), "--mirror"],
     "--mirror does not apply to a one-sided puzzle"),
    (["tile", str(TILING / "pentominoes_20x3.txt"), "--mc-seed", "5"],
     "--mc-seed goes with --monte-carlo"),
    (["tile", str(TILING / "pentominoes_20x3.txt"), "--monte-carlo", "10", "--limit", "2",
      "--show", "1"], "--limit, --show apply to a search, not to --monte-carlo"),
    (["match", str(EDGE_MATCHING / "gen_4_b2i3_s2.txt"), "--monte-carlo", "10", "--first"],
     "--first applies to a search, not to --monte-carlo"),
    (["match", str(EDGE_MATCHING / "gen_4_b2i3_s2.txt"), "--first", "--limit", "3"],
     "--first and --limit 3 both say when to stop"),
    (["tile", str(TILING / "pentominoes_20x3.txt"), "--engine", "cpsat", "--stats"],
     "--stats counts the fits of the dlx, fila and hybrid engines"),
    (["cover", str(TILING / "pentominoes_20x3.txt"), "--engine", "cpsat", "--heuristic", "f"],
     "--heuristic applies to the dlx engine, not cpsat"),
    (["tile", str(TILING / "pentominoes_20x3.txt"), "--count-only", "--volume-trigger",
      str(10**22), "--engine", "cpsat"], "triggers"),
])
def test_errors_are_one_line_and_status_2(capsys, args, fragment):
    status, out, err = run(capsys, *args)
    assert status == 2
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_a_negative_seed_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tile", str(TILING / "pentominoes_20x3.txt"), "--monte-carlo", "5",
              "--mc-seed", "-1"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().endswith("--mc-seed: must be at least 0, got -1")


def test_fila_refuses_a_region_too_large_at_once(tmp_path, capsys):
    from cpkit.io.polycube import write_polycube
    from cpkit.models.tiling import Piece, Puzzle

    f = tmp_path / "dominoes.txt"
    with open(f, "w") as fh:
        write_polycube(Puzzle([Piece(f"d{k}", ((0, 0, 0), (1, 0, 0))) for k in range(130)],
                              box=(20, 13, 1)), fh)
    status, _, err = run(capsys, "tile", str(f), "--engine", "fila", "--count-only")
    assert status == 2 and "at most 256 open cells" in err and err.count("\n") == 1


def test_bad_file_reports_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 zero\n~D\n")
    status, _, err = run(capsys, "tile", str(bad))
    assert status == 2 and err.strip() == f"cpkit: error: {bad}:2: layout cell 1 is '0 0 zero'; " \
                                           f"expected three whole numbers 'x y z'"


def test_unknown_option_exits_2():
    done = subprocess.run([sys.executable, "-m", "cpkit.cli", "tile", "x.txt", "--frobnicate"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr


def test_cover_command(tmp_path, capsys):
    f = tmp_path / "k.dlx"
    f.write_text("a b c\na b\nc\na\nb c\n")
    status, out, _ = run(capsys, "cover", str(f), "--json")
    assert status == 0 and json.loads(out.splitlines()[-1])["solutions"] == 2
    assert "solution 1:" in out
    f.write_text("a b\na\nb\n")
    status, out, _ = run(capsys, "cover", str(f), "--heuristic", "f")
    assert status == 0 and "1 exact cover," in out and re.search(r"dlx, \d+ nodes,", out)
    status, out, _ = run(capsys, "cover", str(f), "--engine", "cpsat")
    assert status == 0 and re.search(r"cpsat, \d+ CP-SAT branches,", out), out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_sigint_reports_partial_results(tmp_path, sig):
    """Ctrl-C or SIGTERM during a long count prints the JSON summary of what was found, exit
    status 130 (a SIGTERM used to end the process at once, with nothing printed)."""
    # About 7 s in one process without filters (the filtered run over two workers takes 4 s,
    # which a warm cache and a quiet machine can finish before the signal).  The signal goes a
    # second after the first progress line: sent 3 s after the start, it once came while a
    # loaded machine was still loading the kernels, before the search had a summary to give.
    summary = interrupted_summary("tile", str(TILING / "pentominoes_10x6.txt"), "--unique",
                                  "raw", "--engine", "dlx", "--no-volume-filter",
                                  "--no-parity-filter", "--workers", "1", "--count-only",
                                  "--json", "--progress", "0.5", searching=" M nodes/s",
                                  after=1.0, sig=sig)
    assert 0 <= summary["solutions"] < 9356


def test_first_run_announces_compilation(tmp_path):
    """With an empty numba cache the CLI says it is compiling, and reports the time apart."""
    import os

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "cpkit", "tile",
                           str(TILING / "pentominoes_20x3.txt"), "--engine", "dlx",
                           "--count-only", "--json"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "compiling" in done.stderr and str(tmp_path / "cache") in done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["jit_seconds"] > summary["seconds"]
    assert any((tmp_path / "cache").rglob("*.nbi"))          # the cache was written there


def test_ctrl_c_while_starting_up_is_one_line(monkeypatch, capsys):
    """A Ctrl-C while the subcommands are imported (numba takes about a second) ends as any
    interrupted run, exit status 130 and one line, not a traceback through the imports."""
    import cpkit.cli

    def interrupted_import(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cpkit.cli, "build_parser", interrupted_import)
    try:
        status, out, err = run(capsys, "match", str(EDGE_MATCHING / "gen_4_b2i3_s2.txt"))
    except KeyboardInterrupt:
        pytest.fail("the Ctrl-C left main as an exception (a traceback on the terminal)")
    assert status == 130 and out == "" and err == "cpkit: interrupted\n"


def test_auto_turns_the_puzzle_but_prints_the_files_drawing(capsys, tmp_path):
    """The 20 x 3 drawn 20 wide: ``auto`` searches it turned (``--stats`` says how), and prints
    its solutions 20 wide, as the file draws it; ``--orientation file`` searches it as drawn;
    the option belongs to the automatic engine."""
    import numpy as np

    from cpkit.io.polycube import read_polycube, write_polycube
    from cpkit.models import reorient

    puzzle = read_polycube(TILING / "pentominoes_20x3.txt")[0]
    wide = reorient.turned(puzzle, reorient.Turn.of(np.array([[0, -1, 0], [1, 0, 0],
                                                              [0, 0, 1]]), puzzle.box))
    path = tmp_path / "wide.txt"
    with open(path, "w") as fh:
        write_polycube(wide, fh)
    status, out, _ = run(capsys, "tile", str(path), "--show", "1", "--stats")
    assert status == 0 and "configuration: puzzle turned (" in out and "2 solutions" in out
    grid = out.split("solution 1:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(grid) == 3 and all(len(row.split()) == 20 for row in grid)
    turned_fits = int(re.search(r"([\d,]+) fits,", out).group(1).replace(",", ""))
    status, out, _ = run(capsys, "tile", str(path), "--count-only", "--stats", "--orientation",
                         "file")
    assert status == 0 and "configuration: heuristic" in out and "2 solutions" in out
    assert int(re.search(r"([\d,]+) fits,", out).group(1).replace(",", "")) > 10 * turned_fits
    status, _, err = run(capsys, "tile", str(path), "--engine", "dlx", "--orientation", "file")
    assert status == 2 and "--orientation applies to the auto engine, not dlx" in err


def test_generate_tiling_writes_a_puzzle_tile_reads(capsys, tmp_path):
    """``cpkit generate tiling`` writes a polycube file whose count is at least the cut's one
    solution, the same for every run of the same seed; what cannot be cut is one clear error
    with exit status 2."""
    path = tmp_path / "cut.txt"
    status, out, err = run(capsys, "generate", "tiling", "--box", "3x3x6", "--piece-size", "6",
                           "--seed", "2", "-o", str(path))
    assert status == 0 and out == "" and "9 pieces of 6 cells" in err
    status, out, _ = run(capsys, "generate", "tiling", "--box", "3x3x6", "--piece-size", "6",
                         "--seed", "2")
    assert status == 0 and out == path.read_text()
    status, out, _ = run(capsys, "tile", str(path), "--count-only", "--json")
    counted = json.loads(out.strip().splitlines()[-1])["solutions"]
    assert status == 0 and counted == cpkit.count(str(path), engine="dlx") >= 1
    status, out, err = run(capsys, "generate", "tiling", "--box", "3x3x7", "--piece-size", "6",
                           "--seed", "2")
    assert status == 2 and out == ""
    assert err.strip() == "cpkit: error: the 3x3x7 box has 63 cells, not a multiple of the " \
                          "piece size 6"
