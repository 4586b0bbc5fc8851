"""Reading a puzzle file as text, with one clear message for each way that can fail."""

from __future__ import annotations

import re
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
