"""Dicts of functions used as dispatch tables: ``ops = {"+": lambda a, b: a + b, "neg": neg}``
then ``ops[t](a, b)`` and ``t in ops`` (calculators, interpreters, state machines).

Compiled code has no function values, so a local assigned such a dict once (constant str or
int keys; lambdas, or names of functions) and used only as ``table[k](...)`` and
``k in table`` / ``k not in table`` holds no value: a call compares `k` with each key in the
dict's order and calls that key's function on the arguments (evaluated once, before),
raising CPython's KeyError when no key equals it; `in` tests `k` against the tuple of the
keys. The functions are bound when compiled, as functions passed as arguments are; the
result is what their results meet at (an int and a float give a float). Anything else is
left to the general rules and their errors.
"""

from __future__ import annotations

import ast

from script.frontend import closures
from script.frontend.bound_methods import name_uses
from script.frontend.pyref import PyRef
from script.ir import types as T
from script.ir.core import Const
from script.ir.ops import ExcInfo


def _table_uses(info) -> dict:
    """Per local name of `info`'s function: [assignments, loads other than `name[k](...)` or
    the right side of `in`/`not in`]."""
    def allowed(n):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript) and isinstance(n.func.value, ast.Name):
            return (id(n.func.value),)
        if isinstance(n, ast.Compare):
            return tuple(id(c) for op, c in zip(n.ops, n.comparators)
                         if isinstance(op, (ast.In, ast.NotIn)) and isinstance(c, ast.Name))
        return ()
    return name_uses(info, "dispatch", allowed)


def _is_function(low, node) -> bool:
    if isinstance(node, ast.Lambda):
        return True
    if not isinstance(node, (ast.Name, ast.Attribute)) or isinstance(node, ast.Name) and node.id in low.locals:
        return False
    try:
        ref = low.callee_ref(node)
    except Exception:               # noqa: BLE001 - not a name of a Python object
        return False
    return isinstance(ref, PyRef) and callable(ref.obj)


def hold_dispatch_table(low, node: ast.Assign) -> bool:
    """`name = {k: f, ...}` as a dispatch table (the module's doc): True when taken so."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) or not isinstance(node.value, ast.Dict):
        return False
    d, name = node.value, node.targets[0].id
    if not d.keys or any(not (isinstance(k, ast.Constant) and type(k.value) in (str, int)) for k in d.keys):
        return False
    if _table_uses(low.info).get(name, [0, 0]) != [1, 0]:
        return False
    if not all(_is_function(low, v) for v in d.values):
        return False
    entries = []
    for i, (k, v) in enumerate(zip(d.keys, d.values)):
        if isinstance(v, ast.Lambda):
            fname = f"$table:{name}:{i}"
            closures.define_nested(low, closures.lambda_def(low, fname, v))
            v = ast.copy_location(ast.Name(fname, ast.Load()), v)
        entries.append((k.value, v))
    low.dispatch_tables[name] = entries
    return True


def _placeholder(low, value, at):
    ph = ast.copy_location(ast.Constant(None), at)
    low.pre_evaluated[id(ph)] = value
    return ph


def dispatch_call(low, node: ast.Call):
    """`table[k](...)` of a dispatch table, else None."""
    f = node.func
    if not (isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name) and f.value.id in low.dispatch_tables):
        return None
    loc = low.loc(node)
    key = low.expr(f.slice)
    args = [low.expr(a) for a in node.args]
    kwargs = [(kw.arg, low.expr(kw.value)) for kw in node.keywords]
    var = low.new_var("dispatch", Const(None, T.NONE))
    done = low.new_block("dispatch.done")
    for k, fn in low.dispatch_tables[f.value.id]:
        test = ast.copy_location(ast.Compare(_placeholder(low, key, node), [ast.Eq()], [ast.Constant(k)]), node)
        hit = low.truth(low.expr(test), node)
        then, other = low.new_block("dispatch.hit"), low.new_block("dispatch.next")
        low.branch(hit, then, other, loc)
        low.seal(then)
        low.seal(other)
        low.start(then)
        call = ast.copy_location(ast.Call(fn, [_placeholder(low, a, n) for a, n in zip(args, node.args)],
                                          [ast.keyword(name, _placeholder(low, v, node)) for name, v in kwargs]), node)
        low.write(var, low.expr(call))
        low.goto(done, loc)
        low.start(other)
    fmt, fmt_args = low.key_message(key, node)
    low.throw(low.emit("exception", fmt_args, T.EXC, ExcInfo("KeyError", fmt), loc), loc)
    low.finish_join(done)
    return low.read(var, loc)


def table_keys_compare(low, node: ast.Compare) -> ast.Compare:
    """`node`, or for `k in table` of a dispatch table the test against the tuple of its keys
    (one rewritten node per comparison, so hints keyed by it stay)."""
    if not any(isinstance(c, ast.Name) and c.id in low.dispatch_tables for c in node.comparators):
        return node
    cache = low.info.__dict__.setdefault("_dispatch_compares", {})
    new = cache.get(id(node))
    if new is None:
        comps = [ast.copy_location(ast.Tuple([ast.Constant(k) for k, _ in low.dispatch_tables[c.id]], ast.Load()), c)
                 if isinstance(c, ast.Name) and c.id in low.dispatch_tables else c for c in node.comparators]
        new = cache[id(node)] = ast.copy_location(ast.Compare(node.left, node.ops, comps), node)
    return new
