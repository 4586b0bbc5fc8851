"""The brute-force backtracker (scan order, no propagation), compiled: the baseline."""
