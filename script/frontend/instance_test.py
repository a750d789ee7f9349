"""`isinstance(x, T)` in compiled code: decided when the function is compiled.

Every value has one static type per specialization, so `isinstance` is a constant: the
branch it guards is the only one built (`if isinstance(x, int): ... else: ...` in an
unannotated function compiles one side per argument type, and the other side may use
operations that the argument's type does not have).

The answer is CPython's own: `issubclass(C, T)` for the Python class `C` that a CPython run
holds where compiled code holds a value of the static type (`python_class`), with `T`
whatever CPython accepts there (a class, a tuple of them, nested, a union `int | float`, an
abstract class such as `numbers.Real`). The compiled model of values (docs/language.md,
"Differences from CPython"): `bool`, `int` and `float` values are Python's `bool`, `int` and `float`; sized
scalars (`script.i32`, an element read from an `int32` array) are NumPy scalars (`np.int32`),
as element-wise code already treats them (NEP 50). One difference follows: an element read
from an `int64` or `bool` array is a NumPy scalar in CPython (`isinstance(a[0], int)` is
False there) and an `int`/`bool` compiled (True, as in Numba). An element read from a
`float64` array is a `float` in both (`np.float64` subclasses `float`), except against NumPy's
own classes (`np.floating`, `np.float64`), which CPython answers True and compiled code False.

The first argument is evaluated (for its side effects and errors) and then unused.
"""

from __future__ import annotations

import ast

from script.frontend import class_unions, mixed_numbers, optional
from script.frontend.closures import NestedFunction
from script.frontend.static_args import Static, call_argument
from script.frontend.unknown import UNKNOWN, Undef, Unknown, has_unknown
from script.frontend.typeinfer import SizedType
from script.frontend.pyref import PyRef, Undefined, is_type_call
from script.ir import types as T
from script.ir.core import Const, Value

_ARG2 = "isinstance() arg 2 must be a type, a tuple of types, or a union"


def python_class(t: T.Type):
    """The Python class of what CPython holds where compiled code holds a value of type `t`
    (the module docstring gives the model), or None for a type with no such class."""
    import numpy as np
    from script.frontend.typeinfer import numpy_name
    if isinstance(t, T.BoolType):
        return bool
    if t == T.I64:
        return int
    if t == T.F64:
        return float
    if t == T.C128:
        return complex
    if t == T.C64:
        return np.complex64
    if isinstance(t, (T.IntType, T.FloatType)):
        return np.dtype(numpy_name(t)).type
    if isinstance(t, T.NoneType):
        return type(None)
    if T.is_instance_union(t) or isinstance(t, (T.IntFloatType, T.UnionType, T.OptionalType)):
        return None                     # one of several classes (class_unions.py, union_values.py)
    if isinstance(t, T.StrType):
        return str
    if isinstance(t, T.BytesType):
        return bytes
    if isinstance(t, (T.NamedTupleType, T.ClassType, T.EnumType)):     # the user's class (docs/records.md)
        from script.pyhooks.named_instance import STAND_INS, lookup_class
        return lookup_class(STAND_INS.get(t.key, t.key))    # (a stand-in's: the library class)
    if isinstance(t, T.TupleType):
        return tuple
    if isinstance(t, T.ArrayType):
        return np.ndarray
    if isinstance(t, T.ListType):
        return list
    if isinstance(t, T.HashType):
        return set if isinstance(t, T.SetType) else dict
    return None


def lower_isinstance(self, node: ast.Call, name: str) -> Value:
    """The handler of `isinstance` (builtins_lowering); `self` is the FunctionLowering."""
    if node.keywords:
        self.error("isinstance() takes no keyword arguments", node)
    if len(node.args) != 2:
        self.error(f"isinstance expected 2 arguments, got {len(node.args)}", node)
    undefined = next((r.obj for n in ast.walk(node.args[1]) if isinstance(n, ast.Name) and n.id not in self.locals
                      for r in [self.lookup(n)] if isinstance(r, PyRef) and isinstance(r.obj, Undefined)), None)
    if undefined is not None:           # `isinstance(x, Missing)`: CPython's NameError, x evaluated first
        optional.expr_opt(self, node.args[0], num=True)
        return self.name_error(undefined, node)
    spec = class_spec(self, node.args[1])
    value = optional.expr_opt(self, node.args[0], num=True)
    def held(num):          # an int or a float: tested on the one it holds
        return mixed_numbers.split(self, [num], lambda v: Const(issubclass(python_class(v.type), spec), T.BOOL,
                                                                self.loc(node)), node)
    if mixed_numbers.is_num(value):
        return held(value)
    maybe = isinstance(getattr(value, "type", None), T.OptionalType)
    if maybe and isinstance(value.type.value, T.IntFloatType):     # None, an int or a float
        inner = optional.value_of(self, value, node)
        return self.choose(optional.present(self, value, node), lambda: held(inner),
                           lambda: Const(issubclass(type(None), spec), T.BOOL, self.loc(node)), node)
    if not isinstance(value, Value):
        self.error("isinstance() of a function or module is not supported in compiled code", node.args[0])
    if isinstance(value, Undef) and isinstance(value.type, Unknown) or has_unknown(value.type):
        return Undef(UNKNOWN, self.loc(node))
    if T.is_instance_union(value.type):
        return class_unions.union_isinstance(self, value, spec, node)
    cls = python_class(value.type.value if maybe else value.type)
    if cls is None:
        self.error(f"isinstance() of a value of type {value.type} is not supported in compiled code",
                   node.args[0])
    cls = self.source_class(node.args[0], cls)          # a deque, a Counter, ...: python_classes.py
    if maybe and issubclass(cls, spec) != issubclass(type(None), spec):     # an instance or None
        return optional.present(self, value, node) if issubclass(cls, spec) else optional.absent(self, value, node)
    return Const(issubclass(cls, spec), T.BOOL, self.loc(node))


