"""Python's builtins and standard library written in the compiled subset (script/lib)."""
