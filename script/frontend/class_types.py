"""Fields that may be None, and classes whose fields hold their own instances (docs/records.md).

    class Node:
        def __init__(self, left, right):
            self.left = left; self.right = right

    def make_tree(d):
        return Node(None, None) if d == 0 else Node(make_tree(d - 1), make_tree(d - 1))

A field that is None in one construction and an instance in another (or stored later:
``self.root = None`` in ``__init__``, ``self.root = Node(k)`` in a method) is an optional
field, ``opt[...]``; a field holding instances of its own class (or of a class that holds
it) makes the class recursive (`types.ClassType`, those instances folded to ``rec[...]``).
Such fields cannot be typed by one construction (``Node(None, None)`` says nothing of what
``left`` holds elsewhere), so they are typed per class, not per construction:
`FIELD_TYPES` holds, for each class, the type of each such *tabled* field, folded (its own
instances as `types.ClassRef`). Every
construction converts its values to the table's types (None to ``opt[Node]``), every store
too. A construction or store that needs a wider type widens the table and raises
`FieldsWidened`; the outermost `specialize` (specialize.py) builds again from the start, so
every function sees the one type of the class. The table only widens (None, then an
optional), so this ends after a round or two; the specializations built with an older type
of the class are dropped (`USERS`).

Only these fields are tabled: a field that is None, an optional, or holds an instance of its
own class, or of one that holds it (in a list, a dict...), and a field annotated `float`
(or `int`) that holds a Python number: its annotation is a hint, so ``Point(0, 0)`` holds
ints, and an int in one construction and a float in another (``Point(1.5, 2)``, or a float
stored later) make it an int|float, ``num``, as CPython keeps them apart. The others keep
their per-construction types, so a ``Stack()`` of strs and one of floats still differ.
"""

from __future__ import annotations

import inspect
import types
import typing

from script.frontend.callee_hints import pending_parts
from script.frontend.list_args import changes_python_type
from script.frontend.optional import NONE_NAME, is_optional
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value
from script.pyhooks.named_instance import lookup_class
from script.frontend import optional, union_values

FIELD_TYPES: dict[str, dict[str, T.Type]] = {}      # class key -> {field: folded type}
LATE: dict[str, set] = {}                           # class key -> fields __init__ assigns after a call
_OWNERS: dict[str, type] = {}                       # class key -> the class its table is of
USERS: dict[str, set] = {}                          # class key -> {(info, skey)} built with its table
MADE: dict[str, set] = {}                           # class key -> the types its constructions gave
MAX_WIDENINGS = 16
_NUMBERS = (T.I64, T.F64, T.INT_FLOAT)     # Python's numbers: an int in one construction and a
#                                            float in another make an int|float field


class FieldsWidened(Exception):
    """The table of class `key` widened: the outermost specialization builds again."""

    def __init__(self, key: str):
        super().__init__(f"the fields of {key} widened")
        self.key = key


def _needs_table(t: T.Type, key: str) -> bool:
    """Whether a field of class `key` with values of type `t` is typed per class."""
    if isinstance(t, (T.NoneType, T.OptionalType)):
        return True
    return any(isinstance(x, T.ClassType) and _mentions(x, key) for x in T.instances(t))


def number_hint(cls: type, field: str, t: T.Type) -> bool:
    """Whether `field` of class `cls` is annotated `int` or `float` (a dataclass field, or
    the class body's ``x: float``) and given a Python number of type `t`: a hint, so the
    field holds the number as it is, typed per class (ints and floats: ``num``)."""
    if t not in _NUMBERS:
        return False
    ann = {}
    for klass in reversed(getattr(cls, "__mro__", ())[:-1]):
        ann.update(vars(klass).get("__annotations__") or {})
    return ann.get(field) in (int, float, "int", "float")


def _mentions(x: T.ClassType, key: str) -> bool:
    """Whether instances of type `x` hold instances of class `key`, at any depth."""
    if x.key == key or key in x.group_keys:
        return True
    return any(isinstance(y, T.ClassType) and _mentions(y, key)
               for e in (x.folded, *(g[2] for g in x.group)) for y in T.instances(e))


def _fold(t: T.Type, key: str) -> T.Type:
    """`t` with the instances of class `key` in it as `rec`, also inside the fields of the
    classes that hold them (A's field holds a B whose field holds an A: that B's type refers
    to the A being made): one type per tabled class."""
    def leaf(x):
        if isinstance(x, T.ClassRef) or not _mentions(x, key):
            return x
        if x.key == key:
            return T.ClassRef(key)
        return T.ClassType(x.key, x.fields, _fold(x.folded, key),
                           [(k, f, _fold(e, key)) for k, f, e in x.group if k != key])
    return T.map_fields(t, leaf)


