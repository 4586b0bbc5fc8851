"""Numba kernels that keep state and infer, with no search loop of their own.

``sparse_set`` (O(1) insert, remove and restore), ``colorpair`` (Benoist & Bourreau's
Offer/Demand propagator), ``explain`` (explanations for conflict-directed backjumping) and
``tiling_filters`` (volume, parity and fit filters and their backtrack triggers).  The engines
under ``cpkit.engines`` call them from their search kernels.
"""
