"""The shape of the code, checked: every package says its job, no module imports back into a
module that imports it, and no module is over 600 lines."""

from __future__ import annotations

import ast
import importlib.util

import networkx as nx

from tests.conftest import ROOT

PACKAGE = ROOT / "cpkit"
MAX_LINES = 600


def import_graph():
    """Module -> module it imports, lazy imports included: ``tools/import_cycles.py``'s graph
    (the script a developer runs to list the cycles)."""
    spec = importlib.util.spec_from_file_location("import_cycles",
                                                  ROOT / "tools" / "import_cycles.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script.graph(ROOT, lazy=True)


def test_every_package_has_a_docstring_that_says_its_job():
    bare = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("__init__.py")
            if not ast.get_docstring(ast.parse(p.read_text()))]
    assert bare == []


def test_no_module_imports_back_into_one_that_imports_it():
    graph = import_graph()
    assert graph.number_of_edges() > 100            # the walk found the imports
    assert list(nx.simple_cycles(graph)) == []


def test_no_module_is_over_600_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines())
             for p in PACKAGE.rglob("*.py")}
    too_long = {f: n for f, n in sizes.items() if n > MAX_LINES}
    assert too_long == {}
