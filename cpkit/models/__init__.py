"""The model layer: puzzles as validated Python objects and the flat arrays the engines take.

Pure Python and numpy, no numba: ``geometry`` and ``symmetry`` (cells, orientations, the
region's symmetry group), ``tiling`` (pieces, region, images), ``exact_cover`` and ``arrays``
(the generic cover and its dancing-links memory), ``edge_matching`` (tiles, colours, pairs),
``board`` and ``score`` (boards and their matched edges), ``cpsat`` (every family as a CP-SAT
model), ``reorient`` (a puzzle turned or mirrored), and the bundled shapes and generators
(``polyforms``, ``catalog``, ``em_generator``).
"""
