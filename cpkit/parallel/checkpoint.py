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

Files are replaced atomically: written to a temporary file in the same directory, flushed and
fsynced, then renamed over the old one (and the directory fsynced), so a crash or ``kill -9``
while writing leaves either the previous checkpoint or the new one, never a torn file.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any

from ..errors import InputError
from ..io import text
from ..search.edge_matching import shave_setting
from .protocol import Frontier, Part, Path

FORMAT = "cpkit-checkpoint"
VERSION = 1


def model_identity(path: str | os.PathLike, index: int = 0) -> dict[str, Any]:
    """How a checkpoint names its puzzle: absolute path, content hash, index in the file."""
    data = FsPath(path).read_bytes()
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
    starts rather than at its first checkpoint."""
    text.check_writable(path, "the checkpoint")


@dataclass
class Checkpoint:
    model: dict[str, Any]
    options: dict[str, Any]
    depth: int
    paths: list[Path]
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
        return cls(model, canonical_options(options), frontier.depth, frontier.paths,
                   frontier.above, kept=kept,
                   shallow=[(k, list(s)) for k, s in frontier.shallow] if kept else [])

    @property
    def pending(self) -> list[int]:
        return [k for k in range(len(self.paths)) if k not in self.done]

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
        for k in range(len(self.paths)):
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
               "split": {"depth": self.depth, "paths": self.paths},
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
        be written."""
        try:
            self._save(path)
        except OSError as exc:
            raise InputError(f"cannot write the checkpoint: {exc.strerror or exc}",
                             str(path)) from None

    def _save(self, path: str | os.PathLike) -> None:
        target = FsPath(path)
        directory = target.parent if str(target.parent) else FsPath(".")
        text = json.dumps(self.to_json(), separators=(",", ":"))
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        try:
            dfd = os.open(directory, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Checkpoint":
        try:
            data = json.loads(FsPath(path).read_text())
        except OSError as exc:
            raise InputError(f"cannot read the checkpoint: {exc.strerror or exc}", str(path))
        except (ValueError, UnicodeDecodeError):
            raise InputError("not a cpkit checkpoint (the file is not valid JSON; was it cut "
                             "short or edited?)", str(path)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError("not a cpkit checkpoint", str(path))
        if data.get("version") != VERSION:
            raise InputError(f"checkpoint format version {data.get('version')} is not "
                             f"supported (this cpkit reads version {VERSION})", str(path))
        try:
            split = data["split"]
            paths = [[int(v) for v in p] for p in split["paths"]]
            if any(not 0 <= v < 2**31 for p in paths for v in p):
                raise ValueError("a subproblem path holds a number out of range")
            done = {int(k): Part.from_json(v) for k, v in data["done"].items()}
            if any(not 0 <= k < len(paths) for k in done):
                raise ValueError("a finished subproblem index is out of range")
            kept = int(data.get("kept", 0))
            shallow = [(int(k), [int(v) for v in s]) for k, s in data.get("shallow", [])]
            solutions = {int(k): [[int(v) for v in s] for s in sols]
                         for k, sols in data.get("solutions", {}).items()}
            if kept < 0:
                raise ValueError("a negative number of solutions kept")
            if any(k not in done for k in solutions):
                raise ValueError("solutions of a subproblem that is not finished")
            for k, sols in solutions.items():
                done[k].solutions = list(sols)
            states = {int(k): base64.b64decode(v, validate=True)
                      for k, v in data.get("states", {}).items()}
            if any(k in done or not 0 <= k < len(paths) for k in states):
                raise ValueError("the state of a subproblem that is finished or out of range")
            reason = data.get("engine_reason")
            if reason is not None and not isinstance(reason, str):
                raise ValueError("engine_reason is not text")
            return cls(dict(data["model"]), canonical_options(dict(data["options"])),
                       int(split["depth"]), paths, Part.from_json(data["above"]), done,
                       float(data.get("seconds", 0.0)), kept, shallow, solutions, states,
                       reason)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"corrupt checkpoint ({exc})", str(path)) from None

    def check_matches(self, model: dict[str, Any], options: dict[str, Any],
                      path: str | os.PathLike, defaults: dict[str, Any] | None = None) -> None:
        """Refuse to resume a checkpoint of another puzzle or other options; ``defaults`` stand
        in for options left out on either side (``cpkit.search.option_defaults``: checkpoints
        made before they were recorded, or a default given by name)."""
        mine = self.model
        if mine.get("sha256") != model.get("sha256"):
            raise InputError(f"the checkpoint belongs to another puzzle ({mine.get('path')}, "
                             f"sha256 {str(mine.get('sha256'))[:12]}...), not "
                             f"{model.get('path')}", str(path))
        if any(not _same(mine.get(k), model.get(k))
               for k in set(mine) | set(model) if k != "path"):
            raise InputError(f"the checkpoint was made from this file read another way: "
                             f"{_differences(mine, model, skip='path')}", str(path))
        fill = canonical_options(defaults or {})
        theirs = {**fill, **self.options}
        ours = {**fill, **canonical_options(options)}
        if not _same(theirs.get("engine"), ours.get("engine")):
            theirs, ours = {"engine": theirs.get("engine")}, {"engine": ours.get("engine")}
        if not _same(theirs, ours):
            raise InputError(f"the checkpoint was made with other options: "
                             f"{_differences(theirs, ours)}", str(path))


def _differences(before: dict[str, Any], now: dict[str, Any], skip: str = "") -> str:
    """``key=old (now new)`` for every key whose value differs."""
    keys = sorted(k for k in set(before) | set(now)
                  if k != skip and not _same(before.get(k), now.get(k)))
    return ", ".join(f"{k}={before.get(k)!r} (now {now.get(k)!r})" for k in keys)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` (a filter applied once) is not ``1`` (re-applied while a
    piece remains), as Python's ``==`` would have it."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
