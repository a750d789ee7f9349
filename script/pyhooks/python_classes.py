"""CPython's objects of results compiled code holds as plain dicts and lists (frontend
python_classes.py): a returned `Counter`, `defaultdict`, `OrderedDict` or `deque`.

The entry point boxes the dict or list, puts it in a one-field named tuple, and calls
script.pyhooks.named_instance `instance` with the key ``script.pyhooks.python_classes:NAME``;
the class found by that key (made here by `__getattr__`) has the `_make` that builds the
object: ``Counter``, ``OrderedDict``, ``deque``, or ``defaultdict~F`` for a defaultdict
whose factory is `FACTORIES[F]` (its values made that factory's class where compiled code
holds them as plain dicts or lists: `defaultdict(Counter)`, `defaultdict(deque)`).
"""

from __future__ import annotations

import collections

MODULE = __name__

FACTORIES = {"None": None, "int": int, "float": float, "str": str, "bool": bool, "complex": complex,
             "list": list, "set": set, "dict": dict, "tuple": tuple, "frozenset": frozenset,
             "Counter": collections.Counter, "OrderedDict": collections.OrderedDict,
             "deque": collections.deque, "defaultdict": collections.defaultdict}


_KINDS = ("Counter", "OrderedDict", "deque", "defaultdict", "dict_keys", "dict_values", "dict_items")


def convert(name: str, value):
    """CPython's object of class `name` for the plain dict or list `value` (a dict's view:
    the view of a new dict with those keys, values or items)."""
    if name == "dict_keys":
        return dict.fromkeys(value).keys()
    if name == "dict_values":
        return dict(enumerate(value)).values()
    if name == "dict_items":
        return dict(value).items()
    if name in ("Counter", "OrderedDict", "deque"):
        return getattr(collections, name)(value)
    if name == "defaultdict":
        return collections.defaultdict(None, value)
    factory = name.split("~", 1)[1]
    if factory in ("Counter", "OrderedDict", "deque", "defaultdict"):
        value = {k: convert(factory, v) for k, v in value.items()}
    return collections.defaultdict(FACTORIES[factory], value)


class _Result:
    """A class of this module: `_make((value,))` is the object (named_instance.instance)."""

    kind = ""

    @classmethod
    def _make(cls, values):
        return convert(cls.kind, values[0])


def __getattr__(name: str):
    base, _, factory = name.partition("~")
    if base not in _KINDS or factory and factory not in FACTORIES:
        raise AttributeError(name)
    cls = type(name, (_Result,), {"kind": name if factory != "None" else "defaultdict"})
    globals()[name] = cls
    return cls
