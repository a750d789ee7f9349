"""Special methods of user classes in compiled code (docs/records.md, "Special methods").

Functions over the lowering `cx`. Every value has one static type, so
CPython's dispatch is decided when compiling: ``a + b`` calls ``type(a).__add__(a, b)``;
when that is missing, or returns ``NotImplemented`` (for the argument types of this call:
``isinstance`` is a constant, so a method returns NotImplemented on every path or on none),
``type(b).__radd__(b, a)``, tried first when ``type(b)`` is a proper subclass of ``type(a)``
that overrides it; a value that is not an instance (a number, a str, a list) never knows
a user class, as CPython's own types do not. Nothing left is CPython's TypeError, raised
when compiling (a CompileError with CPython's message: with static types it always raises).

- ``a += b``: ``__iadd__``, else as ``a + b``; ``-a``, ``+a``, ``~a``, ``abs(a)``.
- ``==``/``!=``: ``__eq__``/``__ne__`` (``__ne__`` negates ``__eq__`` when the class has no
  own), reflected as CPython reflects them, else identity; ``<`` ``<=`` ``>`` ``>=``
  reflected to ``>`` ``>=`` ``<`` ``<=`` of the right operand; ``functools.total_ordering``'s
  derived methods are computed from the root it derives them from, as its code does; a
  dataclass's generated ``__eq__`` (and ``order=True`` ones) compare the field tuples (an
  ``__eq__`` of fields holding objects is a function called, comparing the same object
  equal at once, as CPython's tuples do, and recursing through a class that refers to itself).
- ``len(a)`` (``__len__``: an int, ValueError when negative), truth (``__bool__``, else
  ``__len__() != 0``, else True), ``a[k]``/``a[k] = v``/``del a[k]`` (``k`` any value, a
  tuple for ``a[i, j]``; no slices), ``x in a`` (``__contains__``), ``str(a)``/``repr(a)``/
  f-strings/``print`` (``__str__``, falling back to ``__repr__``; a dataclass's generated
  ``__repr__``), ``a(...)`` (``__call__``), ``for x in a`` where ``__iter__`` is
  ``return iter(<iterable>)`` (the iterable is what is walked).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import linecache

from script.frontend.class_lookup import find_member
from script.frontend import class_unions, elementwise, optional, seq_iterators
from script.frontend.class_unions import is_union, per_instance
from script.frontend.source import FunctionInfo
from script.ir import types as T
from script.ir.core import Const, Instr, Value
from script.pyhooks.named_instance import lookup_class

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
          ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and", ast.BitOr: "or",
          ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift", divmod: "divmod"}    # (divmod(x, y))
SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "** or pow()", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
          ast.LShift: "<<", ast.RShift: ">>", divmod: "divmod()"}
_AUG_SYMBOL = {ast.Pow: "**"}
_UNARY = {ast.USub: ("__neg__", "-"), ast.UAdd: ("__pos__", "+"), ast.Invert: ("__invert__", "~")}
ORDER = {ast.Lt: ("__lt__", "__gt__", "<"), ast.LtE: ("__le__", "__ge__", "<="),
         ast.Gt: ("__gt__", "__lt__", ">"), ast.GtE: ("__ge__", "__le__", ">=")}
_OPS_OF = {"__lt__": ast.Lt, "__le__": ast.LtE, "__gt__": ast.Gt, "__ge__": ast.GtE,
           "__eq__": ast.Eq, "__ne__": ast.NotEq}
# functools.total_ordering's derived methods: (root, negate the root, then "and !=" / "or ==")
_TOTAL_ORDERING = {
    "_gt_from_lt": ("__lt__", True, "and"), "_le_from_lt": ("__lt__", False, "or"),
    "_ge_from_lt": ("__lt__", True, None), "_ge_from_le": ("__le__", True, "or"),
    "_lt_from_le": ("__le__", False, "and"), "_gt_from_le": ("__le__", True, None),
    "_lt_from_gt": ("__gt__", True, "and"), "_ge_from_gt": ("__gt__", False, "or"),
    "_le_from_gt": ("__gt__", True, None), "_le_from_ge": ("__ge__", True, "or"),
    "_gt_from_ge": ("__ge__", False, "and"), "_lt_from_ge": ("__ge__", True, None)}


def mixed_classes(t: T.Type, u: T.Type) -> str:
    """A note for an error where a value of type `u` meets a place of type `t`: when they
    are instances of two classes, what keeps one class (class_unions.py); when one is a real
    number and the other a complex, or a bool and a number, what to write instead."""
    if T.bool_and_number(t, u):
        return (" (CPython keeps True apart from 1, and compiled code has no value that is either: "
                "make both bools or both numbers, e.g. `int(flag)` or `n != 0`)")
    if T.real_and_complex(t, u):
        return (" (CPython keeps a real number and a complex apart, and compiled code has no value "
                "that is either: make both complex, e.g. `complex(x)` or a start of `0j`)")
    if not (isinstance(t, T.ClassType) and isinstance(u, T.ClassType)) or t.key == u.key:
        return ""
    return (f" (instances of '{t.name}' and '{u.name}': a field, or a list made with elements of one class, "
            "keeps that class; a list made empty takes instances of several)")


def class_of(v) -> type | None:
    """The user class of an instance value, or None for any other value."""
    t = getattr(v, "type", None)
    return lookup_class(t.key) if isinstance(t, T.ClassType) else None


def is_made(fn) -> bool:
    """Whether `fn` was generated (by dataclasses), not written in a file."""
    fn = inspect.unwrap(fn) if inspect.isfunction(fn) else fn      # (a dataclass's __repr__ is wrapped)
    return inspect.isfunction(fn) and fn.__code__.co_filename.startswith("<")


def type_name(v) -> str:
    """The name of the class CPython holds for value `v` (its error messages use it)."""
    from script.frontend.instance_test import python_class
    cls = python_class(v.type)
    return cls.__name__ if cls is not None else str(v.type)


class IterInfo(FunctionInfo):
    """``__iter__`` written ``return iter(E)``, as the function returning E, which compiled
    code walks in its place."""

    def __init__(self, fn):
        super().__init__(fn)
        node = copy.deepcopy(self.node)
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if not (len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Call)
                and isinstance(body[0].value.func, ast.Name) and body[0].value.func.id == "iter"
                and len(body[0].value.args) == 1):
            raise ValueError
        body[0].value = body[0].value.args[0]
        node.body = body
        self.node = node
        self.name = f"{self.name} (iter)"


def call_method(cx, fn, args: list, node) -> Value | None:
    """Function `fn` called with the values `args`; None when it returns NotImplemented
    (on every path, for these types: see the module docstring)."""
    call = ast.copy_location(ast.Call(func=ast.Name("$method", ast.Load()), args=[], keywords=[]), node)
    result = cx.call_script(cx.ctx.info_for(fn), call, leading=args)
    callee = result.attr if isinstance(result, Instr) and result.opname == "call" else None
    if getattr(callee, "not_implemented", False):
        return None
    return result


def call_special(cx, v: Value, name: str, args: list, node, missing: str | None = None) -> Value | None:
    """``type(v).name(v, *args)``; None when the class has no such method or it returns
    NotImplemented, or the CompileError `missing` when given."""
    cls = class_of(v)
    fn = find_member(cls, name) if cls is not None else None
    if fn is None:
        if missing is not None:
            cx.error(missing, node)
        return None
    if not inspect.isfunction(fn):
        cx.error(f"'{cls.__name__}.{name}' is a {type(fn).__name__}: compiled code calls special "
                 "methods that are plain functions", node)
    return call_method(cx, fn, [v, *args], node)


def return_not_implemented(cx, node: ast.Return) -> None:
    """``return NotImplemented`` (lower_stmt.stmt_Return): this specialization returns it,
    and nothing else (call_method sees the mark)."""
    if cx.ret_type is not None and not isinstance(cx.ret_type, T.NoneType):
        _mixed_not_implemented(cx, node)
    cx.func.not_implemented = True
    cx.do_return(None, node)


def _mixed_not_implemented(cx, node) -> None:
    cx.error(f"'{cx.info.name}' returns NotImplemented on one path and a value on another for "
             "these argument types: compiled code decides a special method's dispatch when "
             "compiling (return NotImplemented only under an isinstance test)", node)

# ---- operators ------------------------------------------------------------------------


@per_instance(1, 2)
def instance_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    """``a op b`` (``a op= b`` when `node` is an AugAssign) with an instance operand."""
    name = BINARY.get(op)
    if name is None:
        cx.error(f"operator {op.__name__} is not supported on instances", node)
    a, b = (elementwise.materialize(cx, v, node) if not isinstance(v, Value) else v for v in (a, b))
    if isinstance(node, ast.AugAssign):
        r = call_special(cx, a, f"__i{name}__", [b], node)
        if r is not None:
            return r
    ca, cb = class_of(a), class_of(b)
    tries = [(a, f"__{name}__", b)]
    if cb is not None and cb is not ca:
        reflected = (b, f"__r{name}__", a)
        if ca is not None and issubclass(cb, ca) and find_member(cb, f"__r{name}__") is not \
                find_member(ca, f"__r{name}__"):
            tries.insert(0, reflected)
        else:
            tries.append(reflected)
    for v, method, other in tries:
        r = call_special(cx, v, method, [other], node)
        if r is not None:
            return r
    symbol = SYMBOL[op] if not isinstance(node, ast.AugAssign) else _AUG_SYMBOL.get(op, SYMBOL[op]) + "="
    cx.error(f"unsupported operand type(s) for {symbol}: '{type_name(a)}' and '{type_name(b)}'", node)


@per_instance(1)
def instance_unary(cx, op: ast.unaryop, v: Value, node) -> Value:
    method, symbol = _UNARY[type(op)]
    return call_special(cx, v, method, [], node, f"bad operand type for unary {symbol}: '{type_name(v)}'")


@per_instance(0)
def instance_abs(cx, v: Value, node) -> Value:
    return call_special(cx, v, "__abs__", [], node, f"bad operand type for abs(): '{type_name(v)}'")

# ---- comparisons ----------------------------------------------------------------------


def instance_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """``a op b`` for ==, !=, <, <=, >, >= with an instance operand."""
    ca, cb = class_of(a), class_of(b)
    if isinstance(op, (ast.Eq, ast.NotEq)):
        own, swapped = ("__eq__", "__eq__") if isinstance(op, ast.Eq) else ("__ne__", "__ne__")
    else:
        own, swapped, symbol = ORDER[type(op)]
    tries = [(a, own, b)]
    if cb is not None:              # (also for one class: a.__lt__ may return NotImplemented)
        tries.append((b, swapped, a))
        if ca is not None and cb is not ca and issubclass(cb, ca) \
                and find_member(cb, swapped) is not find_member(ca, swapped):
            tries.reverse()
    for v, method, other in tries:
        r = compare_method(cx, v, method, other, node)
        if r is not None:
            return r
    if isinstance(op, (ast.Eq, ast.NotEq)):
        return cx.identity_compare(op, a, b, node)        # records.py: object.__eq__
    cx.error(f"'{symbol}' not supported between instances of '{type_name(a)}' and '{type_name(b)}'", node)


def compare_method(cx, v: Value, name: str, other: Value, node) -> Value | None:
    """``type(v).name(v, other)`` of a comparison method, or None: missing or
    NotImplemented. Covers the methods classes get made for them (``__ne__`` from
    ``__eq__``, total_ordering's, a dataclass's)."""
    cls = class_of(v)
    if cls is None:
        return None
    fn = find_member(cls, name)
    if fn is None and name == "__ne__":
        eq = compare_method(cx, v, "__eq__", other, node)
        return None if eq is None else optional._not(cx, cx.truth(eq, node), cx.loc(node))
    if fn is None:
        return None
    if is_made(fn):
        return dataclass_compare(cx, _OPS_OF[name](), v, other, node)
    derived = _TOTAL_ORDERING.get(getattr(fn, "__qualname__", "")) \
        if getattr(fn, "__module__", None) == "functools" else None
    if derived is not None:
        return _total_ordering(cx, derived, v, other, node)
    return call_special(cx, v, name, [other], node)


def dataclass_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value | None:
    """A dataclass's generated comparison: the field tuples compared, for two instances
    of the very class (NotImplemented otherwise, as its code says)."""
    if a.type != b.type:
        return None
    loc = cx.loc(node)
    cls = class_of(a)
    keep = [k for k, f in enumerate(a.type.fields)
            if f not in cls.__dataclass_fields__ or cls.__dataclass_fields__[f].compare]
    if isinstance(op, (ast.Eq, ast.NotEq)) and any(_by_reference(a.type.elem.elems[k]) for k in keep):
        fields = [(a.type.fields[k], _is_instance(a.type.elem.elems[k])) for k in keep]
        eq = call_method(cx, _dataclass_eq(cls, fields), [a, b], node)
        return eq if isinstance(op, ast.Eq) else optional._not(cx, eq, loc)
    tuples = []
    for v in (a, b):
        tup = cx.emit("list_get", [v, Const(0, T.I64)], v.type.elem, None, loc)
        parts = [cx.emit("extract", [tup], v.type.elem.elems[k], k, loc) for k in keep]
        tuples.append(cx.make_tuple(parts, node))
    return cx.compare(op, tuples[0], tuples[1], node)


def _is_instance(t) -> bool:
    return T.is_instance_type(t.value if isinstance(t, T.OptionalType) else t)


def _by_reference(t) -> bool:
    """Whether a field of type `t` holds objects (an instance, a container), which CPython
    compares by identity first and which may lead back to the class itself."""
    t = t.value if isinstance(t, T.OptionalType) else t
    return isinstance(t, (T.ListType, T.HashType)) \
        or isinstance(t, T.TupleType) and any(map(_by_reference, t.elems))


_DATACLASS_EQS: dict = {}


def _dataclass_eq(cls, fields: list[tuple[str, bool]]):
    """The function a dataclass's generated ``__eq__`` is for two instances of `cls` with
    these compared `fields` (name, holds an instance), called rather than built in place:
    a class whose fields lead back to it compares through a recursive call. Each field is
    compared as CPython's tuple comparison does, the same object equal without ``==``,
    stopping at the first unequal one."""
    key = (cls, tuple(fields))
    fn = _DATACLASS_EQS.get(key)
    if fn is None:
        def same(f, instance):
            eq = f"bool(self.{f} == other.{f})"
            return f"(self.{f} is other.{f} or {eq})" if instance else eq
        tests = " and ".join(same(f, instance) for f, instance in fields) or "True"
        name = f"<script dataclass __eq__ {cls.__module__}.{cls.__qualname__} {len(_DATACLASS_EQS)}>"
        text = f"def __eq__(self, other):\n    return {tests}\n"
        linecache.cache[name] = (len(text), None, text.splitlines(True), name)
        namespace: dict = {}
        exec(compile(text, name, "exec"), namespace)
        fn = _DATACLASS_EQS[key] = namespace["__eq__"]
    return fn


def _total_ordering(cx, derived: tuple, a: Value, b: Value, node) -> Value | None:
    root, negate, join = derived
    r = compare_method(cx, a, root, b, node)
    if r is None:
        return None
    loc = cx.loc(node)
    r = cx.truth(r, node)
    if negate:
        r = optional._not(cx, r, loc)
    if join is None:
        return r
    other = (lambda: cx.compare(ast.NotEq(), a, b, node)) if join == "and" else \
        (lambda: cx.compare(ast.Eq(), a, b, node))
    if join == "and":
        return cx.choose(r, lambda: cx.truth(other(), node), lambda: Const(False, T.BOOL), node)
    return cx.choose(r, lambda: Const(True, T.BOOL), lambda: cx.truth(other(), node), node)


def instance_sum(cx, iterable, start: list, op: type, node) -> Value:
    """``sum(xs, start)`` (``math.prod``) of instances: ``start + x0 + x1 ...``, each a
    value of start's class. Without a start, or with a number (``sum(xs, 0)``), ``(0 + x0) +
    x1 ...`` (the class's ``__radd__`` of the number), and a TypeError where there are no
    elements (`refuse_empty_sum`)."""
    n, item, et = iterable
    what = "sum" if op is ast.Add else "prod"

    def step(acc, x):
        r = cx.binop(op, acc, x, node)
        if r.type != acc.type:
            cx.error(f"{what}() with start of type {type_name(acc)} gives a {type_name(r)}: compiled "
                     "code keeps one type (give a start of the result's class)", node)
        return r
    if start and T.is_instance_type(start[0].type):
        return cx.reduce_loop(node, n, item, start[0], step)
    refuse_empty_sum(cx, cx.cmp("eq", n, Const(0, T.I64), node), op, node)
    init = start[0] if start else Const(0 if op is ast.Add else 1, T.I64)
    first = cx.binop(op, init, item(Const(0, T.I64)), node)
    rest = cx.emit("sub", [n, Const(1, T.I64)], T.I64, None, cx.loc(node))
    return cx.reduce_loop(node, rest, lambda i: item(cx.emit("add", [i, Const(1, T.I64)], T.I64, None, cx.loc(node))),
                          first, step)


def refuse_empty_sum(cx, empty: Value, op: type, node) -> None:
    """A TypeError when a ``sum(xs)`` (``math.prod(xs)``) of instances with no start or a
    number for one has no elements: CPython's result is then the number, which the compiled
    result, an instance, cannot hold (docs/differences.md)."""
    what = "sum" if op is ast.Add else "prod"
    cx.raise_if(empty, "TypeError", f"{what}() of no instances: CPython gives the start, a number, which "
                f"compiled code's result (an instance) cannot hold; give a start of their class", node)

# ---- containers and conversions ------------------------------------------------------


_CONVERSIONS = {"float": ("__float__",), "int": ("__int__", "__index__", "__trunc__"), "round": ("__round__",),
                "floor": ("__floor__",), "ceil": ("__ceil__",), "trunc": ("__trunc__",), "hash": ("__hash__",)}
_CONVERSION_ERRORS = {"float": "float() argument must be a string or a real number, not '{}'",
                      "int": "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                      "round": "type {} doesn't define __round__ method",
                      "floor": "must be real number, not {}", "ceil": "must be real number, not {}",
                      "trunc": "type {} doesn't define __trunc__ method", "hash": "unhashable type: '{}'"}


@per_instance(0)
def instance_conversion(cx, v: Value, name: str, args: list, node) -> Value:
    """``float(x)``, ``int(x)``, ``round(x[, n])``, ``math.floor/ceil/trunc(x)``, ``hash(x)``
    of an instance: the class's special method (CPython's order for ``int``: ``__int__``,
    ``__index__``, ``__trunc__``), else CPython's TypeError as a CompileError."""
    for method in _CONVERSIONS[name]:
        r = call_special(cx, v, method, args, node)
        if r is not None:
            return r
    cls = class_of(v)
    if name == "hash" and not any("__hash__" in vars(k) for k in cls.__mro__[:-1]):
        cx.error(f"hash() of a '{cls.__name__}' instance is its address in CPython (object.__hash__): "
                 "not supported in compiled code", node)
    cx.error(_CONVERSION_ERRORS[name].format(type_name(v)), node)