def _widen(old: T.Type, new: T.Type) -> T.Type | None:
    """The table type of a field that held `old` and is given `new` (both folded): None with
    an instance is an optional; of two specializations of one other class, the later one
    (the table is built again with it); an int and a float an int|float."""
    if old == new:
        return old
    if isinstance(old, T.ClassType) and isinstance(new, T.ClassType) and old.key == new.key:
        return new
    if isinstance(old, T.UnionType) or isinstance(new, T.UnionType):
        return _field_union(old, new)
    if isinstance(old, (T.OptionalType, T.NoneType)) or isinstance(new, (T.OptionalType, T.NoneType)):
        a = old.value if isinstance(old, T.OptionalType) else None if isinstance(old, T.NoneType) else old
        b = new.value if isinstance(new, T.OptionalType) else None if isinstance(new, T.NoneType) else new
        if a is None or b is None:
            v = a if b is None else b
            return T.NONE if v is None else T.OptionalType(v) if T.is_optional_value(v) else None
        v = _widen(a, b)
        if isinstance(v, (T.UnionType, T.IntFloatType)):
            return _field_union(v, T.NONE)      # one alternative an optional (union_values.meet)
        return None if v is None or not T.is_optional_value(v) else T.OptionalType(v)
    if T.merge(old, new) == T.INT_FLOAT:
        return T.INT_FLOAT          # ints and floats: an int|float, as CPython keeps them apart
    if T.bool_and_number(old, new):
        return None                 # a bool and a number: CPython keeps False apart from 0
    return T.unify(old, new) or _field_union(old, new)


def holds(ft: T.Type, t: T.Type) -> bool:
    """Whether a field of union type `ft` holds values of type `t` as they are."""
    return isinstance(ft, T.UnionType) and union_values.meet(ft, t) == ft


def _field_union(a: T.Type, b: T.Type) -> T.Type | None:
    """The union a field holding an `a` or a `b` gets (an int in one construction, a str
    in another: union_values.meet), or None where no field holds one."""
    u = union_values.meet(a, b)
    return u if u is not None and T.is_field_type(u) else None


def _table(key: str, cls: type) -> dict:
    """The table of class `cls` (a class defined again under the same name starts anew)."""
    if _OWNERS.get(key) is not cls:
        _OWNERS[key] = cls
        FIELD_TYPES.pop(key, None)
        MADE.pop(key, None)
    return FIELD_TYPES.get(key, {})


def _changed(key: str, table: dict) -> None:
    """`table` is class `key`'s now: drop what was built with the old one, build again. The
    other classes' tables that hold instances of `key` take its new field types too (a linked
    list's ``head: opt[Node]`` typed before ``Node.next`` became ``opt[rec Node]``: the next
    build would store that older Node into the newer one's field)."""
    FIELD_TYPES[key] = table
    for info, skey in USERS.pop(key, ()):
        info.specializations.pop(skey, None)
    for other, fields in list(FIELD_TYPES.items()):
        if other == key:
            continue
        new = {f: _refresh(t, key, table) for f, t in fields.items()}
        if new != fields:
            FIELD_TYPES[other] = new
            for info, skey in USERS.pop(other, ()):
                info.specializations.pop(skey, None)
    raise FieldsWidened(key)


def _refresh(t: T.Type, key: str, table: dict) -> T.Type:
    """`t` with the instances of class `key` in it (not of a cycle of classes) given the
    field types of its `table`, where the field is tabled."""
    def leaf(x):
        if isinstance(x, T.ClassRef) or not _mentions(x, key) or x.group:
            return x
        if x.key == key:
            elems = [table.get(f, e) for f, e in zip(x.fields, x.folded.elems)]
            return x if elems == list(x.folded.elems) else T.ClassType(key, x.fields, T.TupleType(elems))
        return T.ClassType(x.key, x.fields, _refresh(x.folded, key, table))
    return T.map_fields(t, leaf)


def table_floor(key: str, field: str, t: T.Type) -> T.Type:
    """The type an instance argument's field of values of type `t` (folded) is given: the
    class's table type where that is wider and holds them (an int field the class's
    compiled code stores floats into: int|float), else `t` (instance_args)."""
    wide = FIELD_TYPES.get(key, {}).get(field)
    return wide if wide is not None and wide != t and _widen(t, wide) == wide else t


