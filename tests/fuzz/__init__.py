"""Generated-program fuzzing of the compiler, and fuzzing of the IR parser and the loader.

- program.py, stmts.py, exprs.py, context.py, kinds.py: random well-typed programs of the
  compiled subset (production tables; new constructs are new productions);
- arrays.py: the array productions (allocation, element-wise expressions, in-place forms,
  advanced indexing, reductions, products), with NumPy's own result dtypes;
- reference.py: the CPython run, with results that depend on unbounded ints discarded;
- runner.py: one program run in CPython and compiled at opt=0 and the default level, compared;
- worker.py: crash-safe worker processes (a segfault or a hang is counted, not fatal);
- shrink.py: reduces a failing program to a small reproducer;
- mutation.py: random and mutated IR text for the parser, mutated archives for script.load;
- regressions/: reduced programs of bugs the fuzzer found, each run by tests/test_fuzz.py.

`python -m tests.fuzz --count 100000 --jobs 1` runs the long fuzzer (see __main__.py).
"""
