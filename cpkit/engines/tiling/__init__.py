"""The tiling engines (``dlx`` lives in ``exact_cover/dlx``, ``fila``, ``hybrid``, ``auto``) and
what they share: the family's front (``tiling_front``: counting up to symmetry, filters,
option checks) and the ordering heuristics (``tiling_heuristics``)."""
