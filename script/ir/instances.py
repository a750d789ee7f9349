"""Types of class instances (docs/records.md): `ClassType`, and `ClassRef` for the instances
of a recursive class inside its own fields. Part of `script.ir.types` (which imports these
names at its end: use them as ``types.ClassType``)."""

from __future__ import annotations

from script.ir.types import (DictType, ListType, NamedTupleType, OptionalType, SetType, TupleType, Type,
                             _class_name, _quoted, _record_text, map_parts)


class ClassType(ListType):
    """An instance of a module-level class (docs/records.md, frontend/records.py): a
    reference to one heap record, so two names for one instance see each other's changes.
    The record is a list of one element, the tuple of the fields (`elem`), so the lists'
    machinery allocates it, counts its references and frees it; the frontend reads
    ``obj.x`` as element x of that tuple and writes it by storing a new tuple. `key` is the
    class's ``module:qualname``, `fields` the field names in the order ``__init__`` first
    assigns them. Printed ``obj["mod:Particle", "x": f64, "v": list[f64]]``. Never equal to
    the list of the same tuples, and never boxed (compiled code keeps its instances).

    Recursive classes (docs/records.md): a field may hold instances of the class itself, or
    of classes that hold it (``opt[...]``, in a list, a dict's values...). The type keeps its
    fields *folded* (`folded`): such an instance is a `ClassRef` to its class (printed
    ``rec["mod:Node"]``), and the other classes of the cycle are kept by key in `group`
    (their fields and folded types), so the type is finite and one type has one
    representation; `elem` is the fields *unfolded*, where the references are this very
    type again, or its group's classes (computed once, on first use). A walker over types
    that could meet one descends into `contents`, which keeps the references.

    Made from fields that hold instances, the type folds those of the type being made (so
    ``Node(Node(None, None), None)`` with ``left: opt[rec]`` is one type), takes in those
    whose own references reach it (a `B` whose fields refer to this `A`: into `group`),
    and keeps the others nested, another specialization of the class too (``Box(Box(1))``).
    A type whose references name a class neither it nor its group is (`free`) is only ever
    part of a type being made (the parser's, `frontend/class_types.py`'s)."""

    __slots__ = ("key", "fields", "folded", "group", "_unfolded")

    def __init__(self, key: str, fields, elem: TupleType, group=()):
        assert isinstance(elem, TupleType) and len(elem.elems) == len(tuple(fields)), (fields, elem)
        defs = {k: (tuple(f), e) for k, f, e in group}
        found: list = []

        def leaf(x):
            if isinstance(x, ClassRef):
                return x
            if x.key == key:
                found.append(x)
                return ClassRef(key)
            if x.free or key in x.group_keys:
                defs.update({k: (f, e) for k, f, e in x.group if k != key})
                defs[x.key] = (x.fields, x.folded)
                if not x.free:
                    found.append(x)
                return ClassRef(x.key)
            return x

        folded = map_fields(elem, leaf)
        self._set(key, fields, folded, defs)
        if any(f != self.member(f.key) for f in found):       # not of the type being made
            self._set(key, fields, elem, {k: (tuple(f), e) for k, f, e in group})

    def _set(self, key, fields, folded, defs: dict) -> None:
        self.key = key
        self.fields = tuple(fields)
        self.folded = folded
        self._unfolded = None
        reach, todo = set(), [folded]
        while todo:                         # the group: the classes its references reach
            for x in instances(todo.pop()):
                if isinstance(x, ClassRef) and x.key != key and x.key in defs and x.key not in reach:
                    reach.add(x.key)
                    todo.append(defs[x.key][1])
        self.group = tuple(sorted((k, defs[k][0], defs[k][1]) for k in reach))

    @classmethod
    def _made(cls, key: str, defs: dict) -> "ClassType":
        t = cls.__new__(cls)
        t._set(key, defs[key][0], defs[key][1], defs)
        return t

    def member(self, key: str) -> "ClassType":
        """This type, or the class `key` of its group (with this one in its group)."""
        if key == self.key:
            return self
        defs = {k: (f, e) for k, f, e in self.group}
        defs[self.key] = (self.fields, self.folded)
        return ClassType._made(key, defs)

    @property
    def group_keys(self) -> tuple:
        return tuple(g[0] for g in self.group)

    @property
    def free(self) -> frozenset:
        """The classes its references name that neither it nor its group is."""
        bound = {self.key, *self.group_keys}
        return frozenset(x.key for e in (self.folded, *(g[2] for g in self.group)) for x in instances(e)
                         if isinstance(x, ClassRef) and x.key not in bound)

    @property
    def elem(self) -> TupleType:
        if self._unfolded is None:
            bound = {self.key, *self.group_keys}
            self._unfolded = map_fields(self.folded, lambda x: self.member(x.key) if isinstance(
                x, ClassRef) and x.key in bound else x)
        return self._unfolded

    @property
    def contents(self) -> TupleType:
        return self.folded

    @property
    def is_recursive(self) -> bool:
        return any(isinstance(x, ClassRef) for x in instances(self.folded))

    @property
    def name(self) -> str:
        return _class_name(self.key)

    def __eq__(self, other):
        return (type(other) is ClassType and other.key == self.key and other.fields == self.fields
                and other.folded == self.folded and other.group == self.group)

    def __hash__(self):
        return hash(("obj", self.key, self.fields, self.folded, self.group))

    def __str__(self):
        return _class_text(self, (self.key,))

    __repr__ = __str__


