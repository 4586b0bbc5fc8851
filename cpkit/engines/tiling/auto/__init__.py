"""``--engine auto`` for tilings: the hybrid, on the puzzle turned and configured as estimates
of candidate searches suggest (``tiling_autoconfig``, priced by ``tiling_cost_model``)."""