def seed_from_argument(t: T.ClassType) -> None:
    """Before a function is built for an instance argument from Python of type `t`
    (instance_args), the tables of its classes take the types of their tabled fields, so
    that an instance compiled code makes (`Node(x, head)`) gets the argument's type."""
    for key in (t.key, *t.group_keys):
        member = t.member(key)
        table = _table(key, lookup_class(key))
        new = dict(table)
        for f, ft in zip(member.fields, member.elem.elems):
            if f in new or _needs_table(ft, key):
                ft = _fold(ft, key)
                wide = ft if f not in new else _widen(new[f], ft)
                if wide is not None:
                    new[f] = wide
        if new != table:
            FIELD_TYPES[key] = new
            for info, skey in USERS.pop(key, ()):
                info.specializations.pop(skey, None)


def note_users(builder, info, skey) -> None:
    """A specialization kept in the cache: it is dropped when a table it used widens."""
    for key in getattr(builder, "tabled_classes", ()):
        USERS.setdefault(key, set()).add((info, skey))


def tabled_fields(cx, cls: type, key: str, fields, values: list, node) -> list:
    """The folded types of `values` (those `__init__` gave the fields of a new instance of
    class `cls`), tabled fields taken from `FIELD_TYPES` (widened first where they must).
    A table that only gains fields builds nothing again while every instance made so far
    has the type this one gets (`MADE`)."""
    table = _table(key, cls)
    if not table and not any(_needs_table(v.type, key) or number_hint(cls, f, v.type)
                             for f, v in zip(fields, values)):
        return [v.type for v in values]
    cx.__dict__.setdefault("tabled_classes", set()).add(key)
    new = dict(table)
    out = []
    for f, v in zip(fields, values):
        if pending_parts(v.type):           # an empty container: the table's type, or its stores'
            out.append(new.get(f, v.type))
            continue
        if f not in new and not _needs_table(v.type, key) and not number_hint(cls, f, v.type):
            out.append(v.type)
            continue
        folded = _fold(v.type, key)
        wide = folded if f not in new else _widen(new[f], folded)
        if wide is None:
            cx.error(f"field '{f}' of class '{cls.__name__}' holds {new[f]} and {folded}: a field "
                     "keeps one type in compiled code", node)
        new[f] = wide
        out.append(wide)
    made = MADE.setdefault(key, set())
    t = T.ClassType(key, fields, T.TupleType(out))
    if new != table and (made - {t} or any(new[f] != old for f, old in table.items())):
        _changed(key, new)
    FIELD_TYPES[key] = new
    made.add(t)
    return out


def widen_on_store(cx, t: T.ClassType, attr: str, value: Value, node) -> None:
    """``obj.f = value`` where the field's type cannot hold `value`: the field's table type
    widened (FieldsWidened), or nothing when the field is not one the table types. A
    float stored into a field of ints (an int into one of floats) makes it an int|float
    for the class, as CPython keeps each value's type."""
    key = t.key
    table = _table(key, lookup_class(key))
    ft = t.elem.elems[t.fields.index(attr)]
    if attr not in table and not (_needs_table(value.type, key) or _needs_table(ft, key)
                                  or T.merge(ft, value.type) == T.INT_FLOAT or T.unify(ft, value.type) is None
                                  or changes_python_type(value.type, ft)):
        return
    old = table.get(attr, _fold(ft, key))
    if isinstance(old, T.NoneType) and attr in LATE.get(key, ()):
        if pending_parts(value.type):
            cx.error(f"field '{attr}' of class '{t.name}' is first assigned an empty container after __init__ "
                     f"calls a method: assign it before that call (compiled code types it from there)", node)
        old = _fold(value.type, key)    # a late field's placeholder is never read (init_rest.py)
    wide = _widen(old, _fold(value.type, key))
    if wide is None:
        return                  # the caller's own error
    cx.__dict__.setdefault("tabled_classes", set()).add(key)
    new = dict(table)
    new[attr] = wide
    if new != table or t.contents.elems[t.fields.index(attr)] != wide:
        _changed(key, new)


def late_placeholders(cx, cls: type, key: str, late: list[str], node) -> list:
    """The values a new instance's late fields hold until ``__init__`` assigns them
    (init_rest.py): None while the class's table has no type for one, then a zero of it."""
    LATE.setdefault(key, set()).update(late)
    table = _table(key, cls)
    out = []
    for f in late:
        t = table.get(f)
        if t is None or isinstance(t, T.NoneType):
            out.append(Const(None, T.NONE))
        elif any(isinstance(x, T.ClassRef) for x in T.instances(t)) or _has_array(t):
            cx.error(f"field '{f}' of class '{cls.__name__}' is first assigned after __init__ calls a method "
                     f"and holds {t}: assign it before that call", node)
        else:
            out.append(optional.placeholder(cx, t, cx.loc(node)))
    return out