@per_instance(0)
def instance_len(cx, v: Value, node) -> Value:
    n = call_special(cx, v, "__len__", [], node, f"object of type '{type_name(v)}' has no len()")
    if not isinstance(n.type, (T.IntType, T.BoolType)):
        cx.error(f"'{type_name(n)}' object cannot be interpreted as an integer", node)
    n = cx.coerce(n, T.I64, node)
    cx.raise_if(cx.cmp("lt", n, Const(0, T.I64), node), "ValueError", "__len__() should return >= 0", node)
    return n


@per_instance(0)
def instance_truth(cx, v: Value, node) -> Value:
    """``bool(v)``: ``__bool__``, else ``len(v) != 0``, else True."""
    cls = class_of(v)
    if find_member(cls, "__bool__") is not None:
        r = call_special(cx, v, "__bool__", [], node)
        if not isinstance(r.type, T.BoolType):
            cx.error(f"__bool__ should return bool, returned {type_name(r)}", node)
        return r
    if find_member(cls, "__len__") is not None:
        return cx.cmp("ne", instance_len(cx, v, node), Const(0, T.I64), node)
    return Const(True, T.BOOL)


def instance_key(cx, index_node, node) -> Value:
    if isinstance(index_node, ast.Slice):
        cx.error("slicing an instance (a slice object passed to __getitem__) is not supported in "
                 "compiled code", node)
    return cx.expr(index_node)


