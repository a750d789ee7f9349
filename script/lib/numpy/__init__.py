"""NumPy written in the compiled subset (script/lib)."""
