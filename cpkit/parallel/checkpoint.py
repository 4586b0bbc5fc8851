"""Checkpoint files of split runs: what is finished, what is pending, and for which puzzle.

A checkpoint is one JSON object (docs/formats.md, "Checkpoint files"): the puzzle's path and the
SHA-256 of its content, the options that shape the count, the split (depth and every
subproblem's path), the figures of the frontier search, the figures of every *finished*
subproblem, and the indices of the pending ones.  Only finished subproblems count, so a run
killed at any moment and resumed redoes the ones it was working on and counts every solution
exactly once.  Engines that can continue an unfinished subproblem (edge matching) send its
state while the run goes and hand it back when the run stops (Ctrl-C, SIGTERM, the time limit);
the file keeps the latest (``states``, base64) and the resumed run goes on inside that
subproblem instead of starting it over.

A run that prints solutions (``--first``, ``--limit N``, ``--show N``) keeps some too: it
prints at most ``kept`` of them, in the sequential order, so the file holds the solutions found
above the split depth and, of each finished subproblem, those that can still be among the first
``kept`` (``_trimmed``): a resumed run prints what the uninterrupted one would have.

A run writes its checkpoint as soon as it starts, before it has planned its split (``split``
null: a run killed while planning, which can take seconds, resumes by planning again), then
when the plan is made, periodically, and when it stops.  Files are replaced atomically
(``cpkit.io.text.write_atomically``), so a crash or ``kill -9`` while writing leaves either the
previous checkpoint or the new one, never a torn file; and an existing file that is not a cpkit
checkpoint (the puzzle itself, given by mistake) is never written over (``check_writable``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ..errors import InputError
from ..io import text
from ..engines.edge_matching.em_front import shave_setting
from .protocol import Frontier, Part, Path

FORMAT = "cpkit-checkpoint"
VERSION = 1


#: How every checkpoint begins (``json.dumps`` keeps the order of ``to_json``), also when
#: pretty-printed by hand.
_HEAD = re.compile(rb'\s*\{\s*"format"\s*:\s*"cpkit-checkpoint"')
#: A key one side of ``option_differences`` lacks.
_UNSET = object()


def model_identity(path: str | os.PathLike, index: int = 0) -> dict[str, Any]:
    """How a checkpoint names its puzzle: absolute path, content hash, index in the file (a
    regular file: a pipe would give other bytes than those the puzzle was read from)."""
    data = text.read_bytes(path, regular_only=True)
    return {"path": str(FsPath(path).resolve()), "sha256": hashlib.sha256(data).hexdigest(),
            "index": index}


def canonical_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options as JSON would give them back (so a loaded checkpoint compares equal), with a
    shaving limit given as text ("2": the API takes it so, and ``cpkit match`` recorded it so
    before 2026-11-25) as the number it stands for."""
    canonical = json.loads(json.dumps(options, sort_keys=True, default=str))
    if "shave" in canonical:
        try:
            canonical["shave"] = shave_setting(canonical["shave"])
        except InputError:
            pass                    # not a limit: left as written, the comparison names it
    return canonical


def check_writable(path: str | os.PathLike) -> None:
    """``InputError`` unless a checkpoint can be written at ``path``, found before the search
    starts rather than at its first checkpoint: besides what ``text.check_writable`` asks, a
    file already there must be a cpkit checkpoint (or empty, as ``mktemp`` leaves it), so that
    a mistyped ``--checkpoint`` never replaces a puzzle or a result."""
    text.check_writable(path, "the checkpoint")
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"cannot read the file already there: {exc.strerror}",
                         os.fspath(path)) from None
    if head and not _HEAD.match(head):
        raise InputError("exists and is not a cpkit checkpoint: it is left as it is (give "
                         "the checkpoint a new file, or an earlier checkpoint to replace)",
                         os.fspath(path))


