"""Dicts of functions used as dispatch tables: ``ops = {"+": lambda a, b: a + b, "neg": neg}``
then ``ops[t](a, b)`` and ``t in ops`` (calculators, interpreters, state machines).

Compiled code has no function values, so a local assigned such a dict once (constant str or
int keys; lambdas, or names of functions) and used only as ``table[k](...)`` and
``k in table`` / ``k not in table`` holds no value: a call compares `k` with each key in the
dict's order and calls that key's function on the arguments (evaluated once, before),
raising CPython's KeyError when no key equals it; `in` tests `k` against the tuple of the
keys. The functions are bound when compiled, as functions passed as arguments are; the
result is what their results meet at (an int and a float give a float). A module-level
dict of functions (`OPERATORS = {"+": lambda x, y: x + y, ...}`) is a dispatch table the same
way where it is used so, read when compiled as other globals are. The key is looked up
before the arguments are evaluated, as CPython does (`ops[op](st.pop(), st.pop())` with an
unknown `op` raises the KeyError with the stack untouched). Anything else is left to the
general rules and their errors.
"""

from __future__ import annotations

import ast

from script.frontend import closures, exceptions
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


def is_function(low, node) -> bool:
    """Whether `node` is a lambda or names a Python callable (not a local)."""
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
    if not all(is_function(low, v) for v in d.values):
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


def _entries(low, name_node) -> list | None:
    """The (key, function node) pairs of the dispatch table `name_node` names: a local one
    (`hold_dispatch_table`), or a global dict of functions (`OPERATORS = {"+": lambda x, y:
    x + y, "-": sub}` at module level, read when compiled as globals are); else None."""
    if not isinstance(name_node, ast.Name):
        return None
    name = name_node.id
    if name in low.dispatch_tables:
        return low.dispatch_tables[name]
    if name in low.locals or name in low.nested_functions:
        return None
    found, table = low.info.global_value(name)
    if not found or type(table) is not dict or not table or not all(
            type(k) in (str, int) and _is_callable_object(v) for k, v in table.items()):
        return None
    cache = low.info.__dict__.setdefault("_global_tables", {})
    entries = cache.get(name)
    if entries is None or [fn for _, fn in entries] != [low.pre_evaluated.get(id(n)) for _, n in entries]:
        entries = cache[name] = []
        for k, fn in table.items():
            ref = ast.Name(f"{name}[{k!r}]", ast.Load())
            entries.append((k, ref))
    for (k, ref), fn in zip(entries, table.values()):
        low.pre_evaluated[id(ref)] = PyRef(fn, ref.id)      # callee_ref finds the function
    return entries


def _is_callable_object(obj) -> bool:
    """A function a global dispatch table may hold: a def or lambda, a builtin of a module
    (math.sqrt, operator.add), an @script function."""
    import types
    if isinstance(obj, types.BuiltinFunctionType):
        return obj.__self__ is None or isinstance(obj.__self__, types.ModuleType)
    return isinstance(obj, types.FunctionType) or type(obj).__name__ == "Function" and hasattr(obj, "py_func")


def dispatch_call(low, node: ast.Call):
    """`table[k](...)` of a dispatch table, else None. As in CPython, the key is looked up
    (CPython's KeyError when no key equals it) before the arguments are evaluated."""
    f = node.func
    entries = _entries(low, f.value) if isinstance(f, ast.Subscript) else None
    if entries is None:
        return None
    loc = low.loc(node)
    key = low.expr(f.slice)
    index = low.new_var("dispatch.index", Const(-1, T.I64))
    found = low.new_block("dispatch.found")
    for i, (k, _) in enumerate(entries):
        test = ast.copy_location(ast.Compare(_placeholder(low, key, node), [ast.Eq()], [ast.Constant(k)]), node)
        hit = low.truth(low.expr(test), node)
        then, other = low.new_block("dispatch.hit"), low.new_block("dispatch.next")
        low.branch(hit, then, other, loc)
        low.seal(then)
        low.seal(other)
        low.start(then)
        low.write(index, Const(i, T.I64))
        low.goto(found, loc)
        low.start(other)
    fmt, fmt_args = low.key_message(key, node)
    exceptions.throw(low, low.emit("exception", fmt_args, T.EXC, ExcInfo("KeyError", fmt), loc), loc)
    low.finish_join(found)
    return call_entry(low, low.read(index, loc), [fn for _, fn in entries], node)


def call_entry(low, which, fns: list, node: ast.Call, call_one=None, tags=None):
    """The call `node`, its arguments evaluated once, of the function node `fns[which]`
    (`tags`: of `fns[i]` where `which` is `tags[i]`; `call_one(i, call)`: lowers the call of
    `fns[i]` instead; function_values.py)."""
    loc = low.loc(node)
    args = [low.expr(a) for a in node.args]
    kwargs = [(kw.arg, low.expr(kw.value)) for kw in node.keywords]

    def lower(i):           # (an int|float stays whole)
        call = _call(low, fns[i], args, kwargs, node)
        return low.expr_num(call) if call_one is None else call_one(i, call)
    if len(fns) == 1:
        return lower(0)
    var = low.new_var("dispatch", Const(None, T.NONE))
    done = low.new_block("dispatch.done")
    for i, fn in enumerate(fns):
        last = i == len(fns) - 1
        if not last:        # the last is the one left
            then, other = low.new_block("dispatch.call"), low.new_block("dispatch.other")
            hit = low.emit("cmp", [which, Const(i if tags is None else tags[i], T.I64)], T.BOOL, "eq", loc)
            low.branch(hit, then, other, loc)
            low.seal(then)
            low.seal(other)
            low.start(then)
        low.write(var, lower(i))
        low.goto(done, loc)
        if not last:
            low.start(other)
    low.finish_join(done)
    return low.read(var, loc)


def _call(low, fn, args, kwargs, node: ast.Call) -> ast.Call:
    return ast.copy_location(ast.Call(fn, [_placeholder(low, a, n) for a, n in zip(args, node.args)],
                                      [ast.keyword(name, _placeholder(low, v, node)) for name, v in kwargs]), node)


def table_keys_compare(low, node: ast.Compare) -> ast.Compare:
    """`node`, or for `k in table` of a dispatch table the test against the tuple of its keys
    (one rewritten node per comparison, so hints keyed by it stay)."""
    tables = {id(c): entries for c in node.comparators if (entries := _entries(low, c)) is not None}
    if not tables:
        return node
    cache = low.info.__dict__.setdefault("_dispatch_compares", {})
    new = cache.get(id(node))
    if new is None:
        comps = [ast.copy_location(ast.Tuple([ast.Constant(k) for k, _ in tables[id(c)]], ast.Load()), c)
                 if id(c) in tables else c for c in node.comparators]
        new = cache[id(node)] = ast.copy_location(ast.Compare(node.left, node.ops, comps), node)
    return new