@per_instance(0)
def instance_getitem(cx, v: Value, node: ast.Subscript) -> Value:
    return call_special(cx, v, "__getitem__", [instance_key(cx, node.slice, node)], node,
                        f"'{type_name(v)}' object is not subscriptable")


@per_instance(0)
def instance_setitem(cx, v: Value, index_node, value: Value, node) -> None:
    call_special(cx, v, "__setitem__", [instance_key(cx, index_node, node), value], node,
                 f"'{type_name(v)}' object does not support item assignment")


@per_instance(0)
def instance_delitem(cx, v: Value, index_node, node) -> None:
    call_special(cx, v, "__delitem__", [instance_key(cx, index_node, node)], node,
                 f"'{type_name(v)}' object doesn't support item deletion")


def instance_aug_item(cx, node: ast.AugAssign) -> None:
    """``v[k] op= x``: v and k evaluated once, ``__getitem__``, the operator, ``__setitem__``."""
    v = cx.expr(node.target.value)
    key = instance_key(cx, node.target.slice, node)
    current = call_special(cx, v, "__getitem__", [key], node, f"'{type_name(v)}' object is not subscriptable")
    value = cx.binop(type(node.op), current, cx.expr(node.value), node)
    call_special(cx, v, "__setitem__", [key, value], node,
                 f"'{type_name(v)}' object does not support item assignment")


