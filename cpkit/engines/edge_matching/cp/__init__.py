"""The ColorPair constraint-propagation engine (Benoist & Bourreau), compiled."""
