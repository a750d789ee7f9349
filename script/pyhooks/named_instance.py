"""Instances of named tuple classes made from compiled results (docs/records.md).

The entry point of a function returning a named tuple (runtime.boxing) boxes the tuple and
calls `instance` with the class's ``module:qualname`` key; the class is found again by that
key, so a saved module loaded in another process returns the same class (it imports the
module that defines it). Kept apart from the frontend: it is on the call path, and the compile cache's key (which a
cache hit computes) asks its `is_named_tuple_class` and `is_record_class`.
"""

from __future__ import annotations

import abc
import sys

CLASSES: dict[str, type] = {}        # "module:qualname" -> the class
# Library classes compiled code holds as records of a class written in the subset, which stands
# in for them (frontend fraction_calls.py): the stand-in's key -> the library class's, whose
# objects are what crosses the boundary (their fields are the stand-in's, by name).
STAND_INS = {"script.lib.python.fractionlib:Fraction": "fractions:Fraction"}
_STOOD_FOR = {v: k for k, v in STAND_INS.items()}


def lookup_class(key: str) -> type:
    cls = CLASSES.get(key)
    if cls is None:
        import importlib
        module, qualname = key.split(":", 1)
        cls = importlib.import_module(module)
        for part in qualname.split("."):
            cls = getattr(cls, part)
        CLASSES[key] = cls
    return cls


def instance(key: str, values: tuple):
    """The instance of named tuple class `key` holding `values`."""
    return lookup_class(key)._make(values)


def new_record(key: str):
    """A new instance of user class `key` for a record compiled code returns, before its
    fields (`fill_record`): the class's ``__new__``, not ``__init__``, which ran compiled."""
    cls = lookup_class(STAND_INS.get(key, key))
    return cls.__new__(cls)


def fill_record(obj, names: str, values: tuple) -> None:
    """Give `obj` the fields `names` (comma-separated, in the order ``__init__`` first
    assigned them) with `values`, as ``object.__setattr__`` does (a frozen dataclass's
    ``__init__`` too): a class's own ``__setattr__`` ran in compiled code already."""
    for name, value in zip(names.split(","), values):
        object.__setattr__(obj, name, value)


def reflect_record(obj, names: str, values: tuple) -> None:
    """After a call, give instance `obj` (an argument's, or reached from one) the fields
    compiled code left in its record (`fill_record`), keeping a field's object where it
    already holds the value (an equal int, str, bool, or float of the same sign), as CPython,
    which wrote nothing there, does."""
    for name, value in zip(names.split(","), values):
        old = getattr(obj, name, _MISSING)
        if old is value or type(old) is type(value) and type(value) in _KEPT and old == value \
                and (type(value) is not float or str(old) == str(value)):
            continue
        object.__setattr__(obj, name, value)


_MISSING = object()
_KEPT = (int, float, str, bool)
_LIBRARY_MODULES = ("numpy", "script")


def stand_in_key(cls) -> str | None:
    """The key of the class compiled code holds instances of library class `cls` as, or None."""
    return _STOOD_FOR.get(f"{getattr(cls, '__module__', '')}:{getattr(cls, '__qualname__', '')}")


def is_argument_class(cls) -> bool:
    """Whether instances of `cls` from Python are records in compiled code (frontend
    instance_args.py): a user's class, or a library class with a stand-in."""
    return is_record_class(cls) or stand_in_key(cls) is not None


def is_named_tuple_class(obj) -> bool:
    """A ``typing.NamedTuple`` or ``collections.namedtuple`` class (frontend named_tuples.py)."""
    return (isinstance(obj, type) and issubclass(obj, tuple) and obj is not tuple
            and isinstance(getattr(obj, "_fields", None), tuple) and hasattr(obj, "_make"))


def is_record_class(obj) -> bool:
    """Whether `obj` is a user class compiled code instantiates as a record (frontend
    records.py; its `check_class` comes when it is used, so a wrong one is a CompileError,
    not a fallthrough): a plain class of a module outside the standard library and NumPy."""
    if not isinstance(obj, type) or type(obj) not in (type, abc.ABCMeta) or issubclass(obj, (BaseException, tuple)):
        return False
    top = (getattr(obj, "__module__", "") or "").split(".")[0]
    return top not in _LIBRARY_MODULES and top not in sys.stdlib_module_names


def enum_member(key: str, index: int):
    """Member `index` (definition order, no aliases) of plain enum class `key`: what an
    entry point returns for an enum value (ir.types.EnumType)."""
    return _enum_members(key)[index]


def enum_index(key: str, obj) -> int:
    """The index of member `obj` of plain enum class `key`, or -1 when `obj` is not one (an
    entry point's type check of an argument; a class that no longer imports matches nothing)."""
    try:
        members = _enum_members(key)
    except Exception:           # (the check of an argument: a mismatch, not an error)
        return -1
    for k, m in enumerate(members):
        if m is obj:
            return k
    return -1


_ENUM_MEMBERS: dict[str, tuple] = {}


def _enum_members(key: str) -> tuple:
    members = _ENUM_MEMBERS.get(key)
    if members is None:
        members = _ENUM_MEMBERS[key] = tuple(lookup_class(key))
    return members


def enum_key(cls) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"
