"""Arguments that are not values: functions and strings passed to compiled callees.

    def bisect(f, lo, hi, mode="fast"):
        ... f(mid) ...                   # f: a function, bound when bisect is compiled
        if mode == "fast": ...           # mode: a string, compared when bisect is compiled

    bisect(g, 0.0, 2.0)                  # g a global function, math.sin, an @script function,
    bisect(lambda x: x * k, 0.0, 1.0)    # a lambda or nested def (reading the caller's k)

Compiled code has no function or string values. An argument that is one — a name or
attribute naming a Python object that is not a value (a function, a builtin, a ufunc, a
dtype, a module), a lambda, a nested function, or a string constant — is bound when the
callee is compiled: the callee is specialized for it (`BoundFunctionInfo`), with that
parameter read as if it were a global of that value. Calls through it are direct calls, and
comparisons of bound strings (`mode == "fast"`, `mode in ("a", "b")`) are constants, so only
the branch taken is built, as for `isinstance`. A nested function or lambda that reads the
caller's variables brings them along as extra (hidden) parameters of the specialization,
read at the time of the call as closures are.

Requires: the parameter is not assigned in the callee (else the argument is an ordinary
value, and the usual CompileError names it).

Functions of the lowering (`cx`): `call_argument(cx, node)` and `bind_statics(cx, info,
bound, node)` for `call_script`, `static_str_compare(cx, node)` for `expr_Compare`.
"""

from __future__ import annotations

import ast

from script.frontend import closures, function_values, optional
from script.frontend.closures import NestedFunction, NestedFunctionInfo
from script.frontend.source import FunctionInfo
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const, Value


class Static:
    """A call argument that is bound when the callee is compiled: a Python object."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


class BoundClosure(NestedFunction):
    """A nested function passed to a callee: its free variables are the callee's hidden
    parameters `reads` (in the order of `info.free`)."""

    def __init__(self, info: NestedFunctionInfo, reads: list[str]):
        super().__init__(info)
        self.reads = reads


class BoundFunctionInfo(FunctionInfo):
    """`base` with the parameters in `bound` (name -> object) read as globals of those
    values, and `hidden` parameters (free variables of bound closures) first."""

    def __init__(self, base: FunctionInfo, bound: dict, hidden: list[str], suffix: str):
        self.__dict__.update(base.__dict__)
        for own in ("_synthetic_loops", "_nested_infos", "_bound_infos", "_escapes"):  # base's caches (specialize.PerInfo)
            self.__dict__.pop(own, None)
        self.base = base
        self.bound = bound
        keep = [k for k, n in enumerate(base.param_names) if n not in bound]
        self.param_names = hidden + [base.param_names[k] for k in keep]
        self.param_types = [None] * len(hidden) + [base.param_types[k] for k in keep]
        self.param_hints = [None] * len(hidden) + [base.param_hints[k] for k in keep]
        self.hinted_signature = None
        self.defaults = {k: v for k, v in base.defaults.items() if k not in bound}
        self.local_names = (base.local_names - frozenset(bound)) | frozenset(hidden)
        self.qualname = f"{base.qualname}.{suffix}"
        self.specializations = {}

    def global_value(self, name: str):
        if name in self.bound:
            return True, self.bound[name]
        return self.base.global_value(name)


def bind_objects(info: FunctionInfo, bound: dict) -> BoundFunctionInfo:
    """`info` with parameters `bound` (name -> a function or other object that is not a
    value) read as globals of those objects: the specialization a call from Python with
    such arguments gets (dispatcher `_call_bound`)."""
    return BoundFunctionInfo(info, bound, [], ".".join(_label(n, o) for n, o in bound.items()))


def _static_key(obj):
    if isinstance(obj, str):
        return ("str", obj)
    if isinstance(obj, NestedFunction):
        return ("closure", id(obj.info))
    return ("object", id(obj))


def _label(name: str, obj) -> str:
    text = obj if isinstance(obj, str) else getattr(obj, "__name__", type(obj).__name__)
    return name + "_" + "".join(c if c.isalnum() or c == "_" else "_" for c in str(text))[:24]


def call_argument(cx, node: ast.expr):
    """A call argument: its Value, or a Static when it names no value."""
    if id(node) in cx.pre_evaluated:
        return optional.expr_opt(cx, node)      # (an optional pre-evaluated stays one)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return Static(node.value)
    if isinstance(node, ast.Lambda):
        info = cx.ctx.nested_infos.get((cx.info, id(node)))
        if info is None:
            fn = closures.lambda_def(cx, "<lambda>", node)
            info = cx.ctx.nested_infos[(cx.info, id(node))] = \
                NestedFunctionInfo(cx.info, fn, cx.nested_functions)
        return Static(NestedFunction(info))
    if isinstance(node, (ast.Name, ast.Attribute)):
        ref = cx.lookup(node) if isinstance(node, ast.Name) else cx.attribute_ref(node)
        if getattr(ref, "opname", None) == "str_const":      # a name bound to a string
            return Static(ref.attr)
        if isinstance(ref, PyRef):
            return Static(ref.obj)
        held = function_values.static_of(cx, ref)        # g = add; apply(g, 3): function_values.py
        return Static(held) if held is not None else ref
    return optional.expr_opt(cx, node)          # a value that may be None stays one (optional.py)


def static_default(cx, value):
    """A default argument's value: a Static for a string or another non-value."""
    if getattr(value, "opname", None) == "str_const":
        return Static(value.attr)
    return Static(value.obj) if isinstance(value, PyRef) else value