def _has_array(t: T.Type) -> bool:
    found = []
    T.map_parts(t, lambda x: found.append(x) if isinstance(x, T.ArrayType) else None)
    return bool(found)


def widen_number_fields(cx, a: T.Type, b: T.Type) -> None:
    """Two instances of one class meeting (a list display, a merge) whose fields hold an
    int in one and a float in the other (``[P(0, 1), P(1.5, 2)]``), or types that meet in
    a union (``Box(1)`` and ``Box("a")``): those fields become int|float or the union for
    the class (FieldsWidened); nothing for any other pair of types."""
    if not (isinstance(a, T.ClassType) and isinstance(b, T.ClassType) and a.key == b.key
            and a.fields == b.fields):
        return
    wide = {f: T.INT_FLOAT if T.merge(x, y) == T.INT_FLOAT else _field_union(x, y)
            for f, x, y in zip(a.fields, a.elem.elems, b.elem.elems)
            if x != y and T.unify(x, y) is None and not T.bool_and_number(x, y)}
    wide = {f: t for f, t in wide.items() if t is not None}
    if not wide:
        return
    table = _table(a.key, lookup_class(a.key))
    cx.__dict__.setdefault("tabled_classes", set()).add(a.key)
    _changed(a.key, {**table, **wide})


def instance_base(cx, base, attr: str, node):
    """`base` for ``base.attr``: an optional instance unwrapped, raising CPython's
    AttributeError where it is None."""
    if not is_optional(base) or not isinstance(base.type.value, T.ClassType):
        return base
    cx.raise_if(optional.absent(cx, base, node), "AttributeError",
                f"'{NONE_NAME}' object has no attribute '{attr}'", node)
    return optional.value_of(cx, base, node)


def fit_fields(cx, t: T.ClassType, values: list, node) -> list:
    """`values` converted to the fields of `t`; one of an older type of a tabled class
    (built before its table widened) builds again."""
    out = []
    for v, ft in zip(values, t.elem.elems):
        if pending_parts(v.type):
            cx.merge_pending_list(v.type, ft)     # (the table's type: a hint, then Restart)
        if v.type != ft and not isinstance(v.type, Unknown) and not holds(ft, v.type) and (
                T.unify(v.type, ft) != ft or isinstance(ft, T.OptionalType) and changes_python_type(v.type, ft)):
            _changed(t.key, _table(t.key, lookup_class(t.key)))
        out.append(cx.coerce(v, ft, node))
    return out


def names_instances(ann) -> bool:
    """Whether annotation `ann` names instances of a user class: the class (a string or a
    forward reference to it too), ``Optional`` of it, ``list[Node]``, ``dict[str, Node]``...
    A field so annotated takes its values' types (one type per class: `FIELD_TYPES`)."""
    if isinstance(ann, (str, typing.ForwardRef)):
        return True
    if ann is None or ann is type(None):
        return False
    args = typing.get_args(ann)
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        return any(names_instances(a) for a in args)
    if args:
        return any(names_instances(a) for a in args if a is not Ellipsis)
    return inspect.isclass(ann) and ann.__module__ not in ("builtins", "typing") and \
        not ann.__module__.startswith("numpy")


def tie_knot(hint: T.Type, pending: T.Type, known: dict | None = None) -> T.Type:
    """The hint for a container of pending type `pending` (lists.py, dicts.py) that is an
    instance holding that very container, maybe through another class's fields
    (``self.children = {}``, then ``node.children[ch] = TrieNode()``; ``self.edges = []`` of
    `Edge`s whose `src` is a `Node`): the class is recursive, the container holds `rec` (and
    the container's other pending parts take the types `known` gives them)."""
    if not isinstance(hint, T.ClassType):
        return hint
    swap = {pending: T.ClassRef(hint.key), **(known or {})}
    tied = _swap_in_classes(hint.contents, swap)
    return hint if tied is hint.contents else T.ClassType(hint.key, hint.fields, tied, hint.group)


def _swap_in_classes(t: T.Type, swap: dict) -> T.Type:
    """`t` with `swap[x]` for its parts `x`, inside the fields of the classes in it too."""
    def fn(x):
        if x in swap:
            return swap[x]
        if not isinstance(x, T.ClassType):
            return None
        folded = _swap_in_classes(x.folded, swap)
        group = [(k, f, _swap_in_classes(e, swap)) for k, f, e in x.group]
        if folded is x.folded and all(g[2] is e for g, (_, _, e) in zip(group, x.group)):
            return x
        return T.ClassType(x.key, x.fields, folded, group)
    return T.map_parts(t, fn)
