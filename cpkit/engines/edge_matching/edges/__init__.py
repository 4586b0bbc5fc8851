"""Edge filtering compiled: a colour domain per edge, arc consistency, optionally Régin's
AllDifferent; smallest-domain branching."""
