"""Bound methods held in a local: ``ins = perm.insert`` then ``ins(0, x)``, ``append =
out.append`` (a common speed idiom of CPython code), ``get = counts.get``.

Compiled code has no bound-method values; a local assigned once, from a method of a list,
dict, set, str or class instance, and only ever called, is instead the object read where it
was assigned (kept in a synthetic local, so the object bound is the one Python binds even if
the name it came from is rebound later) and each call ``ins(a, b)`` is lowered as
``<that object>.insert(a, b)``. Anything else (a second assignment, the name used as a value,
an attribute that is not a method) is left to the general rules and their errors.
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.pyhooks.named_instance import lookup_class

_RECEIVERS = (T.ListType, T.HashType, T.StrType)


def name_uses(info, kind: str, allowed) -> dict:
    """Per local name of `info`'s function: [times assigned, loads other than the Name nodes
    `allowed(node)` yields ids of] (cached per `kind`)."""
    cache = info.__dict__.setdefault("_name_uses", {})
    if kind in cache:
        return cache[kind]
    ok = {i for n in ast.walk(info.node) for i in allowed(n)}
    uses: dict = {}
    for n in ast.walk(info.node):
        if isinstance(n, ast.Name):
            u = uses.setdefault(n.id, [0, 0])
            if not isinstance(n.ctx, ast.Load):
                u[0] += 1
            elif id(n) not in ok:
                u[1] += 1
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) and isinstance(n.target, ast.Name):
            uses.setdefault(n.target.id, [0, 0])[0] += 1
    cache[kind] = uses
    return uses


def _uses(info) -> dict:
    """[times assigned, loads not as a call's callee] per local name."""
    return name_uses(info, "called", lambda n: (id(n.func),) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) else ())


def hold_bound_method(low, node: ast.Assign) -> bool:
    """`name = obj.method` (see the module's doc): True when it was taken as a bound method."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) \
            or not isinstance(node.value, ast.Attribute):
        return False
    name = node.targets[0].id
    if _uses(low.info).get(name, [0, 0]) != [1, 0]:
        return False
    base = low.callee_ref(node.value.value)
    t = getattr(base, "type", None)
    if isinstance(t, T.ClassType):
        if not callable(getattr(lookup_class(t.key), node.value.attr, None)):
            return False
    elif not isinstance(t, _RECEIVERS):
        return False
    low.bound_methods[name] = (low.new_var("bound", base), node.value.attr)
    return True


def bound_method_call(low, node: ast.Call) -> ast.Call:
    """`node` itself, or for a call of a held bound method the call of that method on the
    object it was bound to (one synthetic node per call site, so hints keyed by it stay)."""
    if not isinstance(node.func, ast.Name) or node.func.id not in low.bound_methods \
            or node.func.id in low.nested_functions:
        return node
    var, attr = low.bound_methods[node.func.id]
    calls = low.info.__dict__.setdefault("_bound_method_calls", {})
    call = calls.get(id(node))
    if call is None:
        receiver = ast.copy_location(ast.Constant(None), node.func)
        func = ast.copy_location(ast.Attribute(value=receiver, attr=attr, ctx=ast.Load()), node.func)
        call = calls[id(node)] = ast.copy_location(
            ast.Call(func=func, args=node.args, keywords=node.keywords), node)
    low.pre_evaluated[id(call.func.value)] = low.read(var, low.loc(node))
    return call