def class_spec(self, node: ast.expr):
    """The second argument as the Python object CPython would receive: a class, a tuple
    of specs, or a union; anything else is the TypeError CPython raises, at compile time."""
    if isinstance(node, ast.Tuple):
        return tuple(class_spec(self, e) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = (type(None) if isinstance(n, ast.Constant) and n.value is None else class_spec(self, n)
                       for n in (node.left, node.right))
        try:
            return left | right
        except TypeError:
            self.error(_ARG2, node)
    if isinstance(node, ast.Constant) and node.value is None:
        self.error(_ARG2, node)
    ref = self.callee_ref(node) if isinstance(node, (ast.Name, ast.Attribute)) or is_type_call(self, node) else None
    if not isinstance(ref, PyRef):
        self.error(_ARG2 + " known when the function is compiled (a class, or a global "
                   "tuple of classes)", node)
    obj = ref.obj
    if isinstance(obj, SizedType):
        self.error(f"{obj!r} is an annotation, not a class: CPython's isinstance() rejects "
                   f"it; use the NumPy scalar type (np.{_numpy_name(obj)})", node)
    try:
        issubclass(int, obj)
    except TypeError:
        self.error(_ARG2, node)
    return obj


def _numpy_name(sized) -> str:
    from script.frontend.typeinfer import numpy_name
    name = numpy_name(sized.ir_type)
    return "bool_" if name == "bool" else name


def _attribute_name(self, node: ast.Call, fn: str, counts: tuple) -> str:
    if node.keywords or len(node.args) not in counts:
        self.error(f"{fn}() takes {' or '.join(map(str, counts))} positional arguments here", node)
    name = node.args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        self.error(f"{fn}() with an attribute name that is not a constant str is not supported in "
                   "compiled code (the attribute must be known when the function is compiled)", name)
    return name.value


def _has_attribute(self, value: Value, attr: str, node) -> bool:
    """Whether CPython's `hasattr` is True of what compiled code holds as `value`."""
    t = value.type
    cls = python_class(t)
    if cls is None:
        self.error(f"hasattr() of a value of type {t} is not supported in compiled code", node)
    return attr in getattr(t, "fields", ()) or hasattr(cls, attr)


def lower_hasattr(self, node: ast.Call, name: str) -> Value:
    """`hasattr(x, "name")`: decided when the function is compiled, from the class CPython
    would hold (`python_class`) and, for the user's classes, their fields."""
    attr = _attribute_name(self, node, "hasattr", (2,))
    value = self.expr(node.args[0])
    if has_unknown(value.type):
        return Undef(UNKNOWN, self.loc(node))
    return Const(_has_attribute(self, value, attr, node.args[0]), T.BOOL, self.loc(node))


def lower_callable(self, node: ast.Call, name: str) -> Value:
    """`callable(x)`: decided when the function is compiled. A name of a function, class or
    builtin (a global, a nested function, an argument bound to one: static_args) is
    callable; a value is when the class CPython would hold has `__call__` (a user's class
    that defines it; no number, str or container)."""
    if node.keywords or len(node.args) != 1:
        self.error(f"callable() takes exactly one argument ({len(node.args)} given)", node)
    arg = call_argument(self, node.args[0])
    loc = self.loc(node)
    if isinstance(arg, Static):
        obj = arg.obj
        return Const(not isinstance(obj, str) and (isinstance(obj, NestedFunction) or callable(obj)), T.BOOL, loc)
    if has_unknown(arg.type):
        return Undef(UNKNOWN, loc)
    cls = python_class(arg.type)
    if cls is None:
        self.error(f"callable() of a value of type {arg.type} is not supported in compiled code", node)
    return Const(any("__call__" in vars(c) for c in getattr(cls, "__mro__", ())), T.BOOL, loc)


def lower_getattr(self, node: ast.Call, name: str) -> Value:
    """`getattr(x, "name")` is `x.name`; `getattr(x, "name", default)` is `default` where
    `hasattr` is False (the default is then all that is evaluated beside `x`)."""
    attr = _attribute_name(self, node, "getattr", (2, 3))
    target = ast.copy_location(ast.Attribute(value=node.args[0], attr=attr, ctx=ast.Load()), node)
    if len(node.args) == 2:
        return self.expr(target)
    value = self.expr(node.args[0])
    if has_unknown(value.type):
        return Undef(UNKNOWN, self.loc(node))
    if not _has_attribute(self, value, attr, node.args[0]):
        return self.expr(node.args[2])
    self.pre_evaluated[id(node.args[0])] = value
    return self.expr(target)
