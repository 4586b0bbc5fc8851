"""A plain Python backtracker for edge matching: the worked example of an engine
(CONTRIBUTING.md) and a test oracle that shares no code with the compiled engines."""
