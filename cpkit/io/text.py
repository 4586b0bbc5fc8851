"""Reading a puzzle file as text, with one clear message for each way that can fail."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError


def read_text(path: str | Path) -> str:
    """The whole file as UTF-8 text; ``InputError`` naming the file if it cannot be read."""
    path = str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError("no such file", path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a puzzle file", path) from None
    except UnicodeDecodeError:
        raise InputError("not a text file (invalid UTF-8)", path) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror}", path) from None
