"""The engine registry: every record loads, its options dataclass agrees with what its solve
function takes, and the command line built from the records stays light and consistent."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys

import pytest

from cpkit.engines.dispatch import _front, option_defaults
from cpkit.engines.options import family_flags, flag_of
from cpkit.engines.registry import AUTO, RECORDS, SPLITTERS, record

KEYS = [(r.family, r.name) for r in RECORDS]


@pytest.mark.parametrize("family,name", KEYS)
def test_a_record_loads_and_its_options_are_the_engines_keywords(family, name):
    rec = record(family, name)
    fn = rec.solve_function()
    cls = rec.options_class()
    assert dataclasses.is_dataclass(cls) and rec.description
    if rec.split is not None:
        assert callable(rec.splitter())
    front, _, supplied = _front(family, name)
    params = {}
    for taker in filter(None, (front, fn)):
        for p in inspect.signature(taker).parameters.values():
            if p.kind is p.KEYWORD_ONLY:
                params.setdefault(p.name, p.default)
    defaults = option_defaults(family, name)
    for f in dataclasses.fields(cls):
        assert f.name in params and f.name not in supplied, f"{name} takes no {f.name}"
        assert f.metadata.get("help"), f"{name}.{f.name} has no help text"
        # The dataclass's default is the one the engine applies when the option is left out.
        assert defaults[f.name] == f.default, (name, f.name)


@pytest.mark.parametrize("family", sorted(AUTO))
def test_a_flag_shared_by_engines_means_one_thing(family):
    records = [r for r in RECORDS if r.family == family]
    declared = {}
    for r in records:
        for f in dataclasses.fields(r.options_class()):
            flag = flag_of(f)
            if flag is None:
                continue
            seen = declared.setdefault(flag, (f.name, f.metadata["help"]))
            assert seen == (f.name, f.metadata["help"]), flag
    assert {fl.flag for fl in family_flags({r.name: r.options_class() for r in records})} \
        == set(declared)


def test_splitters_are_a_view_of_the_records():
    from cpkit.parallel import SPLITTERS as ALL

    assert {k: v for k, v in ALL.items() if k in dict.fromkeys(KEYS)} == SPLITTERS
    assert set(SPLITTERS) <= set(KEYS)


def test_the_cp_heuristics_are_the_kernels():
    from cpkit.engines.edge_matching.cp import em_cp_kernel as K
    from cpkit.engines.edge_matching.cp.em_cp_options import AUTO_ORDER, HEURISTICS

    assert HEURISTICS == (AUTO_ORDER, *K.HEURISTICS)


@pytest.mark.parametrize("command", ["match", "cover", "tile", "--version"])
def test_the_command_line_imports_no_engine_to_build_its_parsers(command):
    """A command's parser (its engines' flags, from their records) imports no engine module,
    not OR-Tools and not numba (the tiling parser reads the counting modes of the tiling
    front, whose filters' kernels are in a module of their own)."""
    code = (f"import sys, cpkit.cli as c; c.build_parser([{command!r}]); "
            "print(sorted(m for m in sys.modules if m.startswith('ortools') or "
            "m.endswith(('_kernel', '_search', '_split'))), 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["[]", "False"]