@per_instance(1)
def instance_contains(cx, x: Value, v: Value, node) -> Value:
    cls = class_of(v)
    if find_member(cls, "__contains__") is None and (find_member(cls, "__iter__") is not None
                                                     or find_member(cls, "__getitem__") is not None):
        cx.error(f"'in' on a '{cls.__name__}' object without __contains__ (walking __iter__ or "
                 "__getitem__) is not supported in compiled code", node)
    r = call_special(cx, v, "__contains__", [x], node, f"argument of type '{type_name(v)}' is not iterable")
    return cx.truth(r, node)


@per_instance(0)
def instance_str(cx, v: Value, conversion: str, node) -> Value:
    """``str(v)`` (`conversion` "s") or ``repr(v)`` ("r")."""
    cls = class_of(v)
    names = ("__str__", "__repr__") if conversion != "r" else ("__repr__",)
    for name in names:
        fn = find_member(cls, name)
        if fn is None:
            continue
        r = dataclass_repr(cx, v, node) if is_made(fn) else call_special(cx, v, name, [], node)
        if not isinstance(r.type, T.StrType):
            cx.error(f"{name} returned non-string (type {type_name(r)})", node)
        return r
    cx.error(f"'{cls.__name__}' has no __str__ or __repr__: compiled code does not make object's "
             "default text (it holds an address)", node)


