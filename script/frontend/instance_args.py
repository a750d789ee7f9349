"""The type of an instance of a user's class passed from Python: the class's record type
(`types.ClassType`), from the objects themselves.

    class Node:                               root = Node(1); root.left = Node(2)
        def __init__(self, v):                height(root)     # compiled, root from Python
            self.v = v; self.left = None; self.right = None

Every instance the argument reaches through its fields (and theirs) is looked at once; the
instances of one class must have the same fields in the same order (the order `__init__`
assigned them: `vars(obj)`, or `__slots__`), and each field's values meet at one type as a
variable's do (`types.merge`: None and a Node make an optional Node, an int and a float an
int|float). A field holding another instance is that class's record (a `ClassRef` where the
classes reach each other, folded by `ClassType`). Anything else (a field an argument could
not hold, fields that differ between instances, a class compiled code does not take) is
refused (`NotAnArgument`, whose text the dispatcher's TypeError gives). A field may
hold a list of instances of one class (a tree node's `children`, `[]` in the leaves: an
empty list meets any list type), copied in through the call's memo as list arguments are,
so the caller's list and instances are written back. A field may hold a dict or set
(runtime.table_reflect `unbox_field`: one table per Python object through the memo, written
back into it), a dict of instances of one class (a trie's children; `{}` meets any dict
type, and a field that is `{}` everywhere is tried as `empty_dict_types` in turn), or an
array (the caller's buffer); not a table or array nested in another container, and not a
table that is also an argument (`check_tables_apart`).

The entry point copies the objects in (runtime.boxing `record_unbox_helper`) and writes
every field back after the call (`record_reflect_helper`), so that the caller sees what
compiled code changed, as with lists.
"""

from __future__ import annotations

import weakref

from script.frontend import union_values
from script.frontend.class_lookup import slot_names
from script.ir import types as T
from script.pyhooks.named_instance import CLASSES, is_argument_class, lookup_class, stand_in_key


class NotAnArgument(Exception):
    """Why an instance cannot be an argument (the dispatcher's TypeError says it)."""


def holding_type_of(value, typeof, guess: bool = True, held: dict | None = None, empty: int = 0) -> T.Type | None:
    """The type of a list or tuple argument of instances of one user's class (`[p, q]`,
    `(station_a, station_b)`), their class typed over all of them; None for other values."""
    if type(value) not in (list, tuple) or not value:
        return None
    cls = type(value[0])
    if not is_argument_class(cls):
        return None
    if any(type(v) is not cls for v in value):
        raise NotAnArgument(f"a {type(value).__name__} holding instances of {cls.__name__} and other values")
    t = instance_type_of(list(value), typeof, guess, held, empty)
    return T.ListType(t) if type(value) is list else T.TupleType([t] * len(value))


