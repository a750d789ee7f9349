"""Instances of plain module-level classes in compiled code (docs/records.md).

Functions over the lowering `cx`. A class whose only base is `object`,
with an ``__init__`` that assigns ``self.field = ...`` and plain methods (or a
``@dataclass`` with annotated fields), is instantiated and used inside compiled code: an
instance is a `types.ClassType`, a reference to a record (a list of one tuple of the
fields), reference-counted as lists are, so two names for one instance see each other's
changes.

- Construction compiles ``__init__`` as a *factory*: the same body with ``self.f`` read and
  written as a local named ``self.f``, returning the tuple of the fields in the order the
  body first assigns them (`FactoryInfo`). A field's type is the type its value has there
  (or its annotation, ``self.items: list[int] = []``); later stores convert to it or are
  CompileErrors. A dataclass's generated ``__init__`` binds the arguments to its fields,
  converted to their annotated types (``field(default_factory=list)``, ``dict``, ``set``:
  an empty container made at the construction). An empty ``self.items = []`` is typed by
  the first store wherever it is (callee_hints.py: the factory returns it to the caller,
  whose methods and callees decide it). Fields hold what a list holds, dicts and sets.
- ``obj.f`` reads element f of the record's tuple; ``obj.f = v`` stores a new tuple.
- ``obj.m(...)`` compiles method m with ``self`` bound to `obj`, as a call of any Python
  function is (builtins_lowering `call_script`).

An instance returned to Python is boxed into an instance of its class (runtime.boxing). Special methods are
class_methods.py's; inheritance, properties, static and class methods class_members.py's.
"""

from __future__ import annotations

import abc
import ast
import copy
import dataclasses
import inspect
import typing

from script.errors import CompileError, SourceLoc
from script.frontend.class_lookup import find_member, slot_names
from script.frontend.class_members import (ABC_KEYS, REFUSED, abstract_error, base_init_target, check_bases,
                                           rewrite_base_init)
from script.frontend.class_methods import mixed_classes
from script.frontend.class_unions import is_union, lacks_attribute, per_instance
from script.frontend import class_members, class_methods, class_types, class_unions, init_rest, optional
from script.frontend.class_types import names_instances
from script.frontend.list_args import changes_python_type
from script.frontend.source import FunctionInfo, _assigned_names
from script.frontend.pyref import PyRef
from script.frontend.unknown import Unknown
from script.ir import types as T
from script.ir.core import Const, Value
from script.pyhooks.named_instance import CLASSES, STAND_INS, lookup_class

_OWN_KEYS = {"__module__", "__doc__", "__qualname__", "__dict__", "__weakref__", "__firstlineno__",
             "__static_attributes__", "__annotations__", "__init__", "__match_args__",
             "__dataclass_fields__", "__dataclass_params__", "__hash__", "__annotate_func__",
             "__annotations_cache__",
             "__slotnames__"} | ABC_KEYS       # (copyreg's cache: a class copied or pickled once)
_DATACLASS_MADE = {"__eq__", "__repr__"}        # what @dataclass writes; never compiled
_FACTORIES: dict[type, "FactoryInfo"] = {}
_EMPTY_FACTORIES = (list, dict, set)      # dataclasses.field(default_factory=...) compiled code makes
_PYTHON_NUMBERS = (T.I64, T.F64, T.BOOL, T.INT_FLOAT)


def _is_dataclass_init(cls: type) -> bool:
    init = vars(cls).get("__init__")
    return dataclasses.is_dataclass(cls) and (init is None or init.__code__.co_filename.startswith("<"))


def _where(cls: type, member=None) -> str:
    code = getattr(member, "__code__", None) or getattr(getattr(member, "fget", None), "__code__", None)
    if code is not None:
        return f"{code.co_filename}:{code.co_firstlineno}"
    try:
        return f"{inspect.getsourcefile(cls)}:{inspect.getsourcelines(cls)[1]}"
    except (OSError, TypeError):
        return cls.__module__


