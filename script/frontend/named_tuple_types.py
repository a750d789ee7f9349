"""The IR type of a named tuple class (``typing.NamedTuple``, ``collections.namedtuple``):
what annotations and Python values of one give (typeinfer.py) and what its construction
makes (named_tuples.py).

Apart from the lowering of named tuples, so the typing of annotations does not import the
lowering (tests/test_import_graph.py).
"""

from __future__ import annotations

from script.ir import types as T
from script.pyhooks.named_instance import CLASSES as _CLASSES


def class_key(cls: type) -> str | None:
    """``module:qualname`` of a module-level class, registered for script.pyhooks.named_instance; None for a
    class defined inside a function (boxing could not find it again)."""
    if "<locals>" in cls.__qualname__:
        return None
    key = f"{cls.__module__}:{cls.__qualname__}"
    _CLASSES[key] = cls
    return key


def named_type_of(cls: type, elems) -> T.NamedTupleType | None:
    key = class_key(cls)
    return None if key is None else T.NamedTupleType(key, cls._fields, elems)


def annotated_type(cls: type, type_from_annotation) -> T.NamedTupleType | None:
    """The type of a parameter annotated with named tuple class `cls`: its field
    annotations (a ``typing.NamedTuple``'s); None when a field has none we read."""
    anns = getattr(cls, "__annotations__", {})
    elems = [type_from_annotation(anns[f]) if f in anns else None for f in cls._fields]
    return None if None in elems else named_type_of(cls, elems)
