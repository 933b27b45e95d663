"""Formats shared by every package: scenario, result line and catalog models, the clock and the
text matcher. This package imports nothing else of the project, so dependencies point one way:
formats <- simphone, mcpmock, scoring <- harness <- cli."""