def dataclass_repr(cx, v: Value, node) -> Value:
    """A dataclass's generated ``__repr__``: ``Name(f=repr(value), ...)``."""
    cls = class_of(v)
    loc = cx.loc(node)
    tup = cx.emit("list_get", [v, Const(0, T.I64)], v.type.elem, None, loc)
    parts = [cx.str_constant(f"{cls.__qualname__}(", node)]
    shown = [f.name for f in dataclasses.fields(cls) if f.repr]
    for k, name in enumerate(n for n in v.type.fields if n in shown):
        field = cx.emit("extract", [tup], v.type.elem.elems[v.type.fields.index(name)],
                        v.type.fields.index(name), loc)
        parts.append(cx.str_constant(("" if k == 0 else ", ") + f"{name}=", node))
        parts.append(repr_of(cx, field, node))
    parts.append(cx.str_constant(")", node))
    return cx.str_join_parts(parts, node)


def repr_of(cx, v: Value, node) -> Value:
    return instance_str(cx, v, "r", node) if isinstance(v.type, T.ClassType) else cx.str_of(v, node, "r")


@per_instance(0)
def instance_format(cx, v: Value, spec: Value, node) -> Value:
    """``format(v, spec)``: object.__format__ (str(v) for an empty spec) or the class's."""
    if find_member(class_of(v), "__format__") is not None:
        return call_special(cx, v, "__format__", [spec], node)
    if not (isinstance(spec, Instr) and spec.opname == "str_const" and spec.attr == ""):
        cx.error(f"unsupported format string passed to {class_of(v).__name__}.__format__", node)
    return instance_str(cx, v, "s", node)