def instance_type_of(obj, typeof, guess: bool = True, held: dict | None = None, empty: int = 0) -> T.ClassType:
    """The record type of `obj` (an instance of a user's class); NotAnArgument otherwise.
    `typeof` types the other values (typeinfer.typeof, passed in: it calls this). With
    `guess`, a field that holds None in every instance is taken to hold None or an instance
    of its own class (the `next` of a one-node list, a leaf's `left`), which compiled code
    may then store; the dispatcher tries None alone where that does not compile. `held`,
    where given, takes the id of each dict and set a field holds (to the field's name:
    `check_tables_apart`). A field holding `{}` in every instance (and not annotated) is
    typed as the `empty`-th of `empty_dict_types` (the dispatcher tries them in turn, as
    for an empty dict argument)."""
    tables: dict[str, list] = {}         # key -> [class, field names, field types]
    roots = obj if type(obj) is list else [obj]         # (several: holding_type_of's)
    todo, seen = list(roots), set()
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        cls = type(o)
        key = _key(cls)
        names = _fields(o)
        entry = tables.get(key)
        if entry is None:
            entry = tables[key] = [cls, names, [None] * len(names)]
        elif entry[1] != names:
            raise NotAnArgument(f"instances of {cls.__name__} with different fields ({', '.join(entry[1])} "
                                f"and {', '.join(names)})")
        for k, name in enumerate(names):
            value = getattr(o, name)
            if is_argument_class(type(value)):
                todo.append(value)
                t = T.ClassRef(_key(type(value)))
            elif _is_instance_list(value):        # (a node's children, a graph node's neighbours)
                todo.extend(value)
                t = T.ListType(T.ClassRef(_key(type(value[0]))))
            elif type(value) is list and not value:
                t = _EMPTY          # (a leaf's children: the type the others' lists have)
            elif _is_instance_dict(value):          # (a trie node's children by letter)
                todo.extend(value.values())
                keys = typeof(list(value))
                if keys is None or not T.is_key_type(keys.elem):
                    raise NotAnArgument(f"field '{name}' of {cls.__name__} holds a dict whose keys compiled "
                                        f"code does not take from Python")
                t = T.DictType(keys.elem, T.ClassRef(_key(type(next(iter(value.values()))))))
                if held is not None:
                    held[id(value)] = f"field '{name}' of {cls.__name__}"
            else:
                t = typeof(value)
                if type(value) in (dict, set) and not value:     # (`self.cost = {}`: its annotation, if any)
                    t = _annotated_empty(cls, name, type(value)) or (_EMPTY_DICT if type(value) is dict else t)
                if held is not None and type(value) in (dict, set):
                    held[id(value)] = f"field '{name}' of {cls.__name__}"
                if isinstance(t, T.ArrayType) and not value.flags.writeable:
                    raise NotAnArgument(f"field '{name}' of {cls.__name__} holds a read-only array, which "
                                        f"compiled code would not refuse to write: pass a writeable copy")
                if t is not _EMPTY_DICT and (t is None or _holds_instances(value) or _not_copied(t)):
                    raise NotAnArgument(f"field '{name}' of {cls.__name__} holds a {type(value).__name__} "
                                        f"compiled code does not take from Python ({_why_not(value, t)})")
            entry[2][k] = t if entry[2][k] is None else _meet_empty(entry[2][k], t, cls, name)
    from script.frontend.class_types import FIELD_TYPES, table_floor
    for key, entry in tables.items():
        known = FIELD_TYPES.get(key, {})        # (`{}` in every instance: what compiled code stored)
        guesses = empty_dict_types(key)
        entry[2] = [T.ListType(T.I64) if t is _EMPTY else t if t is not _EMPTY_DICT else
                    known[name] if isinstance(known.get(name), T.DictType) else guesses[min(empty, len(guesses) - 1)]
                    for name, t in zip(entry[1], entry[2])]     # (typeof([]), typeof({}))
        if guess:
            entry[2] = [T.OptionalType(T.ClassRef(key)) if isinstance(t, T.NoneType) else t for t in entry[2]]
        entry[2] = [table_floor(key, name, t) for name, t in zip(entry[1], entry[2])]
    defs = {key: (names, T.TupleType(types)) for key, (_, names, types) in tables.items()}
    key = _key(type(roots[0]))
    group = [(k, f, e) for k, (f, e) in defs.items() if k != key]
    return T.ClassType(key, defs[key][0], defs[key][1], group)


_CHECKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # class -> its key


def _key(cls) -> str:
    """The key of a class compiled code takes (checked once a process: check_class reads
    the class's source for its messages)."""
    key = _CHECKED.get(cls)
    if key is not None:
        return key
    key = stand_in_key(cls)
    if key is not None:         # (fractions.Fraction: its slots are the stand-in's fields)
        lookup_class(key)
        _CHECKED[cls] = key
        return key
    from script.frontend.records import check_class, class_key
    from script.errors import CompileError
    try:
        check_class(cls)
    except CompileError as e:
        raise NotAnArgument(str(e).splitlines()[0]) from None
    key = _CHECKED[cls] = class_key(cls)
    CLASSES.setdefault(key, cls)
    return key


def _fields(o) -> tuple:
    """The names of the attributes `o` holds: its `__dict__`'s, or the slots of its class and
    bases that are set (`__slots__ = ("__x",)` of class C holds `_C__x`)."""
    d = getattr(o, "__dict__", None)
    if isinstance(d, dict):
        return tuple(d)
    return tuple(n for n in slot_names(type(o)) or () if hasattr(o, n))


