"""Engine options declared once: a dataclass per engine whose fields carry their defaults and
help text, from which ``cpkit.cli`` builds each engine's flags and their checks.

A field is declared with ``option(default, help, ...)``.  Its command-line flag is
``--name-with-dashes``, or ``--no-name`` for a switch that is on by default; ``flag=...``
names another (``--no-tile-rules`` for ``tiles``), ``flag=None`` keeps the option out of the
command line (the API still takes it).  Several engines may declare the same flag (``--shave``
for ``cp`` and ``edges``): the command line shows it once and gives it to whichever engine
runs.  This module imports nothing heavy: the CLI reads the options of every engine of a
family to build its parser.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

_SENTINEL = "--"


def option(default: Any, help: str, *, flag: str | None = _SENTINEL,
           choices: tuple[str, ...] | None = None, parse: Callable[[str], Any] | None = None,
           metavar: str | None = None, group: str | None = None,
           negatable: bool = False, why: str | None = None) -> Any:
    """A field of an engine's options dataclass.  ``parse``: turns the flag's text into the
    value (and raises ``InputError`` or ``argparse.ArgumentTypeError`` on bad text);
    ``group``: the title of the help section the flag is listed in; ``negatable``: a switch
    given as ``--x`` or ``--no-x`` whose default (None) lets the engine decide; ``why``: why
    only the engines that declare the option take it, said when another engine is given it."""
    return field(default=default, metadata={
        "help": help, "flag": flag, "choices": choices, "parse": parse, "metavar": metavar,
        "group": group, "negatable": negatable, "why": why})


@dataclass(frozen=True)
class NoOptions:
    """The options of an engine that has none of its own (only the family's front's)."""


@dataclass(frozen=True)
class Flag:
    """One command-line flag of a family: the engines that take it, and as which field."""

    flag: str
    help: str
    fields: dict[str, str]                  # engine name -> field name
    defaults: dict[str, Any]                # engine name -> the field's default
    kind: str                               # "switch" (given: not the default), "negatable", "value"
    choices: tuple[str, ...] | None
    parse: Callable[[str], Any] | None
    metavar: str | None
    group: str | None
    why: str | None = None

    @property
    def dest(self) -> str:
        return "engine_" + self.flag.lstrip("-").replace("-", "_")

    def value(self, engine: str, given: Any) -> Any:
        """The option's value for ``engine`` from what argparse read."""
        if self.kind == "switch":
            return not self.defaults[engine]
        return given


def flag_of(f: dataclasses.Field) -> str | None:
    flag = f.metadata.get("flag", _SENTINEL)
    if flag != _SENTINEL:
        return flag
    name = f.name.replace("_", "-")
    return f"--no-{name}" if f.default is True else f"--{name}"


def family_flags(options: dict[str, type]) -> list[Flag]:
    """The flags of a family whose engines take ``options`` (engine name -> options
    dataclass), in declaration order; a flag declared by several engines is one ``Flag``
    (with the help, choices and parser of the first that declares it)."""
    flags: dict[str, Flag] = {}
    for engine, cls in options.items():
        for f in dataclasses.fields(cls):
            flag = flag_of(f)
            if flag is None:
                continue
            meta = f.metadata
            if flag not in flags:
                kind = "negatable" if meta.get("negatable") else \
                    "switch" if isinstance(f.default, bool) else "value"
                flags[flag] = Flag(flag, meta.get("help", ""), {}, {}, kind,
                                   meta.get("choices"), meta.get("parse"), meta.get("metavar"),
                                   meta.get("group"), meta.get("why"))
            flags[flag].fields[engine] = f.name
            flags[flag].defaults[engine] = f.default
    return list(flags.values())


def whole_number_at_least(text: str, low: int) -> int:
    """A flag's text as a whole number ``>= low``; ``argparse.ArgumentTypeError`` otherwise
    (the command line's value parsers, engine options' ``parse`` included)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
    return value


def positive_int(text: str) -> int:
    return whole_number_at_least(text, 1)


def defaults(cls: type) -> dict[str, Any]:
    """Every option of an options dataclass at its default."""
    return {f.name: f.default for f in dataclasses.fields(cls)}


def engines_phrase(engines: list[str]) -> str:
    """``the cp engine``, ``the cp and edges engines``, ``the auto, dlx, fila and hybrid
    engines``."""
    names = sorted(engines)
    if len(names) == 1:
        return f"the {names[0]} engine"
    return f"the {', '.join(names[:-1])} and {names[-1]} engines"
