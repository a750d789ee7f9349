"""Example functions that ship with the package (used by `python -m script demo`)."""