def bind_statics(cx, info: FunctionInfo, bound: list, node) -> tuple[FunctionInfo, list[Value]]:
    """The specialization of `info` for the Static arguments in `bound` (one per
    parameter), and the values to pass it: the hidden ones, then the others."""
    names = info.param_names
    # A string the callee assigns to is passed as a value (it cannot be bound).
    bound = [cx.str_constant(v.obj, node) if isinstance(v, Static) and isinstance(v.obj, str)
             and is_assigned(info, n) else v for n, v in zip(names, bound)]
    statics = {n: v.obj for n, v in zip(names, bound) if isinstance(v, Static)}
    if not statics:
        return info, bound
    hidden: list[str] = []
    hidden_values: list[Value] = []
    objects = {}
    for n, obj in statics.items():
        if isinstance(obj, NestedFunction):
            free_names = getattr(obj, "reads", None) or obj.info.free
            reads = [f"{n}.{f}" for f in obj.info.free]
            hidden += reads
            hidden_values += [cx.read_local(f, node) for f in free_names]
            obj = BoundClosure(obj.info, reads)
        objects[n] = obj
    key = (info, tuple(sorted((n, _static_key(o)) for n, o in objects.items())))
    entry = cx.ctx.bound_infos.get(key)
    if entry is None:
        for n, obj in statics.items():
            if is_assigned(info, n):
                what = "a string" if isinstance(obj, str) else "a function or other object"
                cx.error(f"argument '{n}' of {info.name}() is {what}, which compiled code can "
                         "pass and call but not assign", node)
        suffix = ".".join(_label(n, o) for n, o in objects.items())
        entry = cx.ctx.bound_infos[key] = (BoundFunctionInfo(info, objects, hidden, suffix), info)
    values = hidden_values + [v for n, v in zip(names, bound) if n not in statics]
    return entry[0], values

# ---- strings known when compiling ------------------------------------------------------


def static_str(cx, node) -> str | tuple | None:
    """The string (or tuple of strings) `node` stands for when compiling, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Tuple) and node.elts:
        parts = [static_str(cx, e) for e in node.elts]
        return tuple(parts) if all(isinstance(p, str) for p in parts) else None
    if isinstance(node, ast.Name) and node.id not in cx.locals and node.id not in cx.nested_functions:
        found, obj = cx.info.global_value(node.id)
        if found and (isinstance(obj, str) or isinstance(obj, tuple) and obj
                      and all(isinstance(x, str) for x in obj)):
            return obj
    return None


def static_str_compare(cx, node: ast.Compare) -> Value | None:
    """`mode == "fast"`, `mode in ("a", "b")`, ... of strings known when compiling: a
    constant; None when an operand is not such a string."""
    operands = [static_str(cx, n) for n in [node.left] + node.comparators]
    if not any(isinstance(x, str) for x in operands) or any(x is None for x in operands):
        return None
    result = True
    for op, a, b in zip(node.ops, operands, operands[1:]):
        fn = _STR_OPS.get(type(op))
        if fn is None:
            cx.error(f"'{type(op).__name__}' is not supported on strings in compiled code", node)
        result = result and fn(a, b)
    return Const(bool(result), T.BOOL)


def is_assigned(info: FunctionInfo, name: str) -> bool:
    base = getattr(info, "base", info)
    from script.frontend.source import _assigned_names
    return name in _assigned_names(base.node)


_STR_OPS = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: isinstance(b, tuple) and a in b or isinstance(b, str) and isinstance(a, str) and a in b,
    ast.NotIn: lambda a, b: not (isinstance(b, tuple) and a in b or isinstance(b, str) and isinstance(a, str) and a in b),
    ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}
