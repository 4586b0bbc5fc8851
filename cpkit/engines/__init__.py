"""The search engines: one folder per engine, one record per engine in ``registry``.

Layout (docs/architecture.md, "Engines"): ``<family>/<engine>/`` holds an engine's kernel
(``*_kernel.py``, numba), its search (``*_search.py``: the resumable search and the ``solve``
function that returns a ``cpkit.result.Result``) and, where it is split into subtrees, its
splitter (``*_split.py``); each family's front (``tiling/tiling_front.py``,
``edge_matching/em_front.py``: counting semantics and the options every engine of the family
takes) sits beside its engines; ``runtime/`` holds what every engine runs on (the slice loop,
the JIT warm-up, bit intrinsics).  ``registry`` lists the engines; ``dispatch`` runs one on a
model (``solve``) and checks its options.  Importing this package imports no engine: engines are
imported by dotted path when they run (OR-Tools only when CP-SAT runs, no numba kernel for
``cpkit --version``).
"""