class FactoryInfo(FunctionInfo):
    """``__init__`` of class `cls` as a function of its arguments returning the tuple of the
    fields (the module docstring). `fields`: their names, in the order first assigned."""

    def __init__(self, cls: type):
        self.base_inits: dict[str, object] = {}     # "$init.Base" -> its factory (class_members.py)
        super().__init__(cls.__init__)
        self.cls = cls
        node = copy.deepcopy(self.node)
        if not node.args.args:
            raise CompileError(f"{cls.__name__}.__init__ takes no 'self'", self.loc(node))
        self_name = node.args.args[0].arg
        split = init_rest.split_point(cls, node.body, self_name)
        rest = node.body[split:] if split is not None else []
        node.body = node.body[:split] if split is not None else node.body
        rewrite = _SelfFields(self, cls, self_name)
        node.body = [rewrite.visit(s) for s in node.body]
        self.fields = rewrite.fields
        # `self.build()` in __init__: the statements from it on run on the built instance
        self.rest: init_rest.RestInfo | None = None
        self.late: list[str] = []       # fields the rest assigns first: placeholders until then
        carried: list[str] = []
        if rest:
            self.late = init_rest.late_fields(cls, self, rest, self_name, self.fields)
            moved = init_rest.hoistable(cls, rest, self_name, self.late)    # `self.items = []`
            node.body += [rewrite.visit(rest[i]) for i in moved]            # (self.fields grows)
            rest = [stmt for i, stmt in enumerate(rest) if i not in moved]
            carried = [n for n in init_rest.carried_names(self.param_names, node.body, rest)
                       if n not in self.hidden_globals and n != self_name]
            self.rest = init_rest.RestInfo(cls, self_name, rest, carried)
        allowed = slot_names(cls)
        extra = [f for f in self.fields + self.late if allowed is not None and f not in allowed]
        if extra:
            raise CompileError(f"'{cls.__name__}' object has no attribute '{extra[0]}' (its __slots__ do not "
                               f"name it): CPython's AttributeError in __init__", self.loc(node))
        last = node.body[-1] if node.body else node
        ret = ast.Return(ast.Tuple([ast.Name(f"self.{f}", ast.Load()) for f in self.fields]
                                   + [ast.Name(n, ast.Load()) for n in carried], ast.Load()))
        node.body.append(ast.fix_missing_locations(ast.copy_location(ret, last)))
        for n in ast.walk(ret):
            ast.copy_location(n, last)
        node.args.args = node.args.args[1:]
        self.node = node
        self.name = f"{cls.__name__}.__init__"
        self.n_positional -= 1
        self.param_names = self.param_names[1:]
        self.param_types = self.param_types[1:]
        self.param_hints = self.param_hints[1:]
        self.local_names = frozenset(_assigned_names(node)) | frozenset(self.param_names)
        self.is_annotated = all(t is not None for t in self.param_types)
        self.return_type = None

    def global_value(self, name: str):
        if name in self.base_inits:
            return True, self.base_inits[name]
        return super().global_value(name)


class _SelfFields(ast.NodeTransformer):
    """`FactoryInfo`'s rewrite of ``self.f`` to the local ``self.f``."""

    def __init__(self, info: FunctionInfo, cls: type, self_name: str):
        self.info, self.cls, self.self_name = info, cls, self_name
        self.fields: list[str] = []

    def _fail(self, message: str, node):
        raise CompileError(f"{self.cls.__name__}.__init__: {message}", self.info.loc(node))

    def visit_Attribute(self, node: ast.Attribute):
        if not (isinstance(node.value, ast.Name) and node.value.id == self.self_name):
            return self.generic_visit(node)
        if isinstance(node.ctx, ast.Store) and node.attr not in self.fields:
            self.fields.append(node.attr)
        if isinstance(node.ctx, ast.Store) and isinstance(find_member(self.cls, node.attr), property):
            self._fail(f"assigns property '{node.attr}' (its setter would run): not supported in compiled "
                       "code; assign the field the setter sets", node)
        if node.attr not in self.fields:
            value = find_member(self.cls, node.attr)      # (a method or property: init_rest.py)
            if isinstance(value, (bool, int, float, str)):
                return ast.copy_location(ast.Constant(value), node)
            self._fail(f"reads self.{node.attr} before assigning it", node)
        return ast.copy_location(ast.Name(f"self.{node.attr}", node.ctx), node)

    def visit_AnnAssign(self, node: ast.AnnAssign):
        node = self.generic_visit(node)
        node.simple = 1
        return node

    def visit_Expr(self, node: ast.Expr):
        target = base_init_target(self.info, node, self.self_name)
        if target is not None:              # super().__init__(...): the base's fields
            return self.visit(rewrite_base_init(self.info, node, self.self_name, target, factory_for))
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name):
        if node.id == self.self_name:
            self._fail(f"uses '{self.self_name}' other than as self.field: compiled code builds the "
                       "instance after __init__ assigns its fields", node)
        return node

    def visit_Return(self, node: ast.Return):
        self._fail("'return' in __init__ is not supported in compiled code", node)

    def visit_FunctionDef(self, node):
        return node             # a nested function: rejected where the body is compiled


