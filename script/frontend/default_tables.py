"""`collections.defaultdict` and `collections.Counter` in compiled code: dicts whose missing
keys read as a default.

Both are plain dicts (`T.DictType`) in compiled code and when returned; what is special is
how `d[k]` reads a missing key, and that depends on the variable, not the type (types do not
say where a table was made). So a variable assigned `defaultdict(f)` or `Counter(...)` is
recorded by name (`table_defaults`, per round), and `d[k]` and `d[k] op= v` through that
name use its default:

- a defaultdict inserts `f()` (CPython's `__missing__`): `d[k] += 1`, `d[k].append(x)`
  (the list inserted is the one appended to, a reference);
- a Counter gives 0 and inserts nothing (`c[k] += 1` stores the sum).

`f` is any function compiled code can call with no arguments: `int`, `float`, `str`,
`bool`, `list`, `set`, a lambda, a nested or global function. `Counter(iterable)` counts the
elements; `c.most_common(n)` (dictlib.most_common) gives the `(key, count)` pairs by count,
ties in insertion order, as CPython's; `c.update(x)` / `c.subtract(x)` of an iterable or of
another Counter or dict, `c.total()`, `c.elements()` and `a + b`, `a - b` of two Counters
(collectionslib; the result is a Counter again when named) work as CPython's. A name that holds a defaultdict or Counter and is
assigned anything else is a CompileError (the default would silently change). Passed to
another function, or returned from one, such a dict keeps its default there (table_args.py).
"""

from __future__ import annotations

import ast
import collections

from script.frontend import ast_order, dicts, keyed
from script.lib.python import collectionslib, dictlib
from script.frontend.dicts import _VALUE
from script.frontend.pyref import PyRef
from script.frontend.table_args import is_counter
from script.ir import types as T
from script.ir.core import Const, Value

_COUNTER, _DEFAULT = "Counter", "defaultdict"
COUNTER_METHODS = ("update", "subtract", "total", "elements")


class TableDefaults:
    """The defaults of one function's defaultdicts and Counters (`FunctionLowering.table_defaults`)."""

    __slots__ = ("calls", "names")

    def __init__(self, info):
        self.calls: dict = {}       # id(call node) -> (kind, factory node)
        # variable name -> (kind, factory node); a nested function's free variables
        # start with the enclosing function's (closures.share_table_defaults)
        self.names: dict = dict(getattr(info, "free_defaults", {}))


def default_kind(cx, obj) -> str | None:
    """Which special dict a call of `obj` makes, or None."""
    if obj is collections.defaultdict:
        return _DEFAULT
    if obj is collections.Counter:
        return _COUNTER
    return None


def make_default_table(cx, kind: str, node: ast.Call) -> Value:
    """`defaultdict(f)` / `Counter()` / `Counter(iterable)`: a new dict, its default
    kept for the assignment that names it (`note_default_table`)."""
    if node.keywords:
        cx.error(f"{kind}() with keyword arguments is not supported in compiled code", node)
    if len(node.args) > 1:
        cx.error(f"{kind}() takes at most one argument in compiled code (defaultdict(factory), "
                 "Counter(iterable))", node)
    d = dicts.new_table(cx, dicts.table_type(cx, node, False), node)
    factory = node.args[0] if node.args and kind == _DEFAULT else None
    if isinstance(factory, ast.Constant) and factory.value is None:
        factory = None
    cx.table_defaults.calls[id(node)] = (kind, factory)
    refuse_lost_default(cx, node, kind)
    if kind == _COUNTER and node.args:
        counter_method(cx, d, "update", node)      # an iterable counted, a mapping's counts copied
    return d


def count_into(cx, d: Value, x: Value, node, step: int = 1) -> None:
    j, key = dicts.table_lookup(cx, d, x, node)
    dicts.table_store(cx, d, key, cx.emit("add", [missing_or(cx, d, j, _COUNTER, None, key, node),
                                              Const(step, T.I64)], T.I64, None, cx.loc(node)), node)


