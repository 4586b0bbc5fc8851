"""Checkpoint files of optimiser runs: the best board and every worker's state.

One JSON object, like the split runs' checkpoints (``cpkit.parallel.checkpoint``; the same
``format`` and ``version``, told apart by ``"kind": "maximize"``): the puzzle's identity (path,
SHA-256 of its content), the options that shape the search (objective, seed, method
configuration), the search seconds spent so far, the best board (orientation per cell, as
``tile * 4 + rotation``, -1 empty) with its score and when it was found, and each worker's
state (``Anytime.snapshot``, base64).  The file is replaced atomically by the writer of every
checkpoint (``cpkit.io.text.write_atomically``: a temporary file, fsynced, renamed over the
old one), so a
``kill -9`` at any moment leaves the previous checkpoint or the new one, and a resumed run
starts from a board at least as good as the file's.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..io.text import read_bytes, write_atomically
from ..parallel.checkpoint import FORMAT, VERSION, canonical_options, option_differences

KIND = "maximize"


@dataclass
class MaximizeCheckpoint:
    model: dict[str, Any]
    options: dict[str, Any]
    seconds: float = 0.0                  # search seconds of the runs so far
    score: int = -1
    board: list[int] | None = None
    seconds_to_best: float = 0.0
    states: list[bytes] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "kind": KIND, "model": self.model,
                "options": self.options, "seconds": round(self.seconds, 3),
                "best": {"score": self.score, "board": self.board,
                         "seconds_to_best": round(self.seconds_to_best, 3)},
                "workers": [base64.b64encode(s).decode("ascii") for s in self.states]}

    def save(self, path: str | os.PathLike) -> None:
        """Replace ``path`` atomically (``cpkit.io.text.write_atomically``, the writer of every
        checkpoint); ``InputError`` if it cannot be written (the previous file is untouched)."""
        write_atomically(path, json.dumps(self.to_json(), separators=(",", ":")),
                         "the checkpoint")

    @classmethod
    def load(cls, path: str | os.PathLike) -> "MaximizeCheckpoint":
        try:
            raw = read_bytes(path, "a checkpoint", limit=None, regular_only=True)
        except InputError as exc:
            raise InputError(f"cannot read the checkpoint: {exc.message}", str(path)) from None
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise InputError("not a cpkit checkpoint (the file is not valid JSON; was it cut "
                             "short or edited?)", str(path)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError("not a cpkit checkpoint", str(path))
        if data.get("kind") != KIND:
            raise InputError("the checkpoint comes from a search for solutions, not from "
                             "--maximize: resume it without --maximize", str(path))
        try:
            best = data["best"]
            board = best["board"]
            if board is not None:
                board = [int(v) for v in board]
            return cls(dict(data["model"]), canonical_options(dict(data["options"])),
                       float(data["seconds"]), int(best["score"]), board,
                       float(best["seconds_to_best"]),
                       [base64.b64decode(s, validate=True) for s in data["workers"]])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"corrupt checkpoint ({exc})", str(path)) from None

    def check_matches(self, model: dict[str, Any], options: dict[str, Any],
                      path: str | os.PathLike) -> None:
        """Refuse to resume a checkpoint of another puzzle or other options."""
        if self.model.get("sha256") != model.get("sha256") or \
                self.model.get("index") != model.get("index"):
            raise InputError(f"the checkpoint belongs to another puzzle "
                             f"({self.model.get('path')}), not {model.get('path')}", str(path))
        ours = canonical_options(options)
        if ours != self.options:
            raise InputError(f"the checkpoint was made with other options: "
                             f"{option_differences(self.options, ours)}", str(path))

    def best_board(self) -> np.ndarray | None:
        return None if self.board is None else np.array(self.board, dtype=np.int32)


def is_maximize_checkpoint(path: str | os.PathLike) -> bool:
    """Whether ``path`` holds an optimiser checkpoint (a quick look, for a clear message when
    one is resumed without ``--maximize``)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("kind") == KIND
