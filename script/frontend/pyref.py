"""`PyRef`: what a name in compiled code resolves to when it is a Python object rather than a
value (a module, a function, a class), found while lowering (`lower_stmt.lookup`).

A leaf, so the lowerings that test for one need not import the lowering driver (importing
`lower_stmt` closed import cycles: tests/test_import_graph.py).
"""

from __future__ import annotations

import ast
import builtins
import types


class Undefined:
    """What a name no scope defines stands for (`lookup`'s PyRef): an object no probe of a
    callee knows; reading it, an attribute of it, or calling it raises CPython's NameError
    there (lower_stmt `name_error`)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


class PyRef:
    """A name that resolves to a Python object rather than a value (a module, a function)."""

    __slots__ = ("obj", "name")

    def __init__(self, obj, name: str):
        self.obj = obj
        self.name = name


def named_object(node, bound, resolve):
    """Before lowering: the global or builtin object a name or dotted name (`open`,
    `itertools.chain`) is, or None (a name in `bound`, the function's own, or an unknown
    one). `resolve(name)` is `(found, value)` for a free name (FunctionInfo.global_value)."""
    if isinstance(node, ast.Attribute):
        owner = named_object(node.value, bound, resolve)
        return getattr(owner, node.attr, None) if owner is not None else None
    if not isinstance(node, ast.Name) or node.id in bound:
        return None
    found, obj = resolve(node.id)
    return obj if found else getattr(builtins, node.id, None)


def bound_names(fn: ast.FunctionDef) -> set[str]:
    """The names `fn` binds anywhere (parameters and stores, nested scopes included)."""
    return {n.arg if isinstance(n, ast.arg) else n.id for n in ast.walk(fn)
            if isinstance(n, ast.arg) or isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def global_callee(low, func):
    """The Python object a callee `func` names when it is a global name or an attribute of
    a module's or a class's (`takewhile`, `itertools.takewhile`, `np.random.rand`), else None;
    an attribute of a value, a local's (`s.split`), a global's (`TEMPLATE.format`) or a
    module's (`string.digits.find`), is not evaluated, since a bound method is no value
    here."""
    base = func
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name) or base.id in low.locals:
        return None
    if base is not func:
        ref = low.lookup(base)
        if not (isinstance(ref, PyRef) and isinstance(ref.obj, (types.ModuleType, type))):
            return None
        attrs, node = [], func.value
        while node is not base:
            attrs.append(node.attr)
            node = node.value
        obj = ref.obj
        for attr in reversed(attrs):    # every object on the way a module or a class
            obj = getattr(obj, attr, None)
            if not isinstance(obj, (types.ModuleType, type)):
                return None             # `string.ascii_uppercase.find`: a str's method
    ref = low.callee_ref(func)
    return ref.obj if isinstance(ref, PyRef) else None


def static_callee(cx, func):
    """The Python object a call's `func` names (a global function, `module.function`, or a
    nested function: `cx.nested_functions`), found without building anything (what
    generators.generator_info asks, before the call is lowered); None for anything else."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        base = static_callee(cx, func.value)
        return getattr(base, func.attr, None) if type(base).__name__ == "module" else None
    if not isinstance(func, ast.Name) or func.id in cx.locals \
            or (cx.comp_scopes and cx.comprehension_var(func.id)):
        return None
    if func.id in cx.nested_functions:
        return cx.nested_functions[func.id]
    found, obj = cx.info.global_value(func.id)
    return obj if found else None


def is_type_call(cx, node) -> bool:
    """Whether `node` is ``type(x)`` (the builtin)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in cx.locals):
        return False
    ref = cx.lookup(node.func)
    return isinstance(ref, PyRef) and ref.obj is type
