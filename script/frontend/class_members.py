"""Members of user classes other than fields and special methods: methods found through
single inheritance, properties, static and class methods, ``super()`` (docs/records.md).

Functions over the lowering `cx`.

- A class may derive from one other user class (and `abc.ABC`, which adds nothing compiled
  code keeps): methods, properties and constants are found along its MRO, as CPython finds
  them. Its fields are those its ``__init__`` assigns, with a base's ``__init__`` called as
  ``super().__init__(...)`` or ``Base.__init__(self, ...)`` as a statement: that call is
  the base's factory (records.FactoryInfo), whose fields it assigns in the base's order.
  An instance of a subclass is its own type: a variable, list or field holding instances of
  two classes is a CompileError (values have one static type).
- ``@property`` getters run on ``obj.p``, setters on ``obj.p = v``; ``@staticmethod`` and
  ``@classmethod`` are called as ``C.m(...)`` or ``obj.m(...)``, a class method with ``cls``
  bound to the class when compiling (static_args.py), so ``cls(...)`` constructs.
- ``super().m(...)`` in a method calls the next class's ``m`` after the method's own class
  (its ``__class__`` cell, as CPython's zero-argument super does).
"""

from __future__ import annotations

import abc
import ast
import sys

from script.errors import CompileError
from script.frontend.class_lookup import find_member
from script.frontend.class_methods import class_of
from script.frontend.static_args import Static
from script.frontend.pyref import PyRef, is_type_call
from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import class_methods, enum_values
from script.frontend.registry import ANY, METHODS

# Members no compiled instance can honour: each changes what plain attribute access or
# construction means.
REFUSED = ("__new__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__del__",
           "__set_name__", "__get__", "__set__", "__delete__", "__init_subclass__", "__class_getitem__")
ABC_KEYS = {"__abstractmethods__", "_abc_impl"}


def user_bases(cls: type) -> list[type]:
    """The user classes `cls` derives from, nearest first (not object, not abc.ABC)."""
    return [c for c in cls.__mro__[1:] if c not in (object, abc.ABC)]


def check_bases(cls: type, where: str) -> str | None:
    """The reason compiled code cannot take the bases of `cls`, or None."""
    from script.pyhooks.named_instance import is_record_class
    bases = [b for b in cls.__bases__ if b not in (object, abc.ABC)]
    if len(bases) > 1:
        names = ", ".join(b.__name__ for b in cls.__bases__)
        return f"class '{cls.__name__}' derives from {names}: compiled code takes single inheritance ({where})"
    if bases and not is_record_class(bases[0]):
        return (f"class '{cls.__name__}' derives from {bases[0].__name__}: compiled code takes classes "
                f"deriving from object or from one other user class ({where})")
    if type(cls) not in (type, abc.ABCMeta):
        return f"class '{cls.__name__}' has metaclass {type(cls).__name__}: not supported in compiled code ({where})"
    return None


def abstract_error(cls: type) -> str | None:
    """CPython's TypeError for instantiating `cls` while it has abstract methods, or None."""
    missing = sorted(getattr(cls, "__abstractmethods__", ()))
    if not missing:
        return None
    s = "s" if len(missing) > 1 else ""
    if sys.version_info >= (3, 12):
        names = ", ".join(f"'{m}'" for m in missing)
        return f"Can't instantiate abstract class {cls.__name__} without an implementation for abstract method{s} {names}"
    return f"Can't instantiate abstract class {cls.__name__} with abstract method{s} {', '.join(missing)}"


class BaseInit:
    """What a base class's ``__init__`` call in a factory names: compiled as that base's
    factory (records.FactoryInfo), which returns its fields."""

    def __init__(self, info):
        self._script_info = info


def defining_class(fn) -> type | None:
    """The class a method is written in: its ``__class__`` cell (made when it uses super())."""
    code = getattr(fn, "__code__", None)
    if code is None or "__class__" not in code.co_freevars:
        return None
    return fn.__closure__[code.co_freevars.index("__class__")].cell_contents


def next_class(cls: type, owner: type) -> list[type]:
    """The classes after `owner` in the MRO of `cls`: where super() looks."""
    mro = cls.__mro__
    return list(mro[mro.index(owner) + 1:]) if owner in mro else []


