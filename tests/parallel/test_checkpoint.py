"""Checkpoint files: round trip, atomic replacement, refusal of foreign or broken files."""

from __future__ import annotations

import json
import os

import pytest

from cpkit.errors import InputError
from cpkit.parallel.checkpoint import Checkpoint, check_writable, model_identity
from cpkit.parallel.protocol import Frontier, Part
from tests.conftest import TILING


def sample(tmp_path) -> Checkpoint:
    ident = model_identity(TILING / "somacube.txt")
    frontier = Frontier(2, [[1, 5], [1, 7], [2, 3]], Part(count=1, nodes=9, fits=[3, 6]))
    ck = Checkpoint.start(ident, {"unique": "raw", "heuristic": "s"}, frontier)
    ck.done[1] = Part(count=4, found=4, nodes=70, fits=[0, 0, 70], extra={"x": 2})
    return ck


def test_round_trip_keeps_finished_and_pending(tmp_path):
    ck = sample(tmp_path)
    path = tmp_path / "a.ck"
    ck.save(path)
    back = Checkpoint.load(path)
    assert back.paths == ck.paths and back.depth == 2
    assert back.done[1].count == 4 and back.done[1].fits == [0, 0, 70]
    assert back.pending == [0, 2]
    back.check_matches(model_identity(TILING / "somacube.txt"), {"heuristic": "s",
                                                                 "unique": "raw"}, path)


def test_only_the_deepest_parts_board_is_kept(tmp_path):
    """Every finished part has a deepest node; the file keeps the board of the deepest only
    (a run of thousands of subproblems would otherwise store thousands of boards)."""
    ck = sample(tmp_path)
    ck.done[0] = Part(count=0, deepest=5, deepest_row=[3, 1, 4, 1, 5, -1])
    ck.done[2] = Part(count=0, deepest=4, deepest_row=[2, 7, 1, 8, -1, -1])
    path = tmp_path / "a.ck"
    ck.save(path)
    back = Checkpoint.load(path)
    assert [back.done[k].deepest for k in (0, 1, 2)] == [5, 0, 4]
    assert back.done[0].deepest_row == [3, 1, 4, 1, 5, -1]
    assert back.done[2].deepest_row == [] and back.above.deepest_row == []
    total = Part()
    for part in [back.above, *back.done.values()]:
        total.add(part)
    assert (total.deepest, total.deepest_row) == (5, [3, 1, 4, 1, 5, -1])


def test_a_failed_write_leaves_the_previous_checkpoint(tmp_path, monkeypatch):
    ck = sample(tmp_path)
    path = tmp_path / "a.ck"
    ck.save(path)
    before = path.read_bytes()
    ck.done[0] = Part(count=1)

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(InputError, match="cannot write the checkpoint: disk full"):
        ck.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.ck"]      # no temporary file left


def test_a_checkpoint_that_cannot_be_written_is_found_before_the_search(tmp_path):
    check_writable(tmp_path / "a.ck")
    assert list(tmp_path.iterdir()) == []                          # the probe file is gone
    with pytest.raises(InputError, match="is a directory"):
        check_writable(tmp_path)
    with pytest.raises(InputError, match="No such file or directory"):
        check_writable(tmp_path / "missing" / "a.ck")


@pytest.mark.parametrize("text, message", [
    ("", "not valid JSON"), ("[1, 2]", "not a cpkit checkpoint"),
    ('{"format": "cpkit-checkpoint", "version": 99}', "version 99"),
    ('{"format": "cpkit-checkpoint", "version": 1, "split": {}}', "corrupt")])
def test_broken_files_are_refused(tmp_path, text, message):
    path = tmp_path / "bad.ck"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        Checkpoint.load(path)


def test_an_edited_negative_count_is_refused(tmp_path):
    path = tmp_path / "a.ck"
    sample(tmp_path).save(path)
    path.write_text(path.read_text().replace('"count":4', '"count":-5'))
    with pytest.raises(InputError, match="corrupt checkpoint \\(a negative count"):
        Checkpoint.load(path)


