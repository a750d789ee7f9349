"""Instances of named tuple classes made from compiled results (docs/records.md).

The entry point of a function returning a named tuple (runtime.boxing) boxes the tuple and
calls `instance` with the class's ``module:qualname`` key; the class is found again by that
key, so a saved module loaded in another process returns the same class (it imports the
module that defines it). Kept apart from the frontend: it is on the call path.
"""

from __future__ import annotations

import importlib

CLASSES: dict[str, type] = {}        # "module:qualname" -> the class


def lookup_class(key: str) -> type:
    cls = CLASSES.get(key)
    if cls is None:
        module, qualname = key.split(":", 1)
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        CLASSES[key] = cls
    return cls


def instance(key: str, values: tuple):
    """The instance of named tuple class `key` holding `values`."""
    return lookup_class(key)._make(values)