def _annotated_empty(cls, name: str, kind: type) -> T.Type | None:
    """The type the class body's annotation of field `name` (``cost: dict[tuple[int, int],
    int]``, a dataclass field's) gives an empty dict or set (`kind`), else None (it is
    typed as an empty argument is: dict[int, int], set[int])."""
    if not any(name in (vars(k).get("__annotations__") or {}) for k in getattr(cls, "__mro__", ())):
        return None
    import typing
    from script.frontend.typeinfer import type_from_annotation     # (typeinfer imports this module)
    try:
        t = type_from_annotation(typing.get_type_hints(cls)[name])     # (strings evaluated too)
    except Exception:  # noqa: BLE001 - an annotation compiled code does not read: no hint
        return None
    return t if isinstance(t, T.DictType if kind is dict else T.SetType) else None


def check_tables_apart(tables: dict, values, types) -> None:
    """NotAnArgument where a dict or set in a field of an instance argument (`tables`, from
    `instance_type_of`) is also an argument, or inside one (`f(g, g.adj)`): the argument is
    copied apart from the field's table (runtime.table_reflect), so a write through one
    would not be seen through the other."""
    for value, t in zip(values, types):
        if _holds_table(t):
            where = _table_in(value, tables)
            if where is not None:
                raise NotAnArgument(f"the {type(where[0]).__name__} in {where[1]} is also passed as an argument "
                                    f"(or in one, or is a module-level global the function writes): compiled code would hold two copies of it and a write "
                                    f"through one would not be seen through the other; pass a copy")


def _holds_table(t: T.Type) -> bool:
    if isinstance(t, T.HashType):
        return True
    if isinstance(t, T.ClassType):
        return False            # (its fields' tables are the memo's: one table for one object)
    if isinstance(t, T.ListType):
        return _holds_table(t.elem)
    return isinstance(t, T.TupleType) and any(_holds_table(e) for e in t.elems)


def _table_in(value, tables: dict):
    """(the table, its field) of `tables` that `value` is or holds, else None."""
    if type(value) in (dict, set):
        if id(value) in tables:
            return value, tables[id(value)]
        if type(value) is set:
            return None
        value = list(value.values())
    if type(value) in (list, tuple):
        for v in value:
            hit = _table_in(v, tables)
            if hit is not None:
                return hit
    return None


def _not_copied(t: T.Type, top: bool = True) -> bool:
    """Whether a field of type `t` holds what the record's copy does not write back: a dict
    or set inside a list, tuple or another table (the field itself may hold a dict or set,
    copied in through the call's memo and written back into the caller's object, and an
    array, the caller's buffer itself: runtime.boxing `record_unbox_helper`), or an array
    anywhere else."""
    if isinstance(t, T.HashType):
        return not top or isinstance(t, T.DictType) and _not_copied(t.value, False)
    if isinstance(t, T.ArrayType):
        return not top
    if isinstance(t, T.ListType):
        return _not_copied(t.elem, False)
    return isinstance(t, T.TupleType) and any(_not_copied(e, False) for e in t.elems)


def _is_instance_list(value) -> bool:
    """Whether `value` is a list of instances of one user's class (not empty: `[]` is typed
    as other empty lists are), which a field holds as a list of that class's records."""
    return type(value) is list and bool(value) and is_argument_class(type(value[0])) and all(
        type(v) is type(value[0]) for v in value)


def empty_dict_types(key: str) -> list:
    """The types a field of class `key` holding `{}` is tried as, in turn: ints to ints,
    then a trie's or a graph node's children (of its own class), then an empty dict
    argument's other types (typeinfer `empty_argument_types`). Each is exact where it
    compiles: the dict is empty, and compiled code stores into it only values of its type."""
    from script.frontend.typeinfer import empty_argument_types       # (typeinfer imports this module)
    own = T.ClassRef(key)
    return [T.DictType(T.I64, T.I64), T.DictType(T.STR, own), T.DictType(T.I64, own),
            *empty_argument_types({}, T.DictType(T.I64, T.I64))]


def _is_instance_dict(value) -> bool:
    """Whether `value` is a dict (not empty) whose values are instances of one user's class,
    which a field holds as a dict of that class's records."""
    if type(value) is not dict or not value:
        return False
    first = type(next(iter(value.values())))
    return is_argument_class(first) and all(type(v) is first for v in value.values())