def check_class(cls: type) -> None:
    """CompileError (at the class's line) for a class compiled code cannot instantiate."""
    name = cls.__name__
    if "<locals>" in cls.__qualname__:
        raise CompileError(f"class '{name}' is defined inside a function: compiled code takes only classes "
                           f"defined at module level ({_where(cls)})")
    problem = check_bases(cls, _where(cls))
    if problem is not None:
        raise CompileError(problem)
    for base in cls.__bases__:
        if base not in (object, abc.ABC):
            check_class(base)
    slots = slot_names(cls) or ()
    made = _DATACLASS_MADE if dataclasses.is_dataclass(cls) else set()
    if dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen:
        made = made | {"__setattr__", "__delattr__"}    # stores are CompileErrors (store_record_field)
    for key, member in vars(cls).items():
        if key in _OWN_KEYS or key in made or key in ("__slots__",) or key in slots and \
                type(member).__name__ == "member_descriptor":
            continue
        if key in REFUSED:
            raise CompileError(f"class '{name}' defines the special method {key}: not supported in compiled "
                               f"code ({_where(cls, member)})")
        if isinstance(member, (property, staticmethod, classmethod)) or member is None and key == "__hash__":
            continue
        if member is None and key in getattr(cls, "__dataclass_fields__", {}):
            continue                # a dataclass field's default None (class_types.py)
        if not inspect.isfunction(member) and not isinstance(member, (bool, int, float, str)):
            raise CompileError(f"class '{name}' has class attribute '{key}' of type {type(member).__name__}: "
                               f"compiled code reads only bool, int, float and str ones ({_where(cls)})")


def factory_for(cls: type) -> FactoryInfo:
    info = _FACTORIES.get(cls)
    if info is None:
        check_class(cls)
        info = _FACTORIES[cls] = FactoryInfo(cls)
    return info


