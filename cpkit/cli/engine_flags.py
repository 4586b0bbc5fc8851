"""The engine flags of a solving command, built from the engines' records: ``--engine`` with
each engine's one-line description, and every option each engine declares in its options
dataclass (``cpkit.engines.options``), with its default and help text.  A flag given to an
engine that does not take it is refused by name ("--shave applies to the cp and edges engines,
not backtrack"), with exit status 2."""

from __future__ import annotations

import argparse
from typing import Any

from ..engines.options import Flag, engines_phrase, family_flags
from ..engines.registry import family_records
from ..errors import InputError


def add_engine_arguments(p: argparse.ArgumentParser, family: str,
                         first: tuple[str, ...] = ("auto",), extra: tuple[str, ...] = (),
                         placed: tuple[str, ...] = ()) -> None:
    """``--engine`` (default auto) and the flags of every engine of ``family``.  ``first``: the
    engines described first in the help; ``extra``: names the command also takes (``auto``
    for exact covers, which means dlx); ``placed``: the titles of the help sections the command
    lays out itself, whose engine flags it adds with ``add_engine_group`` where they belong
    among its own (``cpkit tile`` lists the triggers after its image filters)."""
    records = sorted(family_records(family),
                     key=lambda r: (r.name not in first, first.index(r.name)
                                    if r.name in first else 0))
    described = "; ".join(f"{r.name}{' (default)' if r.name == 'auto' else ''}: "
                          f"{r.description}" for r in records)
    names = sorted({r.name for r in records} | set(extra))
    p.add_argument("--engine", default="auto", choices=names, help=f"search engine: {described}")
    flags = family_flags({r.name: r.options_class() for r in records})
    groups: dict[str, Any] = {}
    for flag in flags:
        if flag.group in placed:
            continue
        where = p if flag.group is None else groups.get(flag.group) or \
            groups.setdefault(flag.group, p.add_argument_group(flag.group))
        _add_flag(where, flag)
    p.set_defaults(engine_flags=flags)


def add_engine_group(p: argparse.ArgumentParser, group: Any) -> None:
    """The engine flags of ``p`` listed under ``group``'s title (one of the sections that
    ``add_engine_arguments`` was told the command places), added to ``group`` now."""
    for flag in p.get_default("engine_flags"):
        if flag.group == group.title:
            _add_flag(group, flag)


def _add_flag(where: Any, flag: Flag) -> None:
    kwargs: dict[str, Any] = {"dest": flag.dest, "default": None, "help": flag.help}
    if flag.kind == "switch":
        kwargs["action"] = "store_true"
    elif flag.kind == "negatable":
        kwargs["action"] = argparse.BooleanOptionalAction
    else:
        # Read by ``engine_options`` (after the check that the engine takes the flag), so
        # that a bad value is one ``InputError`` line like every other bad input.
        kwargs.update(choices=flag.choices, metavar=flag.metavar)
    where.add_argument(flag.flag, **kwargs)


def given_flags(args) -> list[Flag]:
    """The engine flags given on the command line."""
    return [flag for flag in args.engine_flags if getattr(args, flag.dest) is not None]


def engine_options(args, engine: str | None = None) -> dict[str, Any]:
    """The options of ``engine`` (default: ``args.engine``) given on the command line, as its
    solve function takes them; ``InputError`` for a flag that engine does not take."""
    engine = args.engine if engine is None else engine
    check_flags(given_flags(args), engine)
    return {flag.fields[engine]: _read(flag, flag.value(engine, getattr(args, flag.dest)))
            for flag in given_flags(args)}


def _read(flag: Flag, given: Any) -> Any:
    """A value flag's text as its option's ``parse`` reads it (``InputError`` if it cannot)."""
    if flag.kind != "value" or flag.parse is None:
        return given
    try:
        return flag.parse(given)
    except InputError:
        raise
    except argparse.ArgumentTypeError as refused:
        raise InputError(f"{flag.flag}: {refused}") from None
    except (TypeError, ValueError):
        raise InputError(f"{flag.flag}: cannot read {given!r} ({flag.metavar or 'a value'} "
                         f"expected)") from None


def check_flags(given: list[Flag], engine: str) -> None:
    """``InputError`` naming the given flags that ``engine`` does not take (those of the first
    set of engines that takes any, as one message)."""
    refused = [flag for flag in given if engine not in flag.fields]
    if not refused:
        return
    takers = sorted(refused[0].fields)
    same = [flag.flag for flag in refused if sorted(flag.fields) == takers]
    verb = "applies" if len(same) == 1 else "apply"
    why = f": {refused[0].why}" if refused[0].why else ""
    raise InputError(f"{', '.join(same)} {verb} to {engines_phrase(takers)}, not {engine}{why}")