@dataclass
class Checkpoint:
    model: dict[str, Any]
    options: dict[str, Any]
    depth: int
    paths: list[Path] | None        # None: written before the split was planned
    above: Part
    done: dict[int, Part] = field(default_factory=dict)
    seconds: float = 0.0            # search time spent by the runs before this one
    kept: int = 0                   # solutions the run prints at most (0: a counting run)
    shallow: list[tuple[int, list[int]]] = field(default_factory=list)
    solutions: dict[int, list[list[int]]] = field(default_factory=dict)
    states: dict[int, bytes] = field(default_factory=dict)     # unfinished subproblems
    #: Why ``--engine auto`` chose the engine in ``options`` (None: the user named it).
    engine_reason: str | None = None

    @classmethod
    def start(cls, model: dict[str, Any], options: dict[str, Any], frontier: Frontier,
              kept: int = 0) -> "Checkpoint":
        ck = cls.unplanned(model, options, kept)
        ck.plan(frontier)
        return ck

    @classmethod
    def unplanned(cls, model: dict[str, Any], options: dict[str, Any],
                  kept: int = 0) -> "Checkpoint":
        """The checkpoint of a run that has not split its search yet: resuming it plans
        again (nothing was searched that a new plan could count twice)."""
        return cls(model, canonical_options(options), 0, None, Part(), kept=kept)

    def plan(self, frontier: Frontier) -> None:
        """The split is made: from now on the file records its subproblems."""
        self.depth, self.paths, self.above = frontier.depth, frontier.paths, frontier.above
        self.shallow = [(k, list(s)) for k, s in frontier.shallow] if self.kept else []

    @property
    def planned(self) -> bool:
        return self.paths is not None

    @property
    def pending(self) -> list[int]:
        return [k for k in range(len(self.paths or ())) if k not in self.done]

    def record(self, index: int, part: Part) -> None:
        """Subproblem ``index`` finished: keep its figures and, in a run that prints, a copy of
        its solutions (the run hands the part's own list out and empties it)."""
        self.done[index] = part
        self.states.pop(index, None)
        if self.kept:
            self.solutions[index] = list(part.solutions)

    def record_unfinished(self, index: int, part: Part) -> None:
        """Subproblem ``index`` stopped before its end: keep the state it can go on from (if
        its engine gives one; otherwise a state saved earlier, older but as good)."""
        if part.state:
            self.states[index] = part.state

    def frontier(self) -> Frontier:
        """The split this checkpoint continues, with the solutions found above it."""
        return Frontier(self.depth, self.paths, self.above, list(self.shallow))

    def check_kept(self, needed: int, path: str | os.PathLike) -> None:
        """Refuse to resume into a run that would print more solutions than this file kept."""
        if needed <= self.kept:
            return
        if self.kept == 0:
            raise InputError("the checkpoint comes from a counting run and holds no "
                             "solutions to print: resume it with --count-only", str(path))
        raise InputError(f"the checkpoint keeps the first {self.kept} solution(s); this run "
                         f"would print up to {needed}: resume with --limit or --show at most "
                         f"{self.kept} (or --count-only)", str(path))

    def _trimmed(self) -> dict[int, list[list[int]]]:
        """Each finished subproblem's solutions that can still be among the first ``kept`` of
        the sequential order: counting those known before it (pending subproblems count as
        none, so nothing needed is dropped), a subproblem past ``kept`` keeps none."""
        shallow: dict[int, int] = {}
        for k, _ in self.shallow:
            shallow[k] = shallow.get(k, 0) + 1
        out: dict[int, list[list[int]]] = {}
        before = 0
        for k in range(len(self.paths or ())):
            before += shallow.get(k, 0)
            if k in self.done:
                room = max(0, self.kept - before)
                if room and self.solutions.get(k):
                    out[k] = self.solutions[k][:room]
                before += self.done[k].count
        return out

    def to_json(self) -> dict[str, Any]:
        best = max([self.above, *self.done.values()], key=lambda p: p.deepest)
        out = {"format": FORMAT, "version": VERSION, "model": self.model,
               "options": self.options, "seconds": round(self.seconds, 3),
               "split": {"depth": self.depth, "paths": self.paths} if self.planned else None,
               "above": self.above.to_json(self.above is best),
               "done": {str(k): p.to_json(p is best) for k, p in sorted(self.done.items())},
               "pending": self.pending}
        if self.kept:
            out["kept"] = self.kept
            out["shallow"] = [[k, s] for k, s in self.shallow]
            out["solutions"] = {str(k): v for k, v in sorted(self._trimmed().items())}
        if self.engine_reason:
            out["engine_reason"] = self.engine_reason
        if self.states:
            out["states"] = {str(k): base64.b64encode(v).decode("ascii")
                             for k, v in sorted(self.states.items())}
        return out

    def save(self, path: str | os.PathLike) -> None:
        """Replace ``path`` atomically (see the module docstring); ``InputError`` if it cannot
        be written (the file there is then the previous checkpoint, untouched)."""
        text.write_atomically(path, json.dumps(self.to_json(), separators=(",", ":")),
                              "the checkpoint")

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Checkpoint":
        where = os.fspath(path)
        try:
            raw = text.read_bytes(path, "a checkpoint", limit=None, regular_only=True)
        except InputError as exc:
            raise InputError(f"cannot read the checkpoint: {exc.message}", where) from None
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise InputError("not a cpkit checkpoint (the file is not valid JSON; was it cut "
                             "short or edited?)", where) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError("not a cpkit checkpoint", where)
        if data.get("version") != VERSION:
            raise InputError(f"checkpoint format version {data.get('version')} is not "
                             f"supported (this cpkit reads version {VERSION})", where)
        try:
            return cls._from_json(data)
        except _Corrupt as exc:
            raise InputError(f"corrupt checkpoint ({exc})", where) from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> "Checkpoint":
        """The checkpoint ``to_json`` wrote; ``_Corrupt`` saying what is wrong in the file's
        own terms (a field missing or of the wrong kind, a figure out of range)."""
        split = _field(data, "split", lambda v: v)             # null: not planned yet
        if split is None:
            paths, depth = None, 0
        else:
            paths = _field(split, "paths", lambda v: [[int(x) for x in p] for p in v],
                           "split")
            depth = _field(split, "depth", int, "split")
            if any(not 0 <= v < 2**31 for p in paths for v in p):
                raise _Corrupt("a subproblem path holds a number out of range")
        n_paths = len(paths or ())
        done = _field(data, "done", lambda v: {int(k): Part.from_json(p) for k, p in v.items()})
        if any(not 0 <= k < n_paths for k in done):
            raise _Corrupt("a finished subproblem index is out of range")
        kept = _field(data, "kept", int, required=False) or 0
        shallow = _field(data, "shallow", lambda v: [(int(k), [int(x) for x in sol])
                                                     for k, sol in v], required=False) or []
        solutions = _field(data, "solutions", lambda v: {
            int(k): [[int(x) for x in sol] for sol in sols] for k, sols in v.items()},
            required=False) or {}
        if kept < 0:
            raise _Corrupt("a negative number of solutions kept")
        if any(k not in done for k in solutions):
            raise _Corrupt("solutions of a subproblem that is not finished")
        for k, sols in solutions.items():
            done[k].solutions = list(sols)
        states = _field(data, "states", lambda v: {
            int(k): base64.b64decode(b, validate=True) for k, b in v.items()},
            required=False) or {}
        if any(k in done or not 0 <= k < n_paths for k in states):
            raise _Corrupt("the state of a subproblem that is finished or out of range")
        seconds = _field(data, "seconds", float, required=False) or 0.0
        if not seconds >= 0:
            raise _Corrupt("a negative time")
        reason = _field(data, "engine_reason", _text, required=False)
        return cls(_field(data, "model", dict),
                   canonical_options(_field(data, "options", dict)), depth, paths,
                   _field(data, "above", Part.from_json), done, seconds, kept, shallow,
                   solutions, states, reason)

    def check_matches(self, model: dict[str, Any], options: dict[str, Any],
                      path: str | os.PathLike, defaults: dict[str, Any] | None = None) -> None:
        """Refuse to resume a checkpoint of another puzzle or other options; ``defaults`` stand
        in for options left out on either side (``cpkit.engines.dispatch.option_defaults``: checkpoints
        made before they were recorded, or a default given by name)."""
        mine = self.model
        if mine.get("sha256") != model.get("sha256"):
            raise InputError(f"the checkpoint belongs to another puzzle ({mine.get('path')}, "
                             f"sha256 {str(mine.get('sha256'))[:12]}...), not "
                             f"{model.get('path')}", str(path))
        if any(not _same(mine.get(k), model.get(k))
               for k in set(mine) | set(model) if k != "path"):
            raise InputError(f"the checkpoint was made from this file read another way: "
                             f"{option_differences(mine, model, skip='path')}", str(path))
        fill = canonical_options(defaults or {})
        theirs = {**fill, **self.options}
        ours = {**fill, **canonical_options(options)}
        if not _same(theirs.get("engine"), ours.get("engine")):
            theirs, ours = {"engine": theirs.get("engine")}, {"engine": ours.get("engine")}
        if not _same(theirs, ours):
            raise InputError(f"the checkpoint was made with other options: "
                             f"{option_differences(theirs, ours)}", str(path))


