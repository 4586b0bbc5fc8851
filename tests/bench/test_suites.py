"""``run_suite``: the tables go to standard output, the JSON file and the suite's own section of
the markdown file; progress lines go to standard error only.  ``python -m benchmarks``: bad input
is one line and exit status 2, before the suite runs."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

import benchmarks as bench
import benchmarks.__main__ as command
from cpkit.errors import InputError


def two_boards(quick: bool = False) -> list[bench.Table]:
    rows = []
    for number, label in enumerate(["first", "second"], 1):
        bench.progress(label, number, 2)
        rows.append([label, number * 1000, quick])
    bench.progress("summing up")
    return [bench.Table("Two boards", ["board", "nodes", "quick"], rows, ["A note."])]


@pytest.fixture
def suite(monkeypatch):
    monkeypatch.setitem(bench.SUITES, "two-boards", f"{__name__}:two_boards")
    return "two-boards"


def test_progress_goes_to_stderr_and_the_tables_everywhere_else(suite, capsys, tmp_path):
    markdown = tmp_path / "benchmarks.md"
    markdown.write_text("# Benchmarks\n\n<!-- bench:two-boards -->\nold\n<!-- /bench:two-boards "
                        "-->\n\n## Observations\n\nkept\n")
    bench.run_suite(suite, str(tmp_path / "r.json"), str(markdown), quick=True)
    out, err = capsys.readouterr()
    assert re.fullmatch(r"two-boards: first \(1 of 2, \d+ s so far\)\n"
                        r"two-boards: second \(2 of 2, \d+ s so far\)\n"
                        r"two-boards: summing up \(\d+ s so far\)\n", err)
    assert "so far" not in out and "| second | 2,000 | yes |" in out
    assert "`python -m benchmarks two-boards --quick`" in out
    text = markdown.read_text()
    assert "old" not in text and "| first | 1,000 | yes |" in text and text.endswith("kept\n")
    figures = json.loads((tmp_path / "r.json").read_text())
    assert figures["suite"] == suite and figures["tables"][0]["rows"][1] == ["second", 2000, True]


def test_the_command_refuses_a_figures_file_it_cannot_write_before_running(capsys):
    assert command.main(["tiling-dlx", "--quick", "--json", "/proc/cpkit-test.json"]) == 2
    err = capsys.readouterr().err
    assert "cannot write the figures" in err and "Traceback" not in err


def test_the_command_writes_into_the_checkout_from_any_working_directory(suite, tmp_path,
                                                                         monkeypatch):
    """The default files are found from the package, not from the working directory."""
    asked = []
    monkeypatch.setattr(command, "run_suite", lambda *args, **kwargs: asked.append(args))
    monkeypatch.chdir(tmp_path)
    assert command.main([suite]) == 0
    assert asked == [(suite, str(bench.ROOT / "benchmarks" / "results" / f"{suite}.json"),
                      str(bench.ROOT / "docs" / "benchmarks.md"))]
    assert (bench.ROOT / "docs" / "benchmarks.md").is_file()


def test_the_help_lists_the_suites_and_the_outside_data():
    text = subprocess.run([sys.executable, "-m", "benchmarks", "--help"], cwd=bench.ROOT,
                          capture_output=True, text=True, check=True).stdout
    assert all(name in text for name in bench.SUITES)
    assert "CPKIT_EM_BENCHMARKS" in text and "the paper's instances" in text
    assert "CPKIT_ETERNITY2" in text and "the Eternity II files" in text


def test_an_unknown_suite_names_the_ones_there_are():
    with pytest.raises(InputError, match="unknown benchmark suite 'nope'; available: tiling-dlx"):
        bench.run_suite("nope")


#: Searches the interrupted suite went on to after its signal.
AFTER_THE_SIGNAL: list = []


def interrupted_search(quick: bool = False, workers: int | None = None) -> list[bench.Table]:
    """A search of days (16 x 16, Eternity II's palettes) that gets a SIGINT while it searches:
    at its first progress report in one process, after 1 s when split (the coordinator takes
    signals from its start)."""
    import os
    import signal
    import threading

    import cpkit
    from cpkit.models.em_generator import generate

    board = generate(16, border_colours=5, inner_colours=17, seed=7)

    def interrupt(*_) -> None:
        os.kill(os.getpid(), signal.SIGINT)

    if workers is None:
        options = {"on_progress": interrupt}
    else:
        options = {"workers": workers}
        threading.Timer(1.0, interrupt).start()
    result = cpkit.solve(board, engine="backtrack", first=True, time_limit=60, **options)
    AFTER_THE_SIGNAL.append(result.stop_reason)
    return [bench.Table("Cut", ["stop"], [[result.stop_reason]], [])]


@pytest.mark.parametrize("workers", [None, 2])
def test_a_signal_ends_the_whole_suite_and_writes_nothing(monkeypatch, tmp_path, workers):
    """A search takes Ctrl-C to stop and report, so the suite went on with the cut search in
    its table, as if it had hit its time limit; in one process or split over workers."""
    import functools
    import sys

    monkeypatch.setitem(bench.SUITES, "cut", f"{__name__}:cut_suite")
    monkeypatch.setattr(sys.modules[__name__], "cut_suite",
                        functools.partial(interrupted_search, workers=workers), raising=False)
    AFTER_THE_SIGNAL.clear()
    figures, tables = tmp_path / "cut.json", tmp_path / "benchmarks.md"
    with pytest.raises(KeyboardInterrupt):
        bench.run_suite("cut", str(figures), str(tables))
    assert AFTER_THE_SIGNAL == [] and not figures.exists() and not tables.exists()
