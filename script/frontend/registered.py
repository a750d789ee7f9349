"""Every module that registers lowerings in `registry.py`, imported once by the lowering
driver (`lower_stmt`) so that the tables are full before the first function is lowered.

A module registers at its own import; this list is what makes that happen whatever imports
what. A new feature module that registers is added here (tests/test_registry.py checks that
no module of the frontend registers without being listed).
"""

from script.frontend import (  # noqa: F401
    builtins_lowering, bytes_values, class_members, complex_arrays, copy_calls, dict_methods, elementwise, file_calls, fraction_calls, interpreter_calls,
    itertools_calls, lists,
    numpy_alloc, numpy_join, numpy_linalg, numpy_reduce, operator_calls, queues, random_calls, re_calls, reduce_keywords,
    seq_iterators, strmethods,
)

MODULES = (builtins_lowering, bytes_values, class_members, complex_arrays, copy_calls, dict_methods, elementwise, file_calls,
           fraction_calls,
           interpreter_calls, itertools_calls,
           lists, numpy_alloc, numpy_join, numpy_linalg, numpy_reduce, operator_calls, queues, random_calls, re_calls,
           reduce_keywords, seq_iterators, strmethods)