def test_foreign_puzzle_or_options_are_refused(tmp_path):
    ck = sample(tmp_path)
    with pytest.raises(InputError, match="another puzzle"):
        ck.check_matches(model_identity(TILING / "tetriscube.txt"), ck.options, "x")
    with pytest.raises(InputError, match="unique='raw' \\(now 'rotation'\\)"):
        ck.check_matches(ck.model, {"unique": "rotation", "heuristic": "s"}, "x")


def test_a_refusal_names_what_changed():
    ident = dict(model_identity(TILING / "somacube.txt"), mirror=False)
    ck = Checkpoint(ident, {"engine": "dlx", "heuristic": "s", "unique": "raw"}, 1, [[0]], Part())
    read_mirrored = dict(ident, mirror=True)
    with pytest.raises(InputError, match=r"read another way: mirror=False \(now True\)$"):
        ck.check_matches(read_mirrored, ck.options, "x")
    # another engine: the engine, not every option it takes
    with pytest.raises(InputError, match=r"other options: engine='dlx' \(now 'fila'\)$"):
        ck.check_matches(ck.model, {"engine": "fila", "unique": "raw", "nof": True}, "x")


def test_a_filter_applied_once_is_not_one_re_applied():
    """``volume_filter=True`` (once, before the search) and ``1`` (after every placement) are
    different searches, though ``True == 1`` in Python."""
    ck = Checkpoint(model_identity(TILING / "somacube.txt"),
                    {"engine": "dlx", "unique": "raw", "volume_filter": True}, 1, [[0]], Part())
    with pytest.raises(InputError, match=r"volume_filter=True \(now 1\)$"):
        ck.check_matches(ck.model, {"engine": "dlx", "unique": "raw", "volume_filter": 1}, "x")
    ck.check_matches(ck.model, {"engine": "dlx", "unique": "raw", "volume_filter": True}, "x")


def test_a_shaving_limit_given_as_text_is_the_number(tmp_path):
    """The API takes ``shave="2"`` as the command line does; both are ``shave=2`` (and an older
    checkpoint that recorded the text resumes with the number), while 3 is another search."""
    ident = model_identity(TILING / "somacube.txt")
    ck = Checkpoint.start(ident, {"engine": "cp", "shave": "2"}, Frontier(1, [[0]], Part()))
    assert ck.options["shave"] == 2
    ck.check_matches(ident, {"engine": "cp", "shave": 2}, "x")
    with pytest.raises(InputError, match=r"shave=2 \(now 3\)$"):
        ck.check_matches(ident, {"engine": "cp", "shave": "3"}, "x")
    older = tmp_path / "older.ck"
    ck.save(older)
    data = json.loads(older.read_text())
    data["options"]["shave"] = "ALL"
    older.write_text(json.dumps(data))
    Checkpoint.load(older).check_matches(ident, {"engine": "cp", "shave": "all"}, "x")


def test_a_printing_run_keeps_only_the_solutions_it_may_still_print(tmp_path):
    """``kept`` = 3: a solution above the split (before subproblem 0) and subproblem 0's two
    fill the three places; subproblem 2 comes after them and keeps none.  Subproblem 1 is
    pending, so what follows it cannot be known to come later than a printed one: nothing
    needed is ever dropped."""
    ident = model_identity(TILING / "somacube.txt")
    frontier = Frontier(1, [[0], [1], [2]], Part(count=1), shallow=[(0, [9, 9])])
    ck = Checkpoint.start(ident, {"unique": "raw"}, frontier, kept=3)
    ck.record(0, Part(count=2, solutions=[[1, 0], [1, 1]]))
    ck.record(2, Part(count=1, solutions=[[3, 0]]))
    path = tmp_path / "a.ck"
    ck.save(path)
    back = Checkpoint.load(path)
    assert back.kept == 3 and back.shallow == [(0, [9, 9])]
    assert back.done[0].solutions == [[1, 0], [1, 1]] and back.done[2].solutions == []
    assert back.frontier().shallow == [(0, [9, 9])]
    ck.record(1, Part(count=0))
    ck.done.pop(0)
    ck.solutions.pop(0)
    assert ck._trimmed() == {2: [[3, 0]]}