def note_default_table(cx, target, value_node) -> None:
    """After `target = value_node` (stmt_Assign): remember the default of a name assigned
    a defaultdict or Counter; reject another value assigned to such a name."""
    if isinstance(target, ast.Tuple) and isinstance(value_node, ast.Tuple) and \
            len(target.elts) == len(value_node.elts):          # `a, b = Counter(x), Counter(y)`
        for t, v in zip(target.elts, value_node.elts):
            note_default_table(cx, t, v)
        return
    if not isinstance(target, ast.Name):
        return
    calls = cx.table_defaults.calls
    made = calls.get(id(value_node))
    if made is not None and "." in target.id:      # `self.c = Counter()`: a field (records.py's name)
        _refuse_stored(cx, made[0], value_node)
    if made is not None:
        old = cx.table_defaults.names.get(target.id)
        if old is not None and (old[0], ast.dump(old[1]) if old[1] else None) != \
                (made[0], ast.dump(made[1]) if made[1] else None):
            cx.error(f"'{target.id}' holds a {old[0]} with another default; use another name", target)
        cx.table_defaults.names[target.id] = made
        for n in ast.walk(cx.info.node):
            if isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load):
                refuse_lost_default(cx, n, made[0])
    elif target.id in cx.table_defaults.names:
        cx.error(f"'{target.id}' holds a {cx.table_defaults.names[target.id][0]}; assigning it another "
                 "value is not supported in compiled code (use another name)", target)


_STORING_METHODS = ("append", "appendleft", "insert", "add", "setdefault")


def refuse_lost_default(cx, node, kind: str) -> None:
    """CompileError where the defaultdict or Counter `node` makes or names is stored into a
    container or an attribute (`stored_into`): its default belongs to a name (this module's
    docstring), so there it would be a plain dict whose missing key raises KeyError where
    CPython's gives the default."""
    if stored_into(cx, node):
        _refuse_stored(cx, kind, node)


def stored_into(cx, node, fields: bool = False) -> bool:
    """Whether the value of expression `node` goes into a container or an attribute (`d[k] =
    x`, `(k, x)`, `{k: x}`, `[x]`, `xs.append(x)`, `self.f = x` unless `fields`), rather than
    to a name, a `return`, a call's argument or an operator. Not a tuple unpacked at once
    (`a, b = x, y`, `return x, y`)."""
    parents = ast_order.parents(cx)
    parent = parents.get(id(node))
    above = parents.get(id(parent))
    if isinstance(parent, ast.Tuple) and (isinstance(above, ast.Return) or isinstance(above, ast.Assign) and all(
            isinstance(t, ast.Tuple) and len(t.elts) == len(parent.elts) for t in above.targets)):
        return False        # `a, b = Counter(x), Counter(y)` (note_default_table); `return d, t`
    if isinstance(parent, ast.Dict):
        return not any(v is node and k is None for k, v in zip(parent.keys, parent.values))    # (`{**d}`)
    if isinstance(parent, (ast.Tuple, ast.List, ast.Set, ast.ListComp, ast.SetComp, ast.GeneratorExp,
                           ast.DictComp)):
        return True         # (not `[*x]`, `f(*x)`: its items are stored)
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is node:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return not all(isinstance(t, ast.Name) or fields and isinstance(t, ast.Attribute) for t in targets)
    return isinstance(parent, ast.Call) and node is not parent.func and isinstance(parent.func, ast.Attribute) \
        and parent.func.attr in _STORING_METHODS


def _refuse_stored(cx, kind: str, node) -> None:
    cx.error(f"a {kind} stored in a container or an attribute is not supported in compiled code "
             "(its missing keys would raise KeyError there, where CPython gives the default)", node)


