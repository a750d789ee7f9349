"""Special methods of user classes in compiled code (docs/records.md, "Special methods").

Requires the host class to be a `FunctionLowering`. Every value has one static type, so
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
  dataclass's generated ``__eq__`` (and ``order=True`` ones) compare the field tuples.
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

from script.frontend.class_lookup import find_member
from script.frontend import seq_iterators
from script.frontend.class_unions import is_union, per_instance
from script.frontend.source import FunctionInfo
from script.ir import types as T
from script.ir.core import Const, Instr, Value
from script.pyhooks.named_instance import lookup_class

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
          ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul", ast.BitAnd: "and", ast.BitOr: "or",
          ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift"}
SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
          ast.Pow: "** or pow()", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
          ast.LShift: "<<", ast.RShift: ">>"}
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
    number and the other a complex, what to write instead."""
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


class SpecialMethodLowering:
    """Mixin for FunctionLowering: the special methods of user classes."""

    # ---- calling them ---------------------------------------------------------------------

    def call_method(self, fn, args: list, node) -> Value | None:
        """Function `fn` called with the values `args`; None when it returns NotImplemented
        (on every path, for these types: see the module docstring)."""
        call = ast.copy_location(ast.Call(func=ast.Name("$method", ast.Load()), args=[], keywords=[]), node)
        result = self.call_script(self.ctx.info_for(fn), call, leading=args)
        callee = result.attr if isinstance(result, Instr) and result.opname == "call" else None
        if getattr(callee, "not_implemented", False):
            return None
        return result

    def call_special(self, v: Value, name: str, args: list, node, missing: str | None = None) -> Value | None:
        """``type(v).name(v, *args)``; None when the class has no such method or it returns
        NotImplemented, or the CompileError `missing` when given."""
        cls = class_of(v)
        fn = find_member(cls, name) if cls is not None else None
        if fn is None:
            if missing is not None:
                self.error(missing, node)
            return None
        if not inspect.isfunction(fn):
            self.error(f"'{cls.__name__}.{name}' is a {type(fn).__name__}: compiled code calls special "
                       "methods that are plain functions", node)
        return self.call_method(fn, [v, *args], node)

    def return_not_implemented(self, node: ast.Return) -> None:
        """``return NotImplemented`` (lower_stmt.stmt_Return): this specialization returns it,
        and nothing else (call_method sees the mark)."""
        if self.ret_type is not None and not isinstance(self.ret_type, T.NoneType):
            self._mixed_not_implemented(node)
        self.func.not_implemented = True
        self.do_return(None, node)

    def _mixed_not_implemented(self, node) -> None:
        self.error(f"'{self.info.name}' returns NotImplemented on one path and a value on another for "
                   "these argument types: compiled code decides a special method's dispatch when "
                   "compiling (return NotImplemented only under an isinstance test)", node)

    # ---- operators ------------------------------------------------------------------------

    @per_instance(1, 2)
    def instance_binop(self, op: type, a: Value, b: Value, node) -> Value:
        """``a op b`` (``a op= b`` when `node` is an AugAssign) with an instance operand."""
        name = BINARY.get(op)
        if name is None:
            self.error(f"operator {op.__name__} is not supported on instances", node)
        a, b = (self.materialize(v, node) if not isinstance(v, Value) else v for v in (a, b))
        if isinstance(node, ast.AugAssign):
            r = self.call_special(a, f"__i{name}__", [b], node)
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
            r = self.call_special(v, method, [other], node)
            if r is not None:
                return r
        symbol = SYMBOL[op] if not isinstance(node, ast.AugAssign) else _AUG_SYMBOL.get(op, SYMBOL[op]) + "="
        self.error(f"unsupported operand type(s) for {symbol}: '{type_name(a)}' and '{type_name(b)}'", node)

    @per_instance(1)
    def instance_unary(self, op: ast.unaryop, v: Value, node) -> Value:
        method, symbol = _UNARY[type(op)]
        return self.call_special(v, method, [], node, f"bad operand type for unary {symbol}: '{type_name(v)}'")

    @per_instance(0)
    def instance_abs(self, v: Value, node) -> Value:
        return self.call_special(v, "__abs__", [], node, f"bad operand type for abs(): '{type_name(v)}'")

    # ---- comparisons ----------------------------------------------------------------------

    def instance_compare(self, op: ast.cmpop, a: Value, b: Value, node) -> Value:
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
            r = self.compare_method(v, method, other, node)
            if r is not None:
                return r
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return self.identity_compare(op, a, b, node)        # records.py: object.__eq__
        self.error(f"'{symbol}' not supported between instances of '{type_name(a)}' and '{type_name(b)}'", node)

    def compare_method(self, v: Value, name: str, other: Value, node) -> Value | None:
        """``type(v).name(v, other)`` of a comparison method, or None: missing or
        NotImplemented. Covers the methods classes get made for them (``__ne__`` from
        ``__eq__``, total_ordering's, a dataclass's)."""
        cls = class_of(v)
        if cls is None:
            return None
        fn = find_member(cls, name)
        if fn is None and name == "__ne__":
            eq = self.compare_method(v, "__eq__", other, node)
            return None if eq is None else self._not(self.truth(eq, node), self.loc(node))
        if fn is None:
            return None
        if is_made(fn):
            return self.dataclass_compare(_OPS_OF[name](), v, other, node)
        derived = _TOTAL_ORDERING.get(getattr(fn, "__qualname__", "")) \
            if getattr(fn, "__module__", None) == "functools" else None
        if derived is not None:
            return self._total_ordering(derived, v, other, node)
        return self.call_special(v, name, [other], node)

    def dataclass_compare(self, op: ast.cmpop, a: Value, b: Value, node) -> Value | None:
        """A dataclass's generated comparison: the field tuples compared, for two instances
        of the very class (NotImplemented otherwise, as its code says)."""
        if a.type != b.type:
            return None
        loc = self.loc(node)
        cls = class_of(a)
        keep = [k for k, f in enumerate(a.type.fields)
                if f not in cls.__dataclass_fields__ or cls.__dataclass_fields__[f].compare]
        tuples = []
        for v in (a, b):
            tup = self.emit("list_get", [v, Const(0, T.I64)], v.type.elem, None, loc)
            parts = [self.emit("extract", [tup], v.type.elem.elems[k], k, loc) for k in keep]
            tuples.append(self.make_tuple(parts, node))
        return self.compare(op, tuples[0], tuples[1], node)

    def _total_ordering(self, derived: tuple, a: Value, b: Value, node) -> Value | None:
        root, negate, join = derived
        r = self.compare_method(a, root, b, node)
        if r is None:
            return None
        loc = self.loc(node)
        r = self.truth(r, node)
        if negate:
            r = self._not(r, loc)
        if join is None:
            return r
        other = (lambda: self.compare(ast.NotEq(), a, b, node)) if join == "and" else \
            (lambda: self.compare(ast.Eq(), a, b, node))
        if join == "and":
            return self.choose(r, lambda: self.truth(other(), node), lambda: Const(False, T.BOOL), node)
        return self.choose(r, lambda: Const(True, T.BOOL), lambda: self.truth(other(), node), node)

    def instance_sum(self, iterable, start: list, op: type, node) -> Value:
        """``sum(xs, start)`` (``math.prod``) of instances: ``start + x0 + x1 ...``, each a
        value of start's class."""
        n, item, et = iterable
        what = "sum" if op is ast.Add else "prod"
        if not start:
            self.error(f"{what}() of instances needs a start of their class in compiled code ({what}(xs, start)): "
                       f"the {what} of none is an int", node)

        def step(acc, x):
            r = self.binop(op, acc, x, node)
            if r.type != acc.type:
                self.error(f"{what}() with start of type {type_name(acc)} gives a {type_name(r)}: compiled "
                           "code keeps one type (give a start of the result's class)", node)
            return r
        return self.reduce_loop(node, n, item, start[0], step)

    # ---- containers and conversions ------------------------------------------------------

    @per_instance(0)
    def instance_len(self, v: Value, node) -> Value:
        n = self.call_special(v, "__len__", [], node, f"object of type '{type_name(v)}' has no len()")
        if not isinstance(n.type, (T.IntType, T.BoolType)):
            self.error(f"'{type_name(n)}' object cannot be interpreted as an integer", node)
        n = self.coerce(n, T.I64, node)
        self.raise_if(self.cmp("lt", n, Const(0, T.I64), node), "ValueError", "__len__() should return >= 0", node)
        return n

    @per_instance(0)
    def instance_truth(self, v: Value, node) -> Value:
        """``bool(v)``: ``__bool__``, else ``len(v) != 0``, else True."""
        cls = class_of(v)
        if find_member(cls, "__bool__") is not None:
            r = self.call_special(v, "__bool__", [], node)
            if not isinstance(r.type, T.BoolType):
                self.error(f"__bool__ should return bool, returned {type_name(r)}", node)
            return r
        if find_member(cls, "__len__") is not None:
            return self.cmp("ne", self.instance_len(v, node), Const(0, T.I64), node)
        return Const(True, T.BOOL)

    def instance_key(self, index_node, node) -> Value:
        if isinstance(index_node, ast.Slice):
            self.error("slicing an instance (a slice object passed to __getitem__) is not supported in "
                       "compiled code", node)
        return self.expr(index_node)

    @per_instance(0)
    def instance_getitem(self, v: Value, node: ast.Subscript) -> Value:
        return self.call_special(v, "__getitem__", [self.instance_key(node.slice, node)], node,
                                 f"'{type_name(v)}' object is not subscriptable")

    @per_instance(0)
    def instance_setitem(self, v: Value, index_node, value: Value, node) -> None:
        self.call_special(v, "__setitem__", [self.instance_key(index_node, node), value], node,
                          f"'{type_name(v)}' object does not support item assignment")

    @per_instance(0)
    def instance_delitem(self, v: Value, index_node, node) -> None:
        self.call_special(v, "__delitem__", [self.instance_key(index_node, node)], node,
                          f"'{type_name(v)}' object doesn't support item deletion")

    def instance_aug_item(self, node: ast.AugAssign) -> None:
        """``v[k] op= x``: v and k evaluated once, ``__getitem__``, the operator, ``__setitem__``."""
        v = self.expr(node.target.value)
        key = self.instance_key(node.target.slice, node)
        current = self.call_special(v, "__getitem__", [key], node, f"'{type_name(v)}' object is not subscriptable")
        value = self.binop(type(node.op), current, self.expr(node.value), node)
        self.call_special(v, "__setitem__", [key, value], node,
                          f"'{type_name(v)}' object does not support item assignment")

    @per_instance(1)
    def instance_contains(self, x: Value, v: Value, node) -> Value:
        cls = class_of(v)
        if find_member(cls, "__contains__") is None and (find_member(cls, "__iter__") is not None
                                                         or find_member(cls, "__getitem__") is not None):
            self.error(f"'in' on a '{cls.__name__}' object without __contains__ (walking __iter__ or "
                       "__getitem__) is not supported in compiled code", node)
        r = self.call_special(v, "__contains__", [x], node, f"argument of type '{type_name(v)}' is not iterable")
        return self.truth(r, node)

    @per_instance(0)
    def instance_str(self, v: Value, conversion: str, node) -> Value:
        """``str(v)`` (`conversion` "s") or ``repr(v)`` ("r")."""
        cls = class_of(v)
        names = ("__str__", "__repr__") if conversion != "r" else ("__repr__",)
        for name in names:
            fn = find_member(cls, name)
            if fn is None:
                continue
            r = self.dataclass_repr(v, node) if is_made(fn) else self.call_special(v, name, [], node)
            if not isinstance(r.type, T.StrType):
                self.error(f"{name} returned non-string (type {type_name(r)})", node)
            return r
        self.error(f"'{cls.__name__}' has no __str__ or __repr__: compiled code does not make object's "
                   "default text (it holds an address)", node)

    def dataclass_repr(self, v: Value, node) -> Value:
        """A dataclass's generated ``__repr__``: ``Name(f=repr(value), ...)``."""
        cls = class_of(v)
        loc = self.loc(node)
        tup = self.emit("list_get", [v, Const(0, T.I64)], v.type.elem, None, loc)
        parts = [self.str_constant(f"{cls.__qualname__}(", node)]
        shown = [f.name for f in dataclasses.fields(cls) if f.repr]
        for k, name in enumerate(n for n in v.type.fields if n in shown):
            field = self.emit("extract", [tup], v.type.elem.elems[v.type.fields.index(name)],
                              v.type.fields.index(name), loc)
            parts.append(self.str_constant(("" if k == 0 else ", ") + f"{name}=", node))
            parts.append(self.repr_of(field, node))
        parts.append(self.str_constant(")", node))
        return self.str_join_parts(parts, node)

    def repr_of(self, v: Value, node) -> Value:
        return self.instance_str(v, "r", node) if isinstance(v.type, T.ClassType) else self.str_of(v, node, "r")

    @per_instance(0)
    def instance_format(self, v: Value, spec: Value, node) -> Value:
        """``format(v, spec)``: object.__format__ (str(v) for an empty spec) or the class's."""
        if find_member(class_of(v), "__format__") is not None:
            return self.call_special(v, "__format__", [spec], node)
        if not (isinstance(spec, Instr) and spec.opname == "str_const" and spec.attr == ""):
            self.error(f"unsupported format string passed to {class_of(v).__name__}.__format__", node)
        return self.instance_str(v, "s", node)

    def instance_call(self, v: Value, node: ast.Call) -> Value:
        if is_union(v):                     # the arguments evaluated once (class_unions.py)
            call = self.evaluated_call(node)
            return self.per_class(v, lambda x: self.instance_call(x, self.with_arguments(call)), node)
        cls = class_of(v)
        fn = find_member(cls, "__call__")
        if fn is None:
            self.error(f"'{cls.__name__}' object is not callable", node.func)
        return self.call_script(self.ctx.info_for(fn), node, first=v)

    def instance_generator(self, node: ast.Name, name: str = "__iter__"):
        """The FunctionInfo of method `name` when local `node` holds an instance whose
        `name` is a generator function (walked as generators are: generators.py)."""
        if node.id not in self.locals or (self.comp_scopes and self.comprehension_var(node.id)):
            return None
        cls = class_of(self.lookup(node))           # (no unwrap, no error: any local)
        fn = find_member(cls, name) if cls is not None else None
        if not (inspect.isfunction(fn) and fn.__code__.co_flags & inspect.CO_GENERATOR):
            return None
        return self.ctx.info_for(fn)

    def method_generator(self, call: ast.Call):
        """The FunctionInfo of generator method m called as ``x.m(...)``, x a local holding
        an instance (its first parameter is x: generators._bind_generator_args), or None."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        return self.instance_generator(func.value, func.attr)

    def instance_iterable(self, v: Value, node):
        """(length, item, type) of ``for x in v``: the iterable ``__iter__`` hands to iter()."""
        if is_union(v):
            self.error("iterating over a value that holds an instance of one of several classes is not "
                       "supported in compiled code", node)
        if seq_iterators.is_seq_iterator(v.type):      # `it = iter(xs)`, then `for x in it`
            return seq_iterators.iterable(self, v, node)
        cls = class_of(v)
        fn = find_member(cls, "__iter__")
        if fn is None:
            self.error(f"'{cls.__name__}' object is not iterable", node)
        infos = self.ctx.__dict__.setdefault("iter_infos", {})
        info = infos.get(id(fn))
        if info is None:
            try:
                info = infos[id(fn)] = (IterInfo(fn), fn)
            except ValueError:
                self.error(f"'{cls.__name__}.__iter__' is not 'return iter(<list, tuple, str, dict or array>)': "
                           "compiled code walks only that form of __iter__ (a generator __iter__ or an "
                           "iterator class with __next__ is not supported)", node)
        call = ast.copy_location(ast.Call(func=ast.Name("$iter", ast.Load()), args=[], keywords=[]), node)
        seq = self.call_script(info[0], call, leading=[v])
        return self.iterable_value(seq, node)
