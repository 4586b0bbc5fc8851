"""``cpkit render`` when the requested solution is not reached: the time limit (exit 1, nothing
drawn), Ctrl-C (exit 130, reported as an interruption, not as a puzzle without solutions); options
that do not apply to the puzzle refused before any search."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpkit.cli import main

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def hard_board(tmp_path_factory):
    """16 x 16 with Eternity II's palettes (5 border, 17 inner colours): the cp engine finds
    no solution of it in minutes."""
    board = tmp_path_factory.mktemp("render") / "e16.txt"
    assert main(["generate", "edge-matching", "--size", "16", "--border-colors", "5",
                 "--inner-colors", "17", "--seed", "1", "-o", str(board)]) == 0
    return board


def test_the_time_limit_ends_the_search_and_draws_nothing(capsys, hard_board, tmp_path):
    picture = tmp_path / "x.png"
    status = main(["render", str(hard_board), "-o", str(picture), "--time-limit", "0.5"])
    err = capsys.readouterr().err
    assert status == 1 and "0 solution(s) found" in err and "nothing drawn" in err
    assert not picture.exists()


def test_ctrl_c_is_an_interruption(hard_board, tmp_path):
    picture = tmp_path / "x.png"
    proc = subprocess.Popen([sys.executable, "-m", "cpkit", "render", str(hard_board), "-o",
                             str(picture)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "cpkit: interrupted", err
    assert "solution(s)" not in err and not picture.exists()


@pytest.mark.parametrize("view", ["iso", "both"])
def test_an_isometric_view_of_a_flat_puzzle_is_refused_before_the_search(capsys, tmp_path,
                                                                          view):
    flat = Path(__file__).parents[2] / "instances" / "tiling" / "pentominoes_10x6.txt"
    status = main(["render", str(flat), "-o", str(tmp_path / "x.png"), "--view", view])
    assert status == 2 and "flat" in capsys.readouterr().err


def test_view_and_empty_files(capsys, hard_board, tmp_path):
    status = main(["render", str(hard_board), "-o", str(tmp_path / "x.png"), "--view", "iso"])
    assert status == 2 and "not to edge-matching boards" in capsys.readouterr().err
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    assert main(["render", str(empty), "-o", str(tmp_path / "x.png")]) == 2
    assert "the file is empty" in capsys.readouterr().err


@pytest.mark.parametrize("command", [
    ["render", "{tiling}", "-o", "{out}"],
    ["tile", "{tiling}", "--limit", "1", "--render", "{out}"],
    ["match", "{board}", "--first", "--render", "{out}"],
])
@pytest.mark.parametrize("out, message", [
    ("/proc/cpkit-test.png", "cannot write the picture"),
    ("{tmp}/drawn.svg", "is a directory"),
    ("{tmp}/new.svg/", "is a directory"),
])
def test_a_picture_that_cannot_be_written_is_refused_before_the_search(capsys, tmp_path,
                                                                       command, out, message):
    """It was found after the search, when saving: a traceback (exit 1)."""
    from tests.conftest import EDGE_MATCHING, TILING

    (tmp_path / "drawn.svg").mkdir()
    values = {"tiling": str(TILING / "pentominoes_20x3.txt"), "tmp": str(tmp_path),
              "board": str(EDGE_MATCHING / "gen_4_b2i3_s2.txt")}
    values["out"] = out.format(**values)
    assert main([part.format(**values) for part in command]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bench_is_not_installed_and_says_where_the_suites_are(capsys):
    assert main(["bench", "tiling-dlx", "--quick"]) == 2
    err = capsys.readouterr().err
    assert "python -m benchmarks SUITE" in err and "checkout" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