def table_default_of(cx, base_node):
    """(kind, factory node) when `base_node` names a defaultdict or Counter, or makes one
    (`Counter(xs).most_common(3)`)."""
    calls = cx.table_defaults.calls
    if isinstance(base_node, ast.Call):
        return calls.get(id(base_node))
    if isinstance(base_node, ast.BinOp) and isinstance(base_node.op, (ast.Add, ast.Sub, ast.BitOr, ast.BitAnd)) \
            or isinstance(base_node, ast.UnaryOp) and isinstance(base_node.op, (ast.UAdd, ast.USub)):
        parts = (base_node.left, base_node.right) if isinstance(base_node, ast.BinOp) else (base_node.operand,)
        counters = all(is_counter(cx, n) for n in parts)
        return (_COUNTER, None) if counters else None      # `(a + b)[k]`, `(+c)[k]`: a Counter's
    if isinstance(base_node, ast.Subscript):        # `c[a][b] += 1`: what c's factory makes
        outer = table_default_of(cx, base_node.value)
        return _default_made_by(cx, outer[1]) if outer is not None and outer[0] == _DEFAULT else None
    if not isinstance(base_node, ast.Name):
        return None
    default = cx.table_defaults.names.get(base_node.id)
    if default is not None and default[0] == _DEFAULT and default[1] is None:
        return None                 # defaultdict() without a factory: a dict
    return default


def _default_made_by(cx, factory):
    """(kind, factory node) of the defaultdict or Counter a defaultdict's `factory` makes:
    `lambda: defaultdict(int)`, `lambda: Counter()`, `Counter`; None for anything else
    (its values are plain dicts)."""
    if isinstance(factory, ast.Lambda) and isinstance(factory.body, ast.Call):
        call = factory.body
        kind = default_kind(cx, _global_object(cx, call.func))
        if kind is None or call.keywords or len(call.args) > (1 if kind == _DEFAULT else 0):
            return None
        inner = call.args[0] if call.args and kind == _DEFAULT else None
        if isinstance(inner, ast.Constant) and inner.value is None or kind == _DEFAULT and inner is None:
            return None
        return kind, inner
    if default_kind(cx, _global_object(cx, factory)) == _COUNTER:
        return _COUNTER, None
    return None


