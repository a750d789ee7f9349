"""Functions held in a local and only called: ``sqrt = math.sqrt``, ``op = operator.lt if
reverse else operator.gt``, ``pick = max if largest else min``, ``fn = helper`` then
``if k: fn = other``.

Compiled code has no function values. A local every assignment of which gives it a function
(a name or attribute of a Python callable: a def, a lambda, a builtin, a module's function,
an @script function, a class; or a conditional expression choosing between such), and which
is only ever called, holds instead the index of the function it was given, among the
functions its assignments name (in the order of the source); a call ``op(a, b)`` evaluates
its arguments once, then calls the function of that index on them, as a dispatch table's
call does (dispatch_tables.py). The functions are bound when compiled, as functions passed
as arguments are; the result is what their results meet at. Anything else (the name passed
as a value, stored, returned, a binding that is not a function) is left to the general rules
and their errors.
"""

from __future__ import annotations

import ast

from script.frontend import closures
from script.frontend.bound_methods import name_uses
from script.frontend.dispatch_tables import call_entry, is_function
from script.ir import types as T
from script.ir.core import Const


def _choices(node) -> list:
    """The function nodes a held function's assigned value may name, or None when it is not
    such a value."""
    if isinstance(node, ast.IfExp):
        a, b = _choices(node.body), _choices(node.orelse)
        return None if a is None or b is None else a + b
    return [node] if isinstance(node, (ast.Name, ast.Attribute, ast.Lambda)) else None


def _held(low) -> dict:
    """{local name: [its assignments]} of the names that may hold functions: assigned only by
    plain assignments of function expressions, and loaded only as a call's callee."""
    cache = low.info.__dict__.get("_held_functions")
    if cache is not None:
        return cache
    uses = name_uses(low.info, "called", lambda n: (id(n.func),) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) else ())
    assigns: dict = {}
    for n in ast.walk(low.info.node):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _choices(n.value) is not None:
            assigns.setdefault(n.targets[0].id, []).append(n)
    inner = {n.id for scope in ast.walk(low.info.node) if scope is not low.info.node
             and isinstance(scope, (ast.Lambda, ast.FunctionDef)) for n in ast.walk(scope) if isinstance(n, ast.Name)}
    cache = {name: nodes for name, nodes in assigns.items() if uses.get(name, [0, 0]) == [len(nodes), 0]
             and name not in low.info.param_names and name not in inner}     # (not a closure's)
    low.info.__dict__["_held_functions"] = cache
    return cache


def hold_function(low, node: ast.Assign) -> bool:
    """`name = <function>` (the module's doc): True when taken so."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return False
    name = node.targets[0].id
    nodes = _held(low).get(name)
    if nodes is None or name in low.nested_functions:
        return False
    fns = [c for n in nodes for c in _choices(n.value)]
    if not all(is_function(low, f) for f in fns) or fns == [node.value] and isinstance(node.value, ast.Lambda):
        return False            # (one lambda: a nested function of that name, closures.assign_lambda)
    entries = low.held_functions.get(name)
    if entries is None:
        entries = low.held_functions[name] = (low.new_var("held.fn", Const(0, T.I64)), _named(low, name, fns))
    var, _ = entries
    first = sum(len(_choices(n.value)) for n in nodes[:nodes.index(node)])
    low.write(var, _index_of(low, node.value, first))
    return True


def _named(low, name: str, fns: list) -> list:
    """The function nodes, lambdas defined as nested functions of their own names."""
    out = []
    for i, f in enumerate(fns):
        if isinstance(f, ast.Lambda):
            fname = f"$held:{name}:{i}"
            closures.define_nested(low, closures.lambda_def(low, fname, f))
            f = ast.copy_location(ast.Name(fname, ast.Load()), f)
        out.append(f)
    return out


def _index_of(low, value, first: int):
    """The index (among the name's functions) of the function `value` chooses, the first of
    its choices numbered `first`."""
    if not isinstance(value, ast.IfExp):
        return Const(first, T.I64)
    cond = low.truth(low.expr(value.test), value.test)
    after = first + len(_choices(value.body))
    return low.choose(cond, lambda: _index_of(low, value.body, first),
                      lambda: _index_of(low, value.orelse, after), value)


def held_function_call(low, node: ast.Call):
    """`name(...)` of a held function, else None."""
    if not isinstance(node.func, ast.Name) or node.func.id not in low.held_functions:
        return None
    var, fns = low.held_functions[node.func.id]
    return call_entry(low, low.read(var, low.loc(node)), fns, node)
