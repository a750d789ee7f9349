"""Members of plain ``enum.Enum`` classes as values in compiled code (docs/language.md "Enums").

A member of a plain enum class whose values compiled code has (all ints, all floats, all
strs, or all tuples of one type of those) is a value of type ``enum["module:Qualname"]``
(`types.EnumType`): the int64 index of the member among ``list(Cls)`` (definition order,
aliases excluded), reached from and turned into an ``i64`` by ``convert`` only. What CPython
does with the member is done here on the index: identity and ``==`` (a member equals only
itself; never a value of another type), ``.name`` and ``.value`` (elements of constant
tuples of the class's names and values), ``str``/``repr``/``format`` (CPython 3.11's
``Cls.NAME`` and ``<Cls.NAME: value!r>``), ``Cls[name]`` and ``Cls(value)`` (searches of
those tuples, raising CPython's KeyError and ValueError), ``for m in Cls``, ``len(Cls)``.
Boxing gives back the very member (pyhooks/named_instance.py: ``enum_member``), and an
argument is unboxed to its index after the entry point found it a member of the class
(``enum_index``). IntEnum, StrEnum and IntFlag members stay their values (enum_members.py).
"""

from __future__ import annotations

import ast
import enum
import functools
import inspect

from script.frontend.pyref import global_callee
from script.ir import types as T
from script.ir.core import Const, Value
from script.pyhooks.named_instance import enum_key, lookup_class

_KINDS = (int, float, str)


def is_plain_enum_class(obj) -> bool:
    """An enum class whose members are not their values (no int, str or flag mixin)."""
    return (isinstance(obj, enum.EnumMeta) and issubclass(obj, enum.Enum) and not issubclass(obj, enum.Flag)
            and getattr(obj, "_member_type_", object) is object)


def is_plain_member(obj) -> bool:
    return isinstance(obj, enum.Enum) and is_plain_enum_class(type(obj))


def refusal(cls) -> str | None:
    """Why compiled code cannot hold members of plain enum class `cls`, or None."""
    if "<locals>" in cls.__qualname__:
        return f"enum class {cls.__qualname__} is defined inside a function: compiled code holds members of module-level classes"
    members = list(cls)
    if not members:
        return f"enum class {cls.__qualname__} has no members"
    kinds = {_value_type(m.value) for m in members}
    if len(kinds) != 1 or None in kinds:
        return (f"the values of enum class {cls.__qualname__} are not all of one kind compiled code has "
                f"(all ints, all floats, all strs, or all tuples of one shape of those)")
    for name in ("__eq__", "__hash__", "_missing_"):
        if not _inherited(cls, name):
            return f"enum class {cls.__qualname__} defines its own {name}: compiled code knows only Enum's"
    return None


def own_member(cls, name: str):
    """What enum class `cls` (or a mixin of its, not Enum itself) defines as `name` that
    compiled code runs on a member: a function, property, static or class method; else None."""
    for c in cls.__mro__:
        if c is enum.Enum or c is object:
            return None
        if name in vars(c):
            m = vars(c)[name]
            return m if isinstance(m, (property, staticmethod, classmethod)) or inspect.isfunction(m) else None
    return None


def _inherited(cls, name: str) -> bool:
    own = getattr(cls, name, None)
    base = getattr(enum.Enum, name, None)
    return getattr(own, "__func__", own) is getattr(base, "__func__", base)


def _value_type(v):
    if type(v) in _KINDS:
        return type(v)
    if type(v) is tuple and all(type(x) in _KINDS for x in v):
        return tuple(type(x) for x in v)
    return None


@functools.lru_cache(maxsize=256)
def enum_type_of(cls) -> T.EnumType | None:
    """The type of members of `cls`, or None when compiled code cannot hold them (`refusal`)."""
    if not is_plain_enum_class(cls) or refusal(cls) is not None:
        return None
    return T.EnumType(enum_key(cls))


def enum_type(cx, cls, node) -> T.EnumType:
    why = refusal(cls)
    if why is not None:
        cx.error(why, node)
    return T.EnumType(enum_key(cls))


def class_of(t: T.EnumType):
    return lookup_class(t.key)


def is_enum(v) -> bool:
    return isinstance(getattr(v, "type", None), T.EnumType)


# ---- members and indices --------------------------------------------------------------------


def member(cx, obj, node) -> Value:
    """The value of member `obj` read at `node`."""
    t = enum_type(cx, type(obj), node)
    return from_index(cx, Const(list(type(obj)).index(obj), T.I64), t, node)


def from_index(cx, index: Value, t: T.EnumType, node) -> Value:
    return cx.emit("convert", [index], t, None, cx.loc(node))


def index_of(cx, v: Value, node) -> Value:
    """The member's index: a constant for a member read by name."""
    if getattr(v, "opname", None) == "convert" and isinstance(v.operands[0], Const):
        return v.operands[0]
    return cx.emit("convert", [v], T.I64, None, cx.loc(node))


def _table(cx, values: list, node) -> Value:
    return cx.python_object(tuple(values), "<enum table>", node)


