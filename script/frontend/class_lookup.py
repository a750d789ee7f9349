"""How CPython finds a name on a user's class (`find_member`) and the names its slots allow (`slot_names`).

A leaf, so that the lowerings that look a member up (class_methods, class_unions, records,
class_members) need not import one another for it (that closed an import cycle:
tests/test_import_graph.py).
"""

from __future__ import annotations

import abc

from script.frontend.mangling import mangle


def find_member(cls: type, name: str):
    """`name` as CPython finds it on the class `cls` (its MRO, without `object`), as stored
    (a function, property, staticmethod, ...); None when missing or set to None."""
    for c in cls.__mro__:
        if c is object:
            return None
        if name in vars(c):
            return vars(c)[name]
    return None


def slot_names(cls: type) -> list[str] | None:
    """The attribute names the `__slots__` of `cls` and its bases allow, bases first, as
    CPython stores them (`__slots__ = ("__x",)` of class C: `_C__x`); None where an instance
    has a `__dict__` (a class without `__slots__` on the way, or `"__dict__"` in one)."""
    names: list[str] = []
    for c in reversed(cls.__mro__[:-1]):
        if c is abc.ABC:
            continue
        slots = vars(c).get("__slots__")
        if slots is None:
            return None
        slots = (slots,) if isinstance(slots, str) else tuple(slots)
        if "__dict__" in slots:
            return None
        names += [mangle(n, c.__name__) for n in slots]
    return names
