"""Dancing links (Knuth's Algorithm X with multiplicities) for exact covers and tilings."""