def _pick(cx, v: Value, values: list, node) -> Value:
    """`values[index of v]`: a constant where the member is known."""
    index = index_of(cx, v, node)
    if isinstance(index, Const):
        return cx.python_object(values[index.value], "<enum value>", node)
    return cx.tuple_item(_table(cx, values, node), index, node, node)


def attribute(cx, v: Value, node: ast.Attribute) -> Value:
    """`m.name`, `m.value` (and `_name_`, `_value_`)."""
    members = list(class_of(v.type))
    if node.attr in ("name", "_name_"):
        return _pick(cx, v, [m.name for m in members], node)
    if node.attr in ("value", "_value_"):
        return _pick(cx, v, [m.value for m in members], node)
    cx.error(f"'{v.type.name}' members have only .name and .value in compiled code (not '{node.attr}')", node)


def truth(cx, v: Value, node) -> Value:
    """A member is true (object's truth), unless its class defines __bool__."""
    if any("__bool__" in vars(c) for c in class_of(v.type).__mro__ if c not in (enum.Enum, object)):
        cx.error(f"enum class {v.type.name} defines its own __bool__: compiled code knows only Enum's", node)
    return Const(True, T.BOOL, cx.loc(node))


# ---- comparisons ----------------------------------------------------------------------------


def compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """`a op b` where one of them is a member: a member is only itself (`==` and `is` alike),
    and plain Enum defines no order (CPython's TypeError)."""
    loc = cx.loc(node)
    if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
        same_neg = isinstance(op, (ast.NotEq, ast.IsNot))
        if a.type != b.type:
            other = b.type if isinstance(a.type, T.EnumType) else a.type
            if not _never_a_member(other):
                cx.error(f"comparing a member of {(a.type if other is b.type else b.type).name} with a value of "
                         f"type {other} is not supported in compiled code", node)
            return Const(same_neg, T.BOOL, loc)
        ia, ib = index_of(cx, a, node), index_of(cx, b, node)
        if isinstance(ia, Const) and isinstance(ib, Const):
            return Const((ia.value == ib.value) != same_neg, T.BOOL, loc)
        return cx.emit("cmp", [ia, ib], T.BOOL, "ne" if same_neg else "eq", loc)
    if isinstance(op, (ast.In, ast.NotIn)):
        cx.error("'in' with an enum member here is not supported in compiled code", node)
    symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
    return cx.raise_always("TypeError", f"'{symbol}' not supported between instances of "
                           f"'{_python_name(a.type)}' and '{_python_name(b.type)}'", node)


def _never_a_member(t: T.Type) -> bool:
    """Whether no value of type `t` equals a member: a member of another class, a number, a
    str, None, or a plain tuple, list, dict or set (no instance, whose __eq__ may say so)."""
    if isinstance(t, (T.EnumType, T.TextType, T.NoneType, T.BoolType, T.IntType, T.FloatType, T.ComplexType)):
        return True
    return type(t) in (T.TupleType, T.ListType, T.DictType, T.SetType, T.VarTupleType)


_NAMES = {T.I64: "int", T.F64: "float", T.STR: "str", T.BOOL: "bool", T.NONE: "NoneType", T.BYTES: "bytes",
          T.C128: "complex"}


def _python_name(t: T.Type) -> str:
    if isinstance(t, T.EnumType):
        return t.name
    if isinstance(t, T.TupleType) and type(t) is T.TupleType:
        return "tuple"
    if isinstance(t, T.ListType) and type(t) is T.ListType:
        return "list"
    return _NAMES.get(t, str(t))


def key_text(t: T.EnumType) -> str:
    """The message format of a KeyError's member key: ``__enum__("m:Cls", %lld)`` of its
    index, which pyhooks/keyerror.py reads back into the member."""
    return f"__enum__({t.key!r}, %lld)".replace("%", "%%").replace("%%lld", "%lld")


def holds_enum(t: T.Type) -> bool:
    found = []
    T.map_parts(t, lambda x: found.append(x) if isinstance(x, T.EnumType) else None)
    return bool(found)


def pyhash(cx, v: Value, node) -> Value:
    """hash(m): CPython's is hash(m._name_) (Enum.__hash__), which orders a set of members."""
    if not isinstance(v.type, T.EnumType):
        cx.error(f"hash() of a {v.type}, which holds enum members, is not supported in compiled code "
                 "(sets of members are; of tuples holding them, not)", node)
    name = _pick(cx, v, [m.name for m in class_of(v.type)], node)
    return cx.emit("pyhash", [name], T.I64, None, cx.loc(node))


# ---- text -----------------------------------------------------------------------------------


def text(cx, v: Value, node, conversion: str = "s") -> Value:
    """str(m) ``Cls.NAME`` or repr(m) ``<Cls.NAME: value!r>`` (CPython 3.11), or what the
    class's own ``__str__``/``__repr__`` gives: each member's text, made when compiling."""
    cls = class_of(v.type)
    shown = [repr(m) if conversion == "r" else str(m) for m in cls]
    return _pick(cx, v, shown, node)