def _class_text(t: "ClassType", path: tuple) -> str:
    """``obj["m:A", "b": opt[obj["m:B", "a": opt[rec["m:A"]]]]]``: a group's classes printed
    where first met on each path, a class already on the path as ``rec[...]``."""
    defs = {k: (f, e) for k, f, e in t.group}

    def text(x, path):
        if isinstance(x, ClassRef):
            if x.key in path or x.key not in defs:
                return str(x)
            f, e = defs[x.key]
            return _record_text("obj", x.key, f, [text(y, path + (x.key,)) for y in e.elems])
        if isinstance(x, OptionalType):
            return f"opt[{text(x.value, path)}]"
        if isinstance(x, NamedTupleType):
            return _record_text("named", x.key, x.fields, [text(y, path) for y in x.elems])
        if isinstance(x, TupleType):
            inner = [text(y, path) for y in x.elems]
            return f"({inner[0]},)" if len(inner) == 1 else "(" + ", ".join(inner) + ")"
        if type(x) is ListType:
            return f"list[{text(x.elem, path)}]"
        if isinstance(x, DictType):
            return f"dict[{text(x.key, path)}, {text(x.value, path)}]"
        if isinstance(x, SetType):
            return f"set[{text(x.key, path)}]"
        return str(x)
    return _record_text("obj", t.key, t.fields, [text(y, path) for y in t.folded.elems])


def instances(t: Type) -> list:
    """The class instances and `ClassRef`s in `t` (not inside other classes' fields)."""
    found: list = []
    map_fields(t, lambda x: found.append(x) or x)
    return found


class ClassRef(Type):
    """Inside a recursive `ClassType`'s folded fields: an instance of that class itself.
    Never the type of a value (the fields are unfolded before they are read). Printed
    ``rec["mod:Node"]``."""

    __slots__ = ("key",)

    def __init__(self, key: str):
        self.key = key

    def is_numeric(self) -> bool:
        return False

    def __eq__(self, other):
        return type(other) is ClassRef and other.key == self.key

    def __hash__(self):
        return hash(("rec", self.key))

    def __str__(self):
        return f"rec[{_quoted(self.key)}]"

    __repr__ = __str__


def map_fields(t: Type, leaf) -> Type:
    """`t` with `leaf(x)` for each class instance or `ClassRef` `x` in it (`map_parts`)."""
    return map_parts(t, lambda x: leaf(x) if isinstance(x, (ClassType, ClassRef)) else None)


def contents(t: "ListType") -> Type:
    """What a walker over the types inside list `t` descends into: its elements' type, or a
    class instance's folded fields (`ClassType.contents`: finite for a recursive class)."""
    return t.contents if isinstance(t, ClassType) else t.elem
