"""`PyRef`: what a name in compiled code resolves to when it is a Python object rather than a
value (a module, a function, a class), found while lowering (`lower_stmt.lookup`).

A leaf, so the lowerings that test for one need not import the lowering driver (importing
`lower_stmt` closed import cycles: tests/test_import_graph.py).
"""

from __future__ import annotations


class PyRef:
    """A name that resolves to a Python object rather than a value (a module, a function)."""

    __slots__ = ("obj", "name")

    def __init__(self, obj, name: str):
        self.obj = obj
        self.name = name