def _global_object(cx, node):
    """The module-level object `node` (a name or `module.name`, not a local) names, or None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id not in cx.locals:
        module = cx.lookup(node.value)
        return getattr(getattr(module, "obj", None), node.attr, None) if isinstance(module, PyRef) else None
    if isinstance(node, ast.Name) and node.id not in cx.locals:
        return getattr(cx.lookup(node), "obj", None)
    return None


def missing_or(cx, d: Value, j: Value, kind: str, factory, key: Value, node) -> Value:
    """The value of entry `j` of `d`, or when `j` < 0 the default (a defaultdict's
    `factory()` inserted under `key` first; a Counter's 0)."""
    found = cx.cmp("ge", j, Const(0, T.I64), node)

    def missing():
        if kind == _COUNTER:
            return cx.coerce(Const(0, T.I64), d.type.value, node)
        v = default_value(cx, factory, node)
        dicts.table_store(cx, d, key, v, node)
        return cx.coerce(v, d.type.value, node)

    return cx.choose(found, lambda: dicts.entry_part(cx, d, j, _VALUE, node), missing, node)


def default_value(cx, factory, node) -> Value:
    """`factory()`, through a call node made once per factory (kept in the hints, so that
    a `list()` it makes is the same list node, with its element type, every round)."""
    if isinstance(factory, ast.Lambda):
        return keyed.call_function_node(cx, factory, [], node)
    call = cx.hints.get(("default_call", id(factory)))
    if call is None:
        call = cx.hints[("default_call", id(factory))] = ast.copy_location(
            ast.Call(func=factory, args=[], keywords=[]), node)
    return cx.expr(call)


def default_subscript(cx, d: Value, default, index_node, node) -> Value:
    """`d[k]` of a defaultdict or Counter."""
    j, key = dicts.table_lookup(cx, d, index_node, node)
    return missing_or(cx, d, j, default[0], default[1], key, node)


def default_aug_assign(cx, d: Value, default, node: ast.AugAssign) -> None:
    """`d[k] op= v` of a defaultdict or Counter: the default (inserted, for a
    defaultdict), then the result stored."""
    j, key = dicts.table_lookup(cx, d, cx.expr(node.target.slice), node)
    current = missing_or(cx, d, j, default[0], default[1], key, node)
    dicts.table_store(cx, d, key, cx.binop(type(node.op), current, cx.expr(node.value), node), node)


def counter_most_common(cx, d: Value, node: ast.Call) -> Value:
    """`c.most_common()` / `c.most_common(n)`."""
    if len(node.args) > 1:
        cx.error(f"most_common expected at most 1 argument, got {len(node.args)}", node)
    items = cx.view_list(d, "items", ast.copy_location(ast.Call(func=node.func, args=[], keywords=[]), node))
    n = cx.coerce(cx.expr(node.args[0]), T.I64, node) if node.args else cx.list_len(items, node)
    return dicts.table_call(cx, dictlib.most_common, [items, n], node)


def fromkeys_call(cx, node) -> bool:
    """Whether `node` calls dict.fromkeys or OrderedDict.fromkeys (module names resolved
    only; nothing evaluated)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fromkeys"):
        return False
    ref = _global_object(cx, node.func.value)
    return ref is dict or ref is collections.OrderedDict


def fromkeys_keys(cx, node):
    """`iterable` of `dict.fromkeys(xs)` without a value (`list(dict.fromkeys(xs))`, the
    order-keeping dedupe): its keys, first occurrences first; None otherwise."""
    if not fromkeys_call(cx, node) or len(node.args) != 1 or node.keywords:
        return None
    keys = cx.call_script(cx.ctx.info_for(collectionslib.first_occurrences), node)
    return cx.iterable_value(keys, node)


def lower_fromkeys(cx, node: ast.Call) -> Value:
    if node.keywords or not 1 <= len(node.args) <= 2:
        cx.error("fromkeys() takes an iterable and a value", node)
    fn = collectionslib.fromkeys if len(node.args) == 2 else collectionslib.fromkeys_none
    return cx.call_script(cx.ctx.info_for(fn), node)


def counter_method(cx, c: Value, name: str, node: ast.Call) -> Value:
    """`c.update(x)`, `c.subtract(x)` (an iterable counted, or a dict's counts added),
    `c.total()`, `c.elements()` of a Counter."""
    if name in ("total", "elements"):
        cx.positional(node, name, 0)
        return cx.call_script(cx.ctx.info_for(getattr(collectionslib, name)), node, first=c)
    if node.keywords or len(node.args) > 1:
        cx.error(f"Counter.{name}() takes at most one iterable or mapping in compiled code", node)
    dicts.check_table_writable(cx, c, node)
    if not node.args:
        return Const(None, T.NONE, cx.loc(node))
    arg = node.args[0]
    other = cx.pre_evaluate(arg) if not cx.walks_generator(arg) else None
    if other is not None and isinstance(other.type, T.DictType):
        sign = Const(1 if name == "update" else -1, T.I64)
        cx.call_script(cx.ctx.info_for(collectionslib.update_from), ast.Call(node.func, [], []),
                                      leading=(c, other, sign))
        return Const(None, T.NONE, cx.loc(node))
    if name == "update":
        cx.each(arg, lambda x: count_into(cx, c, x, node))
    else:
        cx.each(arg, lambda x: count_into(cx, c, x, node, -1))
    return Const(None, T.NONE, cx.loc(node))


def counter_unary(cx, op: type, c: Value, node) -> Value:
    """`+c` / `-c` of a known Counter: its positive counts, or its negative ones negated."""
    fn = collectionslib.positive if op is ast.UAdd else collectionslib.negative
    return cx.call_script(cx.ctx.info_for(fn), ast.Call(ast.Name("Counter", ast.Load()), [], []), leading=(c,))


def counter_binop(cx, op: type, a: Value, b: Value, node) -> Value:
    """`a + b` / `a - b` of two Counters (dicts of ints: plain dicts have no `+`), `a | b`
    / `a & b` of two known Counters (table_args.both_counters); the
    result reads missing keys as 0 when assigned to a name, as a Counter does."""
    fn = {ast.Add: collectionslib.add, ast.Sub: collectionslib.sub, ast.BitOr: collectionslib.union,
          ast.BitAnd: collectionslib.intersection}[op]
    cx.table_defaults.calls[id(node)] = (_COUNTER, None)
    return cx.call_script(cx.ctx.info_for(fn), ast.Call(ast.Name("Counter", ast.Load()), [], []),
                                         leading=(a, b))
