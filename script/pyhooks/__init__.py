"""Modules that generated code imports by name (``PyImport_ImportModule`` in the runtime
library and the entry points: backend runtime.py_errors, runtime.strings, runtime.entry,
runtime.boxing): `caught_text` (str, repr and class of a caught exception, user exceptions),
`keyerror` (a KeyError's key from its message), `named_instance` (instances of the user's
classes and named tuples returned to Python), `python_classes` (a returned Counter,
defaultdict, OrderedDict or deque, made through `named_instance`) and `codecs_text`
(`str.encode` and `bytes.decode` by CPython's codecs). One package, so that the names in generated
code and the modules they name are found in one place. This file stays empty: importing a
hook imports the package first, and generated code may do it while it runs.
"""