def option_differences(before: dict[str, Any], now: dict[str, Any], skip: str = "") -> str:
    """``key=old (now new)`` for every key whose value differs (but ``skip``); a nested
    dictionary (the optimiser's method configuration) by its fields, ``config.column_rows``,
    rather than whole twice; a key one side lacks (a checkpoint older than the option) said
    so."""
    return ", ".join(_differences(before, now, skip, ""))


def _differences(before: dict[str, Any], now: dict[str, Any], skip: str,
                 prefix: str) -> list[str]:
    out = []
    for key in sorted(k for k in set(before) | set(now) if k != skip):
        was, new = before.get(key, _UNSET), now.get(key, _UNSET)
        if was is not _UNSET and new is not _UNSET and _same(was, new):
            continue
        if isinstance(was, dict) and isinstance(new, dict):
            out += _differences(was, new, "", f"{prefix}{key}.")
        elif was is _UNSET:
            out.append(f"{prefix}{key} not recorded (now {new!r})")
        else:
            out.append(f"{prefix}{key}={was!r} (now {'not set' if new is _UNSET else repr(new)})")
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` (a filter applied once) is not ``1`` (re-applied while a
    piece remains), as Python's ``==`` would have it."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


class Recorder:
    """Where a run keeps its checkpoint: ``start`` writes it as the run starts (before the
    split is planned, or as resumed), ``save`` every time after that (the plan made,
    periodically, when the run stops).

    Only the first write may end the run (``InputError``: nothing was searched yet).  Once the
    search is under way a failed write (a full disk) must not throw away what was found:
    ``save`` keeps the message in ``error`` and the run goes on (the file still holds the
    last checkpoint written, or the one before: writes are atomic); a later write that
    succeeds clears it.  The run's result says whether its last write failed
    (``checkpoint_error``; ``cpkit`` prints it as a warning and exits with status 3)."""

    def __init__(self, path: str | os.PathLike, checkpoint: Checkpoint):
        self.path, self.checkpoint = path, checkpoint
        self.error: str | None = None

    def start(self) -> None:
        self.checkpoint.save(self.path)

    def save(self) -> None:
        try:
            self.checkpoint.save(self.path)
        except InputError as exc:
            self.error = str(exc)
        else:
            self.error = None


class _Corrupt(ValueError):
    """What is wrong with a checkpoint's content, in the file's terms."""


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not text")
    return value


def _field(data: Any, key: str, read, within: str = "", required: bool = True) -> Any:
    """``read(data[key])``, or ``_Corrupt`` naming the field when it is missing (and
    ``required``) or not what a checkpoint holds there.  Python's own messages (``'split'``,
    ``invalid literal for int()``) told a user nothing."""
    name = f"{within}.{key}" if within else key
    if not isinstance(data, dict):
        raise _Corrupt(f"'{within}' is not a JSON object")
    if key not in data:
        if required:
            raise _Corrupt(f"the field '{name}' is missing")
        return None
    try:
        return read(data[key])
    except _Corrupt:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
        if type(exc) is ValueError and _OWN.match(str(exc)):
            raise _Corrupt(str(exc)) from None
        shown = json.dumps(data[key])
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise _Corrupt(f"the field '{name}' holds {shown}, not what a checkpoint writes "
                       f"there") from None


#: A ``ValueError`` message of cpkit's own (``Part.from_json``), shown as it is.
_OWN = re.compile(r"a negative ")
