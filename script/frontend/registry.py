"""One registry for the frontend's library calls, methods and operators.

Three tables, each filled at import by the module that lowers the entry (it imports this
module and registers; this module imports nothing from the lowering modules, so it closes
no import cycle) and read by the dispatch sites:

- ``CALLS``: the Python object called (``np.sum``, ``len``, ``heapq.heappush``) -> its
  lowering ``handler(low, node, name) -> Value``, `name` being the object's ``__name__``.
  Register with ``@lowers(np.sum)`` or ``CALLS.register(obj, handler)``.
- ``METHODS[(kind, name)]``: a method of a receiver whose IR type is of family `kind`
  (``"array"``, ``"list"``, ``"dict"``, ``"set"``, ``"str"``, ``"int"``, ...: `method_kind`)
  -> ``handler(low, receiver, node) -> Value``. The key ``(kind, ANY)`` is the lowering of
  every method of that kind without an entry of its own (the kind's if-chain, which also
  reports the names it does not know).
- ``BINOPS[(kind, op)]``: a binary operator (an ``ast`` operator class) of which an operand
  is of family `kind` -> ``handler(low, op, a, b, node) -> Value``; ``(kind, ANY)`` as above.

Registering a key a second time raises `DuplicateLowering` at import: each key has one
owner (the module of its handler, or the one named by ``owner=``), whatever the import
order. `owners()` lists them (tests/test_registry.py walks it).

Keys of `CALLS`:

- A Python object is found by identity (the table is keyed by ``id``, the entry keeping the
  object alive so the id stays its own): any object can be looked up, hashable or not, and
  no ``__eq__`` of a user's object is ever called.
- An object made anew at each access (``itertools.chain.from_iterable``, a classmethod of a
  C type) is registered with ``equal=True`` and found by ``==`` among hashable objects.
- A function of a module the frontend does not import (``random``, ``numpy.random``:
  importing them costs every compile) is registered as ``Lazy("numpy.random", "rand")`` and
  becomes an identity key when a lookup finds the module in ``sys.modules`` (user code
  that calls it has imported it). As before, only an attribute whose ``__name__`` is its own
  name is taken (an alias of another function is not that function's entry).
- What is a family rather than a list of objects (NumPy's ufunc methods such as
  ``np.add.at``, the functions of ``math`` and ``cmath``, NumPy's scalar types as
  conversions, objects of the frontend that lower their own calls through
  ``__script_call__``) is a `CALLS.family(resolve)`: ``resolve(obj) -> (handler, name) |
  None``. Families are asked in the order registered, after the exact keys.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, NamedTuple

from script.ir import types as T

ANY = None
"""The name (or operator) of a `METHODS` / `BINOPS` key that stands for every other one of
its kind."""


class DuplicateLowering(Exception):
    """A key registered twice: a bug of the module that registers it, found at import."""


class Lazy(NamedTuple):
    """A function of a module that is only looked at once user code has imported it."""
    module: str
    attr: str


class CallEntry(NamedTuple):
    obj: Any            # the object called (kept alive: its id is the key)
    handler: Callable
    name: str           # the `name` handed to the handler
    owner: str


def _owner(handler, owner: str | None) -> str:
    return owner or getattr(handler, "__module__", None) or "?"


class CallTable:
    """`CALLS`: see the module docstring."""

    def __init__(self) -> None:
        self._by_id: dict[int, CallEntry] = {}
        self._by_equality: dict[Any, CallEntry] = {}
        self._lazy: dict[str, dict[str, tuple[Callable, str]]] = {}
        self._families: list[tuple[Callable, str]] = []

    def register(self, obj, handler: Callable, *, name: str | None = None, equal: bool = False,
                 owner: str | None = None) -> None:
        owner = _owner(handler, owner)
        if isinstance(obj, Lazy):
            table = self._lazy.setdefault(obj.module, {})
            if obj.attr in table:
                raise DuplicateLowering(f"{obj.module}.{obj.attr} is lowered by {table[obj.attr][1]} "
                                        f"and by {owner}")
            table[obj.attr] = (handler, owner)
            return
        entry = CallEntry(obj, handler, name or getattr(obj, "__name__", repr(obj)), owner)
        found = self._find(obj)
        if found is not None:
            raise DuplicateLowering(f"{entry.name} ({obj!r}) is lowered by {found.owner} and by {owner}")
        if equal:
            self._by_equality[obj] = entry
        else:
            self._by_id[id(obj)] = entry

    def family(self, resolve: Callable, owner: str | None = None) -> Callable:
        """Add `resolve(obj) -> (handler, name) | None`, asked after the exact keys; returns
        it (usable as a decorator)."""
        owner = _owner(resolve, owner)
        if any(r is resolve for r, _ in self._families):
            raise DuplicateLowering(f"the family {resolve.__name__} is registered twice")
        self._families.append((resolve, owner))
        return resolve

    def _find(self, obj) -> CallEntry | None:
        entry = self._by_id.get(id(obj))
        if entry is not None and entry.obj is obj:
            return entry
        if not self._by_equality:
            return None
        try:
            return self._by_equality.get(obj)
        except TypeError:               # an unhashable object: never one of these
            return None

    def _resolve_lazy(self) -> None:
        for module_name in [m for m in self._lazy if m in sys.modules]:
            module = sys.modules[module_name]
            for attr, (handler, owner) in self._lazy.pop(module_name).items():
                obj = getattr(module, attr, None)
                if obj is None or getattr(obj, "__name__", None) != attr:
                    continue
                found = self._find(obj)
                if found is not None:       # a registry bug: tests/test_registry.py resolves them all
                    raise DuplicateLowering(f"{module_name}.{attr} is lowered by {found.owner} and by {owner}")
                self._by_id[id(obj)] = CallEntry(obj, handler, attr, owner)

    def lookup(self, obj) -> tuple[Callable, str] | None:
        """(handler, name) of a call of `obj`, or None: exact keys, then the families."""
        if self._lazy:
            self._resolve_lazy()
        entry = self._find(obj)
        if entry is not None:
            return entry.handler, entry.name
        for resolve, _ in self._families:
            found = resolve(obj)
            if found is not None:
                return found
        return None

    def handler_of(self, obj) -> Callable:
        """The handler registered for `obj` itself (a lowering that hands a call on to the
        lowering of another function: ``np.add.reduce`` to ``np.sum``'s)."""
        entry = self._find(obj)
        if entry is None:
            raise KeyError(obj)
        return entry.handler

    def owners(self) -> dict[str, str]:
        """A readable name of every key -> its owner (lazy keys not yet resolved included)."""
        out: dict[str, str] = {}
        entries = list(self._by_id.values()) + list(self._by_equality.values())
        for e in entries:
            out[f"{getattr(e.obj, '__module__', None) or type(e.obj).__name__}.{e.name}#{id(e.obj)}"] = e.owner
        for module, table in self._lazy.items():
            out.update({f"{module}.{attr}": owner for attr, (_, owner) in table.items()})
        for resolve, owner in self._families:
            out[f"family {resolve.__module__}.{resolve.__name__}"] = owner
        return out

    def entries(self) -> list[CallEntry]:
        return list(self._by_id.values()) + list(self._by_equality.values())


class KeyedTable:
    """`METHODS` and `BINOPS`: (kind, name or operator) -> handler, one owner per key."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[tuple, tuple[Callable, str]] = {}

    def register(self, key: tuple, handler: Callable, *, owner: str | None = None) -> None:
        owner = _owner(handler, owner)
        if key in self._entries:
            raise DuplicateLowering(f"{self.what} {key!r} is lowered by {self._entries[key][1]} and by {owner}")
        self._entries[key] = (handler, owner)

    def lookup(self, kind: str | None, name) -> Callable | None:
        """The handler of (kind, name), else of (kind, ANY), else None."""
        if kind is None:
            return None
        found = self._entries.get((kind, name)) or self._entries.get((kind, ANY))
        return None if found is None else found[0]

    def __contains__(self, key: tuple) -> bool:
        return key in self._entries

    def owners(self) -> dict[tuple, str]:
        return {key: owner for key, (_, owner) in self._entries.items()}


_KINDS = ((T.StrType, "str"), (T.BytesType, "bytes"), (T.ComplexType, "complex"), (T.TupleType, "tuple"),
          (T.BoolType, "bool"), (T.FloatType, "float"))

CALLS = CallTable()
METHODS = KeyedTable("method")
BINOPS = KeyedTable("operator")


def method_kind(t) -> str | None:
    """The family of a receiver's IR type `t` that METHODS is keyed by, or None (a scalar
    kind has methods only where they are registered; None: no value, or of no family)."""
    if isinstance(t, T.ArrayType):
        return "array"
    if T.is_instance_type(t):           # (a class is a ListType, a union of classes a NamedTupleType)
        return "instance"
    if isinstance(t, T.ListType):       # deques and tuples of run-time length too
        return "list"
    if isinstance(t, T.HashType):
        return "dict" if isinstance(t, T.DictType) else "set"
    if isinstance(t, T.NamedTupleType):
        return "named_tuple"
    if isinstance(t, T.EnumType):
        return "enum"
    if isinstance(t, T.IntType):
        return "u64" if t == T.U64 else "int"
    for cls, kind in _KINDS:
        if isinstance(t, cls):
            return kind
    return None


def lowers(*objs, name: str | None = None, equal: bool = False) -> Callable:
    """Decorator: the function lowers calls of each of `objs` (CALLS)."""
    def register(handler: Callable) -> Callable:
        for obj in objs:
            CALLS.register(obj, handler, name=name, equal=equal)
        return handler
    return register


def lowers_method(kind: str, *names) -> Callable:
    """Decorator: the function lowers the methods `names` of receivers of family `kind`
    (ANY: every method of the kind without an entry of its own)."""
    def register(handler: Callable) -> Callable:
        for n in names:
            METHODS.register((kind, n), handler)
        return handler
    return register


def lowers_binop(kind: str, *ops) -> Callable:
    """Decorator: the function lowers the operators `ops` (ast classes, or ANY) when an
    operand is of family `kind`."""
    def register(handler: Callable) -> Callable:
        for op in ops:
            BINOPS.register((kind, op), handler)
        return handler
    return register


def numpy_function(name: str):
    """``numpy.<name>`` as a CALLS key: the attribute only when its ``__name__`` is `name`
    (an alias is the entry of the function it names)."""
    import numpy as np
    obj = getattr(np, name)
    if getattr(obj, "__name__", None) != name:
        raise ValueError(f"numpy.{name} is an alias of numpy.{obj.__name__}: register that")
    return obj