def instance_call(cx, v: Value, node: ast.Call) -> Value:
    if is_union(v):                     # the arguments evaluated once
        call = class_unions.evaluated_call(cx, node)
        return class_unions.per_class(
            cx, v, lambda x: instance_call(cx, x, class_unions.with_arguments(cx, call)), node)
    cls = class_of(v)
    fn = find_member(cls, "__call__")
    if fn is None:
        cx.error(f"'{cls.__name__}' object is not callable", node.func)
    return cx.call_script(cx.ctx.info_for(fn), node, first=v)


def instance_generator(cx, node, name: str = "__iter__"):
    """The FunctionInfo of method `name` when `node` gives an instance whose `name` is a
    generator function (walked as generators are: generators.py): a local name, an
    attribute chain from one (`self.left`, where a None is CPython's TypeError:
    `iter_instance`), or, for ``__iter__``, ``iter()`` of those."""
    if name == "__iter__" and iter_call(cx, node):
        node = node.args[0]
    t = _static_type(cx, node)
    if isinstance(t, T.OptionalType):
        t = t.value
    cls = lookup_class(t.key) if isinstance(t, T.ClassType) else None
    fn = find_member(cls, name) if cls is not None else None
    if not (inspect.isfunction(fn) and fn.__code__.co_flags & inspect.CO_GENERATOR):
        return None
    return cx.ctx.info_for(fn)


