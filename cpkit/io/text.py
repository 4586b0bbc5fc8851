"""Reading a puzzle file as text, with one clear message for each way that can fail."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from ..errors import InputError

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def whole_number(token: str) -> int | None:
    """``token`` as an int if it is written as a whole number in ASCII digits (``-12``,
    ``007``), else None.  Python's ``int`` also takes ``1_000``, ``+5`` and other scripts'
    digits (``\uff15``), and ``str.isdigit`` even superscripts that ``int`` then refuses; no
    puzzle format has any of them."""
    return int(token) if _WHOLE_NUMBER.fullmatch(token) else None


def read_text(path: str | Path) -> str:
    """The whole file as UTF-8 text, without the byte-order mark some Windows editors write
    first; ``InputError`` naming the file if it cannot be read."""
    path = str(path)
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a puzzle file", path) from None
    except UnicodeDecodeError:
        raise InputError("not a text file (invalid UTF-8)", path) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", path) from None


def check_writable(path: str | os.PathLike, what: str) -> None:
    """``InputError`` unless ``what`` (``the checkpoint``, ``the picture``) can be written at
    ``path``, found before a long run rather than after it, when its figures would be lost: the
    directory takes a file (one is made and removed) and ``path`` does not name a directory."""
    raw = os.fspath(path)
    target = Path(raw)
    if raw.endswith(("/", os.sep)) or target.is_dir():
        raise InputError(f"is a directory, not a file for {what}", raw)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent if str(target.parent) else ".")
    except OSError as exc:
        raise InputError(f"cannot write {what}: {exc.strerror}", raw) from None
    os.close(fd)
    os.unlink(tmp)
