"""Knuth's dlx1 input format for exact cover problems.

The first non-comment line names the items: primary items, then optionally ``|`` and the
secondary items.  Every following non-comment line is one option: the names of its items.  Lines
whose first non-blank character is ``|`` are comments, as are blank lines.  Item names are any
run of non-blank characters other than ``|`` (Knuth limits them to 8 characters; we do not).
Knuth's colour suffixes (``item:colour``, dlx2) and multiplicities (``u:v|item``, dlx3) are not
part of dlx1 and are rejected with a message saying so.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..errors import InputError
from .text import bar_comment, read_text
from ..models.exact_cover import ExactCover


def read_dlx(path: str | Path) -> ExactCover:
    return parse_dlx(read_text(path, comment=bar_comment).splitlines(), str(path))


def parse_dlx(lines: list[str], path: str = "<input>") -> ExactCover:
    header = None
    rows: list[list[int]] = []
    labels: list[str] = []
    index: dict[str, int] = {}
    primary: list[str] = []
    secondary: list[str] = []
    for lineno, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("|"):
            continue
        tokens = text.split()
        if header is None:
            header = lineno
            if tokens.count("|") > 1:
                raise InputError("the item line may contain '|' only once", path, lineno)
            split = tokens.index("|") if "|" in tokens else len(tokens)
            primary, secondary = tokens[:split], tokens[split + 1:]
            if not primary:
                raise InputError("no primary items on the item line", path, lineno)
            for name in primary + secondary:
                _check_name(name, path, lineno)
                if name in index:
                    raise InputError(f"item {name!r} is declared twice", path, lineno)
                index[name] = len(index)
            continue
        row = []
        for name in tokens:
            if name not in index:
                hint = " (colours are dlx2, not dlx1)" if ":" in name else ""
                raise InputError(f"unknown item {name!r}{hint}", path, lineno)
            row.append(index[name])
        if len(set(row)) != len(row):
            raise InputError("an item appears twice in this option", path, lineno)
        if not any(i < len(primary) for i in row):
            raise InputError("an option must contain at least one primary item", path, lineno)
        rows.append(row)
        labels.append(" ".join(tokens))
    if header is None:
        raise InputError("no item line: the file is empty or only comments", path)
    return ExactCover.from_rows(primary, secondary, rows, labels=labels, name=Path(path).stem)


def _check_name(name: str, path: str, lineno: int) -> None:
    if ":" in name or "|" in name:
        raise InputError(f"item name {name!r} uses ':' or '|' (dlx2/dlx3 syntax, not dlx1)",
                         path, lineno)


def write_dlx(cover: ExactCover, out: TextIO, comment: str = "") -> None:
    """Write ``cover`` in dlx1 format (multiplicities above one cannot be expressed and are
    refused)."""
    if any(int(n) != 1 for n in cover.need):
        raise InputError("dlx1 cannot express items needed more than once")
    names = cover.primary + cover.secondary
    for name in names:
        # Such a name came back as other items, or not at all ("a b" was read as a and b).
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name) or \
                "|" in name or ":" in name:
            raise InputError(f"dlx1 cannot write the item name {name!r} (a name is a nonempty "
                             f"string without spaces, '|' or ':')")
    if comment:
        for line in comment.splitlines():
            out.write(f"| {line}\n")
    out.write(" ".join(cover.primary))
    if cover.secondary:
        out.write(" | " + " ".join(cover.secondary))
    out.write("\n")
    for k in range(cover.n_options):
        out.write(" ".join(names[i] for i in cover.option(k)) + "\n")
