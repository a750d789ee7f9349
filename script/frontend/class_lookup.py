"""How CPython finds a name on a user's class (`find_member`).

A leaf, so that the lowerings that look a member up (class_methods, class_unions, records,
class_members) need not import one another for it (that closed an import cycle:
tests/test_import_graph.py).
"""

from __future__ import annotations


def find_member(cls: type, name: str):
    """`name` as CPython finds it on the class `cls` (its MRO, without `object`), as stored
    (a function, property, staticmethod, ...); None when missing or set to None."""
    for c in cls.__mro__:
        if c is object:
            return None
        if name in vars(c):
            return vars(c)[name]
    return None
