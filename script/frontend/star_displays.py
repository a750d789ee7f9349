"""Unpacking in displays: `[*a, *b, x]`, `{*xs, *ys}`, `(*t, 1)` and `{**a, **b, k: v}`.

A list or set display with `*x` is built element by element, in CPython's order: each
`*x` adds what iterating `x` gives (anything a `for` takes: a list, tuple, str, range, dict's
keys, a generator), each other element its value. A tuple's length is part of its type:
`*t` of a tuple in a tuple display adds its items to a tuple of that length, `*xs` of
anything else makes the display a tuple of run-time length (`T.VarTupleType`). `**d` in a dict display must be a dict (CPython's
TypeError "'list' object is not a mapping" otherwise, here when compiling) and adds its
items in order, later keys replacing earlier ones' values (in the first key's place).
"""

from __future__ import annotations

import ast

from script.ir import types as T
from script.ir.core import Const, Value
from script.frontend import optional, union_values


def has_star(elts) -> bool:
    return any(isinstance(e, ast.Starred) for e in elts)


def starred_list(cx, node: ast.List) -> Value:
    lst = cx.list_of_unknown(node)
    for e in node.elts:
        if isinstance(e, ast.Starred):
            cx.extend_list(lst, e.value, e)
        else:
            cx.append_item(lst, cx.expr_num(e), e)       # (a list holds an int|float whole)
    return lst


def starred_set(cx, node: ast.Set) -> Value:
    s = cx.new_table(cx.table_type(node, True), node)
    for e in node.elts:
        if isinstance(e, ast.Starred):
            cx.update_from(s, e.value, e)
        else:
            cx.table_store(s, cx.expr(e), None, e)
    return s


def starred_tuple(cx, node: ast.Tuple) -> Value:
    parts = [(isinstance(e, ast.Starred), _spread(cx, e.value) if isinstance(e, ast.Starred)
              else optional.expr_opt(cx, e, num=True, union=True)) for e in node.elts]
    if any(starred and type(v.type) is T.VarTupleType for starred, v in parts):
        return var_tuple(cx, parts, node)      # (`(*prev, x)` of a tuple of run-time length)
    elems = []
    for e, (starred, t) in zip(node.elts, parts):
        if not starred:
            elems.append(t)
            continue
        if not isinstance(t.type, T.TupleType):
            cx.error(f"*{ast.unparse(e.value)} in a tuple display must be a tuple in compiled code (the "
                     f"tuple's length is part of its type), not {t.type}; use a list", e)
        elems += [cx.emit("extract", [t], et, k, cx.loc(e)) for k, et in enumerate(t.type.elems)]
    return cx.make_tuple(elems, node)


def _spread(cx, node) -> Value:
    """What `*node` in a tuple display adds: a tuple as it is (its length is known), anything
    else a `for` takes (a list, str, range, dict's keys, a generator) as a tuple of run-time
    length of its items, taken when the display is evaluated."""
    if cx.walks_generator(node) or isinstance(node, ast.Call) and cx.builtin_call(node) is not None:
        return cx.var_tuple_of(node, node)
    v = cx.expr(node)
    if isinstance(v.type, (T.TupleType, T.VarTupleType)) and not T.is_instance_union(v.type):
        return v
    return items_of(cx, v, node)


def items_of(cx, v: Value, node, kind: type = T.VarTupleType) -> Value:
    """A new tuple of run-time length (or list: `kind`) of what a `for` over `v` gives."""
    n, item, et = cx.iterable_value(v, node)
    out = cx.new_list(et, n, node, kind)
    cx.for_range(node, n, lambda i: cx.set_item(out, item(i), i, node))
    return out


def var_tuple(cx, parts: list, node) -> Value:
    """A tuple of run-time length of `parts` ((starred, value) in order: a value, or the
    items of a tuple), of the one type their items meet at."""
    t = None
    for starred, v in parts:
        u = v.type if starred else T.TupleType([v.type])
        t = u if t is None else union_values.tuples_meet(t, u) or (t if t == u else None)
        if t is None:
            cx.error(f"the items of this tuple display are of types compiled code does not hold in one "
                     f"tuple of run-time length (one type, or a union of a few)", node)
    elem = t.elem if type(t) is T.VarTupleType else t.elems[0]
    loc = cx.loc(node)
    sizes = [cx.list_len(v, node) if type(v.type) is T.VarTupleType else
             Const(len(v.type.elems) if starred else 1, T.I64) for starred, v in parts]
    n: Value = Const(0, T.I64)
    for size in sizes:
        n = cx.emit("add", [n, size], T.I64, None, loc)
    out = cx.new_list(elem, n, node, T.VarTupleType)
    at: Value = Const(0, T.I64)
    for (starred, v), size in zip(parts, sizes):
        if type(v.type) is T.VarTupleType:
            base = at
            cx.for_range(node, size, lambda i: cx.set_item(
                out, cx.coerce(cx.get_item(v, i, node), elem, node), cx.emit("add", [base, i], T.I64, None, loc), node))
        else:
            items = [cx.emit("extract", [v], et, k, loc) for k, et in enumerate(v.type.elems)] if starred else [v]
            for k, x in enumerate(items):
                cx.set_item(out, cx.coerce(x, elem, node), cx.emit("add", [at, Const(k, T.I64)], T.I64, None, loc), node)
        at = cx.emit("add", [at, size], T.I64, None, loc)
    return out


def starred_dict(cx, node: ast.Dict) -> Value:
    d = cx.new_table(cx.table_type(node, False), node)
    for k, v in zip(node.keys, node.values):
        if k is not None:
            cx.table_store(d, cx.expr(k), cx.expr(v), v)
            continue
        src = cx.expr(v)
        if not isinstance(src.type, T.DictType):
            cx.error(f"'{ast.unparse(v)}' in a dict display must be a dict ('**' of a value of type "
                     f"{src.type}: CPython raises TypeError, it is not a mapping)", v)
        n, item, _ = cx.table_iterable(src, "items", v)
        loc = cx.loc(v)

        def put(i):
            pair = item(i)
            cx.table_store(d, cx.emit("extract", [pair], pair.type.elems[0], 0, loc),
                              cx.emit("extract", [pair], pair.type.elems[1], 1, loc), v)

        cx.for_range(v, n, put)
    return d