def iter_call(cx, node) -> bool:
    """Whether `node` calls the builtin iter() with one argument."""
    from script.frontend.pyref import global_callee
    return isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
        and not isinstance(node.args[0], ast.Starred) and global_callee(cx, node.func) is iter


def iter_instance(cx, node) -> Value:
    """The instance `node` walks (an `instance_generator` source): its value, CPython's
    TypeError where it is None."""
    v = optional.expr_opt(cx, node.args[0] if iter_call(cx, node) else node)
    return optional.unwrap(cx, v, node, "'NoneType' object is not iterable") if optional.is_optional(v) else v


def _static_type(cx, node):
    """The type of a local name, or of an attribute chain from one, known without building
    anything (the fields' types of the classes along it); None for anything else."""
    if isinstance(node, ast.Name):
        if node.id not in cx.locals or node.id in cx.held_gens \
                or (cx.comp_scopes and cx.comprehension_var(node.id)):
            return None
        return getattr(cx.lookup(node), "type", None)         # (no unwrap, no error: any local)
    if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
        return None
    t = _static_type(cx, node.value)
    if isinstance(t, T.OptionalType):
        t = t.value
    if not isinstance(t, T.ClassType) or node.attr not in t.fields:
        return None
    return t.elem.elems[list(t.fields).index(node.attr)]


def method_generator(cx, call: ast.Call):
    """The FunctionInfo of generator method m called as ``x.m(...)``, x a local holding
    an instance (its first parameter is x: generators.bind_generator_args), or None."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    return instance_generator(cx, func.value, func.attr)


def instance_iterable(cx, v: Value, node):
    """(length, item, type) of ``for x in v``: the iterable ``__iter__`` hands to iter()."""
    if is_union(v):
        cx.error("iterating over a value that holds an instance of one of several classes is not "
                 "supported in compiled code", node)
    if seq_iterators.is_seq_iterator(v.type):      # `it = iter(xs)`, then `for x in it`
        return seq_iterators.iterable(cx, v, node)
    cls = class_of(v)
    fn = find_member(cls, "__iter__")
    if fn is None:
        cx.error(f"'{cls.__name__}' object is not iterable", node)
    if inspect.isfunction(fn) and fn.__code__.co_flags & inspect.CO_GENERATOR:
        cx.error(f"'{cls.__name__}.__iter__' is a generator: compiled code walks it where the instance "
                 "is a local name or an attribute of one (`for x in obj`, `self.left`, `iter(obj)`), "
                 "not the value of another expression (assign it to a name first)", node)
    infos = cx.ctx.__dict__.setdefault("iter_infos", {})
    info = infos.get(id(fn))
    if info is None:
        try:
            info = infos[id(fn)] = (IterInfo(fn), fn)
        except ValueError:
            cx.error(f"'{cls.__name__}.__iter__' is neither a generator nor 'return iter(<list, tuple, str, "
                     "dict or array>)': compiled code walks only those forms of __iter__ (an iterator "
                     "class with __next__ is not supported)", node)
    call = ast.copy_location(ast.Call(func=ast.Name("$iter", ast.Load()), args=[], keywords=[]), node)
    seq = cx.call_script(info[0], call, leading=[v])
    return cx.iterable_value(seq, node)
