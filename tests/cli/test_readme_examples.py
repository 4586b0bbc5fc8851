"""The README's and docs/usage.md's example commands are commands cpkit accepts: every option
parses for its subcommand, and every bundled file they name exists.  (Running them is the
business of the tests of each command; this keeps the documentation from drifting from the
parser.)"""

from __future__ import annotations

import re
import shlex

import pytest

from cpkit.cli import build_parser
from tests.conftest import ROOT


def example_commands(path) -> list[list[str]]:
    """The ``cpkit ...`` lines of the file's code blocks, comments dropped, continuation
    lines joined."""
    commands, block, pending = [], False, ""
    for line in (ROOT / path).read_text().splitlines():
        if line.startswith("```"):
            block = not block
            continue
        if not block:
            continue
        text = pending + line.split("  #")[0].strip()
        if text.endswith("\\"):
            pending = text[:-1] + " "
            continue
        pending = ""
        if text.startswith("cpkit "):
            commands.append(shlex.split(text)[1:])
    return commands


DOCS = ["README.md", "docs/usage.md"]
COMMANDS = [(doc, argv) for doc in DOCS for argv in example_commands(doc)]


def test_the_readme_shows_five_examples():
    assert len(example_commands("README.md")) == 5


@pytest.mark.parametrize("doc,argv", COMMANDS, ids=[" ".join(a)[:60] for _, a in COMMANDS])
def test_an_example_command_parses_and_its_bundled_files_exist(doc, argv):
    try:
        build_parser(argv).parse_args(argv)
    except SystemExit as exc:                   # --help exits 0 once it has printed
        if exc.code != 0:
            pytest.fail(f"{doc}: cpkit {' '.join(argv)}: the parser refused it "
                        f"({exc.code})")
    for arg in argv:
        if re.match(r"(instances|docs)/", arg):
            assert (ROOT / arg).exists(), f"{doc}: {arg} is not in the repository"