def base_init_target(factory, stmt: ast.stmt, self_name: str):
    """For a statement of `factory`'s ``__init__`` that is ``super().__init__(...)`` or
    ``Base.__init__(self, ...)``: (the base class, or None for object; the call's argument
    nodes and keywords). None for any other statement."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
        return None
    if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
        owner = defining_class(factory.py_func)
        if owner is None or func.value.args:
            return None
        after = [c for c in next_class(factory.cls, owner) if c is not abc.ABC]
        return after[0] if after and after[0] is not object else None, call.args, call.keywords
    if isinstance(func.value, ast.Name) and call.args and isinstance(call.args[0], ast.Name) \
            and call.args[0].id == self_name:
        found, base = factory.global_value(func.value.id)
        if found and isinstance(base, type) and base in factory.cls.__mro__[1:]:
            return base if base not in (object, abc.ABC) else None, call.args[1:], call.keywords
    return None


def rewrite_base_init(factory, stmt: ast.Expr, self_name: str, target, factory_for) -> ast.stmt:
    """The statement assigning a base's fields from its factory, in place of its
    ``__init__`` call `stmt` (`target`: base_init_target's answer; `factory_for`: records'
    of a class, passed in as records imports this module)."""
    base, args, keywords = target
    if base is None or "__init__" not in {k for c in base.__mro__ if c is not object for k in vars(c)}:
        return ast.copy_location(ast.Pass(), stmt)
    info = factory_for(base)
    if info.rest is not None:
        raise CompileError(f"{base.__name__}.__init__ calls a method, and {factory.cls.__name__}.__init__ calls "
                           f"it: not supported in compiled code (the base's __init__ may only assign fields "
                           "when a subclass calls it)", factory.loc(stmt))
    name = f"$init.{base.__qualname__}"
    factory.base_inits[name] = BaseInit(info)
    call = ast.Call(func=ast.Name(name, ast.Load()), args=args, keywords=keywords)
    if not info.fields:
        out: ast.stmt = ast.Expr(call)
    else:
        targets = [ast.Attribute(ast.Name(self_name, ast.Load()), f, ast.Store()) for f in info.fields]
        out = ast.Assign([ast.Tuple(targets, ast.Store())], call)
    return ast.fix_missing_locations(ast.copy_location(out, stmt))


def call_member(cx, cls: type, member, name: str, base: Value | None, node: ast.Call) -> Value:
    """A call of `member` (found on `cls` as `name`) with `base` the instance, if any."""
    if isinstance(member, staticmethod):
        return cx.call_script(cx.ctx.info_for(member.__func__), node)
    if isinstance(member, classmethod):
        return cx.call_script(cx.ctx.info_for(member.__func__), node, leading=[Static(cls)])
    if isinstance(member, property):
        cx.error(f"'{cls.__name__}.{name}' is a property: compiled code does not call what it returns", node)
    if callable(member) and hasattr(member, "__code__"):
        if base is None:
            return cx.call_script(cx.ctx.info_for(member), node)
        return cx.call_script(cx.ctx.info_for(member), node, first=base)
    cx.error(f"'{cls.__name__}' object has no method '{name}'", node)


def enum_method_call(cx, base: Value, node: ast.Call) -> Value:
    """``m.f(...)`` of a member `m` of a plain enum class: a method, static or class method
    the class defines (enum_values.own_member), called as on an instance."""
    cls = enum_values.class_of(base.type)
    name = node.func.attr
    member = enum_values.own_member(cls, name)
    if member is None:
        cx.error(f"'{cls.__name__}' members have no method '{name}' compiled code calls (their own methods, "
                 "properties, static and class methods, .name and .value)", node)
    return call_member(cx, cls, member, name, base, node)


METHODS.register(("enum", ANY), enum_method_call)


def enum_attribute(cx, base: Value, node: ast.Attribute) -> Value:
    """``m.p`` of a member `m` of a plain enum class: a property the class defines runs, as
    on an instance; `.name` and `.value` are read (enum_values.attribute)."""
    member = enum_values.own_member(enum_values.class_of(base.type), node.attr)
    if isinstance(member, property) and member.fget is not None:
        return class_methods.call_method(cx, member.fget, [base], node)
    if member is not None:
        cx.error(f"'{base.type.name}.{node.attr}' is a method: compiled code calls it (`m.{node.attr}(...)`), "
                 "it is not a value", node)
    return enum_values.attribute(cx, base, node)


def property_get(cx, base: Value, name: str, node) -> Value | None:
    """``obj.p`` of a property p, or None when `name` is no property of the class."""
    member = find_member(class_of(base), name)
    if not isinstance(member, property):
        return None
    if member.fget is None:
        cx.error(f"property '{name}' of '{base.type.name}' object has no getter", node)
    return class_methods.call_method(cx, member.fget, [base], node)


def property_set(cx, base: Value, name: str, value: Value, node) -> bool:
    """``obj.p = value`` of a property p (its setter); False when `name` is no property."""
    member = find_member(class_of(base), name)
    if not isinstance(member, property):
        return False
    if member.fset is None:
        cx.error(f"property '{name}' of '{base.type.name}' object has no setter", node)
    class_methods.call_method(cx, member.fset, [base, value], node)
    return True


def class_method_call(cx, obj, node: ast.Call) -> Value | None:
    """``C.m(...)`` of a class method m of a user class or a plain enum class (a method bound
    to the class)."""
    from script.pyhooks.named_instance import is_record_class
    owner = getattr(obj, "__self__", None)
    if not (isinstance(owner, type) and (is_record_class(owner) or enum_values.is_plain_enum_class(owner))
            and hasattr(obj, "__func__")):
        return None
    return cx.call_script(cx.ctx.info_for(obj.__func__), node, leading=[Static(owner)])


def class_ref(cx, node: ast.Call):
    """``type(x)`` where a class is wanted (``type(obj).__name__``, ``type(obj)(...)``,
    ``type(x) == int``): the class CPython holds there (instance_test.python_class),
    known when compiling."""
    from script.frontend.instance_test import python_class
    if len(node.args) != 1 or node.keywords:
        cx.error("type() with other than one argument is not supported in compiled code", node)
    v = cx.expr(node.args[0])
    cls = python_class(v.type)
    if cls is None:
        cx.error(f"type() of a value of type {v.type} is not supported in compiled code (of a value "
                 "that holds an instance of one of several classes, neither)", node)
    cls = cx.source_class(node.args[0], cls)            # a deque, a Counter, ...: python_classes.py
    return PyRef(cls, cls.__name__)


def optional_type_name(cx, call: ast.Call, node: ast.Attribute):
    """``type(v).__name__`` of an optional `v` (None, or a value of one class): the name of
    the class it holds when it runs; None where `v` is no optional (`class_ref` decides)."""
    from script.frontend import mixed_numbers, optional
    from script.frontend.instance_test import python_class

    def text(name: str) -> Value:
        return cx.emit("str_const", [], T.STR, name, cx.loc(node))
    if len(call.args) != 1 or call.keywords:
        return None
    v = optional.expr_opt(cx, call.args[0])
    if not optional.is_optional(v):
        cx.pre_evaluated[id(call.args[0])] = v     # (evaluated once: class_ref reads it)
        return None

    def held(w):            # (an opt[num]: the int or the float it holds)
        if mixed_numbers.is_num(w):
            return mixed_numbers.split(cx, [w], held, node)
        cls = python_class(w.type)
        if cls is None:
            cx.error(f"type() of a value of type {w.type} is not supported in compiled code", node)
        return text(getattr(cls, node.attr))
    return cx.choose(optional.present(cx, v, node), lambda: held(optional.value_of(cx, v, node)),
                     lambda: text("NoneType"), node)


def static_class_compare(cx, node: ast.Compare) -> Value | None:
    """``type(a) == type(b)`` (``is``, ``!=``, ``is not``; a side may name a class):
    decided when compiling, as classes are known then; None for other comparisons."""
    if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
        return None
    sides = [node.left, node.comparators[0]]
    if not any(is_type_call(cx, s) for s in sides):
        return None
    refs = [cx.callee_ref(s) if isinstance(s, (ast.Name, ast.Attribute, ast.Call)) else None for s in sides]
    if not all(isinstance(r, PyRef) and isinstance(r.obj, type) for r in refs):
        cx.error("type(x) is compared only with a class or another type(y) in compiled code", node)
    same = refs[0].obj is refs[1].obj
    return Const(same if isinstance(node.ops[0], (ast.Eq, ast.Is)) else not same, T.BOOL, cx.loc(node))


def is_super_call(cx, node) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
            and "super" not in cx.locals and not node.args and not node.keywords)


def super_member(cx, node: ast.Attribute):
    """(the instance, the class, the member) ``super().name`` finds in a method."""
    owner = defining_class(cx.info.py_func)
    args = cx.info.node.args.posonlyargs + cx.info.node.args.args
    if owner is None or not args:
        cx.error("super() is supported in compiled code only inside a method of a class", node)
    me = cx.expr(ast.copy_location(ast.Name(args[0].arg, ast.Load()), node))
    cls = class_of(me)
    if cls is None:
        cx.error("super() is supported in compiled code only in methods called on an instance", node)
    for c in next_class(cls, owner):
        if c is object:
            break
        if node.attr in vars(c):
            return me, cls, vars(c)[node.attr]
    cx.error(f"'super' object has no attribute '{node.attr}'", node)


def super_call(cx, node: ast.Call) -> Value:
    """``super().m(...)``."""
    me, cls, member = super_member(cx, node.func)
    if isinstance(member, property):
        cx.error("calling what a property of super() returns is not supported in compiled code", node)
    return call_member(cx, cls, member, node.func.attr, me, node)


def super_attribute(cx, node: ast.Attribute) -> Value:
    """``super().p`` of a property p or a constant."""
    me, cls, member = super_member(cx, node)
    if isinstance(member, property) and member.fget is not None:
        return class_methods.call_method(cx, member.fget, [me], node)
    if isinstance(member, (bool, int, float, str)):
        return cx.python_object(member, node.attr, node)
    cx.error(f"super().{node.attr} is only supported in calls, for properties and constants", node)
