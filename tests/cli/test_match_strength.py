"""``cpkit match`` search-strength switches: same count with each, errors are one line."""

from __future__ import annotations

import json

import pytest

from cpkit.cli import main

pytestmark = pytest.mark.kernel


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "board.txt"
    assert main(["generate", "edge-matching", "--size", "5", "--height", "4", "--border-colours", "2",
                 "--inner-colours", "4", "--seed", "1", "-o", str(path)]) == 0
    return path


def summary(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.mark.parametrize("flags", [[], ["--no-backjump"], ["--shave", "2"], ["--shave", "all"],
                                   ["--no-shared-edge", "--no-cycles"],
                                   ["--no-backjump", "--shave", "3", "--heuristic", "min-offer"]])
def test_switches_keep_the_count(board, capsys, flags):
    assert main(["match", str(board), "--engine", "cp", "--count-only", "--json"]) == 0
    expected = summary(capsys)
    assert main(["match", str(board), "--engine", "cp", "--count-only", "--json"] + flags) == 0
    got = summary(capsys)
    assert got["solutions"] == expected["solutions"] > 0
    options = got["options"]
    assert options["backjump"] == ("--no-backjump" not in flags)
    assert options["shared_edge"] == ("--no-shared-edge" not in flags)
    if "--shave" in flags:
        assert str(options["shave"]) == flags[flags.index("--shave") + 1]


@pytest.mark.parametrize("limit", ["2", "all"])
def test_the_edges_engine_shaves_with_the_same_count(board, capsys, limit):
    assert main(["match", str(board), "--engine", "edges", "--count-only", "--json"]) == 0
    plain = summary(capsys)
    assert main(["match", str(board), "--engine", "edges", "--count-only", "--json",
                 "--shave", limit]) == 0
    shaved = summary(capsys)
    assert shaved["solutions"] == plain["solutions"] > 0
    assert shaved["shave_trials"] > 0
    assert plain["shave_trials"] == 0
    assert shaved["options"]["shave"] == (limit if limit == "all" else int(limit))


@pytest.mark.parametrize("flags, message", [
    (["--engine", "cp", "--shave", "-2"], "shaving limit"),
    (["--engine", "cp", "--shave", "lots"], "shaving limit"),
    (["--shave", "2"], "--shave applies to the cp and edges engines, not auto"),
    (["--engine", "backtrack", "--no-backjump"], "--no-backjump"),
    (["--engine", "cpsat", "--shave", "2"], "--shave"),
    (["--engine", "backtrack", "--shave", "2"], "cp and edges engines"),
    (["--engine", "edges", "--shave", "lots"], "shaving limit")])
def test_bad_switches_are_one_line_errors(board, capsys, flags, message):
    assert main(["match", str(board)] + flags) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
