"""OR-Tools CP-SAT on the models of every family (``cpkit.models.cpsat``): the independent
cross-check.  One folder for the three families: one module, imported only when CP-SAT runs."""
