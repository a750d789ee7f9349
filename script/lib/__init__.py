"""The library written in the compiled subset: Python code that the frontend compiles like a
user's function wherever compiled code calls what it implements (`python/`: builtins, str,
list, dict, set, bytes, re, itertools, heapq, statistics, cmath, text files; `numpy/`: the
NumPy functions and random generators that are loops). Its modules import nothing of the
lowering but the intrinsics they call (`frontend/library_intrinsics.py`, `frontend/mt19937.py`,
`frontend/int_consts.checks_int64`); the lowerings reach them through the registry
(docs/architecture.md, "Where a new library function goes")."""