def test_solutions_of_an_unfinished_subproblem_are_refused(tmp_path):
    ck = sample(tmp_path)
    path = tmp_path / "a.ck"
    ck.save(path)
    data = json.loads(path.read_text())
    data.update(kept=2, shallow=[], solutions={"0": [[1, 2]]})
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="corrupt checkpoint"):
        Checkpoint.load(path)


def test_unfinished_subproblems_keep_their_state_until_they_finish(tmp_path):
    """An engine's state for an unfinished subproblem goes into the file (base64) and comes
    back as it was; a subproblem that finishes drops it; a part with no state keeps the one
    saved before (older, as good to go on from)."""
    ck = sample(tmp_path)
    ck.record_unfinished(0, Part(complete=False, state=b"\x00state of 0\xff"))
    ck.record_unfinished(2, Part(complete=False, state=b"of 2"))
    ck.record_unfinished(2, Part(complete=False))
    path = tmp_path / "a.ck"
    ck.save(path)
    back = Checkpoint.load(path)
    assert back.states == {0: b"\x00state of 0\xff", 2: b"of 2"} and back.pending == [0, 2]
    back.record(2, Part(count=1))
    assert back.states == {0: b"\x00state of 0\xff"}
    assert "state" not in json.loads(path.read_text())["done"]["1"]


@pytest.mark.parametrize("states, message", [({"1": "AAAA"}, "finished or out of range"),
                                             ({"7": "AAAA"}, "finished or out of range"),
                                             ({"0": "not base64!"}, "corrupt checkpoint")])
def test_a_state_that_cannot_be_resumed_is_refused(tmp_path, states, message):
    path = tmp_path / "a.ck"
    sample(tmp_path).save(path)
    data = json.loads(path.read_text())
    data["states"] = states
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=message):
        Checkpoint.load(path)


@pytest.mark.parametrize("step", [-1, 2**63 + 5])
def test_an_edited_path_out_of_range_is_refused(tmp_path, step):
    """A number past 64 bits reached a worker: "a worker failed: OverflowError"."""
    path = tmp_path / "a.ck"
    sample(tmp_path).save(path)
    data = json.loads(path.read_text())
    data["split"]["paths"][0][-1] = step
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="path holds a number out of range"):
        Checkpoint.load(path)


def test_an_option_left_out_is_its_default():
    """A checkpoint made without ``heuristic`` (the dlx engine's default is "s") resumes with
    ``heuristic="s"`` given, and the other way round; another value is still refused."""
    from cpkit.engines.dispatch import option_defaults

    defaults = option_defaults("tiling", "dlx")
    assert defaults["heuristic"] == "s" and "limit" not in defaults and "keep" not in defaults
    ck = Checkpoint(model_identity(TILING / "somacube.txt"), {"engine": "dlx", "unique": "raw"},
                    1, [[0]], Part())
    ck.check_matches(ck.model, {"engine": "dlx", "unique": "raw", "heuristic": "s"}, "x",
                     defaults)
    given = Checkpoint(ck.model, {"engine": "dlx", "unique": "raw", "heuristic": "s"}, 1, [[0]],
                       Part())
    given.check_matches(ck.model, {"engine": "dlx", "unique": "raw"}, "x", defaults)
    with pytest.raises(InputError, match=r"heuristic='s' \(now 'f'\)$"):
        ck.check_matches(ck.model, {"engine": "dlx", "unique": "raw", "heuristic": "f"}, "x",
                         defaults)
