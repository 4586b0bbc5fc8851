"""Numba kernels that keep state and infer, with no search loop of their own.

``sparse_set`` (O(1) insert, remove and restore), ``colorpair`` (Benoist & Bourreau's
Offer/Demand propagator), ``explain`` (explanations for conflict-directed backjumping),
``edge_supports`` and ``edge_filtering`` (edge filtering: AC-4 support counters per cell side
and colour, a colour mask per edge, the tile rules), ``alldifferent`` (Régin's filtering over
the cells' tiles), ``shaving`` (the singleton-test driver the edge-matching kernels share) and
``tiling_filters`` (volume, parity and fit filters and their backtrack triggers), with their
declared layouts (``*_layout``), builders (``*_build``) and sanity checkers (``*_sanity``).
The engines under ``cpkit.engines`` call them from their search kernels.
"""