def formatted(cx, v: Value, spec: Value, node) -> Value:
    """format(m, spec): Enum.__format__ of a plain member is str(m) formatted by `spec`."""
    if not _inherited(class_of(v.type), "__format__"):
        cx.error(f"enum class {v.type.name} defines its own __format__: compiled code knows only Enum's", node)
    return cx.format_value(text(cx, v, node), spec, node)


# ---- the class: Cls[name], Cls(value), iteration ---------------------------------------------


def class_ref(cx, node):
    """The plain enum class `node` names (a global, or a module's attribute), or None."""
    try:
        obj = global_callee(cx, node)
    except Exception:           # (not a static name: lowered as usual, where it errs)
        return None
    return obj if is_plain_enum_class(obj) else None


def class_contains(cx, node: ast.Compare) -> Value | None:
    """`m in Cls` / `m not in Cls` of a member: whether it is one of that class (other
    values, which CPython 3.11 refuses with a TypeError or a DeprecationWarning, are a
    CompileError); None for other comparisons."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return None
    cls = class_ref(cx, node.comparators[0])
    if cls is None:
        return None
    t = enum_type(cx, cls, node)
    v = cx.expr(node.left)
    if not isinstance(v.type, T.EnumType):
        cx.error(f"'in {cls.__qualname__}' of a value of type {v.type} is not supported in compiled code "
                 "(CPython 3.11 deprecates it)", node)
    return Const((v.type == t) == isinstance(node.ops[0], ast.In), T.BOOL, cx.loc(node))


def iterable(cx, cls, node):
    """(length, item, element type) of `for m in Cls` (lower_stmt.iterable)."""
    t = enum_type(cx, cls, node)
    return Const(len(cls), T.I64), lambda i: from_index(cx, i, t, node), t


def subscript(cx, cls, node: ast.Subscript) -> Value:
    """`Cls[name]`: the member named so (no aliases' names: CPython finds those too, as
    the member itself), else CPython's KeyError(name)."""
    t = enum_type(cx, cls, node)
    key = cx.expr(node.slice)
    if not isinstance(key.type, T.StrType):
        cx.error(f"{cls.__qualname__}[...] takes a str in compiled code, not {key.type}", node.slice)
    members = list(cls)
    names = list(cls.__members__)
    indices = [members.index(cls.__members__[n]) for n in names]
    return _search(cx, key, names, indices, t, "KeyError", None, node)


def call(cx, cls, node: ast.Call) -> Value:
    """`Cls(value)`: the member with that value (the first defined, as CPython's), else
    CPython's ValueError ``<value!r> is not a valid Cls``; `Cls(member)` is the member."""
    t = enum_type(cx, cls, node)
    if node.keywords or len(node.args) != 1:
        cx.error(f"{cls.__qualname__}() takes one value in compiled code", node)
    v = cx.expr(node.args[0])
    if v.type == t:
        return v
    members = list(cls)
    want = cx.python_object(members[0].value, "<enum value>", node).type
    if isinstance(v.type, T.EnumType) or not (v.type == want or {v.type, want} <= {T.I64, T.F64}):
        cx.error(f"{cls.__qualname__}() of a value of type {v.type} is not supported in compiled code "
                 f"(its values are {want})", node.args[0])
    values = [m.value for m in members]
    return _search(cx, v, values, list(range(len(members))), t, "ValueError", cls.__qualname__, node)


def _search(cx, key: Value, keys: list, indices: list, t: T.EnumType, exc: str, qualname, node) -> Value:
    """The member `indices[k]` of the first `keys[k] == key`, else `exc`; written as a chain
    of compares (enum classes are small)."""
    loc = cx.loc(node)
    found: Value = Const(-1, T.I64, loc)
    for k in reversed(range(len(keys))):
        known = cx.python_object(keys[k], "<enum key>", node)
        hit = cx.compare(ast.Eq(), key, known, node)
        found = cx.emit("select", [hit, Const(indices[k], T.I64, loc), found], T.I64, None, loc) \
            if not isinstance(hit, Const) else (Const(indices[k], T.I64, loc) if hit.value else found)
    missing = cx.cmp("lt", found, Const(0, T.I64, loc), node)
    if not (isinstance(missing, Const) and not missing.value):
        # (the key's repr is made on the failing path only)
        bad, good = cx.new_block("enum.missing"), cx.new_block("enum.found")
        cx.branch(missing, bad, good, loc)
        cx.seal(bad)
        cx.start(bad)
        if exc == "KeyError":
            fmt, args = cx.key_message(key, node)
        else:
            fmt, args = f"%U is not a valid {_escaped(qualname)}", [cx.str_of(key, node, "r")]
        cx.raise_if(Const(True, T.BOOL), exc, fmt, node, args)
        cx.goto(good, loc)
        cx.seal(good)
        cx.start(good)
    return from_index(cx, found, t, node)


def _escaped(text: str) -> str:
    return text.replace("%", "%%")
