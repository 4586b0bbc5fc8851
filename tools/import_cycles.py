"""Import cycles among cpkit's modules, read from the sources (ast, nothing is imported).

    python tools/import_cycles.py            # imports at module level (those run at import)
    python tools/import_cycles.py --all      # also the imports inside functions (lazy ones)
    python tools/import_cycles.py --root DIR # another checkout's cpkit/

Prints each cycle (its modules, smallest first) and exits 1 if there is one, 0 if none.  An
import of a package counts as an import of its ``__init__``; ``from package import module``
as an import of that module.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str, modules: set[str], lazy: bool) -> set[str]:
    """The cpkit modules ``path`` (module ``name``) imports."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = ast.walk(tree) if lazy else iter(tree.body)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def graph(root: Path, lazy: bool) -> nx.DiGraph:
    paths = {module_name(p, root): p for p in sorted((root / "cpkit").rglob("*.py"))}
    g = nx.DiGraph()
    g.add_nodes_from(paths)
    for name, path in paths.items():
        g.add_edges_from((name, target) for target in imports(path, name, set(paths), lazy))
    return g


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true",
                        help="count the imports inside functions too")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose cpkit/ is read (default: this one)")
    args = parser.parse_args()
    g = graph(args.root, args.all)
    cycles = sorted((sorted(c) for c in nx.simple_cycles(g)), key=lambda c: (len(c), c))
    kind = "module-level and lazy" if args.all else "module-level"
    print(f"{g.number_of_nodes()} modules, {g.number_of_edges()} {kind} imports, "
          f"{len(cycles)} cycles")
    for cycle in cycles:
        print("  " + " <-> ".join(cycle))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main())