def class_key(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def reject_boxed_instances(func, name: str) -> None:
    """CompileError when compiled function `func` (called from Python) returns a value that
    may hold an instance of one of several classes (class_unions.py): its record says which
    only inside compiled code. An instance of one class is boxed (runtime.boxing
    `record_box_helper`). An exception object is boxed alone, in a tuple or as a union's
    alternative (`return ValueError(...)` beside `return x`: runtime.boxing
    `_box_exception`); not as an element of a list, a dict or an optional."""
    if _holds_exception(func.ret_type, boxed=False):
        raise CompileError(f"'{name}' returns exception objects inside a container to Python "
                           f"({func.ret_type}): not supported in compiled code (return them alone or "
                           "in a tuple, raise them, or return their messages)", func.loc)
    if _has_union(func.ret_type):
        raise CompileError(f"'{name}' returns {_describe(func.ret_type)}, an instance of one of several "
                           "classes: not supported in compiled code (return one class's instances, or "
                           "their fields)", func.loc)
    model = _library_model(func.ret_type)
    if model is not None:
        raise CompileError(f"'{name}' returns an instance of class '{model}', which compiled code holds as "
                           "its own model of the standard library's class (queues.py): it cannot be "
                           "returned to Python", func.loc)


def _holds_exception(t, boxed: bool = True) -> bool:
    """Whether a value of type `t` may hold an exception object (not looking inside
    instances: a field of type exc is the class's own refusal); with `boxed` False, one the
    entry point cannot box: inside a list, a dict or an optional."""
    if isinstance(t, T.ExcType):
        return boxed
    if isinstance(t, T.ClassType):
        return False
    if isinstance(t, (T.ListType, T.VarTupleType)):
        return _holds_exception(t.elem)
    if isinstance(t, T.TupleType):      # (a union too: its tag, then its alternatives)
        return any(_holds_exception(e, boxed) for e in t.elems)
    if isinstance(t, T.OptionalType):
        return _holds_exception(t.value)
    if isinstance(t, T.DictType):
        return _holds_exception(t.value)
    return False


def _library_model(t, seen: frozenset = frozenset()) -> str | None:
    """The name of a class in `t` that is compiled code's stand-in for a library class (a
    `queue.Queue` made a record: its module is the frontend's), or None."""
    for x in T.instances(t) if not isinstance(t, T.ClassType) else [t]:
        if not isinstance(x, T.ClassType) or x.key in seen:
            continue
        if x.key.startswith("script.") and x.key not in STAND_INS:     # (a stand-in is boxed as its class)
            return x.name
        found = _library_model(x.elem, seen | {x.key})
        if found is not None:
            return found
    return None


def _has_union(t, seen: frozenset = frozenset()) -> bool:
    if T.is_instance_union(t):
        return True
    if isinstance(t, T.ClassType):
        if t.key in seen:
            return False    # (a class reaching itself: its fields are being looked at)
        seen = seen | {t.key}
    if isinstance(t, T.ListType):
        return _has_union(t.elem, seen)
    if isinstance(t, T.TupleType):
        return any(_has_union(e, seen) for e in t.elems)
    if isinstance(t, T.DictType):
        return _has_union(t.key, seen) or _has_union(t.value, seen)
    if isinstance(t, T.SetType):
        return _has_union(t.key, seen)
    return False


def _is_kind(t, ann) -> bool:
    """Whether a value of type `t` is a `list`, `dict` or `set`, as the bare annotation `ann` says."""
    kinds = {list: T.ListType, dict: T.DictType, set: T.SetType}
    return ann in kinds and isinstance(t, kinds[ann]) and not isinstance(t, T.ClassType)


def _describe(t) -> str:
    if isinstance(t, T.OptionalType) and isinstance(t.value, T.ClassType):
        return f"an instance of class '{t.value.name}' or None"
    return f"an instance of class '{t.name}'" if isinstance(t, T.ClassType) else f"a value holding instances ({t})"


def make_record(cx, cls: type, node: ast.Call) -> Value:
    """``C(args)``: a new record holding the fields ``__init__`` computes."""
    abstract = abstract_error(cls)
    if abstract is not None:
        cx.error(abstract, node)
    rest, carried = None, []
    try:
        if _is_dataclass_init(cls):
            check_class(cls)
            fields, values = _dataclass_fields(cx, cls, node)
            post = find_member(cls, "__post_init__")
            if post is not None:        # run on the instance, as a rest of __init__ (init_rest.py)
                rest = cx.ctx.info_for(post)
                if len(rest.param_names) != 1:
                    cx.error(f"dataclass '{cls.__name__}' passes InitVar fields to __post_init__: not supported "
                             "in compiled code", node)
                late = init_rest.late_fields(cls, rest, rest.node.body, rest.node.args.args[0].arg, fields)
                if late:
                    values = values + class_types.late_placeholders(cx, cls, class_key(cls), late, node)
                    fields = fields + late
        elif cls.__init__ is object.__init__:       # no fields
            check_class(cls)
            if node.args or node.keywords:
                cx.error(f"{cls.__name__}() takes no arguments", node)
            fields, values = [], []
        else:
            info = factory_for(cls)
            fields, rest = info.fields, info.rest
            values = cx.call_script(info, node)
            if not isinstance(values.type, T.TupleType):
                return values           # a round to be rebuilt (Unknown)
            values = [cx.emit("extract", [values], t, k, cx.loc(node)) for k, t in enumerate(values.type.elems)]
            values, carried = values[:len(fields)], values[len(fields):]
            values = _annotated_fields(cx, cls, fields, values, node)
            if info.late:               # in the order CPython first assigns them (init_rest.py)
                made = dict(zip(fields, values))
                waiting = [f for f in info.late if f not in made]
                made.update(zip(waiting, class_types.late_placeholders(cx, cls, class_key(cls), waiting, node)))
                fields = [f for f in fields if f not in info.late] + info.late
                values = [made[f] for f in fields]
    except CompileError as e:
        if e.loc is None:               # a class-level problem: shown at the construction
            cx.error(e.message, node)
        raise
    tabled = class_types.tabled_fields(cx, cls, class_key(cls), fields, values, node)
    t = T.ClassType(class_key(cls), fields, T.TupleType(tabled))
    for f, ft in zip(fields, t.elem.elems):
        if not T.is_field_type(ft):
            cx.error(f"field '{f}' of class '{cls.__name__}' is {ft}: compiled code keeps bools, "
                     "ints, floats, strs, lists, dicts, sets, arrays, instances (or None) and tuples "
                     "of them in fields", node)
    tup = cx.make_tuple(class_types.fit_fields(cx, t, values, node), node)
    CLASSES[t.key] = cls
    loc = cx.loc(node)
    record = cx.emit("list_new", [], t, None, loc)
    cx.resize_list(record, Const(1, T.I64), node)
    cx.emit("list_set", [record, tup, Const(0, T.I64)], T.NONE, None, loc)
    if rest is not None:                # __init__ from its first method call on (init_rest.py)
        call = ast.copy_location(ast.Call(func=node.func, args=[], keywords=[]), node)
        cx.call_script(rest, call, leading=(record, *carried))
    return record


def _annotated_fields(cx, cls: type, fields, values: list, node) -> list:
    """`values` converted to the class-level annotations of their fields (``x: float``
    in the class body), where there are any."""
    anns = vars(cls).get("__annotations__") or {}
    if not anns:
        return values
    from script.frontend.typeinfer import type_from_annotation
    out = []
    for f, v in zip(fields, values):
        t = type_from_annotation(anns[f]) if f in anns and not isinstance(anns[f], str) else None
        if t in _PYTHON_NUMBERS and v.type in _PYTHON_NUMBERS:
            t = None            # a hint: the number as it is (class_types.number_hint)
        if t is not None and v.type != t:
            if not T.is_convertible(v.type, t) or T.unify(t, v.type) != t:
                cx.error(f"field '{f}' of class '{cls.__name__}' is annotated {t}; __init__ gives it "
                         f"a {v.type}", node)
            v = cx.coerce(v, t, node)
        out.append(v)
    return out


def _dataclass_fields(cx, cls: type, node: ast.Call):
    """The fields of a dataclass's generated ``__init__``, bound as CPython binds them and
    converted to their annotated types, except that a number annotated `int`, `float` or
    `bool` keeps its own type (annotations are hints) and `Any` takes the value's."""
    from script.frontend.typeinfer import type_from_annotation
    fields = [f for f in dataclasses.fields(cls) if f.init]
    names = [f.name for f in fields]
    if len(node.args) > len(fields):
        cx.error(f"{cls.__name__}() takes {len(fields)} positional arguments but {len(node.args)} "
                 "were given", node)
    bound: list = [optional.expr_opt(cx, a) for a in node.args] + [None] * (len(fields) - len(node.args))
    for k in node.keywords:
        if k.arg not in names:
            cx.error(f"{cls.__name__}() got an unexpected keyword argument '{k.arg}'", k.value)
        if bound[names.index(k.arg)] is not None:
            cx.error(f"{cls.__name__}() got multiple values for argument '{k.arg}'", k.value)
        bound[names.index(k.arg)] = optional.expr_opt(cx, k.value)
    values = []
    for f, v in zip(fields, bound):
        ann = f.type
        if isinstance(ann, str):
            ann = eval(ann, vars(inspect.getmodule(cls)))  # noqa: S307 - the user's own annotation
        if v is None and f.default_factory in _EMPTY_FACTORIES:
            v = cx.expr(_factory_node(cx, f, node, names_instances(ann)))
            if ann is f.default_factory or names_instances(ann):    # (the stores decide)
                values.append(v)
                continue
        if v is None:
            if f.default is dataclasses.MISSING:
                what = "" if f.default_factory is dataclasses.MISSING else \
                    " (a default_factory other than list, dict or set is not supported)"
                cx.error(f"{cls.__name__}() missing required argument '{f.name}'{what}", node)
            v = cx.python_object(f.default, f.name, node)
            if not isinstance(v, Value):
                cx.error(f"the default of field '{f.name}' of {cls.__name__} is not a value compiled "
                         "code takes", node)
        t = type_from_annotation(ann)
        if t in _PYTHON_NUMBERS and v.type in _PYTHON_NUMBERS or ann is typing.Any:
            # a hint, as CPython has it: `x: float` given 1 holds the int 1 (a float stored
            # later makes the field an int|float: class_types.widen_on_store); `Any` the value's
            values.append(v)
            continue
        if t is None and (_is_kind(v.type, ann) or names_instances(ann)):
            t = v.type          # a bare `list`, `dict`, `set`, or instances: the value's types
        if t is None:
            cx.error(f"field '{f.name}' of dataclass '{cls.__name__}' has annotation {ann!r}, which "
                     "compiled code does not read", node)
        values.append(cx.coerce(v, t, node))
    return names, values


def _factory_node(cx, f: dataclasses.Field, node: ast.Call, shared: bool = False):
    """The empty `[]`, `{}` or `set()` a field's default_factory makes at construction
    `node`: one AST node per construction and field, the key of its pending types (per
    field alone where it holds instances, `shared`: all of them have one type then)."""
    made = cx.info.__dict__.setdefault("factory_nodes", {})
    key = (None if shared else id(node), f.name, id(f))
    if key not in made:
        empty = {list: ast.List([], ast.Load()), dict: ast.Dict([], []),
                 set: ast.Call(ast.Name("set", ast.Load()), [], [])}[f.default_factory]
        made[key] = (node, ast.fix_missing_locations(ast.copy_location(empty, node)))
    return made[key][1]


@per_instance(0, missing=lambda cx, x, node: lacks_attribute(cx, x, node.attr))
def record_field(cx, base: Value, node: ast.Attribute) -> Value:
    """``obj.f``: the field, or a constant class attribute."""
    t = base.type
    if node.attr in t.fields:
        k = t.fields.index(node.attr)
        loc = cx.loc(node)
        tup = cx.emit("list_get", [base, Const(0, T.I64)], t.elem, None, loc)
        return cx.emit("extract", [tup], t.elem.elems[k], k, loc)
    if node.attr == "__class__" and _has_class(cx, t):     # (obj.__class__.__name__)
        return PyRef(lookup_class(t.key), t.name)
    value = find_member(lookup_class(t.key), node.attr) if _has_class(cx, t) else None
    if isinstance(value, property):
        return class_members.property_get(cx, base, node.attr, node)
    if isinstance(value, (bool, int, float, str)):
        return cx.python_object(value, node.attr, node)
    if callable(value):
        cx.error(f"'{t.name}.{node.attr}' is a method: compiled code only calls it (obj.{node.attr}(...))", node)
    cx.error(f"'{t.name}' object has no attribute '{node.attr}'", node)


def _has_class(cx, t: T.ClassType) -> bool:
    try:
        lookup_class(t.key)
        return True
    except (ImportError, AttributeError, ValueError):
        return False


@per_instance(0)
def store_record_field(cx, base: Value, attr: str, value: Value, node) -> None:
    """``obj.f = value``: the record's tuple, with field f replaced."""
    t = base.type
    if attr not in t.fields and class_members.property_set(cx, base, attr, value, node):
        return
    if attr not in t.fields:
        cx.error(f"'{t.name}' object has no field '{attr}': compiled code takes the fields __init__ "
                 "assigns", node)
    params = getattr(lookup_class(t.key), "__dataclass_params__", None)
    if params is not None and params.frozen:
        cx.error(f"cannot assign to field '{attr}' of frozen dataclass '{t.name}'", node)
    k = t.fields.index(attr)
    ft = t.elem.elems[k]
    if isinstance(value.type, Unknown) and cx.unknown_recursion is not None:
        return      # a recursive call's result, not typed yet (`n.left = mirror(n.right)`):
        #             this round only looks for the return type; the next stores it
    if isinstance(ft, T.IntFloatType) and value.type in _PYTHON_NUMBERS or class_types.holds(ft, value.type):
        pass                                            # an int or a float into an int|float, a union
    elif T.merge(ft, value.type) == T.INT_FLOAT and value.type != ft:
        class_types.widen_on_store(cx, t, attr, value, node)       # the field becomes an int|float
        cx.error(f"field '{attr}' of '{t.name}' is {ft}; it cannot hold a {value.type}", node)
    elif value.type != ft and (T.unify(ft, value.type) != ft or T.bool_and_number(ft, value.type) or not (
            T.is_convertible(value.type, ft) or isinstance(ft, T.OptionalType))
            or isinstance(ft, T.OptionalType) and changes_python_type(value.type, ft)):   # (an int into opt[f64])
        class_types.widen_on_store(cx, t, attr, value, node)       # a field typed per class (class_types.py)
        cx.error(f"field '{attr}' of '{t.name}' is {ft}; it cannot hold a {value.type} (a field keeps "
                 "the type __init__ gave it)" + mixed_classes(ft, value.type), node)
    loc = cx.loc(node)
    tup = cx.emit("list_get", [base, Const(0, T.I64)], t.elem, None, loc)
    elems = [cx.emit("extract", [tup], et, j, loc) for j, et in enumerate(t.elem.elems)]
    elems[k] = cx.coerce(value, ft, node)
    cx.emit("list_set", [base, cx.emit("tuple", elems, t.elem, None, loc), Const(0, T.I64)],
            T.NONE, None, loc)


@per_instance(1, 2)
def record_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """A comparison with an instance: ``is`` is identity; the others are its class's
    special methods (class_methods.py), ``==`` identity without them."""
    if isinstance(op, (ast.Is, ast.IsNot)):
        return identity_compare(cx, op, a, b, node)
    return class_methods.instance_compare(cx, op, a, b, node)


def identity_compare(cx, op: ast.cmpop, a: Value, b: Value, node) -> Value:
    """``a is b`` (`list_same`), as ``object.__eq__`` (and ``is not``, ``!=``)."""
    negate = isinstance(op, (ast.IsNot, ast.NotEq))
    loc = cx.loc(node)
    if a.type != b.type:                # another class or value: never the same object
        return Const(negate, T.BOOL, loc)
    same = cx.emit("list_same", [a, b], T.BOOL, None, loc)
    return cx.emit("not", [same], T.BOOL, None, loc) if negate else same


def record_method(cx, base: Value, name: str, node: ast.Call) -> Value:
    """``obj.m(...)``: method m (found along the class's MRO) compiled with ``cx``
    bound to `obj`; a static or class method (class_members.py)."""
    if is_union(base):                  # the arguments evaluated once
        call = class_unions.evaluated_call(cx, node)

        def each(x):
            missing = lacks_attribute(cx, x, name)
            if missing is not None:
                return class_unions.raise_missing(cx, missing, node)
            return record_method(cx, x, name, class_unions.with_arguments(cx, call))
        return class_unions.per_class(cx, base, each, node)
    t = base.type
    if name in t.fields:
        cx.error(f"'{t.name}.{name}' is a field: compiled code does not call what it holds", node)
    cls = lookup_class(t.key)
    method = find_member(cls, name)
    if name == "__init__":
        cx.error(f"'{t.name}.{name}' cannot be called in compiled code (the instance is made once)", node)
    if method is None:
        cx.error(f"'{t.name}' object has no attribute '{name}'", node)
    return class_members.call_member(cx, cls, method, name, base, node)