def _why_not(value, t: T.Type | None) -> str:
    """Why a field's `value` (of type `t`, None where no type holds it) is refused."""
    if _holds_instances(value):
        return ("instances are taken in a field itself, or in a flat list of instances of one class, "
                "not inside other containers")
    if t is not None and _not_copied(t):
        return ("a dict, set or array inside a list, tuple or dict: compiled code would hold a copy "
                "it could not write back into the caller's object; a field itself may hold one")
    return "its items are of kinds no one compiled type holds as they are"


def _holds_instances(value) -> bool:
    """Whether a container value holds instances (a list of nodes: not taken yet)."""
    if isinstance(value, (list, tuple, set)):
        return any(is_argument_class(type(v)) or _holds_instances(v) for v in value)
    if isinstance(value, dict):
        return any(is_argument_class(type(v)) or _holds_instances(v) for v in value.values())
    return False


def _scalar_union(a: T.Type, b: T.Type) -> T.Type | None:
    """The union of `a` and `b` (union_values.meet) where a field from Python may be one:
    of bools, ints, floats and strs, and None (`types.is_scalar_union`); else None."""
    u = union_values.meet(a, b)
    return u if u is not None and T.is_scalar_union(u) else None


_EMPTY = object()       # the type of a field holding `[]`, until another instance's says more


_EMPTY_DICT = object()       # the type of a field holding `{}`, likewise


def _meet_empty(a, b, cls, name: str):
    """`_meet`, where `_EMPTY` meets any list type as that type (an empty list matches any
    list type at the entry point: runtime.list_boxing `emit_match`), and `_EMPTY_DICT` any
    dict type (a trie's leaves: table_boxing `check_table` matches `{}` with any)."""
    if a is _EMPTY_DICT or b is _EMPTY_DICT:
        other = b if a is _EMPTY_DICT else a
        if other is _EMPTY_DICT or isinstance(other, T.DictType):
            return other
        a, b = (T.DictType(T.I64, T.I64) if x is _EMPTY_DICT else x for x in (a, b))
        return _meet_empty(a, b, cls, name)
    if a is _EMPTY and (b is _EMPTY or isinstance(b, T.ListType)):
        return b
    if b is _EMPTY and isinstance(a, T.ListType):
        return a
    return _meet(T.ListType(T.I64) if a is _EMPTY else a, T.ListType(T.I64) if b is _EMPTY else b, cls, name)


def _meet(a: T.Type, b: T.Type, cls, name: str) -> T.Type:
    """The type of a field holding values of types `a` and `b` in different instances."""
    if a == b:
        return a
    if isinstance(a, T.UnionType) or isinstance(b, T.UnionType):
        u = _scalar_union(a, b)             # (None too: one alternative an optional)
        if u is not None:
            return u
        raise NotAnArgument(f"field '{name}' of {cls.__name__} holds values of types {a} and {b}")
    if isinstance(a, T.NoneType) or isinstance(b, T.NoneType):
        other = b if isinstance(a, T.NoneType) else a
        if isinstance(other, T.IntFloatType):       # (one alternative an optional, as a union's)
            return union_values.meet(other, T.NONE)
        return other if isinstance(other, T.OptionalType) else T.OptionalType(other)
    if isinstance(a, T.OptionalType) and a.value == b:
        return a
    if isinstance(b, T.OptionalType) and b.value == a:
        return b
    merged = T.merge(a, b)
    if merged is None or isinstance(merged, T.OptionalType) and isinstance(merged.value, T.IntFloatType):
        u = _scalar_union(a, b)             # an int in one instance, a str (or None) in another
        if u is not None:
            return u
    if isinstance(a, (T.ClassRef, T.OptionalType)) or isinstance(b, (T.ClassRef, T.OptionalType)):
        raise NotAnArgument(f"field '{name}' of {cls.__name__} holds values of types {a} and {b}")
    if merged is None or isinstance(merged, T.ListType) and a != b or T.BOOL in (a, b):
        # (a bool and a number: CPython keeps True apart from 1, and the record would not)
        raise NotAnArgument(f"field '{name}' of {cls.__name__} holds values of types {a} and {b}")
    return merged
