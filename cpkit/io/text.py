"""Files in and out: the one place cpkit reads an input file and writes an output file.

Reading is bounded: a puzzle file is at most ``MAX_INPUT_BYTES`` (refused by name past that,
before it is read when the file system gives its size), a device (``/dev/zero``, a terminal)
is refused at once, and a pipe (``<(...)``, ``/dev/stdin``) is read up to the limit, so no
input can make cpkit grow until the kernel kills it.  Text is UTF-8; a byte that is not
(a Latin-1 ``é``) or a NUL byte is refused at its line, except inside a comment, which may hold
anything.

Writing a file (a checkpoint, a generated puzzle) goes through ``write_atomically``: a
temporary file in the same directory, flushed and fsynced, then renamed over the target, so a
crash, a full disk or ``kill -9`` while writing leaves the previous file or the new one, never
half of one.  ``check_writable`` finds out before a long run whether its output can be written.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Callable

from ..errors import InputError

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")

#: Puzzle files larger than this are refused: the largest real ones (a dlx1 file of millions
#: of options) are a few megabytes, and parsing costs several times a file's size in memory.
MAX_INPUT_BYTES = 64 * 2**20
_CHUNK = 1 << 20


def whole_number(token: str) -> int | None:
    """``token`` as an int if it is written as a whole number in ASCII digits (``-12``,
    ``007``), else None.  Python's ``int`` also takes ``1_000``, ``+5`` and other scripts'
    digits (``\uff15``), and ``str.isdigit`` even superscripts that ``int`` then refuses; no
    puzzle format has any of them."""
    return int(token) if _WHOLE_NUMBER.fullmatch(token) else None


def hash_comment(line: bytes) -> int:
    """Where a line's comment starts (its length if none): ``#`` to the end of the line, as
    in polycube and edge-matching files, or the whole line when its first token is ``c`` (the
    comment lines of ``.puz`` files).  Only where bytes that are not text are let through
    depends on it: the parser still reads every line its own way."""
    words = line.split(None, 1)
    if words and words[0] == b"c":
        return 0
    at = line.find(b"#")
    return len(line) if at < 0 else at


def bar_comment(line: bytes) -> int:
    """Where a line's comment starts in a dlx1 file: a line whose first non-blank character
    is ``|`` is a comment."""
    return 0 if line.lstrip().startswith(b"|") else len(line)


def read_bytes(path: str | os.PathLike, what: str = "a puzzle file",
               limit: int | None = MAX_INPUT_BYTES, regular_only: bool = False) -> bytes:
    """The file's bytes, read with ``limit`` (None: no limit, for a regular file only);
    ``InputError`` naming the file if it is a directory or a device, too large, or cannot be
    read.  ``regular_only`` also refuses a pipe (a file read twice must be the same file)."""
    raw = os.fspath(path)
    if not raw:
        raise InputError(f"an empty file name: give the path of {what}")
    try:
        with open(raw, "rb") as fh:
            info = os.fstat(fh.fileno())
            kind = info.st_mode
            if stat.S_ISDIR(kind):
                raise InputError(f"is a directory, not {what}", raw)
            regular = stat.S_ISREG(kind)
            if not regular and (regular_only or limit is None or not stat.S_ISFIFO(kind)):
                noun = "a pipe" if stat.S_ISFIFO(kind) else "a device"
                raise InputError(f"is {noun}, not {what}" +
                                 (" (a regular file is needed)" if stat.S_ISFIFO(kind) else ""),
                                 raw)
            if limit is not None and regular and info.st_size > limit:
                raise InputError(f"is {_megabytes(info.st_size)}, larger than {what} can be "
                                 f"(at most {_megabytes(limit)})", raw)
            if limit is None:
                return fh.read()
            chunks, size = [], 0
            while size <= limit:
                chunk = fh.read(min(_CHUNK, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > limit:
                raise InputError(f"holds more than {_megabytes(limit)}, more than {what} can "
                                 f"be", raw)
            return b"".join(chunks)
    except FileNotFoundError:
        raise InputError("no such file", raw) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, not {what}", raw) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", raw) from None


def _megabytes(n: int) -> str:
    return f"{n / 2**20:,.0f} MB" if n >= 2**20 else f"{n:,} bytes"


def read_text(path: str | os.PathLike,
              comment: Callable[[bytes], int] = hash_comment) -> str:
    """The whole file as UTF-8 text, without the byte-order mark some Windows editors write
    first; ``InputError`` naming the file (and the line) if it cannot be read as a puzzle
    file.  ``comment`` says where a line's comment starts: bytes that are not UTF-8 are
    accepted there (shown as U+FFFD), and so is a NUL byte."""
    data = read_bytes(path)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _decode_by_line(data, os.fspath(path), comment)
    if "\0" in text:           # refused at its line, or dropped from a comment
        return _decode_by_line(data, os.fspath(path), comment)
    return text


def _decode_by_line(data: bytes, path: str, comment: Callable[[bytes], int]) -> str:
    """``data`` decoded line by line, what is wrong outside a comment reported at its line."""
    lines = data.split(b"\n")
    out = []
    for number, line in enumerate(lines, start=1):
        start = comment(line)
        body = line[:start]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = body[exc.start]
            raise InputError(f"not UTF-8 text: byte 0x{bad:02x} in column "
                             f"{len(body[:exc.start].decode()) + 1} (save the file as UTF-8; "
                             f"comments may hold anything)", path, number) from None
        if "\0" in text:
            raise InputError("holds a NUL byte (is this a binary file?)", path, number)
        out.append(text + line[start:].replace(b"\0", b"").decode("utf-8", errors="replace"))
    return "\n".join(out)


# ---------------------------------------------------------------------- writing
def check_writable(path: str | os.PathLike, what: str) -> None:
    """``InputError`` unless ``what`` (``the checkpoint``, ``the picture``) can be written at
    ``path``, found before a long run rather than after it, when its figures would be lost: a
    name is given, it does not name a directory or a device (renaming over ``/dev/null`` would
    replace it), and its directory takes a file (one is made and removed)."""
    raw = os.fspath(path)
    if not raw:
        raise InputError(f"an empty file name: give a file for {what}")
    target = Path(raw)
    if raw.endswith(("/", os.sep)) or target.is_dir():
        raise InputError(f"is a directory, not a file for {what}", raw)
    if target.exists() and not target.is_file():
        raise InputError(f"is not a regular file: not a place for {what}", raw)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent if str(target.parent) else ".")
    except OSError as exc:
        raise InputError(f"cannot write {what}: {exc.strerror}", raw) from None
    os.close(fd)
    os.unlink(tmp)


def write_atomically(path: str | os.PathLike, text: str, what: str) -> None:
    """Replace ``path`` with ``text`` atomically (see the module docstring); ``InputError``
    naming ``what`` if it cannot be written (the previous file is then untouched).  A symbolic
    link is followed, so the file it points to is replaced and the link kept; a device or a
    pipe (``/dev/stdout``) is written to, never replaced."""
    raw = os.fspath(path)
    if not raw:
        raise InputError(f"an empty file name: give a file for {what}")
    given = Path(raw)
    if given.is_dir():
        raise InputError(f"is a directory, not a file for {what}", raw)
    if given.exists() and not given.is_file():
        try:
            with open(raw, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            raise InputError(f"cannot write {what}: {exc.strerror or exc}", raw) from None
        return
    target = Path(os.path.realpath(raw))
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        try:
            os.fchmod(fd, _mode_of(target))
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
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
    except OSError as exc:
        raise InputError(f"cannot write {what}: {exc.strerror or exc}", raw) from None
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def _mode_of(target: Path) -> int:
    """The permissions the file replacing ``target`` gets: those of the file it replaces, or
    what ``open`` would give a new file (``mkstemp`` makes it private)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
